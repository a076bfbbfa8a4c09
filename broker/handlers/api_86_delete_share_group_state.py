"""DeleteShareGroupState (key 86), v0: broker-internal, served by the share coordinator (KIP-932).

The group coordinator deletes the state of share-partitions a share group no
longer needs (DeleteShareGroupOffsets, group deletion). Each known
share-partition gets a tombstone in ``__share_group_state``, durable before
the answer; an unknown one is no error and writes nothing. Unlike Kafka, a
topic that no longer exists is no error either: cleaning up after a deleted
topic must work. Per-partition errors: INVALID_REQUEST (42) for a negative
partition, NOT_COORDINATOR (16) / COORDINATOR_NOT_AVAILABLE (15) when the
tombstone cannot be made durable. An empty group id, no topics, or a topic
without partitions gets an empty response, as Kafka answers.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._share_state import answer_by_partition
from broker.handlers.context import RequestContext
from broker.protocol.messages.delete_share_group_state_request import DeleteShareGroupStateRequest, DeleteStateData
from broker.protocol.messages.delete_share_group_state_request import PartitionData as RequestPartition
from broker.protocol.messages.delete_share_group_state_response import (
    DeleteShareGroupStateResponse,
    DeleteStateResult,
    PartitionResult,
)
from broker.share.state_store import ShareStateStore


async def _delete(
    store: ShareStateStore, group_id: str, topic: DeleteStateData, p: RequestPartition
) -> PartitionResult:
    r = await store.delete(group_id, topic.topic_id, p.partition)
    return PartitionResult(partition=p.partition, error_code=r.error_code, error_message=r.error_message)


@handler(86, min_version=0, max_version=0)
async def handle(ctx: RequestContext, req: DeleteShareGroupStateRequest) -> DeleteShareGroupStateResponse:
    return await answer_by_partition(ctx, req, DeleteShareGroupStateResponse, DeleteStateResult, _delete)
