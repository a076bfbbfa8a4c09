"""StreamsGroupDescribe (key 89), v0-1 (KIP-1071).

Describes streams groups: state (Empty, NotReady, Assigning, Reconciling,
Stable), group and assignment epochs, the topology as the coordinator
configured it (partition counts of repartition and changelog topics, regex
sources resolved), and each member with its process, endpoint, client tags,
reported task offsets, current and target tasks (active, standby, warm-up).
v1 adds the assignor name and the topology description of KIP-1331 when asked:
status 3 with the description a member pushed for the group's current topology
epoch (StreamsGroupTopologyDescriptionUpdate), else status 1 ("none stored").
A group id no streams group holds answers GROUP_ID_NOT_FOUND.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._operations import GROUP_OPERATIONS, OPERATIONS_OMITTED
from broker.handlers._streams_topologies import to_describe
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.streams_group_describe_request import StreamsGroupDescribeRequest
from broker.protocol.messages.streams_group_describe_response import StreamsGroupDescribeResponse

# TopologyDescriptionStatus: 0 not requested, 1 none stored for the group, 3 available.
NOT_REQUESTED, NONE_STORED, AVAILABLE = 0, 1, 3


@handler(89, min_version=0, max_version=1)
async def handle(ctx: RequestContext, req: StreamsGroupDescribeRequest) -> StreamsGroupDescribeResponse:
    groups = await ctx.services.groups.streams_describe(req.group_ids)
    for g in groups:
        ok = g.error_code == ErrorCode.NONE
        g.authorized_operations = GROUP_OPERATIONS if ok and req.include_authorized_operations else OPERATIONS_OMITTED
        if ok and ctx.api_version >= 1 and req.include_topology_description:
            store = ctx.services.streams_topologies
            stored = store.get(g.group_id) if store is not None else None
            if stored is not None and g.topology is not None and stored[0] == g.topology.epoch:
                g.topology_description = to_describe(stored[1])
                g.topology_description_status = AVAILABLE
            else:
                g.topology_description_status = NONE_STORED
    return StreamsGroupDescribeResponse(throttle_time_ms=0, groups=groups)
