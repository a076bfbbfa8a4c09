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
from bisect import bisect_left, bisect_right, insort
from collections.abc import Callable, Hashable, Iterable, Sequence
from enum import IntEnum
from itertools import groupby
from typing import NamedTuple, Protocol

from broker.protocol.errors import ErrorCode
from broker.share.states import (
    ACK_EVENTS,
    FINAL_STATES,
    TRANSITIONS,
    AcquireMode,
    Action,
    Event,
    IsolationLevel,
    RecordState,
    View,
)

__all__ = [
    "DEFAULT_DELIVERY_COUNT_LIMIT",
    "DEFAULT_LOCK_DURATION_MS",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_IN_FLIGHT",
    "MAX_LOG_READS_PER_ACQUIRE",
    "AckResult",
    "AcquiredRange",
    "DeadLetter",
    "DeadLetterReason",
    "Delta",
    "ExpireResult",
    "LogBatch",
    "PersistedState",
    "RecordView",
    "RunView",
    "ShareLog",
    "SharePartition",
    "StateBatch",
]

# group.share.partition.max.record.locks: new records are read only while SPSO..SPEO
# holds fewer offsets (batch_optimized may then pass it by less than one log batch).
# Bounds the memory and the redelivery work one slow consumer can pin per partition.
DEFAULT_MAX_IN_FLIGHT = 2000
# group.share.delivery.count.limit: a record handed out this many times without
# being accepted is archived, so a poison record cannot be redelivered forever.
DEFAULT_DELIVERY_COUNT_LIMIT = 5
# group.share.record.lock.duration.ms: how long a consumer holds acquired records.
DEFAULT_LOCK_DURATION_MS = 30_000
# ShareFetch MaxBytes as librdkafka sends it (fetch.max.bytes, 50 MiB); only the
# default for callers that do not pass the request's own budget.
DEFAULT_MAX_BYTES = 52_428_800
# A byte budget this large never binds (callers with no answer to size: tests, tools).
UNLIMITED_BYTES = 2**62
UNLIMITED_RECORDS = 2**62
# Log reads one acquire() may make. A read can end in nothing to hand out
# (control batches, aborted transactions, holes); this bounds the work one
# ShareFetch does on the hot path. What is left is found by the next fetch.
MAX_LOG_READS_PER_ACQUIRE = 8
# Stale lock-timer entries are dropped lazily; the heap is rebuilt once it holds
# more than twice as many entries as there are runs plus this slack, which keeps
# it O(window) however many acquisitions were acknowledged before their timers.
_LOCK_HEAP_SLACK = 64

_AVAILABLE = RecordState.AVAILABLE
_ACQUIRED = RecordState.ACQUIRED
_ACKNOWLEDGED = RecordState.ACKNOWLEDGED
_ARCHIVING = RecordState.ARCHIVING
_ARCHIVED = RecordState.ARCHIVED
_NONE = int(ErrorCode.NONE)
_INVALID_REQUEST = int(ErrorCode.INVALID_REQUEST)

_PLAIN_VIEW = {
    _AVAILABLE: View.AVAILABLE,
    _ACKNOWLEDGED: View.ACKNOWLEDGED,
    _ARCHIVING: View.ARCHIVING,
    _ARCHIVED: View.ARCHIVED,
}
_ACTION_STATE = {Action.ACKNOWLEDGE: _ACKNOWLEDGED, Action.ARCHIVE: _ARCHIVED}
_PERSISTED_STATES = {int(s): s for s in (_AVAILABLE, _ACKNOWLEDGED, _ARCHIVING, _ARCHIVED)}
# Kafka (since 4.2, KAFKA-17541) hands records out in smaller and smaller pieces once
# their delivery count passes half the limit (never below this), so that one poison
# record does not take its whole batch to the limit with it.
MIN_THROTTLE_DELIVERY_COUNT = 2


# ----------------------------------------------------------------- interfaces


class LogBatch(NamedTuple):
    """Header facts of one stored record batch."""

    first_offset: int
    last_offset: int
    is_control: bool = False
    producer_id: int = -1
    is_transactional: bool = False
    size: int = 0  # bytes the stored batch occupies (what an answer carrying it sends)


