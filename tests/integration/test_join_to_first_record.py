"""A consumer that joins a busy group gets records within the assignment interval, not a
heartbeat interval later (beyond Kafka), with the real broker process and librdkafka.

The broker keeps Kafka's defaults: heartbeats every 5 s, targets computed at most once a
second (KIP-1263). A member held back by that second is told to heartbeat again when it is
over, so it does not wait for its next regular heartbeat. Bounds are loose on purpose
(a loaded machine), but well below the 5 s a member waited before.
"""

from __future__ import annotations

import threading
import time

from confluent_kafka import Consumer, Producer

from tests.integration.clients import create_topic
from tests.integration.share_helpers import close_quietly, poll_batch, share_consumer, share_group

HEARTBEAT_S = 5.0  # the broker default the joining member would otherwise wait for
PARTITIONS = 4


class Traffic:
    """A producer writing a record to every partition every 20 ms until stopped (bounded)."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        self._stop = threading.Event()
        self._producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0})
        self._thread = threading.Thread(target=self._run, args=(topic,), daemon=True)
        self._thread.start()

    def _run(self, topic: str) -> None:
        deadline = time.monotonic() + 120
        while not self._stop.is_set() and time.monotonic() < deadline:
            for p in range(PARTITIONS):
                self._producer.produce(topic, b"busy", partition=p)
            self._producer.poll(0)
            time.sleep(0.02)
        self._producer.flush(10)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(20)


def _first_record_after_join(poll, deadline_s: float) -> float:
    joined = time.monotonic()
    while time.monotonic() - joined < deadline_s:
        if poll():
            return time.monotonic() - joined
    raise AssertionError(f"no record within {deadline_s} s of joining")


def test_a_share_consumer_joining_a_busy_group_gets_records_within_the_interval(sharebroker_bootstrap, topic_name):
    bs = sharebroker_bootstrap
    create_topic(bs, topic_name, partitions=PARTITIONS)
    group = share_group(bs)
    busy = share_consumer(bs, group, [topic_name])
    traffic = Traffic(bs, topic_name)
    stop = threading.Event()
    worker = threading.Thread(target=lambda: [poll_batch(busy, 0.1) for _ in iter(stop.is_set, True)], daemon=True)
    try:
        first = time.monotonic()
        while not poll_batch(busy, 0.05):  # the first member is assigned every partition and consumes
            assert time.monotonic() - first < 30
        worker.start()
        # Joins within the interval of the first target: held back until it is over.
        joiner = share_consumer(bs, group, [topic_name])
        try:
            waited = _first_record_after_join(lambda: poll_batch(joiner, 0.05), 20)
        finally:
            close_quietly(joiner)
    finally:
        stop.set()
        worker.join(10)
        traffic.stop()
        close_quietly(busy)
    assert waited < HEARTBEAT_S - 1, f"the joining member waited {waited:.2f} s for its first record"


def test_a_consumer_joining_a_busy_consumer_group_is_not_held_back_by_the_interval(sharebroker_bootstrap, topic_name):
    """KIP-848 (librdkafka's group.protocol=consumer): the member that joins within the
    interval of the group's last target is assigned when it is over, and the member
    that must give partitions up learns it then too, having been asked back then."""
    bs = sharebroker_bootstrap
    create_topic(bs, topic_name, partitions=PARTITIONS)
    group = f"cg-{topic_name}"
    conf = {"bootstrap.servers": bs, "group.id": group, "group.protocol": "consumer", "auto.offset.reset": "latest"}
    traffic = Traffic(bs, topic_name)
    first, second = Consumer(conf), Consumer(conf)
    try:
        first.subscribe([topic_name])
        second.subscribe([topic_name])  # joins right after: within the first target's interval
        got = {"first": 0, "second": 0}

        def poll_both() -> bool:
            for name, c in (("first", first), ("second", second)):
                m = c.poll(0.05)
                if m is not None and m.error() is None:
                    got[name] += 1
            return got["second"] > 0

        waited = _first_record_after_join(poll_both, 20)
    finally:
        traffic.stop()
        first.close()
        second.close()
    assert waited < HEARTBEAT_S - 1, f"the second member waited {waited:.2f} s for its first record"
