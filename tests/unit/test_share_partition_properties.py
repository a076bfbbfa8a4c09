"""Property tests of the share-partition state machine.

1. The transition table matches KIP-932, written out here independently.
2. Every (record state, input) pair, driven through the public API, ends in the
   state or error the table gives.
3. A Hypothesis state machine runs random consumers, clocks, log growth,
   retention, write failures and crashes against one share partition and checks
   the invariants after every step: the window is tiled exactly once (no offset
   held by two members), SPSO never moves back, no acquired record is past the
   delivery limit, acknowledgements are all-or-nothing, the confirmed deltas
   replayed into a model give a durable state that never claims more than memory
   and that a restarted partition reads back exactly, and a consumer that keeps
   accepting finishes every offset.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from broker.share.inflight import Delta, PersistedState, StateBatch
from broker.share.partition import SharePartition
from broker.share.states import (
    ACK_EVENTS,
    FINAL_STATES,
    TRANSITIONS,
    AckType,
    AcquireMode,
    Action,
    Event,
    IsolationLevel,
    RecordState,
    View,
)
from tests.unit.test_share_partition import FakeLog

AVAILABLE, ACQUIRED, ACKNOWLEDGED, ARCHIVED = (
    RecordState.AVAILABLE,
    RecordState.ACQUIRED,
    RecordState.ACKNOWLEDGED,
    RecordState.ARCHIVED,
)
LOCK = 100

# ------------------------------------------------------- 1. the table vs the KIP

# Rows: the record as the acting member sees it. Columns: the input. Written from
# KIP932.md ("Share-partition") and KIP-1191 (ARCHIVING waits for its dead-letter
# copy; "dlq" is that copy becoming durable), not from states.py. HELD is the
# extension's AVAILABLE-but-not-yet record: as AVAILABLE, except acquisition skips it.
KIP_TABLE = """
                   acquire  gap      accept   release  reject   renew    leave    expiry   logstart dlq
