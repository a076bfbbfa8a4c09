"""OffsetCommit (key 8), v2-10: store a group's consumed positions.

A member of a classic group commits with its generation (checked: ILLEGAL_GENERATION,
UNKNOWN_MEMBER_ID, FENCED_INSTANCE_ID, REBALANCE_IN_PROGRESS while the group
completes a rebalance); a client without group management commits with
generation -1 while the group has no members, which creates a "simple" group
when there is none. A missing group answers GROUP_ID_NOT_FOUND from v9 and
ILLEGAL_GENERATION before; a share group's id answers GROUP_ID_NOT_FOUND.
Unknown topics and partitions answer UNKNOWN_TOPIC_OR_PARTITION (v10 names
topics by id: UNKNOWN_TOPIC_ID). Metadata longer than ``offset.metadata.max.bytes``
answers OFFSET_METADATA_TOO_LARGE. v2-4 may set a retention time for the commit.
The answer goes out once an fsync covers the commit's record in ``__consumer_offsets``.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._offset_commits import commit_entries
from broker.handlers.context import RequestContext
from broker.protocol.messages.offset_commit_request import OffsetCommitRequest
from broker.protocol.messages.offset_commit_response import (
    OffsetCommitResponse,
    OffsetCommitResponsePartition,
    OffsetCommitResponseTopic,
)

FIRST_VERSION_BY_TOPIC_ID = 10
LAST_VERSION_WITH_RETENTION = 4


@handler(8, min_version=2, max_version=10)
async def handle(ctx: RequestContext, req: OffsetCommitRequest) -> OffsetCommitResponse:
    v = ctx.api_version
    by_id = v >= FIRST_VERSION_BY_TOPIC_ID
    topics, entries = commit_entries(
        ctx.services.metadata.image, req.topics, by_id, OffsetCommitResponseTopic, OffsetCommitResponsePartition
    )
    if entries:
        runtime = ctx.services.groups
        errors = await runtime.commit_offsets(
            req.group_id,
            member_id=req.member_id,
            group_instance_id=req.group_instance_id,
            generation=req.generation_id_or_member_epoch,
            api_version=v,
            entries=[entry for _, entry in entries],
            retention_ms=req.retention_time_ms if v <= LAST_VERSION_WITH_RETENTION else -1,
        )
        for (answer, _), error in zip(entries, errors, strict=True):
            answer.error_code = error
    return OffsetCommitResponse(throttle_time_ms=0, topics=topics)
