"""KIP-848 consumer groups: the pure core one group shard owns.

:class:`ConsumerGroups` holds every consumer group of one ``__consumer_offsets``
partition. It follows Kafka 4.4's ``GroupMetadataManager`` consumer paths:

* **ConsumerGroupHeartbeat** (v0-1). Epoch 0 joins, -1 leaves, -2 is a static
  member leaving for a restart (it keeps its partitions until its session
  ends or it rejoins under the same instance id), any other epoch must be the
  member's epoch or, when the bump's response was lost, its previous epoch
  with owned partitions inside its assignment; else FENCED_MEMBER_EPOCH.
  A known member joining again at epoch 0 keeps its epoch and assignment and
  gets them in full (Kafka 4.4's answer, checked against it). v1 requires a
  client-generated member id; v0 may leave it empty on join and gets one
  generated. A new group's first epoch is 2, as in Kafka 4.4.
* **Migration** (:mod:`.migration`): a join to a non-empty classic group
  converts it; classic members inside a consumer group are served JoinGroup,
  SyncGroup, Heartbeat and LeaveGroup (``classic_*``); the last
  consumer-protocol member leaving converts the group back.
* Changing the subscription (topic names or regex), joining, leaving or the
  metadata of subscribed topics bumps the **group epoch**. A heartbeat that
  finds the group epoch ahead of the **target assignment epoch** runs the
  group's assignor (the ``ServerAssignor`` most members ask for, else the
  first of ``group.consumer.assignors``) and writes the new target, at most
  once per ``consumer.assignment.interval.ms`` (KIP-1263): within the
  interval the group stays Assigning, members reconcile to the current target,
  and the first heartbeat after it computes one target with every change made
  meanwhile. A new or emptied group's first target is never delayed; 0
  computes at once.
* **Reconciliation** (:mod:`.reconcile`): partitions are revoked first (the
  member stays at its epoch in UNREVOKED_PARTITIONS until it reports them
  gone, within its rebalance timeout or it is fenced), then the member moves
  to the target epoch and gets the partitions nobody else still holds; those
  still held wait (UNRELEASED_PARTITIONS).
* **Static membership**: a join with a known instance id and a new member id
  takes the old member's place (assignment included) only if the old one left
  with epoch -2, else UNRELEASED_INSTANCE_ID; a request whose member id does
  not hold the instance id is FENCED_INSTANCE_ID.
* **Timers**: member session (``group.consumer.session.timeout.ms`` or the
  group's ``consumer.session.timeout.ms``) and the rebalance timeout of a
  member revoking partitions. Expiry fences the member.
* **Offset commits** (:meth:`ConsumerGroups.validate_offset_commit`): the
  member epoch must be the member's; an older one is accepted for the
  partitions the member already held at that epoch (per-partition
  assignment epochs, Kafka 4.4), others get STALE_MEMBER_EPOCH.

State changes only through :meth:`ConsumerGroups.replay`: operations build
the records Kafka would write and return them; the runtime replays them and
appends them. Timers are the only in-memory state an operation sets itself.

Differences from Kafka 4.4, on purpose:

* Regular expressions are resolved when they are first subscribed and on
  :meth:`ConsumerGroups.on_metadata_changed`, synchronously, so the group
  epoch is bumped once (Kafka resolves asynchronously and bumps when the
  result lands). The member's authorisation to DESCRIBE each topic is not
  checked here: the core sees no principal (the handler may filter).
* ``consumer.assignor.offload.enable`` has no effect (nor has it in Kafka
  4.4.0): the assignor runs on the event loop, between requests.
* The metadata hash is a BLAKE2b over the subscribed topics' names, ids,
  partition counts and racks, not Kafka's XXH3 topic hash: a group moved
  between this broker and Kafka rebalances once.
"""

from __future__ import annotations

import hashlib
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from broker.coordinator.result import CoordinatorResult
from broker.coordinator.timer import TimerQueue
from broker.group.consumer import records as rec
from broker.group.consumer.assignor import ASSIGNORS, MemberSpec
from broker.group.consumer.classic_protocol import decode_assignment, decode_subscription, encode_assignment, version_of
from broker.group.consumer.config import ConsumerGroupConfig
from broker.group.consumer.reconcile import MemberAssignment, MemberState, reconcile
from broker.group.consumer.records import MemberValue, Record, RecordType, RegexValue
from broker.group.modern import HeartbeatRefused as _Fail
from broker.group.modern import ModernGroups, TimerTask
from broker.group.regex import compile_error, resolve
from broker.group.shard_api import (
    TopicImage,
    heartbeat_interval_while_batching,
    target_assignment_due,
)
from broker.protocol.errors import ErrorCode, ProtocolError
from broker.protocol.messages import consumer_group_describe_response as describe_msg
from broker.protocol.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from broker.protocol.messages.consumer_group_heartbeat_response import (
    Assignment as WireAssignment,
)
from broker.protocol.messages.consumer_group_heartbeat_response import (
    ConsumerGroupHeartbeatResponse,
)
from broker.protocol.messages.consumer_group_heartbeat_response import (
    TopicPartitions as WireTopicPartitions,
)
from broker.protocol.messages.join_group_response import JoinGroupResponse
from broker.protocol.messages.sync_group_response import SyncGroupResponse

__all__ = [
    "JOIN_EPOCH",
    "LEAVE_EPOCH",
    "STATIC_LEAVE_EPOCH",
    "CommitCheck",
    "ConsumerGroup",
    "ConsumerGroupState",
    "ConsumerGroups",
    "GroupDirectory",
    "Member",
]

JOIN_EPOCH = 0
LEAVE_EPOCH = -1
# Kafka 4.4 gives a new consumer group epoch 2 on its first bump.
FIRST_GROUP_EPOCH = 2
STATIC_LEAVE_EPOCH = -2
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
class ConsumerGroup:
    group_id: str
    epoch: int = 0
    metadata_hash: int = 0
    assignment_epoch: int = -1
    assignment_timestamp_ms: int = -1
    members: dict[str, Member] = field(default_factory=dict)
    target: dict[str, dict[uuid.UUID, frozenset[int]]] = field(default_factory=dict)
    regexes: dict[str, RegexValue] = field(default_factory=dict)
    static: dict[str, str] = field(default_factory=dict)  # instance id -> member id
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
class ClassicMemberSnapshot:
    """One member of a classic group, as an online upgrade takes it over."""

    member_id: str
    instance_id: str | None
    client_id: str
    client_host: str
    rebalance_timeout_ms: int
    session_timeout_ms: int
    protocols: tuple[tuple[str, bytes], ...]
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
class DowngradeMember:
    """A classic member of a consumer group that goes back to a classic group."""

    member_id: str
    instance_id: str | None
    client_id: str
    client_host: str
    rebalance_timeout_ms: int
    session_timeout_ms: int
    protocols: tuple[tuple[str, bytes], ...]
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


def _sorted_wire(assignment: Mapping[uuid.UUID, Iterable[int]]) -> list[tuple[uuid.UUID, list[int]]]:
    return [(t, sorted(ps)) for t, ps in sorted(assignment.items()) if ps]


