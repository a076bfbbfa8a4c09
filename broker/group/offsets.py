"""Committed offsets of every group type, and the framing of the records they share.

Pure: no I/O and no clock. The trio layer (:mod:`broker.group.coordinator`)
writes the records built here to the internal topic ``__consumer_offsets`` and
replays them at start-up through :func:`decode_record`.

Record framing is Kafka's (``CoordinatorRecordSerde``), so the topic reads the
same as a Kafka broker's:

- key   = int16 record type, then the key message (version 0 layout);
- value = int16 value version, then the value message; a null value is a
  tombstone.

Record types read here: 0 and 1 (OffsetCommit; 0 is the legacy type, written
by very old brokers, read only) and 2 (GroupMetadata, the classic groups' record,
built by :mod:`broker.group.classic.records`). Other types (consumer-, streams-
and share-group records, 3-23) belong to their group types and are skipped by
:func:`decode_record`.

Which partition of ``__consumer_offsets`` holds a group is Kafka's rule:
``abs(javaHashCode(groupId)) % partitions`` (:func:`partition_for`), so a data
directory's layout matches what Kafka tools expect.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import TypeVar

from broker.metadata.image import coordinator_partition
from broker.protocol.errors import ProtocolError
from broker.protocol.message_base import Message
from broker.protocol.messages.group_metadata_key import GroupMetadataKey
from broker.protocol.messages.group_metadata_value import GroupMetadataValue
from broker.protocol.messages.offset_commit_key import OffsetCommitKey
from broker.protocol.messages.offset_commit_value import OffsetCommitValue

__all__ = [
    "COORDINATOR_TOPIC",
    "CommittedOffset",
    "CoordinatorRecord",
    "OffsetStore",
    "RecordType",
    "decode_group_record",
    "decode_messages",
    "decode_record",
    "decode_value",
    "frame",
    "frame_record",
    "group_key",
    "offset_commit_record",
    "partition_for",
    "record_type_of",
]

COORDINATOR_TOPIC = "__consumer_offsets"

# Value versions written, as Kafka 4.x writes them: OffsetCommitValue v3 (v1 when
# the commit carries an explicit expiry, OffsetCommit v2-4 retention_time_ms).
OFFSET_VALUE_VERSION = 3
OFFSET_VALUE_VERSION_WITH_EXPIRY = 1

_INT16 = struct.Struct(">h")

M = TypeVar("M", bound=Message)


class RecordType(IntEnum):
    OFFSET_COMMIT_LEGACY = 0
    OFFSET_COMMIT = 1
    GROUP_METADATA = 2


@dataclass(frozen=True, slots=True)
class CommittedOffset:
    """One committed offset. ``expire_timestamp_ms`` -1: the broker's retention applies."""

    offset: int
    leader_epoch: int = -1
    metadata: str = ""
    commit_timestamp_ms: int = -1
    expire_timestamp_ms: int = -1


@dataclass(frozen=True, slots=True)
class CoordinatorRecord:
    """A decoded record: its type, key message and value message (None: tombstone)."""

    record_type: RecordType
    key: OffsetCommitKey | GroupMetadataKey
    value: OffsetCommitValue | GroupMetadataValue | None


# --- partitioning -----------------------------------------------------------------------


def partition_for(group_id: str, partitions: int) -> int:
    """The ``__consumer_offsets`` partition of ``group_id``."""
    return coordinator_partition(group_id, partitions)


# --- records ------------------------------------------------------------------------------


def frame(version: int, body: bytes) -> bytes:
    """A record key or value as Kafka frames it: the int16 type or version, then the message."""
    return _INT16.pack(version) + body


def frame_record(
    record_type: int, key: Message, value: Message | None, value_version: int
) -> tuple[bytes, bytes | None]:
    """(key, value) bytes of a group type's record: the key message (version 0) after its
    type, the value message after ``value_version``; None for a tombstone."""
    key_bytes = frame(record_type, key.encode(0))
    if value is None:
        return key_bytes, None
    return key_bytes, frame(value_version, value.encode(value_version))


def record_type_of(key: bytes | memoryview) -> int:
    """The record type a group type's record key starts with."""
    if len(key) < 2:
        raise ProtocolError("coordinator record key shorter than its 2-byte type")
    (record_type,) = _INT16.unpack_from(key)
    return int(record_type)


def decode_value(value_cls: type[M], value: bytes | memoryview) -> M:
    """A group type's record value: its version, which ``value_cls`` must know, then the message."""
    if len(value) < 2:
        raise ProtocolError(f"{value_cls.NAME} shorter than its 2-byte version")
    (version,) = _INT16.unpack_from(value)
    if not value_cls.MIN_VERSION <= version <= value_cls.MAX_VERSION:
        raise ProtocolError(f"{value_cls.NAME} has no version {version}")
    return value_cls.decode(memoryview(value)[2:], version)


