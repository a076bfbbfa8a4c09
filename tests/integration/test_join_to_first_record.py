"""A consumer that joins a busy group gets records within the assignment interval, not a
heartbeat interval later (beyond Kafka), with the real broker process and librdkafka.

The groups heartbeat every 10 s and compute targets at most every 3 s (KIP-1263; group
configs, so that "joins within the interval" holds on a loaded machine too). A member held
back by the interval is told to heartbeat again when it is over, so it gets records about
3 s after joining, not on its next regular heartbeat 10 s later.
"""

from __future__ import annotations

import threading
import time

from confluent_kafka import Consumer, Producer

from tests.integration.clients import create_topic
from tests.integration.share_helpers import close_quietly, poll_batch, set_group_configs, share_consumer, share_group

HEARTBEAT_MS = 10_000  # the groups' heartbeat interval: what a held-back member waited for
INTERVAL_MS = 3_000  # their assignment interval
WITHIN_S = 7.0  # the interval, a revocation and a loaded machine; well below the heartbeat
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
    group = share_group(
        bs, share_heartbeat_interval_ms=str(HEARTBEAT_MS), share_assignment_interval_ms=str(INTERVAL_MS)
    )
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
    assert waited < WITHIN_S, f"the joining member waited {waited:.2f} s for its first record"


def test_a_consumer_joining_a_busy_consumer_group_is_not_held_back_by_the_interval(sharebroker_bootstrap, topic_name):
    """KIP-848 (librdkafka's group.protocol=consumer): the member that joins within the
    interval of the group's last target is assigned when it is over, and the member
    that must give partitions up learns it then too, having been asked back then."""
    bs = sharebroker_bootstrap
    create_topic(bs, topic_name, partitions=PARTITIONS)
    group = f"cg-{topic_name}"
    set_group_configs(
        bs,
        group,
        {"consumer.heartbeat.interval.ms": str(HEARTBEAT_MS), "consumer.assignment.interval.ms": str(INTERVAL_MS)},
    )
    conf = {"bootstrap.servers": bs, "group.id": group, "group.protocol": "consumer", "auto.offset.reset": "latest"}
    traffic = Traffic(bs, topic_name)
    first = Consumer(conf)
    second = None
    try:
        first.subscribe([topic_name])
        started = time.monotonic()
        while not first.assignment():  # the first member holds every partition
            first.poll(0.05)
            assert time.monotonic() - started < 30
        # Joins within the interval of the first target: held back until it is over.
        second = Consumer(conf)
        second.subscribe([topic_name])

        def poll_both() -> bool:
            first.poll(0.05)
            m = second.poll(0.05)
            return m is not None and m.error() is None

        waited = _first_record_after_join(poll_both, 30)
    finally:
        traffic.stop()
        first.close()
        if second is not None:
            second.close()
    assert waited < WITHIN_S, f"the second member waited {waited:.2f} s for its first record"
