"""The log-backed share coordinator (broker.share.state_store) and handlers 83-87,
against a real LogManager and GroupCommitter on tmp_path.

Restarts open a new LogManager on the same directory and a new store, as a
broker restart does.
"""

from __future__ import annotations

import uuid
from contextlib import asynccontextmanager

import pytest
import trio

import broker.log.segment as segment_module
from broker.handlers import api_83_initialize_share_group_state as api_83
from broker.handlers import api_84_read_share_group_state as api_84
from broker.handlers import api_85_write_share_group_state as api_85
from broker.handlers import api_86_delete_share_group_state as api_86
from broker.handlers import api_87_read_share_group_state_summary as api_87
from broker.log.commit import GroupCommitter
from broker.log.manager import LogManager
from broker.metadata.local import SingleNodeMetadata
from broker.protocol.errors import ErrorCode
from broker.protocol.messages import delete_share_group_state_request as m86
from broker.protocol.messages import initialize_share_group_state_request as m83
from broker.protocol.messages import read_share_group_state_request as m84
from broker.protocol.messages import read_share_group_state_summary_request as m87
from broker.protocol.messages import write_share_group_state_request as m85
from broker.replica.manager import ReplicaManager
from broker.server.app import close_services
from broker.share.coordinator import ShareKey, StateBatch, partition_for
from broker.share.state_store import TOPIC, ShareStateStore
from tests.services import ServicesView, context, make_services
from tests.services import running as services_running

B = StateBatch
AVAILABLE, ACKNOWLEDGED, ARCHIVED = 0, 2, 4
GROUP = "share-group"


def open_logs(data_dir) -> LogManager:
    logs = LogManager(data_dir)
    logs.open()
    if "orders" not in logs.topics:
        logs.create_topic("orders", 4)
    return logs


def store_over(logs: LogManager, committer, **kw) -> ShareStateStore:
    """A share coordinator over ``logs`` on one node: the metadata and replica layers it runs on."""
    metadata = SingleNodeMetadata(1, "test-cluster", logs, None)
    replicas = ReplicaManager(1, logs, metadata, committer)
    return ShareStateStore(metadata, replicas, now_ms=lambda: 1_700_000_000_000, **kw)


@asynccontextmanager
async def running(data_dir, **kw):
    """A LogManager, a running GroupCommitter and a store over them; closed on exit."""
    logs = open_logs(data_dir)
    committer = GroupCommitter()
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(committer.run)
            kw.setdefault("num_partitions", 5)
            store = store_over(logs, committer, **kw)
            await nursery.start(store.runtime.run)
            yield store, logs, committer
            nursery.cancel_scope.cancel()
    finally:
        logs.close()


def topic_id(logs) -> uuid.UUID:
    return logs.topics["orders"].topic_id


def snapshot(store: ShareStateStore) -> dict:
    return dict(store.states())


@pytest.fixture
def failing_fsync(monkeypatch):
    """``fail[0] = True`` makes every segment fsync raise EIO until reset."""
    fail = [False]
    real = segment_module._datasync

    def datasync(fd: int) -> None:
        if fail[0]:
            raise OSError(5, "Input/output error")
        real(fd)

    monkeypatch.setattr(segment_module, "_datasync", datasync)
    return fail


# ====================================================================== the store


