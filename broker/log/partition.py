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
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import NamedTuple

import structlog

from broker.log.checkpoint import (
    LOG_START_OFFSET_CHECKPOINT,
    RECOVERY_POINT_CHECKPOINT,
    atomic_write,
    fsync_dir,
    update_offset_checkpoint,
    write_partition_metadata,
)
from broker.log.clean import SWAP_SUFFIX, CleanedGroup, batch_records
from broker.log.config import LogConfig
from broker.log.epoch_cache import LEADER_EPOCH_CHECKPOINT, LeaderEpochCache
from broker.log.file_slice import FileSlice
from broker.log.index import AbortedTxn
from broker.log.loader import (
    INDEX_SUFFIXES,
    SNAPSHOT_SUFFIX,
    DirectoryState,
    LogLoader,
    aborted_entry,
    load_snapshot,
    marker_of,
    replay_batch,
    replay_trusted,
    snapshot_files,
)
from broker.log.producer_state import AppendOrigin, CompletedTxn, ProducerStateManager, VerificationGuard
from broker.log.segment import DESCRIPTORS, LogSegment, TornBatch, segment_file_name
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.records import (
    BATCH_HEADER_SIZE,
    UNCHECKED_PREFIX,
    BatchHeader,
    RecordBatchError,
    TimestampType,
    compute_crc,
    iter_batches,
    iter_records,
    parse_batch_header,
    set_base_offset,
    set_max_timestamp,
    set_partition_leader_epoch,
)

__all__ = ["AppendInfo", "DirectoryState", "PartitionLog", "ReadResult"]

log = structlog.get_logger("sharebroker.log")


class AppendInfo(NamedTuple):
    base_offset: int
    last_offset: int
    log_append_time_ms: int  # -1 unless the topic uses LogAppendTime
    log_start_offset: int
    duplicate: bool
    record_count: int


# A read_slice smaller than this is read at once: it would be copied into the answer's
# frame anyway (primitives.SPLICE_MIN_BYTES), and it holds no descriptors while it waits.
FILE_SLICE_MIN_BYTES = 64 * 1024


class _Flush:
    """What one flush of a log captured (see PartitionLog._flush_begin)."""

    __slots__ = ("active", "dir_dirty", "epochs", "epochs_synced", "failed", "messages", "target_offset", "targets")

    def __init__(
        self, active: LogSegment, targets: list[LogSegment], target_offset: int, messages: int, dir_dirty: bool
    ) -> None:
        self.active = active
        self.targets = targets
        self.target_offset = target_offset
        self.messages = messages
        self.dir_dirty = dir_dirty
        self.epochs: bytes | None = None
        self.epochs_synced = False
        self.failed: OSError | None = None


class ReadResult(NamedTuple):
    records: bytes | memoryview
    first_offset: int  # base offset of the first batch returned (the requested offset if none)


def _require_keys(header: BatchHeader, view: memoryview, topic: str, partition: int) -> None:
    """A compacted topic keeps the latest record per key: a record without one is
    refused with INVALID_RECORD (87), as Kafka does."""
    for record in batch_records(header, view):
        if record.key is None:
            raise KafkaError(
                ErrorCode.INVALID_RECORD,
                f"Compacted topic cannot accept message without key in topic partition {topic}-{partition}.",
            )


def _base_of(seg: LogSegment) -> int:
    return seg.base_offset