def group_key(key_cls: type[Message], group_id: str, sub: str | None) -> Message:
    """The key message of a group type's record: the group id, then (``sub``) the member id
    or regular expression the record is about, when it is about one."""
    if sub is None:
        return key_cls(group_id)  # type: ignore[call-arg]
    return key_cls(group_id, sub)  # type: ignore[call-arg]


def decode_messages(
    record_types: Mapping[int, tuple[type[Message], type[Message]]],
    key: bytes | memoryview,
    value: bytes | memoryview | None,
) -> tuple[int, Message, Message | None] | None:
    """The record type, key message and value message (None: a tombstone) of a group type's
    record; None when ``record_types`` (record type -> key and value classes) has no row
    for its type. Raises :class:`ProtocolError` for a record of its types it cannot read."""
    record_type = record_type_of(key)
    classes = record_types.get(record_type)
    if classes is None:
        return None
    key_cls, value_cls = classes
    key_message = key_cls.decode(memoryview(key)[2:], 0)
    return record_type, key_message, None if value is None else decode_value(value_cls, value)


def decode_group_record(
    record_types: Mapping[int, tuple[type[Message], type[Message]]],
    key: bytes | memoryview,
    value: bytes | memoryview | None,
) -> tuple[int, str, str | None, Message | None] | None:
    """A consumer or streams group's record as :func:`decode_messages` reads it, its key
    read back into what :func:`group_key` built it from: (record type, group id, member id
    or regular expression (None: the record is about the whole group), value message)."""
    decoded = decode_messages(record_types, key, value)
    if decoded is None:
        return None
    record_type, key_message, value_message = decoded
    group_id: str = key_message.group_id  # type: ignore[attr-defined]
    sub = getattr(key_message, "member_id", getattr(key_message, "regular_expression", None))
    return record_type, group_id, sub, value_message


def offset_commit_record(
    group: str, topic: str, partition: int, value: CommittedOffset | None
) -> tuple[bytes, bytes | None]:
    """(key, value) of an OffsetCommit record; ``value`` None builds the tombstone."""
    key = frame(RecordType.OFFSET_COMMIT, OffsetCommitKey(group=group, topic=topic, partition=partition).encode(0))
    if value is None:
        return key, None
    version = OFFSET_VALUE_VERSION_WITH_EXPIRY if value.expire_timestamp_ms >= 0 else OFFSET_VALUE_VERSION
    message = OffsetCommitValue(
        offset=value.offset,
        leader_epoch=value.leader_epoch,
        metadata=value.metadata,
        commit_timestamp=value.commit_timestamp_ms,
        expire_timestamp=value.expire_timestamp_ms,
    )
    return key, frame(version, message.encode(version))


def decode_record(key: bytes | memoryview | None, value: bytes | memoryview | None) -> CoordinatorRecord | None:
    """Decode one record of ``__consumer_offsets``.

    Returns None for a record type another coordinator owns. Raises
    :class:`ProtocolError` for a record this coordinator owns but cannot read.
    """
    if key is None or len(key) < 2:
        raise ProtocolError("coordinator record without a record type")
    (record_type,) = _INT16.unpack_from(key, 0)
    key_cls: type[OffsetCommitKey] | type[GroupMetadataKey]
    value_cls: type[OffsetCommitValue] | type[GroupMetadataValue]
    if record_type in (RecordType.OFFSET_COMMIT_LEGACY, RecordType.OFFSET_COMMIT):
        key_cls, value_cls = OffsetCommitKey, OffsetCommitValue
    elif record_type == RecordType.GROUP_METADATA:
        key_cls, value_cls = GroupMetadataKey, GroupMetadataValue
    else:
        return None
    key_msg = key_cls.decode(memoryview(key)[2:], 0)
    if value is None:
        return CoordinatorRecord(RecordType(record_type), key_msg, None)
    if len(value) < 2:
        raise ProtocolError("coordinator record value without a version")
    (version,) = _INT16.unpack_from(value, 0)
    return CoordinatorRecord(RecordType(record_type), key_msg, value_cls.decode(memoryview(value)[2:], version))


def committed_from_value(value: OffsetCommitValue) -> CommittedOffset:
    return CommittedOffset(
        offset=value.offset,
        leader_epoch=value.leader_epoch,
        metadata=value.metadata,
        commit_timestamp_ms=value.commit_timestamp,
        expire_timestamp_ms=value.expire_timestamp,
    )


# --- the store ------------------------------------------------------------------------------


