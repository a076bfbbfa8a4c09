"""Log directories of a LogManager (JBOD): what DescribeLogDirs reports, AlterReplicaLogDirs
moves, and a failed directory taking its partitions offline.

:class:`LogDirMoves` is part of :class:`broker.log.manager.LogManager` (a mixin, split out
for size): it works on the manager's partition logs and their directories. A move copies
the current log into a future log (:mod:`broker.log.future`) a step at a time, then swaps
the two without yielding to the event loop, the future log made durable first.
"""

from __future__ import annotations

import os
import shutil
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import structlog
import trio

from broker.log.checkpoint import (
    CHECKPOINT_LOCK,
    HIGH_WATERMARK_CHECKPOINT,
    LOG_START_OFFSET_CHECKPOINT,
    RECOVERY_POINT_CHECKPOINT,
    disk_full,
    fsync_dir,
    write_offset_checkpoint,
)
from broker.log.dirs import DELETE_SUFFIX, LogDir, LogDirs, future_name, trash, volume_bytes
from broker.log.future import COPY_STEP_BYTES, FutureReplica, catch_up
from broker.log.partition import PartitionLog
from broker.protocol.errors import ErrorCode, KafkaError

if TYPE_CHECKING:
    from broker.log.config import LogConfig
    from broker.log.deferred import Deferred

__all__ = ["MOVE_RATE_KEY", "DirReport", "LogDirMoves", "ReplicaReport"]

log = structlog.get_logger("sharebroker.log")

# Kafka's quota on AlterReplicaLogDirs copying (bytes/s, all moves together).
MOVE_RATE_KEY = "replica.alter.log.dirs.io.max.bytes.per.second"


@dataclass(frozen=True, slots=True)
class ReplicaReport:
    """One replica in a log directory, as DescribeLogDirs shows it."""

    topic: str
    partition: int
    size: int
    offset_lag: int
    is_future: bool


@dataclass(frozen=True, slots=True)
class DirReport:
    """One log directory, as DescribeLogDirs shows it (``error``: KAFKA_STORAGE_ERROR offline)."""

    path: Path
    error: int
    total_bytes: int = -1
    usable_bytes: int = -1
    replicas: tuple[ReplicaReport, ...] = ()


