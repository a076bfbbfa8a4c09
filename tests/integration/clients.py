"""Small helpers around the real client libraries used by the integration tests."""

from __future__ import annotations

import time

from confluent_kafka import Consumer, KafkaError, KafkaException, Message, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic


def admin(bootstrap: str) -> AdminClient:
    return AdminClient({"bootstrap.servers": bootstrap})


def create_topic(bootstrap: str, name: str, partitions: int = 1, config: dict | None = None) -> None:
    client = admin(bootstrap)  # must outlive the future
    futures = client.create_topics(
        [NewTopic(name, num_partitions=partitions, replication_factor=1, config=config or {})], operation_timeout=10
    )
    futures[name].result(timeout=15)


def produce(bootstrap: str, topic: str, values: list[bytes], *, partition: int = 0, **conf) -> list:
    """Produce ``values``; return the delivered messages (offsets filled) in order."""
    delivered: list[Message] = []
    errors: list[KafkaError] = []

    def on_delivery(err, msg):
        (errors if err else delivered).append(err or msg)

    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, **conf})
    for i, v in enumerate(values):
        p.produce(topic, value=v, key=str(i).encode(), partition=partition, on_delivery=on_delivery)
        p.poll(0)
    remaining = p.flush(30)
    assert remaining == 0, f"{remaining} messages not delivered"
    assert not errors, errors
    return delivered


def consume(
    bootstrap: str, topic: str, count: int, *, partition: int = 0, offset: int = 0, timeout: float = 20, **conf
) -> list:
    """Read ``count`` records with assign + seek (no consumer group)."""
    c = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": "sharebroker-tests",
            "enable.auto.commit": False,
            "enable.partition.eof": False,
            **conf,
        }
    )
    try:
        c.assign([TopicPartition(topic, partition, offset)])
        out: list[Message] = []
        deadline = time.monotonic() + timeout
        while len(out) < count and time.monotonic() < deadline:
            msg = c.poll(0.5)
            if msg is None:
                continue
            if msg.error():
                raise KafkaException(msg.error())
            out.append(msg)
        return out
    finally:
        c.close()
