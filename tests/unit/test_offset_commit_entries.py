"""The partitions OffsetCommit (8) and TxnOffsetCommit (28) commit
(broker/handlers/_offset_commits.py): unknown topic ids, names and partitions are
answered at once; the others become commit entries paired with their answers."""

from __future__ import annotations

import uuid

from broker.group.coordinator import CommitEntry
from broker.handlers._offset_commits import commit_entries
from broker.metadata.image import MetadataImage, PartitionState, TopicImage
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.offset_commit_request import OffsetCommitRequestPartition, OffsetCommitRequestTopic
from broker.protocol.messages.offset_commit_response import OffsetCommitResponsePartition, OffsetCommitResponseTopic

KNOWN_ID = uuid.uuid4()


def image() -> MetadataImage:
    part = PartitionState(leader=1, leader_epoch=0, replicas=(1,), isr=(1,))
    return MetadataImage("c", 1, {}, {"t": TopicImage("t", KNOWN_ID, (part, part))})


def topic(name: str, topic_id: uuid.UUID, *indexes: int) -> OffsetCommitRequestTopic:
    return OffsetCommitRequestTopic(
        name=name,
        topic_id=topic_id,
        partitions=[
            OffsetCommitRequestPartition(partition_index=i, committed_offset=10 + i, committed_leader_epoch=3)
            for i in indexes
        ],
    )


def codes(topics: list[OffsetCommitResponseTopic]) -> list[tuple[str, list[tuple[int, int]]]]:
    return [(t.name, [(p.partition_index, p.error_code) for p in t.partitions]) for t in topics]


def test_by_name_unknown_topics_and_partitions_are_answered_and_the_rest_committed():
    req = [topic("t", uuid.UUID(int=0), 1, 2, -1), topic("gone", uuid.UUID(int=0), 0)]
    topics, entries = commit_entries(image(), req, False, OffsetCommitResponseTopic, OffsetCommitResponsePartition)
    unknown = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    assert codes(topics) == [("t", [(1, ErrorCode.NONE), (2, unknown), (-1, unknown)]), ("gone", [(0, unknown)])]
    assert [entry for _, entry in entries] == [CommitEntry("t", 1, 11, 3, "")]
    assert entries[0][0] is topics[0].partitions[0]


def test_by_id_an_unknown_id_is_unknown_topic_id_and_an_unknown_partition_unknown_topic_or_partition():
    req = [topic("", KNOWN_ID, 0, 5), topic("", uuid.uuid4(), 0)]
    topics, entries = commit_entries(image(), req, True, OffsetCommitResponseTopic, OffsetCommitResponsePartition)
    assert codes(topics) == [
        ("", [(0, ErrorCode.NONE), (5, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)]),
        ("", [(0, ErrorCode.UNKNOWN_TOPIC_ID)]),
    ]
    assert [entry.topic for _, entry in entries] == ["t"]
