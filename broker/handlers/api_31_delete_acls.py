"""DeleteAcls (key 31), v1-3.

Each filter deletes the ACLs it matches (pattern type ANY matches names exactly,
MATCH every ACL that applies to the named resource) and lists them; the removal
is durable before the answer. Needs ALTER on the cluster. Without an authorizer
every filter is SECURITY_DISABLED; a filter with unknown codes INVALID_REQUEST.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._acls import NO_AUTHORIZER, authorizer_store
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.delete_acls_request import DeleteAclsRequest
from broker.protocol.messages.delete_acls_response import (
    DeleteAclsFilterResult,
    DeleteAclsMatchingAcl,
    DeleteAclsResponse,
)
from broker.security.authorizer import AclBindingFilter


@handler(31, min_version=1, max_version=3)
async def handle(ctx: RequestContext, req: DeleteAclsRequest) -> DeleteAclsResponse:
    store = authorizer_store(ctx)
    if store is None:
        return DeleteAclsResponse(
            filter_results=[
                DeleteAclsFilterResult(error_code=ErrorCode.SECURITY_DISABLED, error_message=NO_AUTHORIZER)
                for _ in req.filters
            ]
        )
    filters = [
        AclBindingFilter.from_codes(
            f.resource_type_filter,
            f.resource_name_filter,
            f.pattern_type_filter,
            f.principal_filter,
            f.host_filter,
            f.operation,
            f.permission_type,
        )
        for f in req.filters
    ]
    results = await store.delete_acls(filters)
    return DeleteAclsResponse(
        filter_results=[
            DeleteAclsFilterResult(
                error_code=r.error_code,
                error_message=r.error_message,
                matching_acls=[
                    DeleteAclsMatchingAcl(
                        error_code=ErrorCode.NONE,
                        error_message=None,
                        resource_type=a.resource_type,
                        resource_name=a.resource_name,
                        pattern_type=a.pattern_type,
                        principal=a.principal,
                        host=a.host,
                        operation=a.operation,
                        permission_type=a.permission,
                    )
                    for a in r.matching
                ],
            )
            for r in results
        ]
    )
