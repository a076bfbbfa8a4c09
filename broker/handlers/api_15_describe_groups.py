"""DescribeGroups (key 15), v0-6: state, protocol and members of classic groups.

A Stable group shows its protocol and each member's metadata and assignment;
other states show the members without metadata. A group id no classic group
holds (unknown, or a share group) reads as state Dead before v6 and as
GROUP_ID_NOT_FOUND with a message from v6 (KIP-1043), as Kafka 4.2 answers.
v3+ can ask for the authorized operations (KIP-430): no ACLs here, so every
group operation is allowed.
"""

from __future__ import annotations

from broker.group.classic_runtime import get_runtime
from broker.handlers import handler
from broker.handlers._admin import ALTER_CONFIGS, DELETE, DESCRIBE, DESCRIBE_CONFIGS, READ
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.describe_groups_request import DescribeGroupsRequest
from broker.protocol.messages.describe_groups_response import DescribedGroup, DescribeGroupsResponse
from broker.server.context import RequestContext

# Kafka's AclEntry.supportedOperations(GROUP).
GROUP_OPERATIONS = sum(1 << op for op in (READ, DESCRIBE, DELETE, DESCRIBE_CONFIGS, ALTER_CONFIGS))
FIRST_VERSION_GROUP_ID_NOT_FOUND = 6


@handler(15, min_version=0, max_version=6)
async def handle(ctx: RequestContext, req: DescribeGroupsRequest) -> DescribeGroupsResponse:
    v = ctx.api_version
    runtime = get_runtime(ctx.broker)
    groups = []
    for group_id in req.groups:
        described = runtime.describe(group_id)
        if described is None:
            if v >= FIRST_VERSION_GROUP_ID_NOT_FOUND:
                kind = runtime.other_group_type(group_id) if runtime.other_group_type else None
                message = f"Group {group_id} is not a classic group." if kind else f"Group {group_id} not found."
                described = DescribedGroup(
                    error_code=ErrorCode.GROUP_ID_NOT_FOUND, error_message=message, group_id=group_id
                )
            else:
                described = DescribedGroup(group_id=group_id, group_state="Dead")
        elif v >= 3 and req.include_authorized_operations:
            described.authorized_operations = GROUP_OPERATIONS
        groups.append(described)
    return DescribeGroupsResponse(throttle_time_ms=0, groups=groups)
