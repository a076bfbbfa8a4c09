"""The config resources of DescribeConfigs, AlterConfigs and IncrementalAlterConfigs.

:data:`CONFIG_RESOURCES` is the registry shared by the three handlers: one
:class:`ConfigResource` per resource type (TOPIC, BROKER, CLIENT_METRICS, GROUP;
see :mod:`broker.handlers._config_resources`), plus the checks and the
IncrementalAlterConfigs arithmetic they share. Rows of a DescribeConfigs answer
are :class:`broker.config.ConfigEntry`, the type the broker config already
describes itself with.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Iterable
from enum import IntEnum
from typing import Any, Protocol, TypeVar

from broker.config import ConfigEntry
from broker.config.services import Settings
from broker.handlers.context import Services
from broker.protocol.errors import ErrorCode, KafkaError


def broker_settings(services: Services | None, cls: type[S]) -> S:
    """The typed broker settings ``cls`` in force: from the services' live config, or
    the table's defaults while the broker starts (no services yet)."""
    return cls() if services is None else services.config.settings(cls)


S = TypeVar("S", bound=Settings)
R = TypeVar("R")


class ResourceType(IntEnum):
    """ConfigResource.Type ids; any other id is UNKNOWN to Kafka."""

    TOPIC = 2
    BROKER = 4
    BROKER_LOGGER = 8
    CLIENT_METRICS = 16
    GROUP = 32


class AlterOp(IntEnum):
    """IncrementalAlterConfigs operations (AlterConfigOp.OpType)."""

    SET = 0
    DELETE = 1
    APPEND = 2
    SUBTRACT = 3


def resource_label(resource_type: int) -> str:
    try:
        return ResourceType(resource_type).name
    except ValueError:
        return "UNKNOWN"


class ConfigResource(Protocol):
    """What DescribeConfigs / AlterConfigs / IncrementalAlterConfigs need of a resource type.

    Every method raises :class:`KafkaError` for a bad or unknown resource name,
    an unknown key or a bad value, with the code and message Kafka uses.
    """

    def describe(
        self, services: Services, name: str, keys: list[str] | None, synonyms: bool, documentation: bool
    ) -> list[ConfigEntry]:
        """The resource's configs (every one when ``keys`` is None), sorted by name."""
        ...

    def current(self, services: Services, name: str) -> dict[str, str]:
        """The values set on the resource itself: what AlterConfigs replaces and
        what APPEND / SUBTRACT start from."""
        ...

    def list_default(self, services: Services, key: str, op: AlterOp) -> str | None:
        """The default of a LIST config (the base of APPEND / SUBTRACT when the
        resource does not set it); INVALID_CONFIG when ``key`` is not a list."""
        ...

    async def alter(
        self, services: Services, name: str, set_: dict[str, str], delete: list[str], validate_only: bool
    ) -> None:
        """Set and remove values on the resource, all or nothing."""
        ...


CONFIG_RESOURCES: dict[int, ConfigResource] = {}


async def apply_alter(
    impl: ConfigResource, services: Services, name: str, set_: dict[str, str], delete: list[str], validate_only: bool
) -> None:
    """Run ``impl.alter``; a registered resource may implement it plainly or as a coroutine."""
    result = impl.alter(services, name, set_, delete, validate_only)
    if inspect.isawaitable(result):
        await result


def register_config_resource(resource_type: int, impl: ConfigResource) -> None:
    """Serve configs of ``resource_type`` (e.g. GROUP, 32) through ``impl``."""
    CONFIG_RESOURCES[resource_type] = impl


def config_resource(resource_type: int) -> ConfigResource:
    """The registered implementation, else INVALID_REQUEST naming the type."""
    impl = CONFIG_RESOURCES.get(resource_type)
    if impl is None:
        raise KafkaError(ErrorCode.INVALID_REQUEST, f"Unsupported resource type: {resource_label(resource_type)}")
    return impl


