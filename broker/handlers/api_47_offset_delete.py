"""OffsetDelete (key 47), v0: remove a group's committed offsets (KIP-496).

Allowed while the group is Empty, or for topics a consumer-protocol group is no
longer subscribed to (subscribed ones answer GROUP_SUBSCRIBED_TO_TOPIC per
partition). A non-empty group of another protocol answers NON_EMPTY_GROUP; a
missing group (or a share group's id) GROUP_ID_NOT_FOUND; an empty group id
INVALID_GROUP_ID. Unknown topics and partitions answer
UNKNOWN_TOPIC_OR_PARTITION. Answered once the tombstones are durable.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.offset_delete_request import OffsetDeleteRequest
from broker.protocol.messages.offset_delete_response import (
    OffsetDeleteResponse,
    OffsetDeleteResponsePartition,
    OffsetDeleteResponseTopic,
)


@handler(47, min_version=0, max_version=0)
async def handle(ctx: RequestContext, req: OffsetDeleteRequest) -> OffsetDeleteResponse:
    if not req.group_id:
        return OffsetDeleteResponse(error_code=ErrorCode.INVALID_GROUP_ID, throttle_time_ms=0)
    image = ctx.services.metadata.image
    answers: dict[str, list[OffsetDeleteResponsePartition]] = {}
    valid: dict[str, list[int]] = {}
    for topic in req.topics:
        info = image.topic(topic.name)
        parts = answers.setdefault(topic.name, [])
        for p in topic.partitions:
            if info is None or not 0 <= p.partition_index < len(info.partitions):
                parts.append(
                    OffsetDeleteResponsePartition(
                        partition_index=p.partition_index, error_code=ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                    )
                )
            else:
                valid.setdefault(topic.name, []).append(p.partition_index)
    runtime = ctx.services.groups
    error, results = await runtime.delete_offsets(req.group_id, list(valid.items()))
    if error:
        return OffsetDeleteResponse(error_code=error, throttle_time_ms=0)
    for name, deleted in results:
        answers[name].extend(OffsetDeleteResponsePartition(partition_index=p, error_code=e) for p, e in deleted)
    topics = [OffsetDeleteResponseTopic(name=name, partitions=parts) for name, parts in answers.items()]
    return OffsetDeleteResponse(error_code=ErrorCode.NONE, throttle_time_ms=0, topics=topics)
