"""Topic-level log settings: the table of keys Kafka accepts, validation, and LogConfig.

Keys, types, defaults, bounds and broker-level synonyms follow Apache Kafka 4.2's
``LogConfig`` and ``ServerTopicConfigSynonyms``, so a ``--config`` that Kafka
accepts for a topic is accepted here and means the same thing (and one it refuses
is refused with INVALID_CONFIG, 40). A value is resolved, as in Kafka::

    topic override  >  first set broker synonym (log.retention.ms, .minutes, .hours)  >  default

Some keys are accepted for compatibility but have no effect on this single-node
broker (replication throttles, unclean leader election, tiered storage with
remote.storage.enable=false); ``LogConfig`` carries only the ones the log and
its cleaner act on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

from broker.config.model import INT_MAX, INT_MIN, LONG_MAX, LONG_MIN
from broker.protocol.errors import ErrorCode, KafkaError

__all__ = [
    "TOPIC_CONFIGS",
    "ConfigSource",
    "LogConfig",
    "TopicConfigDef",
    "config_text",
    "parse_topic_config",
    "validate_topic_configs",
]


class ConfigSource(IntEnum):
    """Where an effective value came from, numbered as DescribeConfigs reports it."""

    UNKNOWN = 0
    TOPIC_CONFIG = 1
    DYNAMIC_BROKER_CONFIG = 2
    DYNAMIC_DEFAULT_BROKER_CONFIG = 3
    STATIC_BROKER_CONFIG = 4
    DEFAULT_CONFIG = 5


@dataclass(frozen=True, slots=True)
class TopicConfigDef:
    """One topic config key: type, default (as Kafka prints it) and validation.

    ``synonyms`` are broker keys, first set wins, each with the factor that turns
    its value into this key's unit (``log.retention.hours`` -> ms is 3_600_000).
    """

    name: str
    type: str  # "int" | "long" | "double" | "boolean" | "string" | "list"
    default: str
    synonyms: tuple[tuple[str, int], ...] = ()
    min: int | float | None = None
    max: int | float | None = None
    choices: tuple[str, ...] | None = None
    check: Callable[[Any], str | None] | None = None  # returns an error text or None


def _gzip_level(v: int) -> str | None:
    return None if v == -1 or 1 <= v <= 9 else "Value must be -1 or between 1 and 9"


def _remote_storage(v: bool) -> str | None:
    # Tiered storage is not implemented; refusing is better than silently keeping data local.
    return "tiered storage is not supported by this broker" if v else None


def _throttled_replicas(v: tuple[str, ...]) -> str | None:
    for item in v:
        if item == "*":
            continue
        part, sep, broker = item.partition(":")
        if not sep or not part.strip().isdigit() or not broker.strip().isdigit():
            return "must be '*' or a list of partitionId:brokerId"
    return None


def _ms(name: str, default: str, *synonyms: tuple[str, int], min: int | None = 0) -> TopicConfigDef:
    return TopicConfigDef(name, "long", default, synonyms, min=min)


# Kafka's topic config table (LogConfig.configDefCopy()), as of 4.4.
TOPIC_CONFIGS: dict[str, TopicConfigDef] = {
    d.name: d
    for d in (
        TopicConfigDef("cleanup.policy", "list", "delete", (("log.cleanup.policy", 1),), choices=("compact", "delete")),
        TopicConfigDef("compression.gzip.level", "int", "-1", (("compression.gzip.level", 1),), check=_gzip_level),
        TopicConfigDef("compression.lz4.level", "int", "9", (("compression.lz4.level", 1),), min=1, max=17),
        TopicConfigDef(
            "compression.type",
            "string",
            "producer",
            (("compression.type", 1),),
            choices=("uncompressed", "zstd", "lz4", "snappy", "gzip", "producer"),
        ),
        TopicConfigDef("compression.zstd.level", "int", "3", (("compression.zstd.level", 1),), min=-131072, max=22),
        _ms("delete.retention.ms", "86400000", ("log.cleaner.delete.retention.ms", 1)),
        # KIP-1191 (Kafka 4.4): a share group may use this topic as its dead-letter queue only when true.
        TopicConfigDef("errors.deadletterqueue.group.enable", "boolean", "false"),
        _ms("file.delete.delay.ms", "60000", ("log.segment.delete.delay.ms", 1)),
        TopicConfigDef("flush.messages", "long", str(LONG_MAX), (("log.flush.interval.messages", 1),), min=1),
        _ms("flush.ms", str(LONG_MAX), ("log.flush.interval.ms", 1), ("log.flush.scheduler.interval.ms", 1)),
        TopicConfigDef("follower.replication.throttled.replicas", "list", "", check=_throttled_replicas),
        TopicConfigDef("index.interval.bytes", "int", "4096", (("log.index.interval.bytes", 1),), min=0),
        TopicConfigDef("leader.replication.throttled.replicas", "list", "", check=_throttled_replicas),
        TopicConfigDef("local.retention.bytes", "long", "-2", (("log.local.retention.bytes", 1),), min=-2),
        _ms("local.retention.ms", "-2", ("log.local.retention.ms", 1), min=-2),
        _ms("max.compaction.lag.ms", str(LONG_MAX), ("log.cleaner.max.compaction.lag.ms", 1), min=1),
        TopicConfigDef(
            "max.decompressed.message.bytes",
            "int",
            "2147483639",
            (("max.decompressed.message.bytes", 1),),
            min=1,
            max=2147483639,
        ),
        TopicConfigDef("max.message.bytes", "int", "1048588", (("message.max.bytes", 1),), min=0),
        _ms("message.timestamp.after.max.ms", "3600000", ("log.message.timestamp.after.max.ms", 1)),
        _ms("message.timestamp.before.max.ms", str(LONG_MAX), ("log.message.timestamp.before.max.ms", 1)),
        TopicConfigDef(
            "message.timestamp.type",
            "string",
            "CreateTime",
            (("log.message.timestamp.type", 1),),
            choices=("CreateTime", "LogAppendTime"),
        ),
        TopicConfigDef(
            "min.cleanable.dirty.ratio", "double", "0.5", (("log.cleaner.min.cleanable.ratio", 1),), min=0, max=1
        ),
        _ms("min.compaction.lag.ms", "0", ("log.cleaner.min.compaction.lag.ms", 1)),
        TopicConfigDef("min.insync.replicas", "int", "1", (("min.insync.replicas", 1),), min=1),
        TopicConfigDef("preallocate", "boolean", "false", (("log.preallocate", 1),)),
        TopicConfigDef("remote.log.copy.disable", "boolean", "false"),
        TopicConfigDef("remote.log.delete.on.disable", "boolean", "false"),
        TopicConfigDef("remote.storage.enable", "boolean", "false", check=_remote_storage),
        TopicConfigDef("retention.bytes", "long", "-1", (("log.retention.bytes", 1),)),
        _ms(
            "retention.ms",
            "604800000",
            ("log.retention.ms", 1),
            ("log.retention.minutes", 60_000),
            ("log.retention.hours", 3_600_000),
            min=-1,
        ),
        # Kafka 4's floor (1 MiB): smaller segments mean many files and descriptors.
        TopicConfigDef("segment.bytes", "int", "1073741824", (("log.segment.bytes", 1),), min=1048576),
        TopicConfigDef("segment.index.bytes", "int", "10485760", (("log.index.size.max.bytes", 1),), min=4),
        _ms("segment.jitter.ms", "0", ("log.roll.jitter.ms", 1), ("log.roll.jitter.hours", 3_600_000)),
        _ms("segment.ms", "604800000", ("log.roll.ms", 1), ("log.roll.hours", 3_600_000), min=1),
        TopicConfigDef("unclean.leader.election.enable", "boolean", "false", (("unclean.leader.election.enable", 1),)),
    )
}


def _invalid(name: str, value: object, why: str) -> KafkaError:
    return KafkaError(ErrorCode.INVALID_CONFIG, f"Invalid value {value} for configuration {name}: {why}")


def parse_topic_config(name: str, value: object) -> Any:
    """Parse and check one value for topic key ``name``; KafkaError(INVALID_CONFIG) if bad.

    Returns the typed value: int, float, bool, str, or a tuple of str for lists.
    """
    d = TOPIC_CONFIGS.get(name)
    if d is None:
        raise KafkaError(ErrorCode.INVALID_CONFIG, f"Unknown topic config name: {name}")
    if value is None:
        raise _invalid(name, value, "a value is required")
    text = config_text(value)
    parsed: Any
    if d.type in ("int", "long"):
        try:
            parsed = int(text.strip())
        except ValueError:
            raise _invalid(name, text, f"Not a number of type {d.type.upper()}") from None
        lo, hi = (INT_MIN, INT_MAX) if d.type == "int" else (LONG_MIN, LONG_MAX)
        if not lo <= parsed <= hi:
            raise _invalid(name, text, f"Not a number of type {d.type.upper()}")
    elif d.type == "double":
        try:
            parsed = float(text.strip())
        except ValueError:
            raise _invalid(name, text, "Not a number of type DOUBLE") from None
    elif d.type == "boolean":
        lowered = text.strip().lower()
        if lowered not in ("true", "false"):
            raise _invalid(name, text, "Expected value to be either true or false")
        parsed = lowered == "true"
    elif d.type == "list":
        items = [item.strip() for item in text.split(",")] if text.strip() else []
        parsed = tuple(dict.fromkeys(item for item in items if item))
        if d.choices is not None:
            for item in parsed:
                if item not in d.choices:
                    raise _invalid(name, text, f"String must be one of: {', '.join(d.choices)}")
    else:
        parsed = text.strip()
        if d.choices is not None and parsed not in d.choices:
            raise _invalid(name, text, f"String must be one of: {', '.join(d.choices)}")
    if d.min is not None and parsed < d.min:
        raise _invalid(name, text, f"Value must be at least {d.min}")
    if d.max is not None and parsed > d.max:
        raise _invalid(name, text, f"Value must be no more than {d.max}")
    if d.check is not None:
        problem = d.check(parsed)
        if problem:
            raise _invalid(name, text, problem)
    return parsed


def config_text(value: object) -> str:
    """A config value as Kafka's text form (booleans lower case, lists comma-separated)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