def split_list(value: str | None) -> list[str]:
    """A LIST config value as its items (empty items dropped, as Kafka does)."""
    return [item for item in value.split(",") if item] if value else []


def incremental_changes(
    impl: ConfigResource, services: Services, name: str, ops: list[tuple[str, int, str | None]]
) -> tuple[dict[str, str], list[str]]:
    """Turn IncrementalAlterConfigs operations into (set, delete) for ``impl.alter``.

    APPEND adds the items not present yet; SUBTRACT removes the given items;
    both start from the resource's own value, else the config's default.
    Deleting a key the resource does not set changes nothing (Kafka answers
    success, even for a key it does not know).
    """
    current = impl.current(services, name)
    set_: dict[str, str] = {}
    delete: list[str] = []
    for key, op, value in ops:
        if op == AlterOp.SET:
            set_[key] = value or ""
        elif op == AlterOp.DELETE:
            if key in current:
                delete.append(key)
        elif op in (AlterOp.APPEND, AlterOp.SUBTRACT):
            base = current[key] if key in current else impl.list_default(services, key, AlterOp(op))
            items = split_list(base)
            given = (value or "").split(",")
            if op == AlterOp.APPEND:
                items += [item for item in given if item not in items]
            else:
                items = [item for item in items if item not in given]
            set_[key] = ",".join(items)
        else:
            raise KafkaError(ErrorCode.INVALID_REQUEST, f"Unknown operations type {op}")
    return set_, delete


def resource_problems(resources: list[Any], *, null_ok: Any, known_types: Iterable[int]) -> list[KafkaError | None]:
    """The checks Kafka's broker makes before a config change (ConfigAdminManager.preprocess).

    For each resource, in request order: the error that refuses it, or None.
    A resource named twice refuses both; then duplicate keys, null values (except
    where ``null_ok(config)``) and resource types outside ``known_types``.
    """
    seen: dict[tuple[int, str], int] = {}
    for res in resources:
        key = (res.resource_type, res.resource_name)
        seen[key] = seen.get(key, 0) + 1
    problems: list[KafkaError | None] = []
    for res in resources:
        if seen[(res.resource_type, res.resource_name)] > 1:
            problems.append(KafkaError(ErrorCode.INVALID_REQUEST, "Each resource must appear at most once."))
            continue
        names = [c.name for c in res.configs]
        if len(set(names)) != len(names):
            problems.append(KafkaError(ErrorCode.INVALID_REQUEST, "Error due to duplicate config keys"))
            continue
        nulls = [c.name for c in res.configs if c.value is None and not null_ok(c)]
        if nulls:
            problems.append(KafkaError(ErrorCode.INVALID_REQUEST, f"Null value not supported for : {', '.join(nulls)}"))
            continue
        if res.resource_type not in known_types:
            problems.append(KafkaError(ErrorCode.INVALID_REQUEST, f"Unknown resource type {res.resource_type}"))
            continue
        problems.append(None)
    return problems


async def alter_resources(
    resources: list[Any],
    *,
    null_ok: Any,
    known_types: Iterable[int],
    alter: Callable[[Any], Awaitable[None]],
    answer: Callable[..., R],
) -> list[R]:
    """AlterConfigs and IncrementalAlterConfigs alike: each resource, in request order,
    refused for its :func:`resource_problems` or else ``await alter(resource)``; one
    ``answer(error_code=, error_message=, resource_type=, resource_name=)`` each."""
    out = []
    for res, problem in zip(resources, resource_problems(resources, null_ok=null_ok, known_types=known_types)):
        try:
            if problem is not None:
                raise problem
            await alter(res)
        except KafkaError as exc:
            code, message = exc.code, exc.message
        else:
            code, message = ErrorCode.NONE, None
        out.append(
            answer(
                error_code=code, error_message=message, resource_type=res.resource_type, resource_name=res.resource_name
            )
        )
    return out
