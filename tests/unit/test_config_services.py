"""The typed settings services receive (broker.config.services) match the settings table.

Every field names a key of the table, is typed after it and defaults to its default;
every key of the table is read by some typed settings object or listed here with the
module that reads it, so a new setting cannot be added and forgotten.
"""

from __future__ import annotations

import dataclasses
import inspect
import typing
from pathlib import Path

import pytest

import broker
import broker.config.services as services
from broker.config import SETTINGS, SETTINGS_BY_KEY, ConfigType, LiveConfig, load_config
from broker.config.services import Settings, setting_key

ROOT = Path(broker.__file__).parent

# Settings read outside the typed objects, by the module (relative to broker/) that reads
# them; the test checks that the module names the key (or its attribute form). Topic
# defaults (log.*) are read by the topic-config table, group-config defaults and bounds by
# the group-config table, security settings per listener, the node's identity, listeners
# and data directories by BrokerConfig's properties.
READ_ELSEWHERE: dict[str, str] = {
    "listeners": "config/layers.py",
    "advertised.listeners": "config/layers.py",
    "listener.security.protocol.map": "config/layers.py",
    "inter.broker.listener.name": "config/layers.py",
    "request.receive.timeout.ms": "server/connection.py",
    "queued.max.request.bytes": "server/__init__.py",
    "quota.window.num": "server/app.py",
    "quota.window.size.seconds": "server/app.py",
    "connections.max.idle.ms": "server/connection.py",
    "socket.request.max.bytes": "server/connection.py",
    "metrics.listen": "server/__init__.py",
    "node.id": "config/layers.py",
    "broker.id": "config/layers.py",
    "broker.rack": "server/app.py",
    "etcd.endpoints": "server/app.py",
    "etcd.prefix": "server/app.py",
    "log.dirs": "config/layers.py",
    "log.dir": "config/layers.py",
    "log.segment.bytes": "log/config.py",
    "log.roll.ms": "log/config.py",
    "log.roll.hours": "log/config.py",
    "log.retention.ms": "log/config.py",
    "log.retention.minutes": "log/config.py",
    "log.retention.hours": "log/config.py",
    "log.retention.bytes": "log/config.py",
    "log.retention.check.interval.ms": "log/manager.py",
    "log.index.interval.bytes": "log/config.py",
    "log.flush.interval.messages": "log/config.py",
    "log.flush.interval.ms": "log/config.py",
    "log.flush.scheduler.interval.ms": "log/config.py",
    "log.cleanup.policy": "log/config.py",
    "log.cleaner.enable": "log/cleaner.py",
    "log.cleaner.threads": "log/cleaner.py",
    "log.cleaner.dedupe.buffer.size": "log/cleaner.py",
    "log.cleaner.io.buffer.size": "log/cleaner.py",
    "log.cleaner.io.buffer.load.factor": "log/cleaner.py",
    "log.cleaner.io.max.bytes.per.second": "log/cleaner.py",
    "replica.alter.log.dirs.io.max.bytes.per.second": "log/moves.py",
    "log.cleaner.backoff.ms": "log/cleaner.py",
    "log.cleaner.min.cleanable.ratio": "log/config.py",
    "log.cleaner.delete.retention.ms": "log/config.py",
    "log.cleaner.min.compaction.lag.ms": "log/config.py",
    "log.cleaner.max.compaction.lag.ms": "log/config.py",
    "log.segment.delete.delay.ms": "log/config.py",
    "min.insync.replicas": "log/config.py",
    "controlled.shutdown.enable": "server/app.py",
    "auto.create.topics.enable": "handlers/_topics.py",
    "message.max.bytes": "log/config.py",
    "group.coordinator.rebalance.protocols": "handlers/api_68_consumer_group_heartbeat.py",
    "group.streams.min.session.timeout.ms": "metadata/group_configs.py",
    "group.streams.max.session.timeout.ms": "metadata/group_configs.py",
    "group.streams.min.heartbeat.interval.ms": "metadata/group_configs.py",
    "group.streams.max.heartbeat.interval.ms": "metadata/group_configs.py",
    "group.streams.assignor.offload.enable": "metadata/group_configs.py",
    "group.streams.assignors": "metadata/group_configs.py",
    "group.share.session.timeout.ms": "metadata/group_configs.py",
    "group.share.min.session.timeout.ms": "metadata/group_configs.py",
    "group.share.max.session.timeout.ms": "metadata/group_configs.py",
    "group.share.heartbeat.interval.ms": "metadata/group_configs.py",
    "group.share.min.heartbeat.interval.ms": "metadata/group_configs.py",
    "group.share.max.heartbeat.interval.ms": "metadata/group_configs.py",
    "group.share.record.lock.duration.ms": "metadata/group_configs.py",
    "group.share.min.record.lock.duration.ms": "metadata/group_configs.py",
    "group.share.max.record.lock.duration.ms": "metadata/group_configs.py",
    "group.share.delivery.count.limit": "metadata/group_configs.py",
    "group.share.partition.max.record.locks": "metadata/group_configs.py",
    "group.share.min.delivery.count.limit": "metadata/group_configs.py",
    "group.share.max.delivery.count.limit": "metadata/group_configs.py",
    "group.share.min.partition.max.record.locks": "metadata/group_configs.py",
    "group.share.max.partition.max.record.locks": "metadata/group_configs.py",
    "group.share.assignment.interval.ms": "metadata/group_configs.py",
    "group.share.min.assignment.interval.ms": "metadata/group_configs.py",
    "group.share.max.assignment.interval.ms": "metadata/group_configs.py",
    "group.share.assignor.offload.enable": "metadata/group_configs.py",
    "transaction.partition.verification.enable": "log/config.py",
    "producer.id.expiration.ms": "log/config.py",
    "ssl.keystore.type": "security/tls.py",
    "ssl.keystore.location": "server/security.py",
    "ssl.keystore.key": "server/security.py",
    "ssl.keystore.certificate.chain": "server/security.py",
    "ssl.key.password": "server/security.py",
    "ssl.truststore.type": "security/tls.py",
    "ssl.truststore.location": "server/security.py",
    "ssl.truststore.certificates": "server/security.py",
    "ssl.client.auth": "security/tls.py",
    "ssl.enabled.protocols": "security/tls.py",
    "ssl.cipher.suites": "security/tls.py",
    "ssl.principal.mapping.rules": "server/security.py",
    "sasl.enabled.mechanisms": "server/security.py",
    "sasl.server.max.receive.size": "server/security.py",
    "connection.failed.authentication.delay.ms": "server/connection.py",
    "connections.max.reauth.ms": "server/security.py",
    "sasl.mechanism.inter.broker.protocol": "server/security.py",
    "ssl.endpoint.identification.algorithm": "server/security.py",
    "authorizer.class.name": "server/app.py",
    "super.users": "server/app.py",
    "allow.everyone.if.no.acl.found": "server/app.py",
    "delegation.token.secret.key": "server/app.py",
    "delegation.token.max.lifetime.ms": "server/app.py",
    "delegation.token.expiry.time.ms": "server/app.py",
    "delegation.token.expiry.check.interval.ms": "server/app.py",
    "sasl.oauthbearer.jwks.endpoint.url": "server/security.py",
    "sasl.oauthbearer.jwks.endpoint.refresh.ms": "server/security.py",
    "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms": "server/security.py",
    "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms": "server/security.py",
    "sasl.oauthbearer.expected.audience": "server/security.py",
    "sasl.oauthbearer.expected.issuer": "server/security.py",
    "sasl.oauthbearer.scope.claim.name": "server/security.py",
    "sasl.oauthbearer.sub.claim.name": "server/security.py",
    "sasl.oauthbearer.clock.skew.seconds": "server/security.py",
}

