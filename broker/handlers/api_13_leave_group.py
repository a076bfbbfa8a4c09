"""LeaveGroup (key 13), v0-5: members leave a classic group, which then rebalances.

v0-2 name one member; v3+ a batch (KIP-345), each answered on its own, and a
static member may be removed by its ``group.instance.id`` alone (member id "").
For v0-2 the one member's error is the response's error. The last member
leaving empties the group (its offsets stay).
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.leave_group_request import LeaveGroupRequest
from broker.protocol.messages.leave_group_response import LeaveGroupResponse, MemberResponse

FIRST_BATCH_VERSION = 3


@handler(13, min_version=0, max_version=5)
async def handle(ctx: RequestContext, req: LeaveGroupRequest) -> LeaveGroupResponse:
    batch = ctx.api_version >= FIRST_BATCH_VERSION
    if batch:
        members = [(m.member_id, m.group_instance_id) for m in req.members]
    else:
        members = [(req.member_id, None)]
    runtime = ctx.services.groups
    error, results = await runtime.leave(req.group_id, members)
    if batch:
        return LeaveGroupResponse(
            throttle_time_ms=0,
            error_code=error,
            members=[MemberResponse(member_id=m, group_instance_id=i, error_code=e) for m, i, e in results],
        )
    if not error:
        error = next((e for _, _, e in results if e), ErrorCode.NONE)
    return LeaveGroupResponse(throttle_time_ms=0, error_code=error)
