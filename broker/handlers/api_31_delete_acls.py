"""DeleteAcls (key 31), v1-3.

Each filter deletes the ACLs it matches (pattern type ANY matches names exactly,
MATCH every ACL that applies to the named resource) and lists them; the removal
is durable before the answer. Needs ALTER on the cluster. Without an authorizer
every filter is SECURITY_DISABLED; a filter with unknown codes INVALID_REQUEST.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._acls import acl_filter, authorizer_store, security_disabled
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.delete_acls_request import DeleteAclsRequest
from broker.protocol.messages.delete_acls_response import (
    DeleteAclsFilterResult,
    DeleteAclsMatchingAcl,
    DeleteAclsResponse,
)


@handler(31, min_version=1, max_version=3)
async def handle(ctx: RequestContext, req: DeleteAclsRequest) -> DeleteAclsResponse:
    store = authorizer_store(ctx)
    if store is None:
        return DeleteAclsResponse(filter_results=security_disabled(req.filters, DeleteAclsFilterResult))
    filters = [acl_filter(f) for f in req.filters]
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
