"""The ISR, min.insync.replicas, leader elections and reassignments on a real cluster.

- acks=all below min.insync.replicas is refused with NOT_ENOUGH_REPLICAS (acks=1
  still appends), and works again once the broker is back in the ISR;
- a follower that stops fetching (SIGSTOP, its lease kept) leaves the ISR after
  replica.lag.time.max.ms, written by the leader in etcd, and comes back in
  after SIGCONT;
- preferred-leader election (ElectLeaders) through librdkafka's AdminClient;
- a partition moved to other brokers with ``sharebroker reassign-partitions``
  (execute, list, verify), its records all there afterwards.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from broker.admin.client import AdminClient as WireClient
from broker.localcluster import LocalCluster
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from broker.protocol.records import build_batch
from tests.cluster.conftest import FAST_SHARE_SETTINGS, wait_for

SETTINGS = {
    **FAST_SHARE_SETTINGS,
    "broker.session.timeout.ms": "4000",
    "broker.heartbeat.interval.ms": "500",
    "replica.lag.time.max.ms": "1500",
}


@pytest.fixture
def c() -> Iterator[LocalCluster]:
    with LocalCluster(3, settings=SETTINGS) as cluster:
        yield cluster


def _live(c: LocalCluster) -> str:
    return ",".join(b.bootstrap for b in c.brokers if b.process is not None and b.process.poll() is None)


def _partition(c: LocalCluster, topic: str, index: int = 0) -> tuple[int, list[int], list[int]]:
    """(leader, replicas, sorted isr) as the live brokers report it."""
    md = AdminClient({"bootstrap.servers": _live(c)}).list_topics(topic, timeout=10)
    p = md.topics[topic].partitions[index]
    return p.leader, list(p.replicas), sorted(p.isrs)


def _create(c: LocalCluster, topic: str, *, configs: dict[str, str] | None = None, replicas: list[int] | None = None):
    admin = AdminClient({"bootstrap.servers": c.bootstrap})
    if replicas is not None:
        new = NewTopic(topic, num_partitions=1, replica_assignment=[replicas], config=configs or {})
    else:
        new = NewTopic(topic, num_partitions=1, replication_factor=3, config=configs or {})
    admin.create_topics([new])[topic].result(timeout=30)
    wait_for(lambda: _partition(c, topic)[0] > 0, 30, "a leader")


def _produce_raw(bootstrap: str, topic: str, acks: int, value: bytes) -> int:
    """One Produce straight to the partition's leader; its error code."""
    with WireClient(bootstrap) as client:
        md = client.metadata([topic])
        leader = md.topics[0].partitions[0].leader_id
        node = next(b for b in md.brokers if b.node_id == leader)
        request = ProduceRequest(
            acks=acks,
            timeout_ms=5000,
            topic_data=[
                TopicProduceData(
                    name=topic,
                    partition_data=[
                        PartitionProduceData(index=0, records=build_batch([(None, value, (), int(time.time() * 1000))]))
                    ],
                )
            ],
        )
        conn = client.connect((node.host, node.port))
        answer = conn.call(request, 9)
    return answer.responses[0].partition_responses[0].error_code


def _values(bootstrap: str, topic: str) -> list[bytes]:
    consumer = Consumer({"bootstrap.servers": bootstrap, "group.id": "check", "enable.auto.commit": False})
    end = consumer.get_watermark_offsets(TopicPartition(topic, 0), timeout=10)[1]
    consumer.assign([TopicPartition(topic, 0, 0)])
    out: list[bytes] = []
    deadline = time.monotonic() + 30
    while len(out) < end and time.monotonic() < deadline:
        m = consumer.poll(0.5)
        if m is not None and m.error() is None:
            value = m.value()
            assert value is not None
            out.append(value)
    consumer.close()
    return out


