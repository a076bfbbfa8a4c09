"""Compaction, differential: the same key/value/tombstone sequence on Apache Kafka
4.4.0 and sharebroker, cleaned by each broker's cleaner, read back and compared.

Phase 1 writes values, overwrites and tombstones and waits for the first clean
(old values gone, tombstones kept); phase 2 waits past delete.retention.ms,
writes more, and waits for the clean that removes the tombstones. Each phase
compares what a consumer reads from offset 0 on both brokers: offsets, keys and
values. The transactional variant (an aborted transaction in the middle) runs
where the broker serves transactions and is skipped, saying so, where it does not.

Kafka's cleaner looks every log.cleaner.backoff.ms (15 s by default): about a
minute in all. Run with ``make compat-compaction``.
"""

from __future__ import annotations

import time

import pytest
from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

pytestmark = [pytest.mark.compat, pytest.mark.timeout(600)]

TOPIC_CONFIG = {
    "cleanup.policy": "compact",
    "segment.ms": "100",
    "min.cleanable.dirty.ratio": "0.01",
    "delete.retention.ms": "1000",
}
# Kafka's cleaner backs off 15 s between looks; sharebroker is told the same.
SB_SETTINGS = {"log.cleaner.backoff.ms": "15000"}
WAIT_S = 90


@pytest.fixture(scope="module")
def kafka():
    from bench.peers import KafkaPeer

    why = KafkaPeer.available()
    if why:
        pytest.skip(f"Kafka peer unavailable: {why}")
    peer = KafkaPeer()
    try:
        peer.start()
    except Exception as e:
        peer.stop()
        pytest.skip(f"Kafka peer did not start: {e}")
    yield peer.bootstrap
    peer.stop()
    peer._tmp.cleanup()


@pytest.fixture(scope="module")
def sb(sharebroker_factory):
    return sharebroker_factory(SB_SETTINGS).bootstrap


def create(bootstrap: str, topic: str) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, 1, 1, config=TOPIC_CONFIG)])[topic].result(timeout=30)


def send(bootstrap: str, topic: str, records: list[tuple[bytes, bytes | None]], **conf) -> None:
    """One batch (one produce request) of ``records``."""
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 200, **conf})
    errors: list = []
    for key, value in records:
        producer.produce(topic, key=key, value=value, partition=0, on_delivery=lambda e, m: e and errors.append(e))
    assert producer.flush(30) == 0 and not errors, errors


def read(bootstrap: str, topic: str, isolation: str = "read_uncommitted") -> list[tuple[int, bytes, bytes | None]]:
    consumer = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": "compaction-diff",
            "enable.auto.commit": False,
            "enable.partition.eof": True,
            "check.crcs": True,
            "isolation.level": isolation,
        }
    )
    out = []
    try:
        consumer.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            msg = consumer.poll(1.0)
            if msg is None:
                continue
            if msg.error():
                if msg.error().code() == KafkaError._PARTITION_EOF:
                    return out
                raise AssertionError(str(msg.error()))
            out.append((msg.offset(), msg.key(), msg.value()))
        raise AssertionError("no end of partition within 30 s")
    finally:
        consumer.close()


def wait_for(bootstrap: str, topic: str, done, what: str, **kw) -> list:
    deadline = time.monotonic() + WAIT_S
    while True:
        records = read(bootstrap, topic, **kw)
        if done(records):
            return records
        if time.monotonic() > deadline:
            raise AssertionError(f"{bootstrap}: timed out waiting for {what}; read {records}")
        time.sleep(1)


def run_phases(bootstrap: str, topic: str, txn_middle=None) -> dict[str, list]:
    create(bootstrap, topic)
    phase1 = [(b"k%02d" % i, b"v1-%d" % i) for i in range(30)]
    phase1 += [(b"k%02d" % i, b"v2-%d" % i) for i in range(10)]
    phase1 += [(b"k%02d" % i, None) for i in range(20, 25)]
    send(bootstrap, topic, phase1)
    if txn_middle is not None:
        txn_middle(bootstrap, topic)
    time.sleep(0.3)
    send(bootstrap, topic, [(b"sentinel", b"a")])  # rolls the segment: phase 1 is cleanable
    first = wait_for(
        bootstrap,
        topic,
        lambda rs: not any(v is not None and v.startswith(b"v1-0") for _, _, v in rs),
        "the first clean",
    )
    time.sleep(1.5)  # past delete.retention.ms
    send(bootstrap, topic, [(b"k%02d" % i, b"v3-%d" % i) for i in range(10, 15)])
    time.sleep(0.3)
    send(bootstrap, topic, [(b"sentinel", b"b")])
    second = wait_for(bootstrap, topic, lambda rs: all(v is not None for _, _, v in rs), "tombstones to go")
    return {"first": first, "second": second}


def test_keys_values_and_tombstones_compact_alike(kafka, sb):
    topic = f"compact-diff-{int(time.time() * 1000)}"
    k = run_phases(kafka, topic)
    s = run_phases(sb, topic)
    assert s["first"] == k["first"]
    assert s["second"] == k["second"]
    # What the phases expect, spelled out: the latest value of each key, tombstones
    # kept at the first clean and gone after the second.
    assert [key for _, key, v in k["first"] if v is None] == [b"k%02d" % i for i in range(20, 25)]
    assert {key for _, key, _ in k["second"]} == {b"k%02d" % i for i in range(30) if not 20 <= i < 25} | {b"sentinel"}


def _serves_transactions(bootstrap: str) -> str | None:
    producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": "probe-compaction"})
    try:
        producer.init_transactions(15)
    except Exception as exc:
        return f"the broker does not serve transactions yet ({exc})"
    return None


def test_an_aborted_transaction_in_the_middle_compacts_alike(kafka, sb):
    why = _serves_transactions(sb)
    if why:
        pytest.skip(why)

    def aborted(bootstrap: str, topic: str) -> None:
        producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": f"txn-{topic}", "linger.ms": 50})
        producer.init_transactions(30)
        producer.begin_transaction()
        for i in range(5):
            producer.produce(topic, key=b"k%02d" % i, value=b"aborted-%d" % i, partition=0)
        producer.flush(30)
        producer.abort_transaction(30)
        send(bootstrap, topic, [(b"k%02d" % i, b"after-abort-%d" % i) for i in range(3)])

    topic = f"compact-txn-diff-{int(time.time() * 1000)}"
    k = run_phases(kafka, topic, aborted)
    s = run_phases(sb, topic, aborted)
    assert s == k
    assert not any(v is not None and v.startswith(b"aborted") for _, _, v in k["second"])
