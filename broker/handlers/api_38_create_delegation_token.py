"""CreateDelegationToken (key 38), v1-3 (KIP-48; v3 adds the owner, KIP-373).

Makes a delegation token for the caller, or (v3) for the owner the request names.
Checked as Kafka 4.4.0 does, in this order, each answer carrying the owner and (v3)
the requester with -1 timestamps: a PLAINTEXT listener, an SSL one without a client
certificate, or a caller authenticated by a token itself,
DELEGATION_TOKEN_REQUEST_NOT_ALLOWED; an owner other than the caller without
CREATE_TOKENS on the owner's User resource, DELEGATION_TOKEN_AUTHORIZATION_FAILED; a
renewer whose principal type is not ``User``, INVALID_PRINCIPAL_TYPE. Then the
controller's part (broker.security.tokens): no ``delegation.token.secret.key``,
DELEGATION_TOKEN_AUTH_DISABLED (timestamps 0, as Kafka's controller answers); else
the token, with its lifetime (``MaxLifetimeMs`` when positive and below
``delegation.token.max.lifetime.ms``), expiry and HMAC. The token is durable (data
directory, or etcd in a cluster, followed by every broker) before the answer.

Difference from Kafka: an owner named without a principal type is
INVALID_PRINCIPAL_TYPE (Kafka fails with an unexpected server error).
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._security import security_store
from broker.handlers._tokens import authorized, token_requests_allowed
from broker.handlers.context import RequestContext
from broker.protocol.auth import KafkaPrincipal
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.create_delegation_token_request import CreateDelegationTokenRequest
from broker.protocol.messages.create_delegation_token_response import CreateDelegationTokenResponse
from broker.security.authorizer import AclOperation, ResourceType


def _requester(resp: CreateDelegationTokenResponse, version: int, requester: KafkaPrincipal) -> None:
    if version >= 3:  # the requester fields are v3+
        resp.token_requester_principal_type = requester.type
        resp.token_requester_principal_name = requester.name


def _answer(
    version: int, code: int, owner: KafkaPrincipal, requester: KafkaPrincipal, *, early: bool
) -> CreateDelegationTokenResponse:
    """Kafka's CreateDelegationTokenResponse.prepareResponse (early: refused by the broker,
    -1 timestamps) or its controller's error answer (0 timestamps)."""
    stamp = -1 if early else 0
    resp = CreateDelegationTokenResponse(
        error_code=code,
        principal_type=owner.type,
        principal_name=owner.name,
        issue_timestamp_ms=stamp,
        expiry_timestamp_ms=stamp,
        max_timestamp_ms=stamp,
    )
    _requester(resp, version, requester)
    return resp


@handler(38, min_version=1, max_version=3)
async def handle(ctx: RequestContext, req: CreateDelegationTokenRequest) -> CreateDelegationTokenResponse:
    requester = ctx.connection.principal
    owner = requester
    if req.owner_principal_name:
        if req.owner_principal_type is None:
            return _answer(ctx.api_version, ErrorCode.INVALID_PRINCIPAL_TYPE, requester, requester, early=True)
        owner = KafkaPrincipal(req.owner_principal_type, req.owner_principal_name)
    if not token_requests_allowed(ctx):
        return _answer(ctx.api_version, ErrorCode.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, owner, requester, early=True)
    if owner != requester and not authorized(ctx, AclOperation.CREATE_TOKENS, ResourceType.USER, str(owner)):
        return _answer(ctx.api_version, ErrorCode.DELEGATION_TOKEN_AUTHORIZATION_FAILED, owner, requester, early=True)
    renewers = [KafkaPrincipal(r.principal_type, r.principal_name) for r in req.renewers]
    if any(r.type != "User" for r in renewers):
        return _answer(ctx.api_version, ErrorCode.INVALID_PRINCIPAL_TYPE, owner, requester, early=True)
    outcome = await security_store(ctx).create_token(
        ctx.services.now_ms(), requester, owner, renewers, req.max_lifetime_ms
    )
    token = outcome.token
    if token is None:
        return _answer(ctx.api_version, outcome.error_code, owner, requester, early=False)
    resp = CreateDelegationTokenResponse(
        error_code=ErrorCode.NONE,
        principal_type=token.owner.type,
        principal_name=token.owner.name,
        issue_timestamp_ms=token.issue_ms,
        expiry_timestamp_ms=token.expiry_ms,
        max_timestamp_ms=token.max_ms,
        token_id=token.token_id,
        hmac=outcome.hmac,
    )
    _requester(resp, ctx.api_version, token.requester)
    return resp
