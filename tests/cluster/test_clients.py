"""Real clients against a 3-broker cluster whose partition leaders are spread over the brokers.

librdkafka (producer, classic consumer group, ShareConsumer, AdminClient),
kafka-python and the Apache Kafka 4.4 Java clients (producer, KafkaShareConsumer,
Admin through ``peers/java``'s ShareTool, when Java and the tool are there) each
see the whole cluster, are sent to the right leader and get every record.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest
from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import (
    AdminClient,
    AlterConfigOpType,
    ConfigEntry,
    ConfigResource,
    NewPartitions,
    NewTopic,
    ResourceType,
)

from broker.localcluster import LocalCluster
from tests.cluster.conftest import wait_for
from tests.integration.share_helpers import commit_ok, poll_batch, share_consumer

ROOT = Path(__file__).resolve().parents[2]
JAVA_TOOL = ROOT / "peers" / ".cache" / "java" / "sharetool.jar"


def admin(c: LocalCluster) -> AdminClient:
    return AdminClient({"bootstrap.servers": c.bootstrap})


def create(c: LocalCluster, name: str, partitions: int, replication_factor: int = -1) -> dict[int, int]:
    """Create the topic through one broker; {partition: leader} as another broker reports it."""
    a = AdminClient({"bootstrap.servers": c.brokers[0].bootstrap})
    new = NewTopic(name, num_partitions=partitions, replication_factor=replication_factor)
    a.create_topics([new])[name].result(timeout=30)
    other = AdminClient({"bootstrap.servers": c.brokers[2].bootstrap})
    md = other.list_topics(name, timeout=10)
    return {p: m.leader for p, m in md.topics[name].partitions.items()}


def test_cluster_is_described_whole_by_every_broker(sharebroker_cluster):
    """Through the pytest plugin's fixture, as the README shows it."""
    cluster = sharebroker_cluster
    for b in cluster.brokers:
        md = AdminClient({"bootstrap.servers": b.bootstrap}).list_topics(timeout=10)
        assert sorted(md.brokers) == [1, 2, 3]
        assert {(m.host, m.port) for m in md.brokers.values()} == {
            ("127.0.0.1", int(x.bootstrap.rsplit(":", 1)[1])) for x in cluster.brokers
        }
        assert md.controller_id in (1, 2, 3)
    ids = set()
    for b in cluster.brokers:
        client = AdminClient({"bootstrap.servers": b.bootstrap})  # must outlive its future
        described = client.describe_cluster().result(timeout=10)
        assert sorted(n.id for n in described.nodes) == [1, 2, 3]
        assert described.controller.id in (1, 2, 3)
        ids.add(described.cluster_id)
    assert len(ids) == 1 and None not in ids  # one cluster id, from etcd


def test_topic_changes_through_any_broker_apply_cluster_wide(cluster, names):
    topic = names("t")
    leaders = create(cluster, topic, 6)
    assert sorted(Counter(leaders.values()).values()) == [2, 2, 2], leaders  # spread evenly
    # Partitions and configs changed through the third broker are seen through the first.
    third = AdminClient({"bootstrap.servers": cluster.brokers[2].bootstrap})
    third.create_partitions([NewPartitions(topic, 9)])[topic].result(timeout=30)
    res = ConfigResource(
        ResourceType.TOPIC,
        topic,
        incremental_configs=[ConfigEntry("retention.ms", "3600000", incremental_operation=AlterConfigOpType.SET)],
    )
    third.incremental_alter_configs([res])[res].result(timeout=30)
    first = AdminClient({"bootstrap.servers": cluster.brokers[0].bootstrap})
    assert len(first.list_topics(topic, timeout=10).topics[topic].partitions) == 9
    configs = first.describe_configs([ConfigResource(ResourceType.TOPIC, topic)])
    described = next(iter(configs.values())).result(timeout=10)
    assert described["retention.ms"].value == "3600000"
    # Creating it again through another broker: TOPIC_ALREADY_EXISTS.
    second = AdminClient({"bootstrap.servers": cluster.brokers[1].bootstrap})
    with pytest.raises(KafkaException) as info:
        second.create_topics([NewTopic(topic, 1)])[topic].result(timeout=30)
    assert info.value.args[0].name() == "TOPIC_ALREADY_EXISTS"
    first.delete_topics([topic])[topic].result(timeout=30)
    wait_for(
        lambda: topic not in third.list_topics(timeout=10).topics,
        15,
        "the deleted topic gone from every broker",
    )


