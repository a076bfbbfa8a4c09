"""Group configs through confluent-kafka's AdminClient against the real broker process.

librdkafka's share-consumer fixtures set ``share.auto.offset.reset`` and
``share.isolation.level`` this way, before the group exists.
"""

from __future__ import annotations

import uuid

import pytest
from confluent_kafka import KafkaError, KafkaException
from confluent_kafka.admin import AlterConfigOpType, ConfigEntry, ConfigResource, ConfigSource, ResourceType

from tests.integration.clients import admin


def set_configs(client, group: str, values: dict[str, str | None]) -> None:
    entries = [
        ConfigEntry(
            key,
            value,
            incremental_operation=AlterConfigOpType.DELETE if value is None else AlterConfigOpType.SET,
        )
        for key, value in values.items()
    ]
    resource = ConfigResource(ResourceType.GROUP, group, incremental_configs=entries)
    client.incremental_alter_configs([resource])[resource].result(timeout=15)


def describe(client, group: str) -> dict:
    resource = ConfigResource(ResourceType.GROUP, group)
    return client.describe_configs([resource])[resource].result(timeout=15)


def test_set_then_describe_group_configs(sharebroker_bootstrap):
    client = admin(sharebroker_bootstrap)
    group = f"g-{uuid.uuid4().hex[:12]}"
    set_configs(client, group, {"share.auto.offset.reset": "earliest", "share.isolation.level": "read_committed"})
    got = describe(client, group)
    reset = got["share.auto.offset.reset"]
    assert (reset.value, reset.source, reset.is_default, reset.is_read_only) == (
        "earliest",
        ConfigSource.GROUP_CONFIG.value,
        False,
        False,
    )
    assert got["share.isolation.level"].value == "read_committed"
    lock = got["share.record.lock.duration.ms"]
    assert (lock.value, lock.source, lock.is_default) == ("30000", ConfigSource.DEFAULT_CONFIG.value, True)

    set_configs(client, group, {"share.auto.offset.reset": None})
    got = describe(client, group)
    assert (got["share.auto.offset.reset"].value, got["share.auto.offset.reset"].is_default) == ("latest", True)
    assert got["share.isolation.level"].value == "read_committed"


def test_bad_group_config_is_refused(sharebroker_bootstrap):
    client = admin(sharebroker_bootstrap)
    with pytest.raises(KafkaException) as info:
        set_configs(client, "g-bad", {"share.isolation.level": "x"})
    error = info.value.args[0]
    assert error.code() == KafkaError.INVALID_CONFIG
    assert "String must be one of: read_committed, read_uncommitted" in error.str()
    with pytest.raises(KafkaException) as info:
        set_configs(client, "g-bad", {"no.such.key": "1"})
    assert "Unknown group config name: no.such.key" in info.value.args[0].str()


def test_group_configs_survive_a_restart(sharebroker_factory):
    broker = sharebroker_factory()
    client = admin(broker.bootstrap)
    set_configs(client, "g-durable", {"share.auto.offset.reset": "by_duration:PT1H"})
    broker.stop()
    broker.start()
    got = describe(admin(broker.bootstrap), "g-durable")
    assert (got["share.auto.offset.reset"].value, got["share.auto.offset.reset"].is_default) == (
        "by_duration:PT1H",
        False,
    )
