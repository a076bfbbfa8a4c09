"""The consumer groups' state and the types the core shares with its callers.

A :class:`ConsumerGroup` and its :class:`Member` records as replay builds them, the
group states Kafka reports, an offset commit's check (:class:`CommitCheck`), and what
the core asks of the classic groups beside it during online migration
(:class:`GroupDirectory`, :class:`ClassicSnapshot`, :class:`DowngradeMember`,
:class:`ClassicJoin`); with the epochs and versions of the protocol.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from broker.group.consumer import records as rec
from broker.group.consumer.reconcile import MemberAssignment
from broker.group.consumer.records import MemberValue, RegexValue
from broker.group.modern import ModernGroup
from broker.protocol.errors import ErrorCode

JOIN_EPOCH = 0
# Kafka 4.4 gives a new consumer group epoch 2 on its first bump.
FIRST_GROUP_EPOCH = 2
# ConsumerGroupHeartbeat v1+: the client generates its member id (KIP-1082).
CLIENT_MEMBER_ID_VERSION = 1
# OffsetCommit v9+ is the version consumer-protocol members must use.
COMMIT_VERSION_FOR_CONSUMER_PROTOCOL = 9
GROUP_TYPE = "consumer"
CONSUMER_PROTOCOL_TYPE = "consumer"
# JoinGroup v4+ makes a new dynamic member rejoin with the id it is given (KIP-394).
FIRST_JOIN_VERSION_REQUIRING_MEMBER_ID = 4


class ConsumerGroupState:
    EMPTY = "Empty"
    ASSIGNING = "Assigning"
    RECONCILING = "Reconciling"
    STABLE = "Stable"
    DEAD = "Dead"


@dataclass(slots=True)
class Member:
    member_id: str
    meta: MemberValue = field(default_factory=MemberValue)
    assignment: MemberAssignment = field(default_factory=MemberAssignment)

    @property
    def epoch(self) -> int:
        return self.assignment.member_epoch

    @property
    def uses_classic_protocol(self) -> bool:
        return self.meta.classic is not None


@dataclass(slots=True)
class ConsumerGroup(ModernGroup[Member, dict[uuid.UUID, frozenset[int]]]):
    regexes: dict[str, RegexValue] = field(default_factory=dict)
    # (topic id, partition) -> epoch of the member holding it (assigned or revoking)
    partition_epochs: dict[tuple[uuid.UUID, int], int] = field(default_factory=dict)

    @property
    def state(self) -> str:
        if not self.members:
            return ConsumerGroupState.EMPTY
        if self.epoch > self.assignment_epoch:
            return ConsumerGroupState.ASSIGNING
        if any(not m.assignment.is_reconciled_to(self.assignment_epoch) for m in self.members.values()):
            return ConsumerGroupState.RECONCILING
        return ConsumerGroupState.STABLE

    def partition_epoch(self, topic_id: uuid.UUID, partition: int) -> int:
        return self.partition_epochs.get((topic_id, partition), -1)

    def regex_subscribers(self, pattern: str, without: str | None = None) -> int:
        return sum(
            1 for m in self.members.values() if m.meta.subscribed_topic_regex == pattern and m.member_id != without
        )


@dataclass(frozen=True, slots=True)
class CommitCheck:
    """The outcome of validating an offset commit.

    ``error`` refuses the whole commit. Otherwise ``partition_error(topic_id,
    partition)`` says, per partition, whether it may be committed (an older
    member epoch is accepted only for partitions held since that epoch).
    """

    error: ErrorCode = ErrorCode.NONE
    message: str | None = None
    held_since: Mapping[uuid.UUID, Mapping[int, int]] | None = None
    received_epoch: int = -1

    def partition_error(self, topic_id: uuid.UUID, partition: int) -> ErrorCode:
        if self.error:
            return self.error
        if self.held_since is None:
            return ErrorCode.NONE
        epoch = self.held_since.get(topic_id, {}).get(partition)
        if epoch is None or epoch > self.received_epoch:
            return ErrorCode.STALE_MEMBER_EPOCH
        return ErrorCode.NONE


@dataclass(frozen=True, slots=True)
class ClassicMemberInfo:
    """A classic member as it moves between a classic group and a consumer group (online
    migration): who it is, its timeouts and the protocols it supports."""

    member_id: str
    instance_id: str | None
    client_id: str
    client_host: str
    rebalance_timeout_ms: int
    session_timeout_ms: int
    protocols: tuple[tuple[str, bytes], ...]


@dataclass(frozen=True, slots=True)
class ClassicMemberSnapshot(ClassicMemberInfo):
    """One member of a classic group, as an online upgrade takes it over."""

    assignment: bytes  # ConsumerProtocolAssignment bytes of its last assignment


@dataclass(frozen=True, slots=True)
class ClassicSnapshot:
    """A non-empty classic group, as an online upgrade takes it over."""

    group_id: str
    generation: int
    protocol_type: str | None
    protocol_name: str | None
    members: tuple[ClassicMemberSnapshot, ...]


@dataclass(frozen=True, slots=True)
class DowngradeMember(ClassicMemberInfo):
    """A classic member of a consumer group that goes back to a classic group."""

    assignment: Mapping[str, tuple[int, ...]]  # topic name -> partitions (its target)


class GroupDirectory:
    """What the consumer core needs to know about groups of other types.

    The shard passes one in; the default knows no other groups. ``group_type``
    names the type of an existing group owned by another core; ``is_empty_classic``
    says whether the classic group with this id has no members (an empty classic
    group is replaced by a consumer group on the first consumer-protocol join,
    as Kafka does); ``classic_tombstones`` builds the records that delete it.
    ``classic_snapshot`` describes a non-empty classic group for an online
    upgrade; ``classic_group_records`` builds the records of the classic group
    an online downgrade creates; ``classic_max_size`` bounds that group.
    """

    def group_type(self, group_id: str) -> str | None:
        return None

    def is_empty_classic(self, group_id: str) -> bool:
        return False

    def classic_tombstones(self, group_id: str) -> list[object]:
        return []

    def classic_snapshot(self, group_id: str) -> ClassicSnapshot | None:
        return None

    def classic_group_records(self, group_id: str, generation: int, members: Sequence[DowngradeMember]) -> list[object]:
        return []

    def classic_max_size(self) -> int:
        return 2**31 - 1


@dataclass(frozen=True, slots=True)
class ClassicJoin:
    """What a JoinGroup tells the consumer core about a classic member."""

    metadata: rec.ClassicMemberMetadata
    owned: Mapping[uuid.UUID, tuple[int, ...]]
    unknown_member: bool
