"""The transaction coordinator shard: every API and timer, driven as the runtime will.

``Harness.run`` plays the runtime: it replays the records an operation returns
and keeps them as the partition's log, so every test also checks that a shard
loaded from that log (and from its snapshot) holds the same state.
"""

from __future__ import annotations

import pytest

from broker.protocol.errors import ErrorCode, KafkaError
from broker.txn.records import TopicPartition, decode
from broker.txn.shard import (
    OFFSETS_TOPIC,
    EndTxnResult,
    InitProducerIdResult,
    TxnConfig,
    TxnResult,
    TxnShard,
    list_filter,
    partition_for,
)
from broker.txn.states import TxnState

TP = TopicPartition
S = TxnState
E = ErrorCode
MINUTE = 60_000
MAX_EPOCH = 2**15 - 1


class Ids:
    """A producer id source: 1000, 1001, ...; ``fail`` makes the next call raise."""

    def __init__(self) -> None:
        self.next = 1000
        self.fail: ErrorCode | None = None

    def allocate(self) -> int:
        if self.fail is not None:
            raise KafkaError(self.fail)
        self.next += 1
        return self.next - 1


class Harness:
    def __init__(self, config: TxnConfig | None = None, coordinator_epoch: int = 5) -> None:
        self.ids = Ids()
        self.config = config or TxnConfig()
        self.shard = TxnShard(7, coordinator_epoch, self.config, self.ids)
        self.log: list[tuple[bytes, bytes | None]] = []

    def run(self, result: TxnResult):
        for key, value in result.records:
            self.shard.replay(key, value)
        self.log += result.records
        return result

    def meta(self, txn: str = "t"):
        return self.shard.metadata(txn)

    def state(self, txn: str = "t") -> TxnState:
        meta = self.meta(txn)
        assert meta is not None
        return meta.state

    def init(self, now: int, txn: str = "t", timeout: int = MINUTE, pid: int = -1, epoch: int = -1, **kw):
        return self.run(self.shard.init_producer_id(now, txn, timeout, pid, epoch, **kw))

    def add(self, now: int, pid: int, epoch: int, *parts: TP, txn: str = "t", version: int = 0):
        return self.run(self.shard.add_partitions(now, txn, pid, epoch, parts, version))

    def end(self, now: int, pid: int, epoch: int, commit: bool, version: int = 0, txn: str = "t"):
        return self.run(self.shard.end_txn(now, txn, pid, epoch, commit, version))

    def written(self, now: int, pid: int, epoch: int, *parts: TP, txn: str = "t"):
        return self.run(self.shard.markers_written(now, txn, pid, epoch, parts))

    def reloaded(self) -> TxnShard:
        other = TxnShard(7, 6, self.config, Ids())
        for key, value in self.log:
            other.replay(key, value)
        return other

    def check_reload(self) -> None:
        """The log and the snapshot rebuild exactly the live persisted state."""
        live = {t: self.shard.metadata(t) for t in self._ids()}
        loaded = self.reloaded()
        assert {t: loaded.metadata(t) for t in self._ids()} == live
        again = TxnShard(7, 6, self.config, Ids())
        for key, value in self.shard.snapshot():
            again.replay(key, value)
        assert {t: again.metadata(t) for t in self._ids()} == live
        assert len(again) == len(self.shard)

    def _ids(self) -> set[str]:
        return {decode(k, None)[0] for k, _ in self.log}


A0, A1, B0 = TP("a", 0), TP("a", 1), TP("b", 0)


def started(h: Harness, now: int = 0, txn: str = "t", *parts: TP) -> tuple[int, int]:
    r = h.init(now, txn)
    pid, epoch = r.response.producer_id, r.response.producer_epoch
    h.add(now + 1, pid, epoch, *(parts or (A0, B0)), txn=txn)
    return pid, epoch


# ====================================================================== partitioning


@pytest.mark.parametrize(
    ("txn", "expected"),
    [("txn-1", 10), ("my-transactional-id", 46), ("polygenelubricants", 0), ("é-txn", 44), ("app-0_1-2", 25)],
)
def test_partition_for_matches_kafka(txn, expected):
    # Values from Java: abs(s.hashCode()) % 50, with hashCode() == MIN_VALUE mapping to 0.
    assert partition_for(txn, 50) == expected