async def test_write_then_restart_reads_the_same_state(tmp_path):
    async with running(tmp_path) as (store, logs, _):
        tid = topic_id(logs)
        for p in range(4):
            assert (await store.initialize(GROUP, tid, p, state_epoch=1, start_offset=-1)).ok
        assert (await store.read(GROUP, tid, 0, leader_epoch=3)).ok
        for i in range(12):
            r = await store.write(
                GROUP,
                tid,
                i % 4,
                state_epoch=1,
                leader_epoch=3,
                start_offset=i * 10,
                state_batches=[B(i * 10, i * 10 + 4, ACKNOWLEDGED, 1), B(i * 10 + 5, i * 10 + 9, AVAILABLE, 2)],
                delivery_complete_count=5,
            )
            assert r.ok, r
        assert (await store.delete(GROUP, tid, 3)).ok
        before = snapshot(store)
        reads = [await store.read(GROUP, tid, p, leader_epoch=3) for p in range(3)]
        summaries = [await store.read_summary(GROUP, tid, p) for p in range(4)]
    async with running(tmp_path) as (store, logs, _):
        await store.load()
        assert snapshot(store) == before
        assert [await store.read(GROUP, tid, p, leader_epoch=3) for p in range(3)] == reads
        assert [await store.read_summary(GROUP, tid, p) for p in range(4)] == summaries
    r = reads[0]
    assert (r.state_epoch, r.start_offset, r.delivery_complete_count) == (1, 80, 5)
    assert r.state_batches == (B(80, 84, ACKNOWLEDGED, 1), B(85, 89, AVAILABLE, 2))
    assert summaries[3].start_offset == -1  # deleted: reads as never initialised


async def test_topic_is_created_on_first_write_in_the_keys_partition(tmp_path):
    async with running(tmp_path, num_partitions=7) as (store, logs, _):
        tid = topic_id(logs)
        assert (await store.read_summary(GROUP, tid, 0)).start_offset == -1
        assert TOPIC not in logs.topics  # reads write nothing
        assert (await store.initialize(GROUP, tid, 2, state_epoch=0, start_offset=-1)).ok
        info = logs.topics[TOPIC]
        assert info.internal and info.partitions == 7
        assert info.configs["cleanup.policy"] == "delete" and info.configs["retention.ms"] == "-1"
        pid = partition_for(ShareKey(GROUP, tid, 2), 7)
        assert store.partition_for(GROUP, tid, 2) == pid
        ends = [logs.partition(TOPIC, p).log_end_offset for p in range(7)]
        assert ends == [1 if p == pid else 0 for p in range(7)]
    # An existing topic keeps its partition count whatever the setting says now.
    async with running(tmp_path, num_partitions=3) as (store, logs, _):
        await store.load()
        assert store.num_partitions == 7
        assert store.state(GROUP, tid, 2) is not None


async def test_answers_only_once_durable_and_writes_share_fsync_rounds(tmp_path):
    async with running(tmp_path, num_partitions=1) as (store, logs, committer):
        tid = topic_id(logs)
        assert (await store.initialize(GROUP, tid, 0, state_epoch=0, start_offset=0)).ok
        part_log = logs.partition(TOPIC, 0)
        assert part_log.recovery_point == part_log.log_end_offset == 1
        groups = [f"g{i}" for i in range(20)]
        async with trio.open_nursery() as nursery:
            for g in groups:
                nursery.start_soon(lambda g=g: store.initialize(g, tid, 1, state_epoch=0, start_offset=0))
        rounds = committer.rounds
        results = []

        async def write(g: str) -> None:
            results.append(
                await store.write(
                    g, tid, 1, state_epoch=0, leader_epoch=0, start_offset=1, state_batches=[B(1, 5, ARCHIVED, 1)]
                )
            )

        async with trio.open_nursery() as nursery:
            for g in groups:
                nursery.start_soon(write, g)
        assert len(results) == 20 and all(r.ok for r in results)
        assert committer.rounds - rounds < 20  # concurrent writes shared fsync rounds
        assert part_log.recovery_point == part_log.log_end_offset


