"""Group configs (resource GROUP, 32): the durable store and the config handlers serving it.

Expected codes, messages, values and sources are what Apache Kafka 4.4.0 (single
KRaft node, the reference peer) answers for the same requests; the keys beyond
4.4 (EXTENSION_KEYS) are this broker's extensions.
"""

from __future__ import annotations

import json
import os

import pytest

from broker.config import ConfigSource, ConfigType, load_config
from broker.handlers import api_32_describe_configs, api_33_alter_configs, api_44_incremental_alter_configs
from broker.metadata.group_configs import (
    APPEND,
    DELETE,
    EXTENSION_KEYS,
    FILE_NAME,
    GROUP_CONFIG_KEYS,
    SET,
    SUBTRACT,
    GroupConfigStore,
    KafkaError,
    ShareGroupSettings,
    parse_auto_offset_reset,
    parse_iso_duration_ns,
)
from broker.protocol.errors import ErrorCode
from broker.protocol.messages import REQUESTS, RESPONSES, RequestHeader
from broker.protocol.messages.alter_configs_request import AlterableConfig as LegacyConfig
from broker.protocol.messages.alter_configs_request import AlterConfigsRequest
from broker.protocol.messages.alter_configs_request import AlterConfigsResource as LegacyResource
from broker.protocol.messages.describe_configs_request import DescribeConfigsRequest, DescribeConfigsResource
from broker.protocol.messages.incremental_alter_configs_request import (
    AlterableConfig,
    AlterConfigsResource,
    IncrementalAlterConfigsRequest,
)
from broker.server.app import close_services
from tests.services import context, started

GROUP = 32
# What Kafka 4.4.0 lists for a group without overrides (its internal keys only once set).
KAFKA_44_LISTED = {
    "consumer.assignment.interval.ms",
    "consumer.heartbeat.interval.ms",
    "consumer.session.timeout.ms",
    "errors.deadletterqueue.copy.record.enable",
    "errors.deadletterqueue.topic.name",
    "share.assignment.interval.ms",
    "share.auto.offset.reset",
    "share.delivery.count.limit",
    "share.heartbeat.interval.ms",
    "share.isolation.level",
    "share.partition.max.record.locks",
    "share.record.lock.duration.ms",
    "share.renew.acknowledge.enable",
    "share.session.timeout.ms",
    "streams.assignment.interval.ms",
    "streams.assignor.name",
    "streams.heartbeat.interval.ms",
    "streams.initial.rebalance.delay.ms",
    "streams.num.standby.replicas",
    "streams.rack.aware.assignment.tags",
    "streams.session.timeout.ms",
}
KAFKA_44_INTERNAL = {
    "consumer.assignor.offload.enable",
    "share.assignor.offload.enable",
    "streams.assignor.offload.enable",
    "streams.task.offset.interval.ms",
    "streams.num.warmup.replicas",
    "streams.acceptable.recovery.lag",
}
RESET_RULE = "The value must be either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'."


def config(*settings: str):
    return load_config(overrides=["listeners=PLAINTEXT://127.0.0.1:0", *settings], environ={})


@pytest.fixture
def store(tmp_path):
    return GroupConfigStore(tmp_path, config())


def ok(store, group, *ops, validate_only=False):
    error = store.alter(group, list(ops), validate_only)
    assert error is None, error


def rows(store, group, keys=None):
    return {r.name: (r.value, int(r.source)) for r in store.describe(group, keys)}


# --- ISO-8601 durations and share.auto.offset.reset --------------------------------------------


@pytest.mark.parametrize(
    ("text", "ns"),
    [
        ("PT1H", 3_600 * 10**9),
        ("P1D", 86_400 * 10**9),
        ("pt1h", 3_600 * 10**9),
        ("P1DT2H3M4.5S", (86_400 + 7_200 + 180 + 4) * 10**9 + 500_000_000),
        ("PT1,5S", 1_500_000_000),
        ("PT1.S", 10**9),
        ("PT1.123456789S", 1_123_456_789),
        ("+PT1H", 3_600 * 10**9),
        ("-PT-1H", 3_600 * 10**9),  # both signs: positive
        ("P1DT-1H", 23 * 3_600 * 10**9),
        ("-PT0S", 0),
        ("P1Dt", 86_400 * 10**9),  # Java only refuses an upper-case 'T' with nothing after it
        ("PT-0.5S", -500_000_000),
        ("-PT1H", -3_600 * 10**9),
        ("P106751991167300D", 106751991167300 * 86_400 * 10**9),
        ("PT9223372036854775807S", (2**63 - 1) * 10**9),
    ],
)
def test_iso_durations_parse_as_java_does(text, ns):
    assert parse_iso_duration_ns(text) == ns


@pytest.mark.parametrize(
    "text",
    [
        "",
        "P",
        "PT",
        "P1DT",
        "P1W",
        "P1Y",
        "PT.5S",
        "PT1.1234567891S",
        "PT1H1H",
        "P1D2H",
        "PT1S1M",
        " PT1H",
        "P106751991167301D",
        "PT9223372036854775808S",
    ],
)
def test_iso_durations_java_refuses(text):
    assert parse_iso_duration_ns(text) is None


