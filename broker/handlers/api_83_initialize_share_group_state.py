"""InitializeShareGroupState (key 83), v0: broker-internal, served by the share coordinator (KIP-932).

The group coordinator calls it for share-partitions a share group starts
consuming, and AlterShareGroupOffsets calls it with a new state epoch to reset
a share-partition. Each partition becomes a fresh ``ShareSnapshot`` in
``__share_group_state`` (start offset -1: not yet known), written durably
before the answer. Per-partition errors: FENCED_STATE_EPOCH (124) for a state
epoch older than the stored one, INVALID_REQUEST (42) for a negative partition
or state epoch, UNKNOWN_TOPIC_OR_PARTITION (3) for a topic-partition that does
not exist, NOT_COORDINATOR (16) / COORDINATOR_NOT_AVAILABLE (15) when the
write cannot be made durable. An empty group id, no topics, or a topic without
partitions gets an empty response, as Kafka answers.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._share_state import answer_by_partition
from broker.handlers.context import RequestContext
from broker.protocol.messages.initialize_share_group_state_request import (
    InitializeShareGroupStateRequest,
    InitializeStateData,
)
from broker.protocol.messages.initialize_share_group_state_request import PartitionData as RequestPartition
from broker.protocol.messages.initialize_share_group_state_response import (
    InitializeShareGroupStateResponse,
    InitializeStateResult,
    PartitionResult,
)
from broker.share.state_store import ShareStateStore


async def _initialize(
    store: ShareStateStore, group_id: str, topic: InitializeStateData, p: RequestPartition
) -> PartitionResult:
    r = await store.initialize(
        group_id, topic.topic_id, p.partition, state_epoch=p.state_epoch, start_offset=p.start_offset
    )
    return PartitionResult(partition=p.partition, error_code=r.error_code, error_message=r.error_message)


@handler(83, min_version=0, max_version=0)
async def handle(ctx: RequestContext, req: InitializeShareGroupStateRequest) -> InitializeShareGroupStateResponse:
    return await answer_by_partition(ctx, req, InitializeShareGroupStateResponse, InitializeStateResult, _initialize)
