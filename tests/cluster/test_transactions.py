"""Transactions over a 3-broker cluster: coordinator, partitions and group on different brokers.

A transaction's partitions are led by all three brokers and its coordinator and
its group's coordinator by one of them each, so its markers reach partitions
over the wire (WriteTxnMarkers), its produce and offset commits are verified
with a coordinator elsewhere (AddPartitionsToTxn, KIP-890), and the group
coordinator applies the marker to the offsets. librdkafka (transaction version
1: AddPartitionsToTxn from the client, verification by the partition leaders)
and the Java clients 4.4 (transaction version 2: Produce and TxnOffsetCommit
add their partitions through the leader) each commit and abort; read_committed
readers see the committed records only and every partition's last stable
offset reaches its high watermark.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from broker.localcluster import LocalCluster
from tests.cluster.conftest import FAST_SHARE_SETTINGS

ROOT = Path(__file__).resolve().parents[2]
JAVA_TOOL = ROOT / "peers" / ".cache" / "java" / "sharetool.jar"
PARTITIONS = 6
SETTINGS = {**FAST_SHARE_SETTINGS, "transaction.state.log.num.partitions": "6"}


@pytest.fixture(scope="module")
def txn_cluster() -> Iterator[LocalCluster]:
    with LocalCluster(3, settings=SETTINGS) as c:
        yield c


def _create(c: LocalCluster, topic: str) -> dict[int, int]:
    """A topic replicated on the three brokers; {partition: leader}."""
    a = AdminClient({"bootstrap.servers": c.bootstrap})
    new = NewTopic(topic, num_partitions=PARTITIONS, replication_factor=3)
    a.create_topics([new])[topic].result(timeout=30)
    md = a.list_topics(topic, timeout=10)
    return {p: m.leader for p, m in md.topics[topic].partitions.items()}


def _read(bootstrap: str, topic: str, isolation: str) -> list[str]:
    """Every record of the topic as a reader of ``isolation`` gets it, read up to the high
    watermark of each partition: a partition whose last stable offset stays below its
    high watermark (a transaction left open) fails the read."""
    c = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"reader-{isolation}",
            "enable.auto.commit": False,
            "isolation.level": isolation,
            "fetch.wait.max.ms": 100,
        }
    )
    try:
        ends = {p: c.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1] for p in range(PARTITIONS)}
        c.assign([TopicPartition(topic, p, 0) for p in range(PARTITIONS)])
        values: list[str] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            m = c.poll(0.2)
            if m is not None and m.error() is None:
                value = m.value()
                assert value is not None
                values.append(value.decode())
            positions = c.position([TopicPartition(topic, p) for p in range(PARTITIONS)])
            if all(tp.offset >= ends[tp.partition] for tp in positions):
                return values
        raise AssertionError(f"{isolation} reader stuck below the high watermarks {ends}: {positions}")
    finally:
        c.close()


def _committed(bootstrap: str, topic: str, group: str) -> dict[int, int]:
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": group, "isolation.level": "read_committed"})
    try:
        got = c.committed([TopicPartition(topic, p) for p in range(PARTITIONS)], timeout=30)
        return {tp.partition: tp.offset for tp in got}
    finally:
        c.close()


def test_librdkafka_transactions_span_the_brokers(txn_cluster: LocalCluster, names):
    c = txn_cluster
    topic, group = names("tx"), names("txg")
    leaders = _create(c, topic)
    assert set(leaders.values()) == {1, 2, 3}, leaders
    expected: list[str] = []
    # Several transactional ids: their coordinators land on different brokers.
    for n in range(3):
        p = Producer(
            {
                "bootstrap.servers": c.bootstrap,
                "transactional.id": f"{topic}-id{n}",
                "broker.address.family": "v4",
            }
        )
        p.init_transactions(30)
        consumer = Consumer({"bootstrap.servers": c.bootstrap, "group.id": group})
        for t, commit in enumerate((True, False, True)):
            p.begin_transaction()
            values = [f"{n}-{t}-{i}" for i in range(4 * PARTITIONS)]
            for i, v in enumerate(values):
                p.produce(topic, value=v.encode(), partition=i % PARTITIONS)
            offsets = [TopicPartition(topic, q, 10 * n + t + 1) for q in range(PARTITIONS)]
            p.send_offsets_to_transaction(offsets, consumer.consumer_group_metadata(), 30)
            if commit:
                p.commit_transaction(30)
                expected += values
            else:
                p.flush(30)  # written before the abort (which drops what is still queued)
                p.abort_transaction(30)
        consumer.close()
    committed = _read(c.bootstrap, topic, "read_committed")
    assert Counter(committed) == Counter(expected)
    everything = _read(c.bootstrap, topic, "read_uncommitted")
    assert len(everything) == 3 * 3 * 4 * PARTITIONS
    # The last committed transaction's offsets (n=2, t=2), not the aborted ones'.
    assert _committed(c.bootstrap, topic, group) == dict.fromkeys(range(PARTITIONS), 23)


@pytest.mark.skipif(
    shutil.which("java") is None or not JAVA_TOOL.exists(), reason="Java or peers' TxnTool missing (make java-tool)"
)
def test_java_transactions_span_the_brokers(txn_cluster: LocalCluster, names):
    c = txn_cluster
    topic, group = names("jtx"), names("jtxg")
    leaders = _create(c, topic)
    assert set(leaders.values()) == {1, 2, 3}, leaders

    def tool(*args: str) -> list[dict]:
        run = subprocess.run(
            ["java", "-cp", f"{JAVA_TOOL}:{JAVA_TOOL.parent}/lib/*", "sharebroker.peers.TxnTool", *args],
            capture_output=True,
            text=True,
            timeout=180,
            check=False,
        )
        assert run.returncode == 0, run.stderr[-3000:]
        return [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]

    produced = tool(
        "produce", "--bootstrap", c.bootstrap, "--topic", topic, "--transactional-id", f"{topic}-j",
        "--transactions", "6", "--per-txn", "12", "--abort-every", "3", "--offsets-group", group,
    )  # fmt: skip
    assert produced[-1] == {"committed": 4, "aborted": 2}
    values = [
        line["value"] for line in tool("consume", "--bootstrap", c.bootstrap, "--topic", topic) if "value" in line
    ]
    assert sorted(values) == sorted(f"t{i}-{j}" for i in range(6) if (i + 1) % 3 for j in range(12))
    offsets = tool("offsets", "--bootstrap", c.bootstrap, "--topic", topic)
    assert len(offsets) == PARTITIONS
    assert all(o["last_stable"] == o["high_watermark"] > 0 for o in offsets), offsets
    assert Counter(_read(c.bootstrap, topic, "read_committed")) == Counter(values)
    committed = tool("committed", "--bootstrap", c.bootstrap, "--topic", topic, "--group", group)
    # Offsets go with each transaction (offset i + 1): the last committed one, t4, counts.
    assert {o["partition"]: o["committed"] for o in committed}[0] == 5
