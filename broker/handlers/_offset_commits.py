"""Shared by OffsetCommit (8) and TxnOffsetCommit (28): the request's partitions as
commit entries, each paired with the response entry that gets its outcome.

Both requests name topics by name or, in their newest versions, by id, and both
answer an unknown topic id UNKNOWN_TOPIC_ID and an unknown topic name or partition
UNKNOWN_TOPIC_OR_PARTITION without committing it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from broker.group.coordinator import CommitEntry
from broker.metadata.image import MetadataImage
from broker.protocol.errors import ErrorCode

T = TypeVar("T")
P = TypeVar("P")


def commit_entries(
    image: MetadataImage,
    topics: Sequence[Any],
    by_id: bool,
    topic_result: Callable[..., T],
    partition_result: Callable[..., P],
) -> tuple[list[T], list[tuple[P, CommitEntry]]]:
    """The response's topics, with one ``partition_result(partition_index=, error_code=)``
    a requested partition, and the partitions to commit, each with its (NONE) answer for
    the caller to set the commit's error code on."""
    out: list[T] = []
    entries: list[tuple[P, CommitEntry]] = []
    for topic in topics:
        info = image.topic_by_id(topic.topic_id) if by_id else image.topic(topic.name)
        parts: list[P] = []
        out.append(topic_result(name=topic.name, topic_id=topic.topic_id, partitions=parts))
        for p in topic.partitions:
            if info is None or info.partition(p.partition_index) is None:
                code = ErrorCode.UNKNOWN_TOPIC_ID if by_id and info is None else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                parts.append(partition_result(partition_index=p.partition_index, error_code=code))
                continue
            answer = partition_result(partition_index=p.partition_index, error_code=ErrorCode.NONE)
            parts.append(answer)
            entry = CommitEntry(
                info.name, p.partition_index, p.committed_offset, p.committed_leader_epoch, p.committed_metadata
            )
            entries.append((answer, entry))
    return out, entries