def test_auto_offset_reset_values():
    assert parse_auto_offset_reset("latest") == "latest"
    assert parse_auto_offset_reset("earliest") == "earliest"
    assert parse_auto_offset_reset("by_duration:PT1H") == ("by_duration", 3_600_000)
    assert parse_auto_offset_reset("by_duration:PT0.0015S") == ("by_duration", 1)
    for bad in ("none", "Earliest", "LATEST", "BY_DURATION:PT1H", "by_duration", "by_duration:", "by_duration:-PT1H"):
        assert parse_auto_offset_reset(bad) is None, bad


# --- describe ---------------------------------------------------------------------------------


def test_describe_a_group_without_overrides_lists_every_key_with_broker_defaults(tmp_path):
    store = GroupConfigStore(tmp_path, config("group.share.record.lock.duration.ms=20000"))
    got = store.describe("no-such-group")
    assert [r.name for r in got] == sorted(KAFKA_44_LISTED | {k.name for k in EXTENSION_KEYS})
    by = {r.name: r for r in got}
    # As Kafka 4.4.0 answers (the lock duration follows the broker's setting).
    assert {k: (by[k].value, by[k].source) for k in KAFKA_44_LISTED} == {
        "consumer.assignment.interval.ms": ("1000", 5),
        "consumer.heartbeat.interval.ms": ("5000", 5),
        "consumer.session.timeout.ms": ("45000", 5),
        "errors.deadletterqueue.copy.record.enable": ("false", 5),
        "errors.deadletterqueue.topic.name": ("", 5),
        "share.assignment.interval.ms": ("1000", 5),
        "share.auto.offset.reset": ("latest", 5),
        "share.delivery.count.limit": ("5", 5),
        "share.heartbeat.interval.ms": ("5000", 5),
        "share.isolation.level": ("read_uncommitted", 5),
        "share.partition.max.record.locks": ("2000", 5),
        "share.record.lock.duration.ms": ("20000", 5),  # the broker's group.share.record.lock.duration.ms
        "share.renew.acknowledge.enable": ("true", 5),
        "share.session.timeout.ms": ("45000", 5),
        "streams.assignment.interval.ms": ("1000", 5),
        "streams.assignor.name": ("sticky", 5),
        "streams.heartbeat.interval.ms": ("5000", 5),
        "streams.initial.rebalance.delay.ms": ("3000", 5),
        "streams.num.standby.replicas": ("0", 5),
        "streams.rack.aware.assignment.tags": ("", 5),
        "streams.session.timeout.ms": ("45000", 5),
    }
    lock = by["share.record.lock.duration.ms"]
    assert (lock.read_only, lock.sensitive, lock.type) == (False, False, ConfigType.INT)
    assert [(s.name, s.value, s.source) for s in lock.synonyms] == [("share.record.lock.duration.ms", "20000", 5)]
    assert by["share.isolation.level"].type == ConfigType.STRING and by["share.isolation.level"].documentation
    assert by["group.type"].value is None and by["share.key.ordering.enable"].value == "false"
    assert by["share.renew.acknowledge.enable"].type == ConfigType.BOOLEAN
    assert by["share.redelivery.backoff.multiplier"].type == ConfigType.DOUBLE


def test_internal_keys_are_listed_once_set(store):
    assert not KAFKA_44_INTERNAL & {r.name for r in store.describe("g")}
    ok(store, "g", ("share.assignor.offload.enable", SET, "false"), ("streams.acceptable.recovery.lag", SET, "5"))
    assert rows(store, "g", KAFKA_44_INTERNAL) == {
        "share.assignor.offload.enable": ("false", 8),
        "streams.acceptable.recovery.lag": ("5", 8),
    }


def test_describe_selected_keys_skips_unknown_ones(store):
    assert rows(store, "g", ["share.isolation.level", "nope", "share.isolation.level"]) == {
        "share.isolation.level": ("read_uncommitted", 5)
    }
    assert rows(store, "g", []) == {}


def test_describe_empty_group_id_is_refused(store):
    with pytest.raises(KafkaError) as info:
        store.describe("")
    assert (info.value.code, info.value.message) == (ErrorCode.INVALID_REQUEST, "Group name must not be empty")


def test_kafka_only_serves_exactly_kafka_keys(tmp_path):
    store = GroupConfigStore(tmp_path, config(), kafka_only=True)
    assert set(store.keys) == KAFKA_44_LISTED | KAFKA_44_INTERNAL == {k.name for k in GROUP_CONFIG_KEYS}
    for key, value in [("share.key.ordering.enable", "true"), ("group.type", "share")]:
        assert store.alter("g", [(key, SET, value)]) == KafkaError(
            ErrorCode.INVALID_CONFIG, f"Unknown group config name: {key}"
        )
    ok(store, "g", ("share.delivery.count.limit", SET, "3"))
    settings = store.share_settings("g")
    assert (settings.delivery_count_limit, settings.key_ordering, settings.backoff_ms) == (3, False, 0)
    assert store.group_type("g") is None


# --- set, delete, validate_only -------------------------------------------------------------------


