"""Group-level configs (config resource GROUP, 32): per-group overrides of the
group coordinator's defaults, kept durably in ``<data dir>/group-configs.json``.

Clients set them with IncrementalAlterConfigs (librdkafka's share-consumer
fixtures set ``share.auto.offset.reset`` and ``share.isolation.level`` this way,
before the group exists) and read them with DescribeConfigs. What Kafka 4.4.0
answers (checked on the reference peer), and what this store reproduces:

- The keys are Kafka 4.4's GroupConfig keys (:data:`GROUP_CONFIG_KEYS`), among
  them KIP-1240's per-group ``share.delivery.count.limit``,
  ``share.partition.max.record.locks`` and ``share.renew.acknowledge.enable``,
  ``share.assignment.interval.ms``, and KIP-1191's
  ``errors.deadletterqueue.topic.name`` / ``errors.deadletterqueue.copy.record.enable``.
  Kafka's internal keys (``*.assignor.offload.enable`` and a few streams keys)
  are accepted but listed by DescribeConfigs only once a group sets them.
- Any group id except "" may carry configs, whether or not a group of that name
  exists; describing a group without overrides lists every key with its
  default. "" is refused: INVALID_REQUEST, "Group name must not be empty"
  (describe) or "Default group resources are not allowed." (alter).
- A described value is the group's override (source GROUP_CONFIG, 8) or else
  the broker's default for it (DEFAULT_CONFIG, 5), e.g. ``share.session.timeout.ms``
  falls back to ``group.share.session.timeout.ms``. Each row carries exactly one
  synonym: itself, with the same value and source.
- Unknown keys: INVALID_CONFIG "Unknown group config name: <key>". Bad values:
  INVALID_CONFIG "Invalid value <v> for configuration <key>: <why>". Values
  outside the broker's bounds: "<key> must be in the range <min> to <max>
  inclusive." (or "... must be less than or equal to <max>" / "greater than or
  equal to <min>" where the broker bounds only one side), checked in Kafka's
  order, then "<session> must be greater than <heartbeat>", then a dead-letter
  topic name starting with "__". Values are trimmed and stored in canonical form
  (" +2000 " is stored as "2000").
- An override the broker's bounds no longer allow (they changed later) takes
  effect capped to them (:meth:`GroupConfigStore.share_settings`), as Kafka 4.4 does.
- ``share.auto.offset.reset``: ``latest``, ``earliest`` or
  ``by_duration:<ISO-8601 duration>`` parsed as ``java.time.Duration`` does
  (PnDTnHnMn.nS, no years, months or weeks; negative durations refused).
- DELETE of a key the group does not set (even an unknown key) succeeds and
  changes nothing. APPEND / SUBTRACT fail: no group config is a list.
- Kafka keeps a group's configs when the group is deleted (checked on the
  reference peer with a classic group); :meth:`GroupConfigStore.delete_group`
  exists for callers that want them dropped.

Beyond Kafka 4.4, the store serves this broker's extensions (:data:`EXTENSION_KEYS`,
all off by default): ``group.type`` (consumer | share, pins the type a group of
that name may be created as), the redelivery backoff
(``share.redelivery.backoff.ms``, ``.multiplier``, ``.max.ms``) and per-key
ordering (``share.key.ordering.enable``). ``kafka_only=True`` serves exactly
Kafka 4.4's set instead.

The file is rewritten whole on every change: temp file, fsync, rename, fsync of
the directory. A change is acknowledged only once it is durable; if the write
fails, nothing changes in memory either.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import structlog

from broker.config import ConfigEntry, ConfigSource, ConfigSynonym, ConfigType
from broker.metadata.group_config_keys import EXTENSION_KEYS, GROUP_CONFIG_KEYS, GroupConfigKey
from broker.protocol.errors import ErrorCode, KafkaError

__all__ = [
    "EXTENSION_KEYS",
    "FILE_NAME",
    "GROUP_CONFIG_KEYS",
    "GroupConfigKey",
    "GroupConfigStore",
    "ShareGroupSettings",
    "parse_auto_offset_reset",
    "parse_iso_duration_ns",
]

log = structlog.get_logger("sharebroker.group_configs")

FILE_NAME = "group-configs.json"
_FORMAT_VERSION = 1

INT_MIN, INT_MAX = -(2**31), 2**31 - 1
LONG_MIN, LONG_MAX = -(2**63), 2**63 - 1
_NS_PER_S = 1_000_000_000

# IncrementalAlterConfigs operations (AlterConfigOp.OpType).
SET, DELETE, APPEND, SUBTRACT = 0, 1, 2, 3

# Java's String.trim(): every char up to and including the space.
_JAVA_BLANKS = "".join(map(chr, range(33)))


# --- value parsing --------------------------------------------------------------------------

_DURATION = re.compile(
    r"([-+]?)P(?:([-+]?[0-9]+)D)?(T(?:([-+]?[0-9]+)H)?(?:([-+]?[0-9]+)M)?(?:([-+]?[0-9]+)(?:[.,]([0-9]{0,9}))?S)?)?",
    re.IGNORECASE,
)


def _exact(value: int) -> int:
    """``value`` if it fits in a Java long, else OverflowError (Math.*Exact)."""
    if not LONG_MIN <= value <= LONG_MAX:
        raise OverflowError
    return value


def parse_iso_duration_ns(text: str) -> int | None:
    """An ISO-8601 duration (PnDTnHnMn.nS) in nanoseconds, or None when
    ``java.time.Duration.parse`` would refuse it (bad form or overflow).

    Follows Java exactly: letters in any case, signs on the whole and on each
    part, at most nine fraction digits after '.' or ',', no Y/M(onth)/W units, a
    'T' (upper case) must be followed by a time part, and every intermediate
    value must fit in a signed 64-bit count of seconds.
    """
    m = _DURATION.fullmatch(text)
    if m is None or m.group(3) == "T":
        return None
    sign, days, hours, minutes, seconds, fraction = m.group(1, 2, 4, 5, 6, 7)
    if days is None and hours is None and minutes is None and seconds is None:
        return None

    def part(digits: str | None, unit: int) -> int:
        return 0 if digits is None else _exact(_exact(int(digits)) * unit)

    try:
        total = _exact(part(days, 86_400) + _exact(part(hours, 3_600) + _exact(part(minutes, 60) + part(seconds, 1))))
        nanos = int(fraction.ljust(9, "0")) if fraction else 0
        if seconds is not None and seconds.startswith("-"):
            nanos = -nanos
        whole = _exact(total + nanos // _NS_PER_S)
        value = whole * _NS_PER_S + nanos % _NS_PER_S
        if sign == "-":
            value = -value
            _exact(value // _NS_PER_S)
    except OverflowError:
        return None
    return value


AutoOffsetReset = str | tuple[str, int]


def parse_auto_offset_reset(text: str) -> AutoOffsetReset | None:
    """``share.auto.offset.reset`` as the share runtime uses it: "latest",
    "earliest" or ("by_duration", milliseconds); None when Kafka refuses it."""
    if text in ("latest", "earliest"):
        return text
    if text.startswith("by_duration:"):
        ns = parse_iso_duration_ns(text[len("by_duration:") :])
        if ns is not None and ns >= 0:
            return ("by_duration", ns // 1_000_000)
    return None


# Kafka checks the broker bounds in this order (not the definition order).
_BOUND_ORDER = (
    "consumer.heartbeat.interval.ms",
    "consumer.session.timeout.ms",
    "consumer.assignment.interval.ms",
    "share.heartbeat.interval.ms",
    "share.session.timeout.ms",
    "share.record.lock.duration.ms",
    "share.delivery.count.limit",
    "share.partition.max.record.locks",
    "share.assignment.interval.ms",
    "streams.heartbeat.interval.ms",
    "streams.session.timeout.ms",
    "streams.num.standby.replicas",
    "streams.assignment.interval.ms",
    "streams.task.offset.interval.ms",
    "streams.num.warmup.replicas",
)
# (session, heartbeat): the session timeout must be greater than the interval.
_SESSION_PAIRS = (
    ("consumer.session.timeout.ms", "consumer.heartbeat.interval.ms"),
    ("share.session.timeout.ms", "share.heartbeat.interval.ms"),
    ("streams.session.timeout.ms", "streams.heartbeat.interval.ms"),
)

_AUTO_OFFSET_RESET_RULE = "The value must be either 'earliest', 'latest' or of the format 'by_duration:<PnDTnHnMn.nS>'."
_DOUBLE = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?[dDfF]?")


def _invalid(key: str, value: Any, why: str) -> KafkaError:
    return KafkaError(ErrorCode.INVALID_CONFIG, f"Invalid value {value} for configuration {key}: {why}")


def _parse(spec: GroupConfigKey, raw: str) -> Any:
    """Typed value of ``raw`` as Kafka's ConfigDef parses it, or KafkaError.

    Kafka trims the text first; a type error quotes the raw text, a validator
    error the trimmed (parsed) value.
    """
    text = raw.strip(_JAVA_BLANKS)
    value: Any
    if spec.type in (ConfigType.INT, ConfigType.LONG):
        lo, hi = (INT_MIN, INT_MAX) if spec.type is ConfigType.INT else (LONG_MIN, LONG_MAX)
        if not re.fullmatch(r"[+-]?[0-9]+", text) or not lo <= int(text) <= hi:
            raise _invalid(spec.name, raw, f"Not a number of type {spec.type.name}")
        value = int(text)
    elif spec.type is ConfigType.DOUBLE:
        if not _DOUBLE.fullmatch(text):
            raise _invalid(spec.name, raw, "Not a number of type DOUBLE")
        value = float(text.rstrip("dDfF"))
    elif spec.type is ConfigType.BOOLEAN:
        if text.lower() not in ("true", "false"):
            raise _invalid(spec.name, raw, "Expected value to be either true or false")
        return text.lower() == "true"
    else:
        if spec.choices is not None and text not in spec.choices:
            raise _invalid(spec.name, text, f"String must be one of: {', '.join(spec.choices)}")
        if spec.name == "share.auto.offset.reset" and parse_auto_offset_reset(text) is None:
            raise _invalid(
                spec.name, text, f"Invalid value `{text}` for configuration {spec.name}. {_AUTO_OFFSET_RESET_RULE}"
            )
        return text
    if spec.at_least is not None and value < spec.at_least:
        raise _invalid(spec.name, _render(spec, value), f"Value must be at least {_render(spec, spec.at_least)}")
    if spec.at_most is not None and value > spec.at_most:
        raise _invalid(spec.name, _render(spec, value), f"Value must be no more than {_render(spec, spec.at_most)}")
    return value


def _render(spec: GroupConfigKey, value: Any) -> str | None:
    """Kafka's text of a value, None for an unset (None) default."""
    return None if value is None else _text(spec, value)


