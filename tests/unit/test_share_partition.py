"""The share-partition state machine (KIP-932) driven by hand: scenarios from the KIP
and from what real share consumers send, with a fake log and a hand-held clock."""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Sequence

import pytest

from broker.protocol.errors import ErrorCode
from broker.share.inflight import AcquiredRange, Delta, LogBatch, PersistedState, StateBatch
from broker.share.partition import SharePartition
from broker.share.states import AckType, AcquireMode, IsolationLevel, RecordState

GAP, ACCEPT, RELEASE, REJECT, RENEW = (int(t) for t in AckType)
AVAILABLE, ACQUIRED, ACKNOWLEDGED, ARCHIVED = (
    RecordState.AVAILABLE,
    RecordState.ACQUIRED,
    RecordState.ACKNOWLEDGED,
    RecordState.ARCHIVED,
)
INVALID_REQUEST = int(ErrorCode.INVALID_REQUEST)
INVALID_RECORD_STATE = int(ErrorCode.INVALID_RECORD_STATE)
LOCK = 30_000


# ------------------------------------------------------------------ fake log


class FakeLog:
    """An in-memory log of batch headers implementing ``ShareLog``.

    Build it with the helpers: ``data(n)``, ``gap(n)`` (offsets compacted away),
    ``txn(pid, n)``, ``commit(pid)``, ``abort(pid)``, ``control(pid)``.
    """

    def __init__(self, log_start: int = 0) -> None:
        self.batches: list[LogBatch] = []
        self._lasts: list[int] = []
        self.next_offset = log_start
        self.log_start_offset = log_start
        self.open_txns: dict[int, int] = {}  # pid -> first offset
        self.aborted: list[tuple[int, int, int]] = []  # pid, first offset, marker offset
        self.timestamps: list[tuple[int, int]] = []  # (offset, timestamp) of each data batch
        self.keys: dict[int, object] = {}  # offset -> record key (records without one are absent)
        self.reads = 0

    # building
    def _add(self, n: int, **kw: object) -> LogBatch:
        b = LogBatch(self.next_offset, self.next_offset + n - 1, **kw)  # type: ignore[arg-type]
        self.batches.append(b)
        self._lasts.append(b.last_offset)
        self.next_offset += n
        return b

    def data(self, n: int, ts: int = 0, keys: Sequence[object] | None = None) -> FakeLog:
        b = self._add(n)
        self.timestamps.append((b.first_offset, ts))
        for i, key in enumerate(keys or ()):
            if key is not None:
                self.keys[b.first_offset + i] = key
        return self

    def gap(self, n: int) -> FakeLog:
        self.next_offset += n
        return self

    def txn(self, pid: int, n: int) -> FakeLog:
        b = self._add(n, producer_id=pid, is_transactional=True)
        self.open_txns.setdefault(pid, b.first_offset)
        return self

    def _marker(self, pid: int, aborted: bool) -> FakeLog:
        first = self.open_txns.pop(pid)
        b = self._add(1, is_control=True, producer_id=pid, is_transactional=True)
        if aborted:
            self.aborted.append((pid, first, b.first_offset))
        return self

    def commit(self, pid: int) -> FakeLog:
        return self._marker(pid, False)

    def abort(self, pid: int) -> FakeLog:
        return self._marker(pid, True)

    def control(self, pid: int = 7) -> FakeLog:
        self._add(1, is_control=True, producer_id=pid)
        return self

    # ShareLog
    @property
    def high_watermark(self) -> int:
        return self.next_offset

    @property
    def last_stable_offset(self) -> int:
        return min([self.next_offset, *self.open_txns.values()])

    def batch_bounds(self, start_offset: int, end_offset: int, max_records: int, max_bytes: int) -> list[LogBatch]:
        self.reads += 1
        out: list[LogBatch] = []
        covered = 0
        for b in self.batches[bisect_left(self._lasts, max(start_offset, self.log_start_offset)) :]:
            if b.first_offset >= end_offset:
                break
            out.append(b)
            covered += b.last_offset - max(b.first_offset, start_offset) + 1
            if covered >= max_records:
                break
        return out

    def aborted_transactions(self, start: int, end: int) -> list[tuple[int, int]]:
        return [(pid, first) for pid, first, marker in self.aborted if first < end and marker >= start]

    def offset_for_timestamp(self, timestamp: int) -> tuple[int, int] | None:
        for offset, ts in self.timestamps:
            if ts >= timestamp and offset >= self.log_start_offset:
                return offset, ts
        return None

    def record_keys(self, start_offset: int, end_offset: int) -> list[tuple[int, object]]:
        lo = max(start_offset, self.log_start_offset)
        return sorted((o, k) for o, k in self.keys.items() if lo <= o < end_offset)


