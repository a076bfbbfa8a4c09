"""DescribeDelegationToken (key 41), v1-3 (KIP-48; v3 adds the requester, KIP-373).

The tokens the caller may see, with their HMACs: every token when ``Owners`` is null,
none when it is empty, else those owned or renewable by one of the owners named. A
token is shown to its owner and its renewers, to a caller with DESCRIBE on its
DelegationToken resource (the token id), and to one with DESCRIBE_TOKENS on the User
resource of its owner; the others are left out. As Kafka 4.4.0: refused on a
PLAINTEXT listener, an SSL one without a client certificate, or a token-authenticated
connection (DELEGATION_TOKEN_REQUEST_NOT_ALLOWED); no secret key,
DELEGATION_TOKEN_AUTH_DISABLED. Tokens past their expiry are listed until the
expiry check (``delegation.token.expiry.check.interval.ms``) removes them. Kafka lists
tokens in no set order; they come oldest first here.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._security import security_store
from broker.handlers._tokens import may_describe_token, may_describe_tokens_of, token_requests_allowed
from broker.handlers.context import RequestContext
from broker.protocol.auth import KafkaPrincipal
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.describe_delegation_token_request import DescribeDelegationTokenRequest
from broker.protocol.messages.describe_delegation_token_response import (
    DescribedDelegationToken,
    DescribedDelegationTokenRenewer,
    DescribeDelegationTokenResponse,
)


@handler(41, min_version=1, max_version=3)
async def handle(ctx: RequestContext, req: DescribeDelegationTokenRequest) -> DescribeDelegationTokenResponse:
    if not token_requests_allowed(ctx):
        return DescribeDelegationTokenResponse(error_code=ErrorCode.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED)
    tokens = security_store(ctx).tokens
    if not tokens.enabled:
        return DescribeDelegationTokenResponse(error_code=ErrorCode.DELEGATION_TOKEN_AUTH_DISABLED)
    owners = None if req.owners is None else [KafkaPrincipal(o.principal_type, o.principal_name) for o in req.owners]
    found = tokens.describe(
        ctx.connection.principal,
        owners,
        lambda token_id: may_describe_token(ctx, token_id),
        lambda owner: may_describe_tokens_of(ctx, owner),
    )
    v3 = ctx.api_version >= 3  # the requester fields are v3+
    return DescribeDelegationTokenResponse(
        error_code=ErrorCode.NONE,
        tokens=[
            DescribedDelegationToken(
                principal_type=t.owner.type,
                principal_name=t.owner.name,
                token_requester_principal_type=t.requester.type if v3 else "",
                token_requester_principal_name=t.requester.name if v3 else "",
                issue_timestamp=t.issue_ms,
                expiry_timestamp=t.expiry_ms,
                max_timestamp=t.max_ms,
                token_id=t.token_id,
                hmac=hmac,
                renewers=[
                    DescribedDelegationTokenRenewer(principal_type=r.type, principal_name=r.name) for r in t.renewers
                ],
            )
            for t, hmac in found
        ],
    )
