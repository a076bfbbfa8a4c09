"""GROUP (32) config resource: DescribeConfigs, AlterConfigs and
IncrementalAlterConfigs on group configs, served from the broker's
:class:`broker.group.configs.GroupConfigStore` (``broker.group_configs``).

Importing this module registers the resource with
:func:`broker.handlers._admin.register_config_resource`; ``_admin`` imports it
at its end, so every config handler serves GROUP. Codes and messages are the
store's (Kafka 4.2.2's); see :mod:`broker.group.configs`.
"""

from __future__ import annotations

from typing import Any

from broker.config import ConfigEntry
from broker.group.configs import DELETE, SET, GroupConfigStore
from broker.handlers._admin import AlterOp, ResourceType, register_config_resource
from broker.protocol.errors import ErrorCode, KafkaError


def _store(broker: Any) -> GroupConfigStore:
    store: GroupConfigStore = broker.group_configs
    # Dynamic BROKER changes replace broker.config; defaults and bounds follow it.
    store.config = broker.config
    return store


class GroupConfigs:
    """GROUP (32): any non-empty group id, existing or not."""

    def describe(
        self, broker: Any, name: str, keys: list[str] | None, synonyms: bool, documentation: bool
    ) -> list[ConfigEntry]:
        try:
            return _store(broker).describe(name, keys)
        except KafkaError as exc:
            raise KafkaError(exc.code, exc.message) from None

    def current(self, broker: Any, name: str) -> dict[str, str]:
        return _store(broker).overrides(name)

    def list_default(self, broker: Any, key: str, op: AlterOp) -> str | None:
        raise KafkaError(ErrorCode.INVALID_CONFIG, f"Can't {op.name} to key {key} because its type is not LIST.")

    def alter(self, broker: Any, name: str, set_: dict[str, str], delete: list[str], validate_only: bool) -> None:
        ops = [(key, SET, value) for key, value in set_.items()] + [(key, DELETE, None) for key in delete]
        error = _store(broker).alter(name, ops, validate_only)
        if error is not None:
            raise KafkaError(error.code, error.message)


register_config_resource(ResourceType.GROUP, GroupConfigs())