class ShareLog(Protocol):
    """The read-only view of a partition log a share partition needs.

    ``broker.log.PartitionLog`` provides the three offsets, ``aborted_transactions``
    and ``offset_for_timestamp`` as they are; ``batch_bounds`` walks batch headers.
    """

    @property
    def log_start_offset(self) -> int: ...

    @property
    def high_watermark(self) -> int: ...

    @property
    def last_stable_offset(self) -> int: ...

    def batch_bounds(self, start_offset: int, end_offset: int, max_records: int, max_bytes: int) -> Sequence[LogBatch]:
        """Batches holding offsets in ``[start_offset, end_offset)``, in offset order.

        The first may begin before ``start_offset``. Stops once the batches cover
        ``max_records`` offsets from ``start_offset`` or ``max_bytes`` bytes, but
        always returns the first batch if there is one: an empty answer means no
        record is stored in the range.
        """
        ...

    def aborted_transactions(self, start: int, end: int) -> Sequence[tuple[int, int]]:
        """(producer id, first offset) of the aborted transactions overlapping [start, end)."""
        ...

    def offset_for_timestamp(self, timestamp: int) -> tuple[int, int] | None:
        """(offset, timestamp) of the first record whose timestamp is >= ``timestamp``."""
        ...

    def record_keys(self, start_offset: int, end_offset: int) -> Sequence[tuple[int, Hashable]]:
        """(offset, key) of every data record in ``[start_offset, end_offset)`` whose key is
        not null, in offset order (per-key ordering reads this; it decodes records)."""
        ...


class StateBatch(NamedTuple):
    """One persisted state batch (``StateBatches`` of WriteShareGroupState)."""

    first_offset: int
    last_offset: int
    delivery_state: int  # RecordState: 0 AVAILABLE, 2 ACKNOWLEDGED, 4 ARCHIVED
    delivery_count: int


class PersistedState(NamedTuple):
    """What ReadShareGroupState returns for one partition."""

    start_offset: int  # -1: never initialised
    batches: Sequence[StateBatch] = ()


class Delta(NamedTuple):
    """A durable change to write, then confirm with ``on_persisted`` or undo with ``rollback``."""

    id: int
    start_offset: int  # a lower bound; the store keeps the largest it has seen
    batches: tuple[StateBatch, ...]
    # (first, last, delivery count, member, lock deadline, state) of each changed stretch
    # before the change (ACQUIRED, or ARCHIVING for a dead-letter confirmation); used by rollback.
    undo: tuple[tuple[int, int, int, str | None, int, RecordState], ...]


class DeadLetterReason(IntEnum):
    """Why a record went to ARCHIVING (it decides the ``__dlq.errors.message`` header)."""

    REJECTED = 1  # the consumer rejected it
    DELIVERY_LIMIT = 2  # its delivery count reached the limit
    RESTORED = 3  # read back ARCHIVING after a load: as Kafka, judge by its count against the limit


class DeadLetter(NamedTuple):
    """Records waiting for their dead-letter copy (KIP-1191): write it, then ``dead_lettered``."""

    first_offset: int
    last_offset: int
    delivery_count: int
    reason: DeadLetterReason
    written: bool = False  # the copy is durable already; only ARCHIVED is left to persist


class AcquiredRange(NamedTuple):
    """``AcquiredRecords`` of a ShareFetch response."""

    first_offset: int
    last_offset: int
    delivery_count: int


class AckResult(NamedTuple):
    error_code: int  # 0, INVALID_REQUEST (42) or INVALID_RECORD_STATE (121)
    delta: Delta | None  # None when nothing durable changed


class ExpireResult(NamedTuple):
    delta: Delta | None
    available: bool  # some record became AVAILABLE: wake waiting fetches


class RecordView(NamedTuple):
    state: RecordState
    delivery_count: int
    member_id: str | None
    lock_deadline_ms: int  # -1 unless ACQUIRED


class RunView(NamedTuple):
    first_offset: int
    last_offset: int
    state: RecordState
    delivery_count: int
    member_id: str | None
    lock_deadline_ms: int
    pending: bool  # changed by a delta that is not confirmed yet


