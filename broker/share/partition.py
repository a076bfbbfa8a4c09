"""The share-partition state machine (KIP-932): one per (share group, topic-partition).

Pure logic. No I/O, no trio, no wall clock: time arrives as ``now_ms`` arguments,
the log is read through the small ``ShareLog`` protocol, and durable state is
written by the caller.

The model
---------
Offsets of the partition fall in three stretches::

    ... archived ... | SPSO ...... in-flight window ...... SPEO | ... not yet read ...

* below the share-partition start offset (SPSO) every record is final (archived,
  or acknowledged: for a consumer there is no difference any more);
* ``[SPSO, SPEO)`` is the in-flight window: records handed out at least once,
  or known to the share partition some other way (restored state, holes in
  the log);
* from SPEO on, records are available but have not been read yet.

The window is a sorted list of **runs**: maximal stretches of consecutive
offsets sharing one state, delivery count, lock holder and lock deadline. A run
is created per acquisition (one per ``batch_size`` worth of whole log batches),
so a 500-record batch acquired and accepted whole is one run from start to end.
A run is split only where acknowledgements (or a partial re-acquisition, or a
renewed lock) diverge inside it: accepting 0-2, releasing 3 and accepting 4 of a
0-4 run leaves runs 0-2, 3 and 4. A run of one offset is per-offset state; there
is no separate per-offset map, so a range that is treated alike costs one object
however many records it holds. Finished runs of the same state are merged back.

Runs are found with ``bisect`` over their first offsets, so every operation
costs O(log runs + runs touched) and never loops over the records of a run.

Record states and what moves them are in ``broker.share.states``; every state
change here is looked up in ``TRANSITIONS``.

Durability
----------
Operations that change durable state (acknowledge, release_member, expire_locks)
apply the change in memory at once, mark the runs they changed as *pending*, and
return a ``Delta``: the state batches to write and the start offset to write.
The caller writes it (WriteShareGroupState / ShareUpdate) and then calls
``on_persisted(delta)``, or ``rollback(delta)`` when the write failed. Rules:

* ACQUIRED is never persisted. A rollback puts the records back into the lock
  they had; after a crash they come back as they were last written.
* SPSO moves past a final run only once its finality is durable (the delta was
  confirmed) or derived from the log (control batches, aborted transactions,
  holes between batches, records below the log start offset: a restarted broker
  derives those again).
* ``Delta.start_offset`` is a lower bound: it only counts records final durably or
  in that delta, so a delta written after an earlier one that fails never claims
  the failed one's records. The share coordinator keeps the largest start offset
  it has seen (KIP-932: StartOffset never goes backwards).
* Deltas of one partition must be written in the order they were returned (one
  writer per partition does that naturally); a later delta may rewrite the
  same offsets (release, then accept after redelivery).
* A released record may be redelivered before its release is confirmed. If the
  release is then rolled back, the new delivery stands (ACQUIRED is not durable
  anyway); only records still waiting on that delta go back into the old lock.
"""

from __future__ import annotations

import heapq
from bisect import bisect_left, bisect_right
from collections.abc import Iterable

from broker.share.acknowledgement import ShareAcknowledgement
from broker.share.inflight import (
    DEFAULT_DELIVERY_COUNT_LIMIT,
    DEFAULT_LOCK_DURATION_MS,
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_IN_FLIGHT,
    MIN_THROTTLE_DELIVERY_COUNT,
    UNLIMITED_BYTES,
    UNLIMITED_RECORDS,
    AcquiredRange,
    DeadLetter,
    DeadLetterReason,
    Delta,
    PersistedState,
    RecordView,
    Run,
    RunView,
    ShareLog,
    Take,
    held_run,
    lowest,
    view_of,
)
from broker.share.key_order import KeyOrder
from broker.share.states import (
    FINAL_STATES,
    TRANSITIONS,
    AcquireMode,
    Action,
    Event,
    IsolationLevel,
    RecordState,
    View,
)

__all__ = ["SharePartition"]

# Stale lock-timer entries are dropped lazily; the heap is rebuilt once it holds
# more than twice as many entries as there are runs plus this slack, which keeps
# it O(window) however many acquisitions were acknowledged before their timers.
_LOCK_HEAP_SLACK = 64

_AVAILABLE = RecordState.AVAILABLE
_ACQUIRED = RecordState.ACQUIRED
_ARCHIVING = RecordState.ARCHIVING
_ARCHIVED = RecordState.ARCHIVED
_PERSISTED_STATES = {int(s): s for s in (_AVAILABLE, RecordState.ACKNOWLEDGED, _ARCHIVING, _ARCHIVED)}


