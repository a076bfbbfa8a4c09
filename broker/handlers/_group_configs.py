"""GROUP (32) config resource: DescribeConfigs, AlterConfigs and
IncrementalAlterConfigs on group configs, served from the broker's
:class:`broker.metadata.group_configs.GroupConfigStore` (``services.group_configs``).

Importing this module registers the resource with
:func:`broker.handlers._configs.register_config_resource`;
:mod:`broker.handlers._config_resources` imports it, so every config handler
serves GROUP. Codes and messages are the
store's (Kafka 4.2.2's); see :mod:`broker.metadata.group_configs`.
"""

from __future__ import annotations

from broker.config import ConfigEntry
from broker.handlers._configs import AlterOp, ResourceType, register_config_resource
from broker.handlers.context import Services
from broker.metadata.group_configs import DELETE, SET, GroupConfigStore
from broker.protocol.errors import ErrorCode, KafkaError


def _store(services: Services) -> GroupConfigStore:
    return services.group_configs


class GroupConfigs:
    """GROUP (32): any non-empty group id, existing or not."""

    def describe(
        self, services: Services, name: str, keys: list[str] | None, synonyms: bool, documentation: bool
    ) -> list[ConfigEntry]:
        try:
            return _store(services).describe(name, keys)
        except KafkaError as exc:
            raise KafkaError(exc.code, exc.message) from None

    def current(self, services: Services, name: str) -> dict[str, str]:
        return _store(services).overrides(name)

    def list_default(self, services: Services, key: str, op: AlterOp) -> str | None:
        raise KafkaError(ErrorCode.INVALID_CONFIG, f"Can't {op.name} to key {key} because its type is not LIST.")

    async def alter(
        self, services: Services, name: str, set_: dict[str, str], delete: list[str], validate_only: bool
    ) -> None:
        ops = [(key, SET, value) for key, value in set_.items()] + [(key, DELETE, None) for key in delete]
        error = await _store(services).alter_shared(name, ops, validate_only)
        if error is not None:
            raise KafkaError(error.code, error.message)


register_config_resource(ResourceType.GROUP, GroupConfigs())
