"""ListGroups (key 16), v0-5.

Lists classic, consumer (KIP-848), streams (KIP-1071) and share groups alike.
v4 adds the states filter, v5 the types filter ("classic", "consumer",
"streams", "share"; KIP-848) and the
group type in each row, both case-insensitive. Consumer groups list with
protocol type "consumer" and their KIP-848 state (Empty, Assigning,
Reconciling, Stable); share groups with protocol type "share".
Note librdkafka's ``list_consumer_groups`` hides share groups by design.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.list_groups_request import ListGroupsRequest
from broker.protocol.messages.list_groups_response import ListedGroup, ListGroupsResponse


@handler(16, min_version=0, max_version=5)
async def handle(ctx: RequestContext, req: ListGroupsRequest) -> ListGroupsResponse:
    groups_coordinator = ctx.services.groups
    states = {s.lower() for s in req.states_filter} if ctx.api_version >= 4 else set()
    types = {t.lower() for t in req.types_filter} if ctx.api_version >= 5 else set()
    groups: list[ListedGroup] = []
    if not types or "classic" in types:
        for g in groups_coordinator.list_groups():
            if states and g.state.lower() not in states:
                continue
            groups.append(
                ListedGroup(
                    group_id=g.group_id, protocol_type=g.protocol_type, group_state=g.state, group_type=g.group_type
                )
            )
    # Consumer and streams groups list with their type as protocol type.
    for kind, listed in (
        ("consumer", groups_coordinator.list_consumer_groups),
        ("streams", groups_coordinator.list_streams_groups),
    ):
        if types and kind not in types:
            continue
        for group_id, state in listed():
            if states and state.lower() not in states:
                continue
            groups.append(ListedGroup(group_id=group_id, protocol_type=kind, group_state=state, group_type=kind))
    if not types or "share" in types:
        groups.extend(groups_coordinator.list_share_groups(req.states_filter if ctx.api_version >= 4 else ()))
    return ListGroupsResponse(throttle_time_ms=0, error_code=ErrorCode.NONE, groups=groups)