def validate_topic_configs(configs: Mapping[str, object]) -> dict[str, str]:
    """Check every key and value; return them normalised to strings (as stored)."""
    out: dict[str, str] = {}
    for name, value in configs.items():
        parse_topic_config(name, value)
        out[name] = config_text(value)
    return out


def resolve_topic_config(
    name: str, broker_defaults: Mapping[str, object], overrides: Mapping[str, object]
) -> tuple[Any, str, ConfigSource, str | None]:
    """(typed value, value as text, source, broker key used or None) of one topic key."""
    d = TOPIC_CONFIGS[name]
    if name in overrides and overrides[name] is not None:
        raw = overrides[name]
        return parse_topic_config(name, raw), config_text(raw), ConfigSource.TOPIC_CONFIG, None
    for key, factor in d.synonyms:
        raw = broker_defaults.get(key)
        if raw is None:
            continue
        if factor != 1:
            number = int(config_text(raw).strip())
            # Negative means "unlimited" for retention and must stay -1, not -3_600_000.
            raw = str(number * factor if number >= 0 else -1)
        value = parse_topic_config(name, raw) if d.name != "segment.bytes" else _broker_int(raw)
        return value, config_text(raw), ConfigSource.STATIC_BROKER_CONFIG, key
    return parse_topic_config(name, d.default), d.default, ConfigSource.DEFAULT_CONFIG, None