AVAILABLE          acquire  121      121      121      121      121      keep     keep     drop     keep
ACQUIRED_BY_ME     keep     archive  ack      release  reject   renew    release  release  drop     keep
ACQUIRED_BY_OTHER  keep     121      121      121      121      121      keep     release  drop     keep
ACKNOWLEDGED       keep     121      121      121      121      121      keep     keep     keep     keep
ARCHIVED           keep     keep     121      121      121      121      keep     keep     keep     keep
ARCHIVING          keep     121      121      121      121      121      keep     keep     drop     archive
HELD               keep     121      121      121      121      121      keep     keep     drop     keep
"""
_COLUMNS = {
    "acquire": Event.ACQUIRE,
    "gap": Event.ACK_GAP,
    "accept": Event.ACK_ACCEPT,
    "release": Event.ACK_RELEASE,
    "reject": Event.ACK_REJECT,
    "renew": Event.ACK_RENEW,
    "leave": Event.RELEASE_MEMBER,
    "expiry": Event.LOCK_EXPIRY,
    "logstart": Event.LOG_START_PAST,
    "dlq": Event.DEAD_LETTERED,
}
_CELLS = {
    "acquire": Action.ACQUIRE,
    "keep": Action.KEEP,
    "archive": Action.ARCHIVE,
    "ack": Action.ACKNOWLEDGE,
    "release": Action.RELEASE,
    "renew": Action.RENEW,
    "drop": Action.DROP,
    "reject": Action.REJECT,
}


def _kip_table() -> dict[tuple[View, Event], tuple[Action, int]]:
    lines = [ln.split() for ln in KIP_TABLE.strip().splitlines()]
    header, rows = lines[0], lines[1:]
    out = {}
    for row in rows:
        view = View[row[0]]
        for col, cell in zip(header, row[1:], strict=True):
            out[(view, _COLUMNS[col])] = (Action.KEEP, int(cell)) if cell.isdigit() else (_CELLS[cell], 0)
    return out


def test_transition_table_matches_the_kip():
    expected = _kip_table()
    assert set(expected) == set(TRANSITIONS)
    for key, (action, error) in expected.items():
        got = TRANSITIONS[key]
        assert (got.action, int(got.error)) == (action, error), key


def test_final_states_have_no_way_out():
    for view in (View.ACKNOWLEDGED, View.ARCHIVED):
        for event in Event:
            assert TRANSITIONS[(view, event)].action == Action.KEEP


# -------------------------------------------- 2. every (state, input) pair, live

SUBJECT = 1  # offset under test; offset 0 stays ACQUIRED by "x" so SUBJECT is never pruned
ME, OTHER = "me", "other"
_EVENT_ACK = {ev: t for t, ev in ACK_EVENTS.items()}


def _partition_in(view: View, count: int, limit: int) -> SharePartition:
    log = FakeLog().data(1).data(1).data(1)
    persisted = {
        View.AVAILABLE: (AVAILABLE, count),
        View.ACQUIRED_BY_ME: (AVAILABLE, count - 1),
        View.ACQUIRED_BY_OTHER: (AVAILABLE, count - 1),
        View.ACKNOWLEDGED: (ACKNOWLEDGED, count),
        View.ARCHIVED: (ARCHIVED, count),
    }[view]
    sp = SharePartition.initialize(PersistedState(0, [StateBatch(SUBJECT, SUBJECT, *persisted)]), log)
    one: dict[str, Any] = {
        "max_records": 1,
        "now_ms": 0,
        "mode": AcquireMode.RECORD_LIMIT,
        "lock_duration_ms": LOCK,
        "delivery_count_limit": limit,
    }
    sp.acquire("x", **one)
    if view == View.ACQUIRED_BY_ME:
        sp.acquire(ME, **one)
    elif view == View.ACQUIRED_BY_OTHER:
        sp.acquire(OTHER, **one)
    assert sp.state_of(0).member_id == "x"
    return sp


# The KIP-932 rows, driven live; ARCHIVING, HELD and DEAD_LETTERED have their own tests
# in test_share_partition.py (they need a dead-letter group or an extension turned on).
_KIP932_PAIRS = sorted(
    (v, e) for v, e in TRANSITIONS if v not in (View.ARCHIVING, View.HELD) and e != Event.DEAD_LETTERED
)


@pytest.mark.parametrize("view,event", _KIP932_PAIRS)
@settings(max_examples=15, deadline=None)
@given(count=st.integers(1, 6), limit=st.integers(2, 6))
def test_every_state_and_input(view: View, event: Event, count: int, limit: int):
    if view in (View.ACQUIRED_BY_ME, View.ACQUIRED_BY_OTHER):
        count = min(count, limit)  # an acquired record is never past the limit
    sp = _partition_in(view, count, limit)
    before = sp.state_of(SUBJECT)
    now = 50
    error = 0
    delta: Delta | None = None
    if event == Event.ACQUIRE:
        one: dict[str, Any] = {"max_records": 1, "mode": AcquireMode.RECORD_LIMIT, "lock_duration_ms": LOCK}
        sp.acquire(ME, now_ms=now, delivery_count_limit=limit, **one)
    elif event in _EVENT_ACK:
        res = sp.acknowledge(ME, [(SUBJECT, SUBJECT, [_EVENT_ACK[event]])], now, limit, lock_duration_ms=LOCK)
        error, delta = res
    elif event == Event.RELEASE_MEMBER:
        delta = sp.release_member(ME, now, limit)
    elif event == Event.LOCK_EXPIRY:
        delta = sp.expire_locks(LOCK + 1, limit).delta
    else:
        sp.on_log_start_offset(SUBJECT + 1)
    outcome = TRANSITIONS[(view, event)]
    assert error == outcome.error
    written = {
        o: (b.delivery_state, b.delivery_count)
        for b in (delta.batches if delta else ())
        for o in range(b.first_offset, b.last_offset + 1)
    }
    if delta is not None:
        sp.on_persisted(delta)
    after = sp.state_of(SUBJECT)
    action = outcome.action
    if action == Action.KEEP and event != Event.LOG_START_PAST:
        assert after == before
    elif action == Action.ACQUIRE:
        assert after == ((ACQUIRED, count + 1, ME, now + LOCK) if count < limit else (ARCHIVED, count, None, -1))
    elif action in (Action.ACKNOWLEDGE, Action.ARCHIVE, Action.RELEASE, Action.REJECT):
        target = {Action.ACKNOWLEDGE: ACKNOWLEDGED, Action.ARCHIVE: ARCHIVED, Action.REJECT: ARCHIVED}.get(
            action, ARCHIVED if count >= limit else AVAILABLE
        )
        assert written[SUBJECT] == (target, count)
        assert after == (target, count, None, -1)
    elif action == Action.RENEW:
        assert delta is None and after == (ACQUIRED, count, ME, now + LOCK)
    else:  # the log start moved past: below SPSO, i.e. archived or already final
        assert SUBJECT < sp.start_offset and sp.state_of(SUBJECT).state in FINAL_STATES
    if action not in (Action.ACKNOWLEDGE, Action.ARCHIVE, Action.RELEASE, Action.REJECT):
        assert SUBJECT not in written


# ---------------------------------------------------------- 3. state machine

MEMBERS = ("m1", "m2")
ACK_TYPES = [int(t) for t in AckType]
ACCEPT, RELEASE, REJECT = int(AckType.ACCEPT), int(AckType.RELEASE), int(AckType.REJECT)

log_item = st.one_of(
    st.tuples(st.just("data"), st.integers(1, 4)),
    st.tuples(st.just("gap"), st.integers(1, 2)),
    st.tuples(st.just("control"), st.just(0)),
    st.tuples(st.just("txn"), st.integers(1, 2), st.integers(1, 3)),
    st.tuples(st.just("end"), st.integers(1, 2), st.booleans()),
)


def _produce(log: FakeLog, item: tuple) -> None:
    kind = item[0]
    if kind == "data":
        log.data(item[1])
    elif kind == "gap":
        log.gap(item[1])
    elif kind == "control":
        log.control(9)
    elif kind == "txn":
        log.txn(item[1], item[2])
    elif item[1] in log.open_txns:
        (log.abort if item[2] else log.commit)(item[1])


class LogFacts(NamedTuple):
    no_record: set[int]  # control batches and holes: never handed out
    aborted: set[int]  # records of aborted transactions: never handed out under read_committed


def _log_facts(log: FakeLog) -> LogFacts:
    stored: set[int] = set()
    no_record: set[int] = set()
    aborted: set[int] = set()
    for b in log.batches:
        span = range(b.first_offset, b.last_offset + 1)
        stored.update(span)
        if b.is_control:
            no_record.update(span)
        elif any(p == b.producer_id and f <= b.first_offset <= m for p, f, m in log.aborted):
            aborted.update(span)
    no_record.update(o for o in range(log.next_offset) if o not in stored)
    return LogFacts(no_record, aborted)


class SharePartitionMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.log = FakeLog()
        self.sp = SharePartition.initialize(None, self.log, "earliest", 0)
        self.now = 0
        self.limit = 3
        self.max_in_flight = 8
        self.pending: list[Delta] = []  # written in order, one writer
        self.d_start = 0  # the durable model: what confirmed deltas wrote
        self.d_map: dict[int, tuple[int, int]] = {}
        self.last_spso = 0

    @initialize(items=st.lists(log_item, max_size=12), limit=st.integers(2, 4), window=st.integers(3, 12))
    def setup(self, items: list[tuple], limit: int, window: int) -> None:
        for item in items:
            _produce(self.log, item)
        self.limit = limit
        self.max_in_flight = window

    # ----------------------------------------------------------------- rules

    @rule(item=log_item)
    def produce(self, item: tuple) -> None:
        _produce(self.log, item)

    @rule(
        member=st.sampled_from(MEMBERS),
        n=st.integers(1, 6),
        batch_size=st.integers(1, 6),
        mode=st.sampled_from(list(AcquireMode)),
        isolation=st.sampled_from(list(IsolationLevel)),
    )
    def acquire(self, member: str, n: int, batch_size: int, mode: int, isolation: int) -> None:
        spso, speo = self.sp.start_offset, self.sp.end_offset
        got = self.sp.acquire(
            member,
            max_records=n,
            batch_size=batch_size,
            mode=mode,
            now_ms=self.now,
            lock_duration_ms=LOCK,
            delivery_count_limit=self.limit,
            max_in_flight=self.max_in_flight,
            isolation=isolation,
        )
        taken = 0
        prev_last = -1
        for r in got:
            assert prev_last < r.first_offset <= r.last_offset
            prev_last = r.last_offset
            taken += r.last_offset - r.first_offset + 1
            for o in (r.first_offset, r.last_offset):
                assert self.sp.state_of(o)[:3] == (ACQUIRED, r.delivery_count, member)
            assert 1 <= r.delivery_count <= self.limit
            span = set(range(r.first_offset, r.last_offset + 1))
            assert not span & self.log_facts.no_record  # control batches and holes are never handed out
            if isolation == IsolationLevel.READ_COMMITTED and r.delivery_count == 1:
                assert not span & self.log_facts.aborted
        if mode == AcquireMode.RECORD_LIMIT:
            assert taken <= n
        # New records only while the window had room: the room caps the records
        # taken, except that batch_optimized takes the last log batch whole.
        room = spso + self.max_in_flight - speo
        new_offsets = sorted(o for r in got for o in range(max(r.first_offset, speo), r.last_offset + 1))
        if new_offsets:
            assert room > 0
            per_batch = [sum(1 for o in new_offsets if b.first_offset <= o <= b.last_offset) for b in self.log.batches]
            per_batch = [c for c in per_batch if c]
            if mode == AcquireMode.RECORD_LIMIT:
                assert sum(per_batch) <= room
            else:
                assert sum(per_batch[:-1]) < room

    @rule(member=st.sampled_from(MEMBERS), data=st.data())
    def acknowledge(self, member: str, data: st.DataObject) -> None:
        sp = self.sp
        acquired = [r for r in sp.runs() if r.state == ACQUIRED]
        mine = [r for r in acquired if r.member_id == member]
        if mine and data.draw(st.integers(0, 4), label="only mine?") > 0:
            acquired = mine
        batches: list[tuple[int, int, list[int]]] = []
        if acquired and data.draw(st.integers(0, 9), label="garbage?") > 0:
            picks = data.draw(st.lists(st.sampled_from(acquired), min_size=1, max_size=3, unique=True), label="runs")
            for r in sorted(picks, key=lambda r: r.first_offset):
                a = data.draw(st.integers(r.first_offset, r.last_offset), label="a")
                b = data.draw(st.integers(a, r.last_offset), label="b")
                if data.draw(st.booleans(), label="per offset?"):
                    types = data.draw(st.lists(st.sampled_from(ACK_TYPES), min_size=b - a + 1, max_size=b - a + 1))
                else:
                    types = [data.draw(st.sampled_from(ACK_TYPES), label="type")]
                batches.append((a, b, types))
        else:
            hi = self.log.next_offset + 3
            a = data.draw(st.integers(0, hi), label="a")
            b = data.draw(st.integers(a - 1, hi), label="b")
            types = data.draw(st.lists(st.integers(0, 5), min_size=0, max_size=3), label="types")
            batches.append((a, b, types))
        expected = self._expected_ack_error(member, batches)
        before = sp.runs()
        views = {o: sp.state_of(o) for f, l, _ in batches for o in range(max(f, 0), l + 1)}
        res = sp.acknowledge(member, batches, self.now, self.limit, lock_duration_ms=LOCK)
        assert res.error_code == expected
        if res.error_code:
            assert sp.runs() == before and res.delta is None
            return
        if res.delta is not None:
            self.pending.append(res.delta)
        for f, l, types in batches:
            for o in range(max(f, sp.start_offset), l + 1):
                old = views[o]
                t = types[0] if len(types) == 1 else types[o - f]
                action = TRANSITIONS[(self._view(old, member), ACK_EVENTS[t])].action
                new = sp.state_of(o)
                if action == Action.KEEP:
                    assert new == old
                elif action == Action.RENEW:
                    assert new == (ACQUIRED, old.delivery_count, member, self.now + LOCK)
                elif action == Action.ACKNOWLEDGE:
                    assert new.state == ACKNOWLEDGED
                elif action in (Action.ARCHIVE, Action.REJECT):
                    assert new.state == ARCHIVED
                else:
                    assert new.state == (ARCHIVED if old.delivery_count >= self.limit else AVAILABLE)

    @staticmethod
    def _view(rec, member: str) -> View:
        if rec.state == ACQUIRED:
            return View.ACQUIRED_BY_ME if rec.member_id == member else View.ACQUIRED_BY_OTHER
        return {AVAILABLE: View.AVAILABLE, ACKNOWLEDGED: View.ACKNOWLEDGED, ARCHIVED: View.ARCHIVED}[rec.state]

    def _expected_ack_error(self, member: str, batches: list[tuple[int, int, list[int]]]) -> int:
        """An offset-by-offset oracle of KIP-932's validation rules."""
        for f, l, types in batches:
            if f < 0 or f > l or len(types) not in {1, l - f + 1} or any(t not in ACK_EVENTS for t in types):
                return 42
        spans = sorted((f, l) for f, l, _ in batches)
        if any(spans[k][0] <= spans[k - 1][1] for k in range(1, len(spans))):
            return 42
        if any(l >= self.sp.end_offset for _, l, _ in batches):
            return 42
        for f, l, types in batches:
            for o in range(max(f, self.log.log_start_offset), l + 1):
                t = types[0] if len(types) == 1 else types[o - f]
                # below SPSO (but still in the log): final and held by nobody, i.e. ARCHIVED
                view = View.ARCHIVED if o < self.sp.start_offset else self._view(self.sp.state_of(o), member)
                err = TRANSITIONS[(view, ACK_EVENTS[t])].error
                if err:
                    return int(err)
        return 0

    @rule(member=st.sampled_from(MEMBERS), ack_type=st.sampled_from([ACCEPT, RELEASE, REJECT]))
    def acknowledge_all_held(self, member: str, ack_type: int) -> None:
        """What a client usually does: one type for everything it got."""
        held = [r for r in self.sp.runs() if r.state == ACQUIRED and r.member_id == member]
        batches = [(r.first_offset, r.last_offset, [ack_type]) for r in held]
        res = self.sp.acknowledge(member, batches, self.now, self.limit)
        assert res.error_code == 0 and (res.delta is not None) == bool(held)
        if res.delta is not None:
            self.pending.append(res.delta)
        assert not any(r.state == ACQUIRED and r.member_id == member for r in self.sp.runs())

    @rule(member=st.sampled_from(MEMBERS), ack_type=st.sampled_from([ACCEPT, RELEASE, REJECT]))
    def acknowledge_first_held(self, member: str, ack_type: int) -> None:
        """One acquired range at a time, oldest first, as explicit-mode clients do."""
        held = [r for r in self.sp.runs() if r.state == ACQUIRED and r.member_id == member]
        if held:
            r = held[0]
            res = self.sp.acknowledge(member, [(r.first_offset, r.last_offset, [ack_type])], self.now, self.limit)
            assert res.error_code == 0 and res.delta is not None
            self.pending.append(res.delta)

    @rule(member=st.sampled_from(MEMBERS))
    def release_member(self, member: str) -> None:
        held = [r for r in self.sp.runs() if r.state == ACQUIRED and r.member_id == member]
        delta = self.sp.release_member(member, self.now, self.limit)
        if delta is not None:
            self.pending.append(delta)
        assert (delta is not None) == bool(held)
        assert not any(r.state == ACQUIRED and r.member_id == member for r in self.sp.runs())

    @rule(dt=st.integers(0, 3 * LOCK // 2))
    def tick(self, dt: int) -> None:
        self.now += dt
        deadline = self.sp.next_lock_deadline()
        delta, available = self.sp.expire_locks(self.now, self.limit)
        if delta is not None:
            self.pending.append(delta)
            assert available == any(b.delivery_state == AVAILABLE for b in delta.batches)
        assert (delta is not None) == (deadline is not None and deadline <= self.now)
        nxt = self.sp.next_lock_deadline()
        assert nxt is None or nxt > self.now
        locks = [r.lock_deadline_ms for r in self.sp.runs() if r.state == ACQUIRED]
        assert nxt == (min(locks) if locks else None)

    @precondition(lambda self: self.pending)
    @rule(outcomes=st.lists(st.integers(0, 2), min_size=1, max_size=4))
    def write_in_order(self, outcomes: list[int]) -> None:
        """The writer takes the oldest deltas one after another; outcome 0 is a failed write."""
        for outcome in outcomes:
            if self.pending:
                self._write_next(outcome)

    def _write_next(self, outcome: int) -> None:
        delta = self.pending.pop(0)
        if outcome == 0:  # the write failed
            self.sp.rollback(delta)
            return
        self.d_start = max(self.d_start, delta.start_offset)
        for b in delta.batches:
            for o in range(b.first_offset, b.last_offset + 1):
                self.d_map[o] = (b.delivery_state, b.delivery_count)
        self.sp.on_persisted(delta)

    @rule(k=st.integers(-6, 4))
    def move_log_start(self, k: int) -> None:
        if k <= 0:
            return  # retention is rarer than fetching
        self.log.log_start_offset = min(self.log.log_start_offset + k, self.log.next_offset)
        self.sp.on_log_start_offset(self.log.log_start_offset)
        assert self.sp.start_offset >= self.log.log_start_offset

    @rule(dice=st.integers(0, 5))
    def crash_and_restart(self, dice: int) -> None:
        if dice != 3:
            return  # crashes are rarer than everything else
        old_spso = self.sp.start_offset
        self.pending.clear()  # unwritten deltas are lost with the process
        self.d_map = {o: v for o, v in self.d_map.items() if o >= self.d_start}
        state = PersistedState(self.d_start, [StateBatch(o, o, s, c) for o, (s, c) in sorted(self.d_map.items())])
        sp = SharePartition.initialize(state, self.log, "earliest", self.now)
        # the restarted partition reads back exactly what was written
        for o in range(sp.start_offset, sp.end_offset):
            s, c = self.d_map.get(o, (AVAILABLE, 0))
            assert sp.state_of(o) == (s, c, None, -1)
        # and only forgets finality the log gives back by itself
        assert sp.start_offset >= self.d_start
        facts = self.log_facts
        for o in range(sp.start_offset, old_spso):
            assert o < self.log.log_start_offset or o in facts.no_record | facts.aborted or o in self.d_map
        self.sp = sp
        self.last_spso = sp.start_offset

    # ------------------------------------------------------------ invariants

    @invariant()
    def window_is_tiled_once(self) -> None:
        sp = self.sp
        pos = sp.start_offset
        for r in sp.runs():
            assert r.first_offset == pos and r.last_offset >= r.first_offset
            pos = r.last_offset + 1
            if r.state == ACQUIRED:
                assert r.member_id is not None and r.lock_deadline_ms >= 0 and not r.pending
                assert 1 <= r.delivery_count <= self.limit  # never past the limit while acquired
            else:
                assert r.member_id is None and r.lock_deadline_ms == -1
        assert pos == sp.end_offset if sp.runs() else sp.start_offset == sp.end_offset
        assert sp.outstanding_deltas == len(self.pending)

    @invariant()
    def start_offset_never_moves_back(self) -> None:
        assert self.sp.start_offset >= self.last_spso
        self.last_spso = self.sp.start_offset

    @property
    def log_facts(self) -> LogFacts:
        return _log_facts(self.log)

    @invariant()
    def start_offset_passes_only_durable_or_derived_finality(self) -> None:
        facts = self.log_facts
        for o in range(max(self.d_start, self.log.log_start_offset), self.sp.start_offset):
            d = self.d_map.get(o)
            assert (d is not None and d[0] in FINAL_STATES) or o in facts.no_record | facts.aborted, o

    @invariant()
    def durable_state_never_claims_more_than_memory(self) -> None:
        sp = self.sp
        assert self.d_start <= sp.start_offset
        for r in sp.runs():
            for o in range(r.first_offset, r.last_offset + 1):
                d = self.d_map.get(o) if o >= self.d_start else None
                if r.state not in FINAL_STATES:
                    assert d is None or d[0] not in FINAL_STATES, (o, r, d)
                if not r.pending and r.delivery_count > 0 and r.state != ACQUIRED:
                    # confirmed releases and acknowledgements are exactly what was written
                    assert d == (r.state, r.delivery_count), (o, r, d)

    def teardown(self) -> None:
        """Liveness: a consumer that keeps accepting finishes every offset."""
        sp = self.sp
        for _ in range(300):
            for delta in self.pending:
                sp.on_persisted(delta)
            self.pending.clear()
            self.now += 10 * LOCK
            expired = sp.expire_locks(self.now, self.limit).delta
            if expired is not None:
                sp.on_persisted(expired)
            got = sp.acquire(
                "drain",
                max_records=50,
                now_ms=self.now,
                lock_duration_ms=LOCK,
                delivery_count_limit=self.limit,
                max_in_flight=self.max_in_flight,
            )
            if got:
                res = sp.acknowledge("drain", [(r.first_offset, r.last_offset, [1]) for r in got], self.now, self.limit)
                assert res.error_code == 0
                if res.delta is not None:
                    sp.on_persisted(res.delta)
            if sp.start_offset == self.log.high_watermark:
                break
        assert sp.start_offset == sp.end_offset == self.log.high_watermark
        assert sp.runs() == []


_MACHINE_SETTINGS = settings(
    stateful_step_count=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


# About 5 s: the default run.
def test_share_partition_machine() -> None:
    run_state_machine_as_test(SharePartitionMachine, settings=settings(_MACHINE_SETTINGS, max_examples=300))


# Ten times the search; it finds bugs that need two unconfirmed deltas with the
# older one failing (a delta start offset counting another delta's records).
@pytest.mark.slow
def test_share_partition_machine_long() -> None:
    run_state_machine_as_test(SharePartitionMachine, settings=settings(_MACHINE_SETTINGS, max_examples=3000))
