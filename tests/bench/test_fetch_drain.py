"""bench.fetch.drain against a real broker: the drain ends with its last record.

librdkafka's ``consume(n, timeout)`` returns when it holds ``n`` records or the
timeout has passed; a drain that asked for a full batch when fewer records were left
waited out the timeout after the last one, and the fetch, TLS and read_committed
rows counted that idle time as part of the drain."""

from __future__ import annotations

import uuid

from bench.fetch import DRAIN_CONSUMER, drain, know_leader
from bench.produce import RECORD


class _Asks:
    """The real consumer, with what each ``consume()`` call asked for and returned."""

    def __init__(self, consumer) -> None:
        self.consumer = consumer
        self.calls: list[tuple[int, int]] = []

    def consume(self, num_messages: int, timeout: float):
        got = self.consumer.consume(num_messages, timeout)
        self.calls.append((num_messages, sum(m.error() is None for m in got)))
        return got


def test_drain_never_asks_for_more_records_than_are_left(sharebroker):
    from confluent_kafka import OFFSET_BEGINNING, Consumer, Producer, TopicPartition
    from confluent_kafka.admin import AdminClient, NewTopic

    topic = f"drain-{uuid.uuid4().hex[:8]}"
    records = 12_345
    admin = AdminClient({"bootstrap.servers": sharebroker.bootstrap})
    admin.create_topics([NewTopic(topic, 1, 1)])[topic].result(30)
    p = Producer({"bootstrap.servers": sharebroker.bootstrap, "linger.ms": 5})
    for _ in range(records):
        p.produce(topic, RECORD, partition=0)
        p.poll(0)
    assert p.flush(30) == 0
    c = Consumer(
        {"bootstrap.servers": sharebroker.bootstrap, "group.id": topic, "enable.auto.commit": False, **DRAIN_CONSUMER}
    )
    try:
        know_leader(c, topic)
        c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
        asks = _Asks(c)
        got, nbytes, _ = drain(asks, records, deadline_s=60)
    finally:
        c.close()
    assert (got, nbytes) == (records, records * len(RECORD))
    assert asks.calls[0][0] == 10_000
    # Every call asked for no more than was still to come, so none waited for records
    # that were never going to arrive.
    received = 0
    for asked, returned in asks.calls:
        assert asked == min(10_000, records - received)
        received += returned
    assert received == records