# ====================================================================== InitProducerId


def test_init_new_id_gets_a_producer_id_at_epoch_0():
    h = Harness()
    r = h.init(100, timeout=30_000)
    assert r.response == InitProducerIdResult(E.NONE, 1000, 0)
    assert r.markers == [] and len(r.records) == 1
    meta = h.meta()
    assert (meta.state, meta.producer_id, meta.producer_epoch, meta.timeout_ms) == (S.EMPTY, 1000, 0, 30_000)
    assert (meta.start_ms, meta.last_update_ms, meta.partitions) == (-1, 100, frozenset())
    assert meta.previous_producer_id == 1000  # Kafka records the id it transitioned from
    h.check_reload()


def test_init_again_fences_the_older_producer_with_a_new_epoch():
    h = Harness()
    h.init(0)
    r = h.init(10)
    assert r.response == InitProducerIdResult(E.NONE, 1000, 1)
    # The old producer (epoch 0) is fenced everywhere.
    assert h.add(20, 1000, 0, A0).response == E.PRODUCER_FENCED
    assert h.end(20, 1000, 0, True).response.error == E.PRODUCER_FENCED
    h.check_reload()


@pytest.mark.parametrize(
    ("kwargs", "error"),
    [
        ({"txn": ""}, E.INVALID_REQUEST),
        ({"timeout": 0}, E.INVALID_TRANSACTION_TIMEOUT),
        ({"timeout": 900_001}, E.INVALID_TRANSACTION_TIMEOUT),
        ({"pid": 5}, E.INVALID_REQUEST),  # producer id without epoch
        ({"epoch": 5}, E.INVALID_REQUEST),
        ({"enable_2pc": True}, E.TRANSACTIONAL_ID_AUTHORIZATION_FAILED),
        ({"keep_prepared_txn": True}, E.UNSUPPORTED_VERSION),
    ],
)
def test_init_refusals(kwargs, error):
    h = Harness()
    r = h.init(0, **kwargs)
    assert r.response == InitProducerIdResult(error)
    assert r.records == []


def test_init_timeout_bound_is_the_configured_maximum():
    h = Harness(TxnConfig(max_timeout_ms=5000))
    assert h.init(0, timeout=5001).response.error == E.INVALID_TRANSACTION_TIMEOUT
    assert h.init(0, timeout=5000).response.error == E.NONE


def test_two_phase_commit_transactions_never_time_out():
    h = Harness(TxnConfig(two_phase_commit_enabled=True))
    r = h.init(0, timeout=10, enable_2pc=True)
    assert r.response.error == E.NONE
    assert h.meta().timeout_ms == 2**31 - 1
    h.add(1, 1000, 0, A0)
    assert h.shard.next_deadline_ms() is None


def test_init_with_the_current_producer_epoch_bumps_and_a_retry_gets_the_same_epoch():
    # KIP-360: a producer re-initialises with the id and epoch it holds.
    h = Harness()
    h.init(0)
    r = h.init(1, pid=1000, epoch=0)
    assert r.response == InitProducerIdResult(E.NONE, 1000, 1)
    # The answer was lost and the producer retries with epoch 0 again: same epoch, no fencing.
    r = h.init(2, pid=1000, epoch=0)
    assert r.response == InitProducerIdResult(E.NONE, 1000, 1)
    # Another epoch, or another producer id, is a fenced producer.
    assert h.init(3, pid=1000, epoch=7).response.error == E.PRODUCER_FENCED
    assert h.init(3, pid=999, epoch=1).response.error == E.PRODUCER_FENCED
    h.check_reload()


def test_after_a_load_the_previous_epoch_is_forgotten_as_in_kafka():
    h = Harness()
    h.init(0)
    h.init(1, pid=1000, epoch=0)
    loaded = h.reloaded()
    assert loaded.init_producer_id(2, "t", MINUTE, 1000, 0).response.error == E.PRODUCER_FENCED