class ConsumerGroups(ModernGroups[ConsumerGroup, Member]):
    """Every KIP-848 consumer group of one shard."""

    GROUP_TYPE = GROUP_TYPE
    # A classic member inside the group also has a JoinGroup and a SyncGroup deadline.
    MEMBER_TIMERS = ("session", "rebalance", "join", "sync")

    def __init__(
        self,
        topics: TopicImage,
        config: ConsumerGroupConfig | None = None,
        *,
        directory: GroupDirectory | None = None,
        new_member_id: Callable[[], str] = lambda: str(uuid.uuid4()),
        timer: TimerQueue[TimerTask] | None = None,
    ) -> None:
        self.topics = topics
        self.config = config or ConsumerGroupConfig()
        self.directory = directory or GroupDirectory()
        self._new_member_id = new_member_id
        super().__init__(timer)

    # ============================================================ replay

    def _replay_rules(self) -> dict[Any, Callable[[Any], None]]:
        return {
            RecordType.GROUP: self._apply_group,
            RecordType.PARTITION_METADATA: lambda r: None,
            RecordType.MEMBER: self._apply_member,
            RecordType.TARGET_EPOCH: self._apply_target_epoch,
            RecordType.TARGET_MEMBER: self._apply_target_member,
            RecordType.CURRENT: self._apply_current,
            RecordType.REGEX: self._apply_regex,
        }

    def _record_types(self) -> Any:
        return RecordType

    def _new_group(self, group_id: str) -> ConsumerGroup:
        return ConsumerGroup(group_id)

    def _new_member(self, member_id: str) -> Member:
        return Member(member_id)

    def _target_of(self, value: Any) -> Any:
        return dict(value.assignment)

    def _member_removed(self, group: ConsumerGroup, member_id: str, old: Member | None) -> None:
        if old is not None:
            self._unindex(group, old)

    def _apply_group(self, r: Record) -> None:
        if r.value is None:
            self._drop_group(r.group_id)
            return
        assert isinstance(r.value, rec.GroupEpochValue)
        group = self._group_for(r.group_id)
        group.epoch = r.value.epoch
        group.metadata_hash = r.value.metadata_hash

    def _apply_current(self, r: Record) -> None:
        assert r.sub is not None
        if r.value is None:
            group = self.groups.get(r.group_id)
            member = group.members.get(r.sub) if group is not None else None
            if group is not None and member is not None:
                self._unindex(group, member)
                member.assignment = MemberAssignment(LEAVE_EPOCH, LEAVE_EPOCH)
            return
        assert isinstance(r.value, MemberAssignment)
        group = self._group_for(r.group_id)
        member = self._member_for(group, r.sub)
        self._unindex(group, member)
        member.assignment = r.value
        for source in (r.value.assigned, r.value.pending_revocation):
            for t, ps in source.items():
                for p in ps:
                    group.partition_epochs[t, p] = r.value.member_epoch

    def _unindex(self, group: ConsumerGroup, member: Member) -> None:
        a = member.assignment
        for source in (a.assigned, a.pending_revocation):
            for t, ps in source.items():
                for p in ps:
                    if group.partition_epochs.get((t, p)) == a.member_epoch:
                        del group.partition_epochs[t, p]

    def _apply_regex(self, r: Record) -> None:
        assert r.sub is not None
        if r.value is None:
            group = self.groups.get(r.group_id)
            if group is not None:
                group.regexes.pop(r.sub, None)
            return
        assert isinstance(r.value, RegexValue)
        self._group_for(r.group_id).regexes[r.sub] = r.value

    def snapshot(self) -> list[Record]:
        """Records that rebuild the current state from nothing."""
        out: list[Record] = []
        for group in sorted(self.groups.values(), key=lambda g: g.group_id):
            gid = group.group_id
            out.append(rec.group_epoch(gid, group.epoch, group.metadata_hash))
            for pattern, value in sorted(group.regexes.items()):
                out.append(rec.regex(gid, pattern, value))
            for member_id in sorted(group.members):
                out.append(rec.member(gid, member_id, group.members[member_id].meta))
            for member_id in sorted(group.target):
                out.append(rec.target_member(gid, member_id, group.target[member_id]))
            if group.assignment_epoch >= 0:
                out.append(rec.target_epoch(gid, group.assignment_epoch, group.assignment_timestamp_ms))
            for member_id in sorted(group.members):
                out.append(rec.current(gid, member_id, group.members[member_id].assignment))
        return out

    # ============================================================ timers

    def _session_timeout(self, group_id: str, meta: MemberValue | None) -> int:
        if meta is not None and meta.classic is not None:
            return meta.classic.session_timeout_ms
        return self.config.session_timeout_for(group_id)

    def _is_revoking(self, member: Member) -> bool:
        return member.assignment.state is MemberState.UNREVOKED_PARTITIONS

    # ============================================================ heartbeat

    def heartbeat(
        self,
        request: ConsumerGroupHeartbeatRequest,
        *,
        now_ms: int,
        api_version: int = 1,
        client_id: str = "",
        client_host: str = "",
    ) -> CoordinatorResult[ConsumerGroupHeartbeatResponse]:
        try:
            self._validate(request, api_version)
            if request.member_epoch in (LEAVE_EPOCH, STATIC_LEAVE_EPOCH):
                return self._leave(request, now_ms)
            return self._heartbeat(request, now_ms, api_version, client_id, client_host)
        except _Fail as fail:
            return CoordinatorResult(
                [],
                ConsumerGroupHeartbeatResponse(
                    error_code=int(fail.code), error_message=fail.message or fail.code.message
                ),
            )

    def _validate(self, r: ConsumerGroupHeartbeatRequest, api_version: int) -> None:
        def blank(value: str | None) -> bool:
            return value is not None and not value.strip()

        invalid = ErrorCode.INVALID_REQUEST
        if not r.group_id or not r.group_id.strip():
            raise _Fail(invalid, "GroupId can't be empty.")
        if blank(r.instance_id):
            raise _Fail(invalid, "InstanceId can't be empty.")
        if blank(r.rack_id):
            raise _Fail(invalid, "RackId can't be empty.")
        if api_version >= CLIENT_MEMBER_ID_VERSION and not r.member_id.strip():
            raise _Fail(invalid, "MemberId can't be empty.")
        epoch = r.member_epoch
        if epoch > 0 or epoch == LEAVE_EPOCH:
            if not r.member_id.strip():
                raise _Fail(invalid, "MemberId can't be empty.")
        elif epoch == JOIN_EPOCH:
            if r.rebalance_timeout_ms == -1:
                raise _Fail(invalid, "RebalanceTimeoutMs must be provided in first request.")
            if r.topic_partitions is None or r.topic_partitions:
                raise _Fail(invalid, "TopicPartitions must be empty when (re-)joining.")
            if not r.subscribed_topic_names and not r.subscribed_topic_regex:
                raise _Fail(
                    invalid, "Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining."
                )
        elif epoch == STATIC_LEAVE_EPOCH:
            if r.instance_id is None:
                raise _Fail(invalid, "InstanceId can't be null.")
        else:
            raise _Fail(invalid, "MemberEpoch is invalid.")
        if r.server_assignor is not None and r.server_assignor not in self.config.assignors:
            raise _Fail(
                ErrorCode.UNSUPPORTED_ASSIGNOR,
                f"ServerAssignor {r.server_assignor} is not supported. "
                f"Supported assignors: {', '.join(self.config.assignors)}.",
            )

    def _group_or_fail(self, group_id: str) -> ConsumerGroup:
        group = self.groups.get(group_id)
        if group is not None:
            return group
        if self.directory.group_type(group_id) is not None:
            raise _Fail(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a consumer group.")
        raise _Fail(ErrorCode.GROUP_ID_NOT_FOUND, f"Consumer group {group_id} not found.")

    def _heartbeat(
        self,
        r: ConsumerGroupHeartbeatRequest,
        now_ms: int,
        api_version: int,
        client_id: str,
        client_host: str,
        classic: ClassicJoin | None = None,
    ) -> CoordinatorResult[ConsumerGroupHeartbeatResponse]:
        records: list[Record] = []
        joining = r.member_epoch == JOIN_EPOCH
        group = self._admit(r, joining, now_ms, records)
        member_id = r.member_id
        if not member_id:
            member_id = self._new_member_id()
        if r.instance_id is None:
            member = self._dynamic_member(group, member_id, r, classic)
        else:
            member = self._static_member(group, member_id, r, records, classic)

        replaced = member.replaced if isinstance(member, _Replacement) else None
        # 1. The member's metadata.
        old_meta = member.meta
        meta = self._member_metadata(r, old_meta, client_id, client_host, classic)
        is_new = member_id not in group.members and replaced is None
        if is_new or meta != old_meta:
            records.append(rec.member(group.group_id, member_id, meta))
        names_changed = is_new or meta.subscribed_topic_names != old_meta.subscribed_topic_names
        regex_changed, regexes = self._update_regex(group, member_id, old_meta, meta, now_ms, records, is_new)
        subscription_changed = names_changed or regex_changed

        # 2. The group epoch, bumped when the subscriptions or their topics changed.
        members_after = {m: g.meta for m, g in group.members.items() if m != replaced}
        members_after[member_id] = meta
        previous_target = dict(group.target)
        released: Mapping[uuid.UUID, Mapping[int, int]] = {}
        if replaced is not None:
            previous_target[member_id] = previous_target.pop(replaced, {})
            released = group.members[replaced].assignment.assigned
        group_epoch = self._bump_group_epoch(group, members_after, regexes, subscription_changed, records)

        # 3. The target assignment, computed at most once per assignment interval (KIP-1263).
        target_epoch = group.assignment_epoch
        assignment_interval = self.config.assignment_interval_for(group.group_id)
        last_assignment_ms = group.assignment_timestamp_ms
        if group_epoch > group.assignment_epoch and target_assignment_due(
            last_assignment_ms, assignment_interval, now_ms
        ):
            target = self._new_target(group, members_after, previous_target, regexes, records, group_epoch, now_ms)
            target_epoch = group_epoch
        else:
            target = previous_target

        # 4. Reconcile the member towards its target.
        current = member.assignment
        updated = self._reconcile_member(
            group,
            member,
            member_id,
            meta,
            r,
            classic,
            released,
            subscription_changed,
            regexes,
            target_epoch,
            target,
            is_new,
            now_ms,
            records,
        )

        heartbeat_interval = heartbeat_interval_while_batching(
            self.config.heartbeat_interval_for(group.group_id),
            now_ms if target_epoch > group.assignment_epoch else last_assignment_ms,
            assignment_interval,
            now_ms,
            waiting_for_release=updated.state is MemberState.UNRELEASED_PARTITIONS,
        )
        response = ConsumerGroupHeartbeatResponse(
            error_code=0,
            member_id=member_id,
            member_epoch=updated.member_epoch,
            heartbeat_interval_ms=heartbeat_interval,
        )
        full = (
            r.rebalance_timeout_ms != -1
            and (r.subscribed_topic_names is not None or r.subscribed_topic_regex is not None)
            and r.topic_partitions is not None
        )
        if joining or full or updated.assigned_sets() != current.assigned_sets():
            response.assignment = WireAssignment(
                [WireTopicPartitions(t, ps) for t, ps in _sorted_wire(updated.assigned_sets())]
            )
        return CoordinatorResult(records, response)

    def _admit(
        self, r: ConsumerGroupHeartbeatRequest, joining: bool, now_ms: int, records: list[Record]
    ) -> ConsumerGroup:
        """The member's group: an existing consumer group, a new one for a join (taking the
        place of an empty classic group, or upgrading a classic group with members);
        GROUP_ID_NOT_FOUND and GROUP_MAX_SIZE_REACHED as Kafka answers them."""
        group = self.groups.get(r.group_id)
        if group is None:
            if not joining:
                self._group_or_fail(r.group_id)
            other = self.directory.group_type(r.group_id)
            if other is not None:
                if other == "classic" and self.directory.is_empty_classic(r.group_id):
                    records.extend(self.directory.classic_tombstones(r.group_id))  # type: ignore[arg-type]
                    group = ConsumerGroup(r.group_id)
                elif other == "classic":
                    group = self._upgrade(r.group_id, now_ms, records)
                else:
                    raise _Fail(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {r.group_id} is not a consumer group.")
            else:
                group = ConsumerGroup(r.group_id)
        member_id = r.member_id
        known = member_id in group.members or (r.instance_id is not None and r.instance_id in group.static)
        if len(group.members) >= self.config.max_size and (not member_id or not known):
            raise _Fail(
                ErrorCode.GROUP_MAX_SIZE_REACHED,
                f"The consumer group has reached its maximum capacity of {self.config.max_size} members.",
            )
        return group

    @staticmethod
    def _member_metadata(
        r: ConsumerGroupHeartbeatRequest,
        old_meta: MemberValue,
        client_id: str,
        client_host: str,
        classic: ClassicJoin | None,
    ) -> MemberValue:
        """The member's metadata after the request: null fields leave it unchanged."""
        return replace(
            old_meta,
            instance_id=r.instance_id if r.instance_id is not None else old_meta.instance_id,
            rack_id=r.rack_id if r.rack_id is not None else old_meta.rack_id,
            rebalance_timeout_ms=r.rebalance_timeout_ms
            if r.rebalance_timeout_ms != -1
            else old_meta.rebalance_timeout_ms,
            server_assignor=r.server_assignor if r.server_assignor is not None else old_meta.server_assignor,
            subscribed_topic_names=(
                tuple(sorted(set(r.subscribed_topic_names)))
                if r.subscribed_topic_names is not None
                else old_meta.subscribed_topic_names
            ),
            subscribed_topic_regex=(
                (r.subscribed_topic_regex or None)
                if r.subscribed_topic_regex is not None
                else old_meta.subscribed_topic_regex
            ),
            client_id=client_id,
            client_host=client_host,
            classic=None if classic is None else classic.metadata,
        )

    def _bump_group_epoch(
        self,
        group: ConsumerGroup,
        members_after: Mapping[str, MemberValue],
        regexes: Mapping[str, RegexValue],
        subscription_changed: bool,
        records: list[Record],
    ) -> int:
        """The group epoch after the request: one more (with the group's record) when a
        subscription or the metadata of the subscribed topics changed."""
        metadata_hash = self._metadata_hash(members_after.values(), regexes)
        group_epoch = group.epoch
        if group_epoch == 0 or subscription_changed or metadata_hash != group.metadata_hash:
            # A new group's first epoch is 2, as Kafka 4.4 numbers them.
            group_epoch = FIRST_GROUP_EPOCH if group_epoch == 0 else group_epoch + 1
            records.append(rec.group_epoch(group.group_id, group_epoch, metadata_hash))
        return group_epoch

    def _reconcile_member(
        self,
        group: ConsumerGroup,
        member: Member,
        member_id: str,
        meta: MemberValue,
        r: ConsumerGroupHeartbeatRequest,
        classic: ClassicJoin | None,
        released: Mapping[uuid.UUID, Mapping[int, int]],
        subscription_changed: bool,
        regexes: Mapping[str, RegexValue],
        target_epoch: int,
        target: Mapping[str, dict[uuid.UUID, frozenset[int]]],
        is_new: bool,
        now_ms: int,
        records: list[Record],
    ) -> MemberAssignment:
        """The member's assignment one step towards its target (its record when it
        changed), and its rebalance and session timers."""

        def partition_epoch(topic_id: uuid.UUID, partition: int) -> int:
            if partition in released.get(topic_id, {}):
                return -1  # held by the static member this one replaces
            return group.partition_epoch(topic_id, partition)

        if classic is not None:
            owned: list[tuple[uuid.UUID, list[int]]] | None = [(t, list(ps)) for t, ps in classic.owned.items()]
        else:
            owned = (
                None
                if r.topic_partitions is None
                else [(tp.topic_id, list(tp.partitions)) for tp in r.topic_partitions]
            )
        current = member.assignment
        reconciled = reconcile(
            current,
            target_epoch=target_epoch,
            target=target.get(member_id, {}),
            subscribed=self._subscribed_ids(meta, regexes),
            subscription_changed=subscription_changed,
            owned=owned,
            partition_epoch=partition_epoch,
        )
        if reconciled.error:
            raise _Fail(
                reconciled.error,
                "The consumer group member is in a unknown state. The member must abandon all its partitions and rejoin.",
            )
        updated = reconciled.assignment
        if updated != current or is_new:
            records.append(rec.current(group.group_id, member_id, updated))
            if updated.state is MemberState.UNREVOKED_PARTITIONS:
                timeout = max(meta.rebalance_timeout_ms, 0)
                self._arm_rebalance(group.group_id, member_id, updated.member_epoch, now_ms + timeout)
            else:
                self._disarm_rebalance(group.group_id, member_id)
        self._arm_session(group.group_id, member_id, now_ms, meta)
        return updated

    def _check_epoch(self, member: Member, received: int, owned: Sequence | None) -> None:
        current = member.epoch
        if received > current:
            raise _Fail(
                ErrorCode.FENCED_MEMBER_EPOCH,
                f"The consumer group member has a greater member epoch ({received}) than the one known by the "
                f"group coordinator ({current}). The member must abandon all its partitions and rejoin.",
            )
        if received < current:
            assigned = member.assignment.assigned
            subset = owned is not None and all(
                p in assigned.get(tp.topic_id, {}) for tp in owned for p in tp.partitions
            )
            if received != member.assignment.previous_member_epoch or not subset:
                raise _Fail(
                    ErrorCode.FENCED_MEMBER_EPOCH,
                    f"The consumer group member has a smaller member epoch ({received}) than the one known by the "
                    f"group coordinator ({current}). The member must abandon all its partitions and rejoin.",
                )

    def _dynamic_member(
        self, group: ConsumerGroup, member_id: str, r: ConsumerGroupHeartbeatRequest, classic: ClassicJoin | None
    ) -> Member:
        member = group.members.get(member_id)
        if member is not None and classic is not None:
            return member  # a JoinGroup carries no member epoch to check
        if member is None:
            if r.member_epoch != JOIN_EPOCH:
                raise _Fail(
                    ErrorCode.UNKNOWN_MEMBER_ID, f"Member {member_id} is not a member of group {group.group_id}."
                )
            return Member(member_id)
        if r.member_epoch != JOIN_EPOCH:
            # A known member joining again (epoch 0) keeps its epoch and assignment and
            # gets them in full, as Kafka 4.4 answers; any other epoch must match.
            self._check_epoch(member, r.member_epoch, r.topic_partitions)
        return member

    def _static_member(
        self,
        group: ConsumerGroup,
        member_id: str,
        r: ConsumerGroupHeartbeatRequest,
        records: list[Record],
        classic: ClassicJoin | None = None,
    ) -> Member:
        assert r.instance_id is not None
        holder_id = group.static.get(r.instance_id)
        holder = group.members.get(holder_id) if holder_id is not None else None
        if classic is not None and holder is not None:
            if holder.member_id == member_id:
                return holder
            if not classic.unknown_member:
                raise _Fail(
                    ErrorCode.FENCED_INSTANCE_ID,
                    f"Static member {member_id} with instance id {r.instance_id} was fenced by member {holder.member_id}.",
                )
            return self._replace_static(group, holder, member_id, records)
        if r.member_epoch == JOIN_EPOCH:
            if holder is None:
                existing = group.members.get(member_id)
                if existing is not None:
                    self._check_epoch(existing, r.member_epoch, r.topic_partitions)
                    return existing
                return Member(member_id)
            if holder.epoch != STATIC_LEAVE_EPOCH:
                raise _Fail(
                    ErrorCode.UNRELEASED_INSTANCE_ID,
                    f"Static member {member_id} with instance id {r.instance_id} cannot join the group "
                    f"because the instance id is owned by {holder.member_id} member.",
                )
            return self._replace_static(group, holder, member_id, records)
        if holder is None:
            raise _Fail(ErrorCode.UNKNOWN_MEMBER_ID, f"Instance id {r.instance_id} is unknown.")
        if holder.member_id != member_id:
            raise _Fail(
                ErrorCode.FENCED_INSTANCE_ID,
                f"Static member {member_id} with instance id {r.instance_id} was fenced by member {holder.member_id}.",
            )
        self._check_epoch(holder, r.member_epoch, r.topic_partitions)
        return holder

    def _replace_static(self, group: ConsumerGroup, holder: Member, member_id: str, records: list[Record]) -> Member:
        """Take a static member's place, its target assignment included."""
        gid = group.group_id
        fresh = MemberAssignment(0, 0, MemberState.STABLE)
        records.extend(
            [
                rec.current(gid, holder.member_id, None),
                rec.target_member(gid, holder.member_id, None),
                rec.member(gid, holder.member_id, None),
                rec.member(gid, member_id, holder.meta),
                rec.target_member(gid, member_id, group.target.get(holder.member_id, {})),
                rec.current(gid, member_id, fresh),
            ]
        )
        self._cancel_member_timers(gid, holder.member_id)
        return _Replacement(member_id, holder.meta, fresh, holder.member_id)

    # ------------------------------------------------------------ regexes and topics

    def _update_regex(
        self,
        group: ConsumerGroup,
        member_id: str,
        old: MemberValue,
        new: MemberValue,
        now_ms: int,
        records: list[Record],
        is_new: bool,
    ) -> tuple[bool, dict[str, RegexValue]]:
        """Resolve a newly subscribed regex, drop one nobody uses; returns
        (regex subscription changed, the regexes as they will be)."""
        regexes = dict(group.regexes)
        old_rx = None if is_new else old.subscribed_topic_regex
        new_rx = new.subscribed_topic_regex
        if old_rx == new_rx:
            return False, regexes
        if old_rx and group.regex_subscribers(old_rx, without=member_id) == 0:
            regexes.pop(old_rx, None)
            records.append(rec.regex(group.group_id, old_rx, None))
        if new_rx and new_rx not in regexes:
            error = compile_error(new_rx)
            if error is not None:
                raise _Fail(
                    ErrorCode.INVALID_REGULAR_EXPRESSION,
                    f"SubscribedTopicRegex `{new_rx}` is not a valid regular expression: {error}.",
                )
            value = RegexValue(resolve(new_rx, self.topics.topic_names()), 0, now_ms)
            regexes[new_rx] = value
            records.append(rec.regex(group.group_id, new_rx, value))
        return True, regexes

    def _subscribed_names(self, meta: MemberValue, regexes: Mapping[str, RegexValue]) -> set[str]:
        names = set(meta.subscribed_topic_names)
        if meta.subscribed_topic_regex:
            resolved = regexes.get(meta.subscribed_topic_regex)
            if resolved is not None:
                names.update(resolved.topics)
        return names

    def _subscribed_ids(self, meta: MemberValue, regexes: Mapping[str, RegexValue]) -> frozenset[uuid.UUID]:
        ids = set()
        for name in self._subscribed_names(meta, regexes):
            info = self.topics.topic(name)
            if info is not None:
                ids.add(info.topic_id)
        return frozenset(ids)

    def _metadata_hash(self, metas: Iterable[MemberValue], regexes: Mapping[str, RegexValue]) -> int:
        names: set[str] = set()
        for meta in metas:
            names |= self._subscribed_names(meta, regexes)
        digest = hashlib.blake2b(digest_size=8)
        found = False
        for name in sorted(names):
            info = self.topics.topic(name)
            if info is None:
                continue
            found = True
            encoded = name.encode()
            digest.update(len(encoded).to_bytes(4, "big") + encoded + info.topic_id.bytes)
            digest.update(info.partitions.to_bytes(4, "big"))
            for racks in info.racks:
                digest.update(b"|" + ",".join(sorted(racks)).encode())
        return int.from_bytes(digest.digest(), "big", signed=True) if found else 0

    def _preferred_assignor(self, metas: Iterable[MemberValue]) -> str:
        votes = Counter(m.server_assignor for m in metas if m.server_assignor in self.config.assignors)
        if not votes:
            return self.config.default_assignor
        best = max(votes.values())
        return min(name for name, count in votes.items() if count == best and name is not None)

    def _new_target(
        self,
        group: ConsumerGroup,
        members: Mapping[str, MemberValue],
        previous: Mapping[str, Mapping[uuid.UUID, frozenset[int]]],
        regexes: Mapping[str, RegexValue],
        records: list[Record],
        epoch: int,
        now_ms: int,
    ) -> dict[str, dict[uuid.UUID, frozenset[int]]]:
        specs: dict[str, MemberSpec] = {}
        partitions: dict[uuid.UUID, int] = {}
        for member_id, meta in members.items():
            subscribed = self._subscribed_ids(meta, regexes)
            specs[member_id] = MemberSpec(subscribed, previous.get(member_id, {}), meta.rack_id, meta.instance_id)
            for topic_id in subscribed:
                info = self.topics.topic_by_id(topic_id)
                if info is not None:
                    partitions[topic_id] = info.partitions
        assignor = ASSIGNORS[self._preferred_assignor(members.values())]
        computed = assignor(specs, partitions) if specs else {}
        target = {m: {t: ps for t, ps in a.items() if ps} for m, a in computed.items()}
        for member_id, assignment in sorted(target.items()):
            if previous.get(member_id) != assignment:
                records.append(rec.target_member(group.group_id, member_id, assignment))
        records.append(rec.target_epoch(group.group_id, epoch, now_ms))
        return target

    # ------------------------------------------------------------ leaving and fencing

    def _leave(
        self, r: ConsumerGroupHeartbeatRequest, now_ms: int
    ) -> CoordinatorResult[ConsumerGroupHeartbeatResponse]:
        group = self._group_or_fail(r.group_id)
        if r.instance_id is None:
            member = group.members.get(r.member_id)
            if member is None:
                raise _Fail(
                    ErrorCode.UNKNOWN_MEMBER_ID, f"Member {r.member_id} is not a member of group {group.group_id}."
                )
        else:
            holder_id = group.static.get(r.instance_id)
            member = group.members.get(holder_id) if holder_id is not None else None
            if member is None:
                raise _Fail(ErrorCode.UNKNOWN_MEMBER_ID, f"Instance id {r.instance_id} is unknown.")
            if member.member_id != r.member_id:
                raise _Fail(
                    ErrorCode.FENCED_INSTANCE_ID,
                    f"Static member {r.member_id} with instance id {r.instance_id} was fenced by member {member.member_id}.",
                )
            if r.member_epoch == STATIC_LEAVE_EPOCH:
                leaving = replace(member.assignment, member_epoch=STATIC_LEAVE_EPOCH, pending_revocation={})
                self._disarm_rebalance(group.group_id, member.member_id)
                return CoordinatorResult(
                    [rec.current(group.group_id, member.member_id, leaving)],
                    ConsumerGroupHeartbeatResponse(member_id=member.member_id, member_epoch=STATIC_LEAVE_EPOCH),
                )
        records = self._fence(group, member, now_ms)
        return CoordinatorResult(
            records, ConsumerGroupHeartbeatResponse(member_id=r.member_id, member_epoch=r.member_epoch)
        )

    def _fence(self, group: ConsumerGroup, member: Member, now_ms: int) -> list[Record]:
        """Remove the member and bump the group epoch (leave, session expiry, rebalance timeout)."""
        gid, mid = group.group_id, member.member_id
        records = [rec.current(gid, mid, None), rec.target_member(gid, mid, None), rec.member(gid, mid, None)]
        rx = member.meta.subscribed_topic_regex
        regexes = dict(group.regexes)
        if rx and group.regex_subscribers(rx, without=mid) == 0:
            regexes.pop(rx, None)
            records.append(rec.regex(gid, rx, None))
        remaining = [m.meta for m_id, m in group.members.items() if m_id != mid]
        if self._can_downgrade(group, mid):
            self._cancel_member_timers(gid, mid)
            return self._downgrade(group, mid)
        records.append(rec.group_epoch(gid, group.epoch + 1, self._metadata_hash(remaining, regexes)))
        if not remaining:
            # Nobody left to assign to: the (empty) target is current at once, and with
            # no time recorded the next member's target is not delayed (as Kafka).
            records.append(rec.target_epoch(gid, group.epoch + 1, 0))
        self._cancel_member_timers(gid, mid)
        return records

    # ============================================================ metadata

    def on_metadata_changed(self, image: TopicImage, now_ms: int) -> CoordinatorResult[None]:
        """New topic metadata: re-resolve regexes and bump groups whose subscribed topics changed."""
        self.topics = image
        result: CoordinatorResult[None] = CoordinatorResult()
        for group in list(self.groups.values()):
            regexes = dict(group.regexes)
            for pattern, old in group.regexes.items():
                topics = resolve(pattern, image.topic_names())
                if topics != old.topics:
                    regexes[pattern] = RegexValue(topics, old.version + 1, now_ms)
                    result.records.append(rec.regex(group.group_id, pattern, regexes[pattern]))
            metadata_hash = self._metadata_hash((m.meta for m in group.members.values()), regexes)
            if group.members and metadata_hash != group.metadata_hash:
                result.records.append(rec.group_epoch(group.group_id, group.epoch + 1, metadata_hash))
        return result

    # ============================================================ describe, list, delete

    def describe(self, group_ids: Iterable[str]) -> list[describe_msg.DescribedGroup]:
        out = []
        for group_id in group_ids:
            group = self.groups.get(group_id)
            if group is None:
                other = self.directory.group_type(group_id)
                message = f"Group {group_id} is not a consumer group." if other else f"Group {group_id} not found."
                out.append(
                    describe_msg.DescribedGroup(
                        error_code=int(ErrorCode.GROUP_ID_NOT_FOUND), error_message=message, group_id=group_id
                    )
                )
                continue
            out.append(
                describe_msg.DescribedGroup(
                    group_id=group_id,
                    group_state=group.state,
                    group_epoch=group.epoch,
                    assignment_epoch=group.assignment_epoch,
                    assignor_name=self._preferred_assignor(m.meta for m in group.members.values()),
                    members=[self._describe_member(group, m) for _, m in sorted(group.members.items())],
                )
            )
        return out

    def _describe_assignment(self, assignment: Mapping[uuid.UUID, Iterable[int]]) -> describe_msg.Assignment:
        parts = []
        for topic_id, partitions in _sorted_wire(assignment):
            info = self.topics.topic_by_id(topic_id)
            if info is not None:
                parts.append(describe_msg.TopicPartitions(topic_id, info.name, partitions))
        return describe_msg.Assignment(parts)

    def _describe_member(self, group: ConsumerGroup, member: Member) -> describe_msg.Member:
        meta = member.meta
        return describe_msg.Member(
            member_id=member.member_id,
            instance_id=meta.instance_id,
            rack_id=meta.rack_id,
            member_epoch=member.epoch,
            client_id=meta.client_id,
            client_host=meta.client_host,
            subscribed_topic_names=list(meta.subscribed_topic_names),
            subscribed_topic_regex=meta.subscribed_topic_regex,
            assignment=self._describe_assignment(member.assignment.assigned),
            target_assignment=self._describe_assignment(group.target.get(member.member_id, {})),
            member_type=0 if meta.classic is not None else 1,
        )

    def delete_group(self, group_id: str) -> CoordinatorResult[ErrorCode]:
        """DeleteGroups: only an Empty group may go (its offsets are the caller's)."""
        group = self.groups.get(group_id)
        if group is None:
            return CoordinatorResult([], ErrorCode.GROUP_ID_NOT_FOUND)
        if group.members:
            return CoordinatorResult([], ErrorCode.NON_EMPTY_GROUP)
        records = [rec.target_member(group_id, m, None) for m in sorted(group.target)]
        records += [rec.regex(group_id, p, None) for p in sorted(group.regexes)]
        records += [rec.target_epoch(group_id, None), Record(RecordType.GROUP, group_id, None, None)]
        return CoordinatorResult(records, ErrorCode.NONE)

    # ============================================================ offsets

    def validate_offset_commit(
        self,
        group_id: str,
        member_id: str,
        instance_id: str | None,
        member_epoch: int,
        *,
        transactional: bool = False,
        api_version: int = 9,
    ) -> CommitCheck:
        group = self.groups.get(group_id)
        if group is None:
            return CommitCheck(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} not found.")
        if member_epoch < 0 and not group.members:
            return CommitCheck()
        if transactional and member_epoch == -1 and member_id == "" and instance_id is None:
            return CommitCheck()
        member = group.members.get(member_id)
        if member is None:
            return CommitCheck(ErrorCode.UNKNOWN_MEMBER_ID, f"Member {member_id} is not a member of group {group_id}.")
        if member.uses_classic_protocol:
            if member_epoch != member.epoch:
                return CommitCheck(ErrorCode.ILLEGAL_GENERATION)
            return CommitCheck()
        if not transactional and api_version < COMMIT_VERSION_FOR_CONSUMER_PROTOCOL:
            return CommitCheck(
                ErrorCode.UNSUPPORTED_VERSION,
                "OffsetCommit version 9 or above must be used by members using the consumer group protocol",
            )
        if member_epoch == member.epoch:
            return CommitCheck()
        if member_epoch > member.epoch:
            return CommitCheck(
                ErrorCode.STALE_MEMBER_EPOCH,
                f"Received member epoch {member_epoch} is newer than current member epoch {member.epoch}.",
            )
        return CommitCheck(held_since=member.assignment.assigned, received_epoch=member_epoch)

    def validate_offset_fetch(self, group_id: str, member_id: str | None, member_epoch: int) -> ErrorCode:
        group = self.groups.get(group_id)
        if group is None or (member_id is None and member_epoch < 0):
            return ErrorCode.NONE
        member = group.members.get(member_id or "")
        if member is None:
            return ErrorCode.UNKNOWN_MEMBER_ID
        if member.uses_classic_protocol:
            return ErrorCode.NONE if member_epoch in (-1, member.epoch) else ErrorCode.ILLEGAL_GENERATION
        return ErrorCode.NONE if member_epoch == member.epoch else ErrorCode.STALE_MEMBER_EPOCH

    def offset_expiry_base(self, group_id: str) -> Callable[[Any], int] | None:
        """Offsets of a consumer group expire ``offsets.retention`` after their commit
        (those of subscribed topics never do; the caller checks that), as in Kafka."""
        return lambda value: value.commit_timestamp_ms

    def is_subscribed_to_topic(self, group_id: str, topic: str) -> bool:
        group = self.groups.get(group_id)
        if group is None:
            return False
        return any(topic in self._subscribed_names(m.meta, group.regexes) for m in group.members.values())

    # ============================================================ online migration (classic <-> consumer)

    def _upgrade(self, group_id: str, now_ms: int, records: list[Record]) -> ConsumerGroup:
        """A consumer-protocol member joins a non-empty classic group: convert it (Kafka's
        ConsumerGroup.fromClassicGroup) when the policy allows and the group speaks the
        consumer protocol; its members stay classic members at the group's generation."""
        snapshot = self.directory.classic_snapshot(group_id)
        refused = f"Group {group_id} is not a consumer group."
        if (
            snapshot is None
            or not self.config.migration_policy.upgrade_enabled
            or snapshot.protocol_type != CONSUMER_PROTOCOL_TYPE
            or len(snapshot.members) > self.config.max_size
        ):
            raise _Fail(ErrorCode.GROUP_ID_NOT_FOUND, refused)
        generation = snapshot.generation
        converted: list[Record] = []
        metas: list[MemberValue] = []
        for m in snapshot.members:
            data = dict(m.protocols).get(snapshot.protocol_name or "", m.protocols[0][1] if m.protocols else b"")
            try:
                sub = decode_subscription(data)
                assigned = decode_assignment(m.assignment)
            except ProtocolError:
                raise _Fail(
                    ErrorCode.GROUP_ID_NOT_FOUND,
                    f"Cannot upgrade the classic group {group_id} to consumer group because the embedded consumer "
                    "protocol is malformed.",
                ) from None
            ids = self._topic_ids(assigned)
            meta = MemberValue(
                instance_id=m.instance_id,
                rack_id=sub.rack_id,
                client_id=m.client_id,
                client_host=m.client_host,
                subscribed_topic_names=sub.topics,
                rebalance_timeout_ms=m.rebalance_timeout_ms,
                classic=rec.ClassicMemberMetadata(m.session_timeout_ms, m.protocols),
            )
            metas.append(meta)
            converted.append(rec.member(group_id, m.member_id, meta))
            converted.append(rec.target_member(group_id, m.member_id, {t: frozenset(ps) for t, ps in ids.items()}))
            epochs = {t: dict.fromkeys(ps, generation) for t, ps in ids.items()}
            converted.append(
                rec.current(group_id, m.member_id, MemberAssignment(generation, generation, MemberState.STABLE, epochs))
            )
        members = [r for r in converted if r.type is RecordType.MEMBER]
        targets = [r for r in converted if r.type is RecordType.TARGET_MEMBER]
        currents = [r for r in converted if r.type is RecordType.CURRENT]
        ordered = [
            *members,
            rec.group_epoch(group_id, generation, self._metadata_hash(metas, {})),
            *targets,
            # The classic assignment is taken over with no time: the next target is due at once.
            rec.target_epoch(group_id, generation, 0),
            *currents,
        ]
        records.extend(self.directory.classic_tombstones(group_id))  # type: ignore[arg-type]
        records.extend(ordered)
        scratch = ConsumerGroups(self.topics, self.config)
        for r in ordered:
            scratch.replay_record(r)
        for m in snapshot.members:
            self._arm(("session", group_id, m.member_id), now_ms + m.session_timeout_ms)
        return scratch.groups[group_id]

    def _topic_ids(self, by_name: Mapping[str, Iterable[int]]) -> dict[uuid.UUID, tuple[int, ...]]:
        out: dict[uuid.UUID, tuple[int, ...]] = {}
        for name, ps in by_name.items():
            info = self.topics.topic(name)
            if info is not None:
                out[info.topic_id] = tuple(sorted(p for p in ps if 0 <= p < info.partitions))
        return out

    def _topic_names(self, by_id: Mapping[uuid.UUID, Iterable[int]]) -> dict[str, tuple[int, ...]]:
        out: dict[str, tuple[int, ...]] = {}
        for topic_id, ps in by_id.items():
            info = self.topics.topic_by_id(topic_id)
            if info is not None and ps:
                out[info.name] = tuple(sorted(ps))
        return out

    def _can_downgrade(self, group: ConsumerGroup, leaving: str) -> bool:
        """Kafka's validateOnlineDowngradeWithFencedMember: the last consumer-protocol
        member leaves and classic members remain."""
        member = group.members.get(leaving)
        if member is None or member.uses_classic_protocol:
            return False
        rest = [m for m_id, m in group.members.items() if m_id != leaving]
        return (
            bool(rest)
            and all(m.uses_classic_protocol for m in rest)
            and self.config.migration_policy.downgrade_enabled
            and len(rest) <= self.directory.classic_max_size()
        )

    def _tombstones(self, group: ConsumerGroup) -> list[Record]:
        """Every record of the group, deleted (Kafka's createGroupTombstoneRecords)."""
        gid = group.group_id
        out = [rec.current(gid, m, None) for m in sorted(group.members)]
        out += [rec.target_member(gid, m, None) for m in sorted(set(group.target) | set(group.members))]
        out.append(rec.target_epoch(gid, None))
        out += [rec.member(gid, m, None) for m in sorted(group.members)]
        out += [rec.regex(gid, p, None) for p in sorted(group.regexes)]
        out.append(Record(RecordType.GROUP, gid, None, None))
        return out

    def _downgrade(self, group: ConsumerGroup, leaving: str) -> list[Record]:
        """Convert the group back to a classic group of its remaining (classic) members,
        each with its target assignment; the classic group then rebalances."""
        members = []
        for m_id, m in sorted(group.members.items()):
            if m_id == leaving:
                continue
            assert m.meta.classic is not None
            members.append(
                DowngradeMember(
                    m_id,
                    m.meta.instance_id,
                    m.meta.client_id,
                    m.meta.client_host,
                    m.meta.rebalance_timeout_ms,
                    m.meta.classic.session_timeout_ms,
                    m.meta.classic.protocols,
                    self._topic_names(group.target.get(m_id, {})),
                )
            )
        for m_id in group.members:
            self._cancel_member_timers(group.group_id, m_id)
        records: list[Record] = self._tombstones(group)
        records += self.directory.classic_group_records(group.group_id, group.epoch, members)  # type: ignore[arg-type]
        return records

    # ------------------------------------------------------------ classic members inside a consumer group

    def classic_join(
        self,
        group_id: str,
        member_id: str,
        *,
        instance_id: str | None,
        protocol_type: str,
        protocols: Sequence[tuple[str, bytes]],
        session_timeout_ms: int,
        rebalance_timeout_ms: int,
        client_id: str,
        client_host: str,
        api_version: int,
        now_ms: int,
    ) -> CoordinatorResult[JoinGroupResponse]:
        """JoinGroup to a consumer group (Kafka's classicGroupJoinToConsumerGroup): the
        member joins as a classic member and is answered at once, its generation being
        its member epoch; its assignment comes with SyncGroup."""

        def fail(code: ErrorCode, mid: str = member_id) -> CoordinatorResult[JoinGroupResponse]:
            return CoordinatorResult(
                [], JoinGroupResponse(error_code=code, generation_id=-1, leader="", member_id=mid, protocol_name=None)
            )

        group = self.groups.get(group_id)
        if group is None:
            return fail(ErrorCode.GROUP_ID_NOT_FOUND)
        unknown = member_id == ""
        if unknown:
            member_id = self._new_member_id()
        if (
            len(group.members) >= self.config.max_size
            and member_id not in group.members
            and (instance_id is None or instance_id not in group.static)
        ):
            return fail(ErrorCode.GROUP_MAX_SIZE_REACHED)
        if protocol_type != CONSUMER_PROTOCOL_TYPE or not protocols:
            return fail(ErrorCode.INCONSISTENT_GROUP_PROTOCOL)
        if unknown and instance_id is None and api_version >= FIRST_JOIN_VERSION_REQUIRING_MEMBER_ID:
            return fail(ErrorCode.MEMBER_ID_REQUIRED, member_id)
        try:
            sub = decode_subscription(protocols[0][1])
        except ProtocolError:
            return fail(ErrorCode.INCONSISTENT_GROUP_PROTOCOL)
        classic = ClassicJoin(
            rec.ClassicMemberMetadata(session_timeout_ms, tuple(protocols)),
            self._topic_ids(sub.owned),
            unknown,
        )
        request = ConsumerGroupHeartbeatRequest(
            group_id=group_id,
            member_id=member_id,
            member_epoch=JOIN_EPOCH,
            instance_id=instance_id,
            rack_id=sub.rack_id,
            rebalance_timeout_ms=rebalance_timeout_ms,
            subscribed_topic_names=list(sub.topics),
            server_assignor=None,
            topic_partitions=[],
        )
        try:
            result = self._heartbeat(request, now_ms, 1, client_id, client_host, classic)
        except _Fail as exc:
            return fail(exc.code)
        assert result.response is not None
        self._disarm(("join", group_id, member_id))
        self._arm(("sync", group_id, member_id), now_ms + max(rebalance_timeout_ms, 0))
        return CoordinatorResult(
            result.records,
            JoinGroupResponse(
                error_code=ErrorCode.NONE,
                generation_id=result.response.member_epoch,
                protocol_type=CONSUMER_PROTOCOL_TYPE,
                protocol_name=protocols[0][0],
                leader="",
                member_id=member_id,
                members=[],
            ),
        )

    def _classic_member(self, group: ConsumerGroup, member_id: str, instance_id: str | None) -> Member:
        if instance_id is None:
            member = group.members.get(member_id)
            if member is None:
                raise _Fail(ErrorCode.UNKNOWN_MEMBER_ID)
        else:
            holder = group.static.get(instance_id)
            member = group.members.get(holder) if holder is not None else None
            if member is None:
                raise _Fail(ErrorCode.UNKNOWN_MEMBER_ID)
            if member.member_id != member_id:
                raise _Fail(ErrorCode.FENCED_INSTANCE_ID)
        if not member.uses_classic_protocol:
            raise _Fail(ErrorCode.UNKNOWN_MEMBER_ID)
        return member

    def _must_rejoin(self, group: ConsumerGroup, member: Member) -> bool:
        """Kafka's rule for classic members: a newer group epoch, partitions to revoke,
        or partitions it waits for that are free now."""
        a = member.assignment
        if member.epoch < group.epoch or a.state is MemberState.UNREVOKED_PARTITIONS:
            return True
        if a.state is MemberState.UNRELEASED_PARTITIONS:
            for t, ps in group.target.get(member.member_id, {}).items():
                for p in ps:
                    if p not in a.assigned.get(t, {}) and group.partition_epoch(t, p) != -1:
                        return False
            return True
        return False

    def classic_sync(
        self,
        group_id: str,
        generation: int,
        member_id: str,
        *,
        instance_id: str | None,
        protocol_type: str | None,
        protocol_name: str | None,
        now_ms: int,
    ) -> SyncGroupResponse:
        """SyncGroup from a classic member: its current assignment, in its protocol's version."""
        group = self.groups.get(group_id)
        try:
            if group is None:
                raise _Fail(ErrorCode.UNKNOWN_MEMBER_ID)
            member = self._classic_member(group, member_id, instance_id)
            if generation != member.epoch:
                raise _Fail(ErrorCode.ILLEGAL_GENERATION)
            assert member.meta.classic is not None
            protocols = member.meta.classic.protocols
            if (protocol_type is not None and protocol_type != CONSUMER_PROTOCOL_TYPE) or (
                protocol_name is not None and protocol_name != protocols[0][0]
            ):
                raise _Fail(ErrorCode.INCONSISTENT_GROUP_PROTOCOL)
            if member.epoch < group.epoch or member.assignment.state is MemberState.UNREVOKED_PARTITIONS:
                raise _Fail(ErrorCode.REBALANCE_IN_PROGRESS)
        except _Fail as exc:
            return SyncGroupResponse(error_code=exc.code, protocol_type=None, protocol_name=None, assignment=b"")
        self._disarm(("sync", group_id, member.member_id))
        self._arm_session(group_id, member.member_id, now_ms, member.meta)
        try:
            version = version_of(protocols[0][1])
        except ProtocolError:
            version = 0
        assignment = encode_assignment(version, self._topic_names(member.assignment.assigned))
        return SyncGroupResponse(
            error_code=ErrorCode.NONE,
            protocol_type=CONSUMER_PROTOCOL_TYPE,
            protocol_name=protocols[0][0],
            assignment=assignment,
        )

    def classic_heartbeat(
        self, group_id: str, generation: int, member_id: str, instance_id: str | None, now_ms: int
    ) -> ErrorCode:
        """Heartbeat from a classic member: REBALANCE_IN_PROGRESS when it must rejoin to
        move on (it then has its rebalance timeout to do so)."""
        group = self.groups.get(group_id)
        try:
            if group is None:
                raise _Fail(ErrorCode.UNKNOWN_MEMBER_ID)
            member = self._classic_member(group, member_id, instance_id)
            if generation != member.epoch:
                raise _Fail(ErrorCode.ILLEGAL_GENERATION)
        except _Fail as exc:
            return exc.code
        self._arm_session(group_id, member.member_id, now_ms, member.meta)
        if self._must_rejoin(group, member):
            key = ("join", group_id, member.member_id)
            if not self._armed(key):
                self._arm(key, now_ms + max(member.meta.rebalance_timeout_ms, 0))
            return ErrorCode.REBALANCE_IN_PROGRESS
        return ErrorCode.NONE

    def classic_leave(
        self, group_id: str, members: Sequence[tuple[str, str | None]], now_ms: int
    ) -> CoordinatorResult[list[tuple[str, str | None, ErrorCode]]]:
        """LeaveGroup of classic members of a consumer group; bumps the group epoch once."""
        group = self.groups.get(group_id)
        out: list[tuple[str, str | None, ErrorCode]] = []
        records: list[Record] = []
        left: list[Member] = []
        for member_id, instance_id in members:
            try:
                if group is None:
                    raise _Fail(ErrorCode.UNKNOWN_MEMBER_ID)
                if instance_id is None:
                    member = group.members.get(member_id)
                    if member is None or not member.uses_classic_protocol:
                        raise _Fail(ErrorCode.UNKNOWN_MEMBER_ID)
                else:
                    holder = group.static.get(instance_id)
                    member = group.members.get(holder) if holder is not None else None
                    if member is None:
                        raise _Fail(ErrorCode.UNKNOWN_MEMBER_ID)
                    if member_id and member.member_id != member_id:
                        raise _Fail(ErrorCode.FENCED_INSTANCE_ID)
                    if not member.uses_classic_protocol:
                        raise _Fail(ErrorCode.UNKNOWN_MEMBER_ID)
            except _Fail as exc:
                out.append((member_id, instance_id, exc.code))
                continue
            gid, mid = group.group_id, member.member_id
            records += [rec.current(gid, mid, None), rec.target_member(gid, mid, None), rec.member(gid, mid, None)]
            self._cancel_member_timers(gid, mid)
            left.append(member)
            out.append((mid, instance_id, ErrorCode.NONE))
        if left and group is not None:
            gone = {m.member_id for m in left}
            remaining = [m.meta for m_id, m in group.members.items() if m_id not in gone]
            records.append(
                rec.group_epoch(group.group_id, group.epoch + 1, self._metadata_hash(remaining, group.regexes))
            )
            if not remaining:
                records.append(rec.target_epoch(group.group_id, group.epoch + 1, 0))
        return CoordinatorResult(records, out)


class _Replacement(Member):
    """A static member taking a departed one's place (its records are already written)."""

    __slots__ = ("replaced",)

    def __init__(self, member_id: str, meta: MemberValue, assignment: MemberAssignment, replaced: str) -> None:
        super().__init__(member_id, meta, assignment)
        self.replaced = replaced
