"""The share-group coordinator: KIP-932 membership as Apache Kafka 4.2 ships it.

Pure domain logic. Nothing here does I/O, reads a clock or imports trio: the
caller passes ``now_ms``, sees topics through :class:`TopicMetadata` and writes
the records of each :class:`~broker.coordinator.result.CoordinatorResult` to
``__consumer_offsets``. Session timeouts are tasks in the keyed timer queue the
runtime gives (:meth:`ShareGroups.expire_members` runs the due ones by
hand).

Membership (ShareGroupHeartbeat):

* The client generates its member id; an empty one is INVALID_REQUEST.
* Epoch 0 joins (SubscribedTopicNames required and non-empty), -1 leaves, any
  other epoch must equal the member's current epoch or the previous one (the
  response carrying the bump may have been lost); otherwise FENCED_MEMBER_EPOCH.
  A join with an id that is still in the group goes through the same epoch check,
  exactly as Kafka does: it is accepted when the previous epoch is 0 and fenced
  otherwise, until the session of the old incarnation times out.
* The checks run in Kafka's order: request validation, group type, group
  existence, group size, member existence, member epoch (see ``_ROUTES``).
* The group epoch is bumped when a member joins, leaves, times out or changes
  its subscription, and when the metadata of subscribed topics changes (a hash
  over their names, ids and partition counts, persisted like Kafka's).
* A heartbeat that finds the group epoch ahead of the assignment epoch computes
  a new target assignment with the simple assignor, batched as KIP-1263 and
  Kafka 4.4 do: at most one target per ``share.assignment.interval.ms`` (the
  caller passes the group's resolved value). Within the interval the group keeps
  its current target (a member joining meanwhile gets no partitions and the
  current assignment epoch); the first heartbeat after it computes one target
  with every change made meanwhile; 0 computes every target at once. The first
  target of a new or emptied group waits ``group.share.initial.rebalance.delay.ms``
  instead (beyond Kafka): the joining heartbeat writes an empty target and keeps
  the group epoch ahead of it, so members starting together split the partitions
  at the end of the delay. Leaves, session expiries and topic changes only bump
  the epoch; the next heartbeat computes.
* A member moves straight to its target (share groups have no revocation
  phase) on its next heartbeat: its epoch becomes the assignment epoch and the
  response carries the full assignment. The assignment is also sent on every
  join and on every request that carries SubscribedTopicNames, as Kafka does.

State changes only by applying records: every operation builds the records
Kafka would write, applies them through the same code :meth:`replay` uses, and
returns them framed for ``__consumer_offsets``. Replaying the returned records
into a fresh coordinator therefore rebuilds the same groups. Session deadlines
are the only transient state; :meth:`on_loaded` restarts them after a replay.

Groups share one namespace with consumer groups. The coordinator keeps the
registry: share groups it owns, consumer and classic groups other coordinators
register, and ``group.type`` pins. Using an existing group as the wrong type is
GROUP_ID_NOT_FOUND (Kafka 4.2); creating a group against its ``group.type`` pin
is INCONSISTENT_GROUP_PROTOCOL (KIP-932).
"""

from __future__ import annotations

import enum
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from typing import NamedTuple

from broker.coordinator.timer import TimerQueue
from broker.group.shard_api import (
    TopicInfo,
    described_not_found,
    heartbeat_interval_while_batching,
    sorted_wire,
    target_assignment_due,
    topics_hash,
)
from broker.group.share import records as rec
from broker.group.share.assignor import ASSIGNOR_NAME, assign
from broker.group.share.model import (
    Assignment,
    DeleteResult,
    ExpiryResult,
    Group,
    GroupState,
    GroupType,
    HeartbeatResult,
    Member,
    ShareHeartbeat,
    TopicMetadata,
    TopicTable,
)
from broker.group.share.records import PersistedRecord, Record
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages import share_group_describe_response as describe_msg
from broker.protocol.messages.list_groups_response import ListedGroup
from broker.protocol.messages.share_group_current_member_assignment_key import ShareGroupCurrentMemberAssignmentKey
from broker.protocol.messages.share_group_current_member_assignment_value import ShareGroupCurrentMemberAssignmentValue
from broker.protocol.messages.share_group_member_metadata_key import ShareGroupMemberMetadataKey
from broker.protocol.messages.share_group_member_metadata_value import ShareGroupMemberMetadataValue
from broker.protocol.messages.share_group_metadata_key import ShareGroupMetadataKey
from broker.protocol.messages.share_group_metadata_value import ShareGroupMetadataValue
from broker.protocol.messages.share_group_state_partition_metadata_key import ShareGroupStatePartitionMetadataKey
from broker.protocol.messages.share_group_state_partition_metadata_value import ShareGroupStatePartitionMetadataValue
from broker.protocol.messages.share_group_target_assignment_member_key import ShareGroupTargetAssignmentMemberKey
from broker.protocol.messages.share_group_target_assignment_member_value import ShareGroupTargetAssignmentMemberValue
from broker.protocol.messages.share_group_target_assignment_metadata_key import ShareGroupTargetAssignmentMetadataKey
from broker.protocol.messages.share_group_target_assignment_metadata_value import (
    ShareGroupTargetAssignmentMetadataValue,
)

