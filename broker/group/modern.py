"""What the consumer (KIP-848) and streams (KIP-1071) group cores share.

Both follow the same pattern of Kafka 4.4's ``GroupMetadataManager``: state changes
only when records are replayed (:meth:`ModernGroups.replay_record`, one rule per
record type, checked complete), and two member timers fence a member that went
quiet: its session, and the rebalance timeout of a member that still has to give
up what it was asked to revoke. This module holds that machinery once:

* the groups by id and the replay of the records both kinds write alike: the group's
  epoch and metadata hash, the target epoch, the target of a member and the member's
  metadata with its static instance id (a kind adds what else its records hold);
* the member timers in the keyed timer queue the runtime gives the core
  (:mod:`broker.coordinator.timer`): each timer's task fences its member, or does
  nothing when the member moved on; :meth:`ModernGroups.tick` runs the due ones by
  hand (one group's timers in separate ticks, each seeing its predecessor's records
  replayed), :meth:`ModernGroups.on_loaded` restarts them after a load.

A subclass names its group and member classes, its replay rules and how it fences.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from broker.coordinator.result import CoordinatorResult
from broker.coordinator.timer import TimerQueue
from broker.protocol.errors import ErrorCode

__all__ = [
    "LEAVE_EPOCH",
    "STATIC_LEAVE_EPOCH",
    "HeartbeatRefused",
    "ModernGroup",
    "ModernGroups",
    "TimerTask",
    "assignment_epochs",
    "refuse_empty",
]

K = TypeVar("K")

# What a member timer runs: the records it writes, at ``now_ms``.
TimerTask = Callable[[int], CoordinatorResult[None]]

# A heartbeat's member epoch that leaves the group; a static member's that leaves for a
# restart (it keeps its assignment until its session ends or it rejoins).
LEAVE_EPOCH = -1
STATIC_LEAVE_EPOCH = -2


class HeartbeatRefused(Exception):
    """A protocol outcome: the heartbeat is answered with this error (and message)."""

    def __init__(self, code: ErrorCode, message: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def refuse_empty(name: str, value: str | None, *, null_ok: bool = False) -> None:
    """INVALID_REQUEST "``name`` can't be empty." for a blank ``value`` (or a null one,
    unless ``null_ok``): the field checks of a heartbeat, in Kafka's words."""
    if (value is None and not null_ok) or (value is not None and not value.strip()):
        raise HeartbeatRefused(ErrorCode.INVALID_REQUEST, f"{name} can't be empty.")


def assignment_epochs(
    entries: Iterable[tuple[K, Sequence[int], Sequence[int] | None]], member_epoch: int
) -> dict[K, dict[int, int]]:
    """Each partition's assignment epoch, by topic (or subtopology), from the entries of a
    current-assignment record: (topic, partitions, their epochs)."""
    out: dict[K, dict[int, int]] = {}
    for owner, partitions, epochs in entries:
        if not epochs or len(epochs) != len(partitions):
            # Written before assignment epochs existed: the member epoch stands in.
            epochs = [member_epoch] * len(partitions)
        out.setdefault(owner, {}).update(zip(partitions, epochs))
    return out


class _MemberMeta(Protocol):
    instance_id: str | None
    rebalance_timeout_ms: int


class _Member(Protocol):
    member_id: str
    meta: Any

    @property
    def epoch(self) -> int: ...


class _Request(Protocol):
    group_id: str
    member_id: str
    member_epoch: int
    instance_id: str | None


class _Record(Protocol):
    """A kind's record (a frozen dataclass: its fields read-only)."""

    @property
    def type(self) -> Any: ...
    @property
    def group_id(self) -> str: ...
    @property
    def sub(self) -> str | None: ...
    @property
    def value(self) -> Any: ...


M = TypeVar("M", bound=_Member)
T = TypeVar("T")


@dataclass(slots=True)
class ModernGroup(Generic[M, T]):
    """What a group of either kind holds as replay builds it (``M``: its members,
    ``T``: a member's target assignment); a kind adds its own fields."""

    group_id: str
    epoch: int = 0
    metadata_hash: int = 0
    assignment_epoch: int = -1
    assignment_timestamp_ms: int = -1
    members: dict[str, M] = field(default_factory=dict)
    target: dict[str, T] = field(default_factory=dict)
    static: dict[str, str] = field(default_factory=dict)  # instance id -> member id