def new(log: FakeLog, reset: str = "earliest") -> SharePartition:
    return SharePartition.initialize(None, log, reset, 0)


def get(sp: SharePartition, member: str, n: int, now: int = 0, **kw: object) -> list[AcquiredRange]:
    return sp.acquire(member, max_records=n, now_ms=now, lock_duration_ms=LOCK, **kw)  # type: ignore[arg-type]


def ack(sp: SharePartition, member: str, *batches: tuple[int, int, list[int]], now: int = 0, limit: int = 5):
    return sp.acknowledge(member, list(batches), now, limit)


def persist(sp: SharePartition, delta: Delta | None) -> Delta | None:
    if delta is not None:
        sp.on_persisted(delta)
    return delta


def states(sp: SharePartition) -> list[tuple[int, int, RecordState, int, str | None]]:
    return [(r.first_offset, r.last_offset, r.state, r.delivery_count, r.member_id) for r in sp.runs()]


# --------------------------------------------------------------- acquisition


def test_batch_optimized_takes_whole_batches_past_max_records():
    log = FakeLog().data(5).data(5).data(5)
    sp = new(log)
    assert get(sp, "a", 7) == [AcquiredRange(0, 9, 1)]
    assert sp.start_offset == 0 and sp.end_offset == 10


def test_record_limit_splits_a_batch_at_max_records():
    log = FakeLog().data(5).data(5)
    sp = new(log)
    assert get(sp, "a", 7, mode=AcquireMode.RECORD_LIMIT) == [AcquiredRange(0, 6, 1)]
    assert get(sp, "b", 7, mode=AcquireMode.RECORD_LIMIT) == [AcquiredRange(7, 9, 1)]


def test_batch_size_groups_new_records_at_batch_boundaries():
    log = FakeLog().data(3).data(3).data(3).data(3)
    sp = new(log)
    got = get(sp, "a", 12, batch_size=5)
    assert got == [AcquiredRange(0, 5, 1), AcquiredRange(6, 11, 1)]
    assert len(sp.runs()) == 2


def test_max_records_is_a_budget_for_redelivered_and_new_records():
    log = FakeLog().data(2).data(2).data(2).data(2)
    sp = new(log)
    assert get(sp, "a", 4) == [AcquiredRange(0, 3, 1)]
    persist(sp, ack(sp, "a", (0, 1, [RELEASE])).delta)
    # 2 redelivered + 2 new = 4
    assert get(sp, "b", 4) == [AcquiredRange(0, 1, 2), AcquiredRange(4, 5, 1)]


def test_record_limit_splits_a_released_run():
    log = FakeLog().data(10)
    sp = new(log)
    get(sp, "a", 10)
    persist(sp, ack(sp, "a", (0, 9, [RELEASE])).delta)
    assert get(sp, "b", 4, mode=AcquireMode.RECORD_LIMIT) == [AcquiredRange(0, 3, 2)]
    assert get(sp, "c", 4, mode=AcquireMode.RECORD_LIMIT) == [AcquiredRange(4, 7, 2)]


def test_batch_optimized_redelivery_stops_at_a_log_batch_boundary():
    log = FakeLog().data(3).data(3).data(3)
    sp = new(log)
    get(sp, "a", 9)
    persist(sp, ack(sp, "a", (0, 8, [RELEASE])).delta)
    # budget 4 reaches into the second log batch: it is taken whole
    assert get(sp, "b", 4) == [AcquiredRange(0, 5, 2)]
    assert get(sp, "c", 4) == [AcquiredRange(6, 8, 2)]


def test_nothing_acquired_past_the_high_watermark_or_with_zero_budget():
    log = FakeLog().data(3)
    sp = new(log)
    assert get(sp, "a", 0) == []
    assert get(sp, "a", 10) == [AcquiredRange(0, 2, 1)]
    assert get(sp, "a", 10) == []
    log.data(2)
    assert get(sp, "a", 10) == [AcquiredRange(3, 4, 1)]


# ---------------------------------------------------------- acknowledgements