class OffsetStore:
    """group -> topic -> partition -> :class:`CommittedOffset`.

    Empty topic and group maps are dropped as soon as they empty, so
    :meth:`has_offsets` and iteration never see husks.

    Transactional offset commits (TxnOffsetCommit) wait here per producer id
    until their transaction ends (:meth:`put_pending`, :meth:`end_transaction`):
    a commit applies them, an abort drops them. A regular commit or a deletion
    of the same partition after them wins (Kafka keeps the offset written last
    to the log), so :meth:`put` and :meth:`remove` drop pending offsets of that
    partition.
    """

    def __init__(self) -> None:
        self._by_group: dict[str, dict[str, dict[int, CommittedOffset]]] = {}
        # producer id -> (group, topic, partition) -> offset of its open transaction
        self._pending: dict[int, dict[tuple[str, str, int], CommittedOffset]] = {}
        # group -> producer ids with pending offsets for it (Kafka's openTransactionsByGroup)
        self._pending_by_group: dict[str, set[int]] = {}

    def get(self, group: str, topic: str, partition: int) -> CommittedOffset | None:
        topics = self._by_group.get(group)
        if topics is None:
            return None
        partitions = topics.get(topic)
        return None if partitions is None else partitions.get(partition)

    def put(self, group: str, topic: str, partition: int, value: CommittedOffset) -> None:
        if self._pending_by_group:
            self._drop_pending(group, topic, partition)
        self._by_group.setdefault(group, {}).setdefault(topic, {})[partition] = value

    def remove(self, group: str, topic: str, partition: int) -> CommittedOffset | None:
        if self._pending_by_group:
            self._drop_pending(group, topic, partition)
        topics = self._by_group.get(group)
        if topics is None:
            return None
        partitions = topics.get(topic)
        if partitions is None:
            return None
        removed = partitions.pop(partition, None)
        if not partitions:
            del topics[topic]
        if not topics:
            del self._by_group[group]
        return removed

    def has_offsets(self, group: str) -> bool:
        return group in self._by_group

    # --- transactional offset commits ---------------------------------------------------

    def put_pending(self, producer_id: int, group: str, topic: str, partition: int, value: CommittedOffset) -> None:
        """A transactional offset commit of ``producer_id``'s open transaction."""
        self._pending.setdefault(producer_id, {})[(group, topic, partition)] = value
        self._pending_by_group.setdefault(group, set()).add(producer_id)

    def has_pending(self, group: str, topic: str | None = None, partition: int | None = None) -> bool:
        """Whether an open transaction holds an offset of the group (of that partition)."""
        for producer_id in self._pending_by_group.get(group, ()):
            pending = self._pending.get(producer_id, {})
            if topic is None:
                if any(key[0] == group for key in pending):
                    return True
            elif (group, topic, partition) in pending:
                return True
        return False

    def end_transaction(self, producer_id: int, committed: bool) -> list[str]:
        """The transaction of ``producer_id`` ended: apply (commit) or drop (abort) its
        offsets; returns the groups that got offsets."""
        pending = self._pending.pop(producer_id, None)
        if not pending:
            return []
        groups: list[str] = []
        for group, _, _ in pending:
            producers = self._pending_by_group.get(group)
            if producers is not None:
                producers.discard(producer_id)
                if not producers:
                    del self._pending_by_group[group]
        if committed:
            for (group, topic, partition), value in pending.items():
                self._by_group.setdefault(group, {}).setdefault(topic, {})[partition] = value
                if group not in groups:
                    groups.append(group)
        return groups

    def _drop_pending(self, group: str, topic: str, partition: int) -> None:
        for producer_id in self._pending_by_group.get(group, ()):
            pending = self._pending.get(producer_id)
            if pending is not None:
                pending.pop((group, topic, partition), None)

    def groups(self) -> list[str]:
        return list(self._by_group)

    def topics(self, group: str) -> dict[str, dict[int, CommittedOffset]]:
        """The group's offsets by topic (a read-only view; empty when none)."""
        return self._by_group.get(group, {})

    def partitions(self, group: str) -> Iterator[tuple[str, int, CommittedOffset]]:
        for topic, partitions in self._by_group.get(group, {}).items():
            for partition, value in partitions.items():
                yield topic, partition, value

    def expired(
        self,
        group: str,
        now_ms: int,
        retention_ms: int,
        base_timestamp: Callable[[CommittedOffset], int],
        is_subscribed: Callable[[str], bool],
    ) -> tuple[list[tuple[str, int]], bool]:
        """Offsets of ``group`` past retention, and whether that is all of them.

        An offset expires at its explicit expiry timestamp when it has one,
        else ``retention_ms`` after ``base_timestamp(offset)``. Offsets of
        topics the group is subscribed to never expire (Kafka's rule).
        """
        expired: list[tuple[str, int]] = []
        everything = True
        for topic, partitions in self._by_group.get(group, {}).items():
            if is_subscribed(topic):
                everything = False
                continue
            for partition, value in partitions.items():
                if value.expire_timestamp_ms >= 0:
                    gone = now_ms >= value.expire_timestamp_ms
                else:
                    gone = now_ms - base_timestamp(value) >= retention_ms
                if gone:
                    expired.append((topic, partition))
                else:
                    everything = False
        return expired, everything

    def apply(self, record: CoordinatorRecord) -> None:
        """Replay one OffsetCommit record (put, or remove on a tombstone)."""
        key = record.key
        assert isinstance(key, OffsetCommitKey)
        if record.value is None:
            self.remove(key.group, key.topic, key.partition)
        else:
            assert isinstance(record.value, OffsetCommitValue)
            self.put(key.group, key.topic, key.partition, committed_from_value(record.value))