class PartitionLog:
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

    def _snapshot_needed(self) -> bool:
        """Whether close must write a producer snapshot: the log moved since the last one
        (an empty log with no producers needs none: there is nothing to replay)."""
        if self._snapshot_offset == self._leo:
            return False
        return not (self._leo == self._bases[0] and not self._producers.producers)

    def _delete_snapshots(self, *, above: int | None = None, below: int | None = None) -> None:
        for offset, snap_path in snapshot_files(self.path) if self._materialized else ():
            if (above is not None and offset > above) or (below is not None and offset < below):
                if offset == self._snapshot_offset:
                    self._snapshot_offset = None
                try:
                    os.unlink(snap_path)
                except FileNotFoundError:
                    pass

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

    def _check_open(self) -> None:
        if self._closed:
            raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER, f"log {self.topic}-{self.partition} is closed")

    # ================================================================== append

    def append(
        self,
        records: bytes | bytearray | memoryview,
        *,
        log_append_time_ms: int | None = None,
        leader_epoch: int | None = None,
        origin: AppendOrigin = AppendOrigin.CLIENT,
        verification_guard: VerificationGuard | None = None,
        transaction_version: int = 0,
    ) -> AppendInfo:
        """Append one or more v2 batches, assigning consecutive offsets.

        The batches are stored as given except for their base offset (and the
        leader epoch, and for LogAppendTime topics the timestamp type, max
        timestamp and CRC). Writes reach the page cache only; durability is the
        group committer's job. Raises KafkaError / RecordBatchError carrying
        ``error_code`` (see the module and producer-state docs).

        ``origin``: coordinators' appends (transaction markers, transactional offset
        commits) skip duplicate and sequence checks. ``verification_guard``: what
        the transaction verification of this request handed out (KIP-890).
        ``transaction_version``: of the markers appended (WriteTxnMarkers v2).
        """
        self._check_open()
        config = self.config
        # The caller's bytes are never modified or copied whole: each batch is
        # written as its rewritten prefix plus a view of the rest.
        buf = memoryview(records)
        batches = list(iter_batches(buf))
        if not batches:
            raise KafkaError(ErrorCode.INVALID_RECORD, "no record batch to append")
        if len(buf) > config.segment_bytes:
            raise KafkaError(
                ErrorCode.RECORD_LIST_TOO_LARGE,
                f"{len(buf)} bytes of batches exceed the segment size {config.segment_bytes}",
            )
        append_time = -1
        if config.log_append_time:
            append_time = log_append_time_ms if log_append_time_ms is not None else self._now_ms()

        # Offsets and producer-state validation, before touching anything.
        stage = self._producers.stage()
        plan: list[tuple[BatchHeader, memoryview, int]] = []
        next_offset = self._leo
        records_count = 0
        for header, view in batches:
            if header.size > config.max_message_bytes:
                raise KafkaError(
                    ErrorCode.MESSAGE_TOO_LARGE,
                    f"batch of {header.size} bytes exceeds max.message.bytes {config.max_message_bytes}",
                )
            if config.compact and not header.is_control:
                _require_keys(header, view, self.topic, self.partition)
            if header.records_count != header.last_offset_delta + 1 or header.records_count <= 0:
                if not (header.is_control and header.records_count == 0):
                    raise KafkaError(
                        ErrorCode.INVALID_RECORD,
                        f"record count {header.records_count} does not match "
                        f"last offset delta {header.last_offset_delta}",
                    )
            base = next_offset
            if header.has_producer_id:
                if header.is_control:
                    marker = marker_of(view)
                    if marker is not None:
                        stage.add_marker(header, base, marker[0], marker[1], transaction_version)
                else:
                    duplicate = stage.duplicate_of(header) if origin is AppendOrigin.CLIENT else None
                    if duplicate is not None:
                        return AppendInfo(
                            duplicate.first_offset,
                            duplicate.last_offset,
                            duplicate.timestamp if config.log_append_time else -1,
                            self._log_start,
                            True,
                            duplicate.last_offset - duplicate.first_offset + 1,
                        )
                    stage.add_data(
                        header,
                        base,
                        base + header.last_offset_delta,
                        append_time if append_time >= 0 else header.max_timestamp,
                        origin=origin,
                        verification_guard=verification_guard,
                    )
            plan.append((header, view, base))
            next_offset = base + header.last_offset_delta + 1
            records_count += header.records_count

        first_base = plan[0][2]
        incoming_max_ts = append_time if append_time >= 0 else max(h.max_timestamp for h, _, _ in plan)
        seg = self._maybe_roll_for(len(buf), next_offset - 1, incoming_max_ts)

        parts: list[bytes | bytearray | memoryview] = []
        for _header, view, base in plan:
            if append_time >= 0:
                # LogAppendTime rewrites CRC-covered fields: this batch is copied whole.
                patched = bytearray(view)
                parts.append(patched)
            else:
                patched = bytearray(view[:UNCHECKED_PREFIX])
                parts += (patched, view[UNCHECKED_PREFIX:])
            set_base_offset(patched, base)
            if leader_epoch is not None:
                set_partition_leader_epoch(patched, leader_epoch)
            if append_time >= 0:
                set_max_timestamp(patched, TimestampType.LOG_APPEND_TIME, append_time)
        start = seg.write(*parts)

        interval = config.index_interval_bytes
        pos = start
        for header, _view, base in plan:
            last = base + header.last_offset_delta
            max_ts = append_time if append_time >= 0 else header.max_timestamp
            seg.track_batch(pos, header.size, last, max_ts, interval)
            pos += header.size
        del plan, batches, parts
        for txn in self._producers.commit(stage):
            self._record_completed(txn, seg)
        with self._lock:
            if leader_epoch is not None and leader_epoch > self.epochs.latest_epoch:
                self.epochs.assign(leader_epoch, first_base)
            self._leo = next_offset
            self._unflushed_messages += records_count
            seg.dirty = True
        self._written()
        return AppendInfo(first_base, next_offset - 1, append_time, self._log_start, False, records_count)

    def _written(self) -> None:
        if self.on_write is not None:
            self.on_write(self)

    def _record_completed(self, txn: CompletedTxn, seg: LogSegment) -> None:
        entry = aborted_entry(txn, self._producers)
        if entry is None:
            return
        seg.txn_index.append(entry)
        self._aborted.append(entry)
        self._aborted_last.append(entry.last_offset)

    # ================================================================== replication

    def append_as_follower(
        self, records: bytes | bytearray | memoryview, *, allow_gaps: bool = False
    ) -> AppendInfo | None:
        """Append batches copied from the leader, as they are (offsets, leader epochs,
        timestamps, producer ids); None when ``records`` holds no whole batch.

        The first batch must start at the log end offset and offsets must be dense
        (with ``allow_gaps``, batches may start past the previous batch's end: a future
        replica copies a compacted log, whose cleaned batches leave gaps);
        every batch's CRC is checked. Producer state and the leader epoch cache are
        rebuilt from the batch headers as recovery does (the leader validated the
        data). Raises KafkaError: OFFSET_OUT_OF_RANGE for a gap or overlap,
        CORRUPT_MESSAGE for a damaged batch, KAFKA_STORAGE_ERROR for a failed write.
        """
        self._check_open()
        buf = memoryview(records)
        try:
            batches = list(iter_batches(buf, allow_partial=True))
        except RecordBatchError as exc:
            raise KafkaError(ErrorCode.CORRUPT_MESSAGE, f"batch from the leader is invalid: {exc}") from exc
        if not batches:
            return None
        expected = self._leo
        for header, view in batches:
            if header.base_offset != expected and not (allow_gaps and header.base_offset > expected):
                raise KafkaError(
                    ErrorCode.OFFSET_OUT_OF_RANGE,
                    f"{self.topic}-{self.partition}: batch at offset {header.base_offset}, log ends at {expected}",
                )
            if compute_crc(view) != header.crc:
                raise KafkaError(ErrorCode.CORRUPT_MESSAGE, f"batch at offset {header.base_offset} fails its CRC")
            expected = header.next_offset
        first_base = batches[0][0].base_offset
        interval = self.config.index_interval_bytes
        records_count = 0
        # Consecutive batches that share a segment go out in one writev.
        i = 0
        while i < len(batches):
            header = batches[i][0]
            seg = self._maybe_roll_for(header.size, header.last_offset, header.max_timestamp)
            group = [batches[i]]
            size = header.size
            j = i + 1
            while j < len(batches):
                nxt = batches[j][0]
                if seg.size + size + nxt.size > self.config.segment_bytes or not seg.can_hold(
                    size + nxt.size, nxt.last_offset
                ):
                    break
                group.append(batches[j])
                size += nxt.size
                j += 1
            pos = seg.write(*(view for _, view in group))
            for h, view in group:
                seg.track_batch(pos, h.size, h.last_offset, h.max_timestamp, interval)
                pos += h.size
                completed = replay_batch(self._producers, h, view)
                if completed is not None:
                    self._record_completed(completed, seg)
                records_count += h.records_count
                with self._lock:
                    if h.partition_leader_epoch > self.epochs.latest_epoch:
                        self.epochs.assign(h.partition_leader_epoch, h.base_offset)
                    self._leo = h.next_offset
                    self._unflushed_messages += h.records_count
                    seg.dirty = True
            i = j
        last = batches[-1][0]
        self._written()
        return AppendInfo(first_base, last.last_offset, -1, self._log_start, False, records_count)

    def assign_epoch_start(self, epoch: int) -> None:
        """This replica leads from now on at ``epoch``: the epoch starts at the log end."""
        with self._lock:
            self.epochs.assign(epoch, self._leo)
        self._written()

    def truncate_to(self, offset: int) -> int:
        """Cut the log back to end at or below ``offset`` (whole batches: a batch holding
        ``offset`` goes too); returns the new log end offset. A follower does this where
        its log diverges from its leader's. Producer state, aborted transactions, the
        epoch cache and the high watermark follow; the recovery point checkpoint is
        rewritten at once so a crash cannot trust data written after the cut.
        """
        self._check_open()
        if offset >= self._leo:
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

        # ================================================================== rolling
        self._written()

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

    # ================================================================== reads

    def _segment_index(self, offset: int) -> int:
        return max(bisect_right(self._bases, offset) - 1, 0)

    def _ensure_indexes(self, seg: LogSegment) -> bool:
        """Sanity-check an old segment's indexes on first use and rebuild them if broken.
        False if they cannot be trusted right now (callers then scan from position 0)."""
        if seg.indexes_checked:
            return True
        interval = self.config.index_interval_bytes
        ok = seg.offset_index.sane(seg.next_offset, max(seg.size, 1)) and seg.time_index.sane(seg.next_offset)
        missing = seg.size > interval and not seg.offset_index.path.exists()
        if ok and not missing:
            seg.indexes_checked = True
            return True
        with self._lock:
            if seg.pins:
                return False  # a flush holds the descriptors: rebuild on a later call
            seg.indexes_checked = True
            seg.offset_index.reset()
            seg.time_index.reset()
        log.warning("log_index_rebuilt", topic=self.topic, partition=self.partition, segment=seg.log_path.name)
        seg.bytes_since_index = 0
        max_ts, max_off = seg.max_timestamp, seg.offset_of_max_timestamp
        seg.max_timestamp = seg.offset_of_max_timestamp = -1
        pos = 0
        while pos < seg.size:
            header = seg.header_at(pos)
            seg.track_batch(pos, header.size, header.last_offset, header.max_timestamp, interval)
            pos += header.size
        if seg.max_timestamp < max_ts:
            seg.max_timestamp, seg.offset_of_max_timestamp = max_ts, max_off
        seg.on_become_inactive()
        with self._lock:
            seg.dirty = True
        return True

    def _find(self, seg: LogSegment, offset: int) -> tuple[int, BatchHeader] | None:
        if seg.retired:
            # Its index files may be gone or belong to the segment that replaced it.
            return seg.find_batch(offset, start_position=0)
        if self._ensure_indexes(seg):
            return seg.find_batch(offset)
        return seg.find_batch(offset, start_position=0)

    def read(
        self,
        offset: int,
        max_bytes: int,
        *,
        max_offset: int | None = None,
        min_one: bool = True,
    ) -> ReadResult:
        """Whole stored batches from the one containing ``offset``.

        At most ``max_bytes`` (but the first batch whole when ``min_one``), never a
        batch with an offset at or past ``max_offset`` (high watermark, LSO).
        Raises KafkaError(OFFSET_OUT_OF_RANGE) unless log start <= offset <= log end.
        """
        start = self._read_start(offset, max_offset)
        if start is None:
            return ReadResult(b"", offset)
        limit, segments, i, pos = start
        seg = segments[i]
        parts: list[bytes | memoryview] = []
        budget = max_bytes
        first_offset: int | None = None
        take_one = min_one
        while True:
            if pos < seg.size:
                want = min(seg.size - pos, max(budget, 0))
                if take_one:
                    want = max(want, seg.header_at(pos).size)
                if want < BATCH_HEADER_SIZE:
                    break
                data = seg.pread(want, pos)
                used, stopped = self._whole_batches(data, limit)
                if used:
                    if first_offset is None:
                        first_offset = parse_batch_header(data).base_offset
                    # A view, not a copy, when the read went past the last whole batch
                    # (a fetch of 16 MiB otherwise copies 16 MiB once more).
                    parts.append(data if used == len(data) else memoryview(data)[:used])
                    budget -= used
                    take_one = False
                if stopped or used < seg.size - pos or budget <= 0:
                    break
            i += 1
            if i >= len(segments):
                break
            seg = segments[i]
            pos = 0
        if not parts:
            return ReadResult(b"", offset)
        records = parts[0] if len(parts) == 1 else b"".join(parts)
        return ReadResult(records, first_offset if first_offset is not None else offset)

    def read_slice(
        self,
        offset: int,
        max_bytes: int,
        *,
        max_offset: int | None = None,
        min_one: bool = True,
    ) -> tuple[FileSlice | None, int]:
        """The batches :meth:`read` would return for the same arguments, as file ranges
        (:class:`FileSlice`), and the base offset of the first (``offset`` if none).

        Only the batch headers are read. Raises OFFSET_OUT_OF_RANGE like ``read``.
        """
        start = self._read_start(offset, max_offset)
        if start is None:
            return None, offset
        limit, segments, i, pos = start
        ranges: list[tuple[int, int, int]] = []
        held: list[LogSegment] = []  # descriptors taken from the shared LRU until duplicated
        try:
            return self._slice_from(offset, limit, segments, i, pos, max_bytes, min_one, ranges, held)
        finally:
            for seg in held:
                DESCRIPTORS.release(seg)

    def _slice_from(
        self,
        offset: int,
        limit: int,
        segments: list[LogSegment],
        i: int,
        pos: int,
        budget: int,
        take_one: bool,
        ranges: list[tuple[int, int, int]],
        held: list[LogSegment],
    ) -> tuple[FileSlice | None, int]:
        first_offset: int | None = None
        next_offset = offset
        while i < len(segments):
            seg = segments[i]
            begin = pos
            stopped = False
            try:
                for position, header in seg.headers_from(pos):
                    if header.last_offset >= limit or (header.size > budget and not take_one):
                        stopped = True
                        break
                    if first_offset is None:
                        first_offset = header.base_offset
                    next_offset = header.next_offset
                    budget -= header.size
                    take_one = False
                    pos = position + header.size
            except TornBatch:
                stopped = True  # a batch being written at the end of the active segment
            if pos > begin:
                fd = DESCRIPTORS.acquire(seg)
                held.append(seg)
                ranges.append((fd, begin, pos - begin))
            if stopped or budget <= 0:
                break
            i += 1
            pos = 0
        if not ranges:
            return None, offset
        first = first_offset if first_offset is not None else offset
        found = FileSlice(ranges, first, next_offset)
        if len(found) < FILE_SLICE_MIN_BYTES:
            bytes(found)  # small: read now (the descriptors go back at once)
        return found, first

    def _read_start(self, offset: int, max_offset: int | None) -> tuple[int, list[LogSegment], int, int] | None:
        """(read limit, the segment list, index in it, position of the batch holding
        ``offset``) for a read; None when nothing is readable there. Raises
        OFFSET_OUT_OF_RANGE like ``read``.

        The list is the one current now: the cleaner and retention replace
        ``self.segments`` with a new list instead of changing it, so a read in a
        worker thread walks a consistent set of segments (whose descriptors stay
        open a while after they are replaced)."""
        self._check_open()
        leo = self._leo
        if offset < self._log_start or offset > leo:
            raise KafkaError(
                ErrorCode.OFFSET_OUT_OF_RANGE,
                f"offset {offset} is outside [{self._log_start}, {leo}] of {self.topic}-{self.partition}",
            )
        limit = leo if max_offset is None else min(max_offset, leo)
        if offset >= limit:
            return None
        segments = self.segments
        i = max(bisect_right(segments, offset, key=_base_of) - 1, 0)
        seg = segments[i]
        found = self._find(seg, offset)
        return limit, segments, i, seg.size if found is None else found[0]

    def batch_headers(self, offset: int, max_bytes: int, *, max_offset: int | None = None) -> Iterator[BatchHeader]:
        """Headers of the batches ``read`` would return for the same arguments, in order.

        Only the headers are read from disk, so callers that need batch bounds
        (share-partition acquisition) do not pay for reading the records. Lazy:
        stop iterating once enough batches are seen.
        """
        start = self._read_start(offset, max_offset)
        if start is None:
            return
        limit, segments, i, pos = start
        budget = max_bytes
        first = True
        while i < len(segments):
            for _, header in segments[i].headers_from(pos):
                if header.last_offset >= limit or (header.size > budget and not first):
                    return
                yield header
                budget -= header.size
                first = False
                if budget <= 0:
                    return
            i += 1
            pos = 0

    @staticmethod
    def _whole_batches(data: bytes, limit: int) -> tuple[int, bool]:
        """Bytes of complete batches at the start of ``data`` ending below ``limit``;
        and whether ``limit`` stopped the walk."""
        pos = 0
        end = len(data)
        while end - pos >= BATCH_HEADER_SIZE:
            header = parse_batch_header(data, pos)
            if header.last_offset >= limit:
                return pos, True
            if pos + header.size > end:
                break
            pos += header.size
        return pos, False

    def aborted_transactions(self, start: int, end: int) -> list[tuple[int, int]]:
        """(producer id, first offset) of aborted transactions overlapping [start, end)."""
        out: list[tuple[int, int]] = []
        for txn in self._aborted[bisect_left(self._aborted_last, start) :]:
            if txn.first_offset < end:
                out.append((txn.producer_id, txn.first_offset))
            if txn.last_stable_offset >= end:
                break
        return out

    def offset_for_timestamp(self, timestamp: int) -> tuple[int, int] | None:
        """(offset, timestamp) of the first record at or after the log start whose
        timestamp is >= ``timestamp``; None if there is none."""
        self._check_open()
        log_start = self._log_start
        for seg in self.segments[self._segment_index(log_start) :]:
            if seg.max_timestamp < timestamp:
                continue
            before = seg.time_index.offset_before(timestamp) if self._ensure_indexes(seg) else None
            start = max(log_start, seg.base_offset if before is None else before + 1)
            found = seg.find_batch(start)
            if found is None:
                continue
            pos = found[0]
            while pos < seg.size:
                header = seg.header_at(pos)
                if header.max_timestamp >= timestamp and header.last_offset >= start:
                    for record in iter_records(seg.pread(header.size, pos)):
                        if record.timestamp >= timestamp and record.offset >= start:
                            return record.offset, record.timestamp
                pos += header.size
        return None

    def max_timestamp(self) -> tuple[int, int]:
        """(offset, timestamp) of the record with the largest timestamp (the first such
        record); (-1, -1) when the log holds no timestamped record."""
        self._check_open()
        best: LogSegment | None = None
        for seg in self.segments:
            if seg.max_timestamp >= 0 and (best is None or seg.max_timestamp > best.max_timestamp):
                best = seg
        if best is None:
            return -1, -1
        found = self._find(best, best.offset_of_max_timestamp)
        pos = found[0] if found is not None else 0
        while pos < best.size:
            header = best.header_at(pos)
            if header.max_timestamp == best.max_timestamp:
                if header.timestamp_type == TimestampType.LOG_APPEND_TIME:
                    return header.base_offset, header.max_timestamp
                for record in iter_records(best.pread(header.size, pos)):
                    if record.timestamp == header.max_timestamp:
                        return record.offset, record.timestamp
            pos += header.size
        return best.offset_of_max_timestamp, best.max_timestamp

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

    def checkpoint_recovery_point(self) -> int:
        """Write this log's recovery point to the checkpoint file now (blocking: an
        fsync; safe in a worker thread); returns the offset written."""
        offset = self._recovery_point
        self.sync_epochs()
        update_offset_checkpoint(self.path.parent / RECOVERY_POINT_CHECKPOINT, self.topic, self.partition, offset)
        self.checkpointed_recovery_point = max(self.checkpointed_recovery_point, offset)
        return offset

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
        path = self.path
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

    def discard_cleaned(self, group: CleanedGroup) -> None:
        """Remove the files of a cleaned segment that is not swapped in."""
        for name in group.files.values():
            try:
                os.unlink(self.path / name)
            except FileNotFoundError:
                pass

    # ================================================================== durability

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
            state.epochs = self.epochs.encode() if self.epochs.dirty and self._materialized else None
            if state.epochs is not None:
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

    def close(self, *, durable: bool = True) -> None:
        """Flush everything, write a producer snapshot, and close the files. With
        ``durable`` false nothing is fsynced: the caller syncs the file system after
        closing many logs (one ``syncfs`` instead of a few fsyncs per log)."""
        if self._closed:
            return
        active = self.segments[-1]
        if active.max_timestamp >= 0:
            active.time_index.maybe_append(active.max_timestamp, active.offset_of_max_timestamp)
            if active.time_index.dirty:
                with self._lock:
                    active.dirty = True
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