def test_init_with_an_expected_producer_for_a_new_id_is_accepted():
    # The id expired while the producer was away: it gets a fresh producer id.
    h = Harness()
    r = h.init(0, pid=77, epoch=3)
    assert r.response == InitProducerIdResult(E.NONE, 1000, 0)


def test_init_while_a_transaction_is_open_aborts_it_and_asks_to_retry():
    h = Harness()
    pid, epoch = started(h)
    r = h.init(10)
    assert r.response == InitProducerIdResult(E.CONCURRENT_TRANSACTIONS)
    # The fence is the only bump, also at transaction version 2 (the cluster's): Kafka
    # 4.4 answers so (tests/compat/test_differential_transactions.py, "fencing").
    assert h.state() is S.PREPARE_ABORT
    assert h.meta().producer_epoch == epoch + 1
    [batch] = r.markers
    assert (batch.producer_id, batch.producer_epoch, batch.committed) == (pid, epoch + 1, False)
    assert (batch.coordinator_epoch, batch.transaction_version, batch.partitions) == (5, 2, {A0, B0})
    # While the markers are written the producer keeps retrying.
    assert h.init(11).response.error == E.CONCURRENT_TRANSACTIONS
    h.written(12, pid, epoch + 1, A0, B0)
    assert h.state() is S.COMPLETE_ABORT
    assert h.init(13).response == InitProducerIdResult(E.NONE, pid, epoch + 2)
    h.check_reload()


def test_fence_under_transaction_version_1_bumps_once():
    h = Harness(TxnConfig(transaction_version=1))
    _, epoch = started(h)
    r = h.init(10)
    assert r.response.error == E.CONCURRENT_TRANSACTIONS
    assert r.markers[0].producer_epoch == epoch + 1 == h.meta().producer_epoch
    assert r.markers[0].transaction_version == 1


def test_spent_epoch_moves_to_a_new_producer_id():
    h = Harness()
    h.init(0)
    h.shard._entries["t"].meta = _with(h.meta(), producer_epoch=MAX_EPOCH - 1)
    r = h.init(1, pid=1000, epoch=MAX_EPOCH - 1)
    assert r.response == InitProducerIdResult(E.NONE, 1001, 0)
    meta = h.meta()
    assert (meta.producer_id, meta.previous_producer_id, meta.producer_epoch) == (1001, 1000, 0)
    # A retry with the old producer id and spent epoch is recognised, not fenced.
    assert h.init(2, pid=1000, epoch=MAX_EPOCH - 1).response == InitProducerIdResult(E.NONE, 1001, 0)
    # Without an expected epoch a spent epoch also rotates.
    h.shard._entries["t"].meta = _with(h.meta(), producer_epoch=MAX_EPOCH - 1)
    assert h.init(3).response == InitProducerIdResult(E.NONE, 1002, 0)


def test_producer_id_source_failure_is_answered():
    h = Harness()
    h.ids.fail = E.COORDINATOR_LOAD_IN_PROGRESS
    r = h.init(0)
    assert r.response == InitProducerIdResult(E.COORDINATOR_LOAD_IN_PROGRESS)
    assert r.records == [] and "t" not in h.shard


# ====================================================================== AddPartitionsToTxn / AddOffsetsToTxn


def test_add_partitions_starts_and_extends_a_transaction():
    h = Harness()
    h.init(0)
    assert h.add(10, 1000, 0, A0).response == E.NONE
    meta = h.meta()
    assert (meta.state, meta.partitions, meta.start_ms, meta.last_update_ms) == (S.ONGOING, {A0}, 10, 10)
    # Already there: answered without a write.
    r = h.add(20, 1000, 0, A0)
    assert (r.response, r.records) == (E.NONE, [])
    r = h.add(30, 1000, 0, A0, B0)
    assert len(r.records) == 1
    meta = h.meta()
    assert (meta.partitions, meta.start_ms, meta.last_update_ms) == ({A0, B0}, 10, 30)
    h.check_reload()


