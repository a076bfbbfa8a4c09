"""ShareGroupDescribe (key 77), v1 (KIP-932).

Describes share groups: state, group and assignment epochs, the assignor
('simple'), and each member with its client id/host, subscriptions and
assignment. Unknown ids get GROUP_ID_NOT_FOUND; an id that belongs to a
consumer group is not a share group and gets the same. With
IncludeAuthorizedOperations the group operations allowed (no authorizer: all).
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._operations import GROUP_OPERATIONS, OPERATIONS_OMITTED
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.share_group_describe_request import ShareGroupDescribeRequest
from broker.protocol.messages.share_group_describe_response import DescribedGroup, ShareGroupDescribeResponse


@handler(77, min_version=1, max_version=1)
async def handle(ctx: RequestContext, req: ShareGroupDescribeRequest) -> ShareGroupDescribeResponse:
    coordinator = ctx.services.groups
    groups: list[DescribedGroup] = []
    share_ids = []
    for group_id in req.group_ids:
        if coordinator.group_type(group_id) not in (None, "share"):
            groups.append(
                DescribedGroup(
                    error_code=ErrorCode.GROUP_ID_NOT_FOUND,
                    error_message=f"Group {group_id} is not a share group.",
                    group_id=group_id,
                    authorized_operations=OPERATIONS_OMITTED,
                )
            )
        else:
            share_ids.append(group_id)
    described = {g.group_id: g for g in await coordinator.share_describe(share_ids)}
    for group_id in req.group_ids:
        g = described.get(group_id)
        if g is None:
            continue
        if g.error_code == ErrorCode.NONE:
            g.authorized_operations = GROUP_OPERATIONS if req.include_authorized_operations else OPERATIONS_OMITTED
        groups.append(g)
    order = {gid: i for i, gid in enumerate(req.group_ids)}
    groups.sort(key=lambda g: order.get(g.group_id, 0))
    return ShareGroupDescribeResponse(throttle_time_ms=0, groups=groups)
