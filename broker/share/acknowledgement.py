"""Acknowledgement of a SharePartition: consumers' acknowledgements, released members,
expired locks, and the deltas they make.

:class:`ShareAcknowledgement` is part of :class:`broker.share.partition.SharePartition`
(a mixin, split out at this seam for size). Each operation plans its state changes
(every one looked up in ``TRANSITIONS``) before changing anything, then ``_apply``
carries them out in memory and returns the :class:`~broker.share.inflight.Delta` the
caller persists (see the partition's module docstring, "Durability").
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Sequence
from itertools import groupby

from broker.protocol.errors import ErrorCode
from broker.share.inflight import (
    DEFAULT_DELIVERY_COUNT_LIMIT,
    AckResult,
    DeadLetterReason,
    Delta,
    ExpireResult,
    Run,
    StateBatch,
    coalesce,
    view_of,
)
from broker.share.states import ACK_EVENTS, FINAL_STATES, TRANSITIONS, Action, Event, RecordState, View

__all__ = ["ShareAcknowledgement"]

_AVAILABLE = RecordState.AVAILABLE
_ACQUIRED = RecordState.ACQUIRED
_ARCHIVING = RecordState.ARCHIVING
_ARCHIVED = RecordState.ARCHIVED
_NONE = int(ErrorCode.NONE)
_INVALID_REQUEST = int(ErrorCode.INVALID_REQUEST)
_ACTION_STATE = {Action.ACKNOWLEDGE: RecordState.ACKNOWLEDGED, Action.ARCHIVE: _ARCHIVED}


class ShareAcknowledgement:
    """The acknowledgement half of SharePartition (which provides these attributes and methods)."""

    _runs: list[Run]
    _starts: list[int]
    _spso: int
    _speo: int
    _avail_hint: int
    _dropped_below: int
    _locks: list[tuple[int, int]]
    _backoffs: list[tuple[int, int]]
    _outstanding: dict[int, Delta]
    _next_delta_id: int
    _lock_duration_ms: int
    _index_of: Callable[[int], int]
    _isolate: Callable[[int, int], tuple[int, int]]
    _maybe_compact_locks: Callable[[], None]

    def acknowledge(
        self,
        member_id: str,
        batches: Sequence[tuple[int, int, Sequence[int]]],
        now_ms: int,
        delivery_count_limit: int = DEFAULT_DELIVERY_COUNT_LIMIT,
        *,
        lock_duration_ms: int | None = None,
        dead_letter: bool = False,
        redelivery_delay: Callable[[int], int] | None = None,
    ) -> AckResult:
        """Apply one partition's acknowledgement batches, all or nothing.

        Each batch is (first offset, last offset, acknowledge types): one type for
        the whole range or one per offset. Errors, checked before anything changes:
        INVALID_REQUEST for a malformed batch (first > last, a types list neither
        1 nor last-first+1 long, an unknown type, overlapping batches) or one that
        reaches SPEO or beyond (never delivered); INVALID_RECORD_STATE for an
        offset the member does not hold (see ``TRANSITIONS``). Offsets below SPSO
        are final and held by nobody: they count as ARCHIVED, so a Gap there is a
        no-op and any other type is INVALID_RECORD_STATE (a member whose lock ran
        out and whose records another member then settled must not be told its
        late Accept or Reject took effect). Offsets below the log start offset are
        skipped: the log dropped them, perhaps from under the member's lock.

        Renew restarts the lock for ``lock_duration_ms`` (default: the duration of
        the latest acquisition) and is not persisted. A lock whose deadline has
        passed but which ``expire_locks`` has not processed yet still counts.
        ``dead_letter`` and ``redelivery_delay`` are as for ``_apply``.
        """
        reqs = self._parse_acks(batches)
        if reqs is None:
            return AckResult(_INVALID_REQUEST, None)
        plan = self._plan_acks(member_id, reqs)
        if isinstance(plan, int):
            return AckResult(plan, None)
        dur = self._lock_duration_ms if lock_duration_ms is None else lock_duration_ms
        delta, _ = self._apply(
            plan, now_ms, delivery_count_limit, dur, dead_letter=dead_letter, redelivery_delay=redelivery_delay
        )
        return AckResult(_NONE, delta)

    def _parse_acks(
        self, batches: Sequence[tuple[int, int, Sequence[int]]]
    ) -> list[tuple[int, int, Sequence[int]]] | None:
        """The acknowledgement batches sorted, neighbours of one type joined; None if one is
        malformed, they overlap, or one reaches SPEO (INVALID_REQUEST)."""
        reqs: list[tuple[int, int, Sequence[int]]] = []
        for first, last, types in batches:
            if first < 0 or first > last:
                return None
            if len(types) != 1 and len(types) != last - first + 1:
                return None
            if any(t not in ACK_EVENTS for t in set(types)):
                return None
            reqs.append((first, last, types))
        reqs.sort(key=lambda r: r[0])
        joined: list[tuple[int, int, Sequence[int]]] = []
        for req in reqs:
            if joined:
                prev = joined[-1]
                if req[0] <= prev[1]:
                    return None
                # Explicit-mode clients send one batch per record: join neighbours
                # with one and the same type, so a whole run is still one step.
                if req[0] == prev[1] + 1 and len(req[2]) == 1 and len(prev[2]) == 1 and req[2][0] == prev[2][0]:
                    joined[-1] = (prev[0], req[1], prev[2])
                    continue
            joined.append(req)
        reqs = joined
        if reqs and reqs[-1][1] >= self._speo:
            return None
        return reqs

    def _plan_acks(
        self, member_id: str, reqs: list[tuple[int, int, Sequence[int]]]
    ) -> list[tuple[int, int, Action]] | int:
        """The (first, last, action) steps of the acknowledgements ``reqs``, or the error code
        of the first that ``TRANSITIONS`` refuses (nothing has changed yet)."""
        runs = self._runs
        plan: list[tuple[int, int, Action]] = []
        for first, last, types in reqs:
            settled_from = max(first, self._dropped_below)
            if settled_from <= last and settled_from < self._spso:
                if len(types) == 1:
                    below = types
                else:
                    below = types[settled_from - first : min(last, self._spso - 1) - first + 1]
                for t in set(below):
                    outcome = TRANSITIONS[(View.ARCHIVED, ACK_EVENTS[t])]
                    if outcome.error:
                        return outcome.error
            lo = max(first, self._spso)
            if lo > last:
                continue
            single = len(types) == 1 or types.count(types[0]) == len(types)
            i = self._index_of(lo)
            while i < len(runs) and runs[i].first <= last:
                run = runs[i]
                a, b = max(run.first, lo), min(run.last, last)
                view = view_of(run, member_id)
                if single:
                    groups: Iterable[tuple[int, int, int]] = ((types[0], a, b),)
                else:
                    groups = type_groups(types, first, a, b)
                for t, ga, gb in groups:
                    outcome = TRANSITIONS[(view, ACK_EVENTS[t])]
                    if outcome.error:
                        return outcome.error
                    if outcome.action != Action.KEEP:
                        plan.append((ga, gb, outcome.action))
                i += 1
        return plan

    def release_member(
        self,
        member_id: str,
        now_ms: int,
        delivery_count_limit: int = DEFAULT_DELIVERY_COUNT_LIMIT,
        *,
        dead_letter: bool = False,
        redelivery_delay: Callable[[int], int] | None = None,
    ) -> Delta | None:
        """Release every record ``member_id`` holds (session closed, member left, connection lost).

        Released records become AVAILABLE again (after the redelivery delay, if
        any), or archived once their delivery count reached the limit. O(runs in
        the window).
        """
        held = [run for run in self._runs if run.state == _ACQUIRED]
        delta, _ = self._release(
            held, member_id, Event.RELEASE_MEMBER, now_ms, delivery_count_limit, dead_letter, redelivery_delay
        )
        return delta

    def expire_locks(
        self,
        now_ms: int,
        delivery_count_limit: int = DEFAULT_DELIVERY_COUNT_LIMIT,
        *,
        dead_letter: bool = False,
        redelivery_delay: Callable[[int], int] | None = None,
    ) -> ExpireResult:
        """Release every record whose lock deadline is at or before ``now_ms``.

        ``available`` says whether a record became AVAILABLE (rather than archived
        at the delivery limit), so the caller can wake fetches waiting for records.
        """
        locks = self._locks
        expired: dict[int, Run] = {}
        while locks and locks[0][0] <= now_ms:
            deadline, offset = heapq.heappop(locks)
            i = self._index_of(offset)
            if i < 0:
                continue
            run = self._runs[i]
            if run.state != _ACQUIRED or run.deadline != deadline or run.first in expired:
                continue
            expired[run.first] = run
        runs = [expired[first] for first in sorted(expired)]
        delta, available = self._release(
            runs, None, Event.LOCK_EXPIRY, now_ms, delivery_count_limit, dead_letter, redelivery_delay
        )
        return ExpireResult(delta, available)

    def _release(
        self,
        runs: list[Run],
        member_id: str | None,
        event: Event,
        now_ms: int,
        delivery_count_limit: int,
        dead_letter: bool,
        redelivery_delay: Callable[[int], int] | None,
    ) -> tuple[Delta | None, bool]:
        """Apply a release ``event`` to acquired ``runs`` (in offset order), each seen
        by ``member_id`` (None: by the member holding it); see :meth:`_apply`."""
        plan: list[tuple[int, int, Action]] = []
        for run in runs:
            action = TRANSITIONS[(view_of(run, run.member if member_id is None else member_id), event)].action
            if action != Action.KEEP:
                plan.append((run.first, run.last, action))
        return self._apply(
            plan,
            now_ms,
            delivery_count_limit,
            self._lock_duration_ms,
            dead_letter=dead_letter,
            redelivery_delay=redelivery_delay,
        )

    def _apply(
        self,
        plan: list[tuple[int, int, Action]],
        now_ms: int,
        limit: int,
        lock_ms: int,
        *,
        dead_letter: bool = False,
        redelivery_delay: Callable[[int], int] | None = None,
    ) -> tuple[Delta | None, bool]:
        """Carry out planned (first, last, action) steps, sorted by offset; build the delta.

        ``dead_letter``: the group has a dead-letter topic, so records archived by a
        reject or the delivery limit go to ARCHIVING. ``redelivery_delay(count)``: how
        long a released record whose ``count``-th delivery failed waits (the backoff
        extension; None or 0: offered again at once).
        """
        delta_id = self._next_delta_id
        runs = self._runs
        changes: list[StateBatch] = []
        undo: list[tuple[int, int, int, str | None, int, RecordState]] = []
        available = False
        archived = _ARCHIVING if dead_letter else _ARCHIVED
        for a, b, action in plan:
            lo, hi = self._isolate(a, b)
            for j in range(lo, hi):
                run = runs[j]
                if action == Action.RENEW:
                    run.deadline = now_ms + lock_ms
                    heapq.heappush(self._locks, (run.deadline, run.first))
                    continue
                undo.append((run.first, run.last, run.count, run.member, run.deadline, run.state))
                if action == Action.RELEASE:
                    state = archived if run.count >= limit else _AVAILABLE
                    run.reason = DeadLetterReason.DELIVERY_LIMIT
                elif action == Action.REJECT:
                    state = archived
                    run.reason = DeadLetterReason.REJECTED
                else:
                    state = _ACTION_STATE[action]
                run.state = state
                run.member = None
                run.deadline = -1
                run.pending = delta_id
                if state == _AVAILABLE:
                    available = True
                    delay = redelivery_delay(run.count) if redelivery_delay is not None else 0
                    if delay > 0:
                        # now_ms is whole milliseconds, up to 1 ms behind the release: never early
                        run.not_before = now_ms + delay + 1
                        heapq.heappush(self._backoffs, (run.not_before, run.first))
                    if run.first < self._avail_hint:
                        self._avail_hint = run.first
                changes.append(StateBatch(run.first, run.last, int(state), run.count))
        self._maybe_compact_locks()
        if not changes:
            return None, False
        self._next_delta_id += 1
        delta = Delta(delta_id, self._delta_start(delta_id), coalesce(changes), tuple(undo))
        self._outstanding[delta_id] = delta
        return delta, available

    def _delta_start(self, delta_id: int) -> int:
        """First offset not final, counting only durable finality and this delta's."""
        for run in self._runs:
            if run.state in FINAL_STATES and (run.pending == 0 or run.pending == delta_id):
                continue
            return run.first
        return self._speo


def type_groups(types: Sequence[int], base: int, a: int, b: int) -> Iterable[tuple[int, int, int]]:
    """(type, first, last) for each stretch of equal per-offset types within [a, b]."""
    pos = a
    for t, grp in groupby(types[a - base : b - base + 1]):
        n = sum(1 for _ in grp)
        yield t, pos, pos + n - 1
        pos += n