def _broker_int(raw: object) -> int:
    # The broker-level segment size is validated by the broker config; accept what it
    # passes through (tests run with segments far below the topic-level floor).
    return int(config_text(raw).strip())


@dataclass(frozen=True, slots=True)
class LogConfig:
    """The settings one partition log acts on (defaults are Kafka's).

    Build it with :meth:`from_configs` (topic overrides over broker defaults) or
    directly with keyword arguments in tests.
    """

    # Roll the active segment at this size: 1 GiB, Kafka's default (segment.bytes).
    segment_bytes: int = 1 << 30
    # ... or when its first batch is this old: 7 days (segment.ms / log.roll.ms).
    segment_ms: int = 7 * 24 * 3_600_000
    segment_jitter_ms: int = 0
    # Max bytes of an offset or time index file: 10 MiB, Kafka's default; a full
    # index rolls the segment (segment.index.bytes).
    segment_index_bytes: int = 10 * 1024 * 1024
    # One offset/time index entry per 4 KiB of log, Kafka's default
    # (index.interval.bytes): lookups then scan at most ~4 KiB of headers.
    index_interval_bytes: int = 4096
    # Delete closed segments older than 7 days (retention.ms); -1 keeps all.
    retention_ms: int = 7 * 24 * 3_600_000
    # Delete oldest segments while the partition exceeds this (retention.bytes); -1 = no limit.
    retention_bytes: int = -1
    # Largest batch accepted: 1 MiB + 12 bytes of log overhead (max.message.bytes).
    max_message_bytes: int = 1048588
    message_timestamp_type: str = "CreateTime"
    cleanup_policy: tuple[str, ...] = ("delete",)
    compression_type: str = "producer"
    min_insync_replicas: int = 1
    # fsync after this many unflushed records / this long; Kafka's defaults
    # (Long.MAX) leave acks=0/1 data to the page cache (flush.messages, flush.ms).
    flush_messages: int = LONG_MAX
    flush_ms: int = LONG_MAX
    # Forget an idle producer's dedup state after 1 day, Kafka's
    # producer.id.expiration.ms (a broker-level setting, not a topic one).
    producer_id_expiration_ms: int = 86_400_000
    # Compaction (cleanup.policy=compact): clean once half the log is dirty
    # (min.cleanable.dirty.ratio); leave records younger than min.compaction.lag.ms
    # alone; clean whatever the ratio once a dirty record is max.compaction.lag.ms old.
    min_cleanable_dirty_ratio: float = 0.5
    min_compaction_lag_ms: int = 0
    max_compaction_lag_ms: int = LONG_MAX
    # Tombstones and transaction markers stay a day after the clean that finds them
    # removable (delete.retention.ms), so a consumer that lags less sees the delete.
    delete_retention_ms: int = 86_400_000
    # A segment the cleaner replaced stays open this long for reads already under way
    # (file.delete.delay.ms, Kafka's 60 s).
    file_delete_delay_ms: int = 60_000
    # transaction.partition.verification.enable (broker-level, Kafka's default true): a
    # transactional batch that does not continue an open transaction needs the guard of a
    # verification with the transaction coordinator (KIP-890 part 1).
    transaction_verification: bool = True

    @property
    def log_append_time(self) -> bool:
        return self.message_timestamp_type == "LogAppendTime"

    @property
    def delete_retention_enabled(self) -> bool:
        return "delete" in self.cleanup_policy

    @property
    def compact(self) -> bool:
        return "compact" in self.cleanup_policy

    @property
    def max_segment_ms(self) -> int:
        """segment.ms, lowered to max.compaction.lag.ms on a compacted topic: the active
        segment is never cleaned, so it must roll for the lag to be kept (as in Kafka)."""
        if self.compact and self.max_compaction_lag_ms > 0:
            return min(self.max_compaction_lag_ms, self.segment_ms)
        return self.segment_ms

    @classmethod
    def from_configs(
        cls, broker_defaults: Mapping[str, object] | None = None, overrides: Mapping[str, object] | None = None
    ) -> LogConfig:
        """Topic ``overrides`` (topic key -> value) over ``broker_defaults`` (broker keys
        such as ``log.segment.bytes``, ``log.retention.hours``) over Kafka's defaults.

        Raises KafkaError(INVALID_CONFIG) for an unknown override key or a bad value.
        """
        broker = broker_defaults or {}
        topic = overrides or {}
        for name in topic:
            if name not in TOPIC_CONFIGS:
                raise KafkaError(ErrorCode.INVALID_CONFIG, f"Unknown topic config name: {name}")

        def get(name: str) -> Any:
            return resolve_topic_config(name, broker, topic)[0]

        expiration = broker.get("producer.id.expiration.ms")
        verification = broker.get("transaction.partition.verification.enable")
        return cls(
            segment_bytes=get("segment.bytes"),
            segment_ms=get("segment.ms"),
            segment_jitter_ms=get("segment.jitter.ms"),
            segment_index_bytes=get("segment.index.bytes"),
            index_interval_bytes=get("index.interval.bytes"),
            retention_ms=get("retention.ms"),
            retention_bytes=get("retention.bytes"),
            max_message_bytes=get("max.message.bytes"),
            message_timestamp_type=get("message.timestamp.type"),
            cleanup_policy=get("cleanup.policy"),
            compression_type=get("compression.type"),
            min_insync_replicas=get("min.insync.replicas"),
            flush_messages=get("flush.messages"),
            flush_ms=get("flush.ms"),
            producer_id_expiration_ms=86_400_000 if expiration is None else int(config_text(expiration)),
            min_cleanable_dirty_ratio=get("min.cleanable.dirty.ratio"),
            min_compaction_lag_ms=get("min.compaction.lag.ms"),
            max_compaction_lag_ms=get("max.compaction.lag.ms"),
            delete_retention_ms=get("delete.retention.ms"),
            file_delete_delay_ms=get("file.delete.delay.ms"),
            transaction_verification=verification is None or config_text(verification).lower() == "true",
        )