# ---------------------------------------------------------------------- runs


class _Run:
    """A stretch of consecutive offsets in one state. Mutable; owned by one partition."""

    __slots__ = ("count", "data", "deadline", "first", "last", "member", "not_before", "pending", "reason", "state")

    def __init__(
        self,
        first: int,
        last: int,
        state: RecordState,
        count: int,
        member: str | None = None,
        deadline: int = -1,
        pending: int = 0,
    ) -> None:
        self.first = first
        self.last = last
        self.state = state
        self.count = count  # delivery count; 0: never handed out (read it from the log)
        self.member = member  # lock holder while ACQUIRED
        self.deadline = deadline  # lock deadline (ms) while ACQUIRED, else -1
        self.pending = pending  # id of the unconfirmed delta that set this state, else 0
        self.not_before = 0  # AVAILABLE: not handed out again before this time (ms; redelivery backoff)
        self.reason = DeadLetterReason.REJECTED  # ARCHIVING: why (the dead-letter message)
        # Count 0 only: known to be data records (held back by per-key ordering when they were
        # read), so they need no second look at the log before they are handed out.
        self.data = False

    def clone(self, first: int, last: int) -> _Run:
        run = _Run(first, last, self.state, self.count, self.member, self.deadline, self.pending)
        run.not_before = self.not_before
        run.reason = self.reason
        run.data = self.data
        return run

    def view(self) -> RunView:
        return RunView(self.first, self.last, self.state, self.count, self.member, self.deadline, self.pending != 0)

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        where = f"{self.first}-{self.last}"
        return f"_Run({where} {self.state.name} n={self.count} {self.member} {self.deadline} p={self.pending})"


def _view(run: _Run, member_id: str | None) -> View:
    if run.state == _ACQUIRED:
        return View.ACQUIRED_BY_ME if run.member == member_id else View.ACQUIRED_BY_OTHER
    return _PLAIN_VIEW[run.state]


def _coalesce(changes: Iterable[StateBatch]) -> tuple[StateBatch, ...]:
    """Join adjacent state batches with the same state and delivery count."""
    out: list[StateBatch] = []
    for sb in changes:
        if out:
            prev = out[-1]
            if (
                prev.last_offset + 1 == sb.first_offset
                and prev.delivery_state == sb.delivery_state
                and prev.delivery_count == sb.delivery_count
            ):
                out[-1] = prev._replace(last_offset=sb.last_offset)
                continue
        out.append(sb)
    return tuple(out)


class _Take:
    """One ``acquire`` call: what it may still take, and what it took."""

    __slots__ = (
        "bound",
        "bytes",
        "chunk",
        "committed",
        "deadline",
        "exact",
        "member",
        "min_one",
        "out",
        "reads",
        "records",
        "sent",
        "share",
        "stop",
        "unlimited_bytes",
    )

    def __init__(
        self,
        member: str,
        *,
        deadline: int,
        records: int,
        chunk: int,
        exact: bool,
        share: int,
        committed: bool,
        bound: int,
        max_bytes: int,
        min_one: bool,
    ) -> None:
        self.member = member
        self.deadline = deadline  # lock deadline of what is taken (ms)
        self.records = records  # records still to take (the request's MaxRecords budget)
        self.chunk = chunk  # new records are grouped in runs of about this many
        self.exact = exact  # RECORD_LIMIT: never pass ``records``
        self.share = share  # never pass this, whatever the mode (the caller's part of a shared partition)
        self.committed = committed  # READ_COMMITTED: aborted records are skipped
        self.bound = bound  # high watermark, or LSO under READ_COMMITTED
        self.bytes = max_bytes  # bytes of stored batches the answer may still carry
        self.unlimited_bytes = max_bytes >= UNLIMITED_BYTES
        self.min_one = min_one  # the answer carries nothing yet: its first batch goes out whole
        self.reads = MAX_LOG_READS_PER_ACQUIRE
        self.out: list[AcquiredRange] = []
        self.sent: set[int] = set()  # first offsets of the stored batches counted against ``bytes``
        self.stop = False  # a throttled stretch, or a batch that does not fit, ends the call

    def more(self) -> bool:
        """Whether the call may take more records."""
        return self.records > 0 and self.share > 0 and not self.stop

    def took(self, n: int) -> None:
        self.records -= n
        self.share -= n

    def fits(self, size: int) -> bool:
        """Whether a stored batch of ``size`` bytes may still go out in the answer."""
        return size <= self.bytes or (self.min_one and not self.sent)

    def count(self, batch: LogBatch) -> None:
        """The answer carries ``batch``: count its bytes once."""
        if batch.first_offset not in self.sent:
            self.sent.add(batch.first_offset)
            self.bytes -= batch.size


