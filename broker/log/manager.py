"""LogManager: the data directory, its topic catalog and every partition log.

The catalog ``<data>/topics.json`` lists each topic's name, id, partition count,
config overrides and whether it is internal. It is replaced atomically (temp
file, fsync, rename, directory fsync), and written before the answer to the
create/delete/alter request, so an acknowledged change survives a crash.

Ordering on disk, so a crash at any point leaves something ``open`` can repair:

* create: partition directories first, then the catalog. A crash in between
  leaves directories of an unknown topic, removed at the next ``open``.
* delete: catalog first, then the directories are renamed to
  ``<uuid>-delete`` and removed; leftovers are removed at the next ``open``.

One data directory (``log.dirs`` with several entries, JBOD, is not supported),
locked with ``flock`` on ``<data>/.lock`` so two brokers cannot share it.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import time
import uuid
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, ParamSpec, TypeVar

import structlog
import trio

from broker.log.checkpoint import (
    CHECKPOINT_LOCK,
    CLEAN_SHUTDOWN_FILE,
    HIGH_WATERMARK_CHECKPOINT,
    LOG_START_OFFSET_CHECKPOINT,
    RECOVERY_POINT_CHECKPOINT,
    atomic_write,
    fsync_dir,
    read_partition_metadata,
    write_offset_checkpoint,
)
from broker.log.cleaner import CleanerSettings, LogCleaner
from broker.log.config import (
    TOPIC_CONFIGS,
    ConfigSource,
    LogConfig,
    resolve_topic_config,
    validate_topic_configs,
)
from broker.log.partition import PartitionLog
from broker.protocol.errors import ErrorCode, KafkaError

__all__ = ["LogManager", "TopicInfo"]

log = structlog.get_logger("sharebroker.log")

CATALOG_FILE = "topics.json"
CATALOG_VERSION = 1
LOCK_FILE = ".lock"
DELETE_SUFFIX = "-delete"

# Kafka's limit: 249 leaves room in the 255-byte file-name limit for "-<partition>".
MAX_TOPIC_NAME_LENGTH = 249
_LEGAL_TOPIC_NAME = re.compile(r"^[a-zA-Z0-9._-]+$")
# Partitions per topic: each open partition holds at least 3 descriptors (the active
# segment's .log, .index and .timeindex), so 10,000 partitions is ~30,000 descriptors,
# about what a host tuned as Kafka recommends (nofile 100k) can spare beside sockets.
# A request above it is refused with INVALID_PARTITIONS instead of exhausting the host.
MAX_PARTITIONS_PER_TOPIC = 10_000
# create_topic_steps lets other tasks run after laying out this many partitions (~30 ms here).
CREATE_PARTITIONS_PER_STEP = 64

T = TypeVar("T")
P = ParamSpec("P")


def _step(steps: Generator[None, None, T]) -> list[T]:
    """Run one step of a stepped operation: [] while it goes on, [its result] once it ended."""
    try:
        next(steps)
    except StopIteration as done:
        return [done.value]
    return []


def run_steps(steps: Generator[None, None, T]) -> T:
    """Run a stepped operation to its end at once."""
    while not (ended := _step(steps)):
        pass
    return ended[0]


async def run_steps_async(steps: Generator[None, None, T]) -> T:
    """Run a stepped operation, letting other tasks run between its steps; cancelled
    between steps, the operation is closed (it undoes what it did)."""
    try:
        while not (ended := _step(steps)):
            await trio.lowlevel.checkpoint()
        return ended[0]
    finally:
        steps.close()


def all_at_once(stepped: Callable[P, Generator[None, None, T]]) -> Callable[P, T]:
    """The function that runs ``stepped``'s operation to its end at once (same arguments)."""

    def run(*args: P.args, **kwargs: P.kwargs) -> T:
        return run_steps(stepped(*args, **kwargs))

    run.__name__ = run.__qualname__ = stepped.__name__.removesuffix("_steps")
    run.__doc__ = f"{stepped.__name__}, run to its end at once (same arguments)."
    return run


