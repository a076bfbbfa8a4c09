"""ElectLeaders (key 43), v0-2.

Asks the controller to elect leaders: the preferred replica (``election_type``
0, the only kind before v1), or, for partitions with no in-sync replica left,
any live replica (1, unclean). ``topic_partitions`` null means every partition;
then partitions already led by their preferred replica are left out of the
answer, as in Kafka. Per partition: ELECTION_NOT_NEEDED when it already has the
leader asked for, PREFERRED_LEADER_NOT_AVAILABLE when the preferred replica is
not alive or not in sync, ELIGIBLE_LEADERS_NOT_AVAILABLE when no replica may
lead, UNKNOWN_TOPIC_OR_PARTITION for what does not exist. An election type
other than 0 or 1 is INVALID_REQUEST for the whole request.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._reassignments import results_by_topic
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.elect_leaders_request import ElectLeadersRequest
from broker.protocol.messages.elect_leaders_response import (
    ElectLeadersResponse,
    PartitionResult,
    ReplicaElectionResult,
)

PREFERRED, UNCLEAN = 0, 1


@handler(43, min_version=0, max_version=2)
async def handle(ctx: RequestContext, req: ElectLeadersRequest) -> ElectLeadersResponse:
    election = req.election_type if ctx.api_version >= 1 else PREFERRED
    if election not in (PREFERRED, UNCLEAN):
        return ElectLeadersResponse(throttle_time_ms=0, error_code=ErrorCode.INVALID_REQUEST)
    wanted = None
    if req.topic_partitions is not None:
        wanted = list(dict.fromkeys((t.topic, p) for t in req.topic_partitions for p in t.partitions))
    answers = await ctx.services.metadata.elect_leaders(election, wanted)
    by_topic = results_by_topic(
        answers,
        lambda index, code, message: PartitionResult(partition_id=index, error_code=code, error_message=message),
    )
    return ElectLeadersResponse(
        throttle_time_ms=0,
        error_code=ErrorCode.NONE,
        replica_election_results=[ReplicaElectionResult(topic=t, partition_result=r) for t, r in by_topic.items()],
    )
