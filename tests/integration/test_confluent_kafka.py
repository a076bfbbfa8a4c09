"""confluent-kafka (librdkafka 2.16) Producer, Consumer and AdminClient against the real broker."""

from __future__ import annotations

import pytest
from confluent_kafka import TopicCollection, TopicPartition
from confluent_kafka.admin import ConfigResource, ResourceType

from tests.integration.clients import admin, consume, create_topic, produce


@pytest.mark.parametrize("acks", ["0", "1", "all"])
def test_produce_acks_then_consume(sharebroker_bootstrap, topic_name, acks):
    create_topic(sharebroker_bootstrap, topic_name)
    values = [f"value-{i}".encode() * 10 for i in range(200)]
    produce(
        sharebroker_bootstrap, topic_name, values, acks=acks, **({"enable.idempotence": False} if acks != "all" else {})
    )
    got = consume(sharebroker_bootstrap, topic_name, len(values))
    assert [m.value() for m in got] == values
    assert [m.offset() for m in got] == list(range(len(values)))


@pytest.mark.parametrize("codec", ["gzip", "snappy", "lz4", "zstd"])
def test_compressed_idempotent_produce(sharebroker_bootstrap, topic_name, codec):
    create_topic(sharebroker_bootstrap, topic_name)
    values = [(f"{codec}-{i}-" * 30).encode() for i in range(500)]
    delivered = produce(
        sharebroker_bootstrap,
        topic_name,
        values,
        acks="all",
        **{"compression.codec": codec, "enable.idempotence": True},
    )
    assert [m.offset() for m in delivered] == list(range(500))
    got = consume(sharebroker_bootstrap, topic_name, 500)
    assert [m.value() for m in got] == values
    assert [m.key() for m in got] == [str(i).encode() for i in range(500)]


def test_consumer_seek_to_middle(sharebroker_bootstrap, topic_name):
    create_topic(sharebroker_bootstrap, topic_name, partitions=3)
    values = [f"v{i}".encode() for i in range(50)]
    produce(sharebroker_bootstrap, topic_name, values, partition=2)
    got = consume(sharebroker_bootstrap, topic_name, 20, partition=2, offset=30)
    assert [m.value() for m in got] == values[30:]
    assert got[0].offset() == 30


def test_admin_topics_lifecycle(sharebroker_bootstrap, topic_name):
    a = admin(sharebroker_bootstrap)
    create_topic(sharebroker_bootstrap, topic_name, partitions=4, config={"retention.ms": "3600000"})
    md = a.list_topics(timeout=10)
    assert topic_name in md.topics
    assert len(md.topics[topic_name].partitions) == 4

    resource = ConfigResource(ResourceType.TOPIC, topic_name)
    configs = a.describe_configs([resource])[resource].result(timeout=10)
    assert configs["retention.ms"].value == "3600000"
    assert not configs["retention.ms"].is_default

    described = a.describe_topics(TopicCollection([topic_name]))[topic_name].result(timeout=10)
    assert len(described.partitions) == 4

    a.delete_topics([topic_name], operation_timeout=10)[topic_name].result(timeout=15)
    assert topic_name not in a.list_topics(timeout=10).topics


def test_admin_create_existing_topic_fails(sharebroker_bootstrap, topic_name):
    from confluent_kafka import KafkaError, KafkaException

    create_topic(sharebroker_bootstrap, topic_name)
    with pytest.raises(KafkaException) as info:
        create_topic(sharebroker_bootstrap, topic_name)
    assert info.value.args[0].code() == KafkaError.TOPIC_ALREADY_EXISTS


def test_describe_broker_configs(sharebroker_bootstrap):
    a = admin(sharebroker_bootstrap)
    resource = ConfigResource(ResourceType.BROKER, "1")
    configs = a.describe_configs([resource])[resource].result(timeout=10)
    assert configs["num.partitions"].value == "1"
    assert "log.segment.bytes" in configs


def test_list_offsets_earliest_latest(sharebroker_bootstrap, topic_name):
    from confluent_kafka import Consumer

    create_topic(sharebroker_bootstrap, topic_name)
    produce(sharebroker_bootstrap, topic_name, [b"x"] * 25)
    c = Consumer({"bootstrap.servers": sharebroker_bootstrap, "group.id": "offsets-probe"})
    try:
        low, high = c.get_watermark_offsets(TopicPartition(topic_name, 0), timeout=10)
    finally:
        c.close()
    assert (low, high) == (0, 25)
