"""Restart and crash: nothing acknowledged is lost; torn tails are truncated, not fatal."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from confluent_kafka import Producer, TopicCollection
from confluent_kafka.admin import AdminClient

from broker.testing import BrokerProcess
from tests.integration.clients import consume, create_topic, produce


def _topic_ids(bootstrap: str) -> dict[str, str]:
    client = AdminClient({"bootstrap.servers": bootstrap})  # must outlive the futures
    futures = client.describe_topics(TopicCollection(["durable"]))
    return {name: str(f.result(timeout=10).topic_id) for name, f in futures.items()}


def test_clean_restart_keeps_records_offsets_and_topic_ids(tmp_path: Path):
    broker = BrokerProcess(tmp_path / "data").start()
    try:
        create_topic(broker.bootstrap, "durable", partitions=2, config={"retention.ms": "86400000"})
        produce(broker.bootstrap, "durable", [b"a%d" % i for i in range(300)], partition=0, acks="all")
        produce(broker.bootstrap, "durable", [b"b%d" % i for i in range(100)], partition=1, acks="1")
        ids_before = _topic_ids(broker.bootstrap)
        assert broker.stop() == 0
        broker.start()
        got0 = consume(broker.bootstrap, "durable", 300, partition=0)
        got1 = consume(broker.bootstrap, "durable", 100, partition=1)
        assert [(m.offset(), m.value()) for m in got0] == [(i, b"a%d" % i) for i in range(300)]
        assert [(m.offset(), m.value()) for m in got1] == [(i, b"b%d" % i) for i in range(100)]
        assert _topic_ids(broker.bootstrap) == ids_before
        # new records continue the offsets
        delivered = produce(broker.bootstrap, "durable", [b"after"], partition=0)
        assert delivered[0].offset() == 300
    finally:
        broker.kill()


def test_kill_9_during_acks_all_loses_nothing_acknowledged(tmp_path: Path):
    broker = BrokerProcess(tmp_path / "data").start()
    acked: list[bytes] = []
    stop = threading.Event()
    try:
        create_topic(broker.bootstrap, "crash")

        def run_producer() -> None:
            p = Producer(
                {
                    "bootstrap.servers": broker.bootstrap,
                    "acks": "all",
                    "linger.ms": 2,
                    "enable.idempotence": True,
                    "message.timeout.ms": 5000,
                }
            )

            def on_delivery(err, msg):
                if err is None:
                    acked.append(msg.value())

            i = 0
            deadline = time.monotonic() + 20  # bounded load loop
            while not stop.is_set() and time.monotonic() < deadline:
                try:
                    p.produce("crash", value=b"r%08d" % i, partition=0, on_delivery=on_delivery)
                    i += 1
                except BufferError:
                    pass
                p.poll(0.001)
            p.flush(6)

        t = threading.Thread(target=run_producer)
        t.start()
        deadline = time.monotonic() + 15
        while len(acked) < 2000 and time.monotonic() < deadline:
            time.sleep(0.05)
        broker.kill()  # SIGKILL while the producer is still sending
        stop.set()
        t.join(30)
        acknowledged = list(acked)
        assert len(acknowledged) >= 100, "the producer got too few acks before the crash"

        broker.start()
        got = consume(broker.bootstrap, "crash", len(acknowledged), timeout=30)
        values = {m.value() for m in got}
        missing = [v for v in acknowledged if v not in values]
        assert not missing, f"{len(missing)} acknowledged records lost, e.g. {missing[:3]}"
    finally:
        stop.set()
        broker.kill()


def test_torn_tail_is_truncated_not_fatal(tmp_path: Path):
    broker = BrokerProcess(tmp_path / "data").start()
    try:
        create_topic(broker.bootstrap, "torn")
        produce(broker.bootstrap, "torn", [b"ok%d" % i for i in range(50)], acks="all")
        broker.kill()
        segment = sorted((tmp_path / "data" / "torn-0").glob("*.log"))[-1]
        with open(segment, "ab") as f:  # half a batch: a write torn by the crash
            f.write(b"\x00\x00\x00\x00\x00\x00\x00\x32\x00\x00\x01\x00\x00\x00\x00\x02\xde\xad")
        broker.start()
        got = consume(broker.bootstrap, "torn", 50)
        assert [m.value() for m in got] == [b"ok%d" % i for i in range(50)]
        delivered = produce(broker.bootstrap, "torn", [b"next"], acks="all")
        assert delivered[0].offset() == 50
    finally:
        broker.kill()