async def test_writes_queued_on_one_share_partition_share_one_fsync_round(tmp_path):
    """Acknowledgements of many members of one share-partition arrive together; the ones
    that wait for its lock are written in one round, each on the state the one before left."""
    async with running(tmp_path, num_partitions=1) as (store, logs, committer):
        tid = topic_id(logs)
        assert (await store.initialize(GROUP, tid, 0, state_epoch=0, start_offset=0)).ok
        rounds = committer.rounds
        results = []

        async def write(i: int) -> None:
            batch = B(10 * i, 10 * i + 9, ACKNOWLEDGED if i % 2 else ARCHIVED, 1)
            results.append(
                await store.write(GROUP, tid, 0, state_epoch=0, leader_epoch=0, start_offset=0, state_batches=[batch])
            )

        async with trio.open_nursery() as nursery:
            for i in range(16):
                nursery.start_soon(write, i)
        assert len(results) == 16 and all(r.ok for r in results)
        # One round for the first write, one for the fifteen that queued behind it
        # (one after another they took fifteen).
        assert committer.rounds - rounds <= 2
        state = await store.read(GROUP, tid, 0, leader_epoch=0)
        assert state.state_batches == tuple(
            B(10 * i, 10 * i + 9, ACKNOWLEDGED if i % 2 else ARCHIVED, 1) for i in range(16)
        )
        part_log = logs.partition(TOPIC, 0)
        assert part_log.recovery_point == part_log.log_end_offset
        before = snapshot(store)
    async with running(tmp_path, num_partitions=1) as (store, logs, _):
        await store.load()
        assert snapshot(store) == before


async def test_queued_writes_answer_each_its_own_error_and_fail_together_on_the_round(tmp_path, autojump_clock):
    mode = ["pass"]
    release = trio.Event()

    class GatedCommitter:
        """Mode "pass": durable at once; "gate": this write waits for ``release``, later ones never become durable."""

        async def wait_durable(self, part_log) -> None:
            if mode[0] == "gate":
                mode[0] = "stuck"
                await release.wait()
            elif mode[0] == "stuck":
                await trio.sleep_forever()
            part_log.flush()

    logs = open_logs(tmp_path)
    try:
        store = store_over(logs, GatedCommitter(), num_partitions=1, write_timeout_ms=5000)
        tid = topic_id(logs)
        assert (await store.initialize(GROUP, tid, 0, state_epoch=0, start_offset=0)).ok
        assert (await store.write(GROUP, tid, 0, state_epoch=0, leader_epoch=3, start_offset=0)).ok
        results: dict[str, object] = {}
        start = trio.current_time()

        async def write(name: str, leader_epoch: int, first: int) -> None:
            results[name] = await store.write(
                GROUP,
                tid,
                0,
                state_epoch=0,
                leader_epoch=leader_epoch,
                start_offset=0,
                state_batches=[B(first, first + 4, ACKNOWLEDGED, 1)],
            )

        mode[0] = "gate"
        async with trio.open_nursery() as nursery:
            nursery.start_soon(write, "first", 3, 0)  # takes the lock and waits for its round
            await trio.sleep(1)
            nursery.start_soon(write, "a", 3, 5)  # these three queue behind it
            nursery.start_soon(write, "fenced", 2, 10)
            nursery.start_soon(write, "b", 3, 15)
            await trio.sleep(1)
            after_first = store.state(GROUP, tid, 0)
            release.set()
        # The first write's round took 1 s, then one round for the queued writes timed out
        # after 5 s: 7 s, where one round after another would have taken 12.
        assert trio.current_time() - start == pytest.approx(7.0)
        assert results["first"].ok
        assert results["fenced"].error_code == ErrorCode.FENCED_LEADER_EPOCH  # its own error
        assert results["a"].error_code == results["b"].error_code == ErrorCode.COORDINATOR_NOT_AVAILABLE
        # Both writes of the failed round are rolled back (the snapshot that overrides them
        # in the log leaves the state as it was).
        assert after_first.state_batches == (B(0, 4, ACKNOWLEDGED, 1),)
        now = store.state(GROUP, tid, 0)
        assert (now.state_batches, now.start_offset, now.leader_epoch) == (after_first.state_batches, 0, 3)
        mode[0] = "pass"
        assert (await store.write(GROUP, tid, 0, state_epoch=0, leader_epoch=3, start_offset=4)).ok
        assert store.state(GROUP, tid, 0).start_offset == 4
    finally:
        logs.close()