def test_set_then_describe_reports_group_config_source(store):
    ok(store, "g1", ("share.auto.offset.reset", SET, "earliest"), ("share.isolation.level", SET, "read_committed"))
    got = rows(store, "g1")
    assert got["share.auto.offset.reset"] == ("earliest", ConfigSource.GROUP_CONFIG)
    assert got["share.isolation.level"] == ("read_committed", 8)
    assert got["share.session.timeout.ms"] == ("45000", 5)
    (row,) = store.describe("g1", ["share.auto.offset.reset"])
    assert [(s.name, s.value, s.source) for s in row.synonyms] == [("share.auto.offset.reset", "earliest", 8)]
    # Setting a value equal to the default still makes it the group's own.
    ok(store, "g1", ("share.session.timeout.ms", SET, "45000"))
    assert rows(store, "g1")["share.session.timeout.ms"] == ("45000", 8)
    assert rows(store, "other")["share.auto.offset.reset"] == ("latest", 5)


def test_values_are_trimmed_and_stored_canonically(store):
    ok(
        store,
        "g",
        ("share.auto.offset.reset", SET, " by_duration:pt1h\t"),
        ("share.record.lock.duration.ms", SET, " +020000 "),
        ("share.isolation.level", SET, " read_committed"),
        ("share.renew.acknowledge.enable", SET, " FALSE "),
    )
    assert store.overrides("g") == {
        "share.auto.offset.reset": "by_duration:pt1h",
        "share.record.lock.duration.ms": "20000",
        "share.isolation.level": "read_committed",
        "share.renew.acknowledge.enable": "false",
    }


def test_delete_and_validate_only(store, tmp_path):
    ok(store, "g", ("share.auto.offset.reset", SET, "earliest"), ("share.heartbeat.interval.ms", SET, "6000"))
    # DELETE of a key not set, or not known, changes nothing and succeeds (as Kafka).
    ok(store, "g", ("nope", DELETE, None), ("share.isolation.level", DELETE, None))
    ok(store, "g", ("share.heartbeat.interval.ms", DELETE, None))
    assert store.overrides("g") == {"share.auto.offset.reset": "earliest"}
    before = (tmp_path / FILE_NAME).read_bytes()
    ok(
        store,
        "g",
        ("share.auto.offset.reset", DELETE, None),
        ("share.isolation.level", SET, "read_committed"),
        validate_only=True,
    )
    assert store.overrides("g") == {"share.auto.offset.reset": "earliest"}
    assert (tmp_path / FILE_NAME).read_bytes() == before
    # A validate_only request still reports what is wrong.
    assert store.alter("g", [("share.isolation.level", SET, "x")], validate_only=True).code == ErrorCode.INVALID_CONFIG
    # Removing the last override forgets the group.
    ok(store, "g", ("share.auto.offset.reset", DELETE, None))
    assert store.groups() == [] and json.loads((tmp_path / FILE_NAME).read_text())["groups"] == {}


def test_set_for_a_group_that_does_not_exist_yet(store):
    # librdkafka's share-consumer fixtures configure the group before it exists.
    ok(store, "not-created-yet", ("share.auto.offset.reset", SET, "earliest"))
    ok(store, "bad name/with*chars", ("share.auto.offset.reset", SET, "earliest"))
    assert store.groups() == ["bad name/with*chars", "not-created-yet"]


def test_changes_are_all_or_nothing(store):
    ok(store, "g", ("share.auto.offset.reset", SET, "earliest"))
    error = store.alter(
        "g", [("share.isolation.level", SET, "read_committed"), ("share.heartbeat.interval.ms", SET, "1")]
    )
    assert error.code == ErrorCode.INVALID_CONFIG
    assert store.overrides("g") == {"share.auto.offset.reset": "earliest"}


# --- errors (Kafka 4.4.0's codes and messages) ----------------------------------------------------


def invalid(key, value, why):
    return (ErrorCode.INVALID_CONFIG, f"Invalid value {value} for configuration {key}: {why}")


def bound(key, lo, hi):
    return (ErrorCode.INVALID_CONFIG, f"{key} must be in the range {lo} to {hi} inclusive.")


def at_most(key, hi):
    return (ErrorCode.INVALID_CONFIG, f"{key} must be less than or equal to {hi}")


