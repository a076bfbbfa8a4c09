"""The streams groups' state as replay builds it, and what the core answers with.

A :class:`StreamsGroup` (epochs, topology, targets, static members) and its
:class:`StreamsMember` (metadata, current assignment, reported task offsets); the
member states of the current-assignment record; :class:`HeartbeatOutcome` (the answer
and the internal topics to create) and :class:`StreamsCommitCheck` (an offset commit's
check).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from broker.group.modern import ModernGroup
from broker.group.streams.records import CurrentValue, MemberValue, TargetValue
from broker.group.streams.topology import TopicInfo, Topology
from broker.protocol.errors import ErrorCode
from broker.protocol.messages import streams_group_heartbeat_response as response_msg

__all__ = [
    "JOIN_EPOCH",
    "STABLE",
    "UNRELEASED",
    "UNREVOKED",
    "HeartbeatOutcome",
    "StreamsCommitCheck",
    "StreamsGroup",
    "StreamsMember",
]

# A member epoch of 0 joins the group.
JOIN_EPOCH = 0
# MemberState codes (the byte in the current-assignment record).
STABLE, UNREVOKED, UNRELEASED = 0, 1, 2


@dataclass(slots=True)
class StreamsMember:
    member_id: str
    meta: MemberValue = field(default_factory=MemberValue)
    current: CurrentValue = field(default_factory=CurrentValue)
    # Reported by the member, kept in memory only (as in Kafka): (subtopology, partition, offset).
    task_offsets: tuple[tuple[str, int, int], ...] = ()
    task_end_offsets: tuple[tuple[str, int, int], ...] = ()

    @property
    def epoch(self) -> int:
        return self.current.member_epoch


@dataclass(slots=True)
class StreamsGroup(ModernGroup[StreamsMember, TargetValue]):
    assignment_timestamp_ms: int = 0
    validated_topology_epoch: int = -1
    topology: Topology | None = None
    endpoint_epoch: int = 0  # in memory, as in Kafka
    shutdown_requested_by: str | None = None  # in memory

    @property
    def state(self) -> str:
        if not self.members:
            return "Empty"
        if self.topology is None or self.topology.epoch != self.validated_topology_epoch:
            return "NotReady"
        if self.epoch > self.assignment_epoch:
            return "Assigning"
        if any(m.current.state != STABLE or m.epoch != self.assignment_epoch for m in self.members.values()):
            return "Reconciling"
        return "Stable"

    def active_owner(self, subtopology: str, partition: int, without: Iterable[str]) -> StreamsMember | None:
        for m in self.members.values():
            if m.member_id in without:
                continue
            c = m.current
            if partition in c.active.get(subtopology, {}) or partition in c.active_pending_revocation.get(
                subtopology, ()
            ):
                return m
        return None


@dataclass(frozen=True, slots=True)
class HeartbeatOutcome:
    """The answer, and the internal topics the shell must create."""

    response: response_msg.StreamsGroupHeartbeatResponse
    topics_to_create: tuple[TopicInfo, ...] = ()


@dataclass(frozen=True, slots=True)
class StreamsCommitCheck:
    """OffsetCommit against a streams group: a group-level error, else per partition."""

    error: ErrorCode = ErrorCode.NONE
    message: str | None = None
    # topic -> subtopologies reading it; task -> epoch the member got it at
    readers: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    held: Mapping[str, Mapping[int, int]] | None = None
    received_epoch: int = -1

    def partition_error(self, topic: str, partition: int) -> ErrorCode:
        if self.error or self.held is None:
            return self.error
        for s in self.readers.get(topic, ()):
            epoch = self.held.get(s, {}).get(partition)
            if epoch is not None and epoch <= self.received_epoch:
                return ErrorCode.NONE
        return ErrorCode.STALE_MEMBER_EPOCH
