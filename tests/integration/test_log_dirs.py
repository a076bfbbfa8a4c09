"""Several log directories (JBOD) on the real broker: DescribeLogDirs and AlterReplicaLogDirs
through kafka-python's admin client, a move under an acks=all producer, and kill -9 mid-move."""

from __future__ import annotations

import shutil
import threading
import time
from pathlib import Path

from confluent_kafka import Producer
from kafka import KafkaAdminClient, TopicPartitionReplica
from kafka.errors import KafkaStorageError, LogDirNotFoundError, NoError, UnknownTopicOrPartitionError

from broker.testing import BrokerProcess
from tests.integration.clients import consume, create_topic, produce

# A move throttled to this rate takes seconds for the data below, long enough to kill it.
SLOW_MOVE_BYTES_PER_S = 400_000


def _dirs(admin: KafkaAdminClient) -> dict[str, dict]:
    (broker,) = admin.describe_log_dirs()
    return {d["log_dir"]: d for d in broker["log_dirs"]}


def _replicas(admin: KafkaAdminClient, topic: str) -> dict[tuple[int, bool], tuple[str, dict]]:
    out = {}
    for path, d in _dirs(admin).items():
        for t in d["topics"]:
            if t["name"] == topic:
                for p in t["partitions"]:
                    out[(p["partition_index"], p["is_future_key"])] = (path, p)
    return out