# Accepted (a Kafka server.properties may set them) and documented, but read by nothing yet.
NOT_READ: dict[str, str] = {
    "socket.listen.backlog.size": "the listeners take the operating system's default backlog",
    "unstable.api.versions.enable": "no unstable API version is served, so there is nothing to advertise",
}

PYTHON_TYPES = {
    ConfigType.BOOLEAN: bool,
    ConfigType.STRING: str,
    ConfigType.INT: int,
    ConfigType.SHORT: int,
    ConfigType.LONG: int,
    ConfigType.DOUBLE: float,
    ConfigType.LIST: tuple[str, ...],
    ConfigType.CLASS: str,
    ConfigType.PASSWORD: str,
}


def _classes() -> list[type[Settings]]:
    return [
        c
        for c in vars(services).values()
        if inspect.isclass(c) and issubclass(c, Settings) and c is not Settings and c.__module__ == services.__name__
    ]


def _fields() -> list[tuple[type[Settings], dataclasses.Field[typing.Any], type]]:
    out = []
    for cls in _classes():
        hints = typing.get_type_hints(cls)
        out += [(cls, f, hints[f.name]) for f in dataclasses.fields(cls)]
    return out


def test_every_field_is_a_setting_of_the_table_typed_after_it():
    assert len(_classes()) >= 8
    for cls, f, hint in _fields():
        key = setting_key(f)
        assert key in SETTINGS_BY_KEY, f"{cls.__name__}.{f.name}: {key} is not in the settings table"
        s = SETTINGS_BY_KEY[key]
        expected = PYTHON_TYPES[s.type]
        allowed = {expected, expected | None} if s.default is None else {expected}
        if s.default is None:
            assert hint in allowed and hint != expected, (
                f"{cls.__name__}.{f.name}: {key} may be unset: {expected} | None"
            )
        else:
            assert hint in allowed, f"{cls.__name__}.{f.name}: {hint} does not hold {key} ({s.type.name})"
        assert f.default == s.default, f"{cls.__name__}.{f.name}: its default is not the table's"


