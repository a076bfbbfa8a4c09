"""Compacted topics on the real broker with confluent-kafka: the cleaner's worker
processes compact rolled segments while clients produce, tombstones go after
delete.retention.ms, keyless records are refused, the metrics show it."""

from __future__ import annotations

import time

import pytest
from confluent_kafka import OFFSET_BEGINNING, Consumer, KafkaError, Producer, TopicPartition

from tests.integration.clients import create_topic
from tests.integration.test_metrics import metrics_port, samples, scrape

# Segments roll after 100 ms; any dirty byte makes a log cleanable; the cleaner looks
# every 100 ms; tombstones stay 300 ms after their first clean.
TOPIC_CONFIG = {
    "cleanup.policy": "compact",
    "segment.ms": "100",
    "min.cleanable.dirty.ratio": "0.01",
    "delete.retention.ms": "300",
}
BROKER = {"log.cleaner.backoff.ms": "100", "metrics.listen": "127.0.0.1:0"}


@pytest.fixture
def broker(sharebroker_factory):
    return sharebroker_factory(settings=BROKER)


def send(bootstrap: str, topic: str, records: list[tuple[bytes, bytes | None]]) -> None:
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 5})
    errors: list[str] = []
    for key, value in records:
        producer.produce(topic, key=key, value=value, partition=0, on_delivery=lambda e, m: e and errors.append(str(e)))
    assert producer.flush(30) == 0
    assert not errors, errors


def read_all(bootstrap: str, topic: str) -> list[tuple[int, bytes, bytes | None]]:
    """Every record from the log start to the end of the partition (CRCs checked)."""
    consumer = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": "compaction-tests",
            "enable.auto.commit": False,
            "enable.partition.eof": True,
            "check.crcs": True,
        }
    )
    out = []
    try:
        consumer.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            msg = consumer.poll(1.0)
            if msg is None:
                continue
            if msg.error():
                if msg.error().code() == KafkaError._PARTITION_EOF:
                    return out
                raise AssertionError(str(msg.error()))
            assert not out or msg.offset() > out[-1][0], "offsets must increase"
            out.append((msg.offset(), msg.key(), msg.value()))
        raise AssertionError("no end of partition within 20 s")
    finally:
        consumer.close()


def wait_until(check, timeout: float = 30.0, what: str = ""):
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


def test_compaction_while_producing(broker, topic_name):
    bs = broker.bootstrap
    create_topic(bs, topic_name, config=TOPIC_CONFIG)
    latest: dict[bytes, bytes | None] = {}
    for round_ in range(6):
        batch = [(b"key-%d" % (i % 40), b"value-%d-%d" % (round_, i)) for i in range(200)]
        send(bs, topic_name, batch)
        latest.update(batch)
        time.sleep(0.15)  # the next produce rolls the segment
    send(bs, topic_name, [(b"key-0", None), (b"key-1", None)])
    latest[b"key-0"] = latest[b"key-1"] = None
    time.sleep(0.15)
    send(bs, topic_name, [(b"sentinel", b"1")])
    latest[b"sentinel"] = b"1"
    total = 6 * 200 + 3

    def compacted():
        records = read_all(bs, topic_name)
        return records if len(records) <= 45 else None

    records = wait_until(compacted, what="the topic to be compacted")
    # Offsets kept, increasing; the latest value of every key is there.
    offsets = [o for o, _, _ in records]
    assert offsets == sorted(offsets) and offsets[-1] == total - 1
    assert {k: v for _, k, v in records} == latest
    # The tombstones go after delete.retention.ms, at a later clean (more dirty data).
    time.sleep(0.4)
    send(bs, topic_name, [(b"key-5", b"again")])
    time.sleep(0.15)
    send(bs, topic_name, [(b"sentinel", b"2")])

    def tombstones_gone():
        got = read_all(bs, topic_name)
        keys = {k for _, k, _ in got}
        return got if b"key-0" not in keys and b"key-1" not in keys else None

    records = wait_until(tombstones_gone, what="tombstones to be removed")
    assert {k: v for _, k, v in records}[b"key-5"] == b"again"
    values = samples(scrape(metrics_port(broker))[2])
    assert values["sharebroker_log_cleaner_runs_total"] >= 2
    assert values["sharebroker_log_cleaner_written_bytes_total"] > 0
    assert f'sharebroker_log_dirty_ratio{{topic="{topic_name}",partition="0"}}' in values
    assert f'sharebroker_log_seconds_since_last_clean{{topic="{topic_name}",partition="0"}}' in values
    assert not list(broker.data_dir.glob(f"{topic_name}-0/*.cleaned"))


def test_records_without_a_key_are_refused(broker, topic_name):
    bs = broker.bootstrap
    create_topic(bs, topic_name, config={"cleanup.policy": "compact"})
    producer = Producer({"bootstrap.servers": bs, "acks": "all", "enable.idempotence": False, "retries": 0})
    errors = []
    producer.produce(topic_name, value=b"no key", partition=0, on_delivery=lambda e, m: errors.append(e))
    producer.flush(30)
    assert len(errors) == 1 and errors[0] is not None
    assert errors[0].name() == "INVALID_RECORD"
