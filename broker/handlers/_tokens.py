"""Shared by the four delegation-token APIs (38-41): who may ask at all, the ACL checks,
and the answer of the two that change a token's expiry (Renew, Expire).

Kafka's KafkaApis.allowTokenRequests: token requests are refused
(DELEGATION_TOKEN_REQUEST_NOT_ALLOWED) on a PLAINTEXT listener, on an SSL listener
without a client certificate (principal ANONYMOUS), and on a connection that itself
authenticated with a delegation token, so a token cannot make or extend tokens.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from broker.handlers._security import security_store
from broker.handlers.context import RequestContext
from broker.protocol.auth import ANONYMOUS, KafkaPrincipal
from broker.protocol.errors import ErrorCode
from broker.security.authorizer import AclOperation, ResourceType
from broker.security.store import SecurityStore
from broker.security.tokens import ChangeOutcome


class ExpiryResponse(Protocol):
    """RenewDelegationTokenResponse and ExpireDelegationTokenResponse (what their answer takes)."""

    def __init__(self, *, error_code: int, expiry_timestamp_ms: int) -> None: ...


E = TypeVar("E", bound=ExpiryResponse)
# SecurityStore.renew_token or .expire_token: (store, now ms, principal, HMAC, period ms) -> outcome.
ExpiryChange = Callable[[SecurityStore, int, KafkaPrincipal, bytes, int], Awaitable[ChangeOutcome]]


def token_requests_allowed(ctx: RequestContext) -> bool:
    conn = ctx.connection
    if conn.principal.token_authenticated or conn.security_protocol == "PLAINTEXT":
        return False
    return not (conn.security_protocol == "SSL" and conn.principal == ANONYMOUS)


def authorized(ctx: RequestContext, operation: AclOperation, resource: ResourceType, name: str) -> bool:
    """Kafka's authHelper.authorize: true when no authorizer runs."""
    conn = ctx.connection
    return security_store(ctx).authorized(conn.principal, conn.host, operation, resource, name)


def may_describe_token(ctx: RequestContext, token_id: str) -> bool:
    return authorized(ctx, AclOperation.DESCRIBE, ResourceType.DELEGATION_TOKEN, token_id)


def may_describe_tokens_of(ctx: RequestContext, owner: KafkaPrincipal) -> bool:
    return authorized(ctx, AclOperation.DESCRIBE_TOKENS, ResourceType.USER, str(owner))


async def change_expiry(ctx: RequestContext, response: type[E], change: ExpiryChange, hmac: bytes, period_ms: int) -> E:
    """Renew or Expire the token of ``hmac`` by ``period_ms`` with ``change``; refused
    (DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, expiry -1) where token requests are not allowed."""
    if not token_requests_allowed(ctx):
        return response(error_code=ErrorCode.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, expiry_timestamp_ms=-1)
    outcome = await change(security_store(ctx), ctx.services.now_ms(), ctx.connection.principal, hmac, period_ms)
    return response(error_code=outcome.error_code, expiry_timestamp_ms=outcome.expiry_ms)
