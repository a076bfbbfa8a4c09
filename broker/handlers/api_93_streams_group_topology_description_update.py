"""StreamsGroupTopologyDescriptionUpdate (key 93), v0 (KIP-1331).

A member of a streams group sends the description of its topology (subtopologies
and their source, processor and sink nodes, stores, global stores) after a
heartbeat asked for it (``TopologyDescriptionRequired``). The broker keeps it for
the group's current topology epoch (:mod:`broker.metadata.streams_topologies`);
StreamsGroupDescribe v1 returns it, ``kafka-streams-groups.sh --describe
--topology`` and ``sharebroker streams-groups --describe --topology`` print it.
Checks as Kafka's: an empty member id is INVALID_REQUEST, a group that is not a
streams group GROUP_ID_NOT_FOUND, a member not in it UNKNOWN_MEMBER_ID (the client
rejoins), an epoch other than the group's current topology epoch INVALID_REQUEST;
a description too large to keep is STREAMS_TOPOLOGY_DESCRIPTION_UPDATE_FAILED.
Differs from Kafka 4.4: Kafka keeps descriptions only through a configured plugin
and answers UNSUPPORTED_VERSION without one; this broker has the store built in.
READ on the group is checked by the dispatcher.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._streams_topologies import to_json
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.streams_group_topology_description_update_request import (
    StreamsGroupTopologyDescriptionUpdateRequest,
)
from broker.protocol.messages.streams_group_topology_description_update_response import (
    StreamsGroupTopologyDescriptionUpdateResponse,
)


def _error(code: int, message: str | None) -> StreamsGroupTopologyDescriptionUpdateResponse:
    return StreamsGroupTopologyDescriptionUpdateResponse(throttle_time_ms=0, error_code=code, error_message=message)


@handler(93, min_version=0, max_version=0)
async def handle(
    ctx: RequestContext, req: StreamsGroupTopologyDescriptionUpdateRequest
) -> StreamsGroupTopologyDescriptionUpdateResponse:
    store = ctx.services.streams_topologies
    assert store is not None
    if not req.group_id:
        return _error(ErrorCode.INVALID_REQUEST, "GroupId can't be empty.")
    if not req.member_id:
        return _error(ErrorCode.INVALID_REQUEST, "MemberId can't be empty.")
    try:
        current = await ctx.services.groups.streams_topology_epoch(req.group_id, req.member_id)
        if req.topology_epoch != current:
            raise KafkaError(
                ErrorCode.INVALID_REQUEST,
                f"Topology epoch {req.topology_epoch} does not match the group's current topology epoch {current}.",
            )
        await store.put(req.group_id, req.topology_epoch, to_json(req.topology_description))
    except KafkaError as exc:
        return _error(exc.code, exc.message)
    return _error(ErrorCode.NONE, None)