def _text(spec: GroupConfigKey, value: int | bool | str | float) -> str:
    """Kafka's text of a value :func:`_parse` returned (never None)."""
    if spec.type is ConfigType.BOOLEAN:
        return "true" if value else "false"
    if spec.type is ConfigType.DOUBLE:
        return repr(float(value))  # Java's Double.toString for the values the bounds allow
    return str(value)


# --- what the share runtime reads ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShareGroupSettings:
    """The effective settings of one share group (override, else broker default)."""

    auto_offset_reset: AutoOffsetReset  # "latest" | "earliest" | ("by_duration", ms)
    isolation_level: int  # 0 read_uncommitted, 1 read_committed (IsolationLevel ids)
    lock_duration_ms: int
    delivery_count_limit: int
    max_record_locks: int
    session_timeout_ms: int
    heartbeat_interval_ms: int
    renew_ack_enabled: bool
    assignment_interval_ms: int = 1000
    # KIP-1191: the dead-letter topic ("" none) and whether it gets the record's key and value.
    dlq_topic: str = ""
    dlq_copy_record: bool = False
    # Extensions: redelivery backoff (0 off) and per-key ordering.
    backoff_ms: int = 0
    backoff_multiplier: float = 2.0
    backoff_max_ms: int = 60_000
    key_ordering: bool = False

    def redelivery_delay_ms(self, delivery_count: int) -> int:
        """How long a record that failed its ``delivery_count``-th delivery waits before it is
        offered again: ``backoff_ms * multiplier ** (delivery_count - 1)``, at most ``backoff_max_ms``."""
        if self.backoff_ms <= 0 or delivery_count <= 0:
            return 0
        delay = self.backoff_ms * self.backoff_multiplier ** min(delivery_count - 1, 64)
        return int(min(delay, self.backoff_max_ms))