def test_every_setting_is_read_by_a_typed_object_or_listed_with_its_reader():
    typed = {setting_key(f) for _, f, _ in _fields()}
    for s in SETTINGS:
        if s.key in typed:
            continue
        if s.key in NOT_READ:
            continue
        assert s.key in READ_ELSEWHERE, (
            f"{s.key}: no typed settings object reads it; add it to one (or list its reader)"
        )
        text = (ROOT / READ_ELSEWHERE[s.key]).read_text()
        assert f'"{s.key}"' in text or s.attr in text, f"{s.key}: {READ_ELSEWHERE[s.key]} does not read it"
    assert set(READ_ELSEWHERE) | set(NOT_READ) <= set(SETTINGS_BY_KEY), "keys listed here that the table does not have"
    assert not (set(READ_ELSEWHERE) | set(NOT_READ)) & typed, "listed here but read by a typed object: take it off"
    for key in NOT_READ:  # nothing outside the table names it
        assert not [
            p for p in ROOT.rglob("*.py") if p.relative_to(ROOT).parts[0] != "config" and f'"{key}"' in p.read_text()
        ], key


def test_group_config_defaults_and_bounds_name_settings_of_the_table():
    from broker.metadata.group_configs import EXTENSION_KEYS, GROUP_CONFIG_KEYS, NOT_BROKER_SETTINGS

    for spec in GROUP_CONFIG_KEYS + EXTENSION_KEYS:
        for bound in (spec.broker_min, spec.broker_max):
            assert bound is None or bound[0] in SETTINGS_BY_KEY or bound[0] in NOT_BROKER_SETTINGS, spec.name
        key = spec.broker_default
        assert key is None or key in SETTINGS_BY_KEY or key in NOT_BROKER_SETTINGS, spec.name
    assert not NOT_BROKER_SETTINGS & set(SETTINGS_BY_KEY), "in the table now: take it off NOT_BROKER_SETTINGS"


def test_the_log_managers_broker_keys_are_settings_of_the_table():
    from broker.log.manager import _BROKER_KEYS, NOT_BROKER_SETTINGS

    assert set(_BROKER_KEYS) - NOT_BROKER_SETTINGS <= set(SETTINGS_BY_KEY)
    assert not NOT_BROKER_SETTINGS & set(SETTINGS_BY_KEY), "in the table now: take it off NOT_BROKER_SETTINGS"
    assert NOT_BROKER_SETTINGS <= set(_BROKER_KEYS)


def test_built_from_a_config_with_every_value_typed():
    config = load_config(overrides=["group.share.max.size=7", "transaction.version=1"], environ={})
    for cls in _classes():
        built = cls.of(config)
        for f in dataclasses.fields(cls):
            assert getattr(built, f.name) == config.get(setting_key(f))
    assert services.GroupCoordinatorSettings.of(config).share_max_size == 7
    assert services.TxnSettings.of(config).version == 1


def test_a_misspelt_key_fails_where_the_object_is_defined():
    with pytest.raises(KeyError, match=r"group\.share\.max\.sizes"):
        services.key("group.share.max.sizes")


def test_a_live_view_follows_dynamic_changes_and_the_overlay():
    config = load_config(environ={})
    live = LiveConfig(config)
    view = live.view(services.ShareManagerSettings)
    assert view().dlq_topic_name_prefix == "dlq."
    assert view() is view()  # built once per change
    live.update(config.with_dynamic({"errors.deadletterqueue.topic.name.prefix": "dead."}))
    assert view().dlq_topic_name_prefix == "dead."
    levels = {"share.version": 1}
    live.set_overlay(lambda configured: lambda key: levels[key] if key in levels else configured(key))
    assert view().share_version == 1
    levels["share.version"] = 2
    live.refresh()
    assert view().share_version == 2
    assert view().max_share_sessions == 2000
