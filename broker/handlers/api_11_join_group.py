"""JoinGroup (key 11), v0-9: join a classic group (the consumer-group rebalance protocol).

The request is parked until the group's join phase completes (every known
member rejoined, or the rebalance timeout; a new group first waits
``group.initial.rebalance.delay.ms``). The leader's answer lists every member
with its metadata for the chosen protocol. v4+ gives a new dynamic member its id
with MEMBER_ID_REQUIRED (KIP-394) and expects it back; static members
(``group.instance.id``, v5+, KIP-345) rejoin without a rebalance when nothing
changed; v9 tells a rejoining static leader to skip the assignment (KIP-814).
v0 has no rebalance timeout: the session timeout serves as one. A group id
held by a share group answers INCONSISTENT_GROUP_PROTOCOL.
"""

from __future__ import annotations

from broker.group.coordinator import client_host
from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.messages.join_group_request import JoinGroupRequest
from broker.protocol.messages.join_group_response import JoinGroupResponse

# ProtocolName is nullable from v7; older versions carry "" instead (Kafka's JoinGroupResponse).
FIRST_NULLABLE_PROTOCOL_NAME = 7


@handler(11, min_version=0, max_version=9)
async def handle(ctx: RequestContext, req: JoinGroupRequest) -> JoinGroupResponse:
    v = ctx.api_version
    runtime = ctx.services.groups
    response = await runtime.join(
        req.group_id,
        req.member_id,
        protocol_type=req.protocol_type,
        protocols=[(p.name, p.metadata) for p in req.protocols],
        session_timeout_ms=req.session_timeout_ms,
        rebalance_timeout_ms=req.session_timeout_ms if v == 0 else req.rebalance_timeout_ms,
        group_instance_id=req.group_instance_id if v >= 5 else None,
        client_id=ctx.client_id or "",
        client_host=client_host(ctx.connection.peer),
        api_version=v,
    )
    if v < FIRST_NULLABLE_PROTOCOL_NAME:
        if response.protocol_name is None:
            response.protocol_name = ""
    elif response.protocol_name == "":
        response.protocol_name = None
    response.throttle_time_ms = 0
    return response