def test_add_partitions_producer_checks():
    h = Harness()
    assert h.add(0, 1, 0, A0).response == E.INVALID_PRODUCER_ID_MAPPING
    h.init(0)
    assert h.add(1, 999, 0, A0).response == E.INVALID_PRODUCER_ID_MAPPING
    assert h.add(1, 1000, 1, A0).response == E.PRODUCER_FENCED
    assert h.run(h.shard.add_partitions(1, "", 1000, 0, [A0])).response == E.INVALID_REQUEST


def test_add_partitions_while_ending_is_retriable():
    h = Harness()
    pid, epoch = started(h)
    h.end(5, pid, epoch, True)
    assert h.add(6, pid, epoch, A1).response == E.CONCURRENT_TRANSACTIONS


def test_add_partitions_records_the_transaction_version():
    h = Harness()
    h.init(0)
    h.add(1, 1000, 0, A0, version=2)
    assert h.meta().client_version == 2


def test_add_offsets_adds_the_groups_offsets_partition():
    h = Harness(TxnConfig(offsets_topic_partitions=50))
    h.init(0)
    r = h.run(h.shard.add_offsets(1, "t", 1000, 0, "my-transactional-id"))
    assert r.response == E.NONE
    assert h.meta().partitions == {TP(OFFSETS_TOPIC, 46)}


def test_verify_partitions():
    h = Harness()
    pid, epoch = started(h, 0, "t", A0)
    r = h.shard.verify_partitions("t", pid, epoch, [A0, B0])
    assert r.records == []
    assert r.response == {A0: E.NONE, B0: E.TRANSACTION_ABORTABLE}
    assert h.shard.verify_partitions("t", pid, epoch + 1, [A0]).response == {A0: E.PRODUCER_FENCED}
    assert h.shard.verify_partitions("t", 5, epoch, [A0]).response == {A0: E.INVALID_PRODUCER_ID_MAPPING}
    assert h.shard.verify_partitions("nope", 5, 0, [A0]).response == {A0: E.INVALID_PRODUCER_ID_MAPPING}
    h.end(1, pid, epoch, True)
    assert h.shard.verify_partitions("t", pid, epoch, [A0]).response == {A0: E.CONCURRENT_TRANSACTIONS}


# ====================================================================== EndTxn, transaction version 1


def test_commit_version_1_prepares_writes_markers_and_completes():
    h = Harness()
    pid, epoch = started(h)
    r = h.end(100, pid, epoch, True)
    assert r.response == EndTxnResult(E.NONE)
    assert h.state() is S.PREPARE_COMMIT and h.meta().producer_epoch == epoch
    [batch] = r.markers
    assert (batch.producer_id, batch.producer_epoch, batch.committed, batch.partitions) == (pid, epoch, True, {A0, B0})
    assert batch.transaction_version == 0
    # Half the markers: still preparing, DescribeTransactions shows what is left.
    assert h.written(110, pid, epoch, A0).records == []
    assert h.shard.describe("t").partitions == {B0}
    assert h.shard.pending_markers()[0].partitions == {B0}
    h.check_reload()
    r = h.written(120, pid, epoch, B0)
    assert len(r.records) == 1
    meta = h.meta()
    assert (meta.state, meta.partitions, meta.producer_epoch) == (S.COMPLETE_COMMIT, frozenset(), epoch)
    assert meta.last_update_ms == 100  # Kafka dates the completion when the prepare was written
    assert h.shard.pending_markers() == []
    h.check_reload()
    # A retry of the same end succeeds without a write; the opposite end is a state error.
    assert h.end(130, pid, epoch, True).response == EndTxnResult(E.NONE)
    assert h.end(130, pid, epoch, False).response == EndTxnResult(E.INVALID_TXN_STATE)
    assert h.end(130, pid, epoch, True).records == []


def test_end_version_1_refusals():
    h = Harness()
    assert h.end(0, 1, 0, True).response.error == E.INVALID_PRODUCER_ID_MAPPING
    h.init(0)
    assert h.end(1, 1000, 0, True).response.error == E.INVALID_TXN_STATE  # nothing open
    assert h.end(1, 1000, 0, False).response.error == E.INVALID_TXN_STATE
    assert h.end(1, 999, 0, True).response.error == E.INVALID_PRODUCER_ID_MAPPING
    assert h.end(1, 1000, 3, True).response.error == E.PRODUCER_FENCED
    assert h.run(h.shard.end_txn(1, "", 1000, 0, True)).response.error == E.INVALID_REQUEST
    h.add(2, 1000, 0, A0)
    h.end(3, 1000, 0, False)
    assert h.end(4, 1000, 0, False).response.error == E.CONCURRENT_TRANSACTIONS
    assert h.end(4, 1000, 0, True).response.error == E.INVALID_TXN_STATE


