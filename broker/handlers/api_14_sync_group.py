"""SyncGroup (key 14), v0-5: the leader hands in the assignment, every member gets its part.

A follower's request is parked until the leader's arrives; the assignment is
written to ``__consumer_offsets`` before anyone is answered, and the group turns
Stable. A Stable group answers with the member's current assignment; a group
still rebalancing answers REBALANCE_IN_PROGRESS. v5 requires ProtocolType and
ProtocolName (missing: INCONSISTENT_GROUP_PROTOCOL) and checks them against
the group's.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.sync_group_request import SyncGroupRequest
from broker.protocol.messages.sync_group_response import SyncGroupResponse

FIRST_VERSION_WITH_PROTOCOL = 5


@handler(14, min_version=0, max_version=5)
async def handle(ctx: RequestContext, req: SyncGroupRequest) -> SyncGroupResponse:
    v = ctx.api_version
    if v >= FIRST_VERSION_WITH_PROTOCOL and (req.protocol_type is None or req.protocol_name is None):
        return SyncGroupResponse(error_code=ErrorCode.INCONSISTENT_GROUP_PROTOCOL, assignment=b"")
    runtime = ctx.services.groups
    response = await runtime.sync(
        req.group_id,
        req.generation_id,
        req.member_id,
        group_instance_id=req.group_instance_id if v >= 3 else None,
        protocol_type=req.protocol_type,
        protocol_name=req.protocol_name,
        assignments=[(a.member_id, a.assignment) for a in req.assignments],
    )
    response.throttle_time_ms = 0
    return response
