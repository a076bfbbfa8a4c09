"""The pieces a share-partition's in-flight window is made of (see :mod:`broker.share.partition`).

The value types a share partition speaks in (what it reads from the log, the state
batches it persists, the deltas it returns, the views it gives), the :class:`Run`
(a stretch of consecutive offsets in one state: the unit of the window), and
:class:`Take`, what one ``acquire`` call may still take. Pure: no I/O, no clock.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Sequence
from enum import IntEnum
from typing import NamedTuple, Protocol

from broker.share.states import RecordState, View

__all__ = [
    "DEFAULT_DELIVERY_COUNT_LIMIT",
    "DEFAULT_LOCK_DURATION_MS",
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_IN_FLIGHT",
    "MAX_LOG_READS_PER_ACQUIRE",
    "MIN_THROTTLE_DELIVERY_COUNT",
    "UNLIMITED_BYTES",
    "UNLIMITED_RECORDS",
    "AckResult",
    "AcquiredRange",
    "DeadLetter",
    "DeadLetterReason",
    "Delta",
    "ExpireResult",
    "LogBatch",
    "PersistedState",
    "RecordView",
    "Run",
    "RunView",
    "ShareLog",
    "StateBatch",
    "Take",
    "coalesce",
    "held_run",
    "lowest",
    "view_of",
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
# Kafka (since 4.2, KAFKA-17541) hands records out in smaller and smaller pieces once
# their delivery count passes half the limit (never below this), so that one poison
# record does not take its whole batch to the limit with it.
MIN_THROTTLE_DELIVERY_COUNT = 2

_AVAILABLE = RecordState.AVAILABLE
_ACQUIRED = RecordState.ACQUIRED
_PLAIN_VIEW = {
    _AVAILABLE: View.AVAILABLE,
    RecordState.ACKNOWLEDGED: View.ACKNOWLEDGED,
    RecordState.ARCHIVING: View.ARCHIVING,
    RecordState.ARCHIVED: View.ARCHIVED,
}


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


class Run:
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

    def clone(self, first: int, last: int) -> Run:
        run = Run(first, last, self.state, self.count, self.member, self.deadline, self.pending)
        run.not_before = self.not_before
        run.reason = self.reason
        run.data = self.data
        return run

    def view(self) -> RunView:
        return RunView(self.first, self.last, self.state, self.count, self.member, self.deadline, self.pending != 0)

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        where = f"{self.first}-{self.last}"
        return f"Run({where} {self.state.name} n={self.count} {self.member} {self.deadline} p={self.pending})"


def view_of(run: Run, member_id: str | None) -> View:
    if run.state == _ACQUIRED:
        return View.ACQUIRED_BY_ME if run.member == member_id else View.ACQUIRED_BY_OTHER
    return _PLAIN_VIEW[run.state]


def coalesce(changes: Iterable[StateBatch]) -> tuple[StateBatch, ...]:
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


def held_run(acquired: Run, first: int, last: int) -> Run:
    """Records read from the log that per-key ordering holds back: AVAILABLE, never delivered."""
    run = Run(first, last, _AVAILABLE, acquired.count - 1)
    run.data = True
    return run


class Take:
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
        "shared",
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
        self.shared = share < UNLIMITED_RECORDS  # the caller shares the partition with other members
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


def lowest(a: int | None, b: int | None) -> int | None:
    if a is None:
        return b
    return a if b is None else min(a, b)