def test_acks_all_below_min_insync_replicas_is_refused_until_the_isr_is_back(c: LocalCluster, names):
    topic = names("mi")
    _create(c, topic, configs={"min.insync.replicas": "3"})
    assert _produce_raw(c.bootstrap, topic, -1, b"all three") == ErrorCode.NONE
    leader, replicas, _ = _partition(c, topic)
    follower = next(r for r in replicas if r != leader)
    c.broker(follower).kill()
    wait_for(lambda: len(_partition(c, topic)[2]) == 2, 30, "the ISR without the killed follower")
    assert _produce_raw(_live(c), topic, -1, b"refused") == ErrorCode.NOT_ENOUGH_REPLICAS
    assert _produce_raw(_live(c), topic, 1, b"acks=1") == ErrorCode.NONE
    c.broker(follower).start()
    wait_for(lambda: len(_partition(c, topic)[2]) == 3, 60, "the follower back in the ISR")
    assert _produce_raw(c.bootstrap, topic, -1, b"again") == ErrorCode.NONE
    assert _values(c.bootstrap, topic) == [b"all three", b"acks=1", b"again"]


def test_a_follower_that_stops_fetching_leaves_the_isr_and_comes_back(names):
    # A long session: the paused broker keeps its registration, only its fetching stops.
    settings = {**SETTINGS, "broker.session.timeout.ms": "60000", "broker.heartbeat.interval.ms": "2000"}
    with LocalCluster(3, settings=settings) as c:
        topic = names("lag")
        _create(c, topic, configs={"min.insync.replicas": "2"})
        producer = Producer({"bootstrap.servers": c.bootstrap, "acks": "all", "linger.ms": 0})
        leader, replicas, isr = _partition(c, topic)
        assert isr == [1, 2, 3]
        follower = next(r for r in replicas if r != leader)
        victim = c.broker(follower).process
        assert victim is not None
        victim.send_signal(signal.SIGSTOP)
        try:
            shrunk = time.monotonic()
            for i in range(20):  # the leader's log moves on without it
                producer.produce(topic, value=b"w%d" % i)
                assert producer.flush(30) == 0
                if follower not in _partition(c, topic)[2]:
                    break
                time.sleep(0.2)
            wait_for(lambda: follower not in _partition(c, topic)[2], 30, "the paused follower out of the ISR")
            took = time.monotonic() - shrunk
        finally:
            victim.send_signal(signal.SIGCONT)
        assert took < 15, took
        assert _partition(c, topic)[0] == leader
        wait_for(lambda: _partition(c, topic)[2] == [1, 2, 3], 30, "the follower back in the ISR")


def test_preferred_leader_election(c: LocalCluster, names):
    from confluent_kafka import ElectionType

    topic = names("el")
    _create(c, topic, replicas=[1, 2, 3])
    assert _partition(c, topic)[0] == 1
    c.broker(1).kill()
    wait_for(lambda: _partition(c, topic)[0] == 2, 30, "broker 2 leading")
    c.broker(1).start()
    wait_for(lambda: _partition(c, topic)[2] == [1, 2, 3], 60, "broker 1 back in the ISR")
    assert _partition(c, topic)[0] == 2  # it does not take leadership back by itself (yet)
    admin = AdminClient({"bootstrap.servers": c.bootstrap})
    result = admin.elect_leaders(ElectionType.PREFERRED, [TopicPartition(topic, 0)]).result(timeout=30)
    assert result[TopicPartition(topic, 0)] is None, result
    wait_for(lambda: _partition(c, topic)[0] == 1, 30, "the preferred replica leading again")
    again = admin.elect_leaders(ElectionType.PREFERRED, [TopicPartition(topic, 0)]).result(timeout=30)
    error = again[TopicPartition(topic, 0)]
    assert error is not None and error.code() == ErrorCode.ELECTION_NOT_NEEDED


def _tool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "broker", "reassign-partitions", *args], capture_output=True, text=True, timeout=60
    )


