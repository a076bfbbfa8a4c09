"""PartitionLog: the durable, append-only log of one topic partition.

Layout of ``<data>/<topic>-<partition>/`` (names as in Kafka)::

    00000000000000000000.log        batches exactly as appended
    00000000000000000000.index      sparse offset index
    00000000000000000000.timeindex  sparse time index
    00000000000000000000.txnindex   aborted transactions (only if there were any)
    00000000000000012345.snapshot   producer state as of offset 12345 (our format)
    partition.metadata              "version: 0" / "topic_id: <base64>"
    leader-epoch-checkpoint         where each leader epoch starts (Kafka's format)

and in the data directory: ``recovery-point-offset-checkpoint`` (offsets known to
be fsynced), ``log-start-offset-checkpoint``, ``replication-offset-checkpoint``
(high watermarks) and the ``.kafka_cleanshutdown`` marker.

Replication (see :mod:`broker.replica`): a leader appends client batches with
:meth:`PartitionLog.append` (stamping its leader epoch), a follower copies the
leader's batches as they are with :meth:`PartitionLog.append_as_follower`, and
cuts its log back where it diverges from a new leader's with
:meth:`PartitionLog.truncate_to`. The leader epoch cache
(:mod:`broker.log.epoch_cache`) follows every append and truncation; its file is
written by :meth:`flush` (before the recovery point passes its entries), and
entries past the recovery point are rebuilt from the batch headers when a log
is recovered. The high watermark follows the log end offset until the replica
layer takes it over (:meth:`track_high_watermark`); the last stable offset is
never above it.

Threads: everything runs on the caller's (trio) thread except :meth:`flush`,
which the group committer runs in a worker thread. ``append`` only ``write()``s
to the page cache and updates memory; the two sides share a small lock around
the in-memory bookkeeping (never held across I/O), and a segment being fsynced
is pinned so that retention cannot close its descriptors under the flush.

Opening and recovery (in :meth:`open`) are :class:`~broker.log.loader.LogLoader`'s:
segment discovery, index checks, the torn tail cut off, producer state and leader
epochs rebuilt; the log takes over the state it loaded.
"""

from __future__ import annotations

import os
import threading
import uuid
from bisect import bisect_left
from collections.abc import Callable
from pathlib import Path

import structlog

from broker.log.append import AppendInfo, LogAppends
from broker.log.checkpoint import (
    LOG_START_OFFSET_CHECKPOINT,
    RECOVERY_POINT_CHECKPOINT,
    atomic_write,
    fsync_dir,
    update_offset_checkpoint,
    write_partition_metadata,
)
from broker.log.clean import SWAP_SUFFIX, CleanedGroup
from broker.log.config import LogConfig
from broker.log.durability import LogDurability
from broker.log.epoch_cache import LeaderEpochCache
from broker.log.index import AbortedTxn
from broker.log.loader import (
    INDEX_SUFFIXES,
    SNAPSHOT_SUFFIX,
    DirectoryState,
    LogLoader,
    load_snapshot,
    replay_trusted,
    snapshot_files,
)
from broker.log.producer_state import ProducerStateManager
from broker.log.reads import LogReads, ReadResult
from broker.log.segment import LogSegment, segment_file_name
from broker.protocol.errors import ErrorCode, KafkaError

__all__ = ["AppendInfo", "DirectoryState", "PartitionLog", "ReadResult"]

log = structlog.get_logger("sharebroker.log")


