"""Shared by CreateAcls, DescribeAcls and DeleteAcls: the answer when no authorizer runs."""

from __future__ import annotations

from broker.handlers.context import RequestContext
from broker.security.store import SecurityStore

NO_AUTHORIZER = "No Authorizer is configured."


def authorizer_store(ctx: RequestContext) -> SecurityStore | None:
    """The security store when ACLs are enforced (authorizer.class.name set), else None."""
    store = ctx.services.security
    if store is None or store.authorizer is None:
        return None
    return store
