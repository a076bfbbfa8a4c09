"""DescribeGroups (key 15), v0-6: state, protocol and members of classic groups.

A Stable group shows its protocol and each member's metadata and assignment;
other states show the members without metadata. A group id no classic group
holds (unknown, or a share group) reads as state Dead before v6 and as
GROUP_ID_NOT_FOUND with a message from v6 (KIP-1043), as Kafka 4.2 answers.
v3+ can ask for the authorized operations (KIP-430): no ACLs here, so every
group operation is allowed.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._operations import GROUP_OPERATIONS
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.describe_groups_request import DescribeGroupsRequest
from broker.protocol.messages.describe_groups_response import DescribedGroup, DescribeGroupsResponse

FIRST_VERSION_GROUP_ID_NOT_FOUND = 6


@handler(15, min_version=0, max_version=6)
async def handle(ctx: RequestContext, req: DescribeGroupsRequest) -> DescribeGroupsResponse:
    v = ctx.api_version
    coordinator = ctx.services.groups
    groups = []
    for group_id in req.groups:
        try:
            described = await coordinator.describe(group_id)
        except KafkaError as exc:
            groups.append(DescribedGroup(error_code=exc.code, group_id=group_id))
            continue
        if described is None:
            if v >= FIRST_VERSION_GROUP_ID_NOT_FOUND:
                shard = coordinator.loaded_shard(group_id)
                other = shard.classic.other_group_type if shard is not None else None
                kind = other(group_id) if other is not None else None
                message = f"Group {group_id} is not a classic group." if kind else f"Group {group_id} not found."
                described = DescribedGroup(
                    error_code=ErrorCode.GROUP_ID_NOT_FOUND,
                    error_message=message,
                    group_id=group_id,
                    group_state="Dead",
                )
            else:
                described = DescribedGroup(group_id=group_id, group_state="Dead")
        elif v >= 3 and req.include_authorized_operations:
            described.authorized_operations = GROUP_OPERATIONS
        groups.append(described)
    return DescribeGroupsResponse(throttle_time_ms=0, groups=groups)
