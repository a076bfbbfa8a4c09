"""The classic consumer-group protocol (JoinGroup/SyncGroup/Heartbeat/LeaveGroup) as a
pure state machine, following Apache Kafka 4.2's ``GroupMetadataManager`` classic paths.

Nothing here does I/O or reads a clock: every operation takes ``now_ms``. The
owner (:mod:`broker.group.coordinator`) drives it:

- every operation returns a :class:`~broker.coordinator.result.CoordinatorResult`:
  the GroupMetadata records to persist and the response, or :class:`Pending` with
  a token when the request must wait (JoinGroup until the join phase completes,
  SyncGroup until the leader's assignment arrives);
- answers for parked requests pile up in an outbox the owner drains with
  :meth:`ClassicGroups.take_outbox` once the records of the operation
  that produced them are durable (a parked answer is sent only once the state it
  reports is written, as Kafka does);
- timers (the initial-rebalance delay, rebalance timeouts, pending-sync expiry
  and member session expiry) are tasks in the keyed timer queue the owner gives
  (the runtime's); each returns the records of what it did. Without an owner,
  :meth:`ClassicGroups.tick` runs the due ones by hand.

Group states and their allowed transitions are the table :data:`VALID_PREVIOUS`
(Kafka's ``ClassicGroupState``); timers are named actions in
:data:`ClassicGroups._ACTIONS`.

Group ids share one namespace with share groups. ``other_group_type(group_id)``
(given by the owner) names a group of another type; a JoinGroup for it fails
with INCONSISTENT_GROUP_PROTOCOL, the other classic APIs answer as Kafka does
for a group that is not classic. :meth:`ClassicGroups.group_type` is
the hook in the other direction.

Static membership (KIP-345): a member with ``group.instance.id`` keeps its
place across restarts; a rejoin with an unknown member id replaces the old
member id (fencing the old one with FENCED_INSTANCE_ID) and, in a Stable group
whose protocol does not change, does not trigger a rebalance.
"""

from __future__ import annotations

import itertools
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from functools import partial
from typing import Any, ClassVar

from broker.config.services import ClassicGroupSettings
from broker.coordinator.result import CoordinatorResult
from broker.coordinator.timer import TimerQueue
from broker.group.classic.records import group_metadata_record
from broker.group.offsets import CommittedOffset
from broker.protocol.errors import ErrorCode, ProtocolError
from broker.protocol.messages.consumer_protocol_subscription import ConsumerProtocolSubscription
from broker.protocol.messages.describe_groups_response import DescribedGroup, DescribedGroupMember
from broker.protocol.messages.group_metadata_value import GroupMetadataValue, MemberMetadata
from broker.protocol.messages.join_group_response import JoinGroupResponse, JoinGroupResponseMember
from broker.protocol.messages.sync_group_response import SyncGroupResponse

__all__ = [
    "VALID_PREVIOUS",
    "ClassicGroup",
    "ClassicGroups",
    "CoordinatorConfig",
    "GroupState",
    "ListedGroup",
    "Member",
    "Pending",
]

INT32_MAX = 2**31 - 1
CONSUMER_PROTOCOL_TYPE = "consumer"
# JoinGroup v4+ makes a new dynamic member rejoin with the id it is given (KIP-394).
FIRST_VERSION_REQUIRING_MEMBER_ID = 4
# JoinGroup v9+ lets a rejoining static leader skip the assignment (KIP-814).
FIRST_VERSION_SKIPPING_ASSIGNMENT = 9
# OffsetCommit v9+ answers GROUP_ID_NOT_FOUND for a missing group, older ones ILLEGAL_GENERATION.
FIRST_COMMIT_VERSION_GROUP_ID_NOT_FOUND = 9


class GroupState(Enum):
    EMPTY = "Empty"
    PREPARING_REBALANCE = "PreparingRebalance"
    COMPLETING_REBALANCE = "CompletingRebalance"
    STABLE = "Stable"
    DEAD = "Dead"


S = GroupState
# state -> the states it may be entered from (Kafka's ClassicGroupState table).
VALID_PREVIOUS: dict[GroupState, frozenset[GroupState]] = {
    S.EMPTY: frozenset({S.PREPARING_REBALANCE}),
    S.PREPARING_REBALANCE: frozenset({S.STABLE, S.COMPLETING_REBALANCE, S.EMPTY}),
    S.COMPLETING_REBALANCE: frozenset({S.PREPARING_REBALANCE}),
    S.STABLE: frozenset({S.COMPLETING_REBALANCE}),
    S.DEAD: frozenset({S.STABLE, S.PREPARING_REBALANCE, S.COMPLETING_REBALANCE, S.EMPTY, S.DEAD}),
}


@dataclass(frozen=True, slots=True)
class Pending:
    """The request is parked; its answer will come out of the outbox under ``token``."""

    token: int


@dataclass(frozen=True, slots=True)
class ListedGroup:
    """One row of ListGroups."""

    group_id: str
    protocol_type: str
    state: str
    group_type: str = "classic"


@dataclass(slots=True)
class CoordinatorConfig:
    """The broker settings the coordinator uses (Kafka's names in the comments)."""

    initial_rebalance_delay_ms: int = 3000  # group.initial.rebalance.delay.ms
    min_session_timeout_ms: int = 6000  # group.min.session.timeout.ms
    max_session_timeout_ms: int = 1800000  # group.max.session.timeout.ms
    max_size: int = INT32_MAX  # group.max.size
    # A new member's JoinGroup is parked at most this long (Kafka's fixed 5 minutes):
    # its client cannot heartbeat yet, so this is what removes a vanished one.
    new_member_join_timeout_ms: int = 300000
    offsets_retention_ms: int = 7 * 24 * 3600 * 1000  # offsets.retention.minutes
    offset_metadata_max_bytes: int = 4096  # offset.metadata.max.bytes

    @classmethod
    def from_settings(cls, s: ClassicGroupSettings) -> CoordinatorConfig:
        """Build from the broker's classic-group settings."""
        return cls(
            initial_rebalance_delay_ms=s.initial_rebalance_delay_ms,
            min_session_timeout_ms=s.min_session_timeout_ms,
            max_session_timeout_ms=s.max_session_timeout_ms,
            max_size=s.max_size,
            offsets_retention_ms=s.offsets_retention_minutes * 60_000,
            offset_metadata_max_bytes=s.offset_metadata_max_bytes,
        )


@dataclass(slots=True, eq=False)
class Member:
    member_id: str
    group_instance_id: str | None
    client_id: str
    client_host: str
    rebalance_timeout_ms: int
    session_timeout_ms: int
    protocol_type: str
    protocols: list[tuple[str, bytes]]
    assignment: bytes = b""
    join_token: int | None = None  # a parked JoinGroup
    sync_token: int | None = None  # a parked SyncGroup
    is_new: bool = False

    @property
    def awaiting_join(self) -> bool:
        return self.join_token is not None

    @property
    def awaiting_sync(self) -> bool:
        return self.sync_token is not None

    def protocol_names(self) -> list[str]:
        return [name for name, _ in self.protocols]

    def metadata(self, protocol: str | None) -> bytes:
        for name, data in self.protocols:
            if name == protocol:
                return data
        raise ValueError(f"member {self.member_id} does not support protocol {protocol}")

    def matches(self, protocols: list[tuple[str, bytes]]) -> bool:
        return list(protocols) == list(self.protocols)

    def vote(self, candidates: set[str]) -> str:
        for name, _ in self.protocols:
            if name in candidates:
                return name
        raise ValueError("member supports none of the candidate protocols")

    def has_satisfied_heartbeat(self) -> bool:
        # A new member can expire while parked in JoinGroup; others awaiting a
        # rebalance answer count as alive.
        if self.is_new:
            return False
        return self.awaiting_join or self.awaiting_sync


