"""Hypothesis drives the transaction shard with random clients, retries, zombies and
timers, and checks what must hold whatever they do:

* the shard rebuilt from its log, and from its snapshot, equals the live shard;
* every record is a transition of Kafka's state graph from the previous record;
* stored states are well formed (Empty has no partitions, epochs in range ...);
* markers are returned only with the PrepareCommit/PrepareAbort naming them;
* a producer fenced by a newer epoch never gets a request through again;
* a transaction-version-2 end always hands back a newer epoch (or a new producer id).
"""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule

from broker.protocol.errors import ErrorCode
from broker.txn.records import TopicPartition, decode
from broker.txn.shard import TxnConfig, TxnResult, TxnShard
from broker.txn.states import VALID_PREVIOUS, TxnState

S = TxnState
E = ErrorCode
IDS = ("t1", "t2")
PARTS = [TopicPartition(t, p) for t in ("a", "b") for p in (0, 1)]
MAX_EPOCH = 2**15 - 1


class Ids:
    def __init__(self) -> None:
        self.next = 100

    def allocate(self) -> int:
        self.next += 1
        return self.next


class TxnMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.config = TxnConfig(max_timeout_ms=10_000, id_expiration_ms=50_000)
        self.shard = TxnShard(0, 3, self.config, Ids())
        self.log: list[tuple[bytes, bytes | None]] = []
        self.now = 0
        # What each client last heard: transactional id -> (producer id, epoch).
        self.held: dict[str, tuple[int, int]] = {}
        # Per (transactional id, producer id): the newest epoch ever answered.
        self.newest: dict[tuple[str, int], int] = {}

    # ------------------------------------------------------------------ plumbing

    def apply(self, result: TxnResult) -> TxnResult:
        prepared = {}
        for key, value in result.records:
            txn, meta = decode(key, value)
            old = self.shard.metadata(txn)
            new_state = S.DEAD if meta is None else meta.state
            if old is None:
                assert new_state is S.EMPTY
            else:
                assert old.state in VALID_PREVIOUS[new_state], (old.state, new_state)
            if meta is not None and meta.state.is_prepare:
                prepared[txn] = meta
            self.shard.replay(key, value)
            self.log.append((key, value))
        for batch in result.markers:
            # An operation's markers come with its Prepare record; a load's with the stored one.
            meta = prepared.get(batch.transactional_id) or self.shard.metadata(batch.transactional_id)
            assert meta is not None and meta.state.is_prepare, "markers without their Prepare record"
            assert (batch.producer_id, batch.producer_epoch) == (meta.producer_id, meta.producer_epoch)
            assert batch.committed == (meta.state is S.PREPARE_COMMIT)
            assert batch.partitions == meta.partitions and batch.partitions
            assert batch.coordinator_epoch == 3
        return result

    def answered(self, txn: str, producer_id: int, epoch: int) -> None:
        self.held[txn] = (producer_id, epoch)
        key = (txn, producer_id)
        self.newest[key] = max(self.newest.get(key, -1), epoch)

    def producer(self, txn: str, epoch_shift: int) -> tuple[int, int]:
        pid, epoch = self.held.get(txn, (999, 0))
        return pid, max(epoch + epoch_shift, 0)

    def fenced(self, txn: str, pid: int, epoch: int) -> bool:
        return epoch < self.newest.get((txn, pid), -1)

    # ------------------------------------------------------------------ rules

    @rule(ms=st.integers(0, 20_000))
    def time_passes(self, ms):
        self.now += ms

    @rule(txn=st.sampled_from(IDS), resume=st.booleans(), timeout=st.sampled_from([1_000, 10_000, 10_001]))
    def init(self, txn, resume, timeout):
        pid, epoch = self.held.get(txn, (-1, -1)) if resume else (-1, -1)
        r = self.apply(self.shard.init_producer_id(self.now, txn, timeout, pid, epoch))
        if timeout > self.config.max_timeout_ms:
            assert r.response.error == E.INVALID_TRANSACTION_TIMEOUT and not r.records
        if r.response.error == E.NONE:
            self.answered(txn, r.response.producer_id, r.response.producer_epoch)

    @rule(
        txn=st.sampled_from(IDS),
        parts=st.sets(st.sampled_from(PARTS), min_size=1),
        shift=st.sampled_from([-1, 0, 0, 1]),
    )
    def add(self, txn, parts, shift):
        pid, epoch = self.producer(txn, shift)
        r = self.apply(self.shard.add_partitions(self.now, txn, pid, epoch, parts))
        if self.fenced(txn, pid, epoch):
            assert r.response in (E.PRODUCER_FENCED, E.INVALID_PRODUCER_ID_MAPPING)
        if r.response == E.NONE:
            meta = self.shard.metadata(txn)
            assert meta is not None and meta.state is S.ONGOING and parts <= meta.partitions

    @rule(
        txn=st.sampled_from(IDS),
        commit=st.booleans(),
        version=st.sampled_from([0, 2]),
        shift=st.sampled_from([-1, 0, 0]),
    )
    def end(self, txn, commit, version, shift):
        pid, epoch = self.producer(txn, shift)
        before = self.shard.metadata(txn)
        r = self.apply(self.shard.end_txn(self.now, txn, pid, epoch, commit, version))
        error = r.response.error
        if self.fenced(txn, pid, epoch) and not (
            version == 2 and before is not None and before.producer_epoch == epoch + 1
        ):
            assert error != E.NONE
        if error == E.NONE and version == 2:
            new_pid, new_epoch = r.response.producer_id, r.response.producer_epoch
            assert new_epoch > epoch or (new_pid != pid and new_epoch == 0)
            self.answered(txn, new_pid, new_epoch)
        if error == E.NONE and r.records:
            assert self.shard.metadata(txn).state in (S.PREPARE_COMMIT, S.PREPARE_ABORT, S.COMPLETE_ABORT)

    @rule(txn=st.sampled_from(IDS), data=st.data())
    def markers(self, txn, data):
        pending = [b for b in self.shard.pending_markers() if b.transactional_id == txn]
        if not pending:
            return
        [batch] = pending
        done = data.draw(st.sets(st.sampled_from(sorted(batch.partitions)), min_size=1))
        r = self.apply(self.shard.markers_written(self.now, txn, batch.producer_id, batch.producer_epoch, done))
        meta = self.shard.metadata(txn)
        if done == batch.partitions:
            assert len(r.records) == 1 and meta.state in (S.COMPLETE_COMMIT, S.COMPLETE_ABORT)
        else:
            assert r.records == [] and meta.state.is_prepare

    @rule()
    def tick(self):
        deadline = self.shard.next_deadline_ms()
        if deadline is not None and deadline <= self.now:
            r = self.apply(self.shard.tick(self.now))
            assert r.records
        else:
            assert self.apply(self.shard.tick(self.now)).records == []

    @rule()
    def restart(self):
        """A coordinator failover: load the log into a new shard, resend pending markers."""
        shard = TxnShard(0, 3, self.config, self.shard._producer_ids)
        for key, value in self.log:
            shard.replay(key, value)
        self.shard = shard
        self.apply(shard.on_loaded(self.now))

    # ------------------------------------------------------------------ invariants

    @invariant()
    def well_formed(self):
        for txn in IDS:
            meta = self.shard.metadata(txn)
            if meta is None:
                continue
            assert 0 <= meta.producer_epoch <= MAX_EPOCH
            if meta.state is S.EMPTY:
                assert meta.partitions == frozenset() and meta.start_ms == -1
            if meta.state is S.ONGOING:
                assert meta.start_ms >= 0
            if meta.state.is_complete:
                assert meta.partitions == frozenset() and meta.next_producer_id == -1
            if meta.state.is_prepare:
                assert self.shard.describe(txn).partitions <= meta.partitions

    @invariant()
    def log_and_snapshot_rebuild_the_live_state(self):
        live = {t: self.shard.metadata(t) for t in IDS}
        for source in (self.log, self.shard.snapshot()):
            other = TxnShard(0, 3, self.config, Ids())
            for key, value in source:
                other.replay(key, value)
            assert {t: other.metadata(t) for t in IDS} == live


TestTxnMachine = TxnMachine.TestCase
TestTxnMachine.settings = settings(max_examples=200, stateful_step_count=40, deadline=None)
