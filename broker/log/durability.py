"""Durability of a PartitionLog: flushing what was written, moving the recovery point.

:class:`LogDurability` is part of :class:`broker.log.partition.PartitionLog` (a mixin,
split out at this seam for size). A flush runs in a worker thread (the group committer's)
while appends go on: it captures what to sync under the log's small lock, syncs without
it (segments being synced are pinned so retention cannot close their descriptors), and
moves the recovery point to the log end it captured. ``flush_unsynced`` is the half of a
flush whose syncing the committer does for many logs at once (one ``syncfs``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path

import structlog

from broker.log.checkpoint import RECOVERY_POINT_CHECKPOINT, atomic_write, fsync_dir, update_offset_checkpoint
from broker.log.epoch_cache import LEADER_EPOCH_CHECKPOINT, EpochEntry, LeaderEpochCache
from broker.log.segment import LogSegment
from broker.protocol.errors import ErrorCode, KafkaError

__all__ = ["LogDurability"]

log = structlog.get_logger("sharebroker.log")


class _Flush:
    """What one flush of a log captured (see PartitionLog._flush_begin)."""

    __slots__ = (
        "active",
        "dir_dirty",
        "epoch_entries",
        "epochs",
        "epochs_synced",
        "failed",
        "messages",
        "target_offset",
        "targets",
    )

    def __init__(
        self, active: LogSegment, targets: list[LogSegment], target_offset: int, messages: int, dir_dirty: bool
    ) -> None:
        self.active = active
        self.targets = targets
        self.target_offset = target_offset
        self.messages = messages
        self.dir_dirty = dir_dirty
        self.epochs: bytes | None = None
        self.epoch_entries: tuple[EpochEntry, ...] = ()
        self.epochs_synced = False
        self.failed: OSError | None = None


class LogDurability:
    """The flush half of PartitionLog (which provides these attributes)."""

    path: Path
    topic: str
    partition: int
    segments: list[LogSegment]
    epochs: LeaderEpochCache
    checkpointed_recovery_point: int
    _lock: threading.Lock
    _flush_lock: threading.Lock
    _leo: int
    _recovery_point: int
    _unflushed_messages: int
    _dir_dirty: bool
    _closed: bool
    _closing: bool
    _materialized: bool
    _epochs_unsynced: bool

    def needs_flush(self) -> bool:
        """Appended data or files not yet fsynced."""
        return (
            self._recovery_point < self._leo
            or self._dir_dirty
            or (self.epochs.dirty and self._materialized)
            or any(s.dirty for s in self.segments)
        )

    def has_unflushed_inactive_segment(self) -> bool:
        """A rolled segment not yet fsynced (Kafka flushes segments when they roll)."""
        return any(s.dirty for s in self.segments[:-1])

    def checkpoint_recovery_point(self) -> int:
        """Write this log's recovery point to the checkpoint file now (blocking: an
        fsync; safe in a worker thread); returns the offset written."""
        offset = self._recovery_point
        self.sync_epochs()
        update_offset_checkpoint(self.path.parent / RECOVERY_POINT_CHECKPOINT, self.topic, self.partition, offset)
        self.checkpointed_recovery_point = max(self.checkpointed_recovery_point, offset)
        return offset

    def flush(self) -> None:
        """fsync every segment, index and directory entry written since the last flush,
        then advance the recovery point to the log end captured at the start.

        The active segment's index entries are written but their files fsynced only
        at close: recovery after a crash rebuilds that segment's indexes, and a
        rolled segment gets its index files fsynced by the next flush.

        Safe to call from a worker thread while appends continue; raises
        KafkaError(KAFKA_STORAGE_ERROR) if an fsync fails.
        """
        with self._flush_lock:
            self._flush()

    def flush_unsynced(self) -> Callable[[OSError | None], None]:
        """The first half of a flush whose syncing the caller does for many logs at once
        (one ``syncfs`` for a group-commit round of hundreds of logs): takes the flush lock,
        writes what is buffered without fsync, and returns the function to call exactly
        once after the file system was synced (with the OSError if that failed), which
        moves the recovery point (or raises KafkaError) and releases the lock."""
        self._flush_lock.acquire()
        try:
            state = self._flush_begin()
        except BaseException:
            self._flush_lock.release()
            raise

        def finish(failed: OSError | None) -> None:
            try:
                if state is not None:
                    if failed is None:
                        state.epochs_synced = True  # the file system sync covered it
                    self._flush_end(state, failed)
            finally:
                self._flush_lock.release()

        return finish

    def _flush(self, *, durable: bool = True) -> None:
        state = self._flush_begin(durable=durable)
        if state is None:
            return
        failed: OSError | None = None
        if durable:
            try:
                for seg in state.targets:
                    seg.fsync(indexes=self._closing or seg is not state.active, sync=True)
                if state.epochs is not None and self._closing:
                    self._fsync_epochs()  # a closed log leaves nothing unsynced
                    state.epochs_synced = True
                if state.dir_dirty:
                    fsync_dir(self.path)
            except OSError as exc:
                failed = exc
        self._flush_end(state, failed)

    def _fsync_epochs(self) -> None:
        fd = os.open(self.path / LEADER_EPOCH_CHECKPOINT, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    @property
    def epochs_unsynced(self) -> bool:
        return self._epochs_unsynced

    def file_system_synced(self) -> None:
        """The whole file system was synced (syncfs): nothing of this log waits for an fsync."""
        self._epochs_unsynced = False

    def sync_epochs(self) -> None:
        """fsync the leader-epoch-checkpoint if it was written since (blocking; call before
        checkpointing a recovery point read earlier: safe in a worker thread)."""
        if not self._epochs_unsynced or not self._materialized:
            return
        self._epochs_unsynced = False
        try:
            self._fsync_epochs()
        except FileNotFoundError:
            pass  # the log was deleted meanwhile
        except OSError:
            self._epochs_unsynced = True
            raise

    def _flush_begin(self, *, durable: bool = False) -> _Flush | None:
        """Capture what to flush and write what is buffered (index entries, the epoch
        file), without fsync unless ``durable`` (then the epoch file only). None: closed."""
        with self._lock:
            if self._closed:
                return None
            active = self.segments[-1]
            targets = [s for s in self.segments if s.dirty]
            for seg in targets:
                seg.dirty = False
                seg.pins += 1
            state = _Flush(active, targets, self._leo, self._unflushed_messages, self._dir_dirty)
            self._dir_dirty = False
            # A log without a directory yet keeps its epochs in memory until its first
            # write makes one (an empty log's epochs protect no data).
            if self._closing and self.epochs.dirty and self.epochs.same_on_disk_below(self._leo):
                # Closing: only epochs with no record yet differ from the file, and the
                # next load drops those. A leader elected after a restart would otherwise
                # create a file at the stop for each partition it leads (10,000 of them
                # took seconds here).
                self.epochs.dirty = False
            state.epochs = self.epochs.encode() if self.epochs.dirty and self._materialized else None
            if state.epochs is not None:
                state.epoch_entries = tuple(self.epochs.entries)
                self.epochs.dirty = False
        try:
            if not durable:
                for seg in targets:
                    seg.fsync(indexes=False, sync=False)  # index entries written, not synced
            if state.epochs is not None:
                # Written and renamed in now; the flush's directory fsync makes the name
                # durable, and the data is fsynced before a recovery point past these
                # entries reaches the checkpoint file (sync_epochs): recovery rebuilds
                # the entries above the checkpointed point from batch headers. So the
                # first write to each of 5,000 new partitions costs no fsync for it.
                atomic_write(self.path / LEADER_EPOCH_CHECKPOINT, state.epochs, durable=False)
                self.epochs.on_disk = state.epoch_entries
                state.dir_dirty = True
        except OSError as exc:
            state.failed = exc
        return state

    def _flush_end(self, state: _Flush, failed: OSError | None) -> None:
        failed = failed or state.failed
        if failed is not None and self._closed:
            failed = None  # discarded (topic deleted) while flushing: nothing to report
            state.dir_dirty = False
        with self._lock:
            for seg in state.targets:
                seg.pins -= 1
                if failed is not None:
                    seg.dirty = True
                if seg.closing and seg.pins == 0:
                    seg.close()
            if failed is not None:
                self._dir_dirty = self._dir_dirty or state.dir_dirty
                if state.epochs is not None:
                    self.epochs.dirty = True
            else:
                if state.target_offset > self._recovery_point:
                    self._recovery_point = state.target_offset
                self._unflushed_messages -= state.messages
                if state.epochs is not None and not state.epochs_synced:
                    self._epochs_unsynced = True
        if failed is not None:
            log.error("log_flush_failed", topic=self.topic, partition=self.partition, error=str(failed))
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"fsync of {self.path} failed: {failed}") from failed