def test_reassign_partitions_tool_moves_a_partition(c: LocalCluster, names, tmp_path: Path):
    topic = names("ra")
    _create(c, topic, replicas=[1, 2])
    producer = Producer({"bootstrap.servers": c.bootstrap, "acks": "all"})
    for i in range(500):
        producer.produce(topic, value=b"m%d" % i)
    assert producer.flush(30) == 0
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"version": 1, "partitions": [{"topic": topic, "partition": 0, "replicas": [3, 2]}]}))
    out = _tool("--bootstrap-server", c.bootstrap, "--execute", "--reassignment-json-file", str(plan))
    assert out.returncode == 0, out.stderr
    assert "Successfully started partition reassignments for " + f"{topic}-0" in out.stdout
    assert '"replicas": [1, 2]' in out.stdout  # the rollback file
    wait_for(
        lambda: (
            "is completed"
            in _tool("--bootstrap-server", c.bootstrap, "--verify", "--reassignment-json-file", str(plan)).stdout
        ),
        60,
        "the reassignment completed",
    )
    leader, replicas, isr = _partition(c, topic)
    assert replicas == [3, 2] and isr == [2, 3] and leader in (2, 3)
    listed = _tool("--bootstrap-server", c.bootstrap, "--list")
    assert listed.returncode == 0 and "No partition reassignments found." in listed.stdout
    # Broker 3 got every record; broker 1 is no replica any more.
    c.broker(2).kill()
    wait_for(lambda: _partition(c, topic)[0] == 3, 30, "broker 3 leading")
    assert _values(_live(c), topic) == [b"m%d" % i for i in range(500)]
    c.broker(2).start()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"version": 1, "partitions": [{"topic": topic, "partition": 0, "replicas": [9]}]}))
    out = _tool("--bootstrap-server", c.bootstrap, "--execute", "--reassignment-json-file", str(bad))
    assert out.returncode == 1 and "INVALID_REPLICA_ASSIGNMENT" in out.stderr
    cancel = _tool("--bootstrap-server", c.bootstrap, "--cancel", "--reassignment-json-file", str(plan))
    assert cancel.returncode == 1 and "NO_REASSIGNMENT_IN_PROGRESS" in cancel.stderr
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{nope")
    out = _tool("--bootstrap-server", c.bootstrap, "--execute", "--reassignment-json-file", str(garbage))
    assert out.returncode == 2 and out.stderr.count("\n") == 1


def test_sigterm_of_a_leader_hands_leadership_over_before_it_stops(c: LocalCluster, names):
    """Controlled shutdown: the leader's partitions get new leaders before the process
    exits, so acks=all producing goes on well within the 4 s session a kill -9 costs."""
    from tests.cluster.test_replication import Load, _read_all

    topic = names("cs")
    _create(c, topic, configs={"min.insync.replicas": "2"})
    load = Load(c.bootstrap, topic, rate=2_000)
    load.start()
    try:
        wait_for(lambda: len(load.acked) > 500, 60, "producing")
        leader = _partition(c, topic)[0]
        stopped = time.monotonic()
        assert c.broker(leader).stop() == 0
        first = wait_for(lambda: load.first_ack_after(0, stopped), 30, "an ack after the SIGTERM")
        new_leader = _partition(c, topic)[0]
        log = c.broker(leader).log_path.read_text()
        assert "controlled_shutdown_done" in log
        print(f"SIGTERM of leader {leader}: {new_leader} leads, first ack after {first - stopped:.2f} s")
        assert new_leader not in (leader, -1)
        assert first - stopped < 3.0, first - stopped
        c.broker(leader).start()
        wait_for(lambda: _partition(c, topic)[2] == [1, 2, 3], 60, "the broker back in the ISR")
    finally:
        load.stop_flag.set()
        load.join(120)
    assert load.error is None and not load.failed
    stored = _read_all(c.bootstrap, topic, 1)
    acked = {v for _, _, v in load.acked}
    assert not acked - set(stored) and all(n == 1 for n in stored.values())


def test_auto_leader_rebalance_moves_leadership_back_to_the_preferred_replica(names):
    settings = {**SETTINGS, "leader.imbalance.check.interval.seconds": "2"}
    with LocalCluster(3, settings=settings) as c:
        topic = names("ar")
        _create(c, topic, replicas=[1, 2, 3])
        c.broker(1).kill()
        wait_for(lambda: _partition(c, topic)[0] == 2, 30, "broker 2 leading")
        c.broker(1).start()
        wait_for(lambda: _partition(c, topic)[0] == 1, 60, "the preferred replica leading again by itself")
        assert _partition(c, topic)[2] == [1, 2, 3]
