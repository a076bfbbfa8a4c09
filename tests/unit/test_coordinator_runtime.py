"""The coordinator runtime over real logs: load, writes, the bounded log, unload on metadata changes."""

from __future__ import annotations

import contextlib

import trio

from broker.coordinator.runtime import CoordinatorRuntime, CoordinatorSpec
from broker.coordinator.timer import CoordinatorTimer
from broker.log.commit import GroupCommitter
from broker.log.manager import LogManager
from broker.metadata.local import SingleNodeMetadata
from broker.protocol.errors import ErrorCode, KafkaError
from broker.replica.manager import ReplicaManager

TOPIC = "__test_state"


class KeyedShard:
    """Last value per key wins, like group offsets; counts what it replays."""

    def __init__(self, partition: int, timer: CoordinatorTimer | None = None) -> None:
        self.partition = partition
        self.values: dict[bytes, bytes] = {}
        self.replayed = 0
        self.loaded_at: int | None = None

    def load_record(self, offset: int, key: bytes | None, value: bytes | None) -> None:
        self.replayed += 1
        assert key is not None
        if value is None:
            self.values.pop(key, None)
        else:
            self.values[key] = value

    def on_loaded(self, now_ms: int) -> None:
        self.loaded_at = now_ms


@contextlib.asynccontextmanager
async def runtime_on(data_dir, *, partitions=2, snapshot_min_records=100, segment_bytes=1024 * 1024):
    logs = LogManager(data_dir)
    logs.open()
    committer = GroupCommitter(logs.logs)
    metadata = SingleNodeMetadata(1, "c", logs, None)
    replicas = ReplicaManager(1, logs, metadata, committer)
    spec = CoordinatorSpec(
        name="test",
        topic=TOPIC,
        num_partitions=partitions,
        topic_configs={"segment.bytes": str(segment_bytes), "retention.ms": "-1"},
        snapshot_min_records=snapshot_min_records,
    )
    runtime = CoordinatorRuntime(spec, new_shard=KeyedShard, metadata=metadata, replicas=replicas, clock=lambda: 1000)
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(committer.run)
            await nursery.start(runtime.run)
            await runtime.load_led()
            yield runtime, logs
            nursery.cancel_scope.cancel()
    finally:
        logs.close()


def size_of(logs: LogManager, partition: int) -> int:
    log = logs.partition(TOPIC, partition)
    assert log is not None
    return log.size_bytes


async def write_keyed(runtime, shard, pid, n, keys):
    for i in range(n):
        key = b"key-%d" % (i % keys)
        value = b"value-%08d" % i
        await runtime.write(pid, [(key, value)])
        shard.values[key] = value


async def test_records_are_durable_and_replayed_after_a_restart(tmp_path):
    async with runtime_on(tmp_path) as (runtime, _):
        shard = await runtime.get_shard(1)
        await write_keyed(runtime, shard, 1, 20, keys=5)
        await runtime.write(1, [(b"key-0", None)])
        expected = {k: v for k, v in shard.values.items() if k != b"key-0"}
    async with runtime_on(tmp_path) as (runtime, _):
        shard = runtime.shard(1)
        assert shard.values == expected and shard.loaded_at == 1000
        assert runtime.shard(0).values == {}


async def test_the_log_stays_bounded_however_many_writes(tmp_path):
    """Many writes to few keys: the log is rewritten and its head deleted, so its size
    and what a restart replays depend on the live keys, not on the number of writes."""
    sizes, replays = [], []
    for writes in (2_000, 8_000):
        data = tmp_path / f"w{writes}"
        async with runtime_on(data, snapshot_min_records=300) as (runtime, logs):
            shard = await runtime.get_shard(0)
            await write_keyed(runtime, shard, 0, writes, keys=50)
            expected = dict(shard.values)
            sizes.append(size_of(logs, 0))
            assert logs.partition(TOPIC, 0).log_start_offset > writes - 2 * 300 - 100
        async with runtime_on(data, snapshot_min_records=300) as (runtime, _):
            shard = runtime.shard(0)
            assert shard.values == expected
            replays.append(shard.replayed)
    # Both stay under a bound set by the live keys and the rewrite threshold.
    assert all(r <= 50 + 2 * 300 + 100 for r in replays), replays
    assert sizes[1] <= 2 * sizes[0] and sizes[1] < 120 * (50 + 2 * 300 + 100), sizes