def test_implicit_acks_accept_gap_accept():
    # librdkafka implicit mode: [0-2 Accept][3-3 Gap][4-4 Accept]
    log = FakeLog().data(5)
    sp = new(log)
    assert get(sp, "m", 500) == [AcquiredRange(0, 4, 1)]
    res = ack(sp, "m", (0, 2, [ACCEPT]), (3, 3, [GAP]), (4, 4, [ACCEPT]))
    assert res.error_code == 0
    assert res.delta is not None
    assert res.delta.batches == (StateBatch(0, 2, 2, 1), StateBatch(3, 3, 4, 1), StateBatch(4, 4, 2, 1))
    assert res.delta.start_offset == 5
    assert sp.start_offset == 0  # not before the write is confirmed
    sp.on_persisted(res.delta)
    assert sp.start_offset == 5 and sp.end_offset == 5 and sp.runs() == []


def test_release_redelivers_with_count_two():
    sp = new(FakeLog().data(3))
    get(sp, "a", 10)
    res = ack(sp, "a", (0, 2, [RELEASE]))
    assert res.delta is not None and res.delta.batches == (StateBatch(0, 2, 0, 1),)
    persist(sp, res.delta)
    assert get(sp, "b", 10) == [AcquiredRange(0, 2, 2)]
    assert sp.state_of(1) == (ACQUIRED, 2, "b", LOCK)


def test_reject_is_never_redelivered():
    sp = new(FakeLog().data(3))
    get(sp, "a", 10)
    persist(sp, ack(sp, "a", (0, 2, [REJECT])).delta)
    assert sp.start_offset == 3
    assert get(sp, "b", 10) == []


def test_delivery_count_limit_archives_on_release():
    sp = new(FakeLog().data(1).data(1))
    for n in (1, 2):
        assert get(sp, "a", 1, mode=AcquireMode.RECORD_LIMIT) == [AcquiredRange(0, 0, n)]
        delta = ack(sp, "a", (0, 0, [RELEASE]), limit=2).delta
        assert delta is not None
        persist(sp, delta)
    assert delta.batches == (StateBatch(0, 0, 4, 2),)  # archived at the limit
    assert sp.start_offset == 1
    assert get(sp, "a", 1) == [AcquiredRange(1, 1, 1)]


def test_lock_expiry_makes_records_available_to_another_member():
    sp = new(FakeLog().data(4))
    get(sp, "a", 10, now=1_000)
    assert sp.next_lock_deadline() == 1_000 + LOCK
    assert sp.expire_locks(1_000 + LOCK - 1) == (None, False)
    delta, available = sp.expire_locks(1_000 + LOCK)
    assert available and delta is not None and delta.batches == (StateBatch(0, 3, 0, 1),)
    persist(sp, delta)
    assert sp.next_lock_deadline() is None
    assert get(sp, "b", 10, now=40_000) == [AcquiredRange(0, 3, 2)]
    # the first member's lock is gone
    assert ack(sp, "a", (0, 3, [ACCEPT])).error_code == INVALID_RECORD_STATE
    assert ack(sp, "b", (0, 3, [ACCEPT])).error_code == 0


def test_lock_expiry_at_the_limit_archives_and_wakes_nobody():
    sp = new(FakeLog().data(1))
    get(sp, "a", 1)
    delta, available = sp.expire_locks(LOCK, delivery_count_limit=1)
    assert not available and delta is not None and delta.batches == (StateBatch(0, 0, 4, 1),)


def test_expiry_of_partly_renewed_runs():
    sp = new(FakeLog().data(6))
    get(sp, "a", 10, now=0)
    # renew 2-3 at t=10s: runs 0-1, 2-3, 4-5; only 2-3 keeps its lock at t=30s
    res = ack(sp, "a", (2, 3, [RENEW]), now=10_000)
    assert res == (0, None)
    assert sp.next_lock_deadline() == LOCK
    delta, _ = sp.expire_locks(LOCK)
    assert delta is not None
    assert delta.batches == (StateBatch(0, 1, 0, 1), StateBatch(4, 5, 0, 1))
    assert sp.state_of(2) == (ACQUIRED, 1, "a", 10_000 + LOCK)
    assert sp.next_lock_deadline() == 10_000 + LOCK


