"""broker.config: the settings table, loading precedence, parsing and DescribeConfigs rows."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from broker.config import (
    SETTINGS,
    SETTINGS_BY_KEY,
    BrokerConfig,
    ConfigError,
    ConfigSource,
    ConfigType,
    Listener,
    env_var_for,
    load_config,
    parse_listener,
    parse_properties,
    render_markdown,
)

REPO = Path(__file__).resolve().parents[2]
NO_ENV: dict[str, str] = {}


def load(*overrides: str, file: Path | None = None, env: dict[str, str] | None = None) -> BrokerConfig:
    return load_config(file, list(overrides), environ=env if env is not None else NO_ENV)


def error_of(*overrides: str, file: Path | None = None, env: dict[str, str] | None = None) -> str:
    with pytest.raises(ConfigError) as info:
        load(*overrides, file=file, env=env)
    message = str(info.value)
    assert "\n" not in message
    return message


# --------------------------------------------------------------------------- the table


def test_defaults_load_and_match_kafka_where_we_follow_it():
    cfg = load()
    assert cfg.listeners == (Listener("PLAINTEXT", "127.0.0.1", 9092),)
    assert cfg.node_id == 1
    assert cfg.log_dirs == (Path("./data"),)
    expected = {
        "num.partitions": 1,
        "default.replication.factor": 1,
        "auto.create.topics.enable": True,
        "log.segment.bytes": 1073741824,
        "log.retention.hours": 168,
        "log.retention.bytes": -1,
        "log.retention.check.interval.ms": 300000,
        "log.index.interval.bytes": 4096,
        "log.flush.interval.messages": 2**63 - 1,
        "log.flush.interval.ms": None,
        "message.max.bytes": 1048588,
        "socket.request.max.bytes": 104857600,
        "connections.max.idle.ms": 600000,
        "offsets.topic.num.partitions": 50,
        "offsets.topic.replication.factor": 3,
        "transaction.state.log.num.partitions": 50,
        "transaction.state.log.replication.factor": 3,
        "transaction.state.log.min.isr": 2,
        "min.insync.replicas": 1,
        "unclean.leader.election.enable": False,
        "replica.lag.time.max.ms": 30000,
        "replica.fetch.wait.max.ms": 500,
        "replica.fetch.max.bytes": 1048576,
        "auto.leader.rebalance.enable": True,
        "leader.imbalance.check.interval.seconds": 300,
        "leader.imbalance.per.broker.percentage": 10,
        "group.initial.rebalance.delay.ms": 3000,
        "group.min.session.timeout.ms": 6000,
        "group.max.session.timeout.ms": 1800000,
        "group.consumer.session.timeout.ms": 45000,
        "group.consumer.heartbeat.interval.ms": 5000,
        "group.share.partition.max.record.locks": 2000,
        "group.share.delivery.count.limit": 5,
        "group.share.record.lock.duration.ms": 30000,
        "group.share.min.record.lock.duration.ms": 15000,
        "group.share.max.record.lock.duration.ms": 60000,
        "group.share.max.size": 200,
        "group.share.session.timeout.ms": 45000,
        "group.share.min.session.timeout.ms": 45000,
        "group.share.max.session.timeout.ms": 60000,
        "group.share.heartbeat.interval.ms": 5000,
        "group.share.min.heartbeat.interval.ms": 5000,
        "group.share.max.heartbeat.interval.ms": 15000,
        "group.share.max.share.sessions": 2000,
        "share.coordinator.state.topic.num.partitions": 50,
        "share.coordinator.state.topic.replication.factor": 3,
        "share.coordinator.state.topic.min.isr": 2,
        "share.coordinator.snapshot.update.records.per.snapshot": 500,
        "unstable.api.versions.enable": False,
        "max.connections": 1000,
    }
    for key, value in expected.items():
        assert cfg.get(key) == value, key
    assert tuple(cfg.get("group.coordinator.rebalance.protocols")) == ("classic", "consumer", "share", "streams")


def test_every_default_passes_its_own_validation():
    for s in SETTINGS:
        s.validate(s.default)
        if s.default is not None:
            assert s.parse(s.render(s.default)) == s.default, s.key


def test_every_limit_and_changed_default_has_a_reason():
    for s in SETTINGS:
        assert s.doc and s.doc.endswith("."), s.key
        if s.kafka_default is not None or (s.max is not None and s.min == s.max):
            assert s.why, f"{s.key} departs from Kafka or pins a value without saying why"
        if s.key.startswith("group.share.") and s.max is not None:
            assert s.why, s.key


def test_env_names_and_attribute_names_are_unique():
    assert len({s.env_var for s in SETTINGS}) == len(SETTINGS)
    assert len({s.attr for s in SETTINGS}) == len(SETTINGS)
    assert env_var_for("log.dirs") == "SHAREBROKER_LOG_DIRS"


def test_dynamic_flags_follow_kafka():
    dynamic = {s.key for s in SETTINGS if s.dynamic}
    assert dynamic == {
        "replica.alter.log.dirs.io.max.bytes.per.second",
        "max.connections",
        "max.connections.per.ip",
        "max.connections.per.ip.overrides",
        "log.segment.bytes",
        "log.roll.ms",
        "log.retention.ms",
        "log.retention.bytes",
        "log.index.interval.bytes",
        "log.flush.interval.messages",
        "log.flush.interval.ms",
        "message.max.bytes",
        "group.share.assignment.interval.ms",
        # Kafka 4.4's GroupCoordinatorConfig.RECONFIGURABLE_CONFIGS (KIP-1263).
        "group.consumer.assignment.interval.ms",
        "group.streams.assignment.interval.ms",
        "group.consumer.assignor.offload.enable",
        "group.share.assignor.offload.enable",
        "group.streams.assignor.offload.enable",
        "errors.deadletterqueue.topic.name.prefix",
        "errors.deadletterqueue.auto.create.topics.enable",
        "log.cleanup.policy",
        "log.cleaner.threads",
        "log.cleaner.dedupe.buffer.size",
        "log.cleaner.io.buffer.size",
        "log.cleaner.io.buffer.load.factor",
        "log.cleaner.io.max.bytes.per.second",
        "log.cleaner.backoff.ms",
        "log.cleaner.min.cleanable.ratio",
        "log.cleaner.delete.retention.ms",
        "log.cleaner.min.compaction.lag.ms",
        "log.cleaner.max.compaction.lag.ms",
        "log.segment.delete.delay.ms",
    }


def test_attribute_access_for_any_key():
    cfg = load("group.share.max.size=10")
    assert cfg.group_share_max_size == 10
    assert cfg.auto_create_topics_enable is True
    with pytest.raises(AttributeError):
        cfg.no_such_setting  # noqa: B018
    with pytest.raises(KeyError):
        cfg.get("no.such.setting")


# --------------------------------------------------------------------------- precedence


def test_precedence_default_file_env_set(tmp_path: Path):
    props = tmp_path / "server.properties"
    props.write_text("num.partitions=2\nlog.retention.hours=10\nmessage.max.bytes=2000\n")
    env = {"SHAREBROKER_LOG_RETENTION_HOURS": "20", "SHAREBROKER_MESSAGE_MAX_BYTES": "3000"}
    cfg = load("message.max.bytes=4000", file=props, env=env)
    assert cfg.get("log.segment.bytes") == 1073741824
    assert cfg.get("num.partitions") == 2
    assert cfg.get("log.retention.hours") == 20
    assert cfg.get("message.max.bytes") == 4000
    assert cfg.origin("log.segment.bytes").kind == "default"
    assert cfg.origin("num.partitions").label == f"{props}:1"
    assert cfg.origin("log.retention.hours").label == "env SHAREBROKER_LOG_RETENTION_HOURS"
    assert cfg.origin("message.max.bytes").label == "--set"


def test_later_set_wins_over_earlier_set():
    assert load("num.partitions=2", "num.partitions=3").get("num.partitions") == 3


def test_env_ignores_other_variables_and_cli_options():
    env = {
        "PATH": "/bin",
        "SHAREBROKER_LOG_FORMAT": "json",
        "SHAREBROKER_LOG_LEVEL": "debug",
        "SHAREBROKER_LOG_DIRS": "/var/lib/sb",
    }
    assert load(env=env).log_dirs == (Path("/var/lib/sb"),)


def test_unknown_env_variable_is_an_error():
    msg = error_of(env={"SHAREBROKER_LOG_DIRZ": "x"})
    assert (
        msg == "SHAREBROKER_LOG_DIRZ: no setting is named by this environment variable (from env SHAREBROKER_LOG_DIRZ)"
    )


# --------------------------------------------------------------------------- properties syntax


def test_properties_syntax():
    text = (
        "# comment\n"
        "  ! another comment\n"
        "\n"
        "a=1\n"
        "b : two words \n"
        "c three\n"
        "d=first,\\\n"
        "    second\n"
        "e = tab\\there \\u0041\\=\n"
        "f\n"
        "key\\ with\\:colon = v\n"
        "g=ends with even backslashes\\\\\n"
        "h=2\n"
        "#a=overridden in a comment\n"
    )
    entries = list(parse_properties(text))
    assert entries == [
        ("a", "1", 4),
        ("b", "two words ", 5),
        ("c", "three", 6),
        ("d", "first,second", 7),
        ("e", "tab\there A=", 9),
        ("f", "", 10),
        ("key with:colon", "v", 11),
        ("g", "ends with even backslashes\\", 12),
        ("h", "2", 13),
    ]


def test_properties_crlf_and_continuation_at_eof():
    assert list(parse_properties("a=1\r\nb=2\\")) == [("a", "1", 1), ("b", "2", 2)]


def test_file_errors_name_file_and_line(tmp_path: Path):
    props = tmp_path / "server.properties"
    props.write_text("# header\nnum.partitions=1\nlog.dirs=/a,\\\n  /a\nmax.connections=lots\n")
    msg = error_of(file=props)
    assert msg == f"log.dirs: '/a,/a' names a directory twice (from {props}:3)"
    props.write_text("num.partitions=1\nmax.connections = lots\n")
    assert error_of(file=props) == f"max.connections: 'lots' is not an integer (from {props}:2)"
    props.write_text("log.segmnt.bytes=1\n")
    assert (
        error_of(file=props) == f"log.segmnt.bytes: unknown setting; did you mean log.segment.bytes? (from {props}:1)"
    )


def test_missing_file(tmp_path: Path):
    msg = error_of(file=tmp_path / "nope.properties")
    assert msg.startswith(f"cannot read config file {tmp_path / 'nope.properties'}")


def test_kafka_style_file_is_accepted(tmp_path: Path):
    props = tmp_path / "server.properties"
    props.write_text(
        "node.id=3\n"
        "listeners=PLAINTEXT://:9092\n"
        "advertised.listeners=PLAINTEXT://broker.example:9092\n"
        "log.dirs=/tmp/kraft-combined-logs\n"
        "num.partitions=1\n"
        "offsets.topic.replication.factor=1\n"
        "transaction.state.log.replication.factor=1\n"
        "transaction.state.log.min.isr=1\n"
        "share.coordinator.state.topic.replication.factor=1\n"
        "log.retention.hours=168\n"
        "log.segment.bytes=1073741824\n"
        "log.retention.check.interval.ms=300000\n"
    )
    cfg = load(file=props)
    assert cfg.node_id == 3
    assert (cfg.host, cfg.port) == (None, 9092)
    assert (cfg.advertised_host, cfg.advertised_port) == ("broker.example", 9092)


# --------------------------------------------------------------------------- bad values


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("log.segment.bytes=abc", "log.segment.bytes: 'abc' is not an integer (from --set)"),
        ("log.segment.bytes=1.5", "log.segment.bytes: '1.5' is not an integer (from --set)"),
        ("log.segment.bytes=1000", "log.segment.bytes: 1000 is below the minimum 1048576 (from --set)"),
        (
            "log.segment.bytes=4294967296",
            "log.segment.bytes: 4294967296 does not fit in a int (-2147483648..2147483647) (from --set)",
        ),
        (
            "auto.create.topics.enable=yes",
            "auto.create.topics.enable: 'yes' is not a boolean (true or false) (from --set)",
        ),
        (
            "default.replication.factor=0",
            "default.replication.factor: 0 is below the minimum 1 (from --set)",
        ),
        (
            "group.coordinator.rebalance.protocols=classic,kafka",
            "group.coordinator.rebalance.protocols: 'kafka' is not one of: classic, consumer, share, streams (from --set)",
        ),
        ("log.retention.ms=0", "log.retention.ms: 0 must be -1 (unlimited) or at least 1 (from --set)"),
        ("bogus=1", "bogus: unknown setting (from --set)"),
        ("novalue", "--set 'novalue': expected key=value"),
        ("=1", "--set '=1': expected key=value"),
    ],
)
def test_bad_values_give_one_line_naming_key_and_source(override: str, message: str):
    assert error_of(override) == message


def test_env_error_names_variable():
    msg = error_of(env={"SHAREBROKER_NUM_PARTITIONS": "many"})
    assert msg == "num.partitions: 'many' is not an integer (from env SHAREBROKER_NUM_PARTITIONS)"


def test_values_are_trimmed_and_booleans_case_insensitive():
    cfg = load("num.partitions= 4 ", "auto.create.topics.enable=FALSE", "log.dirs= /x ")
    assert cfg.get("num.partitions") == 4
    assert cfg.get("auto.create.topics.enable") is False
    assert cfg.log_dirs == (Path("/x"),)


def test_list_values_render_like_kafka():
    cfg = load("group.coordinator.rebalance.protocols= consumer , share ")
    value = cfg.get("group.coordinator.rebalance.protocols")
    assert value == ("consumer", "share")
    assert str(value) == "consumer,share"


# --------------------------------------------------------------------------- listeners


def test_listener_parsing():
    assert parse_listener("PLAINTEXT://:9092") == Listener("PLAINTEXT", "", 9092)
    assert parse_listener("PLAINTEXT://0.0.0.0:0") == Listener("PLAINTEXT", "0.0.0.0", 0)
    assert parse_listener("plaintext://[::1]:9093") == Listener("PLAINTEXT", "::1", 9093)
    assert str(Listener("PLAINTEXT", "::1", 9093)) == "PLAINTEXT://[::1]:9093"
    for bad in ("localhost:9092", "PLAINTEXT://h", "PLAINTEXT://h:70000", "PLAINTEXT://h:-1"):
        with pytest.raises(ValueError):
            parse_listener(bad)


def test_empty_host_binds_everywhere_and_advertises_hostname():
    cfg = load("listeners=PLAINTEXT://:9092")
    assert (cfg.host, cfg.port) == (None, 9092)
    assert cfg.advertised_listeners == (Listener("PLAINTEXT", socket.gethostname(), 9092),)


def test_port_zero_is_resolved_once_bound():
    cfg = load("listeners=PLAINTEXT://0.0.0.0:0")
    assert (cfg.host, cfg.port) == ("0.0.0.0", 0)
    bound = cfg.with_bound_port(40123)
    assert bound.port == 40123
    assert bound.advertised_port == 40123
    assert bound.advertised_host == socket.gethostname()
    assert cfg.port == 0  # the original is unchanged


def test_loopback_listener_is_advertised_as_is():
    cfg = load("listeners=PLAINTEXT://127.0.0.1:0").with_bound_port(5555)
    assert (cfg.advertised_host, cfg.advertised_port) == ("127.0.0.1", 5555)


def test_explicit_advertised_listener_wins_over_bound_port():
    cfg = load("listeners=PLAINTEXT://:0", "advertised.listeners=PLAINTEXT://kafka:19092").with_bound_port(5555)
    assert cfg.port == 5555
    assert (cfg.advertised_host, cfg.advertised_port) == ("kafka", 19092)


def test_tls_and_sasl_listeners_with_listener_prefixed_settings():
    cfg = load(
        "listeners=HOST://:9093,SASL_SSL://127.0.0.1:9094",
        "listener.security.protocol.map=HOST:SSL,SASL_SSL:SASL_SSL",
        "ssl.client.auth=requested",
        "listener.name.host.ssl.client.auth=required",
        "listener.name.sasl_ssl.sasl.enabled.mechanisms=SCRAM-SHA-512,PLAIN",
        'listener.name.sasl_ssl.plain.sasl.jaas.config=M required user_a="b";',
        "listener.name.sasl_ssl.scram-sha-512.connections.max.reauth.ms=60000",
    )
    assert cfg.security_protocol("HOST") == "SSL"
    assert cfg.listener_setting("HOST", "ssl.client.auth") == "required"
    assert cfg.listener_setting("SASL_SSL", "ssl.client.auth") == "requested"
    assert cfg.for_listener("SASL_SSL")["sasl.enabled.mechanisms"] == ("SCRAM-SHA-512", "PLAIN")
    assert cfg.listener_setting("SASL_SSL", "sasl.jaas.config", "PLAIN") == 'M required user_a="b";'
    assert cfg.listener_setting("SASL_SSL", "sasl.jaas.config", "SCRAM-SHA-512") is None
    assert cfg.listener_setting("SASL_SSL", "connections.max.reauth.ms", "SCRAM-SHA-512") == 60000
    assert cfg.listener_setting("SASL_SSL", "connections.max.reauth.ms", "PLAIN") == 0


def test_listener_prefixed_settings_from_the_environment_and_their_errors():
    cfg = load_config(
        overrides=["listeners=SASL_SSL://127.0.0.1:0"],
        environ={"SHAREBROKER_LISTENER_NAME_SASL_SSL_SCRAM_SHA_256_SASL_JAAS_CONFIG": "X required;"},
    )
    assert cfg.listener_setting("SASL_SSL", "sasl.jaas.config", "SCRAM-SHA-256") == "X required;"
    assert "not one of" in error_of("listener.name.ssl.ssl.client.auth=sometimes")
    assert "unknown setting" in error_of("listener.name.ssl.not.a.setting=1")
    assert "queued.max.request.bytes" in error_of("queued.max.request.bytes=1000")
    assert "host:count" in error_of("max.connections.per.ip.overrides=127.0.0.1")


def test_several_named_listeners():
    cfg = load(
        "listeners=INTERNAL://127.0.0.1:0,EXTERNAL://127.0.0.1:0",
        "listener.security.protocol.map=INTERNAL:PLAINTEXT,EXTERNAL:PLAINTEXT",
        "advertised.listeners=INTERNAL://broker1:19092,EXTERNAL://localhost:9092",
        "inter.broker.listener.name=INTERNAL",
    ).with_bound_port({"INTERNAL": 4001, "EXTERNAL": 4002})
    assert [(lst.name, lst.port) for lst in cfg.listeners] == [("INTERNAL", 4001), ("EXTERNAL", 4002)]
    assert cfg.security_protocol("EXTERNAL") == "PLAINTEXT"
    assert cfg.inter_broker_listener_name == "INTERNAL"
    assert [str(a) for a in cfg.advertised_listeners] == ["INTERNAL://broker1:19092", "EXTERNAL://localhost:9092"]


@pytest.mark.parametrize(
    ("override", "fragment"),
    [
        ("listeners=PLAINTEXT://:9092,PLAINTEXT://:9093", "names listener PLAINTEXT more than once"),
        ("listeners=PLAINTEXT://:9092,HOST://:9092", "binds *:9092 more than once"),
        ("listeners=HOST://:9093", "listener name HOST has no security protocol"),
        ("listener.security.protocol.map=HOST", "not of the form LISTENER_NAME:SECURITY_PROTOCOL"),
        ("inter.broker.listener.name=OTHER", "OTHER is not a listener name in listeners"),
        ("listeners=", "needs at least one NAME://host:port entry"),
        ("listeners=localhost:9092", "is not of the form NAME://host:port"),
        ("advertised.listeners=PLAINTEXT://0.0.0.0:9092", "wildcard address"),
        ("advertised.listeners=PLAINTEXT://h:0", "advertises port 0"),
        ("advertised.listeners=SASL_SSL://h:1", "names a listener not in listeners"),
    ],
)
def test_bad_listeners(override: str, fragment: str):
    msg = error_of(override)
    assert msg.startswith(override.split("=")[0] + ": ")
    assert fragment in msg
    assert msg.endswith("(from --set)")


# --------------------------------------------------------------------------- aliases and effective values


def test_broker_id_is_an_alias_of_node_id():
    assert load("broker.id=7").node_id == 7
    assert load("broker.id=7", "node.id=7").node_id == 7
    assert load("node.id=4").get("broker.id") == 4
    msg = error_of("broker.id=7", "node.id=8")
    assert msg == "node.id: 8 (from --set) differs from broker.id 7 (from --set); they must be equal"


def test_log_dirs_wins_over_log_dir():
    assert load("log.dir=/a").log_dirs == (Path("/a"),)
    assert load("log.dir=/a", "log.dirs=/b").log_dir == Path("/b")


def test_effective_retention_roll_and_flush():
    cfg = load()
    assert cfg.retention_ms == 168 * 3_600_000
    assert cfg.roll_ms == 168 * 3_600_000
    assert cfg.flush_interval_ms == 2**63 - 1
    cfg = load("log.retention.hours=1", "log.retention.minutes=5")
    assert cfg.retention_ms == 300_000
    cfg = load("log.retention.minutes=5", "log.retention.ms=-1")
    assert cfg.retention_ms == -1
    cfg = load("log.roll.hours=2", "log.flush.scheduler.interval.ms=1000")
    assert (cfg.roll_ms, cfg.flush_interval_ms) == (7_200_000, 1000)
    assert load("log.flush.interval.ms=50").flush_interval_ms == 50
    assert "at least 1" in error_of("log.retention.hours=0")


# --------------------------------------------------------------------------- share-group bounds


@pytest.mark.parametrize(
    ("key", "low", "high"),
    [
        ("group.share.partition.max.record.locks", 100, 10000),
        ("group.share.delivery.count.limit", 2, 10),
        ("group.share.max.size", 1, 1000),
        ("group.share.min.record.lock.duration.ms", 1000, 30000),
        ("group.share.max.record.lock.duration.ms", 30000, 3600000),
        ("group.share.min.delivery.count.limit", 2, 5),
        ("group.share.max.delivery.count.limit", 5, 25),
        ("group.share.min.partition.max.record.locks", 100, 2000),
        ("group.share.max.partition.max.record.locks", 2000, 10000),
    ],
)
def test_share_group_bounds(key: str, low: int, high: int):
    setting = SETTINGS_BY_KEY[key]
    assert (setting.min, setting.max) == (low, high)
    assert f"{low - 1} is below the minimum {low}" in error_of(f"{key}={low - 1}")
    assert f"{high + 1} is above the maximum {high}" in error_of(f"{key}={high + 1}")
    # Widen the bounds the value must also lie within (Kafka checks them too).
    lock_bounds = {
        "group.share.min.record.lock.duration.ms": "1000",
        "group.share.max.record.lock.duration.ms": "3600000",
        "group.share.max.partition.max.record.locks": "10000",
    }
    extra = [f"{k}={v}" for k, v in lock_bounds.items() if k != key]
    load(f"{key}={low}", *extra)
    load(f"{key}={high}", *extra)


def test_share_record_lock_must_lie_within_min_and_max():
    msg = error_of("group.share.record.lock.duration.ms=10000")
    assert msg == (
        "group.share.record.lock.duration.ms: 10000 must be at least "
        "group.share.min.record.lock.duration.ms (15000) (from --set)"
    )
    msg = error_of("group.share.record.lock.duration.ms=70000")
    assert "must be at most group.share.max.record.lock.duration.ms (60000)" in msg
    # Tests run with short locks by lowering the floor first.
    cfg = load("group.share.min.record.lock.duration.ms=1000", "group.share.record.lock.duration.ms=1000")
    assert cfg.get("group.share.record.lock.duration.ms") == 1000


def test_share_session_and_heartbeat_rules():
    msg = error_of("group.share.session.timeout.ms=30000")
    assert msg.startswith("group.share.session.timeout.ms: 30000 must be at least group.share.min.session.timeout.ms")
    msg = error_of(
        "group.share.min.session.timeout.ms=1000",
        "group.share.session.timeout.ms=5000",
    )
    assert msg == (
        "group.share.session.timeout.ms: 5000 must be greater than "
        "group.share.heartbeat.interval.ms (5000) (from --set)"
    )
    cfg = load(
        "group.share.min.session.timeout.ms=1000",
        "group.share.session.timeout.ms=6000",
        "group.share.min.heartbeat.interval.ms=100",
        "group.share.heartbeat.interval.ms=500",
    )
    assert cfg.get("group.share.heartbeat.interval.ms") == 500


def test_consumer_group_rules():
    assert "must be less than group.consumer.session.timeout.ms" in error_of(
        "group.consumer.max.heartbeat.interval.ms=60000", "group.consumer.heartbeat.interval.ms=45000"
    )
    assert "group.max.session.timeout.ms" in error_of("group.min.session.timeout.ms=2000000")


# --------------------------------------------------------------------------- dynamic changes


def test_dynamic_change_returns_new_config():
    cfg = load()
    new = cfg.with_dynamic({"log.retention.ms": "1000", "max.connections": "5"})
    assert new.get("log.retention.ms") == 1000 and new.retention_ms == 1000
    assert new.get("max.connections") == 5
    assert cfg.get("max.connections") == 1000
    assert new.origin("max.connections").source is ConfigSource.DYNAMIC_BROKER_CONFIG
    back = new.with_dynamic({"max.connections": None})
    assert back.get("max.connections") == 1000
    assert back.get("log.retention.ms") == 1000


def test_dynamic_layers_order():
    cfg = load("message.max.bytes=2000")
    cluster = cfg.with_dynamic({"message.max.bytes": "3000"}, cluster_default=True)
    assert cluster.get("message.max.bytes") == 3000
    assert cluster.origin("message.max.bytes").source is ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG
    node = cluster.with_dynamic({"message.max.bytes": "4000"})
    assert node.get("message.max.bytes") == 4000
    assert node.with_dynamic({}, replace=True).get("message.max.bytes") == 3000
    assert node.with_dynamic({}, cluster_default=True, replace=True).get("message.max.bytes") == 4000


def test_dynamic_errors():
    cfg = load()
    with pytest.raises(ConfigError) as info:
        cfg.with_dynamic({"num.partitions": "3"})
    assert str(info.value).startswith("num.partitions: cannot be changed while the broker runs")
    assert info.value.key == "num.partitions"
    with pytest.raises(ConfigError) as info:
        cfg.with_dynamic({"log.segment.bytes": "x"})
    assert str(info.value) == "log.segment.bytes: 'x' is not an integer (from IncrementalAlterConfigs)"
    with pytest.raises(ConfigError) as info:
        cfg.with_dynamic({"nope": "1"})
    assert str(info.value) == "nope: unknown setting (from IncrementalAlterConfigs)"


# --------------------------------------------------------------------------- DescribeConfigs


def test_describe_every_key(tmp_path: Path):
    props = tmp_path / "server.properties"
    props.write_text("num.partitions=3\n")
    cfg = load(file=props).with_dynamic({"max.connections": "10"})
    rows = {row.name: row for row in cfg.describe()}
    assert set(rows) == set(SETTINGS_BY_KEY)
    assert rows["num.partitions"].value == "3"
    assert rows["num.partitions"].source is ConfigSource.STATIC_BROKER_CONFIG
    assert rows["num.partitions"].read_only is True
    assert rows["num.partitions"].type is ConfigType.INT
    assert rows["max.connections"].source == 2
    assert rows["max.connections"].read_only is False
    assert rows["log.segment.bytes"].source == 5
    assert rows["auto.create.topics.enable"].value == "true"
    assert rows["listeners"].value == "PLAINTEXT://127.0.0.1:9092"
    assert rows["listeners"].type is ConfigType.LIST
    assert rows["advertised.listeners"].value is None
    assert all(row.documentation for row in rows.values())
    sensitive = {name for name, row in rows.items() if row.sensitive}
    assert sensitive == {s.key for s in SETTINGS if s.type is ConfigType.PASSWORD}
    assert all(rows[name].value is None for name in sensitive)


def test_describe_selected_keys_with_synonyms():
    cfg = load("log.retention.hours=24")
    (row,) = cfg.describe(["log.retention.ms", "not.a.key"], include_synonyms=True, include_documentation=False)
    assert row.value is None
    assert row.source is ConfigSource.STATIC_BROKER_CONFIG
    assert row.documentation is None
    assert [(s.name, s.value, s.source) for s in row.synonyms] == [
        ("log.retention.hours", "24", ConfigSource.STATIC_BROKER_CONFIG),
        ("log.retention.hours", "168", ConfigSource.DEFAULT_CONFIG),
    ]
    (row,) = cfg.with_dynamic({"log.retention.ms": "5"}).describe(["log.retention.ms"], include_synonyms=True)
    assert (row.value, row.source) == ("5", ConfigSource.DYNAMIC_BROKER_CONFIG)
    assert row.synonyms[0].name == "log.retention.ms"
    (row,) = cfg.describe(["log.retention.ms"])
    assert row.synonyms == ()


# --------------------------------------------------------------------------- docs


def test_docs_config_md_is_current():
    checked_in = (REPO / "docs" / "CONFIG.md").read_text(encoding="utf-8")
    assert checked_in == render_markdown(), "regenerate: sharebroker config-docs > docs/CONFIG.md"


def test_docs_mention_every_key_and_summary_is_short():
    full = render_markdown()
    for s in SETTINGS:
        assert f"| `{s.key}` |" in full
    summary = render_markdown(summary=True)
    assert "| `listeners` |" in summary
    assert 5 < summary.count("\n") < len(SETTINGS)


def test_a_setting_read_with_a_fallback_must_be_in_the_table():
    from broker.config import known_setting
    from broker.config.services import HandlerSettings, key
    from broker.handlers._configs import broker_settings

    assert known_setting("delete.topic.enable") == "delete.topic.enable"
    assert known_setting("listener.name.internal.ssl.keystore.location")
    with pytest.raises(KeyError, match=r"delete\.topic\.enabled"):
        known_setting("delete.topic.enabled")

    # No services yet (the broker is starting): the table's default is the answer.
    assert broker_settings(None, HandlerSettings).delete_topic_enable is True
    with pytest.raises(KeyError):  # a misspelt key is an error, not a quiet fallback
        key("delete.topic.enabled")
