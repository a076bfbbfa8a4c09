"""TOPIC (2) config resource: a topic's overrides over the broker's ``log.*`` defaults."""

from __future__ import annotations

from typing import Any

from broker.config import SETTINGS_BY_KEY, ConfigEntry, ConfigSource, ConfigSynonym, ConfigType
from broker.handlers._configs import AlterOp, ResourceType, register_config_resource
from broker.handlers._topics import validate_topic_name
from broker.handlers.context import Services
from broker.log.config import TOPIC_CONFIGS, resolve_topic_config, validate_topic_configs
from broker.protocol.errors import ErrorCode, KafkaError

_TOPIC_TYPES = {
    "boolean": ConfigType.BOOLEAN,
    "string": ConfigType.STRING,
    "int": ConfigType.INT,
    "long": ConfigType.LONG,
    "double": ConfigType.DOUBLE,
    "list": ConfigType.LIST,
}


def topic_config_type(key: str) -> int:
    return _TOPIC_TYPES.get(TOPIC_CONFIGS[key].type, 0)


def effective_topic_configs(
    logs: Any, name: str, overrides: dict[str, str] | None = None
) -> dict[str, tuple[str, int]]:
    """key -> (value, source) of every topic config of ``name``.

    ``overrides`` describes a topic that is not created (CreateTopics with
    validate_only) from the overrides it would get.
    """
    if overrides is None:
        return logs.effective_topic_config(name)
    # The log layer resolves only existing topics; resolve the same way here,
    # from its broker-level defaults and their sources.
    broker_values = logs.broker_defaults
    broker_sources = logs.broker_default_sources
    out: dict[str, tuple[str, int]] = {}
    for key in TOPIC_CONFIGS:
        _, text, source, broker_key = resolve_topic_config(key, broker_values, overrides)
        if broker_key is not None:
            source = broker_sources.get(broker_key, ConfigSource.STATIC_BROKER_CONFIG)
        if TOPIC_CONFIGS[key].type == "list":
            text = ",".join(item.strip() for item in text.split(",") if item.strip())
        out[key] = (text, int(source))
    return out


def _broker_synonyms(services: Services, key: str) -> list[ConfigSynonym]:
    """The broker-level synonyms of topic config ``key``, as Kafka lists them: the
    chain of its first broker key, starting where that key itself appears."""
    if not TOPIC_CONFIGS[key].synonyms:
        return []
    broker_key = TOPIC_CONFIGS[key].synonyms[0][0]
    if broker_key not in SETTINGS_BY_KEY:
        # A broker key this broker does not take: only its default applies.
        return [ConfigSynonym(broker_key, TOPIC_CONFIGS[key].default, ConfigSource.DEFAULT_CONFIG)]
    chain = list(
        services.config.current.describe([broker_key], include_synonyms=True, include_documentation=False)[0].synonyms
    )
    while chain and chain[0].name != broker_key:
        chain.pop(0)
    return chain


class TopicConfigs:
    """TOPIC (2): the topic's overrides over the broker's log.* defaults."""

    def describe(
        self, services: Services, name: str, keys: list[str] | None, synonyms: bool, documentation: bool
    ) -> list[ConfigEntry]:
        validate_topic_name(name)
        info = services.metadata.image.topic(name)
        if info is None:
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        effective = effective_topic_configs(services.logs, name)
        rows = []
        for key in sorted(effective if keys is None else set(keys) & effective.keys()):
            value, source = effective[key]
            chain: list[ConfigSynonym] = []
            if synonyms:
                if key in info.configs:
                    chain.append(ConfigSynonym(key, value, ConfigSource.TOPIC_CONFIG))
                chain += _broker_synonyms(services, key)
            rows.append(
                ConfigEntry(
                    name=key,
                    value=value,
                    source=ConfigSource(source),
                    read_only=False,
                    sensitive=False,
                    type=topic_config_type(key),  # type: ignore[arg-type]
                    documentation=None,
                    synonyms=tuple(chain),
                )
            )
        return rows

    def current(self, services: Services, name: str) -> dict[str, str]:
        info = services.metadata.image.topic(name)
        return dict(info.configs) if info is not None else {}

    def list_default(self, services: Services, key: str, op: AlterOp) -> str | None:
        d = TOPIC_CONFIGS.get(key)
        if d is None or d.type != "list":
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"Can't {op.name} to key {key} because its type is not LIST.")
        return d.default

    async def alter(
        self, services: Services, name: str, set_: dict[str, str], delete: list[str], validate_only: bool
    ) -> None:
        if not name:
            raise KafkaError(ErrorCode.INVALID_REQUEST, "Default topic resources are not allowed.")
        validate_topic_name(name)
        try:
            validate_topic_configs(set_)
            if services.metadata.image.topic(name) is None:
                raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"The topic '{name}' does not exist.")
            await services.metadata.alter_topic_configs(name, set_, delete, validate_only=validate_only)
        except KafkaError as exc:
            raise KafkaError(exc.code, exc.detail) from None


register_config_resource(ResourceType.TOPIC, TopicConfigs())