def test_window_limit():
    log = FakeLog()
    for _ in range(6):
        log.data(5)
    sp = new(log)
    assert get(sp, "a", 100, max_in_flight=10) == [AcquiredRange(0, 9, 1)]
    assert sp.in_flight == 10
    assert get(sp, "b", 100, max_in_flight=10) == []
    assert not sp.can_acquire(max_in_flight=10)
    # at the limit only records inside the window come back
    persist(sp, ack(sp, "a", (5, 9, [RELEASE])).delta)
    assert get(sp, "b", 100, max_in_flight=10) == [AcquiredRange(5, 9, 2)]
    # the window slides once its head is final
    persist(sp, ack(sp, "a", (0, 4, [ACCEPT])).delta)
    assert sp.start_offset == 5
    assert get(sp, "c", 100, max_in_flight=10) == [AcquiredRange(10, 14, 1)]
    assert sp.in_flight == 10


def test_batch_optimized_takes_the_last_batch_whole_past_the_window_limit():
    # As Kafka: the room left in the window caps the records, but a log batch is
    # never cut at the limit (its whole bytes go out anyway).
    log = FakeLog().data(8).data(8)
    sp = new(log)
    assert get(sp, "a", 100, max_in_flight=5) == [AcquiredRange(0, 7, 1)]
    assert sp.in_flight == 8
    assert get(sp, "b", 100, max_in_flight=5) == []  # no room left: nothing new
    assert not sp.can_acquire(max_in_flight=5)


def test_members_sharing_a_partition_split_the_batch_a_lone_member_would_take_whole():
    # A lone member takes the batch at the window's edge whole (above); members sharing
    # the partition split that same batch in their parts, so their window is as large.
    sp = new(FakeLog().data(3).data(8))
    assert sp.window(5) == 11  # the edge (offset 4) is in the batch 3..10
    assert get(sp, "a", 100, max_in_flight=5, share_limit=4) == [AcquiredRange(0, 3, 1)]
    assert get(sp, "b", 100, max_in_flight=5, share_limit=4) == [AcquiredRange(4, 7, 1)]
    assert get(sp, "c", 100, max_in_flight=5, share_limit=4) == [AcquiredRange(8, 10, 1)]
    assert get(sp, "d", 100, max_in_flight=5, share_limit=4) == []  # the window is full
    # With small batches the window is the limit itself.
    sp = new(FakeLog().data(1).data(1).data(1).data(1).data(1).data(1))
    assert sp.window(5) == 5
    assert get(sp, "a", 100, max_in_flight=5, share_limit=4) == [AcquiredRange(0, 3, 1)]
    assert get(sp, "b", 100, max_in_flight=5, share_limit=4) == [AcquiredRange(4, 4, 1)]


def test_record_limit_stays_inside_the_window_limit():
    sp = new(FakeLog().data(8))
    assert get(sp, "a", 100, max_in_flight=5, mode=AcquireMode.RECORD_LIMIT) == [AcquiredRange(0, 4, 1)]


def test_divergent_acks_split_a_batch():
    sp = new(FakeLog().data(5))
    get(sp, "a", 5)
    assert len(sp.runs()) == 1
    persist(sp, ack(sp, "a", (0, 4, [ACCEPT, ACCEPT, ACCEPT, RELEASE, ACCEPT])).delta)
    assert sp.start_offset == 3
    assert states(sp) == [(3, 3, AVAILABLE, 1, None), (4, 4, ACKNOWLEDGED, 1, None)]
    assert get(sp, "b", 10) == [AcquiredRange(3, 3, 2)]
    persist(sp, ack(sp, "b", (3, 3, [ACCEPT])).delta)
    assert sp.start_offset == 5 and sp.runs() == []


def test_partial_ack_of_a_batch_leaves_the_rest_acquired():
    sp = new(FakeLog().data(10))
    get(sp, "a", 10)
    persist(sp, ack(sp, "a", (2, 4, [REJECT])).delta)
    assert states(sp) == [
        (0, 1, ACQUIRED, 1, "a"),
        (2, 4, ARCHIVED, 1, None),
        (5, 9, ACQUIRED, 1, "a"),
    ]
    persist(sp, ack(sp, "a", (0, 1, [ACCEPT]), (5, 9, [ACCEPT])).delta)
    assert sp.start_offset == 10


def test_finished_runs_merge_back():
    sp = new(FakeLog().data(10))
    get(sp, "a", 10)
    persist(sp, ack(sp, "a", (1, 1, [ACCEPT])).delta)
    persist(sp, ack(sp, "a", (2, 2, [ACCEPT])).delta)
    persist(sp, ack(sp, "a", (3, 9, [ACCEPT])).delta)
    assert states(sp) == [(0, 0, ACQUIRED, 1, "a"), (1, 9, ACKNOWLEDGED, 1, None)]


