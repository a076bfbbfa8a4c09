"""The security store as the handlers that serve it reach it: client quotas (48-49),
SCRAM credentials (50-51) and delegation tokens (38-41)."""

from __future__ import annotations

from broker.handlers.context import RequestContext
from broker.security.store import SecurityStore


def security_store(ctx: RequestContext) -> SecurityStore:
    """The broker's security store (only answers given before the services exist go
    without one, and none of them is a security request)."""
    store = ctx.services.security
    assert store is not None, "the security store is part of every running broker"
    return store