class ClassicGroup:
    """One classic group: members, generation, protocol, state (Kafka's ``ClassicGroup``)."""

    def __init__(
        self,
        group_id: str,
        now_ms: int,
        *,
        state: GroupState = GroupState.EMPTY,
        generation: int = 0,
        protocol_type: str | None = None,
        protocol_name: str | None = None,
        leader_id: str | None = None,
        state_timestamp_ms: int | None = None,
    ) -> None:
        self.group_id = group_id
        self.state = state
        self.previous_state = GroupState.DEAD
        self.state_timestamp_ms: int | None = now_ms if state_timestamp_ms is None else state_timestamp_ms
        self.generation = generation
        self.protocol_type = protocol_type
        self.protocol_name = protocol_name
        self.leader_id = leader_id
        self.members: dict[str, Member] = {}
        self.static_members: dict[str, str] = {}
        self.pending_join: set[str] = set()
        self.pending_sync: set[str] = set()
        self.supported_protocols: Counter[str] = Counter()
        self.subscribed_topics: set[str] | None = None
        self.new_member_added = False

    # --- state -----------------------------------------------------------------------

    def transition_to(self, state: GroupState, now_ms: int) -> None:
        if self.state not in VALID_PREVIOUS[state]:
            raise AssertionError(f"group {self.group_id}: no transition from {self.state.value} to {state.value}")
        self.previous_state = self.state
        self.state = state
        self.state_timestamp_ms = now_ms

    def can_rebalance(self) -> bool:
        return self.state in VALID_PREVIOUS[GroupState.PREPARING_REBALANCE]

    @property
    def is_empty(self) -> bool:
        return self.state is GroupState.EMPTY

    # --- members ---------------------------------------------------------------------

    def has_member(self, member_id: str) -> bool:
        return member_id in self.members

    def is_leader(self, member_id: str) -> bool:
        return self.leader_id is not None and self.leader_id == member_id

    def is_pending_member(self, member_id: str) -> bool:
        return member_id in self.pending_join

    def add(self, member: Member) -> None:
        if member.group_instance_id is not None:
            if member.group_instance_id in self.static_members:
                raise AssertionError(f"static member {member.group_instance_id} is already in {self.group_id}")
            self.static_members[member.group_instance_id] = member.member_id
        if not self.members:
            self.protocol_type = member.protocol_type
        if self.protocol_type != member.protocol_type:
            raise AssertionError("the group and member's protocol type must be the same")
        if not self.supports_protocols(member.protocol_type, member.protocol_names()):
            raise AssertionError("none of the member's protocols can be supported")
        if self.leader_id is None:
            self.leader_id = member.member_id
        self.members[member.member_id] = member
        self.supported_protocols.update(member.protocol_names())
        self.pending_join.discard(member.member_id)

    def remove(self, member_id: str) -> Member | None:
        member = self.members.pop(member_id, None)
        if member is not None:
            self.supported_protocols.subtract(member.protocol_names())
            if member.group_instance_id is not None:
                self.static_members.pop(member.group_instance_id, None)
        if self.is_leader(member_id):
            self.leader_id = next(iter(self.members), None)
        self.pending_join.discard(member_id)
        self.pending_sync.discard(member_id)
        return member

    def update_member(
        self, member: Member, protocols: list[tuple[str, bytes]], rebalance_timeout_ms: int, session_timeout_ms: int
    ) -> None:
        self.supported_protocols.subtract(member.protocol_names())
        member.protocols = list(protocols)
        self.supported_protocols.update(member.protocol_names())
        member.rebalance_timeout_ms = rebalance_timeout_ms
        member.session_timeout_ms = session_timeout_ms

    def replace_static_member(self, instance_id: str, old_member_id: str, new_member_id: str) -> tuple[Member, Member]:
        """Swap the member id of a static member; returns (old, new)."""
        old = self.members.pop(old_member_id)
        new = Member(
            new_member_id,
            old.group_instance_id,
            old.client_id,
            old.client_host,
            old.rebalance_timeout_ms,
            old.session_timeout_ms,
            old.protocol_type,
            list(old.protocols),
            old.assignment,
        )
        self.members[new_member_id] = new
        if self.is_leader(old_member_id):
            self.leader_id = new_member_id
        self.static_members[instance_id] = new_member_id
        return old, new

    def num_awaiting_join(self) -> int:
        return sum(1 for m in self.members.values() if m.awaiting_join)

    def has_all_members_joined(self) -> bool:
        return len(self.members) == self.num_awaiting_join() and not self.pending_join

    def not_yet_rejoined(self) -> list[Member]:
        return [m for m in self.members.values() if not m.awaiting_join]

    def rebalance_timeout_ms(self) -> int:
        return max((m.rebalance_timeout_ms for m in self.members.values()), default=0)

    def maybe_elect_new_joined_leader(self) -> bool:
        """Keep a leader that rejoined, else pick any member that did; False if none did."""
        if self.leader_id is None:
            return False
        leader = self.members.get(self.leader_id)
        if leader is not None and leader.awaiting_join:
            return True
        for member in self.members.values():
            if member.awaiting_join:
                self.leader_id = member.member_id
                return True
        return False

    # --- protocols -------------------------------------------------------------------

    def supports_protocols(self, protocol_type: str, names: list[str]) -> bool:
        if self.state is GroupState.EMPTY:
            return bool(protocol_type) and bool(names)
        size = len(self.members)
        return self.protocol_type == protocol_type and any(self.supported_protocols[n] == size for n in names)

    def select_protocol(self) -> str:
        """The protocol every member supports that most members prefer (ties: first seen)."""
        size = len(self.members)
        candidates = {name for name, count in self.supported_protocols.items() if count == size}
        votes: Counter[str] = Counter(m.vote(candidates) for m in self.members.values())
        return max(votes, key=lambda name: votes[name])

    def uses_consumer_protocol(self) -> bool:
        return self.protocol_type == CONSUMER_PROTOCOL_TYPE

    def compute_subscribed_topics(self) -> set[str] | None:
        """Topics the members subscribe to (consumer protocol only), None when unknown."""
        if self.protocol_type != CONSUMER_PROTOCOL_TYPE:
            return None
        if not self.members:
            return set()
        if self.protocol_name is None:
            return None
        topics: set[str] = set()
        try:
            for member in self.members.values():
                data = member.metadata(self.protocol_name)
                # Every ConsumerProtocolSubscription version starts with the v0 layout.
                topics.update(ConsumerProtocolSubscription.decode(memoryview(data)[2:], 0).topics)
        except (ProtocolError, ValueError):
            return None
        return topics

    def is_subscribed_to_topic(self, topic: str) -> bool:
        if self.subscribed_topics is None:
            return self.uses_consumer_protocol()
        return topic in self.subscribed_topics

    def init_next_generation(self, now_ms: int) -> None:
        self.generation += 1
        if self.members:
            self.protocol_name = self.select_protocol()
            self.subscribed_topics = self.compute_subscribed_topics()
            self.transition_to(GroupState.COMPLETING_REBALANCE, now_ms)
        else:
            self.protocol_name = None
            self.subscribed_topics = self.compute_subscribed_topics()
            self.transition_to(GroupState.EMPTY, now_ms)
        self.pending_sync.clear()

    def member_list(self) -> list[JoinGroupResponseMember]:
        """What the leader's JoinGroup answer carries."""
        return [
            JoinGroupResponseMember(
                member_id=m.member_id, group_instance_id=m.group_instance_id, metadata=m.metadata(self.protocol_name)
            )
            for m in self.members.values()
        ]

    # --- validation --------------------------------------------------------------------

    def validate_member(self, member_id: str, group_instance_id: str | None) -> ErrorCode:
        if group_instance_id is not None:
            existing = self.static_members.get(group_instance_id)
            if existing is None:
                return ErrorCode.UNKNOWN_MEMBER_ID
            if existing != member_id:
                return ErrorCode.FENCED_INSTANCE_ID
        if member_id not in self.members:
            return ErrorCode.UNKNOWN_MEMBER_ID
        return ErrorCode.NONE

    def validate_offset_commit(
        self, member_id: str, group_instance_id: str | None, generation: int, *, transactional: bool = False
    ) -> ErrorCode:
        """``transactional``: TxnOffsetCommit, whose old versions carry no member, and
        which the group's rebalance state does not hold up (Kafka's rules)."""
        if self.state is GroupState.DEAD:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        if generation < 0 and self.state is GroupState.EMPTY:
            # Admin clients and consumers without group management commit with -1.
            return ErrorCode.NONE
        if generation >= 0 or member_id or group_instance_id is not None:
            error = self.validate_member(member_id, group_instance_id)
            if error:
                return error
            if generation != self.generation:
                return ErrorCode.ILLEGAL_GENERATION
        elif self.state is not GroupState.EMPTY and not transactional:
            return ErrorCode.UNKNOWN_MEMBER_ID
        if self.state is GroupState.COMPLETING_REBALANCE and not transactional:
            return ErrorCode.REBALANCE_IN_PROGRESS
        return ErrorCode.NONE

    # --- persistence ---------------------------------------------------------------------

    def metadata_value(self, assignment: dict[str, bytes] | None = None) -> GroupMetadataValue:
        """The GroupMetadata value Kafka writes for this group (members with their
        subscription for the current protocol and ``assignment``)."""
        members = []
        if assignment is not None:
            for m in self.members.values():
                members.append(
                    MemberMetadata(
                        member_id=m.member_id,
                        group_instance_id=m.group_instance_id,
                        client_id=m.client_id,
                        client_host=m.client_host,
                        rebalance_timeout=m.rebalance_timeout_ms,
                        session_timeout=m.session_timeout_ms,
                        subscription=m.metadata(self.protocol_name),
                        assignment=assignment.get(m.member_id, b""),
                    )
                )
        return GroupMetadataValue(
            protocol_type=self.protocol_type or "",
            generation=self.generation,
            protocol=self.protocol_name,
            leader=self.leader_id,
            current_state_timestamp=-1 if self.state_timestamp_ms is None else self.state_timestamp_ms,
            members=members,
        )


