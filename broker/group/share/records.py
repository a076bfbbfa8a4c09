"""Share-group records in ``__consumer_offsets``: building, framing, parsing.

The group coordinator persists its hard state as key/value records in the
offsets topic, framed as Kafka's coordinator records are:

* key   = int16 record type (the key schema's api key) + the key struct (v0);
* value = int16 value version + the value struct at that version, or no value
  at all (a tombstone) to delete what the key names.

Share groups use record types 10-15. Members are persisted too (Kafka 4.2
writes ShareGroupMemberMetadata and ShareGroupCurrentMemberAssignment and
replays them on load), so a restarted coordinator knows its members and
restarts their session timers.

Assignments are written with topics and partitions sorted, so the same state
always produces the same bytes.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from typing import NamedTuple, TypeVar

from broker.group.offsets import decode_messages, frame_record
from broker.group.shard_api import sorted_wire
from broker.protocol.message_base import Message
from broker.protocol.messages.share_group_current_member_assignment_key import ShareGroupCurrentMemberAssignmentKey
from broker.protocol.messages.share_group_current_member_assignment_value import (
    ShareGroupCurrentMemberAssignmentValue,
)
from broker.protocol.messages.share_group_current_member_assignment_value import (
    TopicPartitions as CurrentTopicPartitions,
)
from broker.protocol.messages.share_group_member_metadata_key import ShareGroupMemberMetadataKey
from broker.protocol.messages.share_group_member_metadata_value import ShareGroupMemberMetadataValue
from broker.protocol.messages.share_group_metadata_key import ShareGroupMetadataKey
from broker.protocol.messages.share_group_metadata_value import ShareGroupMetadataValue
from broker.protocol.messages.share_group_state_partition_metadata_key import ShareGroupStatePartitionMetadataKey
from broker.protocol.messages.share_group_state_partition_metadata_value import (
    ShareGroupStatePartitionMetadataValue,
    TopicPartitionsInfo,
)
from broker.protocol.messages.share_group_target_assignment_member_key import ShareGroupTargetAssignmentMemberKey
from broker.protocol.messages.share_group_target_assignment_member_value import (
    ShareGroupTargetAssignmentMemberValue,
)
from broker.protocol.messages.share_group_target_assignment_member_value import (
    TopicPartition as TargetTopicPartition,
)
from broker.protocol.messages.share_group_target_assignment_metadata_key import (
    ShareGroupTargetAssignmentMetadataKey,
)
from broker.protocol.messages.share_group_target_assignment_metadata_value import (
    ShareGroupTargetAssignmentMetadataValue,
)

__all__ = [
    "MEMBER_STATE_STABLE",
    "RECORD_TYPES",
    "PersistedRecord",
    "Record",
    "current_assignment",
    "current_assignment_tombstone",
    "decode",
    "encode",
    "group_metadata",
    "group_tombstone",
    "member_metadata",
    "member_tombstone",
    "state_partition_metadata",
    "state_partition_metadata_tombstone",
    "target_assignment_epoch",
    "target_assignment_epoch_tombstone",
    "target_member",
    "target_member_tombstone",
]

K = TypeVar("K", bound=Message)
V = TypeVar("V", bound=Message)


# Record type -> (key class, value class). The type is the key schema's api key.
RECORD_TYPES: dict[int, tuple[type[Message], type[Message]]] = {
    cls_key.API_KEY: (cls_key, cls_value)
    for cls_key, cls_value in (
        (ShareGroupMemberMetadataKey, ShareGroupMemberMetadataValue),
        (ShareGroupMetadataKey, ShareGroupMetadataValue),
        (ShareGroupTargetAssignmentMetadataKey, ShareGroupTargetAssignmentMetadataValue),
        (ShareGroupTargetAssignmentMemberKey, ShareGroupTargetAssignmentMemberValue),
        (ShareGroupCurrentMemberAssignmentKey, ShareGroupCurrentMemberAssignmentValue),
        (ShareGroupStatePartitionMetadataKey, ShareGroupStatePartitionMetadataValue),
    )
}

# ShareGroupCurrentMemberAssignmentValue.State: share members have no
# revocation phase, so they are always STABLE (Kafka's MemberState 0).
MEMBER_STATE_STABLE = 0

_VALUE_VERSION = 0


class Record(NamedTuple):
    """A decoded record: a key message and its value message (None: tombstone)."""

    key: Message
    value: Message | None

    def typed(self, key_type: type[K], value_type: type[V]) -> tuple[K, V]:
        """The key and the value, of the types the replay table routes this record by."""
        assert isinstance(self.key, key_type) and isinstance(self.value, value_type)
        return self.key, self.value

    def typed_key(self, key_type: type[K]) -> K:
        """The key, of the type the replay table routes this record (a tombstone) by."""
        assert isinstance(self.key, key_type)
        return self.key


class PersistedRecord(NamedTuple):
    """A framed record ready for ``__consumer_offsets`` (value None: tombstone)."""

    key: bytes
    value: bytes | None


def encode(record: Record) -> PersistedRecord:
    return PersistedRecord(*frame_record(record.key.API_KEY, record.key, record.value, _VALUE_VERSION))


def decode(key: bytes, value: bytes | None) -> Record | None:
    """Parse one framed record; None when it is not a share-group record.

    Raises ProtocolError when a share-group record is malformed or carries a
    value version this broker does not know.
    """
    decoded = decode_messages(RECORD_TYPES, key, value)
    if decoded is None:
        return None
    _, key_message, value_message = decoded
    return Record(key_message, value_message)


# -- builders ------------------------------------------------------------------


def member_metadata(
    group_id: str,
    member_id: str,
    *,
    rack_id: str | None,
    client_id: str,
    client_host: str,
    subscribed_topic_names: Iterable[str],
) -> Record:
    return Record(
        ShareGroupMemberMetadataKey(group_id, member_id),
        ShareGroupMemberMetadataValue(rack_id, client_id, client_host, sorted(subscribed_topic_names)),
    )


def member_tombstone(group_id: str, member_id: str) -> Record:
    return Record(ShareGroupMemberMetadataKey(group_id, member_id), None)


def group_metadata(group_id: str, epoch: int, metadata_hash: int) -> Record:
    return Record(ShareGroupMetadataKey(group_id), ShareGroupMetadataValue(epoch, metadata_hash))


def group_tombstone(group_id: str) -> Record:
    return Record(ShareGroupMetadataKey(group_id), None)


def target_member(group_id: str, member_id: str, assignment: Mapping[uuid.UUID, Iterable[int]]) -> Record:
    return Record(
        ShareGroupTargetAssignmentMemberKey(group_id, member_id),
        ShareGroupTargetAssignmentMemberValue([TargetTopicPartition(t, ps) for t, ps in sorted_wire(assignment)]),
    )


def target_member_tombstone(group_id: str, member_id: str) -> Record:
    return Record(ShareGroupTargetAssignmentMemberKey(group_id, member_id), None)


def target_assignment_epoch(group_id: str, epoch: int, timestamp_ms: int = 0) -> Record:
    """The epoch of a group's target assignment and when it was computed (0: not computed,
    as when the last member left; the next target is then due at once)."""
    return Record(
        ShareGroupTargetAssignmentMetadataKey(group_id),
        ShareGroupTargetAssignmentMetadataValue(epoch, assignment_timestamp=timestamp_ms),
    )


def target_assignment_epoch_tombstone(group_id: str) -> Record:
    return Record(ShareGroupTargetAssignmentMetadataKey(group_id), None)


def current_assignment(
    group_id: str,
    member_id: str,
    *,
    member_epoch: int,
    previous_member_epoch: int,
    assignment: Mapping[uuid.UUID, Iterable[int]],
) -> Record:
    return Record(
        ShareGroupCurrentMemberAssignmentKey(group_id, member_id),
        ShareGroupCurrentMemberAssignmentValue(
            member_epoch,
            previous_member_epoch,
            MEMBER_STATE_STABLE,
            [CurrentTopicPartitions(t, ps) for t, ps in sorted_wire(assignment)],
        ),
    )


def current_assignment_tombstone(group_id: str, member_id: str) -> Record:
    return Record(ShareGroupCurrentMemberAssignmentKey(group_id, member_id), None)


def state_partition_metadata(
    group_id: str,
    initialized: Mapping[uuid.UUID, tuple[str, Iterable[int]]],
) -> Record:
    """The share-partitions whose state the share coordinator has initialised."""
    topics = [
        TopicPartitionsInfo(topic_id, name, sorted(partitions))
        for topic_id, (name, partitions) in sorted(initialized.items())
    ]
    return Record(ShareGroupStatePartitionMetadataKey(group_id), ShareGroupStatePartitionMetadataValue([], topics, []))


def state_partition_metadata_tombstone(group_id: str) -> Record:
    return Record(ShareGroupStatePartitionMetadataKey(group_id), None)