class SharePartition(ShareAcknowledgement):
    """In-flight record state of one share-partition. See the module docstring.

    Build with ``SharePartition.initialize``. Not thread-safe; one owner task.
    """

    def __init__(self, log: ShareLog, start_offset: int) -> None:
        self._log = log
        self._spso = start_offset
        self._speo = start_offset  # exclusive: the next offset to read from the log
        self._starts: list[int] = []  # first offset of each run, for bisect
        self._runs: list[Run] = []  # contiguous, covering [SPSO, SPEO) exactly
        self._avail_hint = start_offset  # no AVAILABLE run starts below this offset
        self._dropped_below = log.log_start_offset  # the log dropped what is below this
        self._locks: list[tuple[int, int]] = []  # heap of (lock deadline, offset inside the run)
        self._outstanding: dict[int, Delta] = {}
        self._next_delta_id = 1
        self._lock_duration_ms = DEFAULT_LOCK_DURATION_MS
        self._reads_left = 0
        # KIP-1191: ARCHIVING stretches whose dead-letter copy the caller has not taken yet.
        self._dead_letters: list[DeadLetter] = []
        # Redelivery backoff (extension): heap of (not_before, offset inside the run).
        self._backoffs: list[tuple[int, int]] = []
        # Per-key ordering (extension): the keys of the window's unsettled records, or None.
        self._order: KeyOrder | None = None
        # (SPSO, max_in_flight, high watermark) -> the window's end, for _window_end.
        self._window: tuple[int, int, int, int] = (-1, -1, -1, 0)

    # ------------------------------------------------------------ construction

    @classmethod
    def initialize(
        cls,
        state: PersistedState | None,
        log: ShareLog,
        auto_offset_reset: str | tuple[str, int] = "latest",
        now_ms: int = 0,
    ) -> SharePartition:
        """A share partition from its persisted state, or from ``share.auto.offset.reset``.

        Without persisted state (None, or start offset -1) the start is the high
        watermark (``"latest"``), the log start offset (``"earliest"``) or, for
        ``("by_duration", ms)``, the first record stamped at or after
        ``now_ms - ms`` (the high watermark when there is none).

        With persisted state, records come back as last written: AVAILABLE with
        the persisted delivery count (ACQUIRED is never written), ACKNOWLEDGED,
        ARCHIVING, ARCHIVED. Offsets between state batches were never written, so
        they come back as never delivered. Everything below the log start is
        archived. ARCHIVING records are waiting for their dead-letter copy again
        (:meth:`take_dead_letters`): a crash between the two writes loses none.
        """
        log_start = log.log_start_offset
        if state is None or state.start_offset < 0:
            return cls(log, max(_reset_offset(log, auto_offset_reset, now_ms), log_start))
        start = max(state.start_offset, log_start)
        sp = cls(log, start)
        pos = start
        for sb in sorted(state.batches, key=lambda b: b.first_offset):
            if sb.first_offset > sb.last_offset or sb.delivery_count < 0:
                raise ValueError(f"malformed state batch {sb}")
            if sb.delivery_state not in _PERSISTED_STATES and sb.delivery_state != _ACQUIRED:
                raise ValueError(f"unknown delivery state {sb.delivery_state} in {sb}")
            if sb.last_offset < start:
                continue
            first = max(sb.first_offset, start)
            if first < pos:
                raise ValueError(f"overlapping state batches at offset {first}")
            if first > pos:
                sp._append(Run(pos, first - 1, _AVAILABLE, 0))
            # ACQUIRED is never written; read one defensively as its previous delivery.
            rec_state = _PERSISTED_STATES.get(sb.delivery_state, _AVAILABLE)
            sp._append(Run(first, sb.last_offset, rec_state, sb.delivery_count))
            if rec_state == _ARCHIVING:
                sp._dead_letters.append(DeadLetter(first, sb.last_offset, sb.delivery_count, DeadLetterReason.RESTORED))
            pos = sb.last_offset + 1
        sp._speo = pos
        sp._advance()
        return sp

    def _append(self, run: Run) -> None:
        self._starts.append(run.first)
        self._runs.append(run)

    # -------------------------------------------------------------- inspection

    @property
    def start_offset(self) -> int:
        """SPSO: the first offset that is not final."""
        return self._spso

    @property
    def end_offset(self) -> int:
        """SPEO, exclusive: the next offset to read from the log."""
        return self._speo

    @property
    def in_flight(self) -> int:
        """Offsets in the window SPSO..SPEO (what share.partition.max.record.locks limits)."""
        return self._speo - self._spso

    @property
    def outstanding_deltas(self) -> int:
        return len(self._outstanding)

    def runs(self) -> list[RunView]:
        return [r.view() for r in self._runs]

    def state_of(self, offset: int) -> RecordView:
        """One offset's state: ARCHIVED below SPSO, AVAILABLE (never delivered) from SPEO."""
        if offset < self._spso:
            return RecordView(_ARCHIVED, 0, None, -1)
        i = self._index_of(offset)
        if i < 0:
            return RecordView(_AVAILABLE, 0, None, -1)
        r = self._runs[i]
        return RecordView(r.state, r.count, r.member, r.deadline)

    def can_acquire(
        self,
        *,
        max_in_flight: int = DEFAULT_MAX_IN_FLIGHT,
        isolation: int = IsolationLevel.READ_UNCOMMITTED,
    ) -> bool:
        """Whether ``acquire`` may find something (cheap; may say yes when it will not)."""
        if self._avail_hint < self._speo:
            return True
        stop = min(self._bound(isolation), self._spso + max_in_flight)
        return self._speo < stop

    def window(self, max_in_flight: int) -> int:
        """Offsets the in-flight window spans now (:meth:`_window_end`)."""
        return self._window_end(max_in_flight) - self._spso

    def _window_end(self, max_in_flight: int) -> int:
        """The end (exclusive) of the in-flight window: ``max_in_flight`` offsets from SPSO,
        stretched to the end of the stored batch at its edge.

        Kafka's window passes the limit by less than one batch: a fetch that finds room
        takes the last batch whole. A share-partition several members fetch splits that
        batch among them instead (:mod:`broker.share.fairness`), so the window they share
        is the same size as the one a lone member would fill. One batch header looked up
        per change of SPSO or of the log end.
        """
        spso, limit, hw, end = self._window
        log = self._log
        if spso == self._spso and limit == max_in_flight and hw == log.high_watermark:
            return end
        end = self._spso + max_in_flight
        edge = end - 1
        if edge < log.high_watermark:
            batches = log.batch_bounds(edge, edge + 1, 1, UNLIMITED_BYTES)
            if batches and batches[0].first_offset <= edge <= batches[0].last_offset:
                end = batches[0].last_offset + 1
        self._window = (self._spso, max_in_flight, log.high_watermark, end)
        return end

    def next_lock_deadline(self) -> int | None:
        """The earliest acquisition-lock deadline (ms), for the caller's timer; None if no lock."""
        locks = self._locks
        while locks and not self._lock_entry_live(locks[0]):
            heapq.heappop(locks)
        return locks[0][0] if locks else None

    def next_redelivery_ms(self) -> int | None:
        """When the earliest record held by its redelivery backoff may go out (ms); None if none."""
        heap = self._backoffs
        while heap:
            t, offset = heap[0]
            i = self._index_of(offset)
            if i >= 0 and self._runs[i].state == _AVAILABLE and self._runs[i].not_before == t:
                return t
            heapq.heappop(heap)
        return None

    def redeliveries_due(self, now_ms: int) -> bool:
        """Drop the backoff timers due by ``now_ms``; True if a held record may now go out."""
        due = False
        while True:
            t = self.next_redelivery_ms()
            if t is None or t > now_ms:
                return due
            heapq.heappop(self._backoffs)
            due = True

    def first_available_offset(self) -> int | None:
        """The first offset waiting to be handed out: AVAILABLE in the window (held ones
        too), else SPEO when the log holds more; None when nothing waits."""
        runs = self._runs
        i = max(0, bisect_right(self._starts, self._avail_hint) - 1)
        while i < len(runs):
            if runs[i].state == _AVAILABLE:
                return max(runs[i].first, self._avail_hint) if runs[i].last >= self._avail_hint else runs[i].first
            i += 1
        return self._speo if self._speo < self._log.high_watermark else None

    def archiving(self) -> int:
        """Offsets waiting for their dead-letter copy."""
        return sum(r.last - r.first + 1 for r in self._runs if r.state == _ARCHIVING)

    # ------------------------------------------------------------- acquisition

    def acquire(
        self,
        member_id: str,
        *,
        max_records: int,
        now_ms: int,
        batch_size: int | None = None,
        mode: int = AcquireMode.BATCH_OPTIMIZED,
        lock_duration_ms: int = DEFAULT_LOCK_DURATION_MS,
        delivery_count_limit: int = DEFAULT_DELIVERY_COUNT_LIMIT,
        max_in_flight: int = DEFAULT_MAX_IN_FLIGHT,
        isolation: int = IsolationLevel.READ_UNCOMMITTED,
        max_bytes: int = DEFAULT_MAX_BYTES,
        min_one: bool = True,
        share_limit: int | None = None,
        dead_letter: bool = False,
        key_ordering: bool = False,
    ) -> list[AcquiredRange]:
        """Lock up to ``max_records`` records for ``member_id``; nothing here is persisted.

        Two steps, each state change looked up in ``TRANSITIONS`` (``Event.ACQUIRE``):

        1. AVAILABLE records inside the window (released or expired: delivery count
           +1), in offset order (:meth:`_take_in_window`);
        2. records past SPEO read from the log while the window holds fewer than
           ``max_in_flight`` offsets: at most the room left, but under BATCH_OPTIMIZED
           the last log batch whole, as Kafka does (:meth:`_take_new`).

        ``max_records`` is the budget for the whole call. BATCH_OPTIMIZED hands out
        whole log batches and may pass the budget up to the end of a batch;
        RECORD_LIMIT never passes it. ``share_limit`` (several members share the
        partition, and this is the caller's part) is never passed whatever the mode:
        a stored batch is split into acquired offset ranges there. New records are
        grouped into ranges of about ``batch_size`` records (at batch boundaries).

        ``max_bytes`` bounds the stored batches the answer must carry for the
        records acquired here (each batch counted once, by its stored size): a batch
        that does not fit ends the call, so nothing is acquired that the answer
        cannot carry. With ``min_one`` (the answer carries nothing yet) the first
        batch goes out whatever its size, as Kafka treats the limit as soft.

        Control batches, holes between batches and, under READ_COMMITTED, records
        of aborted transactions are never handed out: they become ARCHIVED.
        READ_COMMITTED also stops at the last stable offset. A record whose
        delivery count already reached ``delivery_count_limit`` (the limit was
        lowered) is archived instead of delivered again (ARCHIVING first when
        ``dead_letter``: the group has a dead-letter topic).

        Records near the delivery limit are handed out in smaller pieces, as Kafka
        does since 4.2: a stretch whose count reached half the limit (at least
        :data:`MIN_THROTTLE_DELIVERY_COUNT`) goes out alone in its acquisition,
        halved once more per further delivery, and a record on its last delivery
        goes out on its own (:meth:`_throttled`).

        Extensions: an AVAILABLE record whose redelivery backoff has not elapsed
        is HELD; with ``key_ordering``, so is a record while an earlier record with
        its key is not final (see :class:`KeyOrder`).
        """
        if max_records <= 0:
            return []
        self._sync_log_start()
        self._lock_duration_ms = lock_duration_ms
        take = Take(
            member_id,
            deadline=now_ms + lock_duration_ms,
            records=max_records,
            chunk=batch_size if batch_size and batch_size > 0 else max_records,
            exact=mode == AcquireMode.RECORD_LIMIT,
            share=UNLIMITED_RECORDS if share_limit is None else share_limit,
            committed=isolation == IsolationLevel.READ_COMMITTED,
            bound=self._bound(isolation),
            max_bytes=max_bytes,
            min_one=min_one,
        )
        self._take(take, self._key_order(key_ordering), now_ms, delivery_count_limit, dead_letter, max_in_flight)
        return take.out

    def _take(
        self, take: Take, order: KeyOrder | None, now_ms: int, limit: int, dead_letter: bool, max_in_flight: int
    ) -> None:
        """The two steps of ``acquire``, then SPSO moved past what became final."""
        self._take_in_window(take, order, now_ms, limit, dead_letter)
        if not take.stop:
            self._take_new(take, order, max_in_flight)
        self._advance()
        self._maybe_compact_locks()

    def held_by(self, member_id: str) -> int:
        """Offsets ``member_id`` holds locked in this share-partition now. O(runs)."""
        return sum(r.last - r.first + 1 for r in self._runs if r.state == _ACQUIRED and r.member == member_id)

    def _take_in_window(self, take: Take, order: KeyOrder | None, now_ms: int, limit: int, dead_letter: bool) -> None:
        """Step 1: hand out the window's AVAILABLE records, in offset order."""
        runs, starts = self._runs, self._starts
        throttle_from = max(MIN_THROTTLE_DELIVERY_COUNT, -(-limit // 2))
        low: int | None = None  # first AVAILABLE offset left behind
        i = bisect_left(starts, self._avail_hint)
        while i < len(runs) and take.more():
            run = runs[i]
            if run.state != _AVAILABLE:
                i += 1
                continue
            if run.count == 0 and not run.data:
                # Never delivered (restored state): read it from the log like new records.
                i, left = self._take_unread(take, i, order)
                low = lowest(low, left)
                continue
            # Held: by its redelivery backoff until its time comes, or until the write that
            # made it AVAILABLE is durable (on_persisted wakes the fetches waiting for it).
            view = View.HELD if run.not_before > now_ms or run.pending else View.AVAILABLE
            action = TRANSITIONS[(view, Event.ACQUIRE)].action
            if action == Action.KEEP:
                low = lowest(low, run.first)
                i += 1
                continue
            assert action == Action.ACQUIRE
            if run.count >= limit:
                self._archive_spent(run, dead_letter, order)
                i += 1
                continue
            first, last, end_of_run = run.first, run.last, run.last
            throttled = run.count >= throttle_from
            if throttled:
                if take.out:
                    take.stop = True  # a throttled stretch goes out alone: next time
                    break
                last = self._throttled(run, throttle_from, limit)
            stretches = [(first, last)] if order is None else order.free_stretches(first, last, self._state)
            taken = 0
            if stretches:
                taken = self._take_stretches(take, stretches, exact=take.exact or throttled or order is not None)
            if taken < end_of_run - first + 1:
                low = lowest(low, first)  # some records wait (budget, bytes, their key, throttling)
            i = bisect_right(starts, end_of_run)
            if throttled:
                take.stop = True
        if i < len(runs):
            low = lowest(low, runs[i].first)
        self._avail_hint = self._speo if low is None else low

    def _take_stretches(self, take: Take, stretches: list[tuple[int, int]], *, exact: bool) -> int:
        """Acquire the AVAILABLE ``stretches`` (in one run) within the call's budgets; records taken."""
        taken = 0
        for a, b in stretches:
            if not take.more():
                break
            if b - a + 1 > take.records:
                b = a + take.records - 1 if exact else min(self._batch_end(a + take.records - 1), b)
            b = min(b, a + take.share - 1)
            fit = self._fit_bytes(take, a, b)
            if fit < b:
                take.stop = True  # the next stored batch does not fit in the answer
            if fit < a:
                break
            lo, hi = self._isolate(a, fit)
            for r in self._runs[lo:hi]:
                self._lock(r, take)
            taken += fit - a + 1
        return taken

    def _take_unread(self, take: Take, i: int, order: KeyOrder | None) -> tuple[int, int | None]:
        """Read the never-delivered AVAILABLE run ``runs[i]`` from the log like new records.

        Returns the index to go on from and the first offset left AVAILABLE (None: none)."""
        runs, starts = self._runs, self._starts
        run = runs[i]
        stop_at = min(run.last + 1, take.bound)
        if stop_at <= run.first or take.reads <= 0:
            return i + 1, run.first
        new, used, end = self._read_log(take, run.first, stop_at, take.records, 1)
        if end == run.first:
            return i + 1, run.first
        left: int | None = None
        if order is not None:
            new, used, left = self._hold_by_key(order, new, used)
        rest = end <= run.last
        if rest:
            new.append(run.clone(end, run.last))  # visited next: read further if the budgets allow
        runs[i : i + 1] = new
        starts[i : i + 1] = [r.first for r in new]
        for r in new:
            if r.state == _ACQUIRED:
                heapq.heappush(self._locks, (r.deadline, r.first))
                take.out.append(AcquiredRange(r.first, r.last, r.count))
        take.took(used)
        return i + len(new) - (1 if rest else 0), left

    def _take_new(self, take: Take, order: KeyOrder | None, max_in_flight: int) -> None:
        """Step 2: read new records past SPEO while the window has room.

        As in Kafka, the room caps the records to take, and the window may pass the
        limit by less than one batch: BATCH_OPTIMIZED takes the last batch whole, and
        a batch is never cut at the limit (which would send it again and again). The
        members sharing a partition (a ``share`` part) split that batch instead: their
        room runs to its end (:meth:`_window_end`). RECORD_LIMIT stays inside the limit.
        """
        shared = take.shared and not take.exact
        end = self._window_end(max_in_flight) if shared else self._spso + max_in_flight
        room = end - self._speo
        if not take.more() or room <= 0 or self._speo >= take.bound or take.reads <= 0:
            return
        hint_at_end = self._avail_hint >= self._speo
        new, used, end = self._read_log(take, self._speo, take.bound, min(take.records, room), 1)
        first_held: int | None = None
        if order is not None:
            new, used, first_held = self._hold_by_key(order, new, used)
        for r in new:
            self._append(r)
            if r.state == _ACQUIRED:
                heapq.heappush(self._locks, (r.deadline, r.first))
                take.out.append(AcquiredRange(r.first, r.last, r.count))
        take.took(used)
        self._speo = end
        if first_held is not None:
            self._avail_hint = min(self._avail_hint, first_held)
        elif hint_at_end:
            self._avail_hint = end  # the new runs hold nothing AVAILABLE

    def _lock(self, run: Run, take: Take) -> None:
        """``Action.ACQUIRE`` of an AVAILABLE run: locked by the member, delivery count +1."""
        run.state = _ACQUIRED
        run.count += 1
        run.member = take.member
        run.deadline = take.deadline
        run.pending = 0
        run.not_before = 0
        run.data = False
        heapq.heappush(self._locks, (take.deadline, run.first))
        take.out.append(AcquiredRange(run.first, run.last, run.count))
        take.took(run.last - run.first + 1)

    def _archive_spent(self, run: Run, dead_letter: bool, order: KeyOrder | None) -> None:
        """``Action.ACQUIRE`` of a run whose count is spent (the limit was lowered): archived
        (ARCHIVING first in a group with a dead-letter topic). Not persisted: a restart
        derives it again."""
        run.pending = 0
        if dead_letter:
            run.state = _ARCHIVING
            run.reason = DeadLetterReason.DELIVERY_LIMIT
            self._dead_letters.append(DeadLetter(run.first, run.last, run.count, run.reason))
        else:
            run.state = _ARCHIVED
            if order is not None:
                order.settle(run.first, run.last)

    def _fit_bytes(self, take: Take, a: int, b: int) -> int:
        """The last offset of ``[a, b]`` whose stored batches fit in the call's bytes, counting
        them; ``a - 1`` when the first does not fit. Offsets with no stored batch cost nothing."""
        if take.unlimited_bytes:
            return b
        for batch in self._log.batch_bounds(a, b + 1, b - a + 1, UNLIMITED_BYTES):
            if batch.last_offset < a or batch.first_offset in take.sent:
                continue
            if not take.fits(batch.size):
                return max(a, batch.first_offset) - 1
            take.count(batch)
        return b

    def _throttled(self, run: Run, throttle_from: int, limit: int) -> int:
        """The last offset of ``run`` to hand out now that its count reached ``throttle_from``.

        Kafka's rule: ``max(1, size >> (count - throttle_from + 1))`` records of the
        stretch, and a record on its last delivery alone.
        """
        size = run.last - run.first + 1
        take = max(1, size >> (run.count - throttle_from + 1))
        if limit > 2 and run.count == limit - 1:
            take = 1
        return run.first + take - 1

    # -------------------------------------------------- per-key ordering (extension)

    def _key_order(self, enabled: bool) -> KeyOrder | None:
        """The key index when per-key ordering is on (built from the log on first use), else None."""
        if not enabled:
            self._order = None
            return None
        if self._order is None:
            order = KeyOrder(self._speo)
            unsettled = [(r.first, r.last) for r in self._runs if r.state not in FINAL_STATES or r.pending]
            if unsettled:
                j = 0
                for offset, key in self._log.record_keys(unsettled[0][0], unsettled[-1][1] + 1):
                    while j < len(unsettled) and unsettled[j][1] < offset:
                        j += 1
                    if j == len(unsettled):
                        break
                    if unsettled[j][0] <= offset:
                        order.add(offset, key)
            order.suspect_acquired(self._state)
            self._order = order
        return self._order

    def _state(self, offset: int) -> RecordState:
        """One offset's state (ARCHIVED below SPSO, AVAILABLE from SPEO)."""
        if offset < self._spso:
            return _ARCHIVED
        i = self._index_of(offset)
        return _AVAILABLE if i < 0 else self._runs[i].state

    def _hold_by_key(self, order: KeyOrder, new: list[Run], used: int) -> tuple[list[Run], int, int | None]:
        """Split freshly acquired runs into what per-key ordering lets go out now and what
        must wait (AVAILABLE, never delivered, known data). Returns (runs, records
        acquired, first held offset or None)."""
        out: list[Run] = []
        held: int | None = None
        for r in new:
            if r.state != _ACQUIRED:
                out.append(r)
                continue
            order.index(self._log, r.first, r.last)
            pos = r.first
            for a, b in order.free_stretches(r.first, r.last, self._state):
                if a > pos:
                    out.append(held_run(r, pos, a - 1))
                    used -= a - pos
                    held = pos if held is None else held
                out.append(r.clone(a, b))
                pos = b + 1
            if pos <= r.last:
                out.append(held_run(r, pos, r.last))
                used -= r.last - pos + 1
                held = pos if held is None else held
        return out, used, held

    def _read_log(self, take: Take, start: int, stop: int, budget: int, count: int) -> tuple[list[Run], int, int]:
        """Runs tiling ``[start, end)`` of the log: ACQUIRED for data, ARCHIVED for the rest.

        Returns (runs, records acquired, end). ``end`` is where reading stopped
        (the budget, the bytes of the answer, the read limit, a batch cut, or ``stop``).
        """
        out: list[Run] = []
        used, pos = 0, start
        chunk = take.chunk
        txns = self._aborted_by_first_offset(take, start, stop)
        ti = 0
        aborting: set[int] = set()

        def emit(first: int, last: int, data: bool) -> None:
            if out:
                prev = out[-1]
                if data and prev.state == _ACQUIRED and prev.last - prev.first + 1 < chunk:
                    prev.last = last
                    return
                if not data and prev.state == _ARCHIVED:
                    prev.last = last
                    return
            if data:
                out.append(Run(first, last, _ACQUIRED, count, take.member, take.deadline))
            else:
                out.append(Run(first, last, _ARCHIVED, 0))

        while pos < stop and used < budget and used < take.share and take.reads > 0 and not take.stop:
            take.reads -= 1
            walk = UNLIMITED_BYTES if take.unlimited_bytes else max(take.bytes, 1)
            batches = self._log.batch_bounds(pos, stop, budget - used, walk)
            if not batches:
                emit(pos, stop - 1, False)  # nothing stored there: a hole
                pos = stop
                break
            cut = False
            for b in batches:
                if b.last_offset < pos:
                    continue
                if b.first_offset >= stop:
                    emit(pos, stop - 1, False)
                    pos = stop
                    cut = True
                    break
                if used >= budget or used >= take.share:
                    cut = True
                    break
                first = max(b.first_offset, pos)
                if first > pos:
                    emit(pos, first - 1, False)  # compacted away or never written
                last = min(b.last_offset, stop - 1)
                while ti < len(txns) and txns[ti][1] <= b.last_offset:
                    aborting.add(txns[ti][0])
                    ti += 1
                if b.is_control:
                    emit(first, last, False)
                    aborting.discard(b.producer_id)  # the marker ends its transaction
                elif take.committed and b.is_transactional and b.producer_id in aborting:
                    emit(first, last, False)
                else:
                    if b.first_offset not in take.sent and not take.fits(b.size):
                        # The answer cannot carry this batch: stop before it.
                        pos = first
                        take.stop = True
                        cut = True
                        break
                    take.count(b)
                    if take.exact and last - first + 1 > budget - used:
                        last = first + (budget - used) - 1
                    if last - first + 1 > take.share - used:
                        last = first + (take.share - used) - 1  # the caller's share ends inside the batch
                    emit(first, last, True)
                    used += last - first + 1
                pos = last + 1
                if pos <= b.last_offset:
                    cut = True
                    break
            if cut:
                break
        return out, used, pos

    def _aborted_by_first_offset(self, take: Take, start: int, stop: int) -> list[tuple[int, int]]:
        """(producer id, first offset) of the aborted transactions in [start, stop) that a
        READ_COMMITTED read skips, by first offset (none under READ_UNCOMMITTED)."""
        if not take.committed:
            return []
        return sorted(self._log.aborted_transactions(start, stop), key=lambda t: t[1])

    def _batch_end(self, offset: int) -> int:
        """Last offset of the log batch holding ``offset`` (``offset`` if none does)."""
        batches = self._log.batch_bounds(offset, offset + 1, 1, 1)
        if batches and batches[0].first_offset <= offset <= batches[0].last_offset:
            return batches[0].last_offset
        return offset

    def _bound(self, isolation: int) -> int:
        log = self._log
        return log.last_stable_offset if isolation == IsolationLevel.READ_COMMITTED else log.high_watermark

    def _sync_log_start(self) -> None:
        log_start = self._log.log_start_offset
        if log_start > self._spso:
            self.on_log_start_offset(log_start)

    # ------------------------------------------------------------- persistence

    def on_persisted(self, delta: Delta) -> bool:
        """The caller wrote ``delta`` durably: its changes are final; SPSO may advance.

        Records it moved to ARCHIVING now wait for their dead-letter copy
        (:meth:`take_dead_letters`): the copy is written only once ARCHIVING is durable.
        Returns whether records it made AVAILABLE may now be handed out again.
        """
        if self._outstanding.pop(delta.id, None) is None:
            return False  # confirmed or rolled back already
        freed = False
        runs, starts = self._runs, self._starts
        lo_idx = len(runs)
        hi_idx = 0
        order = self._order
        for first, last, *_ in delta.undo:
            i = bisect_left(starts, first)
            lo_idx = min(lo_idx, i)
            while i < len(runs) and runs[i].first <= last:
                run = runs[i]
                if run.pending == delta.id:
                    run.pending = 0
                    if run.state == _AVAILABLE:
                        freed = True
                        self._avail_hint = min(self._avail_hint, run.first)
                    elif run.state == _ARCHIVING:
                        self._dead_letters.append(DeadLetter(run.first, run.last, run.count, run.reason))
                    elif order is not None and run.state in FINAL_STATES:
                        order.settle(run.first, run.last)
                i += 1
            hi_idx = max(hi_idx, i)
        self._merge(lo_idx, hi_idx)
        self._advance()
        return freed

    def rollback(self, delta: Delta) -> None:
        """Writing ``delta`` failed: records still waiting on it go back to where they were
        (ACQUIRED into their old locks; ARCHIVING, their dead-letter copy already written)."""
        if self._outstanding.pop(delta.id, None) is None:
            return
        runs, starts = self._runs, self._starts
        for first, last, count, member, deadline, state in delta.undo:
            i = bisect_left(starts, first)
            while i < len(runs) and runs[i].first <= last:
                run = runs[i]
                if run.pending == delta.id:
                    run.state = state
                    run.count = count
                    run.member = member
                    run.deadline = deadline
                    run.pending = 0
                    run.not_before = 0
                    if state == _ACQUIRED:
                        heapq.heappush(self._locks, (deadline, run.first))
                    elif state == _ARCHIVING:
                        self._dead_letters.append(DeadLetter(run.first, run.last, count, run.reason, written=True))
                i += 1

    # ------------------------------------------------------- dead-letter queues

    def take_dead_letters(self) -> list[DeadLetter]:
        """ARCHIVING stretches whose dead-letter copy is to be written (each handed out once).

        The caller writes the copies, then calls :meth:`dead_lettered` and persists
        the delta it returns. Stretches the log has dropped since are left out.
        """
        out, self._dead_letters = self._dead_letters, []
        return [d for d in out if d.last_offset >= self._spso]

    def return_dead_letters(self, letters: Iterable[DeadLetter]) -> None:
        """Copies the caller took but could not write: hand them out again next time."""
        self._dead_letters.extend(letters)

    def has_dead_letters(self) -> bool:
        return bool(self._dead_letters)

    def dead_lettered(self, first: int, last: int, now_ms: int) -> Delta | None:
        """The dead-letter copies of ``[first, last]`` are durable: ARCHIVING -> ARCHIVED
        (``Event.DEAD_LETTERED``). Returns the delta to persist, None if nothing changed."""
        plan: list[tuple[int, int, Action]] = []
        lo = max(first, self._spso)
        i = self._index_of(lo)
        runs = self._runs
        while 0 <= i < len(runs) and runs[i].first <= last:
            run = runs[i]
            if run.pending == 0:  # a change still being written is settled by its own delta
                action = TRANSITIONS[(view_of(run, None), Event.DEAD_LETTERED)].action
                if action != Action.KEEP:
                    plan.append((max(run.first, lo), min(run.last, last), action))
            i += 1
        delta, _ = self._apply(plan, now_ms, DEFAULT_DELIVERY_COUNT_LIMIT, self._lock_duration_ms)
        return delta

    # ----------------------------------------------------------- log movement

    def on_log_start_offset(self, log_start_offset: int) -> None:
        """The log start moved (retention, DeleteRecords): archive everything below it.

        Every row of ``TRANSITIONS`` for ``LOG_START_PAST`` leaves the record
        below SPSO: non-final ones are dropped (archived, locks and all), final
        ones stay final. A later acknowledgement of them is skipped (the member
        may have held them: the log dropped them, nobody else settled them). Nothing is
        persisted: the log itself is the record of it; the next delta carries the
        new start offset.
        """
        self._dropped_below = max(self._dropped_below, log_start_offset)
        if self._order is not None:
            self._order.drop_below(log_start_offset)
        if log_start_offset <= self._spso:
            return
        i = self._split_at(log_start_offset)
        del self._runs[:i]
        del self._starts[:i]
        self._spso = log_start_offset
        if self._speo < log_start_offset:
            self._speo = log_start_offset
        if self._avail_hint < log_start_offset:
            self._avail_hint = log_start_offset
        self._advance()

    # ------------------------------------------------------------------ helpers

    def _index_of(self, offset: int) -> int:
        """Index of the run holding ``offset``, -1 if none does."""
        i = bisect_right(self._starts, offset) - 1
        if i >= 0 and self._runs[i].last >= offset:
            return i
        return -1

    def _split_index(self, i: int, offset: int) -> None:
        """Split run ``i`` so that ``offset`` (inside it, not its first) starts a new run."""
        run = self._runs[i]
        right = run.clone(offset, run.last)
        run.last = offset - 1
        self._runs.insert(i + 1, right)
        self._starts.insert(i + 1, offset)
        if run.state == _ACQUIRED:
            # The lock-timer entry may point into either half; give each its own.
            heapq.heappush(self._locks, (run.deadline, run.first))
            heapq.heappush(self._locks, (right.deadline, right.first))
        elif run.state == _AVAILABLE and run.not_before:
            heapq.heappush(self._backoffs, (run.not_before, run.first))
            heapq.heappush(self._backoffs, (right.not_before, right.first))

    def _split_at(self, offset: int) -> int:
        """Make ``offset`` a run boundary; return the index of the first run at or after it."""
        i = bisect_right(self._starts, offset) - 1
        if i < 0:
            return 0
        run = self._runs[i]
        if run.first == offset:
            return i
        if run.last < offset:
            return i + 1
        self._split_index(i, offset)
        return i + 1

    def _isolate(self, first: int, last: int) -> tuple[int, int]:
        """Split so that runs[lo:hi] cover exactly ``[first, last]``."""
        lo = self._split_at(first)
        hi = self._split_at(last + 1)
        return lo, hi

    def _merge(self, lo: int, hi: int) -> None:
        """Merge neighbouring final, confirmed runs with equal state and count in runs[lo-1:hi+1]."""
        runs, starts = self._runs, self._starts
        j = min(hi, len(runs) - 1)
        stop = max(lo, 1)
        while j >= stop:
            a, b = runs[j - 1], runs[j]
            if (
                a.state == b.state
                and a.state in FINAL_STATES
                and a.count == b.count
                and a.pending == 0
                and b.pending == 0
            ):
                a.last = b.last
                del runs[j]
                del starts[j]
            j -= 1

    def _advance(self) -> None:
        """Move SPSO past the leading runs whose finality is durable or derived from the log."""
        runs = self._runs
        k = 0
        while k < len(runs) and runs[k].state in FINAL_STATES and runs[k].pending == 0:
            k += 1
        if k:
            del runs[:k]
            del self._starts[:k]
            self._spso = runs[0].first if runs else self._speo
            if self._avail_hint < self._spso:
                self._avail_hint = self._spso

    def _lock_entry_live(self, entry: tuple[int, int]) -> bool:
        i = self._index_of(entry[1])
        if i < 0:
            return False
        run = self._runs[i]
        return run.state == _ACQUIRED and run.deadline == entry[0]

    def _maybe_compact_locks(self) -> None:
        if len(self._locks) > 2 * len(self._runs) + _LOCK_HEAP_SLACK:
            self._locks = [(r.deadline, r.first) for r in self._runs if r.state == _ACQUIRED]
            heapq.heapify(self._locks)


def _reset_offset(log: ShareLog, auto_offset_reset: str | tuple[str, int], now_ms: int) -> int:
    if auto_offset_reset == "latest":
        return log.high_watermark
    if auto_offset_reset == "earliest":
        return log.log_start_offset
    if isinstance(auto_offset_reset, tuple) and len(auto_offset_reset) == 2 and auto_offset_reset[0] == "by_duration":
        found = log.offset_for_timestamp(now_ms - int(auto_offset_reset[1]))
        return log.high_watermark if found is None else found[0]
    raise ValueError(f"unknown share.auto.offset.reset {auto_offset_reset!r}")
