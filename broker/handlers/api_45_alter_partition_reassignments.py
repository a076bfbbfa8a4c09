"""AlterPartitionReassignments (key 45), v0-1.

Starts, changes or cancels (``replicas`` null) partition reassignments through
the controller, as Kafka's KRaft controller does: the partition gets the
target replicas plus the ones being removed; the added replicas fetch until
they are in sync, then the removed ones leave (and a leader among them hands
over). Per partition: INVALID_REPLICA_ASSIGNMENT for an empty list, duplicates
or brokers not registered; NO_REASSIGNMENT_IN_PROGRESS for a cancel of nothing;
INVALID_REPLICATION_FACTOR when v1's ``allow_replication_factor_change`` is
false and the count changes; UNKNOWN_TOPIC_OR_PARTITION for what does not
exist. v1 echoes ``allow_replication_factor_change``.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._reassignments import results_by_topic
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.alter_partition_reassignments_request import AlterPartitionReassignmentsRequest
from broker.protocol.messages.alter_partition_reassignments_response import (
    AlterPartitionReassignmentsResponse,
    ReassignablePartitionResponse,
    ReassignableTopicResponse,
)


@handler(45, min_version=0, max_version=1)
async def handle(ctx: RequestContext, req: AlterPartitionReassignmentsRequest) -> AlterPartitionReassignmentsResponse:
    allow = req.allow_replication_factor_change if ctx.api_version >= 1 else True
    wanted = [(t.name, p.partition_index, p.replicas) for t in req.topics for p in t.partitions]
    answers = await ctx.services.metadata.alter_reassignments(wanted, allow_rf_change=allow) if wanted else []
    by_topic = results_by_topic(
        answers,
        lambda index, code, message: ReassignablePartitionResponse(
            partition_index=index, error_code=code, error_message=message
        ),
    )
    return AlterPartitionReassignmentsResponse(
        throttle_time_ms=0,
        allow_replication_factor_change=allow,
        error_code=ErrorCode.NONE,
        error_message=None,
        responses=[ReassignableTopicResponse(name=t, partitions=r) for t, r in by_topic.items()],
    )