def test_not_leader_answers_name_the_leader(cluster, names):
    """A Produce sent to a broker that does not lead the partition: NOT_LEADER_OR_FOLLOWER
    with the current leader and its endpoint (KIP-951), checked on the wire."""
    from broker.admin.client import AdminClient as WireClient
    from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
    from broker.protocol.records import build_batch

    topic = names("w")
    leaders = create(cluster, topic, 3)
    partition, leader = next(iter(leaders.items()))
    other = next(b for b in cluster.brokers if int(b.settings["node.id"]) != leader)
    with WireClient(other.bootstrap) as client:
        request = ProduceRequest(
            acks=1,
            timeout_ms=5000,
            topic_data=[
                TopicProduceData(
                    name=topic,
                    partition_data=[PartitionProduceData(index=partition, records=build_batch([(b"k", b"v", (), 0)]))],
                )
            ],
        )
        response = client.bootstrap_connection().call(request, 10)
    p = response.responses[0].partition_responses[0]
    assert p.error_code == 6  # NOT_LEADER_OR_FOLLOWER
    assert p.current_leader.leader_id == leader and p.current_leader.leader_epoch >= 0
    assert [e.node_id for e in response.node_endpoints] == [leader]
    assert f"127.0.0.1:{response.node_endpoints[0].port}" == cluster.broker(leader).bootstrap


def test_librdkafka_produce_group_consume_and_share_consume(cluster, names):
    topic, group, share = names("lk"), names("g"), names("sg")
    leaders = create(cluster, topic, 6)
    assert len(set(leaders.values())) == 3
    n = 3000
    p = Producer({"bootstrap.servers": cluster.bootstrap, "acks": "all", "enable.idempotence": True})
    for i in range(n):
        p.produce(topic, key=str(i).encode(), value=b"v%d" % i)
        if i % 500 == 0:
            p.poll(0)
    assert p.flush(30) == 0
    c = Consumer({"bootstrap.servers": cluster.bootstrap, "group.id": group, "auto.offset.reset": "earliest"})
    c.subscribe([topic])
    seen = set()
    deadline = time.monotonic() + 60
    while len(seen) < n and time.monotonic() < deadline:
        m = c.poll(0.5)
        if m is not None and m.error() is None:
            seen.add(m.value())
    c.commit(asynchronous=False)
    committed = c.committed([TopicPartition(topic, i) for i in range(6)], timeout=10)
    c.close()
    assert len(seen) == n
    assert sum(tp.offset for tp in committed) == n
    # The share group's configs set through one broker reach every share-partition leader.
    from tests.integration.share_helpers import set_group_configs

    set_group_configs(cluster.brokers[1].bootstrap, share, {"share.auto.offset.reset": "earliest"})
    sc = share_consumer(cluster.bootstrap, share, [topic], mode="explicit")
    got = []
    deadline = time.monotonic() + 60
    try:
        while len(got) < n and time.monotonic() < deadline:
            batch = poll_batch(sc, 0.5)
            for m in batch:
                sc.acknowledge(m)
            if batch:
                commit_ok(sc)
            got += [m.value() for m in batch]
    finally:
        sc.close()
    assert sorted(got) == sorted(b"v%d" % i for i in range(n))


def test_kafka_python(cluster, names):
    from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer
    from kafka.admin import NewTopic as KNewTopic

    topic = names("kp")
    ka = KafkaAdminClient(bootstrap_servers=cluster.bootstrap)
    try:
        ka.create_topics([KNewTopic(topic, num_partitions=6, replication_factor=1)])
        brokers = ka.describe_cluster()["brokers"]
        assert sorted(b.get("node_id", b.get("broker_id")) for b in brokers) == [1, 2, 3], brokers
    finally:
        ka.close()
    producer = KafkaProducer(bootstrap_servers=cluster.bootstrap, acks="all")
    for i in range(600):
        producer.send(topic, key=str(i).encode(), value=b"p%d" % i)
    producer.flush(30)
    producer.close()
    consumer = KafkaConsumer(
        topic, bootstrap_servers=cluster.bootstrap, group_id=names("kg"), auto_offset_reset="earliest"
    )
    got = set()
    deadline = time.monotonic() + 60
    while len(got) < 600 and time.monotonic() < deadline:
        for records in consumer.poll(timeout_ms=500).values():
            got.update(r.value for r in records)
    consumer.close()
    assert len(got) == 600