def _lowest(a: int | None, b: int | None) -> int | None:
    if a is None:
        return b
    return a if b is None else min(a, b)


# ------------------------------------------------------------ share partition


class SharePartition:
    """In-flight record state of one share-partition. See the module docstring.

    Build with ``SharePartition.initialize``. Not thread-safe; one owner task.
    """

    def __init__(self, log: ShareLog, start_offset: int) -> None:
        self._log = log
        self._spso = start_offset
        self._speo = start_offset  # exclusive: the next offset to read from the log
        self._starts: list[int] = []  # first offset of each run, for bisect
        self._runs: list[_Run] = []  # contiguous, covering [SPSO, SPEO) exactly
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
        self._order: _KeyOrder | None = None

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
                sp._append(_Run(pos, first - 1, _AVAILABLE, 0))
            # ACQUIRED is never written; read one defensively as its previous delivery.
            rec_state = _PERSISTED_STATES.get(sb.delivery_state, _AVAILABLE)
            sp._append(_Run(first, sb.last_offset, rec_state, sb.delivery_count))
            if rec_state == _ARCHIVING:
                sp._dead_letters.append(DeadLetter(first, sb.last_offset, sb.delivery_count, DeadLetterReason.RESTORED))
            pos = sb.last_offset + 1
        sp._speo = pos
        sp._advance()
        return sp

    def _append(self, run: _Run) -> None:
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
        its key is not final (see :class:`_KeyOrder`).
        """
        if max_records <= 0:
            return []
        self._sync_log_start()
        self._lock_duration_ms = lock_duration_ms
        take = _Take(
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
        order = self._key_order(key_ordering)
        self._take_in_window(take, order, now_ms, delivery_count_limit, dead_letter)
        if not take.stop:
            self._take_new(take, order, max_in_flight)
        self._advance()
        self._maybe_compact_locks()
        return take.out

    def held_by(self, member_id: str) -> int:
        """Offsets ``member_id`` holds locked in this share-partition now. O(runs)."""
        return sum(r.last - r.first + 1 for r in self._runs if r.state == _ACQUIRED and r.member == member_id)

    def _take_in_window(self, take: _Take, order: _KeyOrder | None, now_ms: int, limit: int, dead_letter: bool) -> None:
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
                low = _lowest(low, left)
                continue
            view = View.HELD if run.not_before > now_ms else View.AVAILABLE
            action = TRANSITIONS[(view, Event.ACQUIRE)].action
            if action == Action.KEEP:  # held by its redelivery backoff until its time comes
                low = _lowest(low, run.first)
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
                low = _lowest(low, first)  # some records wait (budget, bytes, their key, throttling)
            i = bisect_right(starts, end_of_run)
            if throttled:
                take.stop = True
        if i < len(runs):
            low = _lowest(low, runs[i].first)
        self._avail_hint = self._speo if low is None else low

    def _take_stretches(self, take: _Take, stretches: list[tuple[int, int]], *, exact: bool) -> int:
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

    def _take_unread(self, take: _Take, i: int, order: _KeyOrder | None) -> tuple[int, int | None]:
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

    def _take_new(self, take: _Take, order: _KeyOrder | None, max_in_flight: int) -> None:
        """Step 2: read new records past SPEO while the window has room.

        As in Kafka, the room caps the records to take, and BATCH_OPTIMIZED still
        takes the last log batch whole: the window may pass the limit by less than
        one batch, and a batch is never cut at the limit (which would send it again
        and again).
        """
        room = self._spso + max_in_flight - self._speo
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

    def _lock(self, run: _Run, take: _Take) -> None:
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

    def _archive_spent(self, run: _Run, dead_letter: bool, order: _KeyOrder | None) -> None:
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

    def _fit_bytes(self, take: _Take, a: int, b: int) -> int:
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

    def _throttled(self, run: _Run, throttle_from: int, limit: int) -> int:
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

    def _key_order(self, enabled: bool) -> _KeyOrder | None:
        """The key index when per-key ordering is on (built from the log on first use), else None."""
        if not enabled:
            self._order = None
            return None
        if self._order is None:
            order = _KeyOrder(self._speo)
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

    def _hold_by_key(self, order: _KeyOrder, new: list[_Run], used: int) -> tuple[list[_Run], int, int | None]:
        """Split freshly acquired runs into what per-key ordering lets go out now and what
        must wait (AVAILABLE, never delivered, known data). Returns (runs, records
        acquired, first held offset or None)."""
        out: list[_Run] = []
        held: int | None = None
        for r in new:
            if r.state != _ACQUIRED:
                out.append(r)
                continue
            order.index(self._log, r.first, r.last)
            pos = r.first
            for a, b in order.free_stretches(r.first, r.last, self._state):
                if a > pos:
                    out.append(_held_run(r, pos, a - 1))
                    used -= a - pos
                    held = pos if held is None else held
                out.append(r.clone(a, b))
                pos = b + 1
            if pos <= r.last:
                out.append(_held_run(r, pos, r.last))
                used -= r.last - pos + 1
                held = pos if held is None else held
        return out, used, held

    def _read_log(self, take: _Take, start: int, stop: int, budget: int, count: int) -> tuple[list[_Run], int, int]:
        """Runs tiling ``[start, end)`` of the log: ACQUIRED for data, ARCHIVED for the rest.

        Returns (runs, records acquired, end). ``end`` is where reading stopped
        (the budget, the bytes of the answer, the read limit, a batch cut, or ``stop``).
        """
        out: list[_Run] = []
        used = 0
        pos = start
        chunk = take.chunk
        txns: list[tuple[int, int]] = []
        if take.committed:
            txns = sorted(self._log.aborted_transactions(start, stop), key=lambda t: t[1])
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
                out.append(_Run(first, last, _ACQUIRED, count, take.member, take.deadline))
            else:
                out.append(_Run(first, last, _ARCHIVED, 0))

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

    # --------------------------------------------------------- acknowledgement

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
        reqs: list[tuple[int, int, Sequence[int]]] = []
        for first, last, types in batches:
            if first < 0 or first > last:
                return AckResult(_INVALID_REQUEST, None)
            if len(types) != 1 and len(types) != last - first + 1:
                return AckResult(_INVALID_REQUEST, None)
            if any(t not in ACK_EVENTS for t in set(types)):
                return AckResult(_INVALID_REQUEST, None)
            reqs.append((first, last, types))
        reqs.sort(key=lambda r: r[0])
        joined: list[tuple[int, int, Sequence[int]]] = []
        for req in reqs:
            if joined:
                prev = joined[-1]
                if req[0] <= prev[1]:
                    return AckResult(_INVALID_REQUEST, None)
                # Explicit-mode clients send one batch per record: join neighbours
                # with one and the same type, so a whole run is still one step.
                if req[0] == prev[1] + 1 and len(req[2]) == 1 and len(prev[2]) == 1 and req[2][0] == prev[2][0]:
                    joined[-1] = (prev[0], req[1], prev[2])
                    continue
            joined.append(req)
        reqs = joined
        if reqs and reqs[-1][1] >= self._speo:
            return AckResult(_INVALID_REQUEST, None)

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
                        return AckResult(outcome.error, None)
            lo = max(first, self._spso)
            if lo > last:
                continue
            single = len(types) == 1 or types.count(types[0]) == len(types)
            i = self._index_of(lo)
            while i < len(runs) and runs[i].first <= last:
                run = runs[i]
                a, b = max(run.first, lo), min(run.last, last)
                view = _view(run, member_id)
                if single:
                    groups: Iterable[tuple[int, int, int]] = ((types[0], a, b),)
                else:
                    groups = _type_groups(types, first, a, b)
                for t, ga, gb in groups:
                    outcome = TRANSITIONS[(view, ACK_EVENTS[t])]
                    if outcome.error:
                        return AckResult(outcome.error, None)
                    if outcome.action != Action.KEEP:
                        plan.append((ga, gb, outcome.action))
                i += 1
        dur = self._lock_duration_ms if lock_duration_ms is None else lock_duration_ms
        delta, _ = self._apply(
            plan, now_ms, delivery_count_limit, dur, dead_letter=dead_letter, redelivery_delay=redelivery_delay
        )
        return AckResult(_NONE, delta)

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
        plan: list[tuple[int, int, Action]] = []
        for run in self._runs:
            if run.state != _ACQUIRED:
                continue
            action = TRANSITIONS[(_view(run, member_id), Event.RELEASE_MEMBER)].action
            if action != Action.KEEP:
                plan.append((run.first, run.last, action))
        delta, _ = self._apply(
            plan,
            now_ms,
            delivery_count_limit,
            self._lock_duration_ms,
            dead_letter=dead_letter,
            redelivery_delay=redelivery_delay,
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
        plan: list[tuple[int, int, Action]] = []
        seen: set[int] = set()
        while locks and locks[0][0] <= now_ms:
            deadline, offset = heapq.heappop(locks)
            i = self._index_of(offset)
            if i < 0:
                continue
            run = self._runs[i]
            if run.state != _ACQUIRED or run.deadline != deadline or run.first in seen:
                continue
            seen.add(run.first)
            action = TRANSITIONS[(_view(run, run.member), Event.LOCK_EXPIRY)].action
            if action != Action.KEEP:
                plan.append((run.first, run.last, action))
        plan.sort(key=lambda p: p[0])
        delta, available = self._apply(
            plan,
            now_ms,
            delivery_count_limit,
            self._lock_duration_ms,
            dead_letter=dead_letter,
            redelivery_delay=redelivery_delay,
        )
        return ExpireResult(delta, available)

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
        delta = Delta(delta_id, self._delta_start(delta_id), _coalesce(changes), tuple(undo))
        self._outstanding[delta_id] = delta
        return delta, available

    def _delta_start(self, delta_id: int) -> int:
        """First offset not final, counting only durable finality and this delta's."""
        for run in self._runs:
            if run.state in FINAL_STATES and (run.pending == 0 or run.pending == delta_id):
                continue
            return run.first
        return self._speo

    # ------------------------------------------------------------- persistence

    def on_persisted(self, delta: Delta) -> None:
        """The caller wrote ``delta`` durably: its changes are final; SPSO may advance.

        Records it moved to ARCHIVING now wait for their dead-letter copy
        (:meth:`take_dead_letters`): the copy is written only once ARCHIVING is durable.
        """
        if self._outstanding.pop(delta.id, None) is None:
            return  # confirmed or rolled back already
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
                    if run.state == _ARCHIVING:
                        self._dead_letters.append(DeadLetter(run.first, run.last, run.count, run.reason))
                    elif order is not None and run.state in FINAL_STATES:
                        order.settle(run.first, run.last)
                i += 1
            hi_idx = max(hi_idx, i)
        self._merge(lo_idx, hi_idx)
        self._advance()

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
                action = TRANSITIONS[(_view(run, None), Event.DEAD_LETTERED)].action
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