class LogDirMoves:
    """The log-directory half of LogManager (it provides these attributes and methods)."""

    dirs: LogDirs
    _logs: dict[tuple[str, int], PartitionLog]
    _deferred: dict[tuple[str, int], Deferred]
    _dir_of: dict[tuple[str, int], Path]
    _offline: set[tuple[str, int]]
    _futures: dict[tuple[str, int], FutureReplica]
    _compacted: list[PartitionLog] | None
    _preferred: dict[tuple[str, int], Path]
    _moves_wake: trio.Event
    _broker: dict[str, str]
    _now_ms: Callable[[], int]
    log_swap_listeners: list[Callable[[PartitionLog, PartitionLog], None]]

    def _require(self, name: str) -> Any: ...  # the topic's TopicInfo
    def log_config(self, name: str) -> LogConfig: ...  # type: ignore[empty-body]
    def checkpoint(self) -> None: ...
    def _notify(self, event: str, name: str) -> None: ...
    def _retired(self, part_log: PartitionLog) -> None: ...

    if TYPE_CHECKING:  # defined by DeferredLogs (a stub here would hide it)

        def partition(self, topic: str, index: int) -> PartitionLog | None: ...
        def has_log(self, topic: str, index: int) -> bool: ...
        def open_deferred(self, keys: Iterable[tuple[str, int]] | None = None) -> list[tuple[str, int]]: ...

    def _trash_partition(self, name: str, partition: int) -> None:
        """Remove a local partition's directories (current and future); failures only
        leave orphans for open()."""
        key = (name, partition)
        self._cancel_move(key)
        self._deferred.pop(key, None)
        self._offline.discard(key)
        self._preferred.pop(key, None)
        directory = self._dir_of.pop(key, None)
        # Not known: a half-made directory (its open failed), in whichever directory.
        for d in [directory] if directory is not None else [d.path for d in self.dirs.online()]:
            self._trash_path_quietly(d / f"{name}-{partition}")

    def _trash_path_quietly(self, path: Path) -> None:
        try:
            if path.exists():
                trash(path)
        except OSError as exc:
            log.warning("partition_cleanup_failed", directory=str(path), error=str(exc))

    def log_dir_of(self, topic: str, partition: int) -> Path | None:
        """The log directory of the partition's current log (None: not local, or offline)."""
        return self._dir_of.get((topic, partition)) if self.has_log(topic, partition) else None

    def is_offline(self, topic: str, partition: int) -> bool:
        """Whether the local partition's log directory is offline (KAFKA_STORAGE_ERROR)."""
        return (topic, partition) in self._offline

    def describe_dirs(self, wanted: Callable[[str, int], bool] | None = None) -> list[DirReport]:
        """Every configured log directory with its replicas (those ``wanted`` says), for
        DescribeLogDirs: size, offset lag (behind the high watermark for a current log,
        behind the current log's end for a future one) and whether it is a future log."""
        replicas: dict[Path, list[ReplicaReport]] = {}
        # Sizes and lags are read from the open logs (callers on the event loop open
        # them first with open_in_slices).
        self.open_deferred(None if wanted is None else [k for k in self._deferred if wanted(*k)])
        for (topic, p), part_log in self._logs.items():
            if wanted is None or wanted(topic, p):
                lag = max(part_log.high_watermark - part_log.log_end_offset, 0)
                replicas.setdefault(self._dir_of[(topic, p)], []).append(
                    ReplicaReport(topic, p, part_log.size_bytes, lag, False)
                )
        for (topic, p), f in self._futures.items():
            current = self._logs.get((topic, p))
            if current is not None and (wanted is None or wanted(topic, p)):
                lag = current.log_end_offset - f.log.log_end_offset
                replicas.setdefault(f.directory, []).append(ReplicaReport(topic, p, f.log.size_bytes, lag, True))
        out = []
        for d in self.dirs.dirs:
            if not d.online:
                out.append(DirReport(d.path, ErrorCode.KAFKA_STORAGE_ERROR))
                continue
            try:
                total, usable = volume_bytes(d.path)
            except OSError as exc:
                self._fail_dir(d, f"cannot stat {d.path}: {exc.strerror or exc}")
                out.append(DirReport(d.path, ErrorCode.KAFKA_STORAGE_ERROR))
                continue
            found = sorted(replicas.get(d.path, []), key=lambda r: (r.topic, r.partition))
            out.append(DirReport(d.path, ErrorCode.NONE, total, usable, tuple(found)))
        return out

    def alter_replica_dir(self, topic: str, partition: int, path: str) -> None:
        """Move the local replica to the log directory ``path`` online (AlterReplicaLogDirs).

        Raises KafkaError as Kafka answers: LOG_DIR_NOT_FOUND for a directory that is not
        configured, KAFKA_STORAGE_ERROR for an offline directory or partition (or while
        any directory is offline), REPLICA_NOT_AVAILABLE for a partition with no replica
        here (the directory is remembered for when one is created)."""
        target = self.dirs.find(path)
        if target is None or not Path(path).is_absolute():
            raise KafkaError(ErrorCode.LOG_DIR_NOT_FOUND, f"Log dir {path} is not found in the config.")
        if not target.online:
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"Log directory {target.path} is offline")
        key = (topic, partition)
        if key in self._offline:
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"Partition {topic}-{partition} is offline")
        future = self._futures.get(key)
        if future is not None and future.directory != target.path:
            self._cancel_move(key)
        current = self.partition(topic, partition)
        if current is None:
            self._preferred[key] = target.path
            raise KafkaError(ErrorCode.REPLICA_NOT_AVAILABLE, f"Replica for {topic}-{partition} is not available")
        if self._dir_of[key] == target.path or key in self._futures:
            return  # already there, or already on its way
        if self.dirs.any_offline():
            raise KafkaError(
                ErrorCode.KAFKA_STORAGE_ERROR,
                "Cannot create a future replica while a log directory is offline",
            )
        info = self._require(topic)
        path_ = target.path / future_name(topic, partition)
        try:
            future_log = PartitionLog.open(path_, topic, partition, info.topic_id, self.log_config(topic), self._now_ms)
        except KafkaError:
            self._trash_path_quietly(path_)
            raise
        self._futures[key] = FutureReplica(topic, partition, future_log, target.path)
        log.info("replica_move_started", topic=topic, partition=partition, log_dir=str(target.path))
        self._moves_wake.set()

    def _cancel_move(self, key: tuple[str, int]) -> None:
        future = self._futures.pop(key, None)
        if future is not None:
            future.log.discard()
            self._trash_path_quietly(future.log.path)
            log.info("replica_move_cancelled", topic=key[0], partition=key[1], log_dir=str(future.directory))

    def fail_log(self, part_log: PartitionLog, reason: str) -> None:
        """A log's I/O failed: its log directory goes offline (Kafka's log.dir.failure)."""
        d = self.dirs.find(part_log.path.parent)
        if d is not None:
            self._fail_dir(d, reason)

    def _fail_dir(self, d: LogDir, reason: str) -> None:
        """Take the directory offline with every replica in it; the others go on serving."""
        self.dirs.set_offline(d, reason)
        for key, directory in list(self._dir_of.items()):
            if directory != d.path:
                continue
            part_log = self._logs.pop(key, None)
            if part_log is not None:
                part_log.discard()
            self._deferred.pop(key, None)
            self._cancel_move(key)
            self._offline.add(key)
            self._notify("offline", key[0])
        for key, f in list(self._futures.items()):
            if f.directory == d.path:
                self._futures.pop(key)
                f.log.discard()

    async def run_moves(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Fill the future logs from their current logs, a step at a time, and swap each
        one in once it has caught up; forever."""
        task_status.started()
        while True:
            if not self._futures:
                await self._moves_wake.wait()
                self._moves_wake = trio.Event()
                continue
            for key, future in list(self._futures.items()):
                if self._futures.get(key) is not future:
                    continue  # cancelled meanwhile
                before = future.log.size_bytes
                try:
                    self._move_step(future)
                except KafkaError as exc:
                    log.error("replica_move_failed", topic=key[0], partition=key[1], error=str(exc))
                    if exc.code == ErrorCode.KAFKA_STORAGE_ERROR and not disk_full(exc):
                        self.fail_log(future.log, str(exc))
                    self._cancel_move(key)
                copied = max(future.log.size_bytes - before, 0) if not future.log.closed else 0
                rate = float(self._broker.get(MOVE_RATE_KEY, "inf"))
                if copied:
                    await trio.sleep(copied / rate)
                else:
                    await trio.lowlevel.checkpoint()

    def _move_step(self, future: FutureReplica, max_bytes: int = COPY_STEP_BYTES) -> None:
        """One copy step; once the future log holds everything, swap it in (no await in
        between, so no append can slip past it)."""
        key = future.key
        current = self._logs.get(key)
        if current is None:
            self._cancel_move(key)
            return
        if not catch_up(current, future.log, max_bytes):
            return
        self._swap(key, current, future)

    def _swap(self, key: tuple[str, int], current: PartitionLog, future: FutureReplica) -> None:
        # The future log is durable and its checkpoints name what it holds before the
        # current one goes: a crash after the first rename finds only the future log,
        # and start-up makes it current.
        info = self._require(key[0])
        hw = current.high_watermark if current.tracks_high_watermark else None
        if hw is not None:
            future.log.track_high_watermark(hw)
        # A log never written has no directory yet (its first write makes it); the swap
        # renames directories, so both get theirs now.
        current.materialize()
        future.log.materialize()
        future.log.close()
        old_dir = self._dir_of[key]
        target = future.directory / f"{key[0]}-{key[1]}"
        try:
            self.checkpoint_dir(future.directory, extra=[(key, future.log)])
        except OSError as exc:
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"cannot checkpoint {future.directory}: {exc}") from exc
        doomed = old_dir / f"{uuid.uuid4().hex}{DELETE_SUFFIX}"
        try:
            os.rename(current.path, doomed)
            fsync_dir(old_dir)
        except OSError as exc:
            self.fail_log(current, f"cannot move {current.path} away: {exc}")
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"swap of {key[0]}-{key[1]} failed: {exc}") from exc
        try:
            os.rename(future.log.path, target)
            fsync_dir(future.directory)
        except OSError as exc:
            # The current log goes back to its place; the future's directory failed.
            os.rename(doomed, current.path)
            self.fail_log(future.log, f"cannot rename {future.log.path}: {exc}")
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"swap of {key[0]}-{key[1]} failed: {exc}") from exc
        current.discard()
        shutil.rmtree(doomed, ignore_errors=True)
        del self._futures[key]
        self._dir_of[key] = future.directory
        new_log = PartitionLog.open(target, key[0], key[1], info.topic_id, self.log_config(key[0]), self._now_ms)
        new_log.on_retire = self._retired
        self._compacted = None
        if hw is not None:
            new_log.track_high_watermark(hw)
        self._logs[key] = new_log
        for listener in self.log_swap_listeners:
            listener(current, new_log)
        self.checkpoint()
        log.info("replica_moved", topic=key[0], partition=key[1], from_dir=str(old_dir), to_dir=str(future.directory))

    def checkpoint_dir(self, directory: Path, *, extra: Iterable[tuple[tuple[str, int], PartitionLog]] = ()) -> None:
        """Write one directory's offset checkpoints now, with ``extra`` logs in them."""
        self.open_deferred()  # its checkpoint files are written from open logs
        logs = [(k, v) for k, v in self._logs.items() if self._dir_of.get(k) == directory]
        logs += [(k, f.log) for k, f in self._futures.items() if f.directory == directory]
        logs += list(extra)
        with CHECKPOINT_LOCK:
            write_offset_checkpoint(directory / RECOVERY_POINT_CHECKPOINT, {k: v.recovery_point for k, v in logs})
            write_offset_checkpoint(directory / LOG_START_OFFSET_CHECKPOINT, {k: v.log_start_offset for k, v in logs})
            write_offset_checkpoint(directory / HIGH_WATERMARK_CHECKPOINT, {k: v.high_watermark for k, v in logs})
