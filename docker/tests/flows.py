"""Client scenarios run against the compose brokers, the same for one broker and for the
cluster: real clients on the host (confluent-kafka, i.e. librdkafka, over the published
ports) and the image's own tools in a container on the compose network.

Host clients use IPv4 only, so `localhost` (the advertised host name) means 127.0.0.1.
Every loop is bounded in count and time.
"""

from __future__ import annotations

import os
import subprocess
import threading
import time
import uuid
from collections.abc import Callable

from confluent_kafka import Consumer, KafkaException, Producer
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, NewTopic, ResourceType
from docker_helpers import docker

from broker.admin.client import AdminClient as WireAdmin
from tests.integration.share_helpers import Worker


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def client_conf(bootstrap: str, **extra: object) -> dict:
    return {"bootstrap.servers": bootstrap, "broker.address.family": "v4", **extra}


def create_topic(bootstrap: str, topic: str, partitions: int, replication: int = 1) -> None:
    admin = AdminClient(client_conf(bootstrap))
    fut = admin.create_topics([NewTopic(topic, num_partitions=partitions, replication_factor=replication)])
    fut[topic].result(timeout=30)


def set_share_earliest(bootstrap: str, group: str) -> None:
    admin = AdminClient(client_conf(bootstrap))
    res = ConfigResource(
        ResourceType.GROUP,
        group,
        incremental_configs=[
            ConfigEntry("share.auto.offset.reset", "earliest", incremental_operation=AlterConfigOpType.SET)
        ],
    )
    admin.incremental_alter_configs([res])[res].result(timeout=30)


def produce(bootstrap: str, topic: str, values: list[bytes], partitions: int) -> None:
    errors: list = []
    producer = Producer(client_conf(bootstrap, acks="all", **{"linger.ms": 5}))
    for i, value in enumerate(values):
        producer.produce(
            topic, value=value, partition=i % partitions, on_delivery=lambda err, _m: err and errors.append(err)
        )
        producer.poll(0)
    assert producer.flush(60) == 0, "records left undelivered"
    assert not errors, errors


def consume_group(bootstrap: str, topic: str, group: str, count: int, timeout: float = 60) -> list[bytes]:
    """Subscribe as a member of a classic consumer group, read `count` records, commit."""
    consumer = Consumer(
        client_conf(bootstrap, **{"group.id": group, "auto.offset.reset": "earliest", "enable.auto.commit": False})
    )
    got: list[bytes] = []
    try:
        consumer.subscribe([topic])
        deadline = time.monotonic() + timeout
        while len(got) < count and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None:
                continue
            if msg.error():
                raise KafkaException(msg.error())
            got.append(msg.value())
        if got:
            consumer.commit(asynchronous=False)
    finally:
        consumer.close()
    return got


def wait_share_members(bootstrap: str, group: str, members: int, timeout: float = 45) -> None:
    """Until the share group has `members` members, each with an assignment."""
    deadline = time.monotonic() + timeout
    seen = None
    while time.monotonic() < deadline:
        try:
            with WireAdmin(bootstrap.split(",")[0], timeout=10) as admin:
                desc = admin.describe_share_group(group)
            seen = [len(m.assignment.topic_partitions) for m in desc.members]
            if len(seen) == members and all(seen):
                return
        except Exception as e:  # not there yet: the group appears with its first member
            seen = repr(e)
        time.sleep(0.5)
    raise AssertionError(f"share group {group}: not {members} assigned members within {timeout} s (last: {seen})")


