"""ListPartitionReassignments (key 46), v0.

The reassignments in progress, from the metadata image: every one when
``topics`` is null, else those among the partitions named (unknown topics and
partitions not being reassigned are left out, as in Kafka). ``replicas`` is
the partition's whole replica set during the move (targets plus the replicas
being removed).
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.metadata.image import PartitionState
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.list_partition_reassignments_request import ListPartitionReassignmentsRequest
from broker.protocol.messages.list_partition_reassignments_response import (
    ListPartitionReassignmentsResponse,
    OngoingPartitionReassignment,
    OngoingTopicReassignment,
)


def _ongoing(state: PartitionState, index: int) -> OngoingPartitionReassignment | None:
    if not state.adding and not state.removing:
        return None
    return OngoingPartitionReassignment(
        partition_index=index,
        replicas=list(state.replicas),
        adding_replicas=list(state.adding),
        removing_replicas=list(state.removing),
    )


@handler(46, min_version=0, max_version=0)
async def handle(ctx: RequestContext, req: ListPartitionReassignmentsRequest) -> ListPartitionReassignmentsResponse:
    image = ctx.services.metadata.image
    if req.topics is None:
        wanted = [(t.name, list(range(len(t.partitions)))) for t in sorted(image.topics.values(), key=lambda t: t.name)]
    else:
        wanted = [(t.name, t.partition_indexes) for t in req.topics]
    topics = []
    for name, indexes in wanted:
        info = image.topic(name)
        if info is None:
            continue
        found = []
        for index in dict.fromkeys(indexes):
            if 0 <= index < len(info.partitions):
                ongoing = _ongoing(info.partitions[index], index)
                if ongoing is not None:
                    found.append(ongoing)
        if found:
            topics.append(OngoingTopicReassignment(name=name, partitions=found))
    return ListPartitionReassignmentsResponse(
        throttle_time_ms=0, error_code=ErrorCode.NONE, error_message=None, topics=topics
    )
