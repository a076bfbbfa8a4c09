"""SaslHandshake (key 17), v0-1.

On SASL_PLAINTEXT and SASL_SSL listeners every SaslHandshake is taken by the
connection's authentication state machine (``broker/protocol/auth.py``) and never
reaches this handler. Here it arrives on PLAINTEXT and SSL listeners, where Kafka
answers ILLEGAL_SASL_STATE: there is nothing to authenticate with SASL.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.sasl_handshake_request import SaslHandshakeRequest
from broker.protocol.messages.sasl_handshake_response import SaslHandshakeResponse


@handler(17, min_version=0, max_version=1)
async def handle(ctx: RequestContext, req: SaslHandshakeRequest) -> SaslHandshakeResponse:
    return SaslHandshakeResponse(error_code=ErrorCode.ILLEGAL_SASL_STATE, mechanisms=[])
