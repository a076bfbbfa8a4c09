"""DescribeAcls (key 29), v1-3.

Every ACL matching the filter, grouped by resource pattern (type, name, pattern
type), as Kafka's DescribeAclsResponse.aclsResources groups them. Needs DESCRIBE
on the cluster (checked by the dispatcher). Without an authorizer
(``authorizer.class.name`` empty) the answer is SECURITY_DISABLED, as in Kafka;
a filter with unknown codes is INVALID_REQUEST.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._acls import acl_filter, authorizer_store
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.describe_acls_request import DescribeAclsRequest
from broker.protocol.messages.describe_acls_response import (
    AclDescription,
    DescribeAclsResource,
    DescribeAclsResponse,
)


@handler(29, min_version=1, max_version=3)
async def handle(ctx: RequestContext, req: DescribeAclsRequest) -> DescribeAclsResponse:
    store = authorizer_store(ctx)
    if store is None:
        return DescribeAclsResponse(
            error_code=ErrorCode.SECURITY_DISABLED, error_message="No Authorizer is configured on the broker"
        )
    flt = acl_filter(req)
    if isinstance(flt, str):
        return DescribeAclsResponse(error_code=ErrorCode.INVALID_REQUEST, error_message=flt)
    grouped: dict[tuple[int, str, int], list[AclDescription]] = {}
    for acl in store.describe_acls(flt):
        key = (int(acl.resource_type), acl.resource_name, int(acl.pattern_type))
        grouped.setdefault(key, []).append(
            AclDescription(
                principal=acl.principal, host=acl.host, operation=acl.operation, permission_type=acl.permission
            )
        )
    resources = [
        DescribeAclsResource(resource_type=rt, resource_name=name, pattern_type=pt, acls=acls)
        for (rt, name, pt), acls in grouped.items()
    ]
    return DescribeAclsResponse(error_code=ErrorCode.NONE, error_message=None, resources=resources)