@pytest.mark.parametrize(
    ("key", "value", "expected"),
    [
        ("nope", "1", (ErrorCode.INVALID_CONFIG, "Unknown group config name: nope")),
        (
            "group.share.record.lock.duration.ms",
            "20000",
            (ErrorCode.INVALID_CONFIG, "Unknown group config name: group.share.record.lock.duration.ms"),
        ),
        (
            "share.auto.offset.reset",
            "none",
            invalid(
                "share.auto.offset.reset",
                "none",
                f"Invalid value `none` for configuration share.auto.offset.reset. {RESET_RULE}",
            ),
        ),
        (
            "share.auto.offset.reset",
            " Earliest ",
            invalid(
                "share.auto.offset.reset",
                "Earliest",
                f"Invalid value `Earliest` for configuration share.auto.offset.reset. {RESET_RULE}",
            ),
        ),
        (
            "share.auto.offset.reset",
            "by_duration:-PT1H",
            invalid(
                "share.auto.offset.reset",
                "by_duration:-PT1H",
                f"Invalid value `by_duration:-PT1H` for configuration share.auto.offset.reset. {RESET_RULE}",
            ),
        ),
        (
            "share.auto.offset.reset",
            "",
            invalid(
                "share.auto.offset.reset",
                "",
                f"Invalid value `` for configuration share.auto.offset.reset. {RESET_RULE}",
            ),
        ),
        (
            "share.isolation.level",
            "READ_COMMITTED",
            invalid(
                "share.isolation.level", "READ_COMMITTED", "String must be one of: read_committed, read_uncommitted"
            ),
        ),
        (
            "share.record.lock.duration.ms",
            " abc ",
            invalid("share.record.lock.duration.ms", " abc ", "Not a number of type INT"),
        ),
        (
            "share.record.lock.duration.ms",
            "2147483648",
            invalid("share.record.lock.duration.ms", "2147483648", "Not a number of type INT"),
        ),
        (
            "share.record.lock.duration.ms",
            "5000.0",
            invalid("share.record.lock.duration.ms", "5000.0", "Not a number of type INT"),
        ),
        (
            "share.record.lock.duration.ms",
            " 999 ",
            invalid("share.record.lock.duration.ms", "999", "Value must be at least 1000"),
        ),
        (
            "share.record.lock.duration.ms",
            "14999",
            bound("share.record.lock.duration.ms", 15000, 60000),
        ),
        (
            "share.record.lock.duration.ms",
            "60001",
            bound("share.record.lock.duration.ms", 15000, 60000),
        ),
        ("share.session.timeout.ms", "0", invalid("share.session.timeout.ms", "0", "Value must be at least 1")),
        (
            "share.session.timeout.ms",
            "44999",
            bound("share.session.timeout.ms", 45000, 60000),
        ),
        (
            "share.session.timeout.ms",
            "60001",
            bound("share.session.timeout.ms", 45000, 60000),
        ),
        (
            "share.heartbeat.interval.ms",
            "4999",
            bound("share.heartbeat.interval.ms", 5000, 15000),
        ),
        (
            "share.heartbeat.interval.ms",
            "15001",
            bound("share.heartbeat.interval.ms", 5000, 15000),
        ),
        (
            "share.heartbeat.interval.ms",
            "-5000",
            invalid("share.heartbeat.interval.ms", "-5000", "Value must be at least 1"),
        ),
        (
            "consumer.session.timeout.ms",
            "1",
            bound("consumer.session.timeout.ms", 45000, 60000),
        ),
        (
            "consumer.session.timeout.ms",
            "70000",
            bound("consumer.session.timeout.ms", 45000, 60000),
        ),
        (
            "consumer.heartbeat.interval.ms",
            "15001",
            bound("consumer.heartbeat.interval.ms", 5000, 15000),
        ),
        (
            "streams.session.timeout.ms",
            "1",
            bound("streams.session.timeout.ms", 45000, 60000),
        ),
        (
            "streams.heartbeat.interval.ms",
            "1",
            bound("streams.heartbeat.interval.ms", 5000, 15000),
        ),
        (
            "streams.num.standby.replicas",
            "3",
            at_most("streams.num.standby.replicas", 2),
        ),
        (
            "streams.num.standby.replicas",
            "-1",
            invalid("streams.num.standby.replicas", "-1", "Value must be at least 0"),
        ),
        (
            "streams.initial.rebalance.delay.ms",
            "-1",
            invalid("streams.initial.rebalance.delay.ms", "-1", "Value must be at least 0"),
        ),
        # KIP-1240 and the other keys new in Kafka 4.3/4.4 (messages as 4.4.0 answers them).
        ("share.delivery.count.limit", "1", invalid("share.delivery.count.limit", "1", "Value must be at least 2")),
        ("share.delivery.count.limit", "11", bound("share.delivery.count.limit", 2, 10)),
        (
            "share.partition.max.record.locks",
            "99",
            invalid("share.partition.max.record.locks", "99", "Value must be at least 100"),
        ),
        ("share.partition.max.record.locks", "4001", bound("share.partition.max.record.locks", 100, 4000)),
        ("share.assignment.interval.ms", "16000", bound("share.assignment.interval.ms", 0, 15000)),
        (
            "share.assignment.interval.ms",
            "-1",
            invalid("share.assignment.interval.ms", "-1", "Value must be at least 0"),
        ),
        (
            "share.assignor.offload.enable",
            "maybe",
            invalid("share.assignor.offload.enable", "maybe", "Expected value to be either true or false"),
        ),
        (
            "errors.deadletterqueue.topic.name",
            "__x",
            (ErrorCode.INVALID_CONFIG, "errors.deadletterqueue.topic.name: DLQ topic name must not start with '__'"),
        ),
        (
            "errors.deadletterqueue.copy.record.enable",
            "yes",
            invalid("errors.deadletterqueue.copy.record.enable", "yes", "Expected value to be either true or false"),
        ),
        ("streams.assignment.interval.ms", "16000", bound("streams.assignment.interval.ms", 0, 15000)),
        (
            "streams.task.offset.interval.ms",
            "1",
            (ErrorCode.INVALID_CONFIG, "streams.task.offset.interval.ms must be greater than or equal to 15000"),
        ),
        ("streams.num.warmup.replicas", "100", at_most("streams.num.warmup.replicas", 20)),
        (
            "streams.acceptable.recovery.lag",
            "-1",
            invalid("streams.acceptable.recovery.lag", "-1", "Value must be at least 0"),
        ),
        (
            "streams.assignor.name",
            "foo",
            (
                ErrorCode.INVALID_CONFIG,
                "streams.assignor.name 'foo' is not a registered task assignor. Registered assignors are: [sticky].",
            ),
        ),
        # This broker's extensions.
        (
            "share.redelivery.backoff.ms",
            "-1",
            invalid("share.redelivery.backoff.ms", "-1", "Value must be at least 0"),
        ),
        (
            "share.redelivery.backoff.ms",
            "70000",
            (
                ErrorCode.INVALID_CONFIG,
                "share.redelivery.backoff.max.ms must be greater than or equal to share.redelivery.backoff.ms",
            ),
        ),
        (
            "share.redelivery.backoff.multiplier",
            "0.5",
            invalid("share.redelivery.backoff.multiplier", "0.5", "Value must be at least 1.0"),
        ),
        (
            "share.redelivery.backoff.multiplier",
            "two",
            invalid("share.redelivery.backoff.multiplier", "two", "Not a number of type DOUBLE"),
        ),
        (
            "share.key.ordering.enable",
            "on",
            invalid("share.key.ordering.enable", "on", "Expected value to be either true or false"),
        ),
        (
            "share.renew.acknowledge.enable",
            "yes",
            invalid("share.renew.acknowledge.enable", "yes", "Expected value to be either true or false"),
        ),
        ("group.type", "classic", invalid("group.type", "classic", "String must be one of: consumer, share")),
    ],
)
def test_invalid_values_get_kafkas_errors(store, key, value, expected):
    error = store.alter("g", [(key, SET, value)])
    assert error is not None and (error.code, error.message) == expected
    assert store.alter("g", [(key, SET, value)], validate_only=True) == error
    assert store.overrides("g") == {}


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("share.auto.offset.reset", "by_duration:PT1H"),
        ("share.auto.offset.reset", "by_duration:P1D"),
        ("share.auto.offset.reset", "by_duration:PT0S"),
        ("share.record.lock.duration.ms", "15000"),
        ("share.record.lock.duration.ms", "60000"),
        ("share.session.timeout.ms", "60000"),
        ("share.heartbeat.interval.ms", "15000"),
        ("streams.num.standby.replicas", "2"),
        ("share.delivery.count.limit", "2"),
        ("share.delivery.count.limit", "10"),
        ("share.partition.max.record.locks", "100"),
        ("share.partition.max.record.locks", "4000"),
        ("share.assignment.interval.ms", "0"),
        ("share.assignment.interval.ms", "15000"),
        ("errors.deadletterqueue.topic.name", "dlq.orders"),
        ("errors.deadletterqueue.topic.name", "no-prefix-needed-here"),
        ("errors.deadletterqueue.copy.record.enable", "TRUE"),
        ("share.redelivery.backoff.multiplier", "1.5"),
        ("share.redelivery.backoff.ms", "60000"),
        ("group.type", "share"),
    ],
)
def test_values_at_the_bounds_are_accepted(store, key, value):
    ok(store, "g", (key, SET, value))


