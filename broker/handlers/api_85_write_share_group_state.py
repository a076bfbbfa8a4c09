"""WriteShareGroupState (key 85), v0-1: broker-internal, served by the share coordinator (KIP-932).

A share-partition leader writes what acknowledgements, releases and lock
expiries changed: the start offset and the changed state batches (v1 adds
DeliveryCompleteCount; v0 writes leave it -1, unknown). The coordinator merges
them into its state, appends a ``ShareUpdate`` (or a ``ShareSnapshot`` every
``share.coordinator.snapshot.update.records.per.snapshot`` updates) and
answers once it is durable. The start offset never moves back. Per-partition
errors: INVALID_REQUEST (42) for a share-partition never initialised or a
negative partition, FENCED_LEADER_EPOCH (74) / FENCED_STATE_EPOCH (124) for a
stale writer, UNKNOWN_TOPIC_OR_PARTITION (3), NOT_COORDINATOR (16) /
COORDINATOR_NOT_AVAILABLE (15) when the write cannot be made durable (it is
rolled back). An empty group id, no topics, or a topic without partitions gets
an empty response, as Kafka answers.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._share_state import answer_by_partition
from broker.handlers.context import RequestContext
from broker.protocol.messages.write_share_group_state_request import PartitionData as RequestPartition
from broker.protocol.messages.write_share_group_state_request import WriteShareGroupStateRequest, WriteStateData
from broker.protocol.messages.write_share_group_state_response import (
    PartitionResult,
    WriteShareGroupStateResponse,
    WriteStateResult,
)
from broker.share.state_store import ShareStateStore


async def _write(store: ShareStateStore, group_id: str, topic: WriteStateData, p: RequestPartition) -> PartitionResult:
    r = await store.write(
        group_id,
        topic.topic_id,
        p.partition,
        state_epoch=p.state_epoch,
        leader_epoch=p.leader_epoch,
        start_offset=p.start_offset,
        state_batches=p.state_batches,
        delivery_complete_count=p.delivery_complete_count,
    )
    return PartitionResult(partition=p.partition, error_code=r.error_code, error_message=r.error_message)


@handler(85, min_version=0, max_version=1)
async def handle(ctx: RequestContext, req: WriteShareGroupStateRequest) -> WriteShareGroupStateResponse:
    return await answer_by_partition(ctx, req, WriteShareGroupStateResponse, WriteStateResult, _write)
