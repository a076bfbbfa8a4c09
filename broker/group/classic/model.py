"""Classic groups' state: :class:`ClassicGroup` and its :class:`Member`, the group states
and their allowed transitions (:data:`VALID_PREVIOUS`, Kafka's ``ClassicGroupState``),
the settings the core uses (:class:`CoordinatorConfig`) and what it answers with
(:class:`Pending`, :class:`ListedGroup`, the error responses).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from broker.config.services import ClassicGroupSettings
from broker.group.type_config import config_from_settings
from broker.protocol.errors import ErrorCode, ProtocolError
from broker.protocol.messages.consumer_protocol_subscription import ConsumerProtocolSubscription
from broker.protocol.messages.group_metadata_value import GroupMetadataValue, MemberMetadata
from broker.protocol.messages.join_group_response import JoinGroupResponse, JoinGroupResponseMember
from broker.protocol.messages.sync_group_response import SyncGroupResponse

# A record as the core writes it: (key, value) of ``__consumer_offsets``.
Record = tuple[bytes, bytes | None]

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
        return config_from_settings(cls, s, offsets_retention_ms=s.offsets_retention_minutes * 60_000)


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

    def has_satisfied_heartbeat(self) -> bool:
        # A new member can expire while parked in JoinGroup; others awaiting a
        # rebalance answer count as alive.
        if self.is_new:
            return False
        return self.awaiting_join or self.awaiting_sync


def preferred_protocol(protocols: Sequence[Sequence[str]]) -> str | None:
    """The protocol a group of members uses (Kafka's ``ClassicGroup.selectProtocol``):
    of the protocols every member supports, the one most members prefer, each voting for
    the first of them in its list (``protocols``: each member's protocol names, in its
    order of preference); a tie goes to the one voted for first. None when the members
    share no protocol."""
    supported = Counter(name for names in protocols for name in names)
    candidates = {name for name, count in supported.items() if count == len(protocols)}
    votes: Counter[str] = Counter()
    for names in protocols:
        choice = next((name for name in names if name in candidates), None)
        if choice is not None:
            votes[choice] += 1
    return max(votes, key=lambda name: votes[name]) if votes else None


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
        """The protocol every member supports that most members prefer (:func:`preferred_protocol`)."""
        protocol = preferred_protocol([m.protocol_names() for m in self.members.values()])
        if protocol is None:
            raise ValueError("the members support no protocol in common")
        return protocol

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


def join_error(code: int, member_id: str = "") -> JoinGroupResponse:
    return JoinGroupResponse(
        error_code=code, generation_id=-1, protocol_type=None, protocol_name=None, leader="", member_id=member_id
    )


def sync_error(code: int) -> SyncGroupResponse:
    return SyncGroupResponse(error_code=code, protocol_type=None, protocol_name=None, assignment=b"")
