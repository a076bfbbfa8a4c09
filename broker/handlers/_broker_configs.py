"""BROKER (4) config resource: this node's settings, and the cluster-wide dynamic defaults."""

from __future__ import annotations

from dataclasses import replace

from broker.config import SETTINGS_BY_KEY, ConfigEntry, ConfigError, ConfigSource, ConfigType
from broker.handlers._configs import AlterOp, ResourceType, register_config_resource
from broker.handlers.context import Services
from broker.protocol.errors import ErrorCode, KafkaError


def broker_resource_is_node(name: str, node_id: int, *, describing: bool) -> bool:
    """Check a BROKER resource name: True for this node, False for "" (the cluster
    default). Kafka words the errors differently for describing and altering."""
    if not name:
        return False
    try:
        requested = int(name)
    except ValueError:
        label = "Broker" if describing else "Node"
        raise KafkaError(ErrorCode.INVALID_REQUEST, f"{label} id must be an integer, but it is: {name}") from None
    if requested != node_id:
        expected = f"{node_id} or empty string" if describing else f"{node_id}"
        raise KafkaError(ErrorCode.INVALID_REQUEST, f"Unexpected broker id, expected {expected}, but received {name}")
    return True


def _from_own_name(row: ConfigEntry) -> ConfigEntry:
    """Kafka lists a config's synonyms from the first one carrying the config's own
    name (``log.retention.ms`` unset lists none, not ``log.retention.hours``)."""
    chain = list(row.synonyms)
    while chain and chain[0].name != row.name:
        chain.pop(0)
    return row if len(chain) == len(row.synonyms) else replace(row, synonyms=tuple(chain))


class BrokerConfigs:
    """BROKER (4): "<node id>" is this node's settings, "" the cluster-wide dynamic defaults."""

    def describe(
        self, services: Services, name: str, keys: list[str] | None, synonyms: bool, documentation: bool
    ) -> list[ConfigEntry]:
        per_node = broker_resource_is_node(name, services.node_id, describing=True)
        rows = [
            _from_own_name(row)
            for row in services.config.current.describe(
                keys, include_synonyms=synonyms or not per_node, include_documentation=documentation
            )
        ]
        if not per_node:
            # The cluster default lists only what is set at that level, with that level's value.
            defaults = []
            for row in rows:
                own = [s for s in row.synonyms if s.source == ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG]
                if any(s.name == row.name for s in own):
                    value = next(s.value for s in own if s.name == row.name)
                    defaults.append(
                        replace(
                            row,
                            value=value,
                            source=ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG,
                            synonyms=tuple(own) if synonyms else (),
                        )
                    )
            rows = defaults
        return sorted(rows, key=lambda r: r.name)

    def current(self, services: Services, name: str) -> dict[str, str]:
        per_node = broker_resource_is_node(name, services.node_id, describing=False)
        level = ConfigSource.DYNAMIC_BROKER_CONFIG if per_node else ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG
        out = {}
        for row in services.config.current.describe(None, include_synonyms=True, include_documentation=False):
            for syn in row.synonyms:
                if syn.name == row.name and syn.source == level and syn.value is not None:
                    out[row.name] = syn.value
        return out

    def list_default(self, services: Services, key: str, op: AlterOp) -> str | None:
        s = SETTINGS_BY_KEY.get(key)
        if s is None:
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"Unknown config name: {key}")
        if s.type is not ConfigType.LIST:
            raise KafkaError(
                ErrorCode.INVALID_CONFIG, f"Config value {op.name.lower()} is not allowed for config key: {key}"
            )
        return s.render(s.default)

    async def alter(
        self, services: Services, name: str, set_: dict[str, str], delete: list[str], validate_only: bool
    ) -> None:
        per_node = broker_resource_is_node(name, services.node_id, describing=False)
        for key in set_:
            if key not in SETTINGS_BY_KEY:
                raise KafkaError(ErrorCode.INVALID_CONFIG, f"Unknown config name: {key}")
        static = [key for key in set_ if not SETTINGS_BY_KEY[key].dynamic]
        if static:
            # Kafka answers INVALID_REQUEST for broker configs it cannot apply (KAFKA-13609).
            raise KafkaError(
                ErrorCode.INVALID_REQUEST, f"Cannot update these configs dynamically: Set({', '.join(static)})"
            )
        changes: dict[str, str | None] = {**set_, **dict.fromkeys(delete)}
        try:
            new_config = services.config.current.with_dynamic(changes, cluster_default=not per_node)
        except ConfigError as exc:
            raise KafkaError(ErrorCode.INVALID_REQUEST, str(exc)) from None
        if not validate_only:
            # Topic defaults and group-config bounds follow (see broker.server.app).
            services.config.update(new_config)


register_config_resource(ResourceType.BROKER, BrokerConfigs())