def test_markers_for_another_epoch_or_id_are_ignored():
    h = Harness()
    pid, epoch = started(h)
    h.end(1, pid, epoch, True)
    assert h.written(2, pid, epoch + 1, A0, B0).records == []
    assert h.written(2, pid + 1, epoch, A0, B0).records == []
    assert h.written(2, pid, epoch, A0, B0, txn="other").records == []
    assert h.state() is S.PREPARE_COMMIT
    assert len(h.written(2, pid, epoch, A0, B0, TP("x", 9)).records) == 1


# ====================================================================== EndTxn, transaction version 2 (KIP-890)


def test_commit_version_2_bumps_the_epoch_and_answers_it():
    h = Harness()
    pid, epoch = started(h)
    r = h.end(100, pid, epoch, True, version=2)
    assert r.response == EndTxnResult(E.NONE, pid, epoch + 1)
    assert r.markers[0].producer_epoch == epoch + 1 and r.markers[0].transaction_version == 2
    h.written(101, pid, epoch + 1, A0, B0)
    meta = h.meta()
    assert (meta.state, meta.producer_epoch, meta.client_version) == (S.COMPLETE_COMMIT, epoch + 1, 2)
    # The retry carries the old epoch: answered with the new one, nothing written.
    r = h.end(102, pid, epoch, True, version=2)
    assert (r.response, r.records) == (EndTxnResult(E.NONE, pid, epoch + 1), [])
    # A retry that asks for the other end, or an older epoch, is refused.
    assert h.end(102, pid, epoch, False, version=2).response.error == E.INVALID_TXN_STATE
    assert h.end(102, pid, epoch - 1, True, version=2).response.error == E.PRODUCER_FENCED
    # The next transaction uses epoch + 1.
    assert h.add(103, pid, epoch + 1, A1, version=2).response == E.NONE
    h.check_reload()


def test_version_2_retry_while_markers_are_written():
    h = Harness()
    pid, epoch = started(h)
    h.end(1, pid, epoch, True, version=2)
    assert h.end(2, pid, epoch, True, version=2).response.error == E.CONCURRENT_TRANSACTIONS
    assert h.end(2, pid, epoch, False, version=2).response.error == E.INVALID_TXN_STATE
    # The bumped epoch before the answer arrived is a producer we did not answer yet.
    assert h.end(2, pid, epoch + 1, True, version=2).response.error == E.PRODUCER_FENCED


def test_version_2_abort_with_nothing_open_bumps_the_epoch_in_one_append():
    h = Harness()
    h.init(0)
    r = h.end(50, 1000, 0, False, version=2)
    assert r.response == EndTxnResult(E.NONE, 1000, 1)
    assert r.markers == [] and len(r.records) == 2  # PrepareAbort and CompleteAbort together
    meta = h.meta()
    assert (meta.state, meta.producer_epoch, meta.start_ms) == (S.COMPLETE_ABORT, 1, 50)
    # Commit with nothing open is still a state error.
    assert h.end(51, 1000, 1, True, version=2).response.error == E.INVALID_TXN_STATE
    h.check_reload()