class PartitionLog(LogAppends, LogReads, LogDurability):
    """The log of one partition. Create with :meth:`open`."""

    def __init__(
        self,
        path: Path,
        topic: str,
        partition: int,
        topic_id: uuid.UUID,
        config: LogConfig,
        now_ms: Callable[[], int],
    ) -> None:
        self.path = path
        self.topic = topic
        self.partition = partition
        self.topic_id = topic_id
        self._config = config
        self._now_ms = now_ms
        # Guards the bookkeeping shared with flush(); never held across I/O.
        self._lock = threading.Lock()
        # Serialises flushes of this log (the committer's and close()'s), so the
        # recovery point only moves once every earlier capture is durable.
        self._flush_lock = threading.Lock()
        self.segments: list[LogSegment] = []
        self._bases: list[int] = []
        self._leo = 0
        self._log_start = 0
        self._recovery_point = 0
        # The recovery point the checkpoint file holds for this log (as far as we know):
        # the cleaner only cleans segments below it, so recovery never mistakes a
        # cleaned segment's gaps for a lost tail.
        self.checkpointed_recovery_point = 0
        self._unflushed_messages = 0
        self._dir_dirty = False
        self._closed = False
        self._closing = False
        self._producers = ProducerStateManager(verification_enabled=config.transaction_verification)
        self._aborted: list[AbortedTxn] = []
        self._aborted_last: list[int] = []  # last offsets of _aborted, for bisect
        # Producers whose last write here failed on the disk (see LogAppends.append).
        self._failed_writers: set[int] = set()
        self.epochs = LeaderEpochCache()
        # None: the high watermark is the log end offset (one replica). Set by the
        # replica layer once other replicas count (track_high_watermark).
        self._hw: int | None = None
        # The high watermark the last checkpoint recorded (a replica's starting point).
        self.checkpointed_high_watermark = 0
        # Segments the cleaner replaced: (when to close them, the segments). Reads
        # that picked them up before the swap go on with their descriptors.
        self._retired: list[tuple[int, list[LogSegment]]] = []
        # Called after DeleteRecords or retention moved the log start offset (the
        # replica layer tells fetch sessions, whose responses carry it).
        self.start_moved: Callable[[], None] | None = None
        # Called after every write that leaves something to flush (appends, truncations,
        # a new leader epoch): the group committer's flush policy watches these logs only.
        self.on_write: Callable[[PartitionLog], None] | None = None
        # Called when segments are taken out of the log (their descriptors stay open a while).
        self.on_retire: Callable[[PartitionLog], None] | None = None
        # The offset of the producer snapshot known to be on disk (None: none known).
        self._snapshot_offset: int | None = None
        # The newest producer snapshot file written or found (durable or not).
        self._newest_snapshot: int | None = None
        self._snapshots_pruned_below = -1
        # The leader-epoch-checkpoint was written (and renamed in) but its data not fsynced:
        # done before a recovery point past its entries is checkpointed (sync_epochs).
        self._epochs_unsynced = False
        # Whether the partition's directory exists: a new log makes it at its first write.
        self._materialized = True

    # ================================================================== opening

    @classmethod
    def open(
        cls,
        path: Path,
        topic: str,
        partition: int,
        topic_id: uuid.UUID,
        config: LogConfig,
        now_ms: Callable[[], int],
        directory: DirectoryState | None = None,
    ) -> PartitionLog:
        """Open (creating if needed) and recover the log in ``path``. ``directory``: the
        data directory's checkpoints and clean-shutdown marker, when the caller read them
        already (else they are read here).

        Raises KafkaError(INCONSISTENT_TOPIC_ID) if the directory belongs to another
        topic id, KafkaError(KAFKA_STORAGE_ERROR) if the files cannot be read.
        """
        self = cls(Path(path), topic, partition, topic_id, config, now_ms)
        try:
            self._open(directory)
        except OSError as exc:
            self._close_all_segments()
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"cannot open log {path}: {exc}") from exc
        except BaseException:
            self._close_all_segments()
            raise
        return self

    def _open(self, directory: DirectoryState | None) -> None:
        loaded = LogLoader(
            self.path,
            self.topic,
            self.partition,
            self.topic_id,
            self.config,
            self._now_ms,
            self._materialize,
            self._find,
        ).load(directory)
        self.segments = loaded.segments
        self._bases = [s.base_offset for s in loaded.segments]
        self._materialized = loaded.materialized
        self._dir_dirty = loaded.dir_dirty
        self._producers = loaded.producers
        self._snapshot_offset = loaded.snapshot_offset
        self._newest_snapshot = loaded.snapshot_offset
        # Snapshots below this offset are known to be gone (nothing on disk for a new log;
        # unknown, so listed once, for one found on disk).
        self._snapshots_pruned_below = 0 if not loaded.materialized else -1
        self._aborted = loaded.aborted
        self._aborted_last = [t.last_offset for t in loaded.aborted]
        self.epochs = loaded.epochs
        self._leo = loaded.log_end_offset
        self._log_start = loaded.log_start_offset
        self.checkpointed_recovery_point = loaded.checkpointed_recovery_point
        self.checkpointed_high_watermark = loaded.checkpointed_high_watermark
        if loaded.first_recovered is not None:
            # What recovery read back may still sit only in the page cache (a process
            # crash, not a machine crash): make it durable before calling it recovered.
            for seg in self.segments[loaded.first_recovered :]:
                seg.dirty = True
            self.flush()
        self._recovery_point = self._leo

    def _new_segment(self, base: int) -> LogSegment:
        """A new, empty segment (its file is created by its first write)."""
        return LogSegment(
            self.path,
            base,
            index_bytes=self.config.segment_index_bytes,
            created_ms=self._now_ms(),
            prepare=self._materialize,
        )

    def _materialize(self) -> None:
        """Make the partition's directory and ``partition.metadata`` (a new log's first
        write). Not fsynced: a directory lost in a crash opens as a new log again, and
        the flush that follows the write fsyncs the directory."""
        if self._materialized:
            return
        self.path.mkdir(parents=True, exist_ok=True)
        write_partition_metadata(self.path, self.topic_id, durable=False)
        self._materialized = True
        self._dir_dirty = True

    def materialize(self) -> None:
        """Make the partition's directory now if its first write has not (a replica move
        renames it)."""
        self._materialize()

    @property
    def materialized(self) -> bool:
        """Whether the partition has a directory on disk (a new one gets it at its first write)."""
        return self._materialized

    # ---------------------------------------------------------------- snapshots

    def _write_snapshot(self, *, durable: bool) -> None:
        offset = self._leo
        atomic_write(
            self.path / segment_file_name(offset, SNAPSHOT_SUFFIX),
            self._producers.snapshot(offset),
            durable=durable,
        )
        self._snapshot_offset = offset if durable or self._closing else None
        self._newest_snapshot = offset

    def _snapshot_needed(self) -> bool:
        """Whether close must write a producer snapshot: the log moved since the last one
        (an empty log with no producers needs none: there is nothing to replay), and
        rebuilding the state at the next open would read more than the active segment's
        first ``index.interval.bytes``, which the open after a clean shutdown scans anyway
        (the tail after its last index entry). A new file costs 0.2-0.3 ms to create on
        an ext4 disk: a stop of 30,000 partitions that each took a record pays seconds
        for files that save nothing."""
        if self._snapshot_offset == self._leo:
            return False
        if self._leo == self._bases[0] and not self._producers.producers:
            return False
        active = self.segments[-1]
        replay_from = self._newest_snapshot
        if replay_from is None and len(self.segments) == 1:
            replay_from = self._bases[0]
        small = active.size <= self.config.index_interval_bytes
        return not (small and replay_from is not None and active.base_offset <= replay_from <= self._leo)

    def _delete_snapshots(self, *, above: int | None = None, below: int | None = None) -> None:
        if above is None and below is not None and below <= self._snapshots_pruned_below:
            # Every snapshot written since the last pruning is at or above the log start
            # it had, so nothing lies below ``below``: no listing of the directory.
            return
        for offset, snap_path in snapshot_files(self.path) if self._materialized else ():
            if (above is not None and offset > above) or (below is not None and offset < below):
                if offset == self._snapshot_offset:
                    self._snapshot_offset = None
                if offset == self._newest_snapshot:
                    self._newest_snapshot = None
                try:
                    os.unlink(snap_path)
                except FileNotFoundError:
                    pass
        if above is not None and above < 0:
            self._snapshots_pruned_below = self._bases[0]  # none left: new ones start at the log start
        elif below is not None:
            self._snapshots_pruned_below = max(self._snapshots_pruned_below, below)

    # ================================================================== properties

    @property
    def config(self) -> LogConfig:
        return self._config

    @config.setter
    def config(self, config: LogConfig) -> None:
        """Topic or broker settings changed (the transaction verification flag lives in
        the producer state)."""
        self._config = config
        self._producers.verification_enabled = config.transaction_verification

    @property
    def log_start_offset(self) -> int:
        return self._log_start

    @property
    def log_end_offset(self) -> int:
        """The next offset to assign."""
        return self._leo

    @property
    def high_watermark(self) -> int:
        """Offsets below it are on every in-sync replica: what consumers may read. The log
        end offset while the replica layer does not track it (a single replica)."""
        hw = self._hw
        return self._leo if hw is None else hw

    def track_high_watermark(self, start: int | None = None) -> None:
        """From now on the high watermark moves only by :meth:`update_high_watermark`,
        starting at ``start`` (default: the last checkpointed one), within the log."""
        if start is None:
            start = self.checkpointed_high_watermark if self._hw is None else self._hw
        self._hw = max(self._log_start, min(start, self._leo))

    def untrack_high_watermark(self) -> None:
        """Back to a high watermark that follows the log end offset."""
        self._hw = None

    def update_high_watermark(self, offset: int) -> bool:
        """Set the high watermark (kept within [log start, log end]); True if it moved."""
        new = max(self._log_start, min(offset, self._leo))
        if new == self._hw:
            return False
        self._hw = new
        return True

    @property
    def tracks_high_watermark(self) -> bool:
        return self._hw is not None

    @property
    def last_stable_offset(self) -> int:
        """First offset of the earliest open transaction, but never above the high watermark."""
        first = self._producers.first_unstable_offset()
        hw = self.high_watermark
        return hw if first is None else min(first, hw)

    @property
    def size_bytes(self) -> int:
        return sum(s.size for s in self.segments)

    @property
    def recovery_point(self) -> int:
        """Offsets below this are known to be fsynced."""
        return self._recovery_point

    @property
    def unflushed_messages(self) -> int:
        return self._unflushed_messages

    @property
    def active_segment(self) -> LogSegment:
        return self.segments[-1]

    @property
    def closed(self) -> bool:
        return self._closed

    @property
    def producer_state(self) -> ProducerStateManager:
        return self._producers

    def _written(self) -> None:
        if self.on_write is not None:
            self.on_write(self)

    # ================================================================== truncation

    def truncate_to(self, offset: int) -> int:
        """Cut the log back to end at or below ``offset`` (whole batches: a batch holding
        ``offset`` goes too); returns the new log end offset. A follower does this where
        its log diverges from its leader's. Producer state, aborted transactions, the
        epoch cache and the high watermark follow; the recovery point checkpoint is
        rewritten at once so a crash cannot trust data written after the cut.
        """
        self._check_open()
        if offset >= self._leo:
            # Nothing to cut, but an epoch this replica began at its log end and wrote
            # nothing in is not the leader's: it goes (as in Kafka), or the next fetch
            # names it as the last fetched epoch and the leader sees the same
            # divergence again.
            with self._lock:
                dropped = self.epochs.truncate_from_end(self._leo)
            if dropped:
                self._written()
            return self._leo
        if offset < self._bases[0]:
            self.truncate_fully_and_start_at(offset)
            return self._leo
        i = self._segment_index(offset)
        for extra in self.segments[i + 1 :]:
            self._delete_segment(extra)
        seg = self.segments[i]
        found = self._find(seg, offset)
        cut = seg.size if found is None else found[0]
        with self._lock:
            seg.truncate_to_position(cut)
            seg.inactive = False
            self._dir_dirty = True
        self._rebuild_segment_indexes(seg)
        new_end = seg.next_offset
        if new_end < self._log_start:
            self._log_start = new_end
        self._after_truncation(new_end)
        log.warning("log_truncated_to_leader", topic=self.topic, partition=self.partition, log_end_offset=new_end)
        return new_end

    def truncate_fully_and_start_at(self, offset: int) -> None:
        """Empty the log and start it at ``offset`` (a follower far behind a leader whose
        log now starts later)."""
        self._check_open()
        for seg in list(self.segments):
            self._delete_segment(seg)
        new = self._new_segment(offset)
        new.ensure_file()  # on disk at once: a log without segment files would open at 0
        new.indexes_checked = True
        with self._lock:
            self.segments = [new]
            self._bases = [offset]
            self._dir_dirty = True
            self._log_start = offset
            self._producers = ProducerStateManager()
            self._aborted.clear()
            self._aborted_last.clear()
            self.epochs.clear()
        try:
            update_offset_checkpoint(self.path.parent / LOG_START_OFFSET_CHECKPOINT, self.topic, self.partition, offset)
        except OSError as exc:
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"cannot persist log start offset: {exc}") from exc
        self._delete_snapshots(above=-1)
        self._after_truncation(offset)
        log.warning("log_restarted_at", topic=self.topic, partition=self.partition, offset=offset)

    def _rebuild_segment_indexes(self, seg: LogSegment) -> None:
        """Indexes and timestamps of ``seg`` from its batch headers (after a cut)."""
        if not seg.txn_index.entries:
            seg.txn_index.load()
        kept_txns = list(seg.txn_index.entries)
        seg.reset_indexes()
        seg.indexes_checked = True
        interval = self.config.index_interval_bytes
        for pos, header in seg.headers_from(0):
            seg.track_batch(pos, header.size, header.last_offset, header.max_timestamp, interval)
        for txn in kept_txns:
            if txn.last_offset < seg.next_offset:
                seg.txn_index.append(txn)
        seg.dirty = True

    def _after_truncation(self, new_end: int) -> None:
        with self._lock:
            self._leo = new_end
            if self._recovery_point > new_end:
                self._recovery_point = new_end
            if self._hw is not None and self._hw > new_end:
                self._hw = new_end
            self.checkpointed_high_watermark = min(self.checkpointed_high_watermark, new_end)
            self.epochs.truncate_from_end(new_end)
        keep = bisect_left(self._aborted_last, new_end)
        del self._aborted[keep:]
        del self._aborted_last[keep:]
        self._delete_snapshots(above=new_end)
        snapshots = snapshot_files(self.path) if self._materialized else []
        self._producers, snapshot, start = load_snapshot(
            self.path, self.topic, self.partition, snapshots, self._bases[0], new_end, self.config
        )
        if snapshot is not None:
            self._snapshot_offset = snapshot
        replay_trusted(self._producers, self.segments, self._bases, self._find, start, new_end)
        try:
            update_offset_checkpoint(
                self.path.parent / RECOVERY_POINT_CHECKPOINT, self.topic, self.partition, self._recovery_point
            )
        except OSError as exc:
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"cannot persist the recovery point: {exc}") from exc
        self._written()

    # ================================================================== rolling

    def _maybe_roll_for(self, size: int, last_offset: int, max_timestamp: int) -> LogSegment:
        seg = self.segments[-1]
        if seg.is_empty:
            return seg
        config = self.config
        first_ts = seg.first_batch_timestamp
        if first_ts is not None and first_ts >= 0 and max_timestamp >= 0:
            waited = max_timestamp - first_ts
        else:
            waited = self._now_ms() - seg.created_ms
        if (
            seg.size + size > config.segment_bytes
            or not seg.can_hold(size, last_offset)
            or waited > config.max_segment_ms - config.segment_jitter_ms
        ):
            self._roll()
        return self.segments[-1]

    def maybe_roll(self, now_ms: int) -> bool:
        """Roll the active segment if it is older than segment.ms; True if rolled."""
        self._check_open()
        seg = self.segments[-1]
        if seg.is_empty or now_ms - seg.rolling_base_ms() <= self.config.max_segment_ms - self.config.segment_jitter_ms:
            return False
        self._roll()
        return True

    def roll(self) -> None:
        """Start a new active segment now (nothing happens if the active one is empty),
        so everything written so far can later be deleted as whole segments."""
        self._check_open()
        self._roll()

    def _roll(self) -> None:
        old = self.segments[-1]
        if old.is_empty:
            return
        base = self._leo
        for suffix in (".log", ".index", ".timeindex", ".txnindex"):
            stale = self.path / segment_file_name(base, suffix)
            if stale.exists():
                os.unlink(stale)
        new = self._new_segment(base)
        new.indexes_checked = True
        with self._lock:
            # Atomic for a flush: it sees the old segment either still active or
            # inactive and dirty (its last time index entry buffered), never in between.
            old.on_become_inactive()
            self.segments.append(new)
            self._bases.append(base)
            self._dir_dirty = True
            old.dirty = True
            # Index files of segments two rolls back are complete and (unless still
            # dirty) fsynced: close their descriptors to keep the count per partition small.
            for seg in self.segments[:-2]:
                if seg.pins == 0 and not seg.dirty:
                    seg.close_index_files()
        try:
            self._write_snapshot(durable=False)
        except OSError as exc:
            log.warning("producer_snapshot_failed", topic=self.topic, partition=self.partition, error=str(exc))
        log.info("log_rolled", topic=self.topic, partition=self.partition, base_offset=base)

    # ================================================================== deletion

    def delete_records(self, before_offset: int) -> int:
        """Advance the log start offset to ``before_offset`` (-1: the high watermark),
        durably, and delete whole segments below it. Returns the new log start.

        Raises KafkaError(OFFSET_OUT_OF_RANGE) past the high watermark.
        """
        self._check_open()
        if before_offset == -1:
            before_offset = self.high_watermark
        if before_offset < 0 or before_offset > self.high_watermark:
            raise KafkaError(
                ErrorCode.OFFSET_OUT_OF_RANGE,
                f"cannot delete records before {before_offset}: high watermark is {self.high_watermark}",
            )
        if before_offset > self._log_start:
            try:
                update_offset_checkpoint(
                    self.path.parent / LOG_START_OFFSET_CHECKPOINT, self.topic, self.partition, before_offset
                )
            except OSError as exc:
                raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"cannot persist log start offset: {exc}") from exc
            self._log_start = before_offset
            self._delete_below_log_start()
            self._after_head_moved()
            if self.start_moved is not None:
                self.start_moved()
        return self._log_start

    def apply_retention(self, now_ms: int) -> int:
        """Delete old segments by retention.ms and retention.bytes (when cleanup.policy
        includes delete) and those wholly below the log start; returns how many."""
        self._check_open()
        config = self.config
        deleted = 0
        start = self._log_start
        if config.delete_retention_enabled:
            if config.retention_ms >= 0:
                deleted += self._delete_oldest(lambda seg: now_ms - seg.largest_time_ms() > config.retention_ms)
            if config.retention_bytes >= 0:
                excess = [self.size_bytes - config.retention_bytes]

                def over(seg: LogSegment) -> bool:
                    if excess[0] - seg.size >= 0:
                        excess[0] -= seg.size
                        return True
                    return False

                deleted += self._delete_oldest(over)
        deleted += self._delete_below_log_start()
        self._after_head_moved()
        self._producers.expire(now_ms, config.producer_id_expiration_ms)
        self.close_retired(now_ms)
        if self._log_start != start and self.start_moved is not None:
            self.start_moved()
        return deleted

    def _delete_oldest(self, predicate: Callable[[LogSegment], bool]) -> int:
        """Delete a prefix of segments matching ``predicate``. When every segment
        matches, the active one is rolled first (as Kafka does) so that a new empty
        active segment remains and the old one can go."""
        count = 0
        while self.segments:
            seg = self.segments[0]
            # An empty active segment stays (it is where appends go); an empty inactive
            # one (all its records cleaned away) is judged like any other.
            if (seg.is_empty and seg is self.segments[-1]) or not predicate(seg):
                break
            if seg is self.segments[-1]:
                self._roll()
            self._delete_segment(seg)
            count += 1
        return count

    def _delete_below_log_start(self) -> int:
        count = 0
        while len(self.segments) > 1 and self._bases[1] <= self._log_start:
            self._delete_segment(self.segments[0])
            count += 1
        return count

    def _delete_segment(self, seg: LogSegment) -> None:
        with self._lock:
            self.segments = [s for s in self.segments if s is not seg]
            self._bases = [s.base_offset for s in self.segments]
            self._dir_dirty = True
        self._retire([seg])
        seg.delete_files()
        log.info(
            "log_segment_deleted",
            topic=self.topic,
            partition=self.partition,
            base_offset=seg.base_offset,
            size=seg.size,
        )

    def _after_head_moved(self) -> None:
        first_base = self._bases[0]
        if first_base > self._log_start:
            self._log_start = first_base
        cut = bisect_left(self._aborted_last, first_base)
        if cut:
            del self._aborted[:cut]
            del self._aborted_last[:cut]
        self._producers.truncate_head(self._log_start)
        self._delete_snapshots(below=first_base)
        with self._lock:
            self.epochs.truncate_from_start(self._log_start)

    def _retire(self, segments: list[LogSegment]) -> None:
        """Segments just taken out of the log: their descriptors stay open for
        file.delete.delay.ms, so a read that picked them up before goes on (as Kafka
        deletes segments after that delay)."""
        for seg in segments:
            seg.hold()  # its descriptor stays open until close_retired, whatever the budget
        with self._lock:
            for seg in segments:
                seg.retired = True
                seg.indexes_checked = True  # never rebuilt: the files are not theirs any more
        self._retired.append((self._now_ms() + self.config.file_delete_delay_ms, segments))
        if self.on_retire is not None:
            self.on_retire(self)

    @property
    def has_retired_segments(self) -> bool:
        return bool(self._retired)

    def close_retired(self, now_ms: int, *, force: bool = False) -> None:
        """Close the descriptors of retired segments whose delay is over (all with ``force``)."""
        if not self._retired:
            return
        keep: list[tuple[int, list[LogSegment]]] = []
        for deadline, segments in self._retired:
            if not force and deadline > now_ms:
                keep.append((deadline, segments))
                continue
            with self._lock:
                for seg in segments:
                    seg.closing = True
                    if seg.pins == 0:
                        # Nothing buffered is written: the paths may belong to a new segment.
                        seg.close(write_buffered=False)
        self._retired = keep

    # ================================================================== compaction

    def aborted_between(self, start: int, end: int) -> list[AbortedTxn]:
        """Aborted transactions that overlap [start, end) (the marker at or after ``start``)."""
        return [t for t in self._aborted if t.last_offset >= start and t.first_offset < end]

    def last_records_of_producers(self) -> dict[int, tuple[int, int]]:
        """Producer id -> (offset of its last data batch's last record, or -1; its epoch):
        the batches a clean keeps so producer state survives (Kafka's
        ``lastRecordsOfActiveProducers``)."""
        return {pid: (e.last_data_offset, e.epoch) for pid, e in self._producers.producers.items()}

    def replace_with_cleaned(self, group: CleanedGroup, sizes: dict[int, int]) -> bool:
        """Swap a cleaned segment in for the segments it was made from.

        ``sizes``: base offset -> size of each source segment when the clean read it.
        Refused (False, the cleaned files removed) when those segments are no longer
        exactly there, unchanged and idle (retention, a log start move or a flush
        got in between); the next clean starts again.

        Crash-safe in this order: the cleaned index files, then the log file, are
        renamed to ``.swap`` (the log's rename, after a directory fsync, commits the
        swap); the other replaced segments are deleted; the ``.swap`` files take the
        final names (the log's last). :meth:`open` completes a committed swap found
        at any step and removes an uncommitted one. Replaced segments stay readable
        through their open descriptors for file.delete.delay.ms.
        """
        self._check_open()
        bases = group.bases
        segments = self.segments
        first = bisect_left(self._bases, bases[0])
        old = segments[first : first + len(bases)]
        stale = (
            [s.base_offset for s in old] != bases
            or first + len(bases) >= len(segments)  # the active segment is never replaced
            or any(s.size != sizes.get(s.base_offset) or s.dirty or s.pins or s.retired for s in old)
            or bases[0] < self._bases[0]
        )
        if stale:
            self.discard_cleaned(group)
            return False
        next_base = segments[first + len(bases)].base_offset
        base = bases[0]
        for seg in old:
            seg.indexes_checked = True  # from now on the index files may not be theirs
        for seg in old:
            seg.hold()  # reads that picked these up must not reopen the renamed files
        new = self._swap_in(group, old)
        new.next_offset = next_base
        new.max_timestamp = group.max_timestamp
        new.offset_of_max_timestamp = group.offset_of_max_timestamp
        new.first_batch_timestamp = -1 if new.size else None
        new.inactive = True
        new.indexes_checked = True
        new.txn_index.entries = list(group.aborted)
        with self._lock:
            self.segments = [*segments[:first], new, *segments[first + len(bases) :]]
            self._bases = [s.base_offset for s in self.segments]
        self._retire(old)
        self._aborted = [t for s in self.segments for t in s.txn_index.entries]
        self._aborted_last = [t.last_offset for t in self._aborted]
        log.info(
            "log_segments_cleaned",
            topic=self.topic,
            partition=self.partition,
            base_offset=base,
            replaced=len(old),
            bytes_before=sum(sizes[b] for b in bases),
            bytes_after=new.size,
        )
        return True

    def _swap_in(self, group: CleanedGroup, old: list[LogSegment]) -> LogSegment:
        """Rename the cleaned files in for the segments ``old`` (crash-safe, in the order
        :meth:`replace_with_cleaned` gives) and open the segment they make."""
        path = self.path
        base = old[0].base_offset
        try:
            cleaned_log = path / group.files[".log"]
            st = os.stat(old[-1].log_path)
            os.utime(cleaned_log, ns=(st.st_atime_ns, st.st_mtime_ns))
            for suffix in INDEX_SUFFIXES:
                os.replace(path / group.files[suffix], path / (segment_file_name(base, suffix) + SWAP_SUFFIX))
            fsync_dir(path)
            os.replace(cleaned_log, path / (segment_file_name(base, ".log") + SWAP_SUFFIX))
            fsync_dir(path)  # committed
            for seg in old[1:]:
                seg.delete_files()
            for suffix in (*INDEX_SUFFIXES, ".log"):
                os.replace(
                    path / (segment_file_name(base, suffix) + SWAP_SUFFIX), path / segment_file_name(base, suffix)
                )
            fsync_dir(path)
            new = LogSegment(
                path,
                base,
                index_bytes=self.config.segment_index_bytes,
                created_ms=self._now_ms(),
                exists=True,
                prepare=self._materialize,
            )
        except OSError as exc:
            log.error("log_clean_swap_failed", topic=self.topic, partition=self.partition, error=str(exc))
            raise KafkaError(
                ErrorCode.KAFKA_STORAGE_ERROR, f"swapping a cleaned segment into {path} failed: {exc}"
            ) from exc
        return new

    def discard_cleaned(self, group: CleanedGroup) -> None:
        """Remove the files of a cleaned segment that is not swapped in."""
        for name in group.files.values():
            try:
                os.unlink(self.path / name)
            except FileNotFoundError:
                pass

    # ================================================================== closing

    def close(self, *, durable: bool = True) -> None:
        """Flush everything, write a producer snapshot, and close the files. With
        ``durable`` false nothing is fsynced: the caller syncs the file system after
        closing many logs (one ``syncfs`` instead of a few fsyncs per log)."""
        if self._closed:
            return
        # The active segment's newest timestamp gets no time index entry here (Kafka's close
        # appends one): the open after a clean shutdown scans the tail after the last index
        # entry and finds it, and a roll appends it. A tiny segment makes no index file.
        try:
            # Kafka's close takes a snapshot only when the log moved since the last one:
            # closing thousands of idle logs writes nothing for them.
            if self._snapshot_needed():
                self._write_snapshot(durable=durable)
                self._delete_snapshots(below=self._bases[0])
        except OSError as exc:
            log.warning("producer_snapshot_failed", topic=self.topic, partition=self.partition, error=str(exc))
        self._closing = True  # the flush below makes the active segment's indexes durable too
        with self._flush_lock:
            self._flush(durable=durable)
        self._close_all_segments()

    def discard(self) -> None:
        """Close without flushing or writing anything (the files are about to be deleted)."""
        self._close_all_segments(write_buffered=False)

    def _close_all_segments(self, *, write_buffered: bool = True) -> None:
        with self._lock:
            self._closed = True
            for seg in self.segments:
                seg.closing = True
                if seg.pins == 0:
                    seg.close(write_buffered=write_buffered)
        self.close_retired(0, force=True)