# Kafka's periodic tasks: retention every 5 minutes (log.retention.check.interval.ms)
# and offset checkpoints every minute (log.flush.offset.checkpoint.interval.ms).
DEFAULT_RETENTION_CHECK_MS = 300_000
DEFAULT_CHECKPOINT_INTERVAL_MS = 60_000

# Broker keys LogManager.from_config copies out of a BrokerConfig.
_BROKER_KEYS = tuple(
    dict.fromkeys(
        [key for d in TOPIC_CONFIGS.values() for key, _ in d.synonyms]
        + [
            "producer.id.expiration.ms",
            "transaction.partition.verification.enable",
            "num.partitions",
            "log.retention.check.interval.ms",
            "log.flush.offset.checkpoint.interval.ms",
            "log.cleaner.enable",
            "log.cleaner.threads",
            "log.cleaner.dedupe.buffer.size",
            "log.cleaner.io.buffer.size",
            "log.cleaner.io.buffer.load.factor",
            "log.cleaner.io.max.bytes.per.second",
            "log.cleaner.backoff.ms",
        ]
    )
)


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass(frozen=True, slots=True)
class TopicInfo:
    name: str
    topic_id: uuid.UUID
    partitions: int
    configs: dict[str, str] = field(default_factory=dict)
    internal: bool = False
    # The partitions with a replica in this data directory; None: every one (a single
    # node). In a cluster a broker holds only the partitions placed on it.
    local: frozenset[int] | None = None

    def is_local(self, partition: int) -> bool:
        return self.local is None or partition in self.local


def validate_topic_name(name: str) -> None:
    """Kafka's rules; KafkaError(INVALID_TOPIC_EXCEPTION) when broken."""
    if not name:
        raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, "Topic name is illegal, it can't be empty")
    if name in (".", ".."):
        raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, 'Topic name cannot be "." or ".."')
    if len(name) > MAX_TOPIC_NAME_LENGTH:
        raise KafkaError(
            ErrorCode.INVALID_TOPIC_EXCEPTION,
            f"Topic name is illegal, it can't be longer than {MAX_TOPIC_NAME_LENGTH} characters, topic name: {name}",
        )
    if not _LEGAL_TOPIC_NAME.match(name):
        raise KafkaError(
            ErrorCode.INVALID_TOPIC_EXCEPTION,
            f"Topic name {name} is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'",
        )


def _collision_key(name: str) -> str:
    # '.' and '_' collide in metric names, so Kafka refuses topics that differ only there.
    return name.replace(".", "_")


def _to_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