async def test_unloaded_shards_answer_not_coordinator(tmp_path):
    async with runtime_on(tmp_path) as (runtime, _):
        await runtime.get_shard(0)
        runtime.unload(0)
        try:
            runtime.shard(0)
        except KafkaError as exc:
            assert exc.code == ErrorCode.NOT_COORDINATOR
        else:
            raise AssertionError("an unloaded shard must not answer")
        assert (await runtime.get_shard(0)).values == {}  # loaded again: this node leads it


async def test_deleting_the_topic_unloads_every_shard(tmp_path):
    async with runtime_on(tmp_path) as (runtime, logs):
        await runtime.get_shard(0)
        await runtime.get_shard(1)
        logs.delete_topic(TOPIC)
        assert not runtime.is_loaded(0) and not runtime.is_loaded(1)


async def test_a_shard_answers_not_coordinator_while_the_lease_has_lapsed(tmp_path):
    """A broker cut off from etcd (or paused) past its lease keeps its shards loaded until
    it learns it lost the partitions, but meanwhile another broker may have become the
    coordinator: the stale shard must not answer. Once the lease is refreshed again
    (etcd back, nobody elected instead) the same shard answers at once."""
    lease = [True]
    async with runtime_on(tmp_path) as (runtime, _):
        shard = await runtime.get_shard(0)
        partition = runtime._replicas.partition(TOPIC, 0)
        assert partition is not None and partition.is_leader
        partition._lease_ok = lambda: lease[0]  # what ClusterMetadata.lease_valid says
        lease[0] = False
        try:
            await runtime.get_shard(0)
        except KafkaError as exc:
            assert exc.code == ErrorCode.NOT_COORDINATOR
        else:
            raise AssertionError("a shard answered while its broker's lease had lapsed")
        lease[0] = True
        assert await runtime.get_shard(0) is shard


class TimedShard(KeyedShard):
    """Keeps the timer the runtime gave it, to schedule on."""

    def __init__(self, partition: int, timer: CoordinatorTimer | None = None) -> None:
        super().__init__(partition, timer)
        assert timer is not None
        self.queue = timer.queue("test")


async def test_timers_fire_on_each_shard_in_deadline_order(tmp_path):
    """The timer task keeps each shard's earliest deadline between rounds and re-reads only
    the shards whose timers changed: a deadline set while it sleeps wakes it, a cancelled
    one (which does not wake it) runs nothing, and every shard's tasks run when due."""
    logs = LogManager(tmp_path)
    logs.open()
    committer = GroupCommitter(logs.logs)
    metadata = SingleNodeMetadata(1, "c", logs, None)
    replicas = ReplicaManager(1, logs, metadata, committer)
    spec = CoordinatorSpec(name="test", topic=TOPIC, num_partitions=4, topic_configs={}, snapshot_min_records=100)
    calls: list[int] = []
    fired: list[tuple[int, str]] = []
    all_fired = trio.Event()

    async def on_timers(pid, shard, due):
        calls.append(pid)
        for _name, key, task in due:
            fired.append((pid, key))
            task()
        if len(fired) == 3:
            all_fired.set()

    def clock() -> int:
        return int(trio.current_time() * 1000)

    runtime = CoordinatorRuntime(
        spec, new_shard=TimedShard, metadata=metadata, replicas=replicas, clock=clock, on_timers=on_timers
    )
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(committer.run)
            await nursery.start(runtime.run)
            await runtime.load_led()
            shards = [await runtime.get_shard(pid) for pid in range(4)]
            now = clock()
            shards[0].queue.schedule("a", now + 300, lambda: None)
            shards[1].queue.schedule("b", now + 600, lambda: None)
            await trio.sleep(0.05)  # the task sleeps until a's deadline
            shards[0].queue.cancel("a")
            shards[3].queue.schedule("c", now + 150, lambda: None)
            shards[2].queue.schedule("d", now + 450, lambda: None)
            shards[3].queue.schedule("e", now + 900, lambda: None)
            with trio.fail_after(10):
                await all_fired.wait()
            nursery.cancel_scope.cancel()
    finally:
        logs.close()
    assert fired == [(3, "c"), (2, "d"), (1, "b")]
    assert 0 not in calls