def test_bounds_follow_the_broker_config(tmp_path):
    store = GroupConfigStore(
        tmp_path,
        config(
            "group.share.min.record.lock.duration.ms=1000",
            "group.share.max.partition.max.record.locks=5000",
        ),
    )
    ok(store, "g", ("share.record.lock.duration.ms", SET, "1000"), ("share.partition.max.record.locks", SET, "5000"))
    assert store.alter("g", [("share.record.lock.duration.ms", SET, "999")]).message.endswith("at least 1000")


def test_several_problems_report_the_one_kafka_reports(store):
    # Unknown names first, then values in definition order, then broker bounds.
    assert store.alter("g", [("share.isolation.level", SET, "x"), ("nope", SET, "1")]).message == (
        "Unknown group config name: nope"
    )
    assert (
        store.alter("g", [("share.isolation.level", SET, "x"), ("share.record.lock.duration.ms", SET, "1")]).message
        == "Invalid value 1 for configuration share.record.lock.duration.ms: Value must be at least 1000"
    )
    assert (
        store.alter(
            "g", [("share.record.lock.duration.ms", SET, "99999"), ("share.heartbeat.interval.ms", SET, "1")]
        ).message
        == "share.heartbeat.interval.ms must be in the range 5000 to 15000 inclusive."
    )


def test_session_timeout_must_exceed_heartbeat_interval(tmp_path):
    store = GroupConfigStore(
        tmp_path,
        config("group.share.max.heartbeat.interval.ms=60000", "group.consumer.max.heartbeat.interval.ms=60000"),
    )
    ok(store, "g", ("share.heartbeat.interval.ms", SET, "44999"))
    assert store.alter("g", [("share.heartbeat.interval.ms", SET, "45000")]).message == (
        "share.session.timeout.ms must be greater than share.heartbeat.interval.ms"
    )
    assert store.alter(
        "g", [("consumer.heartbeat.interval.ms", SET, "50000"), ("consumer.session.timeout.ms", SET, "50000")]
    ).message == ("consumer.session.timeout.ms must be greater than consumer.heartbeat.interval.ms")