def test_version_2_overflow_moves_to_the_next_producer_id():
    h = Harness()
    pid, _ = started(h)
    h.shard._entries["t"].meta = _with(h.meta(), producer_epoch=MAX_EPOCH - 1)
    r = h.end(10, pid, MAX_EPOCH - 1, True, version=2)
    new_pid = h.ids.next - 1
    assert r.response == EndTxnResult(E.NONE, new_pid, 0)
    meta = h.meta()
    assert (meta.producer_id, meta.producer_epoch, meta.next_producer_id) == (pid, MAX_EPOCH, new_pid)
    assert r.markers[0].producer_id == pid and r.markers[0].producer_epoch == MAX_EPOCH
    h.written(11, pid, MAX_EPOCH, A0, B0)
    meta = h.meta()
    assert (meta.producer_id, meta.producer_epoch, meta.previous_producer_id) == (new_pid, 0, pid)
    assert meta.next_producer_id == -1
    # The producer retries with the old id and epoch: recognised as a retry.
    r = h.end(12, pid, MAX_EPOCH - 1, True, version=2)
    assert r.response == EndTxnResult(E.NONE, new_pid, 0)
    h.check_reload()


def test_version_2_overflow_needs_a_producer_id():
    h = Harness()
    pid, _ = started(h)
    h.shard._entries["t"].meta = _with(h.meta(), producer_epoch=MAX_EPOCH - 1)
    h.ids.fail = E.NOT_COORDINATOR
    r = h.end(10, pid, MAX_EPOCH - 1, True, version=2)
    assert (r.response.error, r.records) == (E.NOT_COORDINATOR, [])


# ====================================================================== timers


def test_timed_out_transaction_is_aborted_with_a_fenced_epoch():
    h = Harness()
    pid, epoch = started(h, 1000)  # starts at 1001 with a one-minute timeout
    assert h.shard.next_deadline_ms() == 1001 + MINUTE + 1
    assert h.run(h.shard.tick(1001 + MINUTE)).records == []
    r = h.run(h.shard.tick(1001 + MINUTE + 1))
    assert [(b.producer_epoch, b.committed, b.partitions) for b in r.markers] == [(epoch + 1, False, {A0, B0})]
    assert h.state() is S.PREPARE_ABORT
    # The producer that timed out is fenced.
    assert h.add(1001 + MINUTE + 2, pid, epoch, A1).response == E.PRODUCER_FENCED
    h.written(1001 + MINUTE + 3, pid, epoch + 1, A0, B0)
    assert h.state() is S.COMPLETE_ABORT
    h.check_reload()


def test_transactional_id_expires_after_idling():
    h = Harness(TxnConfig(id_expiration_ms=10_000))
    h.init(0, "idle")
    started(h, 0, "busy")
    assert h.shard.next_deadline_ms() == 10_000
    r = h.run(h.shard.tick(10_000))
    assert r.records == [(r.records[0][0], None)]  # a tombstone
    assert "idle" not in h.shard
    assert h.shard.describe("idle").error == E.TRANSACTIONAL_ID_NOT_FOUND
    # The id with a transaction open is not expired (it times out instead).
    assert h.state("busy") is S.ONGOING
    h.check_reload()
    # A new producer with the expired id starts over with a new producer id.
    assert h.init(20_000, "idle").response.producer_id == 1002


def test_deadlines_follow_the_state():
    h = Harness(TxnConfig(id_expiration_ms=10_000))
    h.init(0)
    assert h.shard.next_deadline_ms() == 10_000
    h.add(5, 1000, 0, A0)
    assert h.shard.next_deadline_ms() == 5 + MINUTE + 1
    h.end(6, 1000, 0, True)
    assert h.shard.next_deadline_ms() is None
    h.written(7, 1000, 0, A0)
    assert h.shard.next_deadline_ms() == 6 + 10_000
    assert h.run(h.shard.tick(6 + 9_999)).records == []


def test_timer_heap_stays_small():
    h = Harness()
    h.init(0)
    for i in range(500):
        h.init(i + 1)
    assert len(h.shard._timers) <= 2 * len(h.shard) + 64


# ====================================================================== load


def test_load_resends_markers_of_prepared_transactions():
    h = Harness()
    pid, epoch = started(h)
    h.end(10, pid, epoch, False)
    h.written(11, pid, epoch, A0)  # B0 not yet
    loaded = h.reloaded()
    result = loaded.on_loaded(500)
    assert result.records == []
    [batch] = result.markers
    # After a load every partition is marked again: the shard does not know about A0.
    assert (batch.partitions, batch.committed, batch.coordinator_epoch) == ({A0, B0}, False, 6)
    r = loaded.markers_written(501, "t", pid, epoch, [A0, B0])
    _, meta = decode(*r.records[0])
    assert meta is not None and (meta.state, meta.last_update_ms) == (S.COMPLETE_ABORT, 500)