def _held_run(acquired: _Run, first: int, last: int) -> _Run:
    """Records read from the log that per-key ordering holds back: AVAILABLE, never delivered."""
    run = _Run(first, last, _AVAILABLE, acquired.count - 1)
    run.data = True
    return run


class _KeyOrder:
    """The per-key ordering index of one share-partition (extension).

    For every key, the window's offsets with that key that are not settled yet
    (not final, or final but not durably so), in order. A keyed record may be
    handed out only when it is the first of its key's list: earlier records of
    its key are all final, so one member at a time works on a key and in offset
    order. A record settles (leaves the list) once its finality is durable, so
    the next record of the key goes out only after the previous one's
    acknowledgement is written. Records without a key are not ordered. Keys come
    from the log (``ShareLog.record_keys``), read once per record as records enter
    the window; the index is rebuilt from the log after a restart or when the
    extension is turned on.
    """

    __slots__ = ("indexed_to", "keys", "pending", "suspect")

    def __init__(self, indexed_to: int) -> None:
        self.keys: dict[int, Hashable] = {}  # offset -> key, unsettled keyed records
        self.pending: dict[Hashable, list[int]] = {}  # key -> its unsettled offsets, sorted
        self.indexed_to = indexed_to  # keys below this offset have been read
        # Keys that may have a record in flight that is not the first of their list
        # (handed out before ordering was turned on); checked in full until it clears.
        self.suspect: set[Hashable] = set()

    def add(self, offset: int, key: Hashable) -> None:
        if offset in self.keys:
            return
        self.keys[offset] = key
        insort(self.pending.setdefault(key, []), offset)

    def index(self, log: ShareLog, first: int, last: int) -> None:
        """Read the keys of ``[first, last]`` not read yet."""
        if last < self.indexed_to:
            return
        for offset, key in log.record_keys(max(first, self.indexed_to), last + 1):
            self.add(offset, key)
        self.indexed_to = last + 1

    def settle(self, first: int, last: int) -> None:
        """``[first, last]`` are durably final: they no longer hold their keys back."""
        keys = self.keys
        if not keys:
            return
        for offset in range(first, last + 1):
            key = keys.pop(offset, None)
            if key is not None:
                self._remove(key, offset)

    def drop_below(self, offset: int) -> None:
        for o in [o for o in self.keys if o < offset]:
            self._remove(self.keys.pop(o), o)

    def _remove(self, key: Hashable, offset: int) -> None:
        pend = self.pending[key]
        i = bisect_left(pend, offset)
        if i < len(pend) and pend[i] == offset:
            del pend[i]
        if not pend:
            del self.pending[key]
            self.suspect.discard(key)

    def suspect_acquired(self, state: Callable[[int], RecordState]) -> None:
        self.suspect = {k for k, pend in self.pending.items() if any(state(o) == _ACQUIRED for o in pend)}

    def free(self, offset: int, state: Callable[[int], RecordState]) -> bool:
        key = self.keys.get(offset)
        if key is None:
            return True
        pend = self.pending[key]
        if pend[0] != offset:
            return False  # View.HELD: an earlier record of its key is not settled
        if key in self.suspect:
            if any(state(o) == _ACQUIRED for o in pend[1:]):
                return False
            self.suspect.discard(key)
        return True

    def free_stretches(self, first: int, last: int, state: Callable[[int], RecordState]) -> list[tuple[int, int]]:
        """The stretches of ``[first, last]`` whose records may go out now."""
        out: list[tuple[int, int]] = []
        start: int | None = None
        for offset in range(first, last + 1):
            if self.free(offset, state):
                if start is None:
                    start = offset
            elif start is not None:
                out.append((start, offset - 1))
                start = None
        if start is not None:
            out.append((start, last))
        return out


def _type_groups(types: Sequence[int], base: int, a: int, b: int) -> Iterable[tuple[int, int, int]]:
    """(type, first, last) for each stretch of equal per-offset types within [a, b]."""
    pos = a
    for t, grp in groupby(types[a - base : b - base + 1]):
        n = sum(1 for _ in grp)
        yield t, pos, pos + n - 1
        pos += n


def _reset_offset(log: ShareLog, auto_offset_reset: str | tuple[str, int], now_ms: int) -> int:
    if auto_offset_reset == "latest":
        return log.high_watermark
    if auto_offset_reset == "earliest":
        return log.log_start_offset
    if isinstance(auto_offset_reset, tuple) and len(auto_offset_reset) == 2 and auto_offset_reset[0] == "by_duration":
        found = log.offset_for_timestamp(now_ms - int(auto_offset_reset[1]))
        return log.high_watermark if found is None else found[0]
    raise ValueError(f"unknown share.auto.offset.reset {auto_offset_reset!r}")
