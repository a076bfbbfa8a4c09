"""Shared by the four delegation-token APIs (38-41): who may ask at all, and the ACL checks.

Kafka's KafkaApis.allowTokenRequests: token requests are refused
(DELEGATION_TOKEN_REQUEST_NOT_ALLOWED) on a PLAINTEXT listener, on an SSL listener
without a client certificate (principal ANONYMOUS), and on a connection that itself
authenticated with a delegation token, so a token cannot make or extend tokens.
"""

from __future__ import annotations

from broker.handlers.context import RequestContext
from broker.protocol.auth import ANONYMOUS, KafkaPrincipal
from broker.security.authorizer import AclOperation, ResourceType
from broker.security.store import SecurityStore


def token_requests_allowed(ctx: RequestContext) -> bool:
    conn = ctx.connection
    if conn.principal.token_authenticated or conn.security_protocol == "PLAINTEXT":
        return False
    return not (conn.security_protocol == "SSL" and conn.principal == ANONYMOUS)


def store_of(ctx: RequestContext) -> SecurityStore:
    store = ctx.services.security
    assert store is not None, "the security store is part of every running broker"
    return store


def authorized(ctx: RequestContext, operation: AclOperation, resource: ResourceType, name: str) -> bool:
    """Kafka's authHelper.authorize: true when no authorizer runs."""
    conn = ctx.connection
    return store_of(ctx).authorized(conn.principal, conn.host, operation, resource, name)


def may_describe_token(ctx: RequestContext, token_id: str) -> bool:
    return authorized(ctx, AclOperation.DESCRIBE, ResourceType.DELEGATION_TOKEN, token_id)


def may_describe_tokens_of(ctx: RequestContext, owner: KafkaPrincipal) -> bool:
    return authorized(ctx, AclOperation.DESCRIBE_TOKENS, ResourceType.USER, str(owner))
