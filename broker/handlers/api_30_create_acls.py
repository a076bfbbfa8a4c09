"""CreateAcls (key 30), v1-3.

Validates each ACL as Kafka does (unknown codes, ANY/MATCH, the CLUSTER
resource's only name, empty names and hosts, malformed principals: INVALID_REQUEST
with Kafka's message) and stores the valid ones durably (the data directory, or
etcd in a cluster) before answering; every broker then enforces them. Needs ALTER
on the cluster. Without an authorizer every entry is SECURITY_DISABLED.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._acls import authorizer_store, security_disabled
from broker.handlers.context import RequestContext
from broker.protocol.messages.create_acls_request import CreateAclsRequest
from broker.protocol.messages.create_acls_response import AclCreationResult, CreateAclsResponse


@handler(30, min_version=1, max_version=3)
async def handle(ctx: RequestContext, req: CreateAclsRequest) -> CreateAclsResponse:
    store = authorizer_store(ctx)
    if store is None:
        return CreateAclsResponse(results=security_disabled(req.creations, AclCreationResult))
    creations = [
        (
            c.resource_type,
            c.resource_name,
            c.resource_pattern_type,
            c.principal,
            c.host,
            c.operation,
            c.permission_type,
        )
        for c in req.creations
    ]
    results = await store.create_acls(creations, ctx.api_version)
    return CreateAclsResponse(
        results=[AclCreationResult(error_code=r.error_code, error_message=r.error_message) for r in results]
    )