def test_ack_errors_are_all_or_nothing():
    sp = new(FakeLog().data(5).data(5))
    get(sp, "a", 5)
    get(sp, "b", 5)
    before = sp.runs()
    # not the holder
    assert ack(sp, "b", (0, 1, [ACCEPT])).error_code == INVALID_RECORD_STATE
    # valid first batch, invalid second: nothing happens
    assert ack(sp, "a", (0, 1, [ACCEPT]), (5, 5, [ACCEPT])).error_code == INVALID_RECORD_STATE
    # past the in-flight window
    assert ack(sp, "a", (0, 1, [ACCEPT]), (9, 10, [ACCEPT])).error_code == INVALID_REQUEST
    # malformed
    assert ack(sp, "a", (3, 2, [ACCEPT])).error_code == INVALID_REQUEST
    assert ack(sp, "a", (0, 2, [ACCEPT, ACCEPT])).error_code == INVALID_REQUEST
    assert ack(sp, "a", (0, 2, [])).error_code == INVALID_REQUEST
    assert ack(sp, "a", (0, 0, [5])).error_code == INVALID_REQUEST
    assert ack(sp, "a", (0, 2, [ACCEPT]), (2, 3, [ACCEPT])).error_code == INVALID_REQUEST
    assert sp.runs() == before and sp.outstanding_deltas == 0


def test_ack_of_records_not_acquired():
    sp = new(FakeLog().data(5))
    get(sp, "a", 5)
    persist(sp, ack(sp, "a", (1, 1, [ACCEPT]), (2, 2, [RELEASE])).delta)
    assert ack(sp, "a", (1, 1, [ACCEPT])).error_code == INVALID_RECORD_STATE  # ACKNOWLEDGED
    assert ack(sp, "a", (2, 2, [ACCEPT])).error_code == INVALID_RECORD_STATE  # AVAILABLE


def test_ack_below_the_start_offset_counts_as_archived():
    sp = new(FakeLog().data(5).data(5))
    get(sp, "a", 5)
    persist(sp, ack(sp, "a", (0, 4, [ACCEPT])).delta)
    assert sp.start_offset == 5
    # Below SPSO the records are final and nobody holds them: only a Gap passes.
    assert ack(sp, "a", (0, 4, [ACCEPT])) == (INVALID_RECORD_STATE, None)
    assert ack(sp, "a", (0, 4, [RELEASE])) == (INVALID_RECORD_STATE, None)
    assert ack(sp, "a", (0, 4, [GAP])) == (0, None)
    get(sp, "a", 5)
    assert ack(sp, "a", (0, 9, [ACCEPT])) == (INVALID_RECORD_STATE, None)  # straddles SPSO: all or nothing
    res = ack(sp, "a", (3, 9, [GAP, GAP, ACCEPT, ACCEPT, ACCEPT, ACCEPT, ACCEPT]))
    assert res.error_code == 0 and res.delta is not None and res.delta.batches == (StateBatch(5, 9, 2, 1),)


def test_per_offset_types():
    sp = new(FakeLog().data(6))
    get(sp, "a", 6)
    res = ack(sp, "a", (0, 5, [ACCEPT, ACCEPT, REJECT, GAP, RELEASE, RENEW]), now=5)
    assert res.error_code == 0 and res.delta is not None
    assert res.delta.batches == (
        StateBatch(0, 1, 2, 1),
        StateBatch(2, 3, 4, 1),
        StateBatch(4, 4, 0, 1),
    )
    assert sp.state_of(5) == (ACQUIRED, 1, "a", 5 + LOCK)


def test_explicit_mode_acks_one_batch_per_record_stay_batch_level():
    sp = new(FakeLog().data(500))
    get(sp, "m", 500)
    res = ack(sp, "m", *[(o, o, [ACCEPT]) for o in range(500)])
    assert res.error_code == 0 and res.delta is not None
    assert res.delta.batches == (StateBatch(0, 499, 2, 1),)
    assert len(sp.runs()) == 1


def test_renew_restarts_the_lock_and_persists_nothing():
    sp = new(FakeLog().data(3))
    get(sp, "a", 3, now=0)
    assert ack(sp, "a", (0, 2, [RENEW]), now=20_000) == (0, None)
    assert sp.next_lock_deadline() == 20_000 + LOCK
    assert sp.expire_locks(LOCK) == (None, False)
    assert ack(sp, "b", (0, 2, [RENEW])).error_code == INVALID_RECORD_STATE