def _wait_moved(admin: KafkaAdminClient, topic: str, partition: int, target: str, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        replicas = _replicas(admin, topic)
        if (partition, True) not in replicas and replicas[(partition, False)][0] == target:
            return
        time.sleep(0.2)
    raise AssertionError(f"{topic}-{partition} did not reach {target}: {_replicas(admin, topic)}")


def test_describe_and_move_between_log_dirs_under_a_producer(tmp_path: Path):
    a, b = tmp_path / "a", tmp_path / "b"
    broker = BrokerProcess(a, {"log.dirs": f"{a},{b}"}).start()
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    try:
        create_topic(broker.bootstrap, "spread", partitions=4)
        for p in range(4):
            produce(broker.bootstrap, "spread", [b"x" * 100] * 10, partition=p, acks="all")
        dirs = _dirs(admin)
        assert sorted(dirs) == [str(a), str(b)]
        for d in dirs.values():
            assert d["error_code"] == 0 and d["total_bytes"] > 0 and 0 <= d["usable_bytes"] <= d["total_bytes"]
        replicas = _replicas(admin, "spread")
        assert sorted(replicas) == [(p, False) for p in range(4)]
        assert sorted(path for path, _ in replicas.values()) == sorted([str(a), str(b)] * 2)
        assert all(r["partition_size"] > 1000 and r["offset_lag"] == 0 for _, r in replicas.values())

        source, _ = replicas[(0, False)]
        target = str(b) if source == str(a) else str(a)
        acked: list[bytes] = []
        failed: list = []
        stop = threading.Event()

        def run_producer() -> None:
            producer = Producer({"bootstrap.servers": broker.bootstrap, "acks": "all", "linger.ms": 1})

            def delivered(err, msg) -> None:
                if err is None:
                    acked.append(msg.value())
                else:
                    failed.append((msg.value(), err))

            i = 0
            deadline = time.monotonic() + 30
            while not stop.is_set() and time.monotonic() < deadline:
                producer.produce("spread", b"m%d" % i, partition=0, on_delivery=delivered)
                producer.poll(0)
                i += 1
                time.sleep(0.002)
            producer.flush(10)

        thread = threading.Thread(target=run_producer)
        thread.start()
        time.sleep(0.5)
        result = admin.alter_replica_log_dirs({TopicPartitionReplica("spread", 0, 1): target})
        assert result == {TopicPartitionReplica("spread", 0, 1): NoError}
        _wait_moved(admin, "spread", 0, target)
        time.sleep(0.5)
        stop.set()
        thread.join(30)
        assert len(acked) > 50
        assert not failed
        got = [m.value() for m in consume(broker.bootstrap, "spread", 10 + len(acked), partition=0)]
        assert got[10:] == acked  # every acknowledged record, in order, after the move
        assert not (Path(source) / "spread-0").exists() and (Path(target) / "spread-0").is_dir()

        errors = admin.alter_replica_log_dirs(
            {
                TopicPartitionReplica("spread", 1, 1): str(tmp_path / "elsewhere"),
                TopicPartitionReplica("nosuch", 0, 1): target,
            }
        )
        assert errors[TopicPartitionReplica("spread", 1, 1)] is LogDirNotFoundError
        assert errors[TopicPartitionReplica("nosuch", 0, 1)] is UnknownTopicOrPartitionError
    finally:
        admin.close()
        broker.kill()


def test_kill_9_during_a_move_loses_nothing_and_the_move_completes(tmp_path: Path):
    a, b = tmp_path / "a", tmp_path / "b"
    settings = {"log.dirs": f"{a},{b}", "replica.alter.log.dirs.io.max.bytes.per.second": str(SLOW_MOVE_BYTES_PER_S)}
    broker = BrokerProcess(a, settings).start()
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    try:
        create_topic(broker.bootstrap, "moving", partitions=1)
        values = [b"%06d" % i + b"y" * 994 for i in range(3000)]  # ~3 MB: ~7 s at the throttle
        produce(broker.bootstrap, "moving", values, partition=0, acks="all")
        source, _ = _replicas(admin, "moving")[(0, False)]
        target = str(b) if source == str(a) else str(a)
        assert admin.alter_replica_log_dirs({TopicPartitionReplica("moving", 0, 1): target}) == {
            TopicPartitionReplica("moving", 0, 1): NoError
        }
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            future = _replicas(admin, "moving").get((0, True))
            if future is not None and 0 < future[1]["offset_lag"] < len(values):
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the move never showed progress")
        more = produce(broker.bootstrap, "moving", [b"during"], partition=0, acks="all")
        assert more[0].offset() == len(values)
        admin.close()
        broker.kill()
        broker.start()
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
        _wait_moved(admin, "moving", 0, target, timeout_s=60)
        got = consume(broker.bootstrap, "moving", len(values) + 1, partition=0)
        assert [m.value() for m in got] == [*values, b"during"]
        assert [m.offset() for m in got] == list(range(len(values) + 1))
    finally:
        admin.close()
        broker.kill()


def test_a_failed_log_dir_takes_only_its_partitions_offline(tmp_path: Path):
    a, b = tmp_path / "a", tmp_path / "b"
    broker = BrokerProcess(a, {"log.dirs": f"{a},{b}"}).start()
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    try:
        create_topic(broker.bootstrap, "half", partitions=2)
        where = {p: path for (p, _), (path, _) in _replicas(admin, "half").items()}
        on_b = next(p for p, path in where.items() if path == str(b))
        on_a = 1 - on_b
        for p in range(2):
            produce(broker.bootstrap, "half", [b"v"], partition=p, acks="all")
        admin.close()
        assert broker.stop() == 0
        shutil.rmtree(b)
        b.write_bytes(b"")  # the disk behind b is gone
        broker.start()
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
        dirs = _dirs(admin)
        assert dirs[str(b)]["error_code"] == KafkaStorageError.errno and dirs[str(b)]["topics"] == []
        assert dirs[str(a)]["error_code"] == 0
        assert [m.value() for m in consume(broker.bootstrap, "half", 1, partition=on_a)] == [b"v"]
        producer = Producer({"bootstrap.servers": broker.bootstrap, "acks": "all", "message.timeout.ms": 3000})
        outcome: list = []
        producer.produce("half", b"w", partition=on_b, on_delivery=lambda err, msg: outcome.append(err))
        producer.flush(10)
        assert outcome and outcome[0] is not None  # the offline partition takes no writes
    finally:
        admin.close()
        broker.kill()