def test_unknown_records_are_skipped_on_load():
    h = Harness()
    h.shard.replay(b"\x00\x09whatever", b"\x00\x00")
    assert len(h.shard) == 0


# ====================================================================== Describe / List


def test_describe():
    h = Harness()
    pid, epoch = started(h, 3)
    d = h.shard.describe("t")
    assert (d.error, d.state, d.producer_id, d.producer_epoch) == (E.NONE, "Ongoing", pid, epoch)
    assert (d.timeout_ms, d.start_ms, d.partitions) == (MINUTE, 4, {A0, B0})
    assert h.shard.describe("").error == E.INVALID_REQUEST
    assert h.shard.describe("nope").error == E.TRANSACTIONAL_ID_NOT_FOUND


def test_list_transactions_filters():
    h = Harness()
    started(h, 0, "orders-1")
    h.init(0, "orders-2")
    started(h, 500, "payments")
    names = lambda f: sorted(t.transactional_id for t in h.shard.list_transactions(1000, f))  # noqa: E731
    assert names(list_filter()) == ["orders-1", "orders-2", "payments"]
    assert names(list_filter(states=["Ongoing"])) == ["orders-1", "payments"]
    assert names(list_filter(states=["Bogus"])) == []
    assert list_filter(states=["Bogus", "Empty"]).unknown_states == ("Bogus",)
    assert names(list_filter(producer_ids=[1001])) == ["orders-2"]
    assert names(list_filter(pattern="orders-.*")) == ["orders-1", "orders-2"]
    assert names(list_filter(pattern="orders")) == []  # the whole id must match
    # Running longer than 600 ms: orders-1 (started at 1) and orders-2 (start -1, as in Kafka).
    assert names(list_filter(duration_ms=600)) == ["orders-1", "orders-2"]
    bad = list_filter(pattern="(")
    assert bad.error == E.INVALID_REGULAR_EXPRESSION and "(" in bad.error_message


def _with(meta, **changes):
    import dataclasses

    return dataclasses.replace(meta, **changes)


def test_a_transaction_restarted_with_the_same_deadline_is_aborted_once():
    # The heap holds the id twice with the same deadline (found by Hypothesis).
    h = Harness()
    h.init(0, timeout=1000)
    h.add(0, 1000, 0, A0)
    h.end(0, 1000, 0, False)
    h.written(0, 1000, 0, A0)
    h.add(0, 1000, 0, A0)
    r = h.run(h.shard.tick(1001))
    assert len(r.records) == 1 and len(r.markers) == 1


def test_config_from_broker_settings():
    from broker.config import load_config
    from broker.config.services import TxnSettings

    config = TxnConfig.from_settings(
        TxnSettings.of(load_config(overrides=["transaction.max.timeout.ms=1234"], environ={}))
    )
    assert config.max_timeout_ms == 1234
    # Keys not set keep Kafka's defaults.
    assert (config.id_expiration_ms, config.transaction_version, config.two_phase_commit_enabled) == (
        604_800_000,
        2,
        False,
    )
    settings = TxnSettings(id_expiration_ms=60_000, two_phase_commit_enable=True)
    assert TxnConfig.from_settings(settings) == TxnConfig(id_expiration_ms=60_000, two_phase_commit_enabled=True)


def test_replay_of_states_kafka_never_writes():
    from broker.txn.records import encode_key, encode_value

    h = Harness()
    h.init(0)
    # Bypass the writer's own refusal to encode Dead: patch the status byte.
    value = bytearray(encode_value(_with(h.meta(), state=S.COMPLETE_ABORT), 1))
    value[2 + 8 + 2 + 4] = S.DEAD.id
    h.shard.replay(encode_key("t"), bytes(value))
    assert "t" not in h.shard
    value[2 + 8 + 2 + 4] = S.PREPARE_EPOCH_FENCE.id
    h.shard.replay(encode_key("t"), bytes(value))
    assert "t" not in h.shard
