"""The share coordinator's pure state machine (broker.share.coordinator).

Expected behaviour is Kafka 4.2's ShareCoordinatorShard and
PersisterStateBatchCombiner, except where the module docstring says otherwise
(start offset never moves back, a repeated initialize is a no-op, a
re-initialisation keeps the leader epoch, deleting state of a missing topic is
allowed).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from broker.metadata.image import java_string_hash
from broker.protocol.errors import ErrorCode
from broker.share.coordinator import (
    SHARE_SNAPSHOT,
    SHARE_UPDATE,
    KafkaError,
    ShareCoordinatorShard,
    ShareKey,
    StateBatch,
    StateRecord,
    StateSummary,
    combine_state_batches,
    coordinator_key,
    decode_record,
    encode_record,
    partition_for,
)

B = StateBatch
AVAILABLE, ACKNOWLEDGED, ARCHIVED = 0, 2, 4
TOPIC = uuid.UUID("6f1c5a57-83a6-4e0e-9d3b-3c1a2b4d5e6f")
KEY = ShareKey("group", TOPIC, 0)


class Applied:
    """A shard plus the log it would have written: every record goes through the
    wire encoding and is replayed, as the store does."""

    def __init__(self, snapshot_every: int = 500, known=None) -> None:
        self.shard = ShareCoordinatorShard(snapshot_every=snapshot_every, known_partition=known)
        self.log: list[tuple[bytes, bytes | None]] = []
        self.now = 1_000

    def apply(self, records: Sequence[StateRecord]) -> list[StateRecord]:
        for record in records:
            self.log.append(encode_record(record))
            decoded = decode_record(*self.log[-1])
            assert decoded is not None
            self.shard.replay(decoded, len(self.log) - 1)
        return list(records)

    def initialize(self, key=KEY, state_epoch=0, start_offset=-1):
        return self.apply(self.shard.initialize(key, state_epoch, start_offset, now_ms=self.now))

    def write(self, key=KEY, *, state_epoch=0, leader_epoch=0, start_offset=-1, batches=(), count=-1):
        return self.apply(
            self.shard.write(
                key,
                state_epoch=state_epoch,
                leader_epoch=leader_epoch,
                start_offset=start_offset,
                state_batches=batches,
                delivery_complete_count=count,
                now_ms=self.now,
            )
        )

    def read(self, key=KEY, leader_epoch=0):
        result = self.shard.read(key, leader_epoch, now_ms=self.now)
        return result.response, self.apply(result.records)

    def delete(self, key=KEY):
        return self.apply(self.shard.delete(key))

    def replayed(self, start: int = 0) -> ShareCoordinatorShard:
        fresh = ShareCoordinatorShard(snapshot_every=self.shard.snapshot_every)
        for offset in range(start, len(self.log)):
            record = decode_record(*self.log[offset])
            assert record is not None
            fresh.replay(record, offset)
        return fresh


def refused(code: int):
    class Refused:
        def __enter__(self):
            return self

        def __exit__(self, kind, exc, tb):
            assert kind is KafkaError, f"expected error {code}, got {kind}"
            assert exc.error_code == code, f"expected error {code}, got {exc.error_code}: {exc.message}"
            return True

    return Refused()


# ====================================================================== the combiner


@pytest.mark.parametrize(
    ("so_far", "new", "start", "expected"),
    [
        # nothing, or one batch
        ([], [], -1, []),
        ([B(0, 9, AVAILABLE, 1)], [], -1, [B(0, 9, AVAILABLE, 1)]),
        # same state: overlapping and contiguous batches merge
        ([B(0, 5, ACKNOWLEDGED, 1)], [B(3, 9, ACKNOWLEDGED, 1)], -1, [B(0, 9, ACKNOWLEDGED, 1)]),
        ([B(0, 4, ACKNOWLEDGED, 1)], [B(5, 9, ACKNOWLEDGED, 1)], -1, [B(0, 9, ACKNOWLEDGED, 1)]),
        # contiguous, different state: kept apart
        ([B(0, 4, ACKNOWLEDGED, 1)], [B(5, 9, AVAILABLE, 1)], -1, [B(0, 4, ACKNOWLEDGED, 1), B(5, 9, AVAILABLE, 1)]),
        # equal count: the higher state wins where they overlap, either way round
        (
            [B(0, 10, AVAILABLE, 1)],
            [B(3, 5, ACKNOWLEDGED, 1)],
            -1,
            [B(0, 2, AVAILABLE, 1), B(3, 5, ACKNOWLEDGED, 1), B(6, 10, AVAILABLE, 1)],
        ),
        ([B(0, 10, ARCHIVED, 1)], [B(3, 5, AVAILABLE, 1)], -1, [B(0, 10, ARCHIVED, 1)]),
        # the higher delivery count wins over the higher state
        (
            [B(0, 9, ACKNOWLEDGED, 1)],
            [B(5, 14, AVAILABLE, 2)],
            -1,
            [B(0, 4, ACKNOWLEDGED, 1), B(5, 14, AVAILABLE, 2)],
        ),
        # identical ranges: the higher priority replaces the other
        ([B(0, 9, AVAILABLE, 1)], [B(0, 9, AVAILABLE, 2)], -1, [B(0, 9, AVAILABLE, 2)]),
        # same first offset, different ends
        (
            [B(0, 4, AVAILABLE, 3)],
            [B(0, 9, AVAILABLE, 1)],
            -1,
            [B(0, 4, AVAILABLE, 3), B(5, 9, AVAILABLE, 1)],
        ),
        # the start offset drops whole batches and cuts the one it falls in
        ([B(0, 4, ACKNOWLEDGED, 1), B(5, 9, AVAILABLE, 1)], [], 7, [B(7, 9, AVAILABLE, 1)]),
        ([B(0, 4, ACKNOWLEDGED, 1)], [B(10, 12, AVAILABLE, 1)], 5, [B(10, 12, AVAILABLE, 1)]),
        # unsorted input, gaps kept
        (
            [B(20, 29, AVAILABLE, 1)],
            [B(0, 9, ARCHIVED, 1)],
            -1,
            [B(0, 9, ARCHIVED, 1), B(20, 29, AVAILABLE, 1)],
        ),
    ],
)
def test_combine_examples(so_far, new, start, expected):
    assert combine_state_batches(so_far, new, start) == expected


batch_st = st.builds(
    lambda first, length, state, count: B(first, first + length, state, count),
    st.integers(0, 60),
    st.integers(0, 15),
    st.sampled_from([AVAILABLE, ACKNOWLEDGED, ARCHIVED]),
    st.integers(1, 4),
)


def brute_force(batches, start: int) -> list[StateBatch]:
    """Per offset: the covering batch with the highest (count, state); then coalesce."""
    best: dict[int, tuple[int, int]] = {}
    for b in batches:
        for offset in range(b.first_offset, b.last_offset + 1):
            if start >= 0 and offset < start:
                continue
            prio = (b.delivery_count, b.delivery_state)
            if offset not in best or prio > best[offset]:
                best[offset] = prio
    out: list[StateBatch] = []
    for offset in sorted(best):
        count, state = best[offset]
        last = out[-1] if out else None
        if last and last.last_offset + 1 == offset and (last.delivery_count, last.delivery_state) == (count, state):
            out[-1] = last._replace(last_offset=offset)
        else:
            out.append(B(offset, offset, state, count))
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(batch_st, max_size=8), st.lists(batch_st, max_size=8), st.integers(-1, 40))
def test_combine_matches_per_offset_priority(so_far, new, start):
    got = combine_state_batches(so_far, new, start)
    if len(so_far) + len(new) >= 2 or start >= 0:
        assert got == brute_force(so_far + new, start)
    for a, b in zip(got, got[1:]):
        assert a.last_offset < b.first_offset  # sorted, no overlap


# ====================================================================== keys, partitions, framing


def test_java_string_hash_and_partition_rule():
    assert java_string_hash("") == 0
    assert java_string_hash("hello") == 99162322
    assert java_string_hash("polygenelubricants") == -(2**31)  # Utils.abs maps it to 0
    # A character outside the BMP counts as two UTF-16 units, as in Java.
    assert java_string_hash("\U0001f600") == 31 * 0xD83D + 0xDE00
    key = ShareKey("g1", uuid.UUID(bytes=bytes(range(16))), 3)
    assert coordinator_key(key) == "g1:AAECAwQFBgcICQoLDA0ODw:3"
    h = java_string_hash(coordinator_key(key))
    assert partition_for(key, 50) == abs(h) % 50
    assert all(0 <= partition_for(ShareKey(f"g{i}", TOPIC, i), 7) < 7 for i in range(100))


def test_record_framing_is_kafkas():
    shard = ShareCoordinatorShard()
    (snapshot,) = shard.initialize(KEY, 3, 42, now_ms=5)
    key, value = encode_record(snapshot)
    assert key[:2] == SHARE_SNAPSHOT.to_bytes(2, "big")
    assert value is not None and value[:2] == b"\x00\x00"
    assert decode_record(key, value) == snapshot
    shard.replay(snapshot, 0)
    (update,) = shard.write(KEY, state_epoch=3, leader_epoch=1, start_offset=42, state_batches=[B(42, 50, 2, 1)])
    key, value = encode_record(update)
    assert key[:2] == SHARE_UPDATE.to_bytes(2, "big")
    assert decode_record(key, value) == update
    (tombstone,) = shard.delete(KEY)
    key, value = encode_record(tombstone)
    assert value is None and decode_record(key, value) == tombstone
    assert decode_record(b"\x00\x07" + key[2:], value) is None  # unknown record types are skipped


# ====================================================================== initialize


def test_initialize_writes_a_fresh_snapshot():
    a = Applied()
    (record,) = a.initialize(state_epoch=0, start_offset=-1)
    assert record.is_snapshot
    v = record.value
    assert (v.snapshot_epoch, v.state_epoch, v.leader_epoch, v.start_offset) == (0, 0, 0, -1)
    assert v.delivery_complete_count == -1 and v.state_batches == []
    assert v.create_timestamp == v.write_timestamp == 1_000
    assert a.shard.read_summary(KEY) == StateSummary(0, 0, -1, -1)
    other = ShareKey("group", TOPIC, 1)
    (record,) = a.initialize(other, state_epoch=2, start_offset=10)
    assert record.value.delivery_complete_count == 0  # a known start offset: nothing delivered yet


def test_reinitialize_with_new_state_epoch_resets_progress():
    a = Applied()
    a.initialize(state_epoch=0, start_offset=0)
    a.write(leader_epoch=4, start_offset=5, batches=[B(5, 9, ACKNOWLEDGED, 1)], count=5)
    assert a.initialize(state_epoch=0, start_offset=0) != []  # same epoch, other start: rewritten
    a.write(leader_epoch=4, start_offset=5, batches=[B(5, 9, ACKNOWLEDGED, 1)], count=5)
    (record,) = a.initialize(state_epoch=1, start_offset=100)
    assert record.value.snapshot_epoch == 2 and record.value.leader_epoch == 4
    state = a.shard.get(KEY)
    assert (state.state_epoch, state.start_offset, state.state_batches) == (1, 100, ())
    # the same request again (a retry) changes nothing
    assert a.initialize(state_epoch=1, start_offset=100) == []
    # an older state epoch is fenced
    with refused(ErrorCode.FENCED_STATE_EPOCH):
        a.initialize(state_epoch=0, start_offset=0)


def test_initialize_validation():
    shard = ShareCoordinatorShard(known_partition=lambda topic_id, p: topic_id == TOPIC and p < 2)
    with refused(ErrorCode.INVALID_REQUEST):
        shard.initialize(ShareKey("g", TOPIC, -1), 0, 0)
    with refused(ErrorCode.INVALID_REQUEST):
        shard.initialize(KEY, -1, 0)
    with refused(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION):
        shard.initialize(ShareKey("g", TOPIC, 2), 0, 0)
    with refused(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION):
        shard.initialize(ShareKey("g", uuid.uuid4(), 0), 0, 0)
    assert shard.initialize(KEY, 0, 0)


# ====================================================================== write


def test_write_on_uninitialized_key_is_invalid_request():
    shard = ShareCoordinatorShard()
    with pytest.raises(KafkaError) as info:
        shard.write(KEY, state_epoch=0, leader_epoch=0, start_offset=0)
    assert info.value.error_code == ErrorCode.INVALID_REQUEST
    assert info.value.message == "Write operation on uninitialized share partition not allowed."


def test_write_fencing():
    a = Applied()
    a.initialize(state_epoch=2, start_offset=0)
    a.write(state_epoch=2, leader_epoch=5, start_offset=0)
    assert a.shard.get(KEY).leader_epoch == 5
    with refused(ErrorCode.FENCED_LEADER_EPOCH):
        a.write(state_epoch=2, leader_epoch=4, start_offset=0)
    with refused(ErrorCode.FENCED_STATE_EPOCH):
        a.write(state_epoch=1, leader_epoch=5, start_offset=0)
    # the leader fence is checked first, as Kafka does
    with refused(ErrorCode.FENCED_LEADER_EPOCH):
        a.write(state_epoch=1, leader_epoch=4, start_offset=0)
    # -1 means "not supplied": no fence, nothing changes
    a.write(state_epoch=-1, leader_epoch=-1, start_offset=3)
    state = a.shard.get(KEY)
    assert (state.state_epoch, state.leader_epoch, state.start_offset) == (2, 5, 3)
    # a newer state epoch than stored is accepted but does not change the stored one
    a.write(state_epoch=3, leader_epoch=6, start_offset=3)
    assert (a.shard.get(KEY).state_epoch, a.shard.get(KEY).leader_epoch) == (2, 6)
    with refused(ErrorCode.INVALID_REQUEST):
        a.shard.write(ShareKey("group", TOPIC, -5), state_epoch=0, leader_epoch=0, start_offset=0)


def test_write_merges_batches_and_drops_those_below_the_start_offset():
    a = Applied()
    a.initialize(start_offset=0)
    a.write(start_offset=0, batches=[B(0, 9, AVAILABLE, 1)])
    a.write(start_offset=0, batches=[B(0, 4, ACKNOWLEDGED, 1), B(5, 5, ARCHIVED, 1)])
    assert a.shard.get(KEY).state_batches == (B(0, 4, ACKNOWLEDGED, 1), B(5, 5, ARCHIVED, 1), B(6, 9, AVAILABLE, 1))
    a.write(start_offset=6, batches=[B(6, 9, AVAILABLE, 2)])
    assert a.shard.get(KEY).state_batches == (B(6, 9, AVAILABLE, 2),)


def test_start_offset_never_moves_back():
    a = Applied()
    a.initialize(start_offset=-1)
    a.write(start_offset=10, batches=[B(10, 19, ACKNOWLEDGED, 1)], count=10)
    (record,) = a.write(start_offset=4, batches=[B(4, 12, AVAILABLE, 1)], count=3)
    assert record.value.start_offset == 10
    state = a.shard.get(KEY)
    assert state.start_offset == 10
    assert state.state_batches == (B(10, 19, ACKNOWLEDGED, 1),)
    assert state.delivery_complete_count == 10  # the stale writer's count is ignored too


def test_delivery_complete_count_follows_the_start_offset():
    a = Applied()
    a.initialize(start_offset=0)
    a.write(start_offset=0, count=4)
    assert a.shard.get(KEY).delivery_complete_count == 4
    a.write(start_offset=0, count=2)  # same start offset: the count does not shrink
    assert a.shard.get(KEY).delivery_complete_count == 4
    a.write(start_offset=-1, count=6)  # start offset not written: same start offset
    assert a.shard.get(KEY).delivery_complete_count == 6
    a.write(start_offset=20, count=1)  # moved on: the new count
    assert a.shard.get(KEY).delivery_complete_count == 1
    a.write(start_offset=20)  # a v0 write (count unknown, -1) keeps it
    assert a.shard.get(KEY).delivery_complete_count == 1


def test_snapshot_cadence():
    a = Applied(snapshot_every=3)
    kinds = [a.initialize()[0].record_type]
    for i in range(9):
        kinds.append(a.write(start_offset=i, batches=[B(i, i, ACKNOWLEDGED, 1)])[0].record_type)
    s, u = SHARE_SNAPSHOT, SHARE_UPDATE
    assert kinds == [s, u, u, u, s, u, u, u, s, u]
    state = a.shard.get(KEY)
    assert state.snapshot_epoch == 2 and state.updates_since_snapshot == 1
    # a snapshot carries the whole state; an update only what was written
    snapshot = a.replayed().get(KEY)
    assert snapshot == state
    assert len(a.shard.write(KEY, state_epoch=0, leader_epoch=0, start_offset=8)[0].value.state_batches) == 0


def test_default_cadence_is_500_updates():
    a = Applied()
    a.initialize()
    kinds = [a.write(start_offset=i)[0].record_type for i in range(501)]
    assert kinds[:500] == [SHARE_UPDATE] * 500 and kinds[500] == SHARE_SNAPSHOT


def test_snapshot_every_zero_snapshots_every_write():
    a = Applied(snapshot_every=0)
    a.initialize()
    assert all(a.write(start_offset=i)[0].is_snapshot for i in range(3))


# ====================================================================== read, summary, delete


def test_read():
    a = Applied()
    with refused(ErrorCode.INVALID_REQUEST):
        a.read()
    a.initialize(state_epoch=1, start_offset=0)
    a.write(state_epoch=1, leader_epoch=0, start_offset=2, batches=[B(2, 4, ACKNOWLEDGED, 1)], count=3)
    answer, records = a.read(leader_epoch=0)
    assert records == []
    assert answer == (1, 2, 3, (B(2, 4, ACKNOWLEDGED, 1),))
    # a new leader's read records its epoch, fencing the old leader's writes
    answer, records = a.read(leader_epoch=3)
    assert answer.start_offset == 2
    (record,) = records
    assert record.record_type == SHARE_UPDATE and record.value.leader_epoch == 3 and record.value.state_batches == []
    with refused(ErrorCode.FENCED_LEADER_EPOCH):
        a.write(state_epoch=1, leader_epoch=0, start_offset=2)
    with refused(ErrorCode.FENCED_LEADER_EPOCH):
        a.read(leader_epoch=2)
    assert a.read(leader_epoch=-1)[1] == []
    assert a.shard.get(KEY).state_batches == (B(2, 4, ACKNOWLEDGED, 1),)


def test_read_summary():
    a = Applied(known=lambda topic_id, p: topic_id == TOPIC)
    assert a.shard.read_summary(KEY) == StateSummary(0, 0, -1, -1)
    with refused(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION):
        a.shard.read_summary(ShareKey("group", uuid.uuid4(), 0))
    with refused(ErrorCode.INVALID_REQUEST):
        a.shard.read_summary(ShareKey("group", TOPIC, -1))
    a.initialize(state_epoch=2, start_offset=7)
    a.read(leader_epoch=4)
    a.write(state_epoch=2, leader_epoch=4, start_offset=9, count=1)
    assert a.shard.read_summary(KEY) == StateSummary(2, 4, 9, 1)


def test_delete_writes_a_tombstone_and_forgets_the_key():
    a = Applied(known=lambda topic_id, p: False)  # the topic is gone: deleting still works
    assert a.delete() == []
    a.shard.known_partition = None
    a.initialize(state_epoch=3, start_offset=0)
    a.read(leader_epoch=9)
    (record,) = a.delete()
    assert record.is_tombstone and record.record_type == SHARE_SNAPSHOT
    assert KEY not in a.shard
    assert a.replayed().get(KEY) is None
    # a new life starts from scratch: snapshot epoch 0, any state epoch, leader epoch 0
    (record,) = a.initialize(state_epoch=0, start_offset=0)
    assert (record.value.snapshot_epoch, record.value.leader_epoch) == (0, 0)


def test_snapshot_record_restates_the_current_state():
    a = Applied(snapshot_every=100)
    a.initialize(start_offset=0)
    a.write(leader_epoch=2, start_offset=3, batches=[B(3, 8, ARCHIVED, 2)], count=1)
    before = a.shard.get(KEY)
    record = a.shard.snapshot_record(KEY, now_ms=77)
    a.apply([record])
    after = a.shard.get(KEY)
    assert after.snapshot_epoch == before.snapshot_epoch + 1 and after.write_timestamp == 77
    for name in ("state_epoch", "leader_epoch", "start_offset", "delivery_complete_count", "state_batches"):
        assert getattr(after, name) == getattr(before, name)
    assert a.shard.snapshot_record(ShareKey("nobody", TOPIC, 0)).is_tombstone


def test_restore_undoes_applied_records():
    a = Applied()
    a.initialize(start_offset=0)
    saved = a.shard.get(KEY)
    a.write(start_offset=5, batches=[B(5, 6, ACKNOWLEDGED, 1)])
    a.shard.restore(KEY, saved)
    assert a.shard.get(KEY) is saved
    other = ShareKey("g2", TOPIC, 0)
    a.initialize(other)
    a.shard.restore(other, None)
    assert other not in a.shard


# ====================================================================== replay == live, under any history

KEYS = [ShareKey("g", TOPIC, 0), ShareKey("g", TOPIC, 1), ShareKey("h", TOPIC, 0)]

op_st = st.one_of(
    st.tuples(st.just("init"), st.sampled_from(KEYS), st.integers(0, 3), st.integers(-1, 30)),
    st.tuples(
        st.just("write"),
        st.sampled_from(KEYS),
        st.integers(-1, 3),
        st.integers(-1, 5),
        st.integers(-1, 40),
        st.lists(batch_st, max_size=4),
        st.integers(-1, 20),
    ),
    st.tuples(st.just("read"), st.sampled_from(KEYS), st.integers(-1, 6)),
    st.tuples(st.just("delete"), st.sampled_from(KEYS)),
    st.tuples(st.just("resnapshot"), st.sampled_from(KEYS)),
)


def run_history(a: Applied, ops) -> dict:
    starts: dict = {}
    for op in ops:
        kind, key = op[0], op[1]
        try:
            if kind == "init":
                a.initialize(key, op[2], op[3])
                state = a.shard.get(key)
                assert state is not None
                starts[key] = state.start_offset
            elif kind == "write":
                before = a.shard.get(key)
                a.write(key, state_epoch=op[2], leader_epoch=op[3], start_offset=op[4], batches=op[5], count=op[6])
                after = a.shard.get(key)
                assert before is not None and after is not None  # a write succeeds on an initialised state only
                assert after.start_offset >= before.start_offset  # never backwards
                assert after.leader_epoch >= before.leader_epoch
                assert after.state_epoch == before.state_epoch
            elif kind == "read":
                a.read(key, op[2])
            elif kind == "delete":
                a.delete(key)
            else:
                a.apply([a.shard.snapshot_record(key)])
        except KafkaError:
            pass
        for state in a.shard.states.values():
            batches = state.state_batches
            assert all(x.last_offset < y.first_offset for x, y in zip(batches, batches[1:]))
            if state.start_offset >= 0 and batches:
                assert batches[0].first_offset >= state.start_offset
    return starts


@settings(max_examples=200, deadline=None)
@given(st.lists(op_st, max_size=40), st.integers(0, 4))
def test_replay_equals_live_state(ops, snapshot_every):
    a = Applied(snapshot_every=snapshot_every)
    run_history(a, ops)
    assert a.replayed().states == a.shard.states


@settings(max_examples=200, deadline=None)
@given(st.lists(op_st, max_size=40), st.integers(0, 4))
def test_replay_from_oldest_needed_snapshot_equals_live_state(ops, snapshot_every):
    """What pruning relies on: records before the oldest latest-snapshot of any live
    key are redundant, so a log cut there replays to the same state."""
    a = Applied(snapshot_every=snapshot_every)
    run_history(a, ops)
    floor = min((s.snapshot_offset for s in a.shard.states.values()), default=len(a.log))
    replayed = a.replayed(floor)
    assert set(replayed.states) == set(a.shard.states)
    for key, state in a.shard.states.items():
        assert replayed.states[key] == state