def _join_error(code: int, member_id: str = "") -> JoinGroupResponse:
    return JoinGroupResponse(
        error_code=code, generation_id=-1, protocol_type=None, protocol_name=None, leader="", member_id=member_id
    )


def _sync_error(code: int) -> SyncGroupResponse:
    return SyncGroupResponse(error_code=code, protocol_type=None, protocol_name=None, assignment=b"")


def _protocol_inconsistent(requested: str | None, actual: str | None) -> bool:
    return requested is not None and actual is not None and requested != actual


Record = tuple[bytes, bytes | None]


class ClassicGroups:
    """Every classic group of this broker, their timers and their outbox.

    ``other_group_type(group_id)`` names the type of a group this coordinator
    does not own (e.g. ``"share"``), or None. ``timer`` is the queue its timers
    go in (the runtime's; a queue of its own when none is given).
    """

    def __init__(
        self,
        config: CoordinatorConfig | None = None,
        *,
        timer: TimerQueue[Callable[[int], CoordinatorResult[None]]] | None = None,
        other_group_type: Callable[[str], str | None] | None = None,
        new_uuid: Callable[[], uuid.UUID] = uuid.uuid4,
    ) -> None:
        self.config = config or CoordinatorConfig()
        self.other_group_type = other_group_type
        self._new_uuid = new_uuid
        self.groups: dict[str, ClassicGroup] = {}
        self._tokens = itertools.count(1)
        self._outbox: list[tuple[int, Any]] = []
        # Records of the operation in progress (handed out with its result) and its time.
        self._records: list[Record] = []
        self._now_ms = 0
        self._timers: TimerQueue[Callable[[int], CoordinatorResult[None]]] = (
            timer if timer is not None else TimerQueue()
        )

    # ================================================================== owner interface

    def group_type(self, group_id: str) -> str | None:
        """``"classic"`` when a classic group with this id exists, else None
        (the hook other coordinators use to keep one group-id namespace)."""
        return "classic" if group_id in self.groups else None

    def _foreign_type(self, group_id: str) -> str | None:
        if group_id in self.groups or self.other_group_type is None:
            return None
        kind = self.other_group_type(group_id)
        return None if kind == "classic" else kind

    def take_outbox(self) -> list[tuple[int, Any]]:
        """Answers for parked requests: (token, JoinGroupResponse | SyncGroupResponse)."""
        out, self._outbox = self._outbox, []
        return out

    def _at(self, now_ms: int) -> None:
        """Start an operation at ``now_ms``: what it schedules and transitions counts from it."""
        self._now_ms = now_ms

    def _result(self, response: Any) -> CoordinatorResult[Any]:
        """The operation's result: the records it wrote, in order, and ``response``."""
        records, self._records = self._records, []
        return CoordinatorResult(records, response)

    def _deliver(self, token: int | None, response: Any) -> None:
        if token is not None:
            self._outbox.append((token, response))

    def _persist(self, group: ClassicGroup, assignment: dict[str, bytes] | None = None) -> None:
        self._records.append(group_metadata_record(group.group_id, group.metadata_value(assignment)))

    def _new_token(self) -> int:
        return next(self._tokens)

    # ================================================================== timers

    def _schedule(self, key: tuple, delay_ms: int, action: tuple) -> None:
        self._timers.schedule(key, self._now_ms + max(delay_ms, 0), partial(self._fire, action))

    def _cancel(self, key: tuple) -> None:
        self._timers.cancel(key)

    def _fire(self, action: tuple, now_ms: int) -> CoordinatorResult[None]:
        """A timer's task: run ``action`` at ``now_ms``; the records it wrote."""
        self._at(now_ms)
        self._ACTIONS[action[0]](self, *action[1:])
        return self._result(None)

    def next_deadline_ms(self) -> int | None:
        """When the next timer is due, or None when no timer is set."""
        return self._timers.next_deadline_ms()

    def tick(self, now_ms: int) -> CoordinatorResult[None]:
        """Run every timer due at ``now_ms`` by hand (including ones that come due while
        running); the records they wrote. With a runtime, its timer runs them instead."""
        result: CoordinatorResult[None] = CoordinatorResult()
        while (due := self._timers.pop_due(now_ms)) is not None:
            result.extend(due[1](now_ms))
        return result

    def _hb_key(self, group_id: str, member_id: str) -> tuple:
        return ("heartbeat", group_id, member_id)

    def _reschedule_heartbeat(self, group: ClassicGroup, member_id: str, timeout_ms: int) -> None:
        self._schedule(
            self._hb_key(group.group_id, member_id), timeout_ms, ("expire_heartbeat", group.group_id, member_id)
        )

    def _cancel_heartbeat(self, group: ClassicGroup, member_id: str) -> None:
        self._cancel(self._hb_key(group.group_id, member_id))

    # ================================================================== JoinGroup

    def join(
        self,
        group_id: str,
        member_id: str,
        *,
        protocol_type: str,
        protocols: list[tuple[str, bytes]],
        session_timeout_ms: int,
        rebalance_timeout_ms: int,
        group_instance_id: str | None = None,
        client_id: str = "",
        client_host: str = "",
        api_version: int = 9,
        now_ms: int,
    ) -> CoordinatorResult[JoinGroupResponse | Pending]:
        """JoinGroup: the answer, or :class:`Pending` until the join phase completes."""
        self._at(now_ms)
        return self._result(
            self._join(
                group_id,
                _JoinRequest(
                    member_id,
                    group_instance_id,
                    protocol_type,
                    list(protocols),
                    session_timeout_ms,
                    rebalance_timeout_ms,
                    client_id,
                    client_host,
                    api_version,
                ),
            )
        )

    def _join(self, group_id: str, request: _JoinRequest) -> JoinGroupResponse | Pending:
        member_id = request.member_id
        if not group_id:
            return _join_error(ErrorCode.INVALID_GROUP_ID, member_id)
        c = self.config
        if not c.min_session_timeout_ms <= request.session_timeout_ms <= c.max_session_timeout_ms:
            return _join_error(ErrorCode.INVALID_SESSION_TIMEOUT, member_id)
        if self._foreign_type(group_id) is not None:
            return _join_error(ErrorCode.INCONSISTENT_GROUP_PROTOCOL)
        unknown = member_id == ""
        group = self.groups.get(group_id)
        is_new_group = group is None
        if group is None:
            if not unknown:
                return _join_error(ErrorCode.UNKNOWN_MEMBER_ID, member_id)
            group = self.groups[group_id] = ClassicGroup(group_id, self._now_ms)
        records_before = len(self._records)
        if not self._accept_joining_member(group, member_id):
            group.remove(member_id)
            result: JoinGroupResponse | Pending = _join_error(ErrorCode.GROUP_MAX_SIZE_REACHED)
        elif unknown:
            result = self._join_new_member(group, request)
        else:
            result = self._join_existing_member(group, request)
        if is_new_group and len(self._records) == records_before:
            # A new group is written at once, so that it survives a restart.
            self._records.append(
                group_metadata_record(
                    group_id,
                    GroupMetadataValue(
                        protocol_type="",
                        generation=0,
                        protocol=None,
                        leader=None,
                        current_state_timestamp=group.state_timestamp_ms or -1,
                    ),
                )
            )
        return result

    def _accept_joining_member(self, group: ClassicGroup, member_id: str) -> bool:
        if group.state in (GroupState.EMPTY, GroupState.DEAD):
            return True
        if group.state is GroupState.PREPARING_REBALANCE:
            member = group.members.get(member_id)
            return (member is not None and member.awaiting_join) or group.num_awaiting_join() < self.config.max_size
        return member_id in group.members or len(group.members) < self.config.max_size

    def _join_new_member(self, group: ClassicGroup, req: _JoinRequest) -> JoinGroupResponse | Pending:
        if group.state is GroupState.DEAD:
            return _join_error(ErrorCode.COORDINATOR_NOT_AVAILABLE)
        if not group.supports_protocols(req.protocol_type, [n for n, _ in req.protocols]):
            return _join_error(ErrorCode.INCONSISTENT_GROUP_PROTOCOL)
        prefix = req.group_instance_id if req.group_instance_id is not None else req.client_id
        new_member_id = f"{prefix}-{self._new_uuid()}"
        if req.group_instance_id is not None:
            existing = group.static_members.get(req.group_instance_id)
            if existing is not None:
                return self._update_static_member(group, req, existing, new_member_id)
            return self._add_member_then_rebalance(group, req, new_member_id)
        if req.api_version >= FIRST_VERSION_REQUIRING_MEMBER_ID:
            group.pending_join.add(new_member_id)
            self._reschedule_heartbeat(group, new_member_id, req.session_timeout_ms)
            return _join_error(ErrorCode.MEMBER_ID_REQUIRED, new_member_id)
        return self._add_member_then_rebalance(group, req, new_member_id)

    def _join_existing_member(self, group: ClassicGroup, req: _JoinRequest) -> JoinGroupResponse | Pending:
        member_id = req.member_id
        if group.state is GroupState.DEAD:
            return _join_error(ErrorCode.COORDINATOR_NOT_AVAILABLE, member_id)
        if not group.supports_protocols(req.protocol_type, [n for n, _ in req.protocols]):
            return _join_error(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, member_id)
        if group.is_pending_member(member_id):
            if req.group_instance_id is not None:
                # Kafka treats this as an illegal state; answer instead of failing.
                return _join_error(ErrorCode.UNKNOWN_MEMBER_ID, member_id)
            return self._add_member_then_rebalance(group, req, member_id)
        error = group.validate_member(member_id, req.group_instance_id)
        if error:
            return _join_error(error, member_id)
        member = group.members[member_id]
        if group.state is GroupState.PREPARING_REBALANCE:
            return self._update_member_then_rebalance(group, member, req)
        if group.state is GroupState.COMPLETING_REBALANCE:
            if member.matches(req.protocols):
                # The member missed its JoinGroup answer: repeat it.
                return self._current_join_response(group, member_id, with_members=group.is_leader(member_id))
            return self._update_member_then_rebalance(group, member, req)
        if group.state is GroupState.STABLE:
            if group.is_leader(member_id) or not member.matches(req.protocols):
                # A leader rejoining asks for a rebalance (e.g. topic metadata changed).
                return self._update_member_then_rebalance(group, member, req)
            return self._current_join_response(group, member_id, with_members=False)
        # Empty: the member must start again.
        return _join_error(ErrorCode.UNKNOWN_MEMBER_ID, member_id)

    def _current_join_response(self, group: ClassicGroup, member_id: str, *, with_members: bool) -> JoinGroupResponse:
        return JoinGroupResponse(
            error_code=ErrorCode.NONE,
            generation_id=group.generation,
            protocol_type=group.protocol_type,
            protocol_name=group.protocol_name,
            leader=group.leader_id or "",
            member_id=member_id,
            members=group.member_list() if with_members else [],
        )

    def _park_join(self, member: Member) -> int:
        """Give ``member`` a fresh JoinGroup token; a request it replaces is told to rejoin."""
        if member.join_token is not None:
            self._deliver(member.join_token, _join_error(ErrorCode.REBALANCE_IN_PROGRESS, member.member_id))
        member.join_token = self._new_token()
        return member.join_token

    def _add_member_then_rebalance(self, group: ClassicGroup, req: _JoinRequest, member_id: str) -> Pending:
        member = Member(
            member_id,
            req.group_instance_id,
            req.client_id,
            req.client_host,
            req.rebalance_timeout_ms,
            req.session_timeout_ms,
            req.protocol_type,
            req.protocols,
            is_new=True,
        )
        if group.state is GroupState.PREPARING_REBALANCE and group.previous_state is GroupState.EMPTY:
            group.new_member_added = True
        token = self._park_join(member)
        group.add(member)
        # A parked new member cannot heartbeat; this bounds how long it may vanish.
        self._reschedule_heartbeat(group, member_id, self.config.new_member_join_timeout_ms)
        self._maybe_prepare_rebalance_or_complete_join(group)
        return Pending(token)

    def _update_member_then_rebalance(self, group: ClassicGroup, member: Member, req: _JoinRequest) -> Pending:
        group.update_member(member, req.protocols, req.rebalance_timeout_ms, req.session_timeout_ms)
        token = self._park_join(member)
        self._maybe_prepare_rebalance_or_complete_join(group)
        return Pending(token)

    def _update_static_member(
        self, group: ClassicGroup, req: _JoinRequest, old_member_id: str, new_member_id: str
    ) -> JoinGroupResponse | Pending:
        assert req.group_instance_id is not None
        current_leader = group.leader_id
        old, member = group.replace_static_member(req.group_instance_id, old_member_id, new_member_id)
        # Fence whoever still waits under the old member id.
        self._deliver(
            old.join_token,
            JoinGroupResponse(
                error_code=ErrorCode.FENCED_INSTANCE_ID,
                generation_id=-1,
                protocol_type=None,
                protocol_name=None,
                leader="",
                member_id=old_member_id,
            ),
        )
        self._deliver(old.sync_token, _sync_error(ErrorCode.FENCED_INSTANCE_ID))
        self._cancel_heartbeat(group, old_member_id)
        self._reschedule_heartbeat(group, new_member_id, member.session_timeout_ms)
        group.update_member(member, req.protocols, req.rebalance_timeout_ms, req.session_timeout_ms)
        token = self._park_join(member)
        if group.state is GroupState.STABLE:
            if group.protocol_name == group.select_protocol():
                # Same protocol: no rebalance, just persist the new member id.
                self._persist(group, {m.member_id: m.assignment for m in group.members.values()})
                is_leader = group.is_leader(new_member_id)
                if req.api_version >= FIRST_VERSION_SKIPPING_ASSIGNMENT:
                    response = JoinGroupResponse(
                        error_code=ErrorCode.NONE,
                        generation_id=group.generation,
                        protocol_type=group.protocol_type,
                        protocol_name=group.protocol_name,
                        leader=group.leader_id or "",
                        skip_assignment=is_leader,
                        member_id=new_member_id,
                        members=group.member_list() if is_leader else [],
                    )
                else:
                    response = JoinGroupResponse(
                        error_code=ErrorCode.NONE,
                        generation_id=group.generation,
                        protocol_type=group.protocol_type,
                        protocol_name=group.protocol_name,
                        leader=current_leader or "",
                        member_id=new_member_id,
                    )
                member.join_token = None
                self._deliver(token, response)
                return Pending(token)
            self._maybe_prepare_rebalance_or_complete_join(group)
            return Pending(token)
        if group.state is GroupState.COMPLETING_REBALANCE:
            # The leader may already hold the old id in its assignment: rebalance.
            self._prepare_rebalance(group)
            return Pending(token)
        self._maybe_complete_join_phase(group)
        return Pending(token)

    # ================================================================== rebalancing

    def _maybe_prepare_rebalance_or_complete_join(self, group: ClassicGroup) -> None:
        if group.can_rebalance():
            self._prepare_rebalance(group)
        else:
            self._maybe_complete_join_phase(group)

    def _maybe_complete_join_phase(self, group: ClassicGroup) -> None:
        if group.state is not GroupState.PREPARING_REBALANCE:
            return
        if group.previous_state is GroupState.EMPTY:
            return  # the initial rebalance waits for its delay
        if group.has_all_members_joined():
            self._complete_join(group)

    def _prepare_rebalance(self, group: ClassicGroup) -> None:
        if group.state is GroupState.COMPLETING_REBALANCE:
            for m in group.members.values():
                m.assignment = b""
            self._propagate_assignment(group, ErrorCode.REBALANCE_IN_PROGRESS)
        group.pending_sync.clear()
        self._cancel(("sync", group.group_id))
        initial = group.state is GroupState.EMPTY
        if initial:
            delay = self.config.initial_rebalance_delay_ms
            remaining = max(group.rebalance_timeout_ms() - delay, 0)
            self._schedule(("join", group.group_id), delay, ("initial_rebalance", group.group_id, delay, remaining))
        group.transition_to(GroupState.PREPARING_REBALANCE, self._now_ms)
        if not initial:
            if group.has_all_members_joined():
                self._complete_join(group)
            else:
                self._schedule(
                    ("join", group.group_id), group.rebalance_timeout_ms(), ("complete_join", group.group_id)
                )

    def _timer_initial_rebalance(self, group_id: str, delay: int, remaining: int) -> None:
        group = self.groups.get(group_id)
        if group is None:
            return
        if group.new_member_added and remaining != 0:
            # Members keep arriving: wait a little more, within the rebalance timeout.
            group.new_member_added = False
            new_delay = min(self.config.initial_rebalance_delay_ms, remaining)
            new_remaining = max(remaining - delay, 0)
            self._schedule(("join", group_id), new_delay, ("initial_rebalance", group_id, new_delay, new_remaining))
            return
        self._complete_join(group)

    def _timer_complete_join(self, group_id: str) -> None:
        group = self.groups.get(group_id)
        if group is not None:
            self._complete_join(group)

    def _complete_join(self, group: ClassicGroup) -> None:
        self._cancel(("join", group.group_id))
        for member in group.not_yet_rejoined():
            if member.group_instance_id is None:
                group.remove(member.member_id)
                self._cancel_heartbeat(group, member.member_id)
                self._deliver(member.sync_token, _sync_error(ErrorCode.UNKNOWN_MEMBER_ID))
        if group.state is GroupState.DEAD:
            return
        if not group.maybe_elect_new_joined_leader() and group.members:
            # Nobody rejoined: try again after another rebalance timeout (sessions
            # expire meanwhile and remove the silent members).
            self._schedule(("join", group.group_id), group.rebalance_timeout_ms(), ("complete_join", group.group_id))
            return
        group.init_next_generation(self._now_ms)
        if group.state is GroupState.EMPTY:
            self._persist(group, {})
            return
        for member in list(group.members.values()):
            is_leader = group.is_leader(member.member_id)
            response = self._current_join_response(group, member.member_id, with_members=is_leader)
            token, member.join_token = member.join_token, None
            self._deliver(token, response)
            self._reschedule_heartbeat(group, member.member_id, member.session_timeout_ms)
            member.is_new = False
            group.pending_sync.add(member.member_id)
        self._schedule(
            ("sync", group.group_id), group.rebalance_timeout_ms(), ("expire_sync", group.group_id, group.generation)
        )

    def _timer_expire_sync(self, group_id: str, generation: int) -> None:
        group = self.groups.get(group_id)
        if group is None or generation != group.generation:
            return
        if group.state in (GroupState.COMPLETING_REBALANCE, GroupState.STABLE) and group.pending_sync:
            for member_id in list(group.pending_sync):
                removed = group.remove(member_id)
                self._cancel_heartbeat(group, member_id)
                if removed is not None:
                    self._deliver(removed.join_token, _join_error(ErrorCode.UNKNOWN_MEMBER_ID))
            self._prepare_rebalance(group)

    def _timer_expire_heartbeat(self, group_id: str, member_id: str) -> None:
        group = self.groups.get(group_id)
        if group is None or group.state is GroupState.DEAD:
            return
        if group.is_pending_member(member_id):
            group.remove(member_id)
            if group.state is GroupState.PREPARING_REBALANCE and group.has_all_members_joined():
                self._complete_join(group)
            return
        member = group.members.get(member_id)
        if member is None or member.has_satisfied_heartbeat():
            return
        self._remove_member_and_update_group(group, member)

    def _remove_member_and_update_group(self, group: ClassicGroup, member: Member) -> None:
        token, member.join_token = member.join_token, None
        self._deliver(token, _join_error(ErrorCode.UNKNOWN_MEMBER_ID))
        sync_token, member.sync_token = member.sync_token, None
        self._deliver(sync_token, _sync_error(ErrorCode.UNKNOWN_MEMBER_ID))
        group.remove(member.member_id)
        if group.state in (GroupState.STABLE, GroupState.COMPLETING_REBALANCE):
            self._maybe_prepare_rebalance_or_complete_join(group)
        elif group.state is GroupState.PREPARING_REBALANCE and group.has_all_members_joined():
            self._complete_join(group)

    _ACTIONS: ClassVar[dict[str, Callable[..., None]]] = {
        "initial_rebalance": _timer_initial_rebalance,
        "complete_join": _timer_complete_join,
        "expire_sync": _timer_expire_sync,
        "expire_heartbeat": _timer_expire_heartbeat,
    }

    # ================================================================== SyncGroup

    def sync(
        self,
        group_id: str,
        generation_id: int,
        member_id: str,
        *,
        group_instance_id: str | None = None,
        protocol_type: str | None = None,
        protocol_name: str | None = None,
        assignments: list[tuple[str, bytes]] | None = None,
        now_ms: int,
    ) -> CoordinatorResult[SyncGroupResponse | Pending]:
        """SyncGroup: the assignment, or :class:`Pending` until the leader sends it."""
        self._at(now_ms)
        return self._result(
            self._sync(group_id, generation_id, member_id, group_instance_id, protocol_type, protocol_name, assignments)
        )

    def _sync(
        self,
        group_id: str,
        generation_id: int,
        member_id: str,
        group_instance_id: str | None,
        protocol_type: str | None,
        protocol_name: str | None,
        assignments: list[tuple[str, bytes]] | None,
    ) -> SyncGroupResponse | Pending:
        if not group_id:
            return _sync_error(ErrorCode.INVALID_GROUP_ID)
        group = self.groups.get(group_id)
        if group is None or group.is_empty:
            return _sync_error(ErrorCode.UNKNOWN_MEMBER_ID)
        if group.state is GroupState.DEAD:
            return _sync_error(ErrorCode.COORDINATOR_NOT_AVAILABLE)
        error = group.validate_member(member_id, group_instance_id)
        if not error and generation_id != group.generation:
            error = ErrorCode.ILLEGAL_GENERATION
        if not error and (
            _protocol_inconsistent(protocol_type, group.protocol_type)
            or _protocol_inconsistent(protocol_name, group.protocol_name)
        ):
            error = ErrorCode.INCONSISTENT_GROUP_PROTOCOL
        if error:
            return _sync_error(error)
        if group.state is GroupState.PREPARING_REBALANCE:
            return _sync_error(ErrorCode.REBALANCE_IN_PROGRESS)
        member = group.members[member_id]
        if group.state is GroupState.COMPLETING_REBALANCE:
            if member.sync_token is not None:
                self._deliver(member.sync_token, _sync_error(ErrorCode.REBALANCE_IN_PROGRESS))
            token = member.sync_token = self._new_token()
            self._remove_pending_sync(group, member_id)
            if group.is_leader(member_id):
                given = dict(assignments or [])
                assignment = {mid: given.get(mid, b"") for mid in group.members}
                # Persist the assignment, then hand it out (answers leave the outbox
                # only after the owner has written the record).
                self._persist(group, assignment)
                for mid, m in group.members.items():
                    m.assignment = assignment[mid]
                self._propagate_assignment(group, ErrorCode.NONE)
                group.transition_to(GroupState.STABLE, self._now_ms)
            return Pending(token)
        # Stable: hand out the current assignment.
        self._remove_pending_sync(group, member_id)
        return SyncGroupResponse(
            error_code=ErrorCode.NONE,
            protocol_type=group.protocol_type,
            protocol_name=group.protocol_name,
            assignment=member.assignment,
        )

    def _remove_pending_sync(self, group: ClassicGroup, member_id: str) -> None:
        group.pending_sync.discard(member_id)
        if not group.pending_sync:
            self._cancel(("sync", group.group_id))

    def _propagate_assignment(self, group: ClassicGroup, error: ErrorCode) -> None:
        ok = error == ErrorCode.NONE
        for member in group.members.values():
            if member.sync_token is None:
                continue
            token, member.sync_token = member.sync_token, None
            self._deliver(
                token,
                SyncGroupResponse(
                    error_code=error,
                    protocol_type=group.protocol_type if ok else None,
                    protocol_name=group.protocol_name if ok else None,
                    assignment=member.assignment,
                ),
            )
            # Its session restarts once it has its answer.
            self._reschedule_heartbeat(group, member.member_id, member.session_timeout_ms)

    # ================================================================== Heartbeat

    def heartbeat(
        self, group_id: str, generation_id: int, member_id: str, group_instance_id: str | None = None, *, now_ms: int
    ) -> CoordinatorResult[ErrorCode]:
        """Heartbeat: the member's session restarts."""
        self._at(now_ms)
        return self._result(self._heartbeat(group_id, generation_id, member_id, group_instance_id))

    def _heartbeat(self, group_id: str, generation_id: int, member_id: str, group_instance_id: str | None) -> ErrorCode:
        if not group_id:
            return ErrorCode.INVALID_GROUP_ID
        group = self.groups.get(group_id)
        if group is None:
            return ErrorCode.UNKNOWN_MEMBER_ID
        if group.state is GroupState.DEAD:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        error = group.validate_member(member_id, group_instance_id)
        if error:
            return error
        if generation_id != group.generation:
            return ErrorCode.ILLEGAL_GENERATION
        if group.state is GroupState.EMPTY:
            return ErrorCode.UNKNOWN_MEMBER_ID
        member = group.members[member_id]
        self._reschedule_heartbeat(group, member_id, member.session_timeout_ms)
        if group.state is GroupState.PREPARING_REBALANCE:
            return ErrorCode.REBALANCE_IN_PROGRESS
        return ErrorCode.NONE

    # ================================================================== LeaveGroup

    def leave(
        self, group_id: str, members: list[tuple[str, str | None]], *, now_ms: int
    ) -> CoordinatorResult[tuple[ErrorCode, list[tuple[str, str | None, ErrorCode]]]]:
        """Remove ``members`` ((member id, group instance id) pairs; an empty member id
        with an instance id removes that static member). Answers the top-level error
        and one (member id, instance id, error) per entry."""
        self._at(now_ms)
        return self._result(self._leave(group_id, members))

    def _leave(
        self, group_id: str, members: list[tuple[str, str | None]]
    ) -> tuple[ErrorCode, list[tuple[str, str | None, ErrorCode]]]:
        if not group_id:
            return ErrorCode.INVALID_GROUP_ID, []
        group = self.groups.get(group_id)
        if group is None:
            return ErrorCode.NONE, [(mid, iid, ErrorCode.UNKNOWN_MEMBER_ID) for mid, iid in members]
        if group.state is GroupState.DEAD:
            return ErrorCode.COORDINATOR_NOT_AVAILABLE, []
        results: list[tuple[str, str | None, ErrorCode]] = []
        left = 0
        for member_id, instance_id in members:
            if member_id == "":
                target = group.static_members.get(instance_id) if instance_id is not None else None
                if target is None:
                    results.append((member_id, instance_id, ErrorCode.UNKNOWN_MEMBER_ID))
                    continue
                self._remove_current_member(group, target)
            elif group.is_pending_member(member_id):
                group.remove(member_id)
                self._cancel_heartbeat(group, member_id)
            else:
                error = group.validate_member(member_id, instance_id)
                if error:
                    results.append((member_id, instance_id, error))
                    continue
                self._remove_current_member(group, member_id)
            results.append((member_id, instance_id, ErrorCode.NONE))
            left += 1
        if left:
            if group.state in (GroupState.STABLE, GroupState.COMPLETING_REBALANCE):
                self._maybe_prepare_rebalance_or_complete_join(group)
            elif group.state is GroupState.PREPARING_REBALANCE:
                self._maybe_complete_join_phase(group)
        return ErrorCode.NONE, results

    def _remove_current_member(self, group: ClassicGroup, member_id: str) -> None:
        member = group.members[member_id]
        self._cancel_heartbeat(group, member_id)
        token, member.join_token = member.join_token, None
        self._deliver(token, _join_error(ErrorCode.UNKNOWN_MEMBER_ID))
        sync_token, member.sync_token = member.sync_token, None
        self._deliver(sync_token, _sync_error(ErrorCode.UNKNOWN_MEMBER_ID))
        group.remove(member_id)

    # ================================================================== DescribeGroups / ListGroups

    def describe(self, group_id: str) -> DescribedGroup | None:
        """The group as DescribeGroups shows it, or None when no classic group has this id."""
        group = self.groups.get(group_id)
        if group is None:
            return None
        stable = group.state is GroupState.STABLE
        members = [
            DescribedGroupMember(
                member_id=m.member_id,
                group_instance_id=m.group_instance_id,
                client_id=m.client_id,
                client_host=m.client_host,
                member_metadata=m.metadata(group.protocol_name) if stable else b"",
                member_assignment=m.assignment,
            )
            for m in group.members.values()
        ]
        return DescribedGroup(
            error_code=ErrorCode.NONE,
            group_id=group_id,
            group_state=group.state.value,
            protocol_type=group.protocol_type or "",
            protocol_data=(group.protocol_name or "") if stable else "",
            members=members,
        )

    def list_groups(self) -> list[ListedGroup]:
        return [ListedGroup(g.group_id, g.protocol_type or "", g.state.value) for g in self.groups.values()]

    # ================================================================== offsets support

    def validate_offset_commit(
        self,
        group_id: str,
        member_id: str,
        group_instance_id: str | None,
        generation: int,
        api_version: int,
        *,
        transactional: bool = False,
        now_ms: int,
    ) -> CoordinatorResult[ErrorCode]:
        """May the commit proceed? Creates a simple (member-less) group for a
        commit with generation -1 to an unknown group; a commit by a member
        keeps its session alive. ``transactional``: a TxnOffsetCommit (an unknown
        group with a generation is ILLEGAL_GENERATION whatever the version)."""
        self._at(now_ms)
        return self._result(
            self._validate_offset_commit(
                group_id, member_id, group_instance_id, generation, api_version, transactional=transactional
            )
        )

    def _validate_offset_commit(
        self,
        group_id: str,
        member_id: str,
        group_instance_id: str | None,
        generation: int,
        api_version: int,
        *,
        transactional: bool,
    ) -> ErrorCode:
        group = self.groups.get(group_id)
        if group is None:
            if self._foreign_type(group_id) is not None:
                return ErrorCode.GROUP_ID_NOT_FOUND
            if generation >= 0:
                if api_version >= FIRST_COMMIT_VERSION_GROUP_ID_NOT_FOUND and not transactional:
                    return ErrorCode.GROUP_ID_NOT_FOUND
                return ErrorCode.ILLEGAL_GENERATION
            group = self.groups[group_id] = ClassicGroup(group_id, self._now_ms)
        error = group.validate_offset_commit(member_id, group_instance_id, generation, transactional=transactional)
        if error:
            return error
        if group.state in (GroupState.STABLE, GroupState.PREPARING_REBALANCE):
            member = group.members.get(member_id)
            if member is not None:
                self._reschedule_heartbeat(group, member_id, member.session_timeout_ms)
        return ErrorCode.NONE

    def offsets_visible(self, group_id: str) -> bool:
        """Whether OffsetFetch shows the group's committed offsets."""
        group = self.groups.get(group_id)
        if group is None:
            return self._foreign_type(group_id) is None
        return group.state is not GroupState.DEAD

    def validate_offset_delete(self, group_id: str) -> ErrorCode:
        group = self.groups.get(group_id)
        if group is None or group.state is GroupState.DEAD:
            return ErrorCode.GROUP_ID_NOT_FOUND
        if group.state in (GroupState.STABLE, GroupState.PREPARING_REBALANCE, GroupState.COMPLETING_REBALANCE):
            if not group.uses_consumer_protocol():
                return ErrorCode.NON_EMPTY_GROUP
        return ErrorCode.NONE

    def is_subscribed_to_topic(self, group_id: str, topic: str) -> bool:
        group = self.groups.get(group_id)
        return group is not None and group.is_subscribed_to_topic(topic)

    def offset_expiry_base(self, group_id: str) -> Callable[[CommittedOffset], int] | None:
        """What an offset's retention counts from, or None when the group's
        offsets do not expire now (Kafka's ``offsetExpirationCondition``)."""
        group = self.groups.get(group_id)
        if group is None:
            return lambda value: value.commit_timestamp_ms
        if group.protocol_type is not None:
            if group.state is GroupState.EMPTY:
                since = group.state_timestamp_ms
                return lambda value: value.commit_timestamp_ms if since is None else since
            knows_topics = group.uses_consumer_protocol() and group.subscribed_topics is not None
            if knows_topics and group.state is GroupState.STABLE:
                return lambda value: value.commit_timestamp_ms
            return None
        return lambda value: value.commit_timestamp_ms

    # ================================================================== DeleteGroups

    def validate_delete_group(self, group_id: str) -> ErrorCode:
        group = self.groups.get(group_id)
        if group is None or group.state is GroupState.DEAD:
            return ErrorCode.GROUP_ID_NOT_FOUND
        if group.state is not GroupState.EMPTY:
            return ErrorCode.NON_EMPTY_GROUP
        return ErrorCode.NONE

    def remove_group(self, group_id: str, *, now_ms: int) -> CoordinatorResult[None]:
        """Drop the group (Dead) and write its tombstone. Pending (not yet joined)
        members are forgotten with it."""
        self._at(now_ms)
        self._remove_group(group_id)
        return self._result(None)

    def _remove_group(self, group_id: str) -> None:
        group = self.groups.pop(group_id, None)
        if group is None:
            return
        group.transition_to(GroupState.DEAD, self._now_ms)
        for member in list(group.members.values()):
            self._deliver(member.join_token, _join_error(ErrorCode.COORDINATOR_NOT_AVAILABLE, member.member_id))
            self._deliver(member.sync_token, _sync_error(ErrorCode.COORDINATOR_NOT_AVAILABLE))
            self._cancel_heartbeat(group, member.member_id)
        for member_id in group.pending_join:
            self._cancel_heartbeat(group, member_id)
        for kind in ("join", "sync"):
            self._cancel((kind, group_id))
        self._records.append(group_metadata_record(group_id, None))

    def maybe_remove_empty_group(self, group_id: str, *, now_ms: int) -> CoordinatorResult[bool]:
        """Remove the group if it is Empty (offset expiry calls this once the group's
        offsets are all gone); whether it went."""
        group = self.groups.get(group_id)
        if group is None or group.state is not GroupState.EMPTY:
            return CoordinatorResult([], False)
        return CoordinatorResult(self.remove_group(group_id, now_ms=now_ms).records, True)

    # ================================================================== replay

    def ensure_group(self, group_id: str, now_ms: int) -> None:
        """Replay of an offset commit: a group with offsets exists (a simple group if
        nothing else created it, in state Empty since ``now_ms``)."""
        self._at(now_ms)
        if group_id not in self.groups:
            self.groups[group_id] = ClassicGroup(group_id, self._now_ms)

    def hand_over(self, group_id: str) -> None:
        """The group becomes a consumer group (online upgrade): requests parked in its
        rebalance are told REBALANCE_IN_PROGRESS, so their members join again (as
        classic members of the consumer group), and the group goes."""
        group = self.groups.pop(group_id, None)
        if group is None:
            return
        for member in group.members.values():
            token, member.join_token = member.join_token, None
            self._deliver(token, _join_error(ErrorCode.REBALANCE_IN_PROGRESS, member.member_id))
            token, member.sync_token = member.sync_token, None
            self._deliver(token, _sync_error(ErrorCode.REBALANCE_IN_PROGRESS))
            self._cancel_heartbeat(group, member.member_id)
        for member_id in group.pending_join:
            self._cancel_heartbeat(group, member_id)
        for kind in ("join", "sync"):
            self._cancel((kind, group_id))

    def adopt_group(self, group_id: str, value: GroupMetadataValue, now_ms: int) -> None:
        """A consumer group became this classic group (online downgrade): take its
        members as written in ``value``, start their sessions and rebalance."""
        self.replay_group_metadata(group_id, value, now_ms)
        group = self.groups[group_id]
        for member in group.members.values():
            self._reschedule_heartbeat(group, member.member_id, member.session_timeout_ms)
        if group.members and group.can_rebalance():
            self._prepare_rebalance(group)

    def forget_empty_group(self, group_id: str) -> None:
        """Replay: a group of another type takes this id; an Empty classic group
        holding it (one an offset commit created) is dropped without a record."""
        group = self.groups.get(group_id)
        if group is not None and group.state is GroupState.EMPTY and not group.members:
            del self.groups[group_id]

    def replay_group_metadata(self, group_id: str, value: GroupMetadataValue | None, now_ms: int) -> None:
        """Replay one GroupMetadata record (a tombstone removes the group)."""
        self._at(now_ms)
        if value is None:
            self.groups.pop(group_id, None)
            return
        members = value.members
        group = ClassicGroup(
            group_id,
            self._now_ms,
            state=GroupState.STABLE if members else GroupState.EMPTY,
            generation=value.generation,
            protocol_type=value.protocol_type or None,
            protocol_name=value.protocol,
            leader_id=value.leader,
            state_timestamp_ms=None if value.current_state_timestamp == -1 else value.current_state_timestamp,
        )
        group.protocol_type = value.protocol_type or None
        for mm in members:
            group.members[mm.member_id] = Member(
                mm.member_id,
                mm.group_instance_id,
                mm.client_id,
                mm.client_host,
                mm.session_timeout if mm.rebalance_timeout == -1 else mm.rebalance_timeout,
                mm.session_timeout,
                value.protocol_type,
                [(value.protocol or "", mm.subscription)],
                mm.assignment,
            )
            group.supported_protocols.update([value.protocol or ""])
            if mm.group_instance_id is not None:
                group.static_members[mm.group_instance_id] = mm.member_id
        group.subscribed_topics = group.compute_subscribed_topics()
        self.groups[group_id] = group

    def on_loaded(self, now_ms: int) -> None:
        """After replay: start every loaded member's session; oversized groups rebalance."""
        self._at(now_ms)
        for group in self.groups.values():
            for member in group.members.values():
                self._reschedule_heartbeat(group, member.member_id, member.session_timeout_ms)
            if len(group.members) > self.config.max_size and group.can_rebalance():
                self._prepare_rebalance(group)


@dataclass(slots=True)
class _JoinRequest:
    member_id: str
    group_instance_id: str | None
    protocol_type: str
    protocols: list[tuple[str, bytes]] = field(default_factory=list)
    session_timeout_ms: int = 0
    rebalance_timeout_ms: int = 0
    client_id: str = ""
    client_host: str = ""
    api_version: int = 9
