"""RenewDelegationToken (key 39), v1-2 (KIP-48).

Extends the expiry of the token whose HMAC the request carries to ``now +
RenewPeriodMs`` (``delegation.token.expiry.time.ms`` when the period is not positive
or is longer), never past the token's maximum. As Kafka 4.4.0: refused on a PLAINTEXT
listener, an SSL one without a client certificate, or a token-authenticated
connection (DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, expiry -1); no secret key,
DELEGATION_TOKEN_AUTH_DISABLED; an unknown HMAC, DELEGATION_TOKEN_NOT_FOUND; a token
past its expiry or maximum, DELEGATION_TOKEN_EXPIRED; a caller who is neither its
owner nor a renewer, DELEGATION_TOKEN_OWNER_MISMATCH (those with expiry 0). No ACL is
checked: ownership decides. The new expiry is durable before the answer.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._tokens import change_expiry
from broker.handlers.context import RequestContext
from broker.protocol.messages.renew_delegation_token_request import RenewDelegationTokenRequest
from broker.protocol.messages.renew_delegation_token_response import RenewDelegationTokenResponse
from broker.security.store import SecurityStore


@handler(39, min_version=1, max_version=2)
async def handle(ctx: RequestContext, req: RenewDelegationTokenRequest) -> RenewDelegationTokenResponse:
    return await change_expiry(
        ctx, RenewDelegationTokenResponse, SecurityStore.renew_token, bytes(req.hmac), req.renew_period_ms
    )
