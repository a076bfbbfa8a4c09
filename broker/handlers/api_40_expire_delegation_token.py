"""ExpireDelegationToken (key 40), v1-2 (KIP-48).

Sets the expiry of the token whose HMAC the request carries to ``now +
ExpiryTimePeriodMs`` (never past its maximum), or, with a negative period, removes
the token at once and answers ``now``: it no longer authenticates and connections it
opened close at their next request. As Kafka 4.4.0: refused on a PLAINTEXT listener,
an SSL one without a client certificate, or a token-authenticated connection
(DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, expiry -1); no secret key,
DELEGATION_TOKEN_AUTH_DISABLED; an unknown HMAC, DELEGATION_TOKEN_NOT_FOUND; a caller
who is neither owner nor renewer, DELEGATION_TOKEN_OWNER_MISMATCH; a non-negative
period on a token already past its expiry, DELEGATION_TOKEN_EXPIRED (those with expiry
0). No ACL is checked: ownership decides. The change is durable before the answer.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._tokens import change_expiry
from broker.handlers.context import RequestContext
from broker.protocol.messages.expire_delegation_token_request import ExpireDelegationTokenRequest
from broker.protocol.messages.expire_delegation_token_response import ExpireDelegationTokenResponse
from broker.security.store import SecurityStore


@handler(40, min_version=1, max_version=2)
async def handle(ctx: RequestContext, req: ExpireDelegationTokenRequest) -> ExpireDelegationTokenResponse:
    return await change_expiry(
        ctx, ExpireDelegationTokenResponse, SecurityStore.expire_token, bytes(req.hmac), req.expiry_time_period_ms
    )