# Kafka's broker settings behind some group configs' defaults and bounds that this broker's
# settings table does not have: the group config's own default and bounds stand in.
NOT_BROKER_SETTINGS = frozenset(
    {
        "group.streams.task.offset.interval.ms",
        "group.streams.min.task.offset.interval.ms",
        "group.streams.num.warmup.replicas",
        "group.streams.max.warmup.replicas",
        "group.streams.acceptable.recovery.lag",
    }
)

# Every broker setting the group configs take a default or bound from, by name: the key
# table builds these names by Kafka's rule (group.<kind>[.min|.max].<name>), and they are
# named here too so that a setting of the broker's table can be found where it is read.
# Checked against the key table at import.
BROKER_SETTINGS_READ = frozenset(
    {
        "group.consumer.session.timeout.ms",
        "group.consumer.min.session.timeout.ms",
        "group.consumer.max.session.timeout.ms",
        "group.consumer.heartbeat.interval.ms",
        "group.consumer.min.heartbeat.interval.ms",
        "group.consumer.max.heartbeat.interval.ms",
        "group.consumer.assignment.interval.ms",
        "group.consumer.min.assignment.interval.ms",
        "group.consumer.max.assignment.interval.ms",
        "group.consumer.assignor.offload.enable",
        "group.share.session.timeout.ms",
        "group.share.min.session.timeout.ms",
        "group.share.max.session.timeout.ms",
        "group.share.heartbeat.interval.ms",
        "group.share.min.heartbeat.interval.ms",
        "group.share.max.heartbeat.interval.ms",
        "group.share.record.lock.duration.ms",
        "group.share.min.record.lock.duration.ms",
        "group.share.max.record.lock.duration.ms",
        "group.share.delivery.count.limit",
        "group.share.min.delivery.count.limit",
        "group.share.max.delivery.count.limit",
        "group.share.partition.max.record.locks",
        "group.share.min.partition.max.record.locks",
        "group.share.max.partition.max.record.locks",
        "group.share.assignment.interval.ms",
        "group.share.min.assignment.interval.ms",
        "group.share.max.assignment.interval.ms",
        "group.share.assignor.offload.enable",
        "group.streams.session.timeout.ms",
        "group.streams.min.session.timeout.ms",
        "group.streams.max.session.timeout.ms",
        "group.streams.heartbeat.interval.ms",
        "group.streams.min.heartbeat.interval.ms",
        "group.streams.max.heartbeat.interval.ms",
        "group.streams.num.standby.replicas",
        "group.streams.max.standby.replicas",
        "group.streams.initial.rebalance.delay.ms",
        "group.streams.assignment.interval.ms",
        "group.streams.min.assignment.interval.ms",
        "group.streams.max.assignment.interval.ms",
        "group.streams.assignor.offload.enable",
        "group.streams.task.offset.interval.ms",
        "group.streams.min.task.offset.interval.ms",
        "group.streams.num.warmup.replicas",
        "group.streams.max.warmup.replicas",
        "group.streams.rack.aware.assignment.tags",
        "group.streams.acceptable.recovery.lag",
        "group.streams.assignors",
    }
)
assert BROKER_SETTINGS_READ == {
    key
    for spec in GROUP_CONFIG_KEYS + EXTENSION_KEYS
    for key in (spec.broker_default, *(b[0] for b in (spec.broker_min, spec.broker_max) if b is not None))
    if key is not None
}, "BROKER_SETTINGS_READ must name exactly the broker settings the group config keys read"

