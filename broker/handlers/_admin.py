"""Shared pieces of the admin handlers (CreateTopics, DeleteTopics, configs ...).

- :func:`topic_name_error`: Kafka's topic-name rules (``Topic.validate``) with
  its wording, so clients see the messages they would see from Kafka.
- Manual replica assignment checks against the registered brokers.
- The config-resource registry :data:`CONFIG_RESOURCES`, the extension point
  shared by DescribeConfigs, AlterConfigs and IncrementalAlterConfigs: one
  :class:`ConfigResource` per resource type. TOPIC (2) and BROKER (4) are
  registered here; the share-group work registers GROUP (32) with
  :func:`register_config_resource` and the three handlers serve it unchanged.
- Authorized-operation bit fields (KIP-430). There are no ACLs on this broker,
  so every operation that applies to a resource is reported as allowed.

Rows of a DescribeConfigs answer are :class:`broker.config.ConfigEntry`, the
type the broker config already describes itself with.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from dataclasses import replace
from enum import IntEnum
from typing import Any, Protocol

from broker.config import SETTINGS_BY_KEY, ConfigEntry, ConfigError, ConfigSource, ConfigSynonym, ConfigType
from broker.handlers.context import Services
from broker.log.config import TOPIC_CONFIGS, resolve_topic_config, validate_topic_configs
from broker.protocol.errors import ErrorCode, KafkaError

# --- errors ----------------------------------------------------------------------------


def setting(services: Any, key: str, default: Any) -> Any:
    """A broker setting, or ``default`` when the config does not know the key."""
    try:
        value = services.config.get(key)
    except (KeyError, AttributeError):
        return default
    return default if value is None else value


# --- topic names and assignments ----------------------------------------------------------

# Kafka's limit (Topic.MAX_NAME_LENGTH): room in a 255-byte file name for "-<partition>".
MAX_TOPIC_NAME_LENGTH = 249
_LEGAL = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")

CLUSTER_METADATA_TOPIC = "__cluster_metadata"
# Kafka's Topic.isInternal set.
INTERNAL_TOPICS = frozenset({"__consumer_offsets", "__transaction_state", "__share_group_state"})


def topic_name_error(name: str) -> str | None:
    """Why ``name`` is not a legal topic name (Kafka's message), or None when it is."""
    if not name:
        reason = "the empty string is not allowed"
    elif name in (".", ".."):
        reason = f"'{name}' is not allowed"
    elif len(name) > MAX_TOPIC_NAME_LENGTH:
        reason = f"the length of '{name}' is longer than the max allowed length {MAX_TOPIC_NAME_LENGTH}"
    elif not _LEGAL.issuperset(name):
        reason = f"'{name}' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'"
    else:
        return None
    return f"Topic name is invalid: {reason}"


def colliding_topic(name: str, existing: Iterable[str]) -> str | None:
    """An existing topic whose name differs from ``name`` only by '.' versus '_'
    (Kafka refuses such pairs: their metric names would be the same)."""
    if "." not in name and "_" not in name:
        return None
    unified = name.replace(".", "_")
    for other in existing:
        if other != name and other.replace(".", "_") == unified:
            return other
    return None


def manual_assignment_error(
    replicas: list[int], registered: Iterable[int], replication_factor: int | None
) -> str | None:
    """Why a manual replica assignment cannot be placed (Kafka's messages), or None."""
    if not replicas:
        return "The manual partition assignment includes an empty replica list."
    known = frozenset(registered)
    previous = None
    for broker_id in sorted(replicas):
        if broker_id not in known:
            return f"The manual partition assignment includes broker {broker_id}, but no such broker is registered."
        if broker_id == previous:
            return f"The manual partition assignment includes the broker {broker_id} more than once."
        previous = broker_id
    if replication_factor is not None and len(replicas) != replication_factor:
        return (
            f"The manual partition assignment includes a partition with {len(replicas)} replica(s), "
            f"but this is not consistent with previous partitions, which have {replication_factor} replica(s)."
        )
    return None


# --- authorized operations (KIP-430) ---------------------------------------------------

# AclOperation codes.
READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE = 3, 4, 5, 6, 7, 8
CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE = 9, 10, 11, 12

# Kafka's AclEntry.supportedOperations per resource type (Kafka answers 8096 for the cluster).
CLUSTER_OPERATIONS = sum(
    1 << op for op in (CREATE, CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE, ALTER, DESCRIBE)
)
TOPIC_OPERATIONS = sum(
    1 << op for op in (READ, WRITE, CREATE, DESCRIBE, DELETE, ALTER, DESCRIBE_CONFIGS, ALTER_CONFIGS)
)
# The schema default: "authorized operations were not asked for".
OPERATIONS_OMITTED = -(2**31)


# --- config resources --------------------------------------------------------------------


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


# --- TOPIC ---------------------------------------------------------------------------------

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

    def _check_name(self, name: str) -> None:
        problem = topic_name_error(name)
        if problem is not None:
            raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, problem)

    def describe(
        self, services: Services, name: str, keys: list[str] | None, synonyms: bool, documentation: bool
    ) -> list[ConfigEntry]:
        self._check_name(name)
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
        self._check_name(name)
        try:
            validate_topic_configs(set_)
            if services.metadata.image.topic(name) is None:
                raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"The topic '{name}' does not exist.")
            await services.metadata.alter_topic_configs(name, set_, delete, validate_only=validate_only)
        except KafkaError as exc:
            raise KafkaError(exc.code, exc.detail) from None


# --- BROKER ----------------------------------------------------------------------------------


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
                        ConfigEntry(
                            name=row.name,
                            value=value,
                            source=ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG,
                            read_only=row.read_only,
                            sensitive=row.sensitive,
                            type=row.type,
                            documentation=row.documentation,
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


register_config_resource(ResourceType.TOPIC, TopicConfigs())
register_config_resource(ResourceType.BROKER, BrokerConfigs())


# --- AlterConfigs / IncrementalAlterConfigs ---------------------------------------------------


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