async def test_errors_are_per_partition_results(tmp_path):
    async with running(tmp_path) as (store, logs, _):
        tid = topic_id(logs)
        r = await store.read(GROUP, tid, 0, leader_epoch=0)
        assert r.error_code == ErrorCode.INVALID_REQUEST
        assert r.error_message == "Read operation on uninitialized share partition not allowed."
        assert (r.state_epoch, r.start_offset, r.state_batches) == (0, 0, ())
        r = await store.write(GROUP, tid, 0, state_epoch=0, leader_epoch=0, start_offset=0)
        assert r.error_code == ErrorCode.INVALID_REQUEST
        assert (await store.initialize(GROUP, uuid.uuid4(), 0, state_epoch=0, start_offset=0)).error_code == (
            ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        )
        assert (await store.initialize(GROUP, tid, 4, state_epoch=0, start_offset=0)).error_code == (
            ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        )
        assert (await store.initialize(GROUP, tid, 0, state_epoch=5, start_offset=0)).ok
        assert (await store.initialize(GROUP, tid, 0, state_epoch=4, start_offset=0)).error_code == (
            ErrorCode.FENCED_STATE_EPOCH
        )
        assert (await store.read(GROUP, tid, 0, leader_epoch=2)).ok
        r = await store.write(GROUP, tid, 0, state_epoch=5, leader_epoch=1, start_offset=0)
        assert r.error_code == ErrorCode.FENCED_LEADER_EPOCH
        r = await store.write(GROUP, tid, 0, state_epoch=4, leader_epoch=2, start_offset=0)
        assert r.error_code == ErrorCode.FENCED_STATE_EPOCH
        assert (await store.delete(GROUP, uuid.uuid4(), 0)).ok  # nothing to delete is no error


async def test_pruning_keeps_the_topic_bounded(tmp_path):
    """Many writes to a few share-partitions: the log start offset keeps moving, the
    records kept stay within the prune window, whole segments are deleted, and a
    restart replays the pruned log to the same state."""
    kw = {"num_partitions": 1, "snapshot_every": 10, "segment_bytes": 1 << 20}
    async with running(tmp_path, **kw) as (store, logs, _):
        tid = topic_id(logs)
        groups = [f"g{i}" for i in range(4)]
        for g in groups:
            assert (await store.initialize(g, tid, 0, state_epoch=0, start_offset=0)).ok
        part_log = logs.partition(TOPIC, 0)
        window = store.prune_window(0)
        worst = 0

        async def writer(g: str) -> None:
            nonlocal worst
            for i in range(600):
                base = i * 100
                batches = [B(base + 2 * j, base + 2 * j + 1, (ACKNOWLEDGED, ARCHIVED)[j % 2], 1) for j in range(50)]
                r = await store.write(
                    g, tid, 0, state_epoch=0, leader_epoch=0, start_offset=base, state_batches=batches
                )
                assert r.ok, r
                worst = max(worst, part_log.log_end_offset - part_log.log_start_offset)

        async with trio.open_nursery() as nursery:
            for g in groups:
                nursery.start_soon(writer, g)
        assert part_log.log_end_offset > 2400
        assert part_log.log_start_offset > part_log.log_end_offset - window - 50
        assert worst <= window + 50
        assert part_log.log_start_offset > 0 and len(part_log.segments) <= 4
        before = snapshot(store)
    async with running(tmp_path, **kw) as (store, logs, _):
        await store.load()
        assert snapshot(store) == before
        assert (await store.read("g0", tid, 0, leader_epoch=0)).start_offset == 59900