class LogManager:
    """Owns one data directory: the topic catalog and the open partition logs."""

    def __init__(
        self,
        data_dir: Path | str,
        broker_configs: Mapping[str, Any] | None = None,
        *,
        now_ms: Callable[[], int] = _wall_clock_ms,
        broker_config_sources: Mapping[str, ConfigSource] | None = None,
    ) -> None:
        self.data_dir = Path(data_dir)
        self._now_ms = now_ms
        self._topics: dict[str, TopicInfo] = {}
        # Topics whose partitions are being created (create_topic_steps): their names are taken.
        self._creating: set[str] = set()
        self._by_id: dict[uuid.UUID, TopicInfo] = {}
        self._logs: dict[tuple[str, int], PartitionLog] = {}
        self._broker: dict[str, str] = {}
        self._broker_sources: dict[str, ConfigSource] = {}
        self.set_broker_defaults(broker_configs or {}, broker_config_sources)
        self._lock_fd = -1
        self._opened = False
        # Called with (event, topic name) after a topic is created, deleted or grows
        # partitions; group coordinators re-target their assignments on it.
        self.topic_listeners: list[Callable[[str, str], None]] = []
        self.cleaner = LogCleaner(
            self.data_dir,
            logs=self.logs,
            settings=lambda: CleanerSettings.from_broker(self._broker),
            now_ms=now_ms,
        )

    @classmethod
    def from_config(
        cls, data_dir: Path | str, config: Any, *, now_ms: Callable[[], int] = _wall_clock_ms
    ) -> LogManager:
        """Build from a ``broker.config.BrokerConfig`` (anything with ``get(key)``,
        and optionally ``origin(key).source``)."""
        values: dict[str, Any] = {}
        sources: dict[str, ConfigSource] = {}
        for key in _BROKER_KEYS:
            try:
                value = config.get(key)
            except (KeyError, AttributeError):
                continue
            if value is None:
                continue
            values[key] = value
            origin = getattr(config, "origin", None)
            if origin is not None:
                try:
                    sources[key] = ConfigSource(int(origin(key).source))
                except (KeyError, ValueError, AttributeError):
                    pass
        return cls(data_dir, values, now_ms=now_ms, broker_config_sources=sources)

    @property
    def broker_defaults(self) -> Mapping[str, str]:
        """Broker-level defaults the topic configs fall back to (read-only view)."""
        return MappingProxyType(self._broker)

    @property
    def broker_default_sources(self) -> Mapping[str, ConfigSource]:
        """Where each broker-level default came from (DescribeConfigs sources)."""
        return MappingProxyType(self._broker_sources)

    def set_broker_defaults(
        self, configs: Mapping[str, Any], sources: Mapping[str, ConfigSource] | None = None
    ) -> None:
        """Replace the broker-level defaults (e.g. after a dynamic broker config change)."""
        self._broker = {k: _to_text(v) for k, v in configs.items() if v is not None}
        self._broker_sources = dict(sources or {})
        for info in self._topics.values():
            self._reconfigure(info)

    # ================================================================== lifecycle

    def open(self) -> None:
        """Lock the data directory, load the catalog and open (recovering) every log."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        self._lock_fd = os.open(self.data_dir / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self._lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(self._lock_fd)
            self._lock_fd = -1
            raise KafkaError(
                ErrorCode.KAFKA_STORAGE_ERROR, f"data directory {self.data_dir} is in use by another process"
            ) from exc
        clean = (self.data_dir / CLEAN_SHUTDOWN_FILE).exists()
        self._load_catalog()
        self._remove_orphans()
        for info in self._topics.values():
            config = self.log_config(info.name)
            for p in range(info.partitions):
                if info.is_local(p):
                    self._logs[(info.name, p)] = self._open_log(info, p, config)
        # From here on a crash is an unclean shutdown.
        marker = self.data_dir / CLEAN_SHUTDOWN_FILE
        if marker.exists():
            marker.unlink()
            fsync_dir(self.data_dir)
        self.checkpoint()
        self._opened = True
        log.info(
            "logs_opened",
            data_dir=str(self.data_dir),
            topics=len(self._topics),
            partitions=len(self._logs),
            clean_shutdown=clean,
        )

    def close(self) -> None:
        """Flush and close every log, write checkpoints and the clean-shutdown marker."""
        if not self._opened:
            return
        self._opened = False
        failed = False
        try:
            self.cleaner.write_checkpoint()
        except OSError as exc:
            log.error("cleaner_checkpoint_failed", error=str(exc))
        for part_log in self._logs.values():
            try:
                part_log.close()
            except KafkaError as exc:
                failed = True
                log.error("log_close_failed", topic=part_log.topic, partition=part_log.partition, error=str(exc))
        self.checkpoint()
        if not failed:
            atomic_write(self.data_dir / CLEAN_SHUTDOWN_FILE, b"")
        self._logs.clear()
        if self._lock_fd >= 0:
            fcntl.flock(self._lock_fd, fcntl.LOCK_UN)
            os.close(self._lock_fd)
            self._lock_fd = -1

    def _open_log(self, info: TopicInfo, partition: int, config: LogConfig) -> PartitionLog:
        return PartitionLog.open(
            self.data_dir / f"{info.name}-{partition}", info.name, partition, info.topic_id, config, self._now_ms
        )

    # ================================================================== catalog

    def _load_catalog(self) -> None:
        path = self.data_dir / CATALOG_FILE
        try:
            doc = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            # Refuse to start rather than treat every topic as gone and delete its data.
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"topic catalog {path} is unreadable: {exc}") from exc
        if doc.get("version") != CATALOG_VERSION:
            raise KafkaError(
                ErrorCode.KAFKA_STORAGE_ERROR, f"topic catalog {path} has unknown version {doc.get('version')}"
            )
        for item in doc["topics"]:
            info = TopicInfo(
                name=item["name"],
                topic_id=uuid.UUID(item["topic_id"]),
                partitions=int(item["partitions"]),
                configs={str(k): str(v) for k, v in item.get("configs", {}).items()},
                internal=bool(item.get("internal", False)),
                local=frozenset(int(p) for p in item["local"]) if "local" in item else None,
            )
            self._topics[info.name] = info
            self._by_id[info.topic_id] = info

    def _save_catalog(self, topics: Iterable[TopicInfo] | None = None) -> None:
        items: list[dict[str, Any]] = []
        for t in sorted(self._topics.values() if topics is None else topics, key=lambda t: t.name):
            item: dict[str, Any] = {
                "name": t.name,
                "topic_id": str(t.topic_id),
                "partitions": t.partitions,
                "configs": dict(sorted(t.configs.items())),
                "internal": t.internal,
            }
            if t.local is not None:
                item["local"] = sorted(t.local)
            items.append(item)
        data = json.dumps({"version": CATALOG_VERSION, "topics": items}, indent=1).encode("utf-8")
        try:
            atomic_write(self.data_dir / CATALOG_FILE, data)
        except OSError as exc:
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"cannot write the topic catalog: {exc}") from exc

    def _remove_orphans(self) -> None:
        """Remove deleted-topic leftovers and partition directories the catalog does not know."""
        for entry in os.scandir(self.data_dir):
            if not entry.is_dir(follow_symlinks=False):
                continue
            path = Path(entry.path)
            if entry.name.endswith(DELETE_SUFFIX):
                shutil.rmtree(path, ignore_errors=True)
                continue
            topic, dash, part = entry.name.rpartition("-")
            if not dash or not part.isdigit():
                continue
            info = self._topics.get(topic)
            partition = int(part)
            if info is not None and partition < info.partitions and info.is_local(partition):
                stored = read_partition_metadata(path)
                if stored is None or stored == info.topic_id:
                    continue
            log.warning("orphan_partition_removed", directory=entry.name)
            self._trash(path)

    def _trash_quietly(self, path: Path) -> None:
        """Undo a half-made partition directory; failures only leave an orphan for open()."""
        try:
            if path.exists():
                self._trash(path)
        except OSError as exc:
            log.warning("partition_cleanup_failed", directory=path.name, error=str(exc))

    def _trash(self, path: Path) -> None:
        target = self.data_dir / f"{uuid.uuid4().hex}{DELETE_SUFFIX}"
        os.rename(path, target)
        fsync_dir(self.data_dir)
        shutil.rmtree(target, ignore_errors=True)

    # ================================================================== queries

    @property
    def topics(self) -> dict[str, TopicInfo]:
        """Topic name -> TopicInfo (treat as read-only)."""
        return self._topics

    def topic_by_id(self, topic_id: uuid.UUID) -> TopicInfo | None:
        return self._by_id.get(topic_id)

    def partition(self, topic: str, index: int) -> PartitionLog | None:
        return self._logs.get((topic, index))

    def logs(self) -> list[PartitionLog]:
        return list(self._logs.values())

    def log_config(self, name: str) -> LogConfig:
        info = self._topics.get(name)
        return LogConfig.from_configs(self._broker, info.configs if info else {})

    def effective_topic_config(self, name: str) -> dict[str, tuple[str, ConfigSource]]:
        """Every topic config key -> (value, source), for DescribeConfigs."""
        info = self._require(name)
        out: dict[str, tuple[str, ConfigSource]] = {}
        for key in TOPIC_CONFIGS:
            _, text, source, broker_key = resolve_topic_config(key, self._broker, info.configs)
            if broker_key is not None:
                source = self._broker_sources.get(broker_key, ConfigSource.STATIC_BROKER_CONFIG)
            out[key] = (_canonical(key, text), source)
        return out

    def now_ms(self) -> int:
        return self._now_ms()

    def _require(self, name: str) -> TopicInfo:
        info = self._topics.get(name)
        if info is None:
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"topic {name} does not exist")
        return info

    # ================================================================== changes

    def create_topic_steps(
        self,
        name: str,
        partitions: int,
        configs: Mapping[str, Any] | None = None,
        *,
        topic_id: uuid.UUID | None = None,
        internal: bool = False,
        validate_only: bool = False,
        replication_factor: int = -1,
    ) -> Generator[None, None, TopicInfo]:
        """Create a topic (``partitions`` -1: num.partitions; ``replication_factor``
        -1 or 1: this is a single node), pausing after every ``CREATE_PARTITIONS_PER_STEP``
        partitions: a topic of thousands of partitions takes a second or more to lay
        out, which must not stall every connection. The name is taken while it runs;
        closed half-way, it removes what it made. Raises KafkaError. The event loop
        drives it with :func:`run_steps_async`; :meth:`create_topic` runs it at once."""
        validate_topic_name(name)
        if name in self._topics or name in self._creating:
            raise KafkaError(ErrorCode.TOPIC_ALREADY_EXISTS, f"Topic '{name}' already exists.")
        key = _collision_key(name)
        for other in [*self._topics, *self._creating]:
            if _collision_key(other) == key:
                raise KafkaError(
                    ErrorCode.INVALID_TOPIC_EXCEPTION,
                    f"Topic '{name}' collides with existing topic: {other}",
                )
        if partitions == -1:
            partitions = int(self._broker.get("num.partitions", "1"))
        if partitions <= 0:
            raise KafkaError(
                ErrorCode.INVALID_PARTITIONS, "Number of partitions was set to an invalid non-positive value."
            )
        if partitions > MAX_PARTITIONS_PER_TOPIC:
            raise KafkaError(
                ErrorCode.INVALID_PARTITIONS,
                f"Number of partitions {partitions} exceeds this broker's limit of {MAX_PARTITIONS_PER_TOPIC}.",
            )
        if replication_factor not in (-1, 1):
            raise KafkaError(
                ErrorCode.INVALID_REPLICATION_FACTOR,
                f"Unable to replicate the partition {replication_factor} time(s): only 1 broker is registered.",
            )
        stored = validate_topic_configs(configs or {})
        config = LogConfig.from_configs(self._broker, stored)
        if topic_id is None:
            topic_id = uuid.uuid4()
        elif topic_id in self._by_id or topic_id.int == 0:
            raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, f"topic id {topic_id} is already in use or invalid")
        info = TopicInfo(name, topic_id, partitions, stored, internal)
        if validate_only:
            return info
        opened: list[PartitionLog] = []
        self._creating.add(name)
        try:
            for p in range(partitions):
                opened.append(self._open_log(info, p, config))
                if (p + 1) % CREATE_PARTITIONS_PER_STEP == 0 and p + 1 < partitions:
                    yield
            self._save_catalog([*self._topics.values(), info])
        except BaseException:
            for part_log in opened:
                part_log.discard()
            for p in range(partitions):
                self._trash_quietly(self.data_dir / f"{name}-{p}")
            raise
        finally:
            self._creating.discard(name)
        self._topics[name] = info
        self._by_id[topic_id] = info
        for p, part_log in enumerate(opened):
            self._logs[(name, p)] = part_log
        log.info("topic_created", topic=name, topic_id=str(topic_id), partitions=partitions, configs=stored)
        self._notify("created", name)
        return info

    # Create a topic all at once (tests, tools, start-up): same arguments as create_topic_steps.
    create_topic = all_at_once(create_topic_steps)

    def delete_topic(self, name: str) -> None:
        """Forget the topic (catalog first) and remove its partition directories."""
        info = self._require(name)
        self._save_catalog([t for t in self._topics.values() if t.name != name])
        del self._topics[name]
        self._by_id.pop(info.topic_id, None)
        for p in range(info.partitions):
            part_log = self._logs.pop((name, p), None)
            self.cleaner.forget(name, p)
            if part_log is not None:
                part_log.discard()
            path = self.data_dir / f"{name}-{p}"
            if path.exists():
                self._trash(path)
        # Drop its checkpoint entries now: a topic re-created under the same name must
        # not inherit the old log start offset.
        self.checkpoint()
        log.info("topic_deleted", topic=name, topic_id=str(info.topic_id))
        self._notify("deleted", name)

    def apply_topic(self, info: TopicInfo) -> None:
        """Make the catalog hold ``info`` as the cluster's metadata describes it (already
        validated by the controller): a new topic, more partitions, other configs or more
        local partitions. Logs of local partitions are created; a topic known under
        another id is deleted first (it was deleted and re-created meanwhile)."""
        current = self._topics.get(info.name)
        if current is not None and current.topic_id != info.topic_id:
            self.delete_topic(info.name)
            current = None
        if current is not None and current == info:
            return
        config = LogConfig.from_configs(self._broker, info.configs)
        wanted = [p for p in range(info.partitions) if info.is_local(p) and (info.name, p) not in self._logs]
        # Replicas moved elsewhere (partition reassignment): their logs go.
        dropped = [p for p in range(info.partitions) if not info.is_local(p) and (info.name, p) in self._logs]
        opened: list[tuple[int, PartitionLog]] = []
        try:
            for p in wanted:
                opened.append((p, self._open_log(info, p, config)))
            others = [t for t in self._topics.values() if t.name != info.name]
            self._save_catalog([*others, info])
        except BaseException:
            for p, part_log in opened:
                part_log.discard()
                self._trash_quietly(self.data_dir / f"{info.name}-{p}")
            raise
        self._topics[info.name] = info
        self._by_id[info.topic_id] = info
        for p, part_log in opened:
            self._logs[(info.name, p)] = part_log
        for p in dropped:
            part_log = self._logs.pop((info.name, p))
            part_log.discard()
            self._trash_quietly(self.data_dir / f"{info.name}-{p}")
            log.info("replica_removed", topic=info.name, partition=p)
        if current is None:
            log.info("topic_created", topic=info.name, topic_id=str(info.topic_id), local=sorted(info.local or ()))
        elif current.configs != info.configs:
            self._reconfigure(info)
        if opened or dropped or current is None or current.partitions != info.partitions:
            self._notify("created" if current is None else "partitions", info.name)

    def create_partitions(self, name: str, new_total: int, *, validate_only: bool = False) -> TopicInfo:
        info = self._require(name)
        if new_total < info.partitions:
            raise KafkaError(
                ErrorCode.INVALID_PARTITIONS,
                f"Topic currently has {info.partitions} partitions, which is higher than the requested {new_total}.",
            )
        if new_total == info.partitions:
            raise KafkaError(ErrorCode.INVALID_PARTITIONS, f"Topic already has {info.partitions} partitions.")
        if new_total > MAX_PARTITIONS_PER_TOPIC:
            raise KafkaError(
                ErrorCode.INVALID_PARTITIONS,
                f"Number of partitions {new_total} exceeds this broker's limit of {MAX_PARTITIONS_PER_TOPIC}.",
            )
        updated = replace(info, partitions=new_total)
        if validate_only:
            return updated
        config = self.log_config(name)
        opened: list[PartitionLog] = []
        try:
            for p in range(info.partitions, new_total):
                opened.append(self._open_log(updated, p, config))
            self._save_catalog([updated if t.name == name else t for t in self._topics.values()])
        except BaseException:
            for part_log in opened:
                part_log.discard()
            for p in range(info.partitions, new_total):
                self._trash_quietly(self.data_dir / f"{name}-{p}")
            raise
        self._topics[name] = updated
        self._by_id[updated.topic_id] = updated
        for p, part_log in zip(range(info.partitions, new_total), opened):
            self._logs[(name, p)] = part_log
        log.info("partitions_created", topic=name, partitions=new_total)
        self._notify("partitions", name)
        return updated

    def _notify(self, event: str, name: str) -> None:
        for listener in self.topic_listeners:
            listener(event, name)

    def alter_topic_configs(
        self,
        name: str,
        set: Mapping[str, Any] | None = None,
        delete: Iterable[str] = (),
        *,
        validate_only: bool = False,
    ) -> TopicInfo:
        """Incremental change of a topic's overrides: ``set`` keys, then remove ``delete`` keys."""
        info = self._require(name)
        configs = dict(info.configs)
        for key in delete:
            if key not in TOPIC_CONFIGS:
                raise KafkaError(ErrorCode.INVALID_CONFIG, f"Unknown topic config name: {key}")
            configs.pop(key, None)
        configs.update(validate_topic_configs(set or {}))
        LogConfig.from_configs(self._broker, configs)
        updated = replace(info, configs=configs)
        if validate_only:
            return updated
        self._save_catalog([updated if t.name == name else t for t in self._topics.values()])
        self._topics[name] = updated
        self._by_id[updated.topic_id] = updated
        self._reconfigure(updated)
        log.info("topic_configs_altered", topic=name, configs=configs)
        return updated

    def _reconfigure(self, info: TopicInfo) -> None:
        config = LogConfig.from_configs(self._broker, info.configs)
        for p in range(info.partitions):
            part_log = self._logs.get((info.name, p))
            if part_log is not None:
                part_log.config = config

    # ================================================================== periodic work

    def apply_retention(self, now_ms: int) -> int:
        """Apply retention to every log; returns the number of segments deleted."""
        deleted = 0
        for part_log in list(self._logs.values()):
            if part_log.closed:
                continue
            try:
                deleted += part_log.apply_retention(now_ms)
            except KafkaError as exc:
                log.error("retention_failed", topic=part_log.topic, partition=part_log.partition, error=str(exc))
        return deleted

    def prepare_checkpoint(self) -> Callable[[], None]:
        """Capture which logs exist (on the caller's thread) and return a function that
        writes the recovery-point, log-start and high-watermark checkpoints; it may run
        in a worker thread (it reads each log's offsets when it runs, so they are never stale)."""
        logs = [(k, v) for k, v in self._logs.items()]
        data_dir = self.data_dir

        def write() -> None:
            with CHECKPOINT_LOCK:
                points = {k: v.recovery_point for k, v in logs}
                write_offset_checkpoint(data_dir / RECOVERY_POINT_CHECKPOINT, points)
                write_offset_checkpoint(
                    data_dir / LOG_START_OFFSET_CHECKPOINT, {k: v.log_start_offset for k, v in logs}
                )
                write_offset_checkpoint(data_dir / HIGH_WATERMARK_CHECKPOINT, {k: v.high_watermark for k, v in logs})
            for k, v in logs:
                v.checkpointed_recovery_point = max(v.checkpointed_recovery_point, points[k])

        return write

    def checkpoint(self) -> None:
        """Write the offset checkpoint files now (blocking: one fsync each)."""
        self.prepare_checkpoint()()

    @property
    def retention_check_interval_ms(self) -> int:
        return int(self._broker.get("log.retention.check.interval.ms", DEFAULT_RETENTION_CHECK_MS))

    @property
    def checkpoint_interval_ms(self) -> int:
        return int(self._broker.get("log.flush.offset.checkpoint.interval.ms", DEFAULT_CHECKPOINT_INTERVAL_MS))

    async def run_maintenance(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Retention every log.retention.check.interval.ms (5 min) and offset checkpoints
        every log.flush.offset.checkpoint.interval.ms (1 min), forever; and the log
        cleaner (compaction), which runs on its own schedule."""
        async with trio.open_nursery() as nursery:
            await nursery.start(self.cleaner.run)
            await nursery.start(self._periodic)
            task_status.started()

    async def _periodic(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        retention_every = self.retention_check_interval_ms / 1000
        checkpoint_every = self.checkpoint_interval_ms / 1000
        next_retention = trio.current_time() + retention_every
        next_checkpoint = trio.current_time() + checkpoint_every
        task_status.started()
        while True:
            await trio.sleep_until(min(next_retention, next_checkpoint))
            now = trio.current_time()
            if now >= next_retention:
                next_retention = now + retention_every
                deleted = self.apply_retention(self.now_ms())
                if deleted:
                    log.info("retention_applied", segments_deleted=deleted)
            if now >= next_checkpoint:
                next_checkpoint = now + checkpoint_every
                try:
                    await trio.to_thread.run_sync(self.prepare_checkpoint())
                except OSError as exc:
                    log.error("checkpoint_failed", error=str(exc))


def _canonical(key: str, text: str) -> str:
    """Value text as DescribeConfigs shows it (already in the topic key's unit)."""
    d = TOPIC_CONFIGS[key]
    if d.type == "list":
        return ",".join(item.strip() for item in text.split(",") if item.strip())
    if d.type == "boolean":
        return text.strip().lower()
    return text.strip()
