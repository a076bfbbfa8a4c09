"""ReadShareGroupStateSummary (key 87), v0-1: broker-internal, served by the share coordinator (KIP-932).

DescribeShareGroupOffsets asks for the start offset (and, v1, the
DeliveryCompleteCount used to compute lag) of share-partitions, with the state
and leader epochs. Nothing is written. A share-partition never initialised is
no error: start offset -1, epochs 0, DeliveryCompleteCount -1. Per-partition
errors: INVALID_REQUEST (42) for a negative partition,
UNKNOWN_TOPIC_OR_PARTITION (3). An empty group id, no topics, or a topic
without partitions gets an empty response, as Kafka answers.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._share_state import answer_by_partition
from broker.handlers.context import RequestContext
from broker.protocol.messages.read_share_group_state_summary_request import PartitionData as RequestPartition
from broker.protocol.messages.read_share_group_state_summary_request import (
    ReadShareGroupStateSummaryRequest,
    ReadStateSummaryData,
)
from broker.protocol.messages.read_share_group_state_summary_response import (
    PartitionResult,
    ReadShareGroupStateSummaryResponse,
    ReadStateSummaryResult,
)
from broker.share.state_store import ShareStateStore


async def _read_summary(
    store: ShareStateStore, group_id: str, topic: ReadStateSummaryData, p: RequestPartition
) -> PartitionResult:
    r = await store.read_summary(group_id, topic.topic_id, p.partition, leader_epoch=p.leader_epoch)
    return PartitionResult(
        partition=p.partition,
        error_code=r.error_code,
        error_message=r.error_message,
        state_epoch=r.state_epoch,
        leader_epoch=r.leader_epoch,
        start_offset=r.start_offset,
        delivery_complete_count=r.delivery_complete_count,
    )


@handler(87, min_version=0, max_version=1)
async def handle(ctx: RequestContext, req: ReadShareGroupStateSummaryRequest) -> ReadShareGroupStateSummaryResponse:
    return await answer_by_partition(
        ctx, req, ReadShareGroupStateSummaryResponse, ReadStateSummaryResult, _read_summary
    )