async def test_an_idle_share_partition_does_not_pin_the_log(tmp_path):
    kw = {"num_partitions": 1, "snapshot_every": 5}
    async with running(tmp_path, **kw) as (store, logs, _):
        tid = topic_id(logs)
        assert (await store.initialize("idle", tid, 0, state_epoch=2, start_offset=0)).ok
        assert (
            await store.write(
                "idle", tid, 0, state_epoch=2, leader_epoch=1, start_offset=7, state_batches=[B(7, 9, ARCHIVED, 3)]
            )
        ).ok
        idle = store.state("idle", tid, 0)
        assert (await store.initialize("busy", tid, 0, state_epoch=0, start_offset=0)).ok
        for i in range(2500):
            assert (await store.write("busy", tid, 0, state_epoch=0, leader_epoch=0, start_offset=i)).ok
        part_log = logs.partition(TOPIC, 0)
        assert part_log.log_start_offset > 2  # past the idle key's first records
        now = store.state("idle", tid, 0)
        assert now.snapshot_epoch > idle.snapshot_epoch  # it was snapshotted again
        assert (now.start_offset, now.leader_epoch, now.state_batches) == (7, 1, (B(7, 9, ARCHIVED, 3),))
        before = snapshot(store)
    async with running(tmp_path, **kw) as (store, logs, _):
        await store.load()
        assert snapshot(store) == before


async def test_a_failed_fsync_rolls_back(tmp_path, failing_fsync):
    async with running(tmp_path, num_partitions=1) as (store, logs, _):
        tid = topic_id(logs)
        assert (await store.initialize(GROUP, tid, 0, state_epoch=0, start_offset=0)).ok
        assert (
            await store.write(
                GROUP, tid, 0, state_epoch=0, leader_epoch=0, start_offset=0, state_batches=[B(0, 9, AVAILABLE, 1)]
            )
        ).ok
        good = await store.read(GROUP, tid, 0, leader_epoch=0)

        failing_fsync[0] = True
        r = await store.write(
            GROUP, tid, 0, state_epoch=0, leader_epoch=0, start_offset=5, state_batches=[B(5, 9, ACKNOWLEDGED, 1)]
        )
        assert r.error_code == ErrorCode.NOT_COORDINATOR  # KAFKA_STORAGE_ERROR, as Kafka's coordinator maps it
        assert "Input/output error" in r.error_message
        r = await store.initialize("new", tid, 0, state_epoch=0, start_offset=0)
        assert r.error_code == ErrorCode.NOT_COORDINATOR
        r = await store.delete(GROUP, tid, 1)
        assert r.ok  # nothing to delete: nothing written
        failing_fsync[0] = False

        assert await store.read(GROUP, tid, 0, leader_epoch=0) == good
        assert (await store.read_summary("new", tid, 0)).start_offset == -1
        # The next write builds on the rolled-back state and succeeds.
        r = await store.write(
            GROUP, tid, 0, state_epoch=0, leader_epoch=0, start_offset=2, state_batches=[B(2, 3, ARCHIVED, 1)]
        )
        assert r.ok
        after = await store.read(GROUP, tid, 0, leader_epoch=0)
        assert after.state_batches == (B(2, 3, ARCHIVED, 1), B(4, 9, AVAILABLE, 1))
        before = snapshot(store)
    # The failed records reached the log (and the disk, at close), yet replay ends
    # where memory was: the failed write does not come back.
    async with running(tmp_path, num_partitions=1) as (store, logs, _):
        await store.load()
        assert snapshot(store) == before
        assert await store.read(GROUP, tid, 0, leader_epoch=0) == after
        assert (await store.read_summary("new", tid, 0)).start_offset == -1


async def test_a_failed_fsync_then_restart_keeps_the_rollback(tmp_path, failing_fsync):
    async with running(tmp_path, num_partitions=1) as (store, logs, _):
        tid = topic_id(logs)
        assert (await store.initialize(GROUP, tid, 0, state_epoch=0, start_offset=0)).ok
        failing_fsync[0] = True
        assert not (await store.delete(GROUP, tid, 0)).ok
        failing_fsync[0] = False
        assert store.state(GROUP, tid, 0) is not None
        before = snapshot(store)
    async with running(tmp_path, num_partitions=1) as (store, logs, _):
        await store.load()
        assert snapshot(store) == before