@pytest.mark.skipif(
    shutil.which("java") is None or not JAVA_TOOL.exists(), reason="Java or peers' ShareTool missing (make java-tool)"
)
def test_java_clients(cluster, names):
    """The Java producer, admin and share consumer 4.4 on a topic replicated on all three brokers."""
    topic, group = names("jv"), names("jg")
    leaders = create(cluster, topic, 6, replication_factor=3)
    assert len(set(leaders.values())) == 3
    md = AdminClient({"bootstrap.servers": cluster.bootstrap}).list_topics(topic, timeout=10)
    assert all(sorted(p.replicas) == [1, 2, 3] for p in md.topics[topic].partitions.values())

    def tool(*args: str) -> list[dict]:
        run = subprocess.run(
            ["java", "-jar", str(JAVA_TOOL), *args], capture_output=True, text=True, timeout=180, check=False
        )
        assert run.returncode == 0, run.stderr[-3000:]
        return [json.loads(line) for line in run.stdout.splitlines() if line.startswith("{")]

    tool("produce", "--bootstrap", cluster.bootstrap, "--topic", topic, "--count", "600")
    tool("admin", "--bootstrap", cluster.bootstrap, "set-group-config", group, "share.auto.offset.reset", "earliest")
    lines = tool(
        "share-consume",
        "--bootstrap",
        cluster.bootstrap,
        "--topic",
        topic,
        "--group",
        group,
        "--mode",
        "implicit",
        "--max",
        "600",
        "--timeout-ms",
        "60000",
    )
    records = [line for line in lines if "offset" in line]
    assert len({(r["partition"], r["offset"]) for r in records}) == 600
    assert len({r["partition"] for r in records}) == 6
    # The Java KafkaConsumer in a classic group reads the same 600 records.
    consume = subprocess.run(
        [
            "java",
            "-cp",
            f"{JAVA_TOOL}:{JAVA_TOOL.parent}/lib/*",
            "sharebroker.peers.GroupTool",
            "consume",
            "--bootstrap",
            cluster.bootstrap,
            "--topic",
            topic,
            "--group",
            names("jc"),
            "--protocol",
            "classic",
            "--idle-ms",
            "5000",
            "--max-ms",
            "90000",
        ],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert consume.returncode == 0, consume.stderr[-3000:]
    read = [json.loads(line) for line in consume.stdout.splitlines() if line.startswith('{"p"')]
    assert len({(r["p"], r["o"]) for r in read}) == 600


def test_two_listeners_clients_on_one_brokers_among_themselves_on_the_other(names):
    """Clients use EXTERNAL, brokers reach each other on INTERNAL (share-state RPCs to a
    share coordinator on another broker go there): clients are only ever told EXTERNAL
    addresses, and a share group works across the brokers."""
    from tests.cluster.conftest import FAST_SHARE_SETTINGS
    from tests.integration.share_helpers import set_group_configs

    settings = {
        **FAST_SHARE_SETTINGS,
        "listeners": "EXTERNAL://127.0.0.1:0,INTERNAL://127.0.0.1:0",
        "listener.security.protocol.map": "EXTERNAL:PLAINTEXT,INTERNAL:PLAINTEXT",
        "inter.broker.listener.name": "INTERNAL",
    }
    with LocalCluster(3, settings=settings) as c:
        external = {b.bootstrap for b in c.brokers}
        topic, group = names("two"), names("tg")
        create(c, topic, 6)
        a = admin(c)
        md = a.list_topics(timeout=10)
        assert {f"{m.host}:{m.port}" for m in md.brokers.values()} == external
        _produce_values(c.bootstrap, topic, [b"m%d" % i for i in range(600)])
        set_group_configs(c.bootstrap, group, {"share.auto.offset.reset": "earliest"})
        sc = share_consumer(c.bootstrap, group, [topic], mode="explicit")
        got = []
        deadline = time.monotonic() + 60
        try:
            while len(got) < 600 and time.monotonic() < deadline:
                batch = poll_batch(sc, 0.5)
                for m in batch:
                    sc.acknowledge(m)
                if batch:
                    commit_ok(sc)
                got += [m.value() for m in batch]
        finally:
            sc.close()
        assert sorted(got) == sorted(b"m%d" % i for i in range(600))


def _produce_values(bootstrap: str, topic: str, values: list[bytes]) -> None:
    p = Producer({"bootstrap.servers": bootstrap, "acks": "all"})
    for v in values:
        p.produce(topic, value=v)
    assert p.flush(30) == 0


def test_group_lists_name_groups_of_every_coordinator(cluster, names):
    """ListGroups goes to every broker (each lists the groups it coordinates): the tools
    list groups whose coordinators are spread over the three brokers."""
    import sys

    from broker.admin.client import AdminClient as WireClient

    topic = names("lg")
    create(cluster, topic, 1)
    groups = [names(f"lg{i}") for i in range(8)]
    for g in groups:
        c = Consumer({"bootstrap.servers": cluster.bootstrap, "group.id": g, "enable.auto.commit": False})
        c.commit(offsets=[TopicPartition(topic, 0, 0)], asynchronous=False)
        c.close()
    with WireClient(cluster.bootstrap) as admin:
        coordinators = {admin.find_coordinator(g).node_id for g in groups}
    assert len(coordinators) > 1, coordinators
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "broker",
            "consumer-groups",
            "--bootstrap-server",
            cluster.brokers[0].bootstrap,
            "--list",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert set(groups) <= set(run.stdout.split()), run.stdout
