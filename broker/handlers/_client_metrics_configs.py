"""CLIENT_METRICS (16) config resource: DescribeConfigs, AlterConfigs and
IncrementalAlterConfigs on client metrics subscriptions (KIP-714), served from
:class:`broker.metadata.client_metrics.ClientMetricsStore` (``services.client_metrics``).

Importing this module registers the resource. As in Kafka (ConfigHelper,
ClientMetricsConfigs): DescribeConfigs lists only the keys the subscription sets,
with source CLIENT_METRICS_CONFIG (an unknown subscription has none); an empty
name is INVALID_REQUEST; unknown keys and bad intervals INVALID_REQUEST, bad
match patterns INVALID_CONFIG.
"""

from __future__ import annotations

from broker.config import ConfigEntry, ConfigSource, ConfigType
from broker.handlers._configs import AlterOp, ResourceType, register_config_resource
from broker.handlers.context import Services
from broker.metadata.client_metrics import CONFIG_KEYS, INTERVAL_MS, ClientMetricsStore
from broker.protocol.errors import ErrorCode, KafkaError


def _store(services: Services) -> ClientMetricsStore:
    store = services.client_metrics
    if store is None:
        raise KafkaError(ErrorCode.INVALID_REQUEST, "Unsupported resource type: CLIENT_METRICS")
    return store


def _check_name(name: str) -> None:
    if not name:
        raise KafkaError(ErrorCode.INVALID_REQUEST, "Client metrics subscription name must not be empty")


class ClientMetricsConfigs:
    def describe(
        self, services: Services, name: str, keys: list[str] | None, synonyms: bool, documentation: bool
    ) -> list[ConfigEntry]:
        _check_name(name)
        configs = _store(services).configs(name)
        return [
            ConfigEntry(
                name=key,
                value=value,
                source=ConfigSource.CLIENT_METRICS_CONFIG,
                read_only=False,
                sensitive=False,
                type=ConfigType.INT if key == INTERVAL_MS else ConfigType.LIST,
                documentation=None,
            )
            for key, value in sorted(configs.items())
            if keys is None or key in keys
        ]

    def current(self, services: Services, name: str) -> dict[str, str]:
        return _store(services).configs(name)

    def list_default(self, services: Services, key: str, op: AlterOp) -> str | None:
        if key not in CONFIG_KEYS or key == INTERVAL_MS:
            raise KafkaError(ErrorCode.INVALID_CONFIG, f"Can't {op.name} to key {key} because its type is not LIST.")
        return ""

    async def alter(
        self, services: Services, name: str, set_: dict[str, str], delete: list[str], validate_only: bool
    ) -> None:
        _check_name(name)
        await _store(services).alter(name, set_, delete, validate_only)


register_config_resource(ResourceType.CLIENT_METRICS, ClientMetricsConfigs())
