"""The ``__consumer_offsets`` records of KIP-848 consumer groups, as typed values.

Kafka 4.4 writes these record types for consumer groups (the int16 at the head
of the key; every key and value is at version 0):

====  ==========================================  ======================================
type  record                                      key -> value
====  ==========================================  ======================================
3     ConsumerGroupMetadata                       group -> group epoch, metadata hash
4     ConsumerGroupPartitionMetadata              group -> (no longer written; tombstoned)
5     ConsumerGroupMemberMetadata                 group, member -> subscription, client info
6     ConsumerGroupTargetAssignmentMetadata       group -> assignment epoch, timestamp
7     ConsumerGroupTargetAssignmentMember         group, member -> target partitions
8     ConsumerGroupCurrentMemberAssignment        group, member -> epochs, state, partitions
16    ConsumerGroupRegularExpression              group, regex -> matched topics
====  ==========================================  ======================================

Every record is a full upsert of its key (a tombstone deletes it), so
replaying a record twice, or a sequence twice, leaves the same state.
"""

from __future__ import annotations

import enum
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field

from broker.group.consumer.reconcile import MemberAssignment

__all__ = [
    "ClassicMemberMetadata",
    "GroupEpochValue",
    "MemberValue",
    "Record",
    "RecordType",
    "RegexValue",
    "TargetEpochValue",
    "TargetMemberValue",
]


class RecordType(enum.IntEnum):
    GROUP = 3
    PARTITION_METADATA = 4
    MEMBER = 5
    TARGET_EPOCH = 6
    TARGET_MEMBER = 7
    CURRENT = 8
    REGEX = 16


@dataclass(frozen=True, slots=True)
class GroupEpochValue:
    epoch: int
    metadata_hash: int = 0


@dataclass(frozen=True, slots=True)
class ClassicMemberMetadata:
    """A member that speaks JoinGroup/SyncGroup inside a consumer group (migration)."""

    session_timeout_ms: int
    protocols: tuple[tuple[str, bytes], ...] = ()


@dataclass(frozen=True, slots=True)
class MemberValue:
    instance_id: str | None = None
    rack_id: str | None = None
    client_id: str = ""
    client_host: str = ""
    subscribed_topic_names: tuple[str, ...] = ()
    subscribed_topic_regex: str | None = None
    rebalance_timeout_ms: int = -1
    server_assignor: str | None = None
    classic: ClassicMemberMetadata | None = None


@dataclass(frozen=True, slots=True)
class TargetMemberValue:
    assignment: Mapping[uuid.UUID, frozenset[int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TargetEpochValue:
    epoch: int
    timestamp_ms: int = -1


@dataclass(frozen=True, slots=True)
class RegexValue:
    topics: tuple[str, ...] = ()
    version: int = 0  # the metadata image version it was resolved against
    timestamp_ms: int = -1


Value = GroupEpochValue | MemberValue | TargetMemberValue | TargetEpochValue | MemberAssignment | RegexValue


@dataclass(frozen=True, slots=True)
class Record:
    """One consumer-group record: its type, key fields, and value (None: tombstone).

    ``sub`` is the member id (types 5, 7, 8), the regular expression (16), or
    None (3, 4, 6).
    """

    type: RecordType
    group_id: str
    sub: str | None = None
    value: Value | None = None

    @property
    def key(self) -> tuple[int, str, str | None]:
        return (int(self.type), self.group_id, self.sub)


def group_epoch(group_id: str, epoch: int, metadata_hash: int) -> Record:
    return Record(RecordType.GROUP, group_id, None, GroupEpochValue(epoch, metadata_hash))


def member(group_id: str, member_id: str, value: MemberValue | None) -> Record:
    return Record(RecordType.MEMBER, group_id, member_id, value)


def target_member(group_id: str, member_id: str, assignment: Mapping[uuid.UUID, frozenset[int]] | None) -> Record:
    value = None if assignment is None else TargetMemberValue({t: ps for t, ps in assignment.items() if ps})
    return Record(RecordType.TARGET_MEMBER, group_id, member_id, value)


def target_epoch(group_id: str, epoch: int | None, timestamp_ms: int = -1) -> Record:
    value = None if epoch is None else TargetEpochValue(epoch, timestamp_ms)
    return Record(RecordType.TARGET_EPOCH, group_id, None, value)


def current(group_id: str, member_id: str, value: MemberAssignment | None) -> Record:
    return Record(RecordType.CURRENT, group_id, member_id, value)


def regex(group_id: str, pattern: str, value: RegexValue | None) -> Record:
    return Record(RecordType.REGEX, group_id, pattern, value)