# --- the store ----------------------------------------------------------------------------------

Listener = Callable[[str, dict[str, str]], None]


class GroupConfigStore:
    """Per-group overrides of the group configs, durable in ``<data_dir>/group-configs.json``.

    ``config`` is the broker config the defaults and bounds come from; the
    admin handlers hand in the current one (``store.config = broker.config``)
    since dynamic BROKER changes replace the broker's config object.
    """

    def __init__(self, data_dir: str | os.PathLike[str], config: Any, *, kafka_only: bool = False) -> None:
        self.data_dir = Path(data_dir)
        self.path = self.data_dir / FILE_NAME
        self.config = config
        specs = GROUP_CONFIG_KEYS if kafka_only else GROUP_CONFIG_KEYS + EXTENSION_KEYS
        self.specs: dict[str, GroupConfigKey] = {s.name: s for s in specs}
        self._groups: dict[str, dict[str, str]] = {}
        self._listeners: list[Listener] = []
        self._settings: dict[str, ShareGroupSettings] = {}
        self._settings_config: Any = None
        # In a cluster: stores a group's new overrides cluster-wide (async, raises
        # KafkaError); None keeps them in this broker's file.
        self.shared: Callable[[str, dict[str, str]], Awaitable[None]] | None = None
        self._load()

    # --- reading ---------------------------------------------------------------------

    @property
    def keys(self) -> tuple[str, ...]:
        """Every key this store serves, in definition order."""
        return tuple(self.specs)

    def groups(self) -> list[str]:
        """Group ids that have at least one override, sorted."""
        return sorted(self._groups)

    def overrides(self, group_id: str) -> dict[str, str]:
        """The values set on the group itself (canonical text), by key."""
        return dict(self._groups.get(group_id, {}))

    def _setting(self, key: str, fallback: Any) -> Any:
        """The broker's value of ``key``, or ``fallback`` when it leaves the key unset or
        is one of :data:`NOT_BROKER_SETTINGS` (any other key the settings table lacks
        raises KeyError: a misspelt key fails, never a quiet fallback)."""
        if key in NOT_BROKER_SETTINGS:
            return fallback
        value = self.config.get(key)
        return fallback if value is None else value

    def default(self, key: str) -> Any:
        """The typed value ``key`` has for a group that does not set it."""
        spec = self.specs[key]
        if spec.broker_default is None:
            return spec.default
        value = self._setting(spec.broker_default, spec.default)
        if key == "streams.assignor.name":
            # The broker names a list of assignors; a group without its own uses the first.
            return value[0] if isinstance(value, list | tuple) and value else spec.default
        return value

    def value(self, group_id: str, key: str) -> Any:
        """The typed effective value of ``key`` for ``group_id``."""
        spec = self.specs[key]
        text = self._groups.get(group_id, {}).get(key)
        return self.default(key) if text is None else _parse(spec, text)

    def group_type(self, group_id: str) -> str | None:
        """The ``group.type`` pin of ``group_id`` ("consumer" | "share"), or None."""
        if "group.type" not in self.specs:
            return None
        return self._groups.get(group_id, {}).get("group.type")

    def describe(self, group_id: str, keys: Iterable[str] | None = None) -> list[ConfigEntry]:
        """DescribeConfigs rows for ``group_id`` (every key when ``keys`` is None;
        unknown keys are skipped), sorted by name. Raises KafkaError for ""."""
        if not group_id:
            raise KafkaError(ErrorCode.INVALID_REQUEST, "Group name must not be empty")
        own = self._groups.get(group_id, {})
        names = self.specs.keys() if keys is None else [k for k in dict.fromkeys(keys) if k in self.specs]
        rows = []
        for name in sorted(names):
            spec = self.specs[name]
            if spec.internal and name not in own:
                continue  # Kafka lists internal group configs only once a group sets them
            value: str | None
            if name in own:
                value, source = own[name], ConfigSource.GROUP_CONFIG
            else:
                value, source = _render(spec, self.default(name)), ConfigSource.DEFAULT_CONFIG
            rows.append(
                ConfigEntry(
                    name=name,
                    value=value,
                    source=source,
                    read_only=False,
                    sensitive=False,
                    type=spec.type,
                    documentation=spec.doc,
                    synonyms=(ConfigSynonym(name, value, source),),
                )
            )
        return rows

    def effective(self, group_id: str, key: str) -> Any:
        """The value ``key`` takes effect with for ``group_id``: the group's override, else
        the broker's default, capped to the broker's current bounds (an override the
        bounds no longer allow is capped, as Kafka 4.4 does)."""
        spec = self.specs[key]
        value = self.value(group_id, key)
        if spec.broker_min is not None:
            value = max(value, self._setting(*spec.broker_min))
        if spec.broker_max is not None:
            value = min(value, self._setting(*spec.broker_max))
        return value

    def share_settings(self, group_id: str) -> ShareGroupSettings:
        """What a share-partition of ``group_id`` runs with.

        As in Kafka 4.4, an override that the broker's bounds no longer allow (they
        changed after it was set) takes effect capped to those bounds.
        """
        if self._settings_config is not self.config:
            self._settings.clear()
            self._settings_config = self.config
        cached = self._settings.get(group_id)
        if cached is not None:
            return cached

        def get(key: str, fallback: Any) -> Any:
            if key not in self.specs:
                return fallback  # an extension key of a kafka_only store
            return self.effective(group_id, key)

        reset = parse_auto_offset_reset(self.value(group_id, "share.auto.offset.reset"))
        settings = ShareGroupSettings(
            auto_offset_reset=reset if reset is not None else "latest",
            isolation_level=1 if self.value(group_id, "share.isolation.level") == "read_committed" else 0,
            lock_duration_ms=get("share.record.lock.duration.ms", 30000),
            delivery_count_limit=get("share.delivery.count.limit", 5),
            max_record_locks=get("share.partition.max.record.locks", 2000),
            session_timeout_ms=get("share.session.timeout.ms", 45000),
            heartbeat_interval_ms=get("share.heartbeat.interval.ms", 5000),
            renew_ack_enabled=bool(get("share.renew.acknowledge.enable", True)),
            assignment_interval_ms=get("share.assignment.interval.ms", 1000),
            dlq_topic=get("errors.deadletterqueue.topic.name", ""),
            dlq_copy_record=bool(get("errors.deadletterqueue.copy.record.enable", False)),
            backoff_ms=get("share.redelivery.backoff.ms", 0),
            backoff_multiplier=float(get("share.redelivery.backoff.multiplier", 2.0)),
            backoff_max_ms=get("share.redelivery.backoff.max.ms", 60_000),
            key_ordering=bool(get("share.key.ordering.enable", False)),
        )
        self._settings[group_id] = settings
        return settings

    # --- changing --------------------------------------------------------------------

    def add_listener(self, fn: Listener) -> None:
        """Call ``fn(group_id, overrides)`` after every durable change of a group
        (e.g. to apply a ``group.type`` pin); ``overrides`` is the new set."""
        self._listeners.append(fn)

    def alter(
        self, group_id: str, ops: Iterable[tuple[str, int, str | None]], validate_only: bool = False
    ) -> KafkaError | None:
        """Apply IncrementalAlterConfigs operations ``(key, op, value)`` (SET 0,
        DELETE 1) to ``group_id``, all or nothing; the error Kafka would answer,
        or None. ``validate_only`` checks everything and changes nothing."""
        canonical = self._prepare(group_id, ops, validate_only)
        if canonical is None or isinstance(canonical, KafkaError):
            return canonical
        groups = dict(self._groups)
        if canonical:
            groups[group_id] = canonical
        else:
            groups.pop(group_id, None)
        try:
            self._write(groups)
        except OSError as exc:
            log.error("group_configs.write_failed", path=str(self.path), error=str(exc))
            return KafkaError(ErrorCode.UNKNOWN_SERVER_ERROR, f"Could not store the group configs: {exc}")
        self._groups = groups
        self._changed(group_id, canonical)
        return None

    async def alter_shared(
        self, group_id: str, ops: Iterable[tuple[str, int, str | None]], validate_only: bool = False
    ) -> KafkaError | None:
        """:meth:`alter`, stored where the cluster keeps group configs when :attr:`shared`
        is set (every broker then applies it through :meth:`apply_shared`)."""
        if self.shared is None:
            return self.alter(group_id, ops, validate_only)
        canonical = self._prepare(group_id, ops, validate_only)
        if canonical is None or isinstance(canonical, KafkaError):
            return canonical
        try:
            await self.shared(group_id, canonical)
        except KafkaError as exc:
            return exc
        return None

    def apply_shared(self, groups: dict[str, dict[str, str]]) -> None:
        """Every group's overrides as the cluster has them now (a cluster member's store
        follows the cluster's metadata instead of its own file)."""
        if groups == self._groups:
            return
        old, self._groups = self._groups, {g: dict(v) for g, v in groups.items()}
        for group_id in set(old) | set(groups):
            if old.get(group_id) != groups.get(group_id):
                self._changed(group_id, dict(groups.get(group_id, {})))

    def _prepare(
        self, group_id: str, ops: Iterable[tuple[str, int, str | None]], validate_only: bool
    ) -> dict[str, str] | KafkaError | None:
        """The group's new canonical set of overrides, the error Kafka would answer, or
        None when there is nothing to store (``validate_only``, or no change)."""
        if not group_id:
            return KafkaError(ErrorCode.INVALID_REQUEST, "Default group resources are not allowed.")
        current = self._groups.get(group_id, {})
        new = dict(current)
        for key, op, value in ops:
            if op == SET:
                if value is None:
                    return KafkaError(ErrorCode.INVALID_REQUEST, f"Null value not supported for : {key}")
                new[key] = value
            elif op == DELETE:
                new.pop(key, None)
            elif op in (APPEND, SUBTRACT):
                verb = "APPEND" if op == APPEND else "SUBTRACT"
                return KafkaError(ErrorCode.INVALID_CONFIG, f"Can't {verb} to key {key} because its type is not LIST.")
            else:
                return KafkaError(ErrorCode.INVALID_REQUEST, f"Unknown operations type {op}")
        try:
            canonical = self._validate(new)
        except KafkaError as exc:
            return exc
        return None if validate_only or canonical == current else canonical

    def delete_group(self, group_id: str) -> bool:
        """Drop every override of ``group_id`` (durably). False if it had none, or
        if the file could not be written (logged; the overrides then stay)."""
        if group_id not in self._groups:
            return False
        groups = dict(self._groups)
        del groups[group_id]
        try:
            self._write(groups)
        except OSError as exc:
            log.error("group_configs.write_failed", path=str(self.path), error=str(exc))
            return False
        self._groups = groups
        self._changed(group_id, {})
        return True

    def _changed(self, group_id: str, overrides: dict[str, str]) -> None:
        self._settings.pop(group_id, None)
        for fn in self._listeners:
            fn(group_id, dict(overrides))

    def _validate(self, overrides: dict[str, str]) -> dict[str, str]:
        """Check a group's complete new override set the way Kafka 4.4 does; return it
        in canonical text form, in definition order."""
        for key in overrides:
            if key not in self.specs:
                raise KafkaError(ErrorCode.INVALID_CONFIG, f"Unknown group config name: {key}")
        typed = {}
        for name, spec in self.specs.items():
            if name in overrides:
                typed[name] = _parse(spec, overrides[name])
        for name in _BOUND_ORDER:
            if name not in typed:
                continue
            spec, value = self.specs[name], typed[name]
            lo = None if spec.broker_min is None else self._setting(*spec.broker_min)
            hi = None if spec.broker_max is None else self._setting(*spec.broker_max)
            if lo is not None and hi is not None:
                if not lo <= value <= hi:
                    raise KafkaError(ErrorCode.INVALID_CONFIG, f"{name} must be in the range {lo} to {hi} inclusive.")
            elif hi is not None and value > hi:
                raise KafkaError(ErrorCode.INVALID_CONFIG, f"{name} must be less than or equal to {hi}")
            elif lo is not None and value < lo:
                raise KafkaError(ErrorCode.INVALID_CONFIG, f"{name} must be greater than or equal to {lo}")
        assignor = typed.get("streams.assignor.name")
        if assignor is not None:
            registered = self._setting("group.streams.assignors", ["sticky"])
            if assignor not in registered:
                names = "[" + ", ".join(registered) + "]"
                raise KafkaError(
                    ErrorCode.INVALID_CONFIG,
                    f"streams.assignor.name '{assignor}' is not a registered task assignor. "
                    f"Registered assignors are: {names}.",
                )
        for session, heartbeat in _SESSION_PAIRS:
            if session not in typed and heartbeat not in typed:
                continue
            s = typed.get(session, self.default(session))
            h = typed.get(heartbeat, self.default(heartbeat))
            if s <= h:
                raise KafkaError(ErrorCode.INVALID_CONFIG, f"{session} must be greater than {heartbeat}")
        if str(typed.get("errors.deadletterqueue.topic.name", "")).startswith("__"):
            raise KafkaError(
                ErrorCode.INVALID_CONFIG, "errors.deadletterqueue.topic.name: DLQ topic name must not start with '__'"
            )
        backoff, backoff_max = typed.get("share.redelivery.backoff.ms"), typed.get("share.redelivery.backoff.max.ms")
        if backoff is not None or backoff_max is not None:
            first = backoff if backoff is not None else self.default("share.redelivery.backoff.ms")
            longest = backoff_max if backoff_max is not None else self.default("share.redelivery.backoff.max.ms")
            if first > longest:
                raise KafkaError(
                    ErrorCode.INVALID_CONFIG,
                    "share.redelivery.backoff.max.ms must be greater than or equal to share.redelivery.backoff.ms",
                )
        return {name: _text(self.specs[name], value) for name, value in typed.items()}

    # --- the file ----------------------------------------------------------------------

    def _load(self) -> None:
        tmp = self.path.with_name(self.path.name + ".tmp")
        if tmp.exists():
            tmp.unlink()  # a write that never got renamed: the old file is the truth
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return
        try:
            doc = json.loads(text)
            groups = doc["groups"]
            if doc.get("version") != _FORMAT_VERSION or not isinstance(groups, dict):
                raise ValueError(f"unsupported format version {doc.get('version')!r}")
        except (ValueError, KeyError, TypeError) as exc:
            raise ValueError(f"{self.path}: not a group-configs file this broker can read ({exc})") from None
        for group_id, values in groups.items():
            kept: dict[str, str] = {}
            for key, value in dict(values).items():
                try:
                    if not isinstance(value, str):
                        raise TypeError
                    kept[key] = _text(self.specs[key], _parse(self.specs[key], value))
                except (KeyError, TypeError, KafkaError):
                    log.warning("group_configs.dropped", group=group_id, key=key, value=value)
            if kept:
                self._groups[str(group_id)] = kept

    def _write(self, groups: dict[str, dict[str, str]]) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        body = json.dumps({"version": _FORMAT_VERSION, "groups": groups}, indent=1, sort_keys=True)
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(body + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.path)
        fd = os.open(self.data_dir, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
