"""SaslAuthenticate (key 36), v0-2.

Like SaslHandshake, taken by the authentication state machine on SASL listeners;
on PLAINTEXT and SSL listeners it is answered ILLEGAL_SASL_STATE, as Kafka does.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.sasl_authenticate_request import SaslAuthenticateRequest
from broker.protocol.messages.sasl_authenticate_response import SaslAuthenticateResponse


@handler(36, min_version=0, max_version=2)
async def handle(ctx: RequestContext, req: SaslAuthenticateRequest) -> SaslAuthenticateResponse:
    return SaslAuthenticateResponse(
        error_code=ErrorCode.ILLEGAL_SASL_STATE,
        error_message="SaslAuthenticate request received after successful authentication",
        auth_bytes=b"",
    )