__all__ = [
    "JOIN_GROUP_MEMBER_EPOCH",
    "LEAVE_GROUP_MEMBER_EPOCH",
    "PROTOCOL_TYPE",
    "DeleteResult",
    "ExpiryResult",
    "GroupState",
    "GroupType",
    "HeartbeatResult",
    "ShareGroups",
    "ShareHeartbeat",
    "TopicMetadata",
    "TopicTable",
]

JOIN_GROUP_MEMBER_EPOCH = 0
LEAVE_GROUP_MEMBER_EPOCH = -1
PROTOCOL_TYPE = "share"

# Types that may use one another's groups. Consumer and classic groups convert
# into each other (KIP-848 upgrade and downgrade); share groups stand alone.
_FAMILY = {GroupType.SHARE: "share", GroupType.CONSUMER: "consumer", GroupType.CLASSIC: "consumer"}
# Values the ``group.type`` group config accepts (KIP-932).
_PINNABLE = frozenset({GroupType.SHARE, GroupType.CONSUMER})


# -- request routing ---------------------------------------------------------------


class _Kind(enum.Enum):
    JOIN = "join"
    HEARTBEAT = "heartbeat"
    LEAVE = "leave"


class _Action(enum.Enum):
    UPSERT = "upsert"  # create or update the member, then check its epoch if it existed
    LEAVE = "leave"


class _Request(NamedTuple):
    group_id: str
    member_id: str
    member_epoch: int
    rack_id: str | None
    subscribed_topic_names: Sequence[str] | None


# Validation, in Kafka's order; the first failing rule answers INVALID_REQUEST.
_REQUEST_RULES: tuple[tuple[Callable[[_Request], bool], str], ...] = (
    (lambda r: not (r.member_id or "").strip(), "MemberId can't be empty."),
    (lambda r: not (r.group_id or "").strip(), "GroupId can't be empty."),
    (lambda r: r.rack_id is not None and not r.rack_id.strip(), "RackId can't be empty."),
    (
        lambda r: r.member_epoch == JOIN_GROUP_MEMBER_EPOCH and not r.subscribed_topic_names,
        "SubscribedTopicNames must be set in first request.",
    ),
    (lambda r: r.member_epoch < LEAVE_GROUP_MEMBER_EPOCH, "MemberEpoch is invalid."),
)


def _kind(member_epoch: int) -> _Kind:
    return {JOIN_GROUP_MEMBER_EPOCH: _Kind.JOIN, LEAVE_GROUP_MEMBER_EPOCH: _Kind.LEAVE}.get(
        member_epoch, _Kind.HEARTBEAT
    )


def _expand(
    rows: Iterable[tuple[_Kind, bool, bool, bool | None, _Action | ErrorCode]],
) -> dict[tuple[_Kind, bool, bool, bool], _Action | ErrorCode]:
    table: dict[tuple[_Kind, bool, bool, bool], _Action | ErrorCode] = {}
    for kind, group_exists, member_exists, full, outcome in rows:
        for f in (False, True) if full is None else (full,):
            table[kind, group_exists, member_exists, f] = outcome
    return table


# (request kind, group exists, member exists, group full) -> what happens.
# "Full" means the group already has group.share.max.size members; it only
# matters to requests from ids that are not members (Kafka checks the size
# before looking the member up, so an unknown member of a full group hears
# GROUP_MAX_SIZE_REACHED). Leaving never depends on the size.
_ROUTES = _expand(
    [
        (_Kind.JOIN, False, False, False, _Action.UPSERT),
        (_Kind.JOIN, False, False, True, ErrorCode.GROUP_MAX_SIZE_REACHED),
        (_Kind.JOIN, True, False, False, _Action.UPSERT),
        (_Kind.JOIN, True, False, True, ErrorCode.GROUP_MAX_SIZE_REACHED),
        (_Kind.JOIN, True, True, None, _Action.UPSERT),
        (_Kind.HEARTBEAT, False, False, None, ErrorCode.GROUP_ID_NOT_FOUND),
        (_Kind.HEARTBEAT, True, False, False, ErrorCode.UNKNOWN_MEMBER_ID),
        (_Kind.HEARTBEAT, True, False, True, ErrorCode.GROUP_MAX_SIZE_REACHED),
        (_Kind.HEARTBEAT, True, True, None, _Action.UPSERT),
        (_Kind.LEAVE, False, False, None, ErrorCode.GROUP_ID_NOT_FOUND),
        (_Kind.LEAVE, True, False, None, ErrorCode.UNKNOWN_MEMBER_ID),
        (_Kind.LEAVE, True, True, None, _Action.LEAVE),
    ]
)


def _epoch_accepted(received: int, member: Member) -> bool:
    """The current epoch, or the previous one when the bump's response was lost."""
    return received in (member.member_epoch, member.previous_member_epoch)


def _error(code: ErrorCode, message: str | None = None) -> HeartbeatResult:
    return HeartbeatResult([], ShareHeartbeat(int(code), message or code.message, None, 0, 0, None))


# -- the coordinator ------------------------------------------------------------------


