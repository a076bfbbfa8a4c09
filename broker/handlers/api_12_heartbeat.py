"""Heartbeat (key 12), v0-4: keep a classic-group member's session alive.

Answers NONE while the group is Stable or completing a rebalance,
REBALANCE_IN_PROGRESS while it prepares one (the member must rejoin),
ILLEGAL_GENERATION for another generation, UNKNOWN_MEMBER_ID for a member (or
group) the coordinator does not know, FENCED_INSTANCE_ID for a replaced static
member (v3+).
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.messages.heartbeat_request import HeartbeatRequest
from broker.protocol.messages.heartbeat_response import HeartbeatResponse


@handler(12, min_version=0, max_version=4)
async def handle(ctx: RequestContext, req: HeartbeatRequest) -> HeartbeatResponse:
    runtime = ctx.services.groups
    instance_id = req.group_instance_id if ctx.api_version >= 3 else None
    error = await runtime.heartbeat(req.group_id, req.generation_id, req.member_id, instance_id)
    return HeartbeatResponse(throttle_time_ms=0, error_code=error)
