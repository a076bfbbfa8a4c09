"""Classic groups as the shard keeps them (:class:`ClassicGroupsState`).

The groups, their timers (keyed tasks in the runtime's queue, each running a named
action of the join and sync phases) and the outbox of answers to parked requests; and
what does not rebalance: DescribeGroups and ListGroups, the offset rules of classic
groups (who may commit, when offsets expire), DeleteGroups, and replaying
GroupMetadata records, including the hand-over to and from a consumer group of the
same id (KIP-848 online migration). JoinGroup, SyncGroup, Heartbeat and LeaveGroup are
:mod:`broker.group.classic.core`.
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Callable
from functools import partial
from typing import Any, ClassVar

from broker.coordinator.result import CoordinatorResult
from broker.coordinator.timer import TimerQueue
from broker.group.classic.model import (
    FIRST_COMMIT_VERSION_GROUP_ID_NOT_FOUND,
    ClassicGroup,
    CoordinatorConfig,
    GroupState,
    ListedGroup,
    Member,
    Record,
    join_error,
    sync_error,
)
from broker.group.classic.records import group_metadata_record
from broker.group.offsets import CommittedOffset
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.describe_groups_response import DescribedGroup, DescribedGroupMember
from broker.protocol.messages.group_metadata_value import GroupMetadataValue


class ClassicGroupsState:
    """Every classic group of this broker, their timers and their outbox.

    ``other_group_type(group_id)`` names the type of a group this coordinator
    does not own (e.g. ``"share"``), or None. ``timer`` is the queue its timers
    go in (the runtime's; a queue of its own when none is given).
    """

    # The timers' named actions (the join and sync phases'), set by :class:`~broker.group.classic.core.ClassicGroups`.
    _ACTIONS: ClassVar[dict[str, Callable[..., None]]]

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
        group = self.groups.get(group_id)
        if group is None:
            error = self._commit_to_unknown_group(group_id, generation, api_version, transactional)
            if error:
                return self._result(error)
            group = self.groups[group_id] = ClassicGroup(group_id, self._now_ms)
        error = group.validate_offset_commit(member_id, group_instance_id, generation, transactional=transactional)
        if not error and group.state in (GroupState.STABLE, GroupState.PREPARING_REBALANCE):
            member = group.members.get(member_id)
            if member is not None:
                self._reschedule_heartbeat(group, member_id, member.session_timeout_ms)
        return self._result(error)

    def _commit_to_unknown_group(
        self, group_id: str, generation: int, api_version: int, transactional: bool
    ) -> ErrorCode:
        """A commit to a group with no classic group: another type's group is not found; one
        by a member (a generation) fails; else (NONE) it creates a simple group."""
        if self._foreign_type(group_id) is not None:
            return ErrorCode.GROUP_ID_NOT_FOUND
        if generation >= 0:
            if api_version >= FIRST_COMMIT_VERSION_GROUP_ID_NOT_FOUND and not transactional:
                return ErrorCode.GROUP_ID_NOT_FOUND
            return ErrorCode.ILLEGAL_GENERATION
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
            self._deliver(member.join_token, join_error(ErrorCode.COORDINATOR_NOT_AVAILABLE, member.member_id))
            self._deliver(member.sync_token, sync_error(ErrorCode.COORDINATOR_NOT_AVAILABLE))
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
            self._deliver(token, join_error(ErrorCode.REBALANCE_IN_PROGRESS, member.member_id))
            token, member.sync_token = member.sync_token, None
            self._deliver(token, sync_error(ErrorCode.REBALANCE_IN_PROGRESS))
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

    def _prepare_rebalance(self, group: ClassicGroup) -> None:
        """Start a rebalance of ``group`` (the join phase, :class:`~broker.group.classic.core.ClassicGroups`)."""
        raise NotImplementedError