def share_group_of_three(bootstrap: str, topic: str, partitions: int, records: int = 300) -> dict[str, int]:
    """Three ShareConsumers in one group; `records` produced once all three are assigned
    must each be delivered to exactly one of them, and every consumer must get work.
    Returns records per consumer."""
    group = unique("workers")
    set_share_earliest(bootstrap, group)
    workers = [Worker(bootstrap, group, [topic], f"consumer-{i}") for i in range(3)]
    sent: list[bytes] = []
    try:
        wait_share_members(bootstrap, group, 3)
        deadline = time.monotonic() + 60
        for round_no in range(records // 30):
            batch = [f"{topic}-r{round_no}-{i}".encode() for i in range(30)]
            produce(bootstrap, topic, batch, partitions)
            sent += batch
            time.sleep(0.05)

        def received() -> list[bytes]:
            return [v for w in workers for _, _, v, _ in w.received]

        while len(set(received())) < len(sent) and time.monotonic() < deadline:
            time.sleep(0.2)
    finally:
        for w in workers:
            w.stop(ack=True)
    got = received()
    per_consumer = {w.name: len(w.received) for w in workers}
    assert sorted(set(got)) == sorted(sent), f"missing {len(set(sent) - set(got))} of {len(sent)}"
    assert len(got) == len(sent), f"{len(got) - len(sent)} records delivered twice"
    assert all(per_consumer.values()), f"a consumer got nothing: {per_consumer}"
    return per_consumer


def container_clients(network: str, bootstrap: str, records: int = 200) -> str:
    """The image's tools in a fresh container on `network`: create a topic, produce with
    producer-perf, consume everything as a share group with console-share-consumer.
    Returns the consumer's summary line."""
    image = os.environ["SB_IMAGE"]

    def tool(*args: str, timeout: float = 90) -> str:
        return docker("run", "--rm", "--network", network, image, "sharebroker", *args, timeout=timeout, stderr=True)

    topic, group = unique("from-container"), unique("container-workers")
    tool("topics", "--bootstrap-server", bootstrap, "--create", "--topic", topic, "--partitions", "2")
    perf = tool(
        "producer-perf", "--bootstrap-server", bootstrap, "--topic", topic,
        "--num-records", str(records), "--record-size", "100", "--throughput", "-1",
    )  # fmt: skip
    assert f"{records} records sent" in perf, perf
    tool(
        "share-groups", "--bootstrap-server", bootstrap, "--reset-offsets", "--group", group,
        "--topic", topic, "--to-earliest", "--execute",
    )  # fmt: skip
    out = tool(
        "console-share-consumer", "--bootstrap-server", bootstrap, "--topic", topic, "--group", group,
        "--max-messages", str(records), "--timeout-ms", "30000",
    )  # fmt: skip
    # The records go to stdout, the summary to stderr (as Kafka's console consumers do).
    lines = out.splitlines()
    summary = [line for line in lines if line.startswith("Processed a total of")]
    assert summary == [f"Processed a total of {records} messages"], out[-500:]
    printed = [line for line in lines if len(line) == 100 and line.isalpha()]  # producer-perf's payloads
    other = [line for line in lines if line not in printed and line not in summary]
    assert len(printed) == records, f"{len(printed)} records printed; other lines: {other[:5]}"
    if other:
        print("console-share-consumer also printed:", other[:5])
    return summary[0]


def assert_no_route_out() -> None:
    """Where the containers' traffic can go: this process shares the engine's network
    namespace (test.sh), which must hold only loopback and Docker's bridges and veths, with
    no default route. (Docker 20.10 without iptables still gives containers on an internal
    network a default route to their bridge; it is the namespace that ends there.)"""
    links = subprocess.run(["ip", "-o", "link", "show"], capture_output=True, text=True, check=True).stdout
    names = [line.split(":")[1].strip().split("@")[0] for line in links.splitlines()]
    assert all(n == "lo" or n.startswith(("br-", "veth", "docker")) for n in names), names
    routes = subprocess.run(["ip", "route", "show", "default"], capture_output=True, text=True, check=True).stdout
    assert routes.strip() == "", routes
    routes6 = subprocess.run(["ip", "-6", "route", "show", "default"], capture_output=True, text=True, check=True)
    assert routes6.stdout.strip() == "", routes6.stdout


class SteadyProducer:
    """Produces `total` records (acks=all), one every `interval` seconds, in a thread;
    records each delivery and each error. librdkafka retries across a broker outage for
    up to message.timeout.ms."""

    def __init__(self, bootstrap: str, topic: str, partitions: int, total: int, interval: float = 0.02) -> None:
        self.delivered: list[bytes] = []
        self.errors: list = []
        self._producer = Producer(client_conf(bootstrap, acks="all", **{"linger.ms": 5, "message.timeout.ms": 120000}))
        self._args = (topic, partitions, total, interval)
        self._thread = threading.Thread(target=self._run, name="steady-producer", daemon=True)
        self.failure: BaseException | None = None
        self._thread.start()

    def _on_delivery(self, err, msg) -> None:
        if err is None:
            self.delivered.append(msg.value())
        else:
            self.errors.append(err)

    def _run(self) -> None:
        topic, partitions, total, interval = self._args
        try:
            for i in range(total):
                self._producer.produce(
                    topic, value=f"{topic}-{i}".encode(), partition=i % partitions, on_delivery=self._on_delivery
                )
                self._producer.poll(interval)
            self._producer.flush(150)
        except BaseException as e:
            self.failure = e

    def wait_delivered(self, count: int, timeout: float) -> None:
        wait_for(lambda: len(self.delivered) >= count, timeout, f"{count} deliveries (have {len(self.delivered)})")

    def join(self, timeout: float) -> None:
        self._thread.join(timeout)
        assert not self._thread.is_alive(), f"producer still running after {timeout} s"
        assert self.failure is None, repr(self.failure)


def wait_for(cond: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not cond():
        assert time.monotonic() < deadline, f"timed out after {timeout} s waiting for {what}"
        time.sleep(0.1)


def read_all(bootstrap: str, topic: str, partitions: int, timeout: float = 60) -> list[bytes]:
    """Every record in the topic's logs (assign from offset 0 up to the high watermark)."""
    from confluent_kafka import TopicPartition

    consumer = Consumer(client_conf(bootstrap, **{"group.id": unique("reader"), "enable.auto.commit": False}))
    try:
        ends = {p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=15)[1] for p in range(partitions)}
        consumer.assign([TopicPartition(topic, p, 0) for p in range(partitions)])
        got: list[bytes] = []
        positions = dict.fromkeys(ends, 0)
        deadline = time.monotonic() + timeout
        while any(positions[p] < ends[p] for p in ends) and time.monotonic() < deadline:
            msg = consumer.poll(0.5)
            if msg is None:
                continue
            if msg.error():
                raise KafkaException(msg.error())
            got.append(msg.value())
            positions[msg.partition()] = msg.offset() + 1
        assert all(positions[p] >= ends[p] for p in ends), f"read {positions} of {ends}"
        return got
    finally:
        consumer.close()


def console_shows(url: str, group: str, timeout: float = 60.0) -> str:
    """The web console (service ui) from the host: its share group list names ``group``
    (it reads the cluster in the background, so the group may take a refresh to appear)."""
    import urllib.request

    deadline = time.monotonic() + timeout
    page = ""
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"{url}/share-groups", timeout=10) as resp:
                page = resp.read().decode()
            if f'data-group="{group}"' in page:
                return page
        except OSError as exc:
            page = str(exc)
        time.sleep(1)
    raise AssertionError(f"the console at {url} did not list {group} in {timeout} s: {page[-2000:]}")