def test_operation_and_group_id_errors(store):
    assert store.alter("", [("share.auto.offset.reset", SET, "earliest")]) == KafkaError(
        ErrorCode.INVALID_REQUEST, "Default group resources are not allowed."
    )
    assert store.alter("g", [("share.auto.offset.reset", APPEND, "earliest")]) == KafkaError(
        ErrorCode.INVALID_CONFIG, "Can't APPEND to key share.auto.offset.reset because its type is not LIST."
    )
    assert (
        store.alter("g", [("nope", SUBTRACT, "x")]).message
        == "Can't SUBTRACT to key nope because its type is not LIST."
    )
    assert store.alter("g", [("share.auto.offset.reset", SET, None)]).code == ErrorCode.INVALID_REQUEST
    assert store.alter("g", [("share.auto.offset.reset", 9, "x")]).code == ErrorCode.INVALID_REQUEST


# --- durability -----------------------------------------------------------------------------------


def test_round_trip_across_restart(tmp_path):
    store = GroupConfigStore(tmp_path, config())
    ok(store, "g1", ("share.auto.offset.reset", SET, "earliest"), ("share.record.lock.duration.ms", SET, "20000"))
    ok(store, "g2", ("share.isolation.level", SET, "read_committed"), ("group.type", SET, "share"))
    doc = json.loads((tmp_path / FILE_NAME).read_text())
    assert doc == {
        "version": 1,
        "groups": {
            "g1": {"share.auto.offset.reset": "earliest", "share.record.lock.duration.ms": "20000"},
            "g2": {"group.type": "share", "share.isolation.level": "read_committed"},
        },
    }
    assert not (tmp_path / (FILE_NAME + ".tmp")).exists()
    again = GroupConfigStore(tmp_path, config())
    assert again.groups() == ["g1", "g2"]
    assert rows(again, "g1", ["share.auto.offset.reset", "share.record.lock.duration.ms"]) == {
        "share.auto.offset.reset": ("earliest", 8),
        "share.record.lock.duration.ms": ("20000", 8),
    }
    assert again.group_type("g2") == "share"
    assert again.delete_group("g1") and not again.delete_group("g1")
    assert GroupConfigStore(tmp_path, config()).groups() == ["g2"]


def test_load_drops_what_it_cannot_use_and_a_stale_temp_file(tmp_path):
    (tmp_path / (FILE_NAME + ".tmp")).write_text("half written")
    (tmp_path / FILE_NAME).write_text(
        json.dumps(
            {
                "version": 1,
                "groups": {
                    "g": {"share.auto.offset.reset": "earliest", "later.key": "1", "share.isolation.level": "bogus"},
                    "only-unknown": {"later.key": "1"},
                },
            }
        )
    )
    store = GroupConfigStore(tmp_path, config())
    assert store.groups() == ["g"] and store.overrides("g") == {"share.auto.offset.reset": "earliest"}
    assert not (tmp_path / (FILE_NAME + ".tmp")).exists()


def test_unreadable_file_stops_the_start(tmp_path):
    (tmp_path / FILE_NAME).write_text("{not json")
    with pytest.raises(ValueError, match=r"group-configs\.json"):
        GroupConfigStore(tmp_path, config())
    (tmp_path / FILE_NAME).write_text(json.dumps({"version": 99, "groups": {}}))
    with pytest.raises(ValueError, match="version"):
        GroupConfigStore(tmp_path, config())