def test_gap_ack_of_a_control_batch_is_accepted():
    # librdkafka drops control batches and may Gap-ack their offsets
    sp = new(FakeLog().data(3).control().data(1))
    assert get(sp, "a", 10) == [AcquiredRange(0, 2, 1), AcquiredRange(4, 4, 1)]
    res = ack(sp, "a", (0, 2, [ACCEPT]), (3, 3, [GAP]), (4, 4, [ACCEPT]))
    assert res.error_code == 0
    persist(sp, res.delta)
    assert sp.start_offset == 5
    # but not Accept
    sp2 = new(FakeLog().data(1).control().data(1))
    get(sp2, "a", 10)
    assert ack(sp2, "a", (1, 1, [ACCEPT])).error_code == INVALID_RECORD_STATE


# ---------------------------------------------------- control and transactions


def test_control_batches_are_archived_never_acquired():
    log = FakeLog().control().data(2).control().control().data(2)
    sp = new(log)
    assert get(sp, "a", 10) == [AcquiredRange(1, 2, 1), AcquiredRange(5, 6, 1)]
    assert sp.start_offset == 1  # the leading control record is final at once
    assert sp.state_of(3).state == ARCHIVED and sp.state_of(4).state == ARCHIVED


def test_holes_between_batches_are_archived():
    log = FakeLog().data(2).gap(3).data(2)
    sp = new(log)
    assert get(sp, "a", 10) == [AcquiredRange(0, 1, 1), AcquiredRange(5, 6, 1)]
    assert sp.state_of(3).state == ARCHIVED


def test_read_committed_skips_aborted_transactions():
    log = FakeLog().data(1).txn(1, 2).txn(2, 2).abort(1).txn(2, 1).commit(2).data(1)
    # 0 data | 1-2 pid1 | 3-4 pid2 | 5 abort pid1 | 6 pid2 | 7 commit pid2 | 8 data
    sp = new(log)
    got = get(sp, "a", 100, isolation=IsolationLevel.READ_COMMITTED)
    assert got == [AcquiredRange(0, 0, 1), AcquiredRange(3, 4, 1), AcquiredRange(6, 6, 1), AcquiredRange(8, 8, 1)]
    for off in (1, 2, 5, 7):
        assert sp.state_of(off).state == ARCHIVED
    # read_uncommitted hands the aborted records out too (only markers are skipped)
    sp2 = new(log)
    got2 = get(sp2, "a", 100)
    assert got2 == [AcquiredRange(0, 4, 1), AcquiredRange(6, 6, 1), AcquiredRange(8, 8, 1)]


def test_read_committed_starting_inside_an_aborted_transaction():
    log = FakeLog().txn(1, 2).txn(1, 2).abort(1).data(2)
    sp = new(log)
    assert get(sp, "a", 2, isolation=IsolationLevel.READ_COMMITTED, mode=AcquireMode.RECORD_LIMIT) == [
        AcquiredRange(5, 6, 1)
    ]
    assert sp.start_offset == 5


def test_read_committed_stops_at_the_last_stable_offset():
    log = FakeLog().data(2).txn(3, 2).data(2)
    sp = new(log)
    assert log.last_stable_offset == 2
    assert get(sp, "a", 100, isolation=IsolationLevel.READ_COMMITTED) == [AcquiredRange(0, 1, 1)]
    log.commit(3)
    assert get(sp, "a", 100, isolation=IsolationLevel.READ_COMMITTED) == [AcquiredRange(2, 5, 1)]


# ----------------------------------------------------------------- durability


def test_spso_advances_only_when_the_write_is_confirmed():
    sp = new(FakeLog().data(3))
    get(sp, "a", 3)
    delta = ack(sp, "a", (0, 2, [ACCEPT])).delta
    assert delta is not None and sp.start_offset == 0 and sp.outstanding_deltas == 1
    sp.on_persisted(delta)
    sp.on_persisted(delta)  # a repeat is ignored
    assert sp.start_offset == 3 and sp.outstanding_deltas == 0


def test_rollback_restores_the_lock():
    sp = new(FakeLog().data(3))
    get(sp, "a", 3, now=7)
    delta = ack(sp, "a", (0, 0, [ACCEPT]), (1, 2, [RELEASE])).delta
    assert delta is not None
    sp.rollback(delta)
    assert states(sp) == [(0, 0, ACQUIRED, 1, "a"), (1, 2, ACQUIRED, 1, "a")]
    assert sp.state_of(2).lock_deadline_ms == 7 + LOCK
    assert sp.next_lock_deadline() == 7 + LOCK
    assert ack(sp, "a", (0, 2, [ACCEPT])).error_code == 0


