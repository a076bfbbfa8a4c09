"""Followers fetch in incremental sessions (KIP-227), on 3 brokers and etcd.

- a follower keeps one session per leader through many idle rounds, and a record
  appended to any partition after them is fetched (acks=all with
  min.insync.replicas=3 is answered only once both followers have it);
- a leader's change resets what its followers fetch from it: the session with a
  killed leader ends, its partitions join the followers' sessions with the new
  leaders (whose followers fetch what they append), and the restarted broker opens
  new sessions as a follower and is back in every ISR; when it leads its partitions
  again, every follower stays in their ISR.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Iterator

import pytest
from confluent_kafka import ElectionType, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from broker.localcluster import BrokerProcess, LocalCluster
from tests.cluster.conftest import FAST_SHARE_SETTINGS, wait_for

PARTITIONS = 60
# Idle rounds every 200 ms; a follower that stops fetching leaves the ISR after 3 s.
SETTINGS = {
    **FAST_SHARE_SETTINGS,
    "replica.fetch.wait.max.ms": "200",
    "replica.lag.time.max.ms": "3000",
    "broker.session.timeout.ms": "3000",
    "broker.heartbeat.interval.ms": "500",
}


@pytest.fixture
def c() -> Iterator[LocalCluster]:
    with LocalCluster(3, settings=SETTINGS) as cluster:
        yield cluster


def _create(c: LocalCluster, topic: str, min_isr: int = 3) -> None:
    admin = AdminClient({"bootstrap.servers": c.bootstrap})
    config = {"min.insync.replicas": str(min_isr)}
    new = NewTopic(topic, num_partitions=PARTITIONS, replication_factor=3, config=config)
    admin.create_topics([new])[topic].result(timeout=30)


def _leaders(c: LocalCluster, topic: str) -> dict[int, tuple[int, list[int]]]:
    live = ",".join(b.bootstrap for b in c.brokers if b.process is not None and b.process.poll() is None)
    md = AdminClient({"bootstrap.servers": live}).list_topics(topic, timeout=10)
    return {p: (m.leader, sorted(m.isrs)) for p, m in md.topics[topic].partitions.items()}


def _all_in_sync(c: LocalCluster, topic: str) -> dict[int, tuple[int, list[int]]] | None:
    state = _leaders(c, topic)
    return state if len(state) == PARTITIONS and all(isr == [1, 2, 3] for _, isr in state.values()) else None


def _produce_everywhere(c: LocalCluster, topic: str, tag: bytes) -> None:
    """One acks=all record to every partition; each is answered only once every replica
    in the ISR fetched it."""
    producer = Producer({"bootstrap.servers": c.bootstrap, "acks": "all", "linger.ms": 5, "message.timeout.ms": 20000})
    failed: list[object] = []

    def delivered(err: object, _msg: object) -> None:
        if err is not None:
            failed.append(err)

    for p in range(PARTITIONS):
        producer.produce(topic, value=tag, partition=p, on_delivery=delivered)
    assert producer.flush(30) == 0
    assert failed == []


def _sessions(broker: BrokerProcess) -> tuple[Counter[int], list[dict]]:
    """(sessions opened per leader, resets) that broker logged in this run."""
    opened: Counter[int] = Counter()
    resets = []
    for event in broker._log_events():
        if event.get("event") == "replica_fetch_session_opened":
            opened[int(event["leader"])] += 1
        elif event.get("event") == "replica_fetch_session_reset":
            resets.append(event)
    return opened, resets


def test_a_partition_appended_after_many_idle_rounds_is_fetched(c: LocalCluster, names):
    topic = names("idle")
    _create(c, topic)
    wait_for(lambda: _all_in_sync(c, topic), 30, "every partition led, ISR full")
    _produce_everywhere(c, topic, b"first")
    before = {node: _sessions(c.broker(node)) for node in (1, 2, 3)}
    time.sleep(4)  # 20 rounds of 200 ms in which nothing is appended anywhere
    assert _all_in_sync(c, topic), "a follower left the ISR while nothing was appended"
    _produce_everywhere(c, topic, b"after the idle rounds")
    after = {node: _sessions(c.broker(node)) for node in (1, 2, 3)}
    for node, (opened, resets) in after.items():
        # The same sessions carried the idle rounds and the new records: none was
        # opened again, none reset (a fetch naming every partition again opens one).
        assert opened == before[node][0], (node, opened, before[node][0])
        assert resets == before[node][1], (node, resets)
        assert set(opened) == {n for n in (1, 2, 3) if n != node}, (node, opened)
        assert all(count == 1 for count in opened.values()), (node, opened)


def test_a_leader_change_resets_the_session_and_moves_its_partitions(c: LocalCluster, names):
    topic = names("moved")
    _create(c, topic, min_isr=2)
    state = wait_for(lambda: _all_in_sync(c, topic), 30, "every partition led, ISR full")
    assert any(leader == 1 for leader, _ in state.values()), state
    _produce_everywhere(c, topic, b"before")
    c.broker(1).kill()
    wait_for(
        lambda: all(leader in (2, 3) and isr == [2, 3] for leader, isr in _leaders(c, topic).values()),
        30,
        "2 and 3 leading, 1 out of every ISR",
    )
    # acks=all with both live replicas in the ISR: answered once the new leader's
    # follower fetched each record, through its session with the new leader.
    _produce_everywhere(c, topic, b"after the leader changed")
    for node in (2, 3):
        opened, resets = _sessions(c.broker(node))
        # The session with broker 1 ended with it; the one with the other broker took
        # the moved partitions in (incrementally: it was not opened again).
        assert any(int(r["leader"]) == 1 for r in resets), (node, resets)
        other = 5 - node
        assert opened[other] == 1 and not any(int(r["leader"]) == other for r in resets), (node, opened, resets)
    c.broker(1).start()
    # Back as a follower: it opens new sessions with 2 and 3 and catches up on both.
    wait_for(lambda: _all_in_sync(c, topic), 60, "broker 1 back in every ISR")
    opened, _ = _sessions(c.broker(1))
    assert set(opened) == {2, 3}, opened


def test_a_leader_back_after_a_restart_keeps_its_followers_in_sync(c: LocalCluster, names):
    topic = names("back")
    _create(c, topic)
    state = wait_for(lambda: _all_in_sync(c, topic), 30, "every partition led, ISR full")
    led = [p for p, (leader, _) in state.items() if leader == 1]
    assert led, state
    _produce_everywhere(c, topic, b"before")
    c.broker(1).kill()
    wait_for(lambda: all(leader in (2, 3) for leader, _ in _leaders(c, topic).values()), 30, "2 and 3 leading")
    c.broker(1).start()
    wait_for(lambda: _all_in_sync(c, topic), 60, "broker 1 back in every ISR")
    # Broker 1 leads its partitions again. Their followers led them meanwhile and began
    # an epoch there with no record; they drop it when the new leader's answer shows it
    # was never the leader's, and fetch on (before, they fetched the same divergence
    # again and again and fell out of the ISR after replica.lag.time.max.ms).
    admin = AdminClient({"bootstrap.servers": c.bootstrap})
    admin.elect_leaders(ElectionType.PREFERRED, [TopicPartition(topic, p) for p in led]).result(timeout=30)
    wait_for(lambda: all(_leaders(c, topic)[p][0] == 1 for p in led), 30, "broker 1 leading its partitions again")
    time.sleep(4)  # longer than replica.lag.time.max.ms
    assert _all_in_sync(c, topic), _leaders(c, topic)
    _produce_everywhere(c, topic, b"after broker 1 leads again")  # min.insync.replicas=3