def test_a_failed_write_changes_nothing(store, tmp_path, monkeypatch):
    ok(store, "g", ("share.auto.offset.reset", SET, "earliest"))
    before = (tmp_path / FILE_NAME).read_bytes()

    def broken_replace(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    error = store.alter("g", [("share.auto.offset.reset", SET, "latest")])
    assert error.code == ErrorCode.UNKNOWN_SERVER_ERROR and "No space left" in error.message
    assert store.overrides("g") == {"share.auto.offset.reset": "earliest"}
    assert store.share_settings("g").auto_offset_reset == "earliest"
    assert (tmp_path / FILE_NAME).read_bytes() == before
    assert store.delete_group("g") is False and store.overrides("g") == {"share.auto.offset.reset": "earliest"}


def test_writes_are_fsynced_and_renamed(store, tmp_path, monkeypatch):
    calls = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(os, "fsync", lambda fd: (calls.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(os, "replace", lambda a, b: (calls.append("rename"), real_replace(a, b))[1])
    ok(store, "g", ("share.auto.offset.reset", SET, "earliest"))
    assert calls == ["fsync", "rename", "fsync"]  # file, rename, directory
    calls.clear()
    ok(store, "g", ("share.auto.offset.reset", SET, "earliest"))  # no change: no write
    ok(store, "g", ("share.auto.offset.reset", SET, "latest"), validate_only=True)
    assert calls == []


# --- what the share runtime reads -----------------------------------------------------------------


def test_share_settings_defaults_come_from_the_broker(tmp_path):
    store = GroupConfigStore(
        tmp_path,
        config(
            "group.share.record.lock.duration.ms=20000",
            "group.share.delivery.count.limit=3",
            "group.share.partition.max.record.locks=500",
        ),
    )
    assert store.share_settings("g") == ShareGroupSettings(
        auto_offset_reset="latest",
        isolation_level=0,
        lock_duration_ms=20000,
        delivery_count_limit=3,
        max_record_locks=500,
        session_timeout_ms=45000,
        heartbeat_interval_ms=5000,
        renew_ack_enabled=True,
    )


def test_share_settings_follow_overrides(store):
    assert store.share_settings("g").auto_offset_reset == "latest"  # cached ...
    ok(
        store,
        "g",
        ("share.auto.offset.reset", SET, "by_duration:P1DT1H"),
        ("share.isolation.level", SET, "read_committed"),
        ("share.record.lock.duration.ms", SET, "15000"),
        ("share.delivery.count.limit", SET, "2"),
        ("share.partition.max.record.locks", SET, "100"),
        ("share.session.timeout.ms", SET, "50000"),
        ("share.heartbeat.interval.ms", SET, "6000"),
        ("share.renew.acknowledge.enable", SET, "false"),
    )
    assert store.share_settings("g") == ShareGroupSettings(  # ... and refreshed by the change
        auto_offset_reset=("by_duration", 25 * 3_600_000),
        isolation_level=1,
        lock_duration_ms=15000,
        delivery_count_limit=2,
        max_record_locks=100,
        session_timeout_ms=50000,
        heartbeat_interval_ms=6000,
        renew_ack_enabled=False,
    )
    ok(store, "g", ("share.auto.offset.reset", SET, "earliest"))
    assert store.share_settings("g").auto_offset_reset == "earliest"
    store.delete_group("g")
    assert store.share_settings("g").isolation_level == 0


def test_share_settings_follow_a_new_broker_config(store):
    assert store.share_settings("g").lock_duration_ms == 30000
    store.config = config("group.share.record.lock.duration.ms=40000")
    assert store.share_settings("g").lock_duration_ms == 40000


@pytest.mark.parametrize("kind", ["consumer", "share", "streams"])
def test_assignment_intervals_resolve_override_default_and_bounds(tmp_path, kind):
    key = f"{kind}.assignment.interval.ms"
    store = GroupConfigStore(tmp_path, config(f"group.{kind}.assignment.interval.ms=2000"))
    assert store.effective("g", key) == 2000  # the broker default
    ok(store, "g", (key, SET, "0"))
    assert store.effective("g", key) == 0  # the group's own value wins
    assert store.effective("other", key) == 2000
    ok(store, "g", (key, SET, "12000"))
    # Bounds lowered after the override was set: it takes effect capped, as in Kafka 4.4.
    store.config = config(
        f"group.{kind}.assignment.interval.ms=2000",
        f"group.{kind}.min.assignment.interval.ms=500",
        f"group.{kind}.max.assignment.interval.ms=5000",
    )
    assert store.effective("g", key) == 5000
    ok(store, "h", (key, SET, "600"))
    store.config = config(f"group.{kind}.min.assignment.interval.ms=1000")
    assert store.effective("h", key) == 1000
    if kind == "share":
        assert store.share_settings("h").assignment_interval_ms == 1000


def test_listeners_see_durable_changes_only(store):
    seen = []
    store.add_listener(lambda group, overrides: seen.append((group, overrides)))
    ok(store, "g", ("group.type", SET, "share"))
    ok(store, "g", ("group.type", SET, "consumer"), validate_only=True)
    store.alter("g", [("group.type", SET, "classic")])
    ok(store, "g", ("group.type", SET, "share"))  # unchanged
    store.delete_group("g")
    assert seen == [("g", {"group.type": "share"}), ("g", {})]


# --- the config handlers on a real Broker ---------------------------------------------------------

HANDLERS = {32: api_32_describe_configs, 33: api_33_alter_configs, 44: api_44_incremental_alter_configs}


def make_broker(data_dir):
    return started(data_dir)


@pytest.fixture
def broker(tmp_path):
    b = make_broker(tmp_path / "data")
    yield b
    close_services(b.services)


async def call(broker, request, version):
    """Encode ``request`` at ``version``, run the handler, and decode its response."""
    key = request.API_KEY
    request = REQUESTS[key].decode(request.encode(version), version)
    header = RequestHeader(request_api_key=key, request_api_version=version, correlation_id=1, client_id="test")
    response = await HANDLERS[key].handle(context(broker, version, header), request)
    return RESPONSES[key].decode(response.encode(version), version)


async def describe(broker, name, keys=None, version=4, synonyms=True, documentation=False):
    req = DescribeConfigsRequest(
        resources=[DescribeConfigsResource(resource_type=GROUP, resource_name=name, configuration_keys=keys)],
        include_synonyms=synonyms,
        include_documentation=documentation,
    )
    (result,) = (await call(broker, req, version)).results
    return result


async def incremental(broker, name, ops, validate_only=False, version=1):
    req = IncrementalAlterConfigsRequest(
        resources=[
            AlterConfigsResource(
                resource_type=GROUP,
                resource_name=name,
                configs=[AlterableConfig(name=k, config_operation=op, value=v) for k, op, v in ops],
            )
        ],
        validate_only=validate_only,
    )
    (r,) = (await call(broker, req, version)).responses
    return (r.resource_type, r.resource_name, r.error_code, r.error_message)


async def legacy(broker, name, configs, validate_only=False, version=2):
    req = AlterConfigsRequest(
        resources=[
            LegacyResource(
                resource_type=GROUP,
                resource_name=name,
                configs=[LegacyConfig(name=k, value=v) for k, v in configs.items()],
            )
        ],
        validate_only=validate_only,
    )
    (r,) = (await call(broker, req, version)).responses
    return (r.error_code, r.error_message)


async def test_handlers_set_then_describe(broker):
    assert await incremental(
        broker, "g1", [("share.auto.offset.reset", SET, "earliest"), ("share.isolation.level", SET, "read_committed")]
    ) == (GROUP, "g1", 0, None)
    res = await describe(broker, "g1", documentation=True)
    assert (res.error_code, res.error_message, res.resource_type, res.resource_name) == (0, "", GROUP, "g1")
    by = {c.name: c for c in res.configs}
    assert [c.name for c in res.configs] == sorted(by) and KAFKA_44_LISTED <= set(by)
    reset = by["share.auto.offset.reset"]
    assert (reset.value, reset.config_source, reset.config_type, reset.read_only, reset.is_sensitive) == (
        "earliest",
        8,
        2,
        False,
        False,
    )
    assert [(s.name, s.value, s.source) for s in reset.synonyms] == [("share.auto.offset.reset", "earliest", 8)]
    assert reset.documentation
    lock = by["share.record.lock.duration.ms"]
    assert (lock.value, lock.config_source, lock.config_type) == ("30000", 5, 3)
    # v1: no types, no documentation; synonyms only when asked.
    res = await describe(broker, "g1", ["share.isolation.level", "nope"], version=1, synonyms=False)
    assert [(c.name, c.value, c.config_source, c.synonyms) for c in res.configs] == [
        ("share.isolation.level", "read_committed", 8, [])
    ]
    assert broker.group_configs.share_settings("g1").isolation_level == 1


async def test_handlers_errors(broker):
    res = await describe(broker, "")
    assert (res.error_code, res.error_message, res.configs) == (
        ErrorCode.INVALID_REQUEST,
        "Group name must not be empty",
        [],
    )
    cases = [
        (
            "",
            [("share.auto.offset.reset", SET, "earliest")],
            (ErrorCode.INVALID_REQUEST, "Default group resources are not allowed."),
        ),
        ("g", [("nope", SET, "1")], (ErrorCode.INVALID_CONFIG, "Unknown group config name: nope")),
        (
            "g",
            [("share.isolation.level", SET, "x")],
            invalid("share.isolation.level", "x", "String must be one of: read_committed, read_uncommitted"),
        ),
        (
            "g",
            [("share.record.lock.duration.ms", SET, "60001")],
            bound("share.record.lock.duration.ms", 15000, 60000),
        ),
        (
            "g",
            [("share.isolation.level", SET, "x"), ("nope", APPEND, "x")],
            (ErrorCode.INVALID_CONFIG, "Can't APPEND to key nope because its type is not LIST."),
        ),
        (
            "g",
            [("share.heartbeat.interval.ms", SUBTRACT, "1")],
            (
                ErrorCode.INVALID_CONFIG,
                "Can't SUBTRACT to key share.heartbeat.interval.ms because its type is not LIST.",
            ),
        ),
        (
            "g",
            [("share.auto.offset.reset", SET, None)],
            (ErrorCode.INVALID_REQUEST, "Null value not supported for : share.auto.offset.reset"),
        ),
        ("g", [("nope", DELETE, None)], (ErrorCode.NONE, None)),
    ]
    for name, ops, expected in cases:
        _, _, code, message = await incremental(broker, name, ops)
        assert (code, message) == expected, (name, ops)
    assert broker.group_configs.groups() == []


async def test_handlers_validate_only_and_delete(broker):
    assert (await incremental(broker, "g", [("share.auto.offset.reset", SET, "earliest")], validate_only=True))[2] == 0
    assert broker.group_configs.overrides("g") == {}
    await incremental(broker, "g", [("share.auto.offset.reset", SET, "earliest")])
    await incremental(broker, "g", [("share.auto.offset.reset", DELETE, None)])
    (row,) = (await describe(broker, "g", ["share.auto.offset.reset"])).configs
    assert (row.value, row.config_source) == ("latest", 5)


async def test_legacy_alter_configs_replaces_the_groups_set(broker):
    await incremental(
        broker, "g", [("share.auto.offset.reset", SET, "earliest"), ("share.isolation.level", SET, "read_committed")]
    )
    assert await legacy(broker, "g", {"share.session.timeout.ms": "50000"}) == (0, None)
    assert broker.group_configs.overrides("g") == {"share.session.timeout.ms": "50000"}
    assert await legacy(broker, "g", {"nope": "1"}) == (ErrorCode.INVALID_CONFIG, "Unknown group config name: nope")
    assert await legacy(broker, "", {"share.session.timeout.ms": "50000"}) == (
        ErrorCode.INVALID_REQUEST,
        "Default group resources are not allowed.",
    )
    assert await legacy(broker, "g", {}, validate_only=True, version=0) == (0, None)
    assert broker.group_configs.overrides("g") == {"share.session.timeout.ms": "50000"}


async def test_handlers_configs_survive_a_broker_restart(tmp_path):
    first = make_broker(tmp_path / "data")
    try:
        await incremental(first, "g1", [("share.auto.offset.reset", SET, "by_duration:PT1H")])
    finally:
        close_services(first.services)
    second = make_broker(tmp_path / "data")
    try:
        (row,) = (await describe(second, "g1", ["share.auto.offset.reset"])).configs
        assert (row.value, row.config_source) == ("by_duration:PT1H", 8)
        assert second.group_configs.share_settings("g1").auto_offset_reset == ("by_duration", 3_600_000)
    finally:
        close_services(second.services)