def test_a_released_record_goes_out_again_only_once_its_release_is_durable():
    # Handed out again before the release is durable, a record's count could go down:
    # a new leader would find no trace of the delivery whose release was never written.
    sp = new(FakeLog().data(4))
    get(sp, "a", 4)
    delta = ack(sp, "a", (0, 3, [RELEASE])).delta
    assert delta is not None
    assert get(sp, "b", 2, mode=AcquireMode.RECORD_LIMIT) == []  # held until durable
    sp.rollback(delta)
    assert states(sp) == [(0, 3, ACQUIRED, 1, "a")]
    delta = ack(sp, "a", (0, 3, [RELEASE])).delta
    assert delta is not None and sp.on_persisted(delta)
    assert get(sp, "b", 2, mode=AcquireMode.RECORD_LIMIT) == [AcquiredRange(0, 1, 2)]


def test_an_expired_lock_goes_out_again_only_once_its_expiry_is_durable():
    sp = new(FakeLog().data(2))
    get(sp, "a", 2)
    result = sp.expire_locks(LOCK + 1, 5)
    assert result.delta is not None
    assert get(sp, "b", 2, now=LOCK + 1) == []
    assert sp.on_persisted(result.delta)
    assert get(sp, "b", 2, now=LOCK + 2) == [AcquiredRange(0, 1, 2)]


def test_delta_start_offset_never_counts_another_unconfirmed_delta():
    sp = new(FakeLog().data(2).data(2))
    get(sp, "a", 2)
    get(sp, "b", 2)
    first = ack(sp, "a", (0, 1, [ACCEPT])).delta
    second = ack(sp, "b", (2, 3, [ACCEPT])).delta
    assert first is not None and second is not None
    assert first.start_offset == 2
    assert second.start_offset == 0  # 0-1 may still fail
    sp.on_persisted(second)
    assert sp.start_offset == 0
    sp.rollback(first)
    assert sp.start_offset == 0 and states(sp)[0] == (0, 1, ACQUIRED, 1, "a")
    persist(sp, ack(sp, "a", (0, 1, [ACCEPT])).delta)
    assert sp.start_offset == 4


def test_release_member():
    sp = new(FakeLog().data(2).data(2).data(2))
    get(sp, "a", 2)
    get(sp, "b", 2)
    get(sp, "a", 2)
    delta = sp.release_member("a", 0)
    assert delta is not None and delta.batches == (StateBatch(0, 1, 0, 1), StateBatch(4, 5, 0, 1))
    persist(sp, delta)
    assert sp.release_member("a", 0) is None
    assert get(sp, "c", 10) == [AcquiredRange(0, 1, 2), AcquiredRange(4, 5, 2)]
    assert sp.state_of(2).member_id == "b"


# ----------------------------------------------------------- initialisation


def test_initialize_without_state():
    log = FakeLog(log_start=10).data(5, ts=100).data(5, ts=200).data(5, ts=300)
    assert SharePartition.initialize(None, log, "latest", 0).start_offset == 25
    assert SharePartition.initialize(None, log, "earliest", 0).start_offset == 10
    assert SharePartition.initialize(None, log, ("by_duration", 150), 400).start_offset == 20
    assert SharePartition.initialize(None, log, ("by_duration", 50), 400).start_offset == 25
    assert SharePartition.initialize(PersistedState(-1, ()), log, "earliest", 0).start_offset == 10
    with pytest.raises(ValueError):
        SharePartition.initialize(None, log, "nearest", 0)


def test_initialize_from_persisted_state():
    log = FakeLog().data(5).data(5).data(5).data(5)
    state = PersistedState(
        3,
        [StateBatch(3, 4, 2, 1), StateBatch(5, 6, 0, 2), StateBatch(9, 9, 4, 1), StateBatch(12, 12, 2, 3)],
    )
    sp = SharePartition.initialize(state, log, "latest", 0)
    assert sp.start_offset == 5 and sp.end_offset == 13
    assert states(sp) == [
        (5, 6, AVAILABLE, 2, None),
        (7, 8, AVAILABLE, 0, None),  # never written: never delivered as far as anyone knows
        (9, 9, ARCHIVED, 1, None),
        (10, 11, AVAILABLE, 0, None),
        (12, 12, ACKNOWLEDGED, 3, None),
    ]
    got = get(sp, "a", 100)
    assert got == [AcquiredRange(5, 6, 3), AcquiredRange(7, 8, 1), AcquiredRange(10, 11, 1), AcquiredRange(13, 19, 1)]


