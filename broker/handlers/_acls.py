"""Shared by CreateAcls, DescribeAcls and DeleteAcls: the answer when no authorizer runs,
and an ACL filter from the fields DescribeAcls and DeleteAcls name alike."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.security.authorizer import AclBindingFilter
from broker.security.store import SecurityStore

NO_AUTHORIZER = "No Authorizer is configured."

R = TypeVar("R")


def authorizer_store(ctx: RequestContext) -> SecurityStore | None:
    """The security store when ACLs are enforced (authorizer.class.name set), else None."""
    store = ctx.services.security
    if store is None or store.authorizer is None:
        return None
    return store


def security_disabled(entries: Sequence[Any], result: Callable[..., R]) -> list[R]:
    """One SECURITY_DISABLED ``result`` an entry of a request, for a broker without an authorizer."""
    return [result(error_code=ErrorCode.SECURITY_DISABLED, error_message=NO_AUTHORIZER) for _ in entries]


def acl_filter(f: Any) -> AclBindingFilter | str:
    """The filter a DescribeAcls request or a DeleteAcls filter describes (their fields
    are named alike), or why its codes are refused."""
    return AclBindingFilter.from_codes(
        f.resource_type_filter,
        f.resource_name_filter,
        f.pattern_type_filter,
        f.principal_filter,
        f.host_filter,
        f.operation,
        f.permission_type,
    )