async def test_a_write_not_durable_in_time_is_rolled_back(tmp_path, autojump_clock):
    class StuckCommitter:
        async def wait_durable(self, part_log) -> None:
            if stuck[0]:
                await trio.sleep_forever()
            part_log.flush()

    stuck = [False]
    logs = open_logs(tmp_path)
    try:
        store = store_over(logs, StuckCommitter(), num_partitions=1, write_timeout_ms=5000)
        tid = topic_id(logs)
        assert (await store.initialize(GROUP, tid, 0, state_epoch=0, start_offset=0)).ok
        stuck[0] = True
        start = trio.current_time()
        r = await store.write(GROUP, tid, 0, state_epoch=0, leader_epoch=0, start_offset=3)
        assert r.error_code == ErrorCode.COORDINATOR_NOT_AVAILABLE
        assert trio.current_time() - start == pytest.approx(5.0)
        assert store.state(GROUP, tid, 0).start_offset == 0
        stuck[0] = False
        assert (await store.write(GROUP, tid, 0, state_epoch=0, leader_epoch=0, start_offset=4)).ok
        assert store.state(GROUP, tid, 0).start_offset == 4
    finally:
        logs.close()


async def test_the_broker_builds_its_store_from_the_settings(tmp_path):
    services = make_services(tmp_path, {"share.coordinator.state.topic.num.partitions": 3})
    try:
        store = services.share_state
        assert store is services.share_offsets.share_state
        assert store.num_partitions == 3
    finally:
        close_services(services)


# ====================================================================== handlers 83-87


async def call(broker, module, req, version):
    ctx = context(broker, version)
    # The request and the response both go through the wire format of this version.
    req = type(req).decode(req.encode(version), version)
    resp = await module.handle(ctx, req)
    return type(resp).decode(resp.encode(version), version)


@asynccontextmanager
async def handler_broker(tmp_path):
    async with services_running(tmp_path, {"share.coordinator.state.topic.num.partitions": 5}) as services:
        if "orders" not in services.logs.topics:
            services.logs.create_topic("orders", 4)
        yield ServicesView(services)


def init_req(group, tid, *parts):
    return m83.InitializeShareGroupStateRequest(
        group_id=group,
        topics=[m83.InitializeStateData(topic_id=tid, partitions=[m83.PartitionData(p, e, s) for p, e, s in parts])],
    )


def write_req(group, tid, partition, start, batches, count=-1, state_epoch=0, leader_epoch=0):
    return m85.WriteShareGroupStateRequest(
        group_id=group,
        topics=[
            m85.WriteStateData(
                topic_id=tid,
                partitions=[
                    m85.PartitionData(
                        partition=partition,
                        state_epoch=state_epoch,
                        leader_epoch=leader_epoch,
                        start_offset=start,
                        delivery_complete_count=count,
                        state_batches=[m85.StateBatch(*b) for b in batches],
                    )
                ],
            )
        ],
    )


def read_req(group, tid, *partitions, leader_epoch=0):
    return m84.ReadShareGroupStateRequest(
        group_id=group,
        topics=[m84.ReadStateData(topic_id=tid, partitions=[m84.PartitionData(p, leader_epoch) for p in partitions])],
    )


def summary_req(group, tid, *partitions):
    return m87.ReadShareGroupStateSummaryRequest(
        group_id=group,
        topics=[m87.ReadStateSummaryData(topic_id=tid, partitions=[m87.PartitionData(p, 0) for p in partitions])],
    )


def delete_req(group, tid, *partitions):
    return m86.DeleteShareGroupStateRequest(
        group_id=group,
        topics=[m86.DeleteStateData(topic_id=tid, partitions=[m86.PartitionData(p) for p in partitions])],
    )