def test_restart_brings_acquired_records_back_as_last_written():
    log = FakeLog().data(4)
    sp = new(log)
    get(sp, "a", 4)
    persist(sp, ack(sp, "a", (0, 3, [RELEASE])).delta)
    get(sp, "b", 4)  # count 2, not persisted
    state = PersistedState(0, [StateBatch(0, 3, 0, 1)])
    sp2 = SharePartition.initialize(state, log, "latest", 0)
    assert states(sp2) == [(0, 3, AVAILABLE, 1, None)]
    assert get(sp2, "c", 4) == [AcquiredRange(0, 3, 2)]


def test_initialize_rejects_corrupt_state():
    log = FakeLog().data(5)
    with pytest.raises(ValueError):
        SharePartition.initialize(PersistedState(0, [StateBatch(0, 3, 0, 1), StateBatch(2, 4, 0, 1)]), log)
    with pytest.raises(ValueError):
        SharePartition.initialize(PersistedState(0, [StateBatch(0, 3, 5, 1)]), log)


# ---------------------------------------------------------- log start moves


def test_log_start_moving_past_records_archives_them():
    log = FakeLog().data(5).data(5)
    sp = new(log)
    get(sp, "a", 5)
    persist(sp, ack(sp, "a", (0, 4, [RELEASE])).delta)
    get(sp, "b", 7, mode=AcquireMode.RECORD_LIMIT)  # 0-4 again, 5-6 new
    sp.on_log_start_offset(3)
    assert sp.start_offset == 3
    assert states(sp)[0] == (3, 4, ACQUIRED, 2, "b")
    # the member may still acknowledge everything it got; what is gone is skipped
    res = ack(sp, "b", (0, 6, [ACCEPT]))
    assert res.error_code == 0 and res.delta is not None
    assert res.delta.batches == (StateBatch(3, 4, 2, 2), StateBatch(5, 6, 2, 1))
    persist(sp, res.delta)
    assert sp.start_offset == 7
    sp.on_log_start_offset(20)
    assert sp.start_offset == 20 and sp.end_offset == 20


def test_acquire_notices_the_log_start_moving():
    log = FakeLog().data(5).data(5)
    sp = new(log)
    log.log_start_offset = 5
    assert get(sp, "a", 10) == [AcquiredRange(5, 9, 1)]
    assert sp.start_offset == 5


# ------------------------------------------------------------------ costs


def test_a_whole_batch_is_one_object_from_acquire_to_accept():
    sp = new(FakeLog().data(500))
    assert get(sp, "m", 500) == [AcquiredRange(0, 499, 1)]
    assert len(sp.runs()) == 1
    delta = ack(sp, "m", (0, 499, [ACCEPT])).delta
    assert delta is not None and delta.batches == (StateBatch(0, 499, 2, 1),)
    assert len(sp.runs()) == 1
    persist(sp, delta)
    assert sp.runs() == [] and sp.start_offset == 500


def test_batch_level_operations_do_not_loop_over_records():
    # A ten-million-record batch costs what a one-record batch costs.
    n = 10_000_000
    sp = new(FakeLog().data(n))
    t0 = time.perf_counter()
    assert get(sp, "m", n, max_in_flight=n) == [AcquiredRange(0, n - 1, 1)]
    ack(sp, "m", (5, 5, [RENEW]))
    persist(sp, ack(sp, "m", (0, n - 1, [ACCEPT])).delta)
    sp2 = new(FakeLog().data(n))
    get(sp2, "m", n, max_in_flight=n)
    persist(sp2, sp2.release_member("m", 0))
    get(sp2, "x", n, max_in_flight=n)
    persist(sp2, sp2.expire_locks(10 * LOCK).delta)
    assert time.perf_counter() - t0 < 0.05
    assert sp.start_offset == n


def test_lock_heap_stays_bounded():
    log = FakeLog()
    for _ in range(2000):
        log.data(1)
    sp = new(log)
    for k in range(2000):
        assert get(sp, "m", 1) == [AcquiredRange(k, k, 1)]
        persist(sp, ack(sp, "m", (k, k, [ACCEPT])).delta)
    assert len(sp._locks) <= 64 + 2
    assert sp.next_lock_deadline() is None
