"""DeleteRecords (key 21), v0-2.

Moves a partition's log start offset forward to the requested offset (-1
means the high watermark) and answers with the new low watermark. As Kafka
(ReplicaManager.deleteRecords, Partition.deleteRecordsOnLeader) does, per
partition: an unknown topic or partition gets UNKNOWN_TOPIC_OR_PARTITION, an
internal topic INVALID_TOPIC_EXCEPTION, a topic whose ``cleanup.policy`` does
not include ``delete`` POLICY_VIOLATION, and an offset below zero or above the
high watermark OFFSET_OUT_OF_RANGE; failed partitions report a low watermark
of -1. An offset at or below the current log start changes nothing and
reports the current log start. A partition named twice is answered once
(the last offset wins). There are no followers, so nothing waits on
``timeout_ms``.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._topics import INTERNAL_TOPICS
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.delete_records_request import DeleteRecordsRequest
from broker.protocol.messages.delete_records_response import (
    DeleteRecordsPartitionResult,
    DeleteRecordsResponse,
    DeleteRecordsTopicResult,
)

HIGH_WATERMARK = -1  # DeleteRecordsRequest.HIGH_WATERMARK
INVALID_LOW_WATERMARK = -1


def _delete(ctx: RequestContext, topic: str, index: int, offset: int) -> tuple[int, int]:
    """(error code, low watermark) for one partition."""
    info = ctx.services.metadata.image.topic(topic)
    if info is None or info.partition(index) is None:
        return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, INVALID_LOW_WATERMARK
    try:
        partition = ctx.services.replicas.leader(topic, index)
    except KafkaError as exc:
        return exc.code, INVALID_LOW_WATERMARK
    part = partition.log
    if topic in INTERNAL_TOPICS or info.internal:
        return ErrorCode.INVALID_TOPIC_EXCEPTION, INVALID_LOW_WATERMARK
    if not part.config.delete_retention_enabled:
        return ErrorCode.POLICY_VIOLATION, INVALID_LOW_WATERMARK
    target = partition.high_watermark if offset == HIGH_WATERMARK else offset
    if target < 0:
        return ErrorCode.OFFSET_OUT_OF_RANGE, INVALID_LOW_WATERMARK
    try:
        return ErrorCode.NONE, part.delete_records(target)
    except KafkaError as exc:
        return exc.code, INVALID_LOW_WATERMARK


@handler(21, min_version=0, max_version=2)
async def handle(ctx: RequestContext, req: DeleteRecordsRequest) -> DeleteRecordsResponse:
    wanted: dict[str, dict[int, int]] = {}
    for t in req.topics:
        per_topic = wanted.setdefault(t.name, {})
        for p in t.partitions:
            per_topic[p.partition_index] = p.offset
    topics = []
    for name, partitions in wanted.items():
        results = []
        for index, offset in partitions.items():
            error, low = _delete(ctx, name, index, offset)
            results.append(DeleteRecordsPartitionResult(partition_index=index, low_watermark=low, error_code=error))
        topics.append(DeleteRecordsTopicResult(name=name, partitions=results))
    return DeleteRecordsResponse(throttle_time_ms=0, topics=topics)
