"""OffsetFetch (key 9), v1-10: read a group's committed offsets.

v1-7 ask for one group, v8+ for several (KIP-709), each answered on its own.
Null topics (v2+) ask for every committed offset of the group. A partition
with no commit answers offset -1 and metadata "". v10 names topics by id
(UNKNOWN_TOPIC_ID for an id no topic has). ``require_stable`` (v7+): a
partition for which an open transaction holds an offset (TxnOffsetCommit not
yet committed or aborted) answers UNSTABLE_OFFSET_COMMIT, which clients retry;
without it the last committed offset is answered. While a write of the group's
coordinator partition is not durable within the write timeout, every asked
partition answers UNSTABLE_OFFSET_COMMIT too (retried by clients), not a
group-level error. A share group's id reads as
a group without offsets. From v9 a member of a consumer group sends its member id and epoch: another epoch
answers STALE_MEMBER_EPOCH, an unknown member UNKNOWN_MEMBER_ID (KIP-848).
"""

from __future__ import annotations

from collections.abc import Sequence

from broker.group.coordinator import GroupCoordinator
from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.offset_fetch_request import (
    OffsetFetchRequest,
    OffsetFetchRequestTopic,
    OffsetFetchRequestTopics,
)
from broker.protocol.messages.offset_fetch_response import (
    OffsetFetchResponse,
    OffsetFetchResponseGroup,
    OffsetFetchResponsePartition,
    OffsetFetchResponsePartitions,
    OffsetFetchResponseTopic,
    OffsetFetchResponseTopics,
)
from broker.protocol.primitives import UUID_ZERO

FIRST_MULTI_GROUP_VERSION = 8
FIRST_VERSION_BY_TOPIC_ID = 10


async def _group(
    ctx: RequestContext,
    groups: GroupCoordinator,
    group_id: str,
    topics: Sequence[OffsetFetchRequestTopic | OffsetFetchRequestTopics] | None,
    by_id: bool,
    require_stable: bool,
    member_id: str | None = None,
    member_epoch: int = -1,
) -> OffsetFetchResponseGroup:
    image = ctx.services.metadata.image
    out: list[OffsetFetchResponseTopics] = []
    if topics is None:
        asked = None
    else:
        asked = []
        for t in topics:
            if by_id:
                assert isinstance(t, OffsetFetchRequestTopics)  # by id from v10, where topics are these
                info = image.topic_by_id(t.topic_id)
                if info is None:
                    out.append(
                        OffsetFetchResponseTopics(
                            topic_id=t.topic_id,
                            partitions=[
                                OffsetFetchResponsePartitions(
                                    partition_index=p, committed_offset=-1, error_code=ErrorCode.UNKNOWN_TOPIC_ID
                                )
                                for p in t.partition_indexes
                            ],
                        )
                    )
                    continue
                asked.append((info.name, list(t.partition_indexes)))
            else:
                asked.append((t.name, list(t.partition_indexes)))
    try:
        fetched = await groups.fetch_offsets(
            group_id, asked, member_id=member_id, member_epoch=member_epoch, require_stable=require_stable
        )
    except KafkaError as exc:
        return OffsetFetchResponseGroup(group_id=group_id, topics=[], error_code=exc.code)
    for name, partitions in fetched:
        topic_id = UUID_ZERO
        if by_id:
            info = image.topic(name)
            if info is None:
                continue  # a deleted topic has no id to answer with
            topic_id = info.topic_id
        out.append(
            OffsetFetchResponseTopics(
                name=name,
                topic_id=topic_id,
                partitions=[
                    OffsetFetchResponsePartitions(partition_index=p, committed_offset=-1, error_code=c)
                    if isinstance(c, ErrorCode)
                    else OffsetFetchResponsePartitions(
                        partition_index=p,
                        committed_offset=-1 if c is None else c.offset,
                        committed_leader_epoch=-1 if c is None else c.leader_epoch,
                        metadata="" if c is None else c.metadata,
                    )
                    for p, c in partitions
                ],
            )
        )
    return OffsetFetchResponseGroup(group_id=group_id, topics=out, error_code=ErrorCode.NONE)


@handler(9, min_version=1, max_version=10)
async def handle(ctx: RequestContext, req: OffsetFetchRequest) -> OffsetFetchResponse:
    v = ctx.api_version
    coordinator = ctx.services.groups
    if v >= FIRST_MULTI_GROUP_VERSION:
        by_id = v >= FIRST_VERSION_BY_TOPIC_ID
        groups = [
            await _group(ctx, coordinator, g.group_id, g.topics, by_id, req.require_stable, g.member_id, g.member_epoch)
            for g in req.groups
        ]
        return OffsetFetchResponse(throttle_time_ms=0, groups=groups)
    group = await _group(ctx, coordinator, req.group_id, req.topics, False, v >= 7 and req.require_stable)
    topics = [
        OffsetFetchResponseTopic(
            name=t.name,
            partitions=[
                OffsetFetchResponsePartition(
                    partition_index=p.partition_index,
                    committed_offset=p.committed_offset,
                    committed_leader_epoch=p.committed_leader_epoch,
                    metadata=p.metadata,
                    error_code=p.error_code,
                )
                for p in t.partitions
            ],
        )
        for t in group.topics
    ]
    return OffsetFetchResponse(throttle_time_ms=0, topics=topics, error_code=group.error_code)