class ShareGroups:
    """All share groups this broker coordinates."""

    def __init__(
        self,
        topics: TopicMetadata,
        *,
        other_group_type: Callable[[str], str | None] | None = None,
        timer: TimerQueue[Callable[[int], ExpiryResult]] | None = None,
    ) -> None:
        self._topics = topics
        # The type of a group another core of the same shard owns (classic groups).
        self.other_group_type = other_group_type
        self._groups: dict[str, Group] = {}
        self._foreign: dict[str, GroupType] = {}  # consumer / classic groups owned elsewhere
        self._pinned: dict[str, GroupType] = {}  # group.type configs
        # (group id, member id) -> the member's session expiry
        self._timers: TimerQueue[Callable[[int], ExpiryResult]] = timer if timer is not None else TimerQueue()
        self._apply_table: dict[tuple[type, bool], Callable[[Record], None]] = {
            (ShareGroupMemberMetadataKey, False): self._apply_member,
            (ShareGroupMemberMetadataKey, True): self._apply_member_tombstone,
            (ShareGroupMetadataKey, False): self._apply_group,
            (ShareGroupMetadataKey, True): self._apply_group_tombstone,
            (ShareGroupTargetAssignmentMemberKey, False): self._apply_target_member,
            (ShareGroupTargetAssignmentMemberKey, True): self._apply_target_member_tombstone,
            (ShareGroupTargetAssignmentMetadataKey, False): self._apply_target_epoch,
            (ShareGroupTargetAssignmentMetadataKey, True): self._apply_target_epoch_tombstone,
            (ShareGroupCurrentMemberAssignmentKey, False): self._apply_current,
            (ShareGroupCurrentMemberAssignmentKey, True): self._apply_current_tombstone,
            (ShareGroupStatePartitionMetadataKey, False): self._apply_state_partitions,
            (ShareGroupStatePartitionMetadataKey, True): self._apply_state_partitions_tombstone,
        }

    # -- group-type registry ------------------------------------------------------------

    def group_type(self, group_id: str) -> str | None:
        """The type of the existing group with this id, or None."""
        if group_id in self._groups:
            return GroupType.SHARE.value
        foreign = self._foreign.get(group_id)
        if foreign is not None:
            return foreign.value
        return self.other_group_type(group_id) if self.other_group_type is not None else None

    def register_group(self, group_id: str, group_type: str) -> None:
        """Record that another coordinator created a consumer or classic group."""
        kind = GroupType(group_type)
        if kind is GroupType.SHARE or group_id in self._groups:
            raise ValueError(f"group {group_id!r} is a share group")
        self._foreign[group_id] = kind

    def unregister_group(self, group_id: str) -> None:
        self._foreign.pop(group_id, None)

    def pin_group_type(self, group_id: str, group_type: str | None) -> None:
        """Apply the ``group.type`` group config (None removes the pin)."""
        if group_type is None:
            self._pinned.pop(group_id, None)
            return
        kind = GroupType(group_type)
        if kind not in _PINNABLE:
            raise ValueError(f"group.type must be one of {sorted(_PINNABLE)}, not {group_type!r}")
        self._pinned[group_id] = kind

    def check_group_type(self, group_id: str, wanted: str) -> ErrorCode:
        """Whether ``group_id`` may be used (or created) as a group of type ``wanted``."""
        family = _FAMILY[GroupType(wanted)]
        existing = self.group_type(group_id)
        if existing is not None:
            return ErrorCode.NONE if _FAMILY[GroupType(existing)] == family else ErrorCode.GROUP_ID_NOT_FOUND
        pinned = self._pinned.get(group_id)
        if pinned is not None and _FAMILY[pinned] != family:
            return ErrorCode.INCONSISTENT_GROUP_PROTOCOL
        return ErrorCode.NONE

    # -- ShareGroupHeartbeat --------------------------------------------------------------

    def heartbeat(
        self,
        group_id: str,
        member_id: str,
        member_epoch: int,
        rack_id: str | None,
        subscribed_topic_names: Sequence[str] | None,
        now_ms: int,
        *,
        max_size: int,
        session_timeout_ms: int,
        heartbeat_interval_ms: int,
        assignment_interval_ms: int = 0,
        initial_delay_ms: int = 0,
        client_id: str = "",
        client_host: str = "",
    ) -> HeartbeatResult:
        """One ShareGroupHeartbeat. ``assignment_interval_ms`` is the group's
        ``share.assignment.interval.ms`` (0: compute every target at once);
        ``initial_delay_ms`` is ``group.share.initial.rebalance.delay.ms`` (0: a new
        group's first target at once)."""
        request = _Request(group_id, member_id, member_epoch, rack_id, subscribed_topic_names)
        for broken, message in _REQUEST_RULES:
            if broken(request):
                return _error(ErrorCode.INVALID_REQUEST, message)
        type_error = self.check_group_type(group_id, GroupType.SHARE)
        if type_error:
            return _error(type_error, self._type_message(type_error, group_id))

        group = self._groups.get(group_id)
        member = group.members.get(member_id) if group is not None else None
        size = len(group.members) if group is not None else 0
        outcome = _ROUTES[_kind(member_epoch), group is not None, member is not None, size >= max_size]
        if isinstance(outcome, ErrorCode):
            return _error(outcome, self._route_message(outcome, group_id, member_id, max_size))
        if outcome is _Action.LEAVE:
            assert group is not None and member is not None
            persisted = self._commit(self._removal_records(group, member))
            return HeartbeatResult(persisted, ShareHeartbeat(0, None, member_id, LEAVE_GROUP_MEMBER_EPOCH, 0, None))
        if member is not None and not _epoch_accepted(member_epoch, member):
            return _error(
                ErrorCode.FENCED_MEMBER_EPOCH,
                f"The share group member has epoch {member_epoch}; the coordinator knows epoch "
                f"{member.member_epoch} (previous {member.previous_member_epoch}). "
                "The member must abandon its partitions and rejoin.",
            )
        return self._upsert(
            group or Group(group_id),
            member,
            Member(
                member_id,
                rack_id=rack_id,
                client_id=client_id,
                client_host=client_host,
                subscribed_topic_names=frozenset(subscribed_topic_names or ()),
            ),
            request,
            now_ms,
            session_timeout_ms,
            heartbeat_interval_ms,
            assignment_interval_ms,
            initial_delay_ms,
        )

    def _type_message(self, code: ErrorCode, group_id: str) -> str:
        if code is ErrorCode.INCONSISTENT_GROUP_PROTOCOL:
            return f"Group {group_id} is reserved for {self._pinned[group_id].value} groups by its group.type config."
        return f"Group {group_id} is not a share group."

    @staticmethod
    def _route_message(code: ErrorCode, group_id: str, member_id: str, max_size: int) -> str:
        return {
            ErrorCode.GROUP_ID_NOT_FOUND: f"Share group {group_id} not found.",
            ErrorCode.UNKNOWN_MEMBER_ID: f"Member {member_id} is not a member of group {group_id}.",
            ErrorCode.GROUP_MAX_SIZE_REACHED: (
                f"The share group has reached its maximum capacity of {max_size} members."
            ),
        }[code]

    def _upsert(
        self,
        group: Group,
        member: Member | None,
        sent: Member,
        request: _Request,
        now_ms: int,
        session_timeout_ms: int,
        heartbeat_interval_ms: int,
        assignment_interval_ms: int,
        initial_delay_ms: int,
    ) -> HeartbeatResult:
        group_id, member_id = group.group_id, sent.member_id
        old = member or Member(member_id)
        # Null fields in the request mean "unchanged".
        new_rack = old.rack_id if request.rack_id is None else request.rack_id
        new_topics = sent.subscribed_topic_names
        if request.subscribed_topic_names is None:
            new_topics = old.subscribed_topic_names
        records: list[Record] = []

        # 1. The member's metadata.
        subscription_changed = new_topics != old.subscribed_topic_names
        self._update_metadata(group_id, member, old, sent, new_rack, new_topics, records)

        # 2. The group epoch, bumped by subscription or topic metadata changes.
        subscriptions = group.subscriptions()
        subscriptions[member_id] = new_topics
        group_epoch, metadata_hash = self._bump_group_epoch(group, subscriptions, subscription_changed, records)

        # 3. The target assignment, recomputed for a new group epoch at most once an interval
        #    (KIP-1263), or once the initial delay of a new group is over; until then the
        #    member reconciles to the current target.
        target_epoch, target, interval = self._target(
            group,
            subscriptions,
            (group_epoch, metadata_hash),
            records,
            now_ms,
            heartbeat_interval_ms,
            (assignment_interval_ms, initial_delay_ms),
        )

        # 4. The member moves straight to its target.
        new_epoch, assigned = self._move_to_target(
            group_id, member, old, target_epoch, target, new_topics, subscription_changed, records
        )

        # Decided before the commit: applying the records updates ``old`` in place.
        send_assignment = (
            request.member_epoch == JOIN_GROUP_MEMBER_EPOCH
            or request.subscribed_topic_names is not None
            or assigned != old.assigned
        )
        persisted = self._commit(records)
        self._arm(group_id, member_id, now_ms + session_timeout_ms)
        return HeartbeatResult(
            persisted,
            ShareHeartbeat(0, None, member_id, new_epoch, interval, sorted_wire(assigned) if send_assignment else None),
        )

    @staticmethod
    def _update_metadata(
        group_id: str,
        member: Member | None,
        old: Member,
        sent: Member,
        new_rack: str | None,
        new_topics: frozenset[str],
        records: list[Record],
    ) -> None:
        """The member's metadata record, when it joins or its rack, client or subscription changed."""
        if member is None or (new_rack, sent.client_id, sent.client_host, new_topics) != (
            old.rack_id,
            old.client_id,
            old.client_host,
            old.subscribed_topic_names,
        ):
            records.append(
                rec.member_metadata(
                    group_id,
                    old.member_id,
                    rack_id=new_rack,
                    client_id=sent.client_id,
                    client_host=sent.client_host,
                    subscribed_topic_names=new_topics,
                )
            )

    def _bump_group_epoch(
        self,
        group: Group,
        subscriptions: dict[str, frozenset[str]],
        subscription_changed: bool,
        records: list[Record],
    ) -> tuple[int, int]:
        """(group epoch, metadata hash) after this heartbeat: the epoch one more when a
        subscription or the metadata of subscribed topics changed (with the group's record)."""
        group_epoch = group.group_epoch
        metadata_hash = self._metadata_hash(subscriptions.values())
        if subscription_changed or metadata_hash != group.metadata_hash:
            group_epoch += 1
            records.append(rec.group_metadata(group.group_id, group_epoch, metadata_hash))
        return group_epoch, metadata_hash

    def _target(
        self,
        group: Group,
        subscriptions: dict[str, frozenset[str]],
        epoch_and_hash: tuple[int, int],
        records: list[Record],
        now_ms: int,
        heartbeat_interval_ms: int,
        gaps: tuple[int, int],
    ) -> tuple[int, dict[str, Assignment], int]:
        """(target epoch, target, heartbeat interval): a new target when the group epoch is
        ahead and the assignment interval (``gaps``: the interval, the initial delay) allows
        one, else the current one.

        A new or emptied group with an initial delay does not compute its first target at
        once: it writes an empty one (every member joins with no partitions) and keeps its
        epoch one ahead, so the first heartbeat once the delay is over computes the target
        with every member that joined meanwhile. Members starting together then split the
        partitions instead of the first taking them all for an interval."""
        group_epoch, metadata_hash = epoch_and_hash
        target_epoch, target = group.assignment_epoch, group.target
        last_assignment_ms = group.assignment_timestamp_ms
        gap = self._gap(target, gaps)
        if group_epoch > group.assignment_epoch:
            if last_assignment_ms <= 0 and gaps[1] > 0 and not any(target.values()):
                target_epoch, target = group_epoch, {}
                records.append(rec.target_assignment_epoch(group.group_id, target_epoch, now_ms))
                records.append(rec.group_metadata(group.group_id, group_epoch + 1, metadata_hash))
            elif target_assignment_due(last_assignment_ms, gap, now_ms):
                target_epoch = group_epoch
                target = self._retarget(group, subscriptions, group_epoch, records, now_ms)
                gap = self._gap(target, gaps)
        interval = heartbeat_interval_while_batching(
            heartbeat_interval_ms,
            now_ms if target_epoch > group.assignment_epoch else last_assignment_ms,
            gap,
            now_ms,
        )
        return target_epoch, target, interval

    @staticmethod
    def _gap(target: Mapping[str, Assignment], gaps: tuple[int, int]) -> int:
        """How long a target stands before the next may be computed: the assignment
        interval, or the initial delay while the target gives nobody a partition (a new
        group settling, or one whose topics do not exist yet)."""
        interval_ms, initial_delay_ms = gaps
        if initial_delay_ms > 0 and not any(target.values()):
            return initial_delay_ms
        return interval_ms

    def _move_to_target(
        self,
        group_id: str,
        member: Member | None,
        old: Member,
        target_epoch: int,
        target: dict[str, Assignment],
        new_topics: frozenset[str],
        subscription_changed: bool,
        records: list[Record],
    ) -> tuple[int, Assignment]:
        """(member epoch, assignment) once the member takes its target (no revocation
        phase in share groups), with its current-assignment record when either changed."""
        new_epoch, previous_epoch, assigned = old.member_epoch, old.previous_member_epoch, old.assigned
        if target_epoch != old.member_epoch or subscription_changed:
            assigned = self._only_subscribed(target.get(old.member_id, {}), new_topics)
        if target_epoch != old.member_epoch:
            new_epoch, previous_epoch = target_epoch, old.member_epoch
        if member is None or (new_epoch, previous_epoch, assigned) != (
            old.member_epoch,
            old.previous_member_epoch,
            old.assigned,
        ):
            records.append(
                rec.current_assignment(
                    group_id,
                    old.member_id,
                    member_epoch=new_epoch,
                    previous_member_epoch=previous_epoch,
                    assignment=assigned,
                )
            )
        return new_epoch, assigned

    # -- removal, sessions, topic changes --------------------------------------------------

    def _removal_records(self, group: Group, member: Member) -> list[Record]:
        """Records that fence ``member`` out of ``group`` and bump the group epoch.

        The remaining members' next heartbeat computes the target without it. When
        the last member goes, the (empty) target is current at once and its time is
        cleared, so whoever joins next is not held back by the interval (only by the
        initial delay, as a new group's first members are).
        """
        group_id = group.group_id
        records = [
            rec.current_assignment_tombstone(group_id, member.member_id),
            rec.target_member_tombstone(group_id, member.member_id),
            rec.member_tombstone(group_id, member.member_id),
        ]
        subscriptions = group.subscriptions()
        del subscriptions[member.member_id]
        group_epoch = group.group_epoch + 1
        records.append(rec.group_metadata(group_id, group_epoch, self._metadata_hash(subscriptions.values())))
        if not subscriptions:
            records.append(rec.target_assignment_epoch(group_id, group_epoch, 0))
        return records

    def _expire(self, group_id: str, member_id: str, now_ms: int) -> ExpiryResult:
        """A session timer's task: the member was not heard from within its session timeout."""
        group = self._groups[group_id]
        persisted = self._commit(self._removal_records(group, group.members[member_id]))
        return ExpiryResult(persisted, [(group_id, member_id)])

    def expire_members(self, now_ms: int) -> ExpiryResult:
        """Run the due session timers by hand: remove members not heard from within their
        session timeout (with a runtime, its timer runs each as it comes due)."""
        persisted: list[PersistedRecord] = []
        expired: list[tuple[str, str]] = []
        while (due := self._timers.pop_due(now_ms)) is not None:
            result = due[1](now_ms)
            persisted += result.records
            expired += result.expired
        return ExpiryResult(persisted, expired)

    def next_deadline(self) -> int | None:
        """When the next session times out, if ever."""
        return self._timers.next_deadline_ms()

    def on_loaded(self, now_ms: int, session_timeout_ms: int | Callable[[str], int]) -> None:
        """Start session timers for members rebuilt by :meth:`replay` (Kafka does the same)."""
        for group in self._groups.values():
            timeout = session_timeout_ms(group.group_id) if callable(session_timeout_ms) else session_timeout_ms
            for member_id in group.members:
                if (group.group_id, member_id) not in self._timers:
                    self._arm(group.group_id, member_id, now_ms + timeout)

    def on_topics_changed(self) -> list[PersistedRecord]:
        """Topics were created, deleted or grew partitions: bump the epoch of affected
        groups (their members' next heartbeats compute the new target)."""
        persisted: list[PersistedRecord] = []
        for group in list(self._groups.values()):
            records: list[Record] = []
            alive = {t: v for t, v in group.initialized.items() if self._topics.topic_name(t) is not None}
            if alive != group.initialized:
                records.append(rec.state_partition_metadata(group.group_id, alive))
            subscriptions = group.subscriptions()
            metadata_hash = self._metadata_hash(subscriptions.values())
            if subscriptions and metadata_hash != group.metadata_hash:
                records.append(rec.group_metadata(group.group_id, group.group_epoch + 1, metadata_hash))
            persisted += self._commit(records)
        return persisted

    # -- assignment helpers ---------------------------------------------------------------

    def _resolve(self, names: Iterable[str]) -> dict[str, tuple[uuid.UUID, int]]:
        resolved = {}
        for name in names:
            found = self._topics.topic(name)
            if found is not None:
                resolved[name] = found
        return resolved

    def _metadata_hash(self, subscriptions: Iterable[frozenset[str]]) -> int:
        """A hash of the subscribed topics' names, ids and partition counts (0: none)."""
        resolved = self._resolve(set().union(*subscriptions))
        return topics_hash(TopicInfo(name, topic_id, partitions) for name, (topic_id, partitions) in resolved.items())

    def _retarget(
        self,
        group: Group,
        subscriptions: Mapping[str, frozenset[str]],
        group_epoch: int,
        records: list[Record],
        now_ms: int,
    ) -> dict[str, Assignment]:
        """Append the records of a new target assignment computed at ``now_ms``; return it."""
        resolved = self._resolve(set().union(*subscriptions.values()))
        members = {m: {resolved[n][0] for n in names if n in resolved} for m, names in subscriptions.items()}
        partition_counts = dict(resolved.values())
        computed = assign(members, partition_counts, {m: group.target.get(m, {}) for m in subscriptions})
        target = {m: {t: frozenset(ps) for t, ps in a.items()} for m, a in computed.items()}
        for member_id, assignment in target.items():
            if group.target.get(member_id) != assignment:
                records.append(rec.target_member(group.group_id, member_id, assignment))
        records.append(rec.target_assignment_epoch(group.group_id, group_epoch, now_ms))
        return target

    def _only_subscribed(self, assignment: Assignment, topic_names: frozenset[str]) -> Assignment:
        ids = {topic_id for topic_id, _ in self._resolve(topic_names).values()}
        return {t: ps for t, ps in assignment.items() if t in ids}

    # -- records in, records out -------------------------------------------------------------

    def _commit(self, records: list[Record]) -> list[PersistedRecord]:
        for record in records:
            self._apply(record)
        return [rec.encode(record) for record in records]

    def replay(self, key: bytes, value: bytes | None) -> None:
        """Apply one record read back from ``__consumer_offsets``.

        Records that are not share-group records are ignored; malformed ones
        raise ProtocolError. Call :meth:`on_loaded` once the load is complete.
        """
        record = rec.decode(key, value)
        if record is not None:
            self._apply(record)

    def _apply(self, record: Record) -> None:
        self._apply_table[type(record.key), record.value is None](record)

    def _group_for(self, group_id: str) -> Group:
        group = self._groups.get(group_id)
        if group is None:
            group = self._groups[group_id] = Group(group_id)
            self._foreign.pop(group_id, None)
        return group

    # Each rule below handles the one key type the table routes to it, with the value
    # type records.RECORD_TYPES pairs it with; Record.typed states that for the checker.

    def _apply_member(self, record: Record) -> None:
        key, value = record.typed(ShareGroupMemberMetadataKey, ShareGroupMemberMetadataValue)
        member = self._group_for(key.group_id).members.setdefault(key.member_id, Member(key.member_id))
        member.rack_id = value.rack_id
        member.client_id = value.client_id
        member.client_host = value.client_host
        member.subscribed_topic_names = frozenset(value.subscribed_topic_names)

    def _apply_member_tombstone(self, record: Record) -> None:
        key = record.typed_key(ShareGroupMemberMetadataKey)
        group = self._groups.get(key.group_id)
        if group is not None:
            group.members.pop(key.member_id, None)
        self._timers.cancel((key.group_id, key.member_id))

    def _apply_group(self, record: Record) -> None:
        key, value = record.typed(ShareGroupMetadataKey, ShareGroupMetadataValue)
        group = self._group_for(key.group_id)
        group.group_epoch = value.epoch
        group.metadata_hash = value.metadata_hash

    def _apply_group_tombstone(self, record: Record) -> None:
        key = record.typed_key(ShareGroupMetadataKey)
        group = self._groups.pop(key.group_id, None)
        if group is not None:
            for member_id in group.members:
                self._timers.cancel((group.group_id, member_id))

    def _apply_target_member(self, record: Record) -> None:
        key, value = record.typed(ShareGroupTargetAssignmentMemberKey, ShareGroupTargetAssignmentMemberValue)
        self._group_for(key.group_id).target[key.member_id] = {
            tp.topic_id: frozenset(tp.partitions) for tp in value.topic_partitions
        }

    def _apply_target_member_tombstone(self, record: Record) -> None:
        key = record.typed_key(ShareGroupTargetAssignmentMemberKey)
        group = self._groups.get(key.group_id)
        if group is not None:
            group.target.pop(key.member_id, None)

    def _apply_target_epoch(self, record: Record) -> None:
        key, value = record.typed(ShareGroupTargetAssignmentMetadataKey, ShareGroupTargetAssignmentMetadataValue)
        group = self._group_for(key.group_id)
        group.assignment_epoch = value.assignment_epoch
        group.assignment_timestamp_ms = value.assignment_timestamp

    def _apply_target_epoch_tombstone(self, record: Record) -> None:
        key = record.typed_key(ShareGroupTargetAssignmentMetadataKey)
        group = self._groups.get(key.group_id)
        if group is not None:
            group.assignment_epoch = -1
            group.assignment_timestamp_ms = 0

    def _apply_current(self, record: Record) -> None:
        key, value = record.typed(ShareGroupCurrentMemberAssignmentKey, ShareGroupCurrentMemberAssignmentValue)
        member = self._group_for(key.group_id).members.setdefault(key.member_id, Member(key.member_id))
        member.member_epoch = value.member_epoch
        member.previous_member_epoch = value.previous_member_epoch
        member.assigned = {tp.topic_id: frozenset(tp.partitions) for tp in value.assigned_partitions}

    def _apply_current_tombstone(self, record: Record) -> None:
        key = record.typed_key(ShareGroupCurrentMemberAssignmentKey)
        group = self._groups.get(key.group_id)
        member = group.members.get(key.member_id) if group is not None else None
        if member is not None:
            member.member_epoch = LEAVE_GROUP_MEMBER_EPOCH
            member.assigned = {}

    def _apply_state_partitions(self, record: Record) -> None:
        key, value = record.typed(ShareGroupStatePartitionMetadataKey, ShareGroupStatePartitionMetadataValue)
        self._group_for(key.group_id).initialized = {
            t.topic_id: (t.topic_name, frozenset(t.partitions)) for t in value.initialized_topics
        }

    def _apply_state_partitions_tombstone(self, record: Record) -> None:
        key = record.typed_key(ShareGroupStatePartitionMetadataKey)
        group = self._groups.get(key.group_id)
        if group is not None:
            group.initialized = {}

    def _arm(self, group_id: str, member_id: str, deadline: int) -> None:
        self._timers.schedule((group_id, member_id), deadline, partial(self._expire, group_id, member_id))

    # -- describe, list, delete ------------------------------------------------------------

    def describe(self, group_ids: Iterable[str]) -> list[describe_msg.DescribedGroup]:
        """ShareGroupDescribe: one DescribedGroup per id, in request order."""
        described = []
        for group_id in group_ids:
            group = self._groups.get(group_id)
            if group is None:
                elsewhere = group_id in self._foreign
                described.append(described_not_found(describe_msg.DescribedGroup, group_id, "share", elsewhere))
                continue
            described.append(
                describe_msg.DescribedGroup(
                    group_id=group_id,
                    group_state=group.state.value,
                    group_epoch=group.group_epoch,
                    assignment_epoch=group.assignment_epoch,
                    assignor_name=ASSIGNOR_NAME,
                    members=[self._describe_member(m) for m in group.members.values()],
                )
            )
        return described

    def _describe_member(self, member: Member) -> describe_msg.Member:
        topic_partitions = []
        for topic_id, partitions in sorted_wire(member.assigned):
            name = self._topics.topic_name(topic_id)
            if name is not None:  # a deleted topic is left out, as Kafka does
                topic_partitions.append(describe_msg.TopicPartitions(topic_id, name, partitions))
        return describe_msg.Member(
            member_id=member.member_id,
            rack_id=member.rack_id,
            member_epoch=member.member_epoch,
            client_id=member.client_id,
            client_host=member.client_host,
            subscribed_topic_names=sorted(member.subscribed_topic_names),
            assignment=describe_msg.Assignment(topic_partitions),
        )

    def list_groups(self, states_filter: Iterable[str] = (), types_filter: Iterable[str] = ()) -> list[ListedGroup]:
        """The share groups matching ListGroups' filters (both case-insensitive; empty: all)."""
        states = {s.strip().lower() for s in states_filter}
        types = {t.strip().lower() for t in types_filter}
        if types and GroupType.SHARE.value not in types:
            return []
        return [
            ListedGroup(group.group_id, PROTOCOL_TYPE, group.state.value, GroupType.SHARE.value)
            for group in self._groups.values()
            if not states or group.state.value.lower() in states
        ]

    def delete_group(self, group_id: str) -> DeleteResult:
        """DeleteGroups for a share group: only an Empty group may go."""
        group = self._groups.get(group_id)
        if group is None:
            return DeleteResult([], int(ErrorCode.GROUP_ID_NOT_FOUND), f"Group {group_id} not found.")
        if group.members:
            return DeleteResult([], int(ErrorCode.NON_EMPTY_GROUP), ErrorCode.NON_EMPTY_GROUP.message)
        initialized = self.initialized_partitions(group_id)
        records = [rec.target_member_tombstone(group_id, m) for m in group.target]
        records += [
            rec.target_assignment_epoch_tombstone(group_id),
            rec.state_partition_metadata_tombstone(group_id),
            rec.group_tombstone(group_id),
        ]
        return DeleteResult(self._commit(records), 0, None, initialized)

    # -- initialised share-partitions (for the share-group offsets admin APIs) ----------------

    def initialized_partitions(self, group_id: str) -> dict[uuid.UUID, frozenset[int]]:
        group = self._groups.get(group_id)
        if group is None:
            return {}
        return {topic_id: partitions for topic_id, (_, partitions) in group.initialized.items()}

    def sharing(self, group_id: str) -> dict[tuple[uuid.UUID, int], int]:
        """How many members the target assignment gives each share-partition of the group.

        The share-partition leaders size each member's part of a partition's
        in-flight records by it, before every member has fetched (O(target)).
        """
        group = self._groups.get(group_id)
        counts: dict[tuple[uuid.UUID, int], int] = {}
        if group is None:
            return counts
        for assignment in group.target.values():
            for topic_id, partitions in assignment.items():
                for p in partitions:
                    key = (topic_id, p)
                    counts[key] = counts.get(key, 0) + 1
        return counts

    def uninitialized_partitions(self, group_id: str) -> dict[uuid.UUID, frozenset[int]]:
        """Subscribed share-partitions whose state has not been initialised yet."""
        group = self._groups.get(group_id)
        if group is None:
            return {}
        missing = {}
        for topic_id, count in self._resolve(set().union(*group.subscriptions().values())).values():
            done = group.initialized.get(topic_id, ("", frozenset()))[1]
            todo = frozenset(range(count)) - done
            if todo:
                missing[topic_id] = todo
        return missing

    def mark_initialized(self, group_id: str, topic_id: uuid.UUID, partitions: Iterable[int]) -> list[PersistedRecord]:
        """Record that the share coordinator initialised these share-partitions."""
        group = self._require(group_id)
        name, done = group.initialized.get(topic_id, (None, frozenset()))
        name = self._topics.topic_name(topic_id) or name
        if name is None:
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_ID, f"Topic {topic_id} does not exist.")
        merged = done | frozenset(partitions)
        if merged == done:
            return []
        initialized = dict(group.initialized)
        initialized[topic_id] = (name, merged)
        return self._commit([rec.state_partition_metadata(group_id, initialized)])

    def forget_initialized(self, group_id: str, topic_ids: Iterable[uuid.UUID]) -> list[PersistedRecord]:
        """Drop topics from the initialised set (their share state was deleted)."""
        group = self._require(group_id)
        drop = set(topic_ids)
        kept = {t: v for t, v in group.initialized.items() if t not in drop}
        if kept == group.initialized:
            return []
        return self._commit([rec.state_partition_metadata(group_id, kept)])

    def _require(self, group_id: str) -> Group:
        group = self._groups.get(group_id)
        if group is None:
            raise KafkaError(ErrorCode.GROUP_ID_NOT_FOUND, f"Share group {group_id} not found.")
        return group

    # -- introspection ----------------------------------------------------------------------

    def group_state(self, group_id: str) -> GroupState:
        group = self._groups.get(group_id)
        return group.state if group is not None else GroupState.DEAD

    def group_ids(self) -> list[str]:
        return list(self._groups)

    def snapshot(self) -> dict[str, dict]:
        """The persisted state of every group as plain data (for tests and diagnostics)."""
        return {
            group.group_id: {
                "state": group.state.value,
                "group_epoch": group.group_epoch,
                "metadata_hash": group.metadata_hash,
                "assignment_epoch": group.assignment_epoch,
                "assignment_timestamp_ms": group.assignment_timestamp_ms,
                "members": {
                    m.member_id: {
                        "member_epoch": m.member_epoch,
                        "previous_member_epoch": m.previous_member_epoch,
                        "rack_id": m.rack_id,
                        "client_id": m.client_id,
                        "client_host": m.client_host,
                        "subscribed_topic_names": sorted(m.subscribed_topic_names),
                        "assigned": sorted_wire(m.assigned),
                    }
                    for m in sorted(group.members.values(), key=lambda m: m.member_id)
                },
                "target": {m: sorted_wire(a) for m, a in sorted(group.target.items())},
                "initialized": {t: (n, sorted(ps)) for t, (n, ps) in sorted(group.initialized.items())},
            }
            for group in sorted(self._groups.values(), key=lambda g: g.group_id)
        }
