"""The classic consumer-group protocol (JoinGroup/SyncGroup/Heartbeat/LeaveGroup) as a
pure state machine, following Apache Kafka 4.2's ``GroupMetadataManager`` classic paths.

Nothing here does I/O or reads a clock: every operation takes ``now_ms``. The
owner (:mod:`broker.group.coordinator`) drives it. The groups, their timers, outbox,
offsets rules and replay are :mod:`.state` (:class:`~.state.ClassicGroupsState`); their
state machine is :mod:`.model`; this module is the JoinGroup/SyncGroup/Heartbeat/
LeaveGroup paths over them:

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

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar

from broker.coordinator.result import CoordinatorResult
from broker.group.classic.model import (
    FIRST_VERSION_REQUIRING_MEMBER_ID,
    FIRST_VERSION_SKIPPING_ASSIGNMENT,
    ClassicGroup,
    GroupState,
    Member,
    Pending,
    join_error,
    sync_error,
)
from broker.group.classic.records import group_metadata_record
from broker.group.classic.state import ClassicGroupsState
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.group_metadata_value import GroupMetadataValue
from broker.protocol.messages.join_group_response import JoinGroupResponse
from broker.protocol.messages.sync_group_response import SyncGroupResponse

__all__ = ["ClassicGroups"]


def _protocol_inconsistent(requested: str | None, actual: str | None) -> bool:
    return requested is not None and actual is not None and requested != actual


class ClassicGroups(ClassicGroupsState):
    """JoinGroup, SyncGroup, Heartbeat and LeaveGroup of every classic group, and the timer
    actions of the join and sync phases (the groups, their timers and outbox, describe,
    offsets and replay are :class:`~broker.group.classic.state.ClassicGroupsState`)."""

    # ================================================================== owner interface

    # ================================================================== timers

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
            return join_error(ErrorCode.INVALID_GROUP_ID, member_id)
        c = self.config
        if not c.min_session_timeout_ms <= request.session_timeout_ms <= c.max_session_timeout_ms:
            return join_error(ErrorCode.INVALID_SESSION_TIMEOUT, member_id)
        if self._foreign_type(group_id) is not None:
            return join_error(ErrorCode.INCONSISTENT_GROUP_PROTOCOL)
        unknown = member_id == ""
        group = self.groups.get(group_id)
        is_new_group = group is None
        if group is None:
            if not unknown:
                return join_error(ErrorCode.UNKNOWN_MEMBER_ID, member_id)
            group = self.groups[group_id] = ClassicGroup(group_id, self._now_ms)
        records_before = len(self._records)
        if not self._accept_joining_member(group, member_id):
            group.remove(member_id)
            result: JoinGroupResponse | Pending = join_error(ErrorCode.GROUP_MAX_SIZE_REACHED)
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
            return join_error(ErrorCode.COORDINATOR_NOT_AVAILABLE)
        if not group.supports_protocols(req.protocol_type, [n for n, _ in req.protocols]):
            return join_error(ErrorCode.INCONSISTENT_GROUP_PROTOCOL)
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
            return join_error(ErrorCode.MEMBER_ID_REQUIRED, new_member_id)
        return self._add_member_then_rebalance(group, req, new_member_id)

    def _join_existing_member(self, group: ClassicGroup, req: _JoinRequest) -> JoinGroupResponse | Pending:
        member_id = req.member_id
        if group.state is GroupState.DEAD:
            return join_error(ErrorCode.COORDINATOR_NOT_AVAILABLE, member_id)
        if not group.supports_protocols(req.protocol_type, [n for n, _ in req.protocols]):
            return join_error(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, member_id)
        if group.is_pending_member(member_id):
            if req.group_instance_id is not None:
                # Kafka treats this as an illegal state; answer instead of failing.
                return join_error(ErrorCode.UNKNOWN_MEMBER_ID, member_id)
            return self._add_member_then_rebalance(group, req, member_id)
        error = group.validate_member(member_id, req.group_instance_id)
        if error:
            return join_error(error, member_id)
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
        return join_error(ErrorCode.UNKNOWN_MEMBER_ID, member_id)

    def _current_join_response(
        self, group: ClassicGroup, member_id: str, *, with_members: bool, skip_assignment: bool = False
    ) -> JoinGroupResponse:
        return JoinGroupResponse(
            error_code=ErrorCode.NONE,
            generation_id=group.generation,
            protocol_type=group.protocol_type,
            protocol_name=group.protocol_name,
            leader=group.leader_id or "",
            skip_assignment=skip_assignment,
            member_id=member_id,
            members=group.member_list() if with_members else [],
        )

    def _park_join(self, member: Member) -> int:
        """Give ``member`` a fresh JoinGroup token; a request it replaces is told to rejoin."""
        if member.join_token is not None:
            self._deliver(member.join_token, join_error(ErrorCode.REBALANCE_IN_PROGRESS, member.member_id))
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
        self._deliver(old.join_token, join_error(ErrorCode.FENCED_INSTANCE_ID, old_member_id))
        self._deliver(old.sync_token, sync_error(ErrorCode.FENCED_INSTANCE_ID))
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
                    response = self._current_join_response(
                        group, new_member_id, with_members=is_leader, skip_assignment=is_leader
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
                self._deliver(member.sync_token, sync_error(ErrorCode.UNKNOWN_MEMBER_ID))
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
                    self._deliver(removed.join_token, join_error(ErrorCode.UNKNOWN_MEMBER_ID))
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
        self._deliver(token, join_error(ErrorCode.UNKNOWN_MEMBER_ID))
        sync_token, member.sync_token = member.sync_token, None
        self._deliver(sync_token, sync_error(ErrorCode.UNKNOWN_MEMBER_ID))
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
            return sync_error(ErrorCode.INVALID_GROUP_ID)
        group = self.groups.get(group_id)
        if group is None or group.is_empty:
            return sync_error(ErrorCode.UNKNOWN_MEMBER_ID)
        if group.state is GroupState.DEAD:
            return sync_error(ErrorCode.COORDINATOR_NOT_AVAILABLE)
        error = group.validate_member(member_id, group_instance_id)
        if not error and generation_id != group.generation:
            error = ErrorCode.ILLEGAL_GENERATION
        if not error and (
            _protocol_inconsistent(protocol_type, group.protocol_type)
            or _protocol_inconsistent(protocol_name, group.protocol_name)
        ):
            error = ErrorCode.INCONSISTENT_GROUP_PROTOCOL
        if error:
            return sync_error(error)
        if group.state is GroupState.PREPARING_REBALANCE:
            return sync_error(ErrorCode.REBALANCE_IN_PROGRESS)
        member = group.members[member_id]
        if group.state is GroupState.COMPLETING_REBALANCE:
            if member.sync_token is not None:
                self._deliver(member.sync_token, sync_error(ErrorCode.REBALANCE_IN_PROGRESS))
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
        self._deliver(token, join_error(ErrorCode.UNKNOWN_MEMBER_ID))
        sync_token, member.sync_token = member.sync_token, None
        self._deliver(sync_token, sync_error(ErrorCode.UNKNOWN_MEMBER_ID))
        group.remove(member_id)

    # ================================================================== DescribeGroups / ListGroups

    # ================================================================== offsets support

    # ================================================================== DeleteGroups

    # ================================================================== replay


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
