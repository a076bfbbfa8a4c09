"""kafka-python 3.0: idempotent producer (its default) and consumer."""

from __future__ import annotations

from kafka import KafkaConsumer, KafkaProducer, TopicPartition

from tests.integration.clients import create_topic


def test_kafka_python_produce_consume(sharebroker_bootstrap, topic_name):
    create_topic(sharebroker_bootstrap, topic_name)
    producer = KafkaProducer(bootstrap_servers=sharebroker_bootstrap, acks="all")
    try:
        futures = [producer.send(topic_name, key=b"k%d" % i, value=b"value-%d" % i) for i in range(100)]
        producer.flush(30)
        offsets = [f.get(timeout=10).offset for f in futures]
    finally:
        producer.close(timeout=10)
    assert offsets == list(range(100))

    consumer = KafkaConsumer(
        bootstrap_servers=sharebroker_bootstrap, enable_auto_commit=False, consumer_timeout_ms=10000
    )
    try:
        tp = TopicPartition(topic_name, 0)
        consumer.assign([tp])
        consumer.seek_to_beginning(tp)
        got = []
        for msg in consumer:
            got.append(msg)
            if len(got) == 100:
                break
    finally:
        consumer.close()
    assert [m.value for m in got] == [b"value-%d" % i for i in range(100)]
    assert [m.key for m in got] == [b"k%d" % i for i in range(100)]


def test_kafka_python_compressed(sharebroker_bootstrap, topic_name):
    create_topic(sharebroker_bootstrap, topic_name)
    producer = KafkaProducer(bootstrap_servers=sharebroker_bootstrap, compression_type="gzip", linger_ms=20)
    try:
        for i in range(300):
            producer.send(topic_name, value=b"x" * 100 + b"%d" % i)
        producer.flush(30)
    finally:
        producer.close(timeout=10)
    consumer = KafkaConsumer(
        topic_name,
        bootstrap_servers=sharebroker_bootstrap,
        group_id=None,
        auto_offset_reset="earliest",
        consumer_timeout_ms=10000,
    )
    try:
        values = []
        for msg in consumer:
            values.append(msg.value)
            if len(values) == 300:
                break
    finally:
        consumer.close()
    assert values == [b"x" * 100 + b"%d" % i for i in range(300)]
