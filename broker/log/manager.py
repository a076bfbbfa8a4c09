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

Several log directories (``log.dirs``, JBOD; :mod:`broker.log.dirs`): the catalog
lives in the first, each partition in one of them (a new one in the directory
holding the fewest), and AlterReplicaLogDirs moves a partition between them
online through a future replica (:mod:`broker.log.future`). A directory that
fails takes only its partitions offline.
"""

from __future__ import annotations

import itertools
import json
import os
import time
import uuid
from collections import deque
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType
from typing import Any

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
    sync_filesystem,
    write_offset_checkpoint,
)
from broker.log.cleaner import CleanerSettings, LogCleaner
from broker.log.config import (
    TOPIC_CONFIGS,
    ConfigSource,
    LogConfig,
    config_text,
    resolve_topic_config,
    validate_topic_configs,
)
from broker.log.deferred import NEW_LOG, Deferred, DeferredLogs, deferred_entries
from broker.log.dirs import LogDirs, Scan
from broker.log.future import FutureReplica
from broker.log.moves import MOVE_RATE_KEY, DirReport, LogDirMoves, ReplicaReport
from broker.log.partition import DirectoryState, PartitionLog
from broker.log.steps import all_at_once, run_steps, run_steps_async
from broker.log.topics import (
    MAX_PARTITIONS_PER_TOPIC,
    NewTopicSpec,
    TopicInfo,
    collision_key,
    validate_topic_name,
)
from broker.protocol.errors import ErrorCode, KafkaError

__all__ = [
    "MAX_PARTITIONS_PER_TOPIC",
    "DirReport",
    "LogManager",
    "NewTopicSpec",
    "ReplicaReport",
    "TopicInfo",
    "run_steps",
    "run_steps_async",
    "validate_topic_name",
]

log = structlog.get_logger("sharebroker.log")

CATALOG_FILE = "topics.json"
CATALOG_VERSION = 1

# A log opened for a topic change, kept until the catalog has taken the change.
OpenedLog = tuple[TopicInfo, int, PartitionLog]

# create_topic_steps lets other tasks run after laying out this many partitions (~30 ms here).
CREATE_PARTITIONS_PER_STEP = 64

# The periodic checkpoint fsyncs the leader-epoch files written since the last one;
# from this many on it syncs the file system once instead (a broker failure makes the
# leaders of thousands of partitions each write one).
SYNCFS_EPOCH_FILES = 64

# Kafka's periodic tasks: retention every 5 minutes (log.retention.check.interval.ms)
# and offset checkpoints every minute (log.flush.offset.checkpoint.interval.ms).
DEFAULT_RETENTION_CHECK_MS = 300_000
DEFAULT_CHECKPOINT_INTERVAL_MS = 60_000

# Kafka's broker settings among those that this broker's settings table does not have:
# the topic config's own default stands in (tests/unit/test_config_services.py keeps
# this list true).
NOT_BROKER_SETTINGS = frozenset(
    {
        "compression.gzip.level",
        "compression.lz4.level",
        "compression.type",
        "compression.zstd.level",
        "log.local.retention.bytes",
        "log.local.retention.ms",
        "max.decompressed.message.bytes",
        "log.message.timestamp.after.max.ms",
        "log.message.timestamp.before.max.ms",
        "log.message.timestamp.type",
        "log.preallocate",
        "log.index.size.max.bytes",
        "log.roll.jitter.ms",
        "log.roll.jitter.hours",
        "log.flush.offset.checkpoint.interval.ms",
    }
)

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
            MOVE_RATE_KEY,
        ]
    )
)


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class LogManager(LogDirMoves, DeferredLogs):
    """Owns the log directories: the topic catalog and the open partition logs."""

    def __init__(
        self,
        data_dir: Path | str | Sequence[Path | str],
        broker_configs: Mapping[str, Any] | None = None,
        *,
        now_ms: Callable[[], int] = _wall_clock_ms,
        broker_config_sources: Mapping[str, ConfigSource] | None = None,
    ) -> None:
        given = [data_dir] if isinstance(data_dir, (str, Path)) else list(data_dir)
        self.dirs = LogDirs(given)
        # The first log directory (as configured): the catalog and the broker's own files.
        self.data_dir = Path(given[0])
        self._now_ms = now_ms
        # The log directory of each local partition's current log.
        self._dir_of: dict[tuple[str, int], Path] = {}
        # Local partitions whose log directory is offline.
        self._offline: set[tuple[str, int]] = set()
        # Moves in progress (AlterReplicaLogDirs): the future logs being filled.
        self._futures: dict[tuple[str, int], FutureReplica] = {}
        # Where partitions not created yet go (AlterReplicaLogDirs before a reassignment
        # brings the replica here, as kafka-reassign-partitions.sh with log_dirs does).
        self._preferred: dict[tuple[str, int], Path] = {}
        self._moves_wake = trio.Event()
        self._topics: dict[str, TopicInfo] = {}
        # Topics whose partitions are being created (create_topic_steps): their names are taken.
        self._creating: set[str] = set()
        self._by_id: dict[uuid.UUID, TopicInfo] = {}
        self._logs: dict[tuple[str, int], PartitionLog] = {}
        # Logs not opened yet (broker.log.deferred): those a clean start left closed, and
        # new ones (opened by their first use).
        self._deferred: dict[tuple[str, int], Deferred] = {}
        self._open_queue: deque[tuple[str, int]] = deque()  # deferred logs to open in the background
        self._open_wake = trio.Event()
        self._broker: dict[str, str] = {}
        self._broker_sources: dict[str, ConfigSource] = {}
        self.set_broker_defaults(broker_configs or {}, broker_config_sources)
        self._opened = False
        # Called with (event, topic name) after a topic is created, deleted or grows
        # partitions; group coordinators re-target their assignments on it.
        self.topic_listeners: list[Callable[[str, str], None]] = []
        # Called with the partitions whose deferred logs the background opener opened.
        self.log_open_listeners: list[Callable[[list[tuple[str, int]]], None]] = []
        # Called with (old, new) when a move swaps a partition's log for its future log;
        # the replica layer carries on with the new one (appends, waiters, fetchers).
        self.log_swap_listeners: list[Callable[[PartitionLog, PartitionLog], None]] = []
        # The compacted logs (the cleaner's passes look at these only), made again after
        # any change of logs or configs; the logs holding retired segments.
        self._compacted: list[PartitionLog] | None = None
        self._retiring: dict[tuple[str, int], PartitionLog] = {}
        self.cleaner = LogCleaner(
            self.data_dir,
            logs=self.logs,
            settings=lambda: CleanerSettings.from_broker(self._broker),
            now_ms=now_ms,
            compacted=self.compacted_logs,
            retiring=self.retiring_logs,
            unopened=lambda: list(self._deferred),
        )

    @classmethod
    def from_config(
        cls, data_dir: Path | str | Sequence[Path | str], config: Any, *, now_ms: Callable[[], int] = _wall_clock_ms
    ) -> LogManager:
        """Build from a ``broker.config.BrokerConfig`` (anything with ``get(key)``,
        and optionally ``origin(key).source``)."""
        values: dict[str, Any] = {}
        sources: dict[str, ConfigSource] = {}
        origin = getattr(config, "origin", None)
        for key in _BROKER_KEYS:
            if key in NOT_BROKER_SETTINGS:
                continue
            value = config.get(key)  # KeyError for a key the table lacks: never a quiet default
            if value is None:
                continue
            values[key] = value
            if origin is not None:
                sources[key] = ConfigSource(int(origin(key).source))
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
        self._broker = {k: config_text(v) for k, v in configs.items() if v is not None}
        self._broker_sources = dict(sources or {})
        for info in self._topics.values():
            self._reconfigure(info)

    # ================================================================== lifecycle

    def open(self) -> None:
        """Lock the log directories, load the catalog and open (recovering) every log.

        After a clean shutdown their opening is deferred (:mod:`broker.log.deferred`);
        after a crash every log is opened (and recovered) before the broker serves.

        A partition found in two directories stops the broker (as in Kafka: which copy
        is right cannot be told); a move interrupted by a crash is resumed."""
        self.dirs.lock()
        clean = all((d.path / CLEAN_SHUTDOWN_FILE).exists() for d in self.dirs.online())
        try:
            self._load_catalog()
            scan = self.dirs.scan()
            # A deferred log's topic id is checked when it opens (_open_deferred).
            self._remove_orphans(scan, check_ids=not clean)
            self._open_all(scan, defer=clean)
            # Internal topics' logs first (queued only: this runs in a worker thread); rest: open_rest_soon.
            self._open_queue.extend(k for k in self._deferred if self._topics[k[0]].internal)
        except BaseException:
            for part_log in [*self._logs.values(), *(f.log for f in self._futures.values())]:
                part_log.discard()
            self._logs.clear()
            self._deferred.clear()
            self._open_queue.clear()
            self._futures.clear()
            self.dirs.unlock()
            raise
        # From here on a crash is an unclean shutdown.
        for d in self.dirs.online():
            marker = d.path / CLEAN_SHUTDOWN_FILE
            if marker.exists():
                marker.unlink()
                fsync_dir(d.path)
        self.checkpoint()
        self._opened = True
        log.info(
            "logs_opened",
            data_dir=str(self.data_dir),
            log_dirs=[str(p) for p in self.dirs.paths],
            offline_log_dirs=[str(d.path) for d in self.dirs.dirs if not d.online],
            topics=len(self._topics),
            partitions=len(self._logs) + len(self._deferred),
            deferred=len(self._deferred),
            moves=len(self._futures),
            clean_shutdown=clean,
        )

    def _open_all(self, scan: Scan, *, defer: bool = False) -> None:
        # Each directory's checkpoint files are read once for all its logs (once per log
        # would cost O(logs) for each log: 30 s to open 2,000 partitions).
        # The scan tells which partitions have a directory (no stat per partition).
        present: dict[Path, set[str]] = {}
        for paths in scan.current.values():
            for path in paths:
                present.setdefault(path.parent, set()).add(path.name)
        states = {d.path: DirectoryState.read(d.path, frozenset(present.get(d.path, ()))) for d in self.dirs.online()}
        single = self._single_dir()
        for info in self._topics.values():
            config = self.log_config(info.name)
            for p in range(info.partitions):
                if not info.is_local(p):
                    continue
                key = (info.name, p)
                found = scan.current.get(key, [])
                futures = scan.future.get(key, [])
                if len(found) > 1 or len(futures) > 1:
                    raise KafkaError(
                        ErrorCode.KAFKA_STORAGE_ERROR,
                        f"{info.name}-{p} has replicas in several log directories: "
                        + ", ".join(str(f) for f in [*found, *futures]),
                    )
                if not found and futures:
                    # The crash came between the renames of a swap: the future log had
                    # caught up and was durable; it is the partition's log now.
                    target = futures[0].parent / f"{info.name}-{p}"
                    os.rename(futures[0], target)
                    fsync_dir(target.parent)
                    log.warning("future_replica_promoted", topic=info.name, partition=p, log_dir=str(target.parent))
                    found, futures = [target], []
                    state = states.get(target.parent)
                    if state is not None and state.directories is not None:
                        states[target.parent] = state._replace(directories=state.directories | {target.name})
                if not found and self.dirs.any_offline():
                    # Its directory may be the offline one: creating it elsewhere would
                    # hide the data the failed disk still holds.
                    self._offline.add(key)
                    continue
                if defer and not futures and (found or single is not None):
                    where = found[0].parent if found else single
                    assert where is not None
                    self._defer(key, Deferred(where, states[where] if found else NEW_LOG))
                    continue
                try:
                    if found:
                        where = found[0].parent
                        self._logs[key] = self._open_log(info, p, config, where, states.get(where))
                    else:
                        self._logs[key] = self._open_log(info, p, config)
                except KafkaError as exc:
                    if exc.code != ErrorCode.KAFKA_STORAGE_ERROR or not found:
                        raise
                    self._fail_dir(self.dirs.of(found[0]), str(exc))
                    continue
                if futures:
                    self._resume_move(info, p, config, futures[0])

    def _resume_move(self, info: TopicInfo, p: int, config: LogConfig, path: Path) -> None:
        directory = self.dirs.of(path)
        if not directory.online:
            return
        try:
            future_log = PartitionLog.open(path, info.name, p, info.topic_id, config, self._now_ms)
        except KafkaError as exc:
            log.warning("future_replica_dropped", topic=info.name, partition=p, error=str(exc))
            self._trash_path_quietly(path)
            return
        self._futures[(info.name, p)] = FutureReplica(info.name, p, future_log, directory.path)
        log.info("replica_move_resumed", topic=info.name, partition=p, log_dir=str(directory.path))

    def close(self) -> None:
        """Flush and close every log, write checkpoints and the clean-shutdown markers."""
        if not self._opened:
            return
        self._opened = False
        failed = False
        started = time.monotonic()
        try:
            self.cleaner.write_checkpoint()
        except OSError as exc:
            log.error("cleaner_checkpoint_failed", error=str(exc))
        for part_log in [*self._logs.values(), *(f.log for f in self._futures.values())]:
            try:
                part_log.close(durable=False)
            except KafkaError as exc:
                failed = True
                log.error("log_close_failed", topic=part_log.topic, partition=part_log.partition, error=str(exc))
        closed = time.monotonic()
        for d in self.dirs.online():
            try:
                # One sync of each directory's file system for every log closed above (each
                # would otherwise fsync its segment, indexes, epoch file and directory:
                # seconds for thousands).
                sync_filesystem(d.path)
            except OSError as exc:
                failed = True
                log.error("log_sync_failed", log_dir=str(d.path), error=str(exc))
        synced = time.monotonic()
        if not failed:
            for part_log in self._logs.values():
                part_log.file_system_synced()
        self.checkpoint()
        if not failed:
            for d in self.dirs.online():
                try:
                    atomic_write(d.path / CLEAN_SHUTDOWN_FILE, b"")
                except OSError as exc:
                    log.error("clean_shutdown_marker_failed", log_dir=str(d.path), error=str(exc))
        log.info(
            "logs_closed",
            partitions=len(self._logs),
            close_s=round(closed - started, 3),
            sync_s=round(synced - closed, 3),
            checkpoint_s=round(time.monotonic() - synced, 3),
            clean=not failed,
        )
        self._logs.clear()
        self._deferred.clear()
        self._futures.clear()
        self.dirs.unlock()

    def _open_log(
        self,
        info: TopicInfo,
        partition: int,
        config: LogConfig,
        directory: Path | None = None,
        state: DirectoryState | None = None,
    ) -> PartitionLog:
        """Open the partition's log in ``directory`` (default: where it is, else where it
        was asked to go, else the online directory holding the fewest replicas). ``state``:
        that directory's checkpoints, when the caller read them already."""
        key = (info.name, partition)
        if directory is None:
            directory = self._dir_of.get(key) or self._place(key)
        self._compacted = None
        part_log = PartitionLog.open(
            directory / f"{info.name}-{partition}", info.name, partition, info.topic_id, config, self._now_ms, state
        )
        part_log.on_retire = self._retired
        self._dir_of[key] = directory
        self._offline.discard(key)
        return part_log

    def _place(self, key: tuple[str, int]) -> Path:
        preferred = self._preferred.pop(key, None)
        if preferred is not None:
            d = self.dirs.find(preferred)
            if d is not None and d.online:
                return d.path
        best = self.dirs.least_loaded(
            itertools.chain(self._dir_of.values(), (f.directory for f in self._futures.values()))
        )
        if best is None:
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, "every log directory is offline")
        return best.path

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
            self._add_topics([info])

    def _add_topics(self, infos: Iterable[TopicInfo], opened: Iterable[OpenedLog] = ()) -> None:
        """Take topics (as the catalog has them) and the logs just opened for them."""
        for info in infos:
            self._topics[info.name] = info
            self._by_id[info.topic_id] = info
        for info, p, part_log in opened:
            self._logs[(info.name, p)] = part_log

    def _discard_opened(self, opened: Iterable[OpenedLog]) -> None:
        """Undo logs opened for a change the catalog did not take: gone, files and all."""
        for info, p, part_log in opened:
            part_log.discard()
            self._trash_partition(info.name, p)

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

    def _remove_orphans(self, scan: Scan, *, check_ids: bool = True) -> None:
        """Remove replica directories (current or future) the catalog does not know
        (``check_ids``: or whose partition.metadata names another topic id)."""
        for kind in (scan.current, scan.future):
            for (topic, partition), paths in list(kind.items()):
                info = self._topics.get(topic)
                keep = []
                for path in paths:
                    if info is not None and partition < info.partitions and info.is_local(partition):
                        check = check_ids or kind is scan.future or (topic, partition) in scan.future
                        stored = read_partition_metadata(path) if check else None
                        if stored is None or stored == info.topic_id:
                            keep.append(path)
                            continue
                    log.warning("orphan_partition_removed", directory=str(path))
                    self._trash_path_quietly(path)
                if keep:
                    kind[(topic, partition)] = keep
                else:
                    del kind[(topic, partition)]

    # ================================================================== queries

    @property
    def topics(self) -> dict[str, TopicInfo]:
        """Topic name -> TopicInfo (treat as read-only)."""
        return self._topics

    def topic_by_id(self, topic_id: uuid.UUID) -> TopicInfo | None:
        return self._by_id.get(topic_id)

    def compacted_logs(self) -> list[PartitionLog]:
        """The logs whose cleanup.policy includes compact (kept between changes: a broker
        of 30,000 partitions has a few dozen compacted ones, the internal topics')."""
        if self._compacted is None:
            self._compacted = [p for p in self._logs.values() if p.config.compact]
        return self._compacted

    def retiring_logs(self) -> list[PartitionLog]:
        """The logs holding segments taken out of them whose descriptors are still open."""
        for key, part_log in list(self._retiring.items()):
            if part_log.closed or not part_log.has_retired_segments:
                del self._retiring[key]
        return list(self._retiring.values())

    def _retired(self, part_log: PartitionLog) -> None:
        self._retiring[(part_log.topic, part_log.partition)] = part_log

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
        partitions: a topic of thousands of partitions takes a while to lay out, which
        must not stall every connection. The name is taken while it runs; closed
        half-way, it removes what it made. Raises KafkaError. The event loop drives it
        with :func:`run_steps_async`; :meth:`create_topic` runs it at once."""
        spec = NewTopicSpec(name, partitions, configs or {}, internal, replication_factor, topic_id)
        [outcome] = yield from self.create_topics_steps([spec], validate_only=validate_only)
        if isinstance(outcome, KafkaError):
            raise outcome
        return outcome

    def create_topics_steps(
        self, specs: Iterable[NewTopicSpec], *, validate_only: bool = False
    ) -> Generator[None, None, list[TopicInfo | KafkaError]]:
        """Create many topics with one catalog write (a CreateTopics request): each is
        checked on its own (against the others of the batch too), the partitions of those
        accepted are laid out, pausing as :meth:`create_topic_steps` does, then the
        catalog is written once. Per topic, in order: its info or why it was refused."""
        outcomes: list[TopicInfo | KafkaError] = []
        accepted: list[tuple[TopicInfo, LogConfig]] = []
        taken: list[str] = []
        for spec in specs:
            try:
                info, config = self._check_new_topic(spec, taken)
            except KafkaError as exc:
                outcomes.append(exc)
                continue
            outcomes.append(info)
            taken.append(info.name)
            accepted.append((info, config))
        if validate_only or not accepted:
            return outcomes
        opened: list[OpenedLog] = []
        # With one log directory a new log is opened by its first use (it has no file
        # until its first write either); with several it is placed now.
        single = self._single_dir()
        self._creating.update(taken)
        try:
            laid_out = 0
            for info, config in accepted:
                for p in range(info.partitions if single is None else 0):
                    opened.append((info, p, self._open_log(info, p, config)))
                    laid_out += 1
                    if laid_out % CREATE_PARTITIONS_PER_STEP == 0:
                        yield
            self._save_catalog([*self._topics.values(), *(info for info, _ in accepted)])
        except BaseException:
            self._discard_opened(opened)
            raise
        finally:
            self._creating.difference_update(taken)
        self._add_topics((info for info, _ in accepted), opened)
        if single is not None:
            for info, _ in accepted:
                self._defer_new(info.name, range(info.partitions), single)
        for info, _ in accepted:
            log.info(
                "topic_created",
                topic=info.name,
                topic_id=str(info.topic_id),
                partitions=info.partitions,
                configs=info.configs,
            )
            self._notify("created", info.name)
        return outcomes

    def _check_new_topic(self, spec: NewTopicSpec, taken: Iterable[str]) -> tuple[TopicInfo, LogConfig]:
        """The topic ``spec`` would make, with its log config (raises KafkaError)."""
        name = spec.name
        validate_topic_name(name)
        if name in self._topics or name in self._creating or name in taken:
            raise KafkaError(ErrorCode.TOPIC_ALREADY_EXISTS, f"Topic '{name}' already exists.")
        key = collision_key(name)
        for other in [*self._topics, *self._creating, *taken]:
            if collision_key(other) == key:
                raise KafkaError(
                    ErrorCode.INVALID_TOPIC_EXCEPTION,
                    f"Topic '{name}' collides with existing topic: {other}",
                )
        partitions = spec.partitions
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
        if spec.replication_factor not in (-1, 1):
            raise KafkaError(
                ErrorCode.INVALID_REPLICATION_FACTOR,
                f"Unable to replicate the partition {spec.replication_factor} time(s): only 1 broker is registered.",
            )
        stored = validate_topic_configs(spec.configs or {})
        config = LogConfig.from_configs(self._broker, stored)
        topic_id = spec.topic_id
        if topic_id is None:
            topic_id = uuid.uuid4()
        elif topic_id in self._by_id or topic_id.int == 0:
            raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, f"topic id {topic_id} is already in use or invalid")
        return TopicInfo(name, topic_id, partitions, stored, spec.internal), config

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
            self._trash_partition(name, p)
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
        self.apply_topics([info])

    def apply_topics(self, infos: Iterable[TopicInfo]) -> None:
        """:meth:`apply_topic` for many topics, with one catalog write for all."""
        changes = []
        for info in infos:
            current = self._topics.get(info.name)
            if current is not None and current.topic_id != info.topic_id:
                self.delete_topic(info.name)
                current = None
            if current is not None and current == info:
                continue
            changes.append((info, current))
        if not changes:
            return
        opened: list[OpenedLog] = []
        # New local logs: deferred with one log directory (opened just after, in the
        # background: a follower must fetch), else placed and opened now.
        single = self._single_dir()
        new: list[tuple[str, int]] = []
        try:
            for info, _ in changes:
                config = LogConfig.from_configs(self._broker, info.configs)
                for p in range(info.partitions):
                    key = (info.name, p)
                    if info.is_local(p) and not self.has_log(*key) and key not in self._offline:
                        if single is not None:
                            new.append(key)
                        else:
                            opened.append((info, p, self._open_log(info, p, config)))
            updated = {info.name: info for info, _ in changes}
            others = [t for t in self._topics.values() if t.name not in updated]
            self._save_catalog([*others, *updated.values()])
        except BaseException:
            self._discard_opened(opened)
            raise
        self._add_topics((info for info, _ in changes), opened)
        if single is not None:
            for key in new:
                self._defer(key, Deferred(single, NEW_LOG))
            self.open_soon(new)
        new_logs = {(info.name, p) for info, p, _ in opened} | set(new)
        for info, current in changes:
            # Replicas moved elsewhere (partition reassignment): their logs go.
            dropped = [
                p
                for p in range(info.partitions)
                if not info.is_local(p) and (self.has_log(info.name, p) or (info.name, p) in self._offline)
            ]
            for p in dropped:
                gone = self._logs.pop((info.name, p), None)
                if gone is not None:
                    gone.discard()
                self._trash_partition(info.name, p)
                log.info("replica_removed", topic=info.name, partition=p)
            if current is None:
                log.info(
                    "topic_created", topic=info.name, topic_id=str(info.topic_id), partitions=len(info.local or ())
                )
            elif current.configs != info.configs:
                self._reconfigure(info)
            made = any((info.name, p) in new_logs for p in range(info.partitions))
            if made or dropped or current is None or current.partitions != info.partitions:
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
        opened: list[OpenedLog] = []
        try:
            for p in range(info.partitions, new_total):
                opened.append((updated, p, self._open_log(updated, p, config)))
            self._save_catalog([updated if t.name == name else t for t in self._topics.values()])
        except BaseException:
            for _, _, part_log in opened:
                part_log.discard()
            for p in range(info.partitions, new_total):
                self._trash_partition(name, p)
            raise
        self._add_topics([updated], opened)
        log.info("partitions_created", topic=name, partitions=new_total)
        self._notify("partitions", name)
        return updated

    def _notify(self, event: str, name: str) -> None:
        self._compacted = None
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
        self._add_topics([updated])
        self._reconfigure(updated)
        log.info("topic_configs_altered", topic=name, configs=configs)
        return updated

    def _reconfigure(self, info: TopicInfo) -> None:
        self._compacted = None
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
        # Each directory's files list the logs in it: current logs, and future logs
        # (a partition never has both in one directory).
        by_dir: dict[Path, list[tuple[tuple[str, int], PartitionLog]]] = {d.path: [] for d in self.dirs.online()}
        for k, v in self._logs.items():
            by_dir.setdefault(self._dir_of[k], []).append((k, v))
        for k, f in self._futures.items():
            by_dir.setdefault(f.directory, []).append((k, f.log))
        # A deferred log keeps the entries the directory's files had when the broker started.
        deferred: dict[Path, list[tuple[tuple[str, int], DirectoryState]]] = {}
        for k, (where, state) in self._deferred.items():
            deferred.setdefault(where, []).append((k, state))

        def write() -> None:
            failed: OSError | None = None
            for directory, logs in by_dir.items():
                try:
                    with CHECKPOINT_LOCK:
                        points = {k: v.recovery_point for k, v in logs}
                        # Epoch files written since the last checkpoint are fsynced before
                        # these points (read first: an epoch file holds every entry up to its
                        # log's end): one by one when few, with one sync of the file system
                        # when many (the leaders of a failed broker's partitions all wrote one).
                        unsynced = [v for _, v in logs if v.epochs_unsynced]
                        if len(unsynced) >= SYNCFS_EPOCH_FILES:
                            sync_filesystem(directory)
                            for v in unsynced:
                                v.file_system_synced()
                        for v in unsynced:
                            v.sync_epochs()
                        kept = deferred_entries(deferred.get(directory, ()))
                        write_offset_checkpoint(directory / RECOVERY_POINT_CHECKPOINT, {**kept[0], **points})
                        write_offset_checkpoint(
                            directory / LOG_START_OFFSET_CHECKPOINT,
                            {**kept[1], **{k: v.log_start_offset for k, v in logs}},
                        )
                        write_offset_checkpoint(
                            directory / HIGH_WATERMARK_CHECKPOINT, {**kept[2], **{k: v.high_watermark for k, v in logs}}
                        )
                except OSError as exc:
                    failed = failed or exc
                    continue
                for k, v in logs:
                    v.checkpointed_recovery_point = max(v.checkpointed_recovery_point, points[k])
            if failed is not None:
                raise failed

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
        every log.flush.offset.checkpoint.interval.ms (1 min), forever; the log cleaner
        (compaction), which runs on its own schedule; and the opening of the logs a clean
        start deferred."""
        async with trio.open_nursery() as nursery:
            await nursery.start(self.cleaner.run)
            await nursery.start(self._periodic)
            await nursery.start(self.run_moves)
            await nursery.start(self.open_deferred_in_turn)
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