async def test_handlers_round_trip(tmp_path):
    async with handler_broker(tmp_path) as broker:
        tid = topic_id(broker.logs)
        resp = await call(broker, api_83, init_req(GROUP, tid, (0, 1, -1), (1, 1, 10), (9, 1, 0)), 0)
        (result,) = resp.results
        assert result.topic_id == tid
        assert [(p.partition, p.error_code) for p in result.partitions] == [
            (0, 0),
            (1, 0),
            (9, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION),
        ]
        assert result.partitions[0].error_message is None

        req = write_req(GROUP, tid, 0, 5, [(5, 9, ACKNOWLEDGED, 1)], count=5, state_epoch=1)
        resp = await call(broker, api_85, req, 1)
        assert resp.results[0].partitions[0].error_code == 0
        resp = await call(broker, api_85, write_req(GROUP, tid, 1, 12, [(12, 20, AVAILABLE, 2)], state_epoch=1), 0)
        assert resp.results[0].partitions[0].error_code == 0
        resp = await call(broker, api_85, write_req(GROUP, tid, 1, 12, [], state_epoch=0), 1)
        assert resp.results[0].partitions[0].error_code == ErrorCode.FENCED_STATE_EPOCH

        resp = await call(broker, api_84, read_req(GROUP, tid, 0, 1, 2), 0)
        p0, p1, p2 = resp.results[0].partitions
        assert (p0.error_code, p0.state_epoch, p0.start_offset) == (0, 1, 5)
        assert [(b.first_offset, b.last_offset, b.delivery_state, b.delivery_count) for b in p0.state_batches] == [
            (5, 9, ACKNOWLEDGED, 1)
        ]
        assert (p1.start_offset, len(p1.state_batches)) == (12, 1)
        assert p2.error_code == ErrorCode.INVALID_REQUEST
        assert p2.error_message == "Read operation on uninitialized share partition not allowed."

        resp = await call(broker, api_87, summary_req(GROUP, tid, 0, 1, 2), 1)
        s0, s1, s2 = resp.results[0].partitions
        assert (s0.error_code, s0.state_epoch, s0.leader_epoch, s0.start_offset) == (0, 1, 0, 5)
        assert s0.delivery_complete_count == 5
        assert (s1.start_offset, s1.delivery_complete_count) == (12, -1)  # written with v0: unknown
        assert (s2.error_code, s2.start_offset, s2.delivery_complete_count) == (0, -1, -1)
        resp = await call(broker, api_87, summary_req(GROUP, tid, 0), 0)
        assert resp.results[0].partitions[0].delivery_complete_count == -1  # v0 cannot carry it

        resp = await call(broker, api_86, delete_req(GROUP, tid, 0, 3), 0)
        assert [p.error_code for p in resp.results[0].partitions] == [0, 0]
        resp = await call(broker, api_84, read_req(GROUP, tid, 0), 0)
        assert resp.results[0].partitions[0].error_code == ErrorCode.INVALID_REQUEST


async def test_handlers_answer_malformed_requests_with_empty_responses(tmp_path):
    async with handler_broker(tmp_path) as broker:
        tid = topic_id(broker.logs)
        assert (await call(broker, api_83, init_req("", tid, (0, 0, 0)), 0)).results == []
        assert (await call(broker, api_84, read_req("", tid, 0), 0)).results == []
        assert (await call(broker, api_87, summary_req("", tid, 0), 1)).results == []
        assert (await call(broker, api_86, delete_req(GROUP, tid), 0)).results == []
        empty = m85.WriteShareGroupStateRequest(group_id=GROUP, topics=[])
        assert (await call(broker, api_85, empty, 1)).results == []
        no_partitions = m84.ReadShareGroupStateRequest(
            group_id=GROUP,
            topics=[m84.ReadStateData(topic_id=tid, partitions=[m84.PartitionData(0, 0)]), m84.ReadStateData(tid, [])],
        )
        assert (await call(broker, api_84, no_partitions, 0)).results == []
        assert TOPIC not in broker.logs.topics