G = TypeVar("G", bound=ModernGroup[Any, Any])
Req = TypeVar("Req", bound=_Request)
Resp = TypeVar("Resp")


class ModernGroups(Generic[G, M, Req, Resp]):
    """The groups of one kind in one shard: the heartbeat's frame, replay rules, member
    timers (``Req`` and ``Resp``: the kind's heartbeat request and answer)."""

    GROUP_TYPE: ClassVar[str]
    # What a member's assignment is of, in the words of its errors: "partitions", "tasks".
    OWNS: ClassVar[str]
    # Timer kinds a member may have; all go when the member does.
    MEMBER_TIMERS: ClassVar[tuple[str, ...]] = ("session", "rebalance")

    def __init__(
        self,
        new_group: Callable[[str], G],
        new_member: Callable[[str], M],
        record_types: Any,
        timer: TimerQueue[TimerTask] | None = None,
    ) -> None:
        """``new_group``, ``new_member``: the kind's group and member classes;
        ``record_types``: the enum of its record types."""
        self.groups: dict[str, G] = {}
        self._new_group = new_group
        self._new_member = new_member
        self._timers: TimerQueue[TimerTask] = timer if timer is not None else TimerQueue()
        # (group, member) -> the member epoch its rebalance timer was armed at
        self._rebalance_epoch: dict[tuple[str, str], int] = {}
        self._apply: dict[Any, Callable[[Any], None]] = {
            record_types.GROUP: self._apply_group,
            record_types.MEMBER: self._apply_member,
            record_types.TARGET_EPOCH: self._apply_target_epoch,
            record_types.TARGET_MEMBER: self._apply_target_member,
            record_types.CURRENT: self._apply_current,
            **self._replay_rules(),
        }
        assert set(self._apply) == set(record_types), "every record type needs a replay rule"

    # ============================================================ what a kind defines

    def _replay_rules(self) -> dict[Any, Callable[[Any], None]]:
        """The replay rules of the record types only this kind writes."""
        raise NotImplementedError

    def _apply_current(self, r: Any) -> None:
        """Replay a member's current assignment (a tombstone: none)."""
        raise NotImplementedError

    def _session_timeout(self, group_id: str, meta: Any) -> int:
        """The session timeout of a member with metadata ``meta`` (None: not known)."""
        raise NotImplementedError

    def _is_revoking(self, member: M) -> bool:
        raise NotImplementedError

    def _fence(self, group: G, member: M, now_ms: int) -> list[Any]:
        """The records that remove ``member`` (leave, session expiry, rebalance timeout)."""
        raise NotImplementedError

    def _member_removed(self, group: G, member_id: str, old: M | None) -> None:
        """Replay hook: ``member_id`` left ``group`` (``old``: what it was, if it was there)."""

    def _meta_changing(self, group: G, member: M, meta: Any) -> None:
        """Replay hook: ``member``'s metadata becomes ``meta``."""

    def _empty_group_tombstones(self, group: G) -> list[Any]:
        """The records that delete ``group``, which has no members (DeleteGroups)."""
        raise NotImplementedError

    # ============================================================ registry

    def group_type(self, group_id: str) -> str | None:
        return self.GROUP_TYPE if group_id in self.groups else None

    def group_ids(self) -> list[str]:
        return list(self.groups)

    def list_groups(self) -> list[tuple[str, str]]:
        """(group id, state) of every group."""
        return [(g.group_id, g.state) for g in self.groups.values()]  # type: ignore[attr-defined]

    def delete_group(self, group_id: str) -> CoordinatorResult[ErrorCode]:
        """DeleteGroups: only an Empty group may go (its offsets are the caller's)."""
        group = self.groups.get(group_id)
        if group is None:
            return CoordinatorResult([], ErrorCode.GROUP_ID_NOT_FOUND)
        if group.members:
            return CoordinatorResult([], ErrorCode.NON_EMPTY_GROUP)
        return CoordinatorResult(self._empty_group_tombstones(group), ErrorCode.NONE)

    def validate_offset_fetch(self, group_id: str, member_id: str | None, member_epoch: int) -> ErrorCode:
        """The error of an OffsetFetch from ``member_id`` at ``member_epoch``: none for a
        group this kind does not hold or a fetch that names no member, UNKNOWN_MEMBER_ID
        for a member the group does not have, else what :meth:`_fetch_epoch_error` says."""
        group = self.groups.get(group_id)
        if group is None or (member_id is None and member_epoch < 0):
            return ErrorCode.NONE
        member: M | None = group.members.get(member_id or "")
        if member is None:
            return ErrorCode.UNKNOWN_MEMBER_ID
        return self._fetch_epoch_error(member, member_epoch)

    def _fetch_epoch_error(self, member: M, member_epoch: int) -> ErrorCode:
        """The error of an OffsetFetch by ``member`` at ``member_epoch``."""
        return ErrorCode.NONE if member_epoch == member.epoch else ErrorCode.STALE_MEMBER_EPOCH

    # ============================================================ heartbeat

    def _validate(self, r: Req, api_version: int) -> None:
        """Raise :class:`HeartbeatRefused` for a malformed heartbeat."""
        raise NotImplementedError

    def _group_or_fail(self, group_id: str) -> G:
        """The kind's group ``group_id``; GROUP_ID_NOT_FOUND when there is none."""
        raise NotImplementedError

    def _heartbeat(
        self, r: Req, now_ms: int, api_version: int, client_id: str, client_host: str
    ) -> CoordinatorResult[Resp]:
        """A join or a heartbeat of a member (the request is valid)."""
        raise NotImplementedError

    def _refused(self, fail: HeartbeatRefused) -> Resp:
        """The answer to a refused heartbeat."""
        raise NotImplementedError

    def _missed_answer(self, member: M, received: int, owned: Any) -> bool:
        """Whether a heartbeat at an older epoch ``received`` comes from ``member`` having
        missed the answer that moved it on: it is the member's previous epoch, and what the
        member reports owning (``owned``; None: not reported) is all assigned to it."""
        raise NotImplementedError

    def _left(self, r: Req) -> Resp:
        """The answer to a member that left (its member id and leave epoch)."""
        raise NotImplementedError

    def _static_leave(self, group: G, member: M) -> Any:
        """The record of a static member leaving for a restart: its assignment kept, its
        epoch -2."""
        raise NotImplementedError

    def heartbeat(
        self,
        request: Req,
        *,
        now_ms: int,
        api_version: int = 1,
        client_id: str = "",
        client_host: str = "",
    ) -> CoordinatorResult[Resp]:
        """A member joins, heartbeats or leaves (epoch -1, or -2 for a static member)."""
        try:
            self._validate(request, api_version)
            if request.member_epoch in (LEAVE_EPOCH, STATIC_LEAVE_EPOCH):
                return self._leave(request, now_ms)
            return self._heartbeat(request, now_ms, api_version, client_id, client_host)
        except HeartbeatRefused as fail:
            return CoordinatorResult([], self._refused(fail))

    def _leave(self, r: Req, now_ms: int) -> CoordinatorResult[Resp]:
        """A member leaves: fenced (epoch -1), or a static member keeps its assignment
        until its session ends or it comes back (epoch -2)."""
        group = self._group_or_fail(r.group_id)
        if r.instance_id is None:
            member: M | None = group.members.get(r.member_id)
            if member is None:
                raise HeartbeatRefused(
                    ErrorCode.UNKNOWN_MEMBER_ID, f"Member {r.member_id} is not a member of group {group.group_id}."
                )
        else:
            member = self._static_holder(group, r)
        if r.member_epoch == STATIC_LEAVE_EPOCH:
            self._disarm_rebalance(group.group_id, member.member_id)
            return CoordinatorResult([self._static_leave(group, member)], self._left(r))
        return CoordinatorResult(self._fence(group, member, now_ms), self._left(r))

    def _check_epoch(self, member: M, received: int, owned: Any) -> None:
        """Kafka's epoch check of a heartbeat from a known member, whose assignment is of
        ``OWNS`` (partitions, tasks): FENCED_MEMBER_EPOCH for an epoch greater than the
        coordinator's, or smaller unless the member missed the answer that moved it on."""
        current = member.epoch
        if received > current:
            raise HeartbeatRefused(
                ErrorCode.FENCED_MEMBER_EPOCH,
                f"The {self.GROUP_TYPE} group member has a greater member epoch ({received}) than the one known "
                f"by the group coordinator ({current}). The member must abandon all its {self.OWNS} and rejoin.",
            )
        if received < current and not self._missed_answer(member, received, owned):
            raise HeartbeatRefused(
                ErrorCode.FENCED_MEMBER_EPOCH,
                f"The {self.GROUP_TYPE} group member has a smaller member epoch ({received}) than the one known "
                f"by the group coordinator ({current}). The member must abandon all its {self.OWNS} and rejoin.",
            )

    def _static_holder(self, group: G, r: Req) -> M:
        """The member holding the request's instance id, which must be the requester:
        UNKNOWN_MEMBER_ID for an instance id nobody holds, FENCED_INSTANCE_ID for one
        another member holds."""
        assert r.instance_id is not None
        holder_id = group.static.get(r.instance_id)
        holder: M | None = group.members.get(holder_id) if holder_id is not None else None
        if holder is None:
            raise HeartbeatRefused(ErrorCode.UNKNOWN_MEMBER_ID, f"Instance id {r.instance_id} is unknown.")
        if holder.member_id != r.member_id:
            raise HeartbeatRefused(
                ErrorCode.FENCED_INSTANCE_ID,
                f"Static member {r.member_id} with instance id {r.instance_id} was fenced by member "
                f"{holder.member_id}.",
            )
        return holder

    # ============================================================ replay

    def replay_record(self, record: Any) -> None:
        """Apply one record (an operation's output, or one read back at load)."""
        self._apply[record.type](record)

    def _group_for(self, group_id: str) -> G:
        group = self.groups.get(group_id)
        if group is None:
            group = self.groups[group_id] = self._new_group(group_id)
        return group

    def _member_for(self, group: G, member_id: str) -> M:
        member: M | None = group.members.get(member_id)
        if member is None:
            member = group.members[member_id] = self._new_member(member_id)
        return member

    def _drop_group(self, group_id: str) -> G | None:
        """A group tombstone: the group and its members' timers go."""
        group = self.groups.pop(group_id, None)
        for member_id in group.members if group is not None else ():
            self._cancel_member_timers(group_id, member_id)
        return group

    def _apply_group(self, r: _Record) -> None:
        """The group epoch and the hash of the subscribed topics' metadata (a tombstone:
        the group goes)."""
        if r.value is None:
            self._drop_group(r.group_id)
            return
        group = self._group_for(r.group_id)
        group.epoch = r.value.epoch
        group.metadata_hash = r.value.metadata_hash

    def _apply_member(self, r: _Record) -> None:
        """The member's metadata (static instance ids indexed), or its removal."""
        assert r.sub is not None
        if r.value is None:
            group = self.groups.get(r.group_id)
            if group is None:
                return
            old: M | None = group.members.pop(r.sub, None)
            if old is not None and old.meta.instance_id is not None and group.static.get(old.meta.instance_id) == r.sub:
                del group.static[old.meta.instance_id]
            self._member_removed(group, r.sub, old)
            self._cancel_member_timers(r.group_id, r.sub)
            return
        group = self._group_for(r.group_id)
        member = self._member_for(group, r.sub)
        if member.meta.instance_id is not None and group.static.get(member.meta.instance_id) == r.sub:
            del group.static[member.meta.instance_id]
        self._meta_changing(group, member, r.value)
        member.meta = r.value
        if r.value.instance_id is not None:
            group.static[r.value.instance_id] = r.sub

    def _apply_target_epoch(self, r: _Record) -> None:
        """The epoch the target assignment was computed for, and when (a tombstone: none)."""
        if r.value is None:
            group = self.groups.get(r.group_id)
            if group is not None:
                group.assignment_epoch = -1
            return
        group = self._group_for(r.group_id)
        group.assignment_epoch = r.value.epoch
        group.assignment_timestamp_ms = r.value.timestamp_ms

    def _apply_target_member(self, r: _Record) -> None:
        """One member's target assignment (a tombstone: none)."""
        self._apply_entry(r, lambda group: group.target, self._target_of)

    def _apply_entry(self, r: _Record, entries: Callable[[G], dict[str, Any]], convert: Callable[[Any], Any]) -> None:
        """A record of one entry (keyed by ``r.sub``) in one of the group's maps: its
        value, converted, or a tombstone that drops it."""
        assert r.sub is not None
        if r.value is None:
            group = self.groups.get(r.group_id)
            if group is not None:
                entries(group).pop(r.sub, None)
            return
        entries(self._group_for(r.group_id))[r.sub] = convert(r.value)

    def _target_of(self, value: Any) -> Any:
        return value

    # ============================================================ member timers

    def _arm(self, key: tuple[Hashable, ...], deadline_ms: int) -> None:
        self._timers.schedule(key, deadline_ms, partial(self._fire, key))

    def _armed(self, key: tuple[Hashable, ...]) -> bool:
        return key in self._timers

    def _disarm(self, key: tuple[Hashable, ...]) -> None:
        self._timers.cancel(key)

    def _arm_session(self, group_id: str, member_id: str, now_ms: int, meta: Any = None) -> None:
        """The member's session restarts at ``now_ms`` (``meta``: its metadata, when not replayed yet)."""
        if meta is None:
            group = self.groups.get(group_id)
            member = group.members.get(member_id) if group is not None else None
            meta = member.meta if member is not None else None
        self._arm(("session", group_id, member_id), now_ms + self._session_timeout(group_id, meta))

    def _arm_rebalance(self, group_id: str, member_id: str, epoch: int, deadline_ms: int) -> None:
        """The member at ``epoch`` must have revoked what it was asked to by ``deadline_ms``."""
        self._arm(("rebalance", group_id, member_id), deadline_ms)
        self._rebalance_epoch[group_id, member_id] = epoch

    def _rebalance_armed_at(self, group_id: str, member_id: str) -> int | None:
        """The member epoch the member's rebalance timer runs for, if one runs."""
        if not self._armed(("rebalance", group_id, member_id)):
            return None
        return self._rebalance_epoch.get((group_id, member_id))

    def _disarm_rebalance(self, group_id: str, member_id: str) -> None:
        self._disarm(("rebalance", group_id, member_id))
        self._rebalance_epoch.pop((group_id, member_id), None)

    def _cancel_member_timers(self, group_id: str, member_id: str) -> None:
        for kind in self.MEMBER_TIMERS:
            self._disarm((kind, group_id, member_id))
        self._rebalance_epoch.pop((group_id, member_id), None)

    def next_deadline_ms(self) -> int | None:
        return self._timers.next_deadline_ms()

    def on_loaded(self, now_ms: int) -> None:
        """After a load: every member's session starts now; revoking members get their rebalance timer."""
        for group in self.groups.values():
            for member in group.members.values():
                self._arm_session(group.group_id, member.member_id, now_ms, member.meta)
                if self._is_revoking(member):
                    timeout = max(member.meta.rebalance_timeout_ms, 0)
                    self._arm_rebalance(group.group_id, member.member_id, member.epoch, now_ms + timeout)

    def _fire(self, key: tuple[Hashable, ...], now_ms: int) -> CoordinatorResult[None]:
        """A timer's task (the runtime runs it when due): the records of what it did."""
        group = self.groups.get(str(key[1]))
        records = self._run_timer(group, key, now_ms) if group is not None else []
        return CoordinatorResult(records)

    def _run_timer(self, group: G, key: tuple[Hashable, ...], now_ms: int) -> list[Any]:
        kind, _, member_id = key[:3]
        member: M | None = group.members.get(str(member_id))
        if member is None:
            return []
        if kind == "rebalance":
            expected = self._rebalance_epoch.pop((group.group_id, str(member_id)), None)
            if not self._is_revoking(member) or member.epoch != expected:
                return []
        # Session and rebalance timeouts (and a kind's own member timers) fence.
        return self._fence(group, member, now_ms)

    def tick(self, now_ms: int) -> CoordinatorResult[None]:
        """Run the due timers by hand (with a runtime, its timer runs each as it comes due).

        Timers of one group run in separate ticks, each seeing the state its
        predecessor's records produced once replayed: call again while
        :meth:`next_deadline_ms` is due.
        """
        result: CoordinatorResult[None] = CoordinatorResult()
        touched: set[str] = set()
        deferred: list[tuple[Hashable, int, TimerTask]] = []
        while (deadline := self._timers.next_deadline_ms()) is not None and deadline <= now_ms:
            due = self._timers.pop_due(now_ms)
            assert due is not None
            key, task = due
            assert isinstance(key, tuple)
            group_id = str(key[1])
            if group_id in touched:
                deferred.append((key, deadline, task))
                continue
            records = task(now_ms).records
            if records:
                touched.add(group_id)
                result.records.extend(records)
        for key, deadline, task in deferred:
            self._timers.schedule(key, deadline, task)
        return result
