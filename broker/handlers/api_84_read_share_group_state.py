"""ReadShareGroupState (key 84), v0: broker-internal, served by the share coordinator (KIP-932).

A share-partition leader reads the durable state of its share-partitions when
it loads them: state epoch, start offset and the state batches. A leader
epoch newer than the stored one is recorded durably before the answer, which
fences the previous leader's writes from then on. Per-partition errors:
INVALID_REQUEST (42) for a share-partition never initialised or a negative
partition, FENCED_LEADER_EPOCH (74) for a leader epoch older than the stored
one, UNKNOWN_TOPIC_OR_PARTITION (3), NOT_COORDINATOR (16) /
COORDINATOR_NOT_AVAILABLE (15) when the leader-epoch record cannot be made
durable. Error results carry the schema defaults (epoch 0, start offset 0, no
batches). An empty group id, no topics, or a topic without partitions gets an
empty response, as Kafka answers.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._share_state import answer_by_partition
from broker.handlers.context import RequestContext
from broker.protocol.messages.read_share_group_state_request import PartitionData as RequestPartition
from broker.protocol.messages.read_share_group_state_request import ReadShareGroupStateRequest, ReadStateData
from broker.protocol.messages.read_share_group_state_response import (
    PartitionResult,
    ReadShareGroupStateResponse,
    ReadStateResult,
    StateBatch,
)
from broker.share.state_store import ShareStateStore


async def _read(store: ShareStateStore, group_id: str, topic: ReadStateData, p: RequestPartition) -> PartitionResult:
    r = await store.read(group_id, topic.topic_id, p.partition, leader_epoch=p.leader_epoch)
    return PartitionResult(
        partition=p.partition,
        error_code=r.error_code,
        error_message=r.error_message,
        state_epoch=r.state_epoch,
        start_offset=r.start_offset,
        state_batches=[StateBatch(*b) for b in r.state_batches],
    )


@handler(84, min_version=0, max_version=0)
async def handle(ctx: RequestContext, req: ReadShareGroupStateRequest) -> ReadShareGroupStateResponse:
    return await answer_by_partition(ctx, req, ReadShareGroupStateResponse, ReadStateResult, _read)
