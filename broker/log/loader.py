"""LogLoader: opening a partition's log directory and recovering it (Kafka's ``LogLoader``).

:meth:`LogLoader.load` reads what is on disk into a :class:`LoadedLog` that
:class:`~broker.log.partition.PartitionLog` takes over as its live state: segment
discovery (stray files of interrupted writes removed, committed cleaner swaps
completed), index checks and rebuilds, the torn tail cut off, producer state and the
leader epoch cache rebuilt.

After a clean shutdown the indexes are trusted (the active segment's are
sanity-checked and its tail scanned from the last index entry) and producer state
comes from the snapshot written at close. Otherwise every segment from the one holding
the last durable offset (recovery point - 1) onwards is re-read: each batch's length,
magic, CRC-32C and offset continuity are checked, the segment is cut at the first bad
batch (one structured log line says what was cut), the later segments are deleted,
and indexes and producer/transaction state are rebuilt from the batch headers. Data
below the recovery point was fsynced before the checkpoint named it, so it is never
touched. Index entries are buffered and written by the flush, so a crash can lose the
entries a segment got after its last flush (at the latest, its final time index entry
at roll): hence recovery starts at the segment holding recovery point - 1, which is
the rolled one when the point sits exactly at the new segment's base.

Producer snapshots are written at each roll (not fsynced: a torn one fails its CRC and
the previous one is used) and at close (fsynced). Loading the snapshot beats
rescanning every batch header of a large log at startup; the scan is the fallback
when no usable snapshot exists. The same rebuild (:func:`load_snapshot`,
:func:`replay_trusted`) serves a log cut back by truncation.
"""

from __future__ import annotations

import os
import uuid
from bisect import bisect_right
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import structlog

from broker.log.checkpoint import (
    CLEAN_SHUTDOWN_FILE,
    HIGH_WATERMARK_CHECKPOINT,
    LOG_START_OFFSET_CHECKPOINT,
    RECOVERY_POINT_CHECKPOINT,
    fsync_dir,
    read_offset_checkpoint,
    read_partition_metadata,
    write_partition_metadata,
)
from broker.log.clean import CLEANED_SUFFIX, SWAP_SUFFIX
from broker.log.config import LogConfig
from broker.log.epoch_cache import LEADER_EPOCH_CHECKPOINT, LeaderEpochCache
from broker.log.index import AbortedTxn
from broker.log.producer_state import CompletedTxn, ProducerStateManager
from broker.log.segment import LogSegment, TornBatch, segment_file_name
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.records import (
    BATCH_HEADER_SIZE,
    BatchHeader,
    ControlType,
    RecordBatchError,
    control_type,
    iter_records,
    parse_batch_header,
    parse_end_txn_marker,
)

__all__ = [
    "INDEX_SUFFIXES",
    "SNAPSHOT_SUFFIX",
    "DirectoryState",
    "LoadedLog",
    "LogLoader",
    "aborted_entry",
    "load_snapshot",
    "marker_of",
    "replay_batch",
    "replay_trusted",
    "snapshot_files",
]

log = structlog.get_logger("sharebroker.log")

SNAPSHOT_SUFFIX = ".snapshot"
# Leftovers of interrupted writes or deletions; removed when a log is opened. A
# ``.swap`` file is not one: it is a cleaned segment whose swap was committed.
_STRAY_SUFFIXES = (".tmp", ".deleted", CLEANED_SUFFIX)
INDEX_SUFFIXES = (".index", ".timeindex", ".txnindex")

# Finds the batch holding an offset in a segment: (position, header), None past its end.
FindBatch = Callable[[LogSegment, int], tuple[int, BatchHeader] | None]


class DirectoryState(NamedTuple):
    """What the data directory says of every log, read once when a broker opens them all
    (reading the checkpoint files once per log would cost O(logs) for each log)."""

    clean_shutdown: bool
    recovery_points: dict[tuple[str, int], int]
    log_start_offsets: dict[tuple[str, int], int]
    high_watermarks: dict[tuple[str, int], int]
    # Names of the partition directories present (None: not listed, look each one up).
    directories: frozenset[str] | None = None

    @classmethod
    def read(cls, data_dir: Path, directories: frozenset[str] | None = None) -> DirectoryState:
        return cls(
            (data_dir / CLEAN_SHUTDOWN_FILE).exists(),
            read_offset_checkpoint(data_dir / RECOVERY_POINT_CHECKPOINT),
            read_offset_checkpoint(data_dir / LOG_START_OFFSET_CHECKPOINT),
            read_offset_checkpoint(data_dir / HIGH_WATERMARK_CHECKPOINT),
            directories,
        )


class LoadedLog(NamedTuple):
    """A log as opened: the state :class:`~broker.log.partition.PartitionLog` starts from."""

    segments: list[LogSegment]
    materialized: bool  # its directory exists (a new log makes it at its first write)
    dir_dirty: bool  # directory entries changed and not yet fsynced
    producers: ProducerStateManager
    snapshot_offset: int | None  # of the producer snapshot known to be on disk
    aborted: list[AbortedTxn]
    epochs: LeaderEpochCache
    log_end_offset: int
    log_start_offset: int
    checkpointed_recovery_point: int
    checkpointed_high_watermark: int
    # Index of the first segment re-read by recovery (None: the log was trusted as it is):
    # the caller flushes what recovery read back before calling it recovered.
    first_recovered: int | None


def marker_of(view: memoryview) -> tuple[bool, int] | None:
    """(is_abort, coordinator_epoch) of a COMMIT/ABORT control batch; None for other
    control records (or an empty control batch, which Kafka also ignores)."""
    first = next(iter_records(view), None)
    if first is None:
        return None
    if control_type(first.key) not in (ControlType.ABORT, ControlType.COMMIT):
        return None
    marker = parse_end_txn_marker(first.key, first.value)
    return (not marker.is_commit), marker.coordinator_epoch


def aborted_entry(txn: CompletedTxn, producers: ProducerStateManager) -> AbortedTxn | None:
    """The aborted-transaction index entry of a completed transaction (None: committed)."""
    if not txn.is_abort:
        return None
    first_unstable = producers.first_unstable_offset()
    lso = txn.last_offset + 1 if first_unstable is None else first_unstable
    return AbortedTxn(txn.producer_id, txn.first_offset, txn.last_offset, lso)


def replay_batch(
    producers: ProducerStateManager,
    header: BatchHeader,
    view: memoryview | None,
    seg: LogSegment | None = None,
    pos: int = 0,
) -> CompletedTxn | None:
    """Rebuild producer state from one stored batch (a marker's record is read from
    ``seg`` at ``pos`` when ``view`` is None)."""
    if header.producer_id < 0:
        return None
    if header.is_control:
        if view is None and seg is not None:
            view = memoryview(seg.pread(header.size, pos))
        try:
            marker = marker_of(view) if view is not None else None
        except RecordBatchError:
            marker = None
        if marker is None:
            return None
        return producers.replay_marker(header, marker[0], marker[1])
    producers.replay_data(header)
    return None


def _snapshot_offset(name: str) -> int | None:
    """The offset a producer snapshot's file name carries (None: not a snapshot)."""
    if name.endswith(SNAPSHOT_SUFFIX) and len(name) == 20 + len(SNAPSHOT_SUFFIX) and name[:20].isdigit():
        return int(name[:20])
    return None


def snapshot_files(path: Path) -> list[tuple[int, Path]]:
    """(offset, path) of the producer snapshots in the log directory ``path``, in order."""
    out = []
    for entry in os.scandir(path):
        offset = _snapshot_offset(entry.name)
        if offset is not None:
            out.append((offset, Path(entry.path)))
    return sorted(out)


def load_snapshot(
    path: Path,
    topic: str,
    partition: int,
    snapshots: list[tuple[int, Path]],
    first_base: int,
    limit: int,
    config: LogConfig,
) -> tuple[ProducerStateManager, int | None, int]:
    """The newest readable producer snapshot at an offset in [first_base, limit]:
    (the producer state, the snapshot's offset or None if none was usable, the offset
    replay must start from)."""
    for offset, snap_path in reversed(snapshots):
        if offset > limit or offset < first_base:
            continue
        try:
            loaded = ProducerStateManager.from_snapshot(
                snap_path.read_bytes(), verification_enabled=config.transaction_verification
            )
        except OSError:
            loaded = None
        if loaded is None or loaded[1] != offset:
            log.warning("producer_snapshot_unreadable", topic=topic, partition=partition, file=snap_path.name)
            continue
        return loaded[0], offset, offset
    return ProducerStateManager(verification_enabled=config.transaction_verification), None, first_base


def replay_trusted(
    producers: ProducerStateManager,
    segments: list[LogSegment],
    bases: list[int],
    find: FindBatch,
    start: int,
    limit: int,
) -> None:
    """Rebuild producer state from batch headers in [start, limit) of trusted segments."""
    if start >= limit:
        return
    i = max(bisect_right(bases, start) - 1, 0)
    while i < len(segments) and bases[i] < limit:
        seg = segments[i]
        found = find(seg, start) if start > seg.base_offset else (0, None)
        if found is not None:
            pos = found[0]
            while pos < seg.size:
                header = seg.header_at(pos)
                if header.base_offset >= limit:
                    break
                if header.last_offset >= start:
                    replay_batch(producers, header, None, seg, pos)
                pos += header.size
        i += 1


def _next_offset_of(path: Path, base: int) -> int:
    """One past the last whole batch of the segment file at ``path`` (``base`` if none)."""
    end = base
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    while len(data) - pos >= BATCH_HEADER_SIZE:
        try:
            header = parse_batch_header(data, pos)
        except RecordBatchError:
            break
        if pos + header.size > len(data):
            break
        end = header.next_offset
        pos += header.size
    return end


class LogLoader:
    """Opens the log of one partition from its directory (see the module docstring).

    ``prepare``: what a new segment's first write runs first (the log makes its
    directory); ``find``: the log's batch lookup through the segment indexes."""

    def __init__(
        self,
        path: Path,
        topic: str,
        partition: int,
        topic_id: uuid.UUID,
        config: LogConfig,
        now_ms: Callable[[], int],
        prepare: Callable[[], None],
        find: FindBatch,
    ) -> None:
        self.path = path
        self.topic = topic
        self.partition = partition
        self.topic_id = topic_id
        self.config = config
        self._now_ms = now_ms
        self._prepare = prepare
        self._find = find
        self.segments: list[LogSegment] = []
        self._bases: list[int] = []
        self._materialized = True
        self._dir_dirty = False
        self._producers = ProducerStateManager(verification_enabled=config.transaction_verification)
        self._snapshot_offset: int | None = None
        self._aborted: list[AbortedTxn] = []
        # Base offsets of segments whose cleaner swap was completed here.
        self._swapped: set[int] = set()
        # The files of the log's directory as its scan left them (None: not scanned, or
        # changed since): a file not in it is not there, so opening the log does not try
        # to open it (30,000 logs each missing a few index files cost seconds of failed
        # opens) nor list the directory again for its snapshots.
        self._present: set[str] | None = None

    def _warn(self, event: str, seg: LogSegment, **fields: object) -> None:
        """Log a warning about one of this log's segments."""
        log.warning(event, topic=self.topic, partition=self.partition, segment=seg.log_path.name, **fields)

    def load(self, directory: DirectoryState | None) -> LoadedLog:
        """Open (creating if needed) and recover the log. ``directory``: the data
        directory's checkpoints and clean-shutdown marker, when the caller read them
        already (else they are read here). On failure every segment opened is closed.

        Raises KafkaError(INCONSISTENT_TOPIC_ID) if the directory belongs to another
        topic id, OSError if the files cannot be read.
        """
        try:
            return self._load(directory)
        except BaseException:
            for seg in self.segments:
                seg.closing = True
                seg.close()
            raise

    def _load(self, directory: DirectoryState | None) -> LoadedLog:
        fresh, directory = self._check_identity(directory)
        key = (self.topic, self.partition)
        clean = directory.clean_shutdown
        recovery_point = directory.recovery_points.get(key, 0)
        log_start_ckpt = directory.log_start_offsets.get(key)
        hw_ckpt = directory.high_watermarks.get(key, 0)
        if not self._discover_segments(fresh):
            # A log without segment files is new (retention never deletes the active
            # segment): it starts at 0 whatever a stale checkpoint entry says.
            log_start_ckpt = None
            clean = True  # nothing to recover
        if fresh:
            # Nothing on disk: an empty log at offset 0 (no index, snapshot or epoch to read).
            self.segments[0].indexes_checked = True
            return self._loaded(0, 0, 0, recovery_point, LeaderEpochCache(), None)

        first_recover = self._load_trusted(clean, recovery_point)
        recovered = first_recover < len(self.segments)
        self._rebuild_producer_state(first_recover, recovered)
        if recovered:
            self._recover_from(first_recover, recovery_point)
        leo = self.segments[-1].next_offset
        start_offset = self._bases[0] if log_start_ckpt is None else max(log_start_ckpt, self._bases[0])
        log_start = min(start_offset, leo)
        for seg in self.segments[:-1]:
            seg.inactive = True
        self._delete_snapshots_above(leo)
        first_recovered = first_recover if recovered else None
        epochs = self._load_epochs(first_recovered, leo, log_start)
        hw = max(log_start, min(hw_ckpt, leo))
        return self._loaded(leo, log_start, hw, recovery_point, epochs, first_recovered)

    def _loaded(
        self, leo: int, log_start: int, hw: int, recovery_point: int, epochs: LeaderEpochCache, first: int | None
    ) -> LoadedLog:
        return LoadedLog(
            self.segments,
            self._materialized,
            self._dir_dirty,
            self._producers,
            self._snapshot_offset,
            self._aborted,
            epochs,
            leo,
            log_start,
            recovery_point,
            hw,
            first,
        )

    def _check_identity(self, directory: DirectoryState | None) -> tuple[bool, DirectoryState]:
        """Whether the log is new, and the directory state to open it with; the directory's
        ``partition.metadata`` must name this topic id (written if missing)."""
        path = self.path
        if directory is not None and directory.directories is not None:
            fresh = path.name not in directory.directories
        else:
            fresh = not path.is_dir()
        if fresh:
            # A new log: nothing to recover, and checkpoint entries of a log that had this
            # name before are not its own. Its directory and files are made by its first
            # write (PartitionLog._materialize): creating 10,000 partitions touches no file
            # until they get data, and a partition without a directory opens as a new one.
            directory = DirectoryState(True, {}, {}, {})
            self._materialized = False
            stored: uuid.UUID | None = self.topic_id
        else:
            stored = read_partition_metadata(path)
        if stored is None:
            # Losing this file in a crash is harmless (it is rewritten from the catalog),
            # so creating thousands of partitions costs no fsync per partition.
            write_partition_metadata(path, self.topic_id, durable=False)
            self._dir_dirty = True
        elif stored != self.topic_id:
            raise KafkaError(
                ErrorCode.INCONSISTENT_TOPIC_ID,
                f"{path} holds topic id {stored}, expected {self.topic_id}",
            )
        if directory is None:
            directory = DirectoryState.read(path.parent)
        return fresh, directory

    def _discover_segments(self, fresh: bool) -> bool:
        """The segments on disk (one new empty segment if none); False if there were none."""
        bases = [] if fresh else self._scan_directory()
        index_bytes = self.config.segment_index_bytes
        now = self._now_ms()
        if not bases:
            self.segments = [self._new_segment(0)]
            self._dir_dirty = self._materialized
        else:
            self.segments = [
                LogSegment(self.path, b, index_bytes=index_bytes, created_ms=now, exists=True, prepare=self._prepare)
                for b in bases
            ]
        self._bases = [s.base_offset for s in self.segments]
        return bool(bases)

    def _new_segment(self, base: int) -> LogSegment:
        return LogSegment(
            self.path,
            base,
            index_bytes=self.config.segment_index_bytes,
            created_ms=self._now_ms(),
            prepare=self._prepare,
        )

    def _load_trusted(self, clean: bool, recovery_point: int) -> int:
        """Take the segments below the first one recovery must re-read as they are (those a
        swap was completed for are checked); returns the index of that first one (the
        segment count when nothing is to be re-read)."""
        n = len(self.segments)
        if clean:
            first_recover = n
        else:
            # From the segment holding the last durable offset (recovery point - 1):
            # when the point sits exactly at a segment boundary, the segment before
            # it may have rolled after its last flush, its final index entries lost.
            first_recover = max(bisect_right(self._bases, recovery_point - 1) - 1, 0)
        for i in range(min(first_recover, n)):
            if self._bases[i] in self._swapped:
                # Completed from a .swap at open: check it like recovery would, without
                # touching producer state (it is rebuilt from the snapshot and later data).
                self._rebuild_segment(self.segments[i], self._bases[i + 1] if i + 1 < n else None)
        for i in range(min(first_recover, n - 1)):
            self._load_trusted_inactive(self.segments[i], self._bases[i + 1])
        if first_recover >= n and not self._load_trusted_active(self.segments[-1]):
            first_recover = n - 1
        return first_recover

    def _rebuild_producer_state(self, first_recover: int, recovered: bool) -> None:
        """Producer state: the snapshot at or below where recovery starts, then the batches
        after it replayed; the aborted transactions of the trusted segments."""
        limit = self._bases[first_recover] if recovered else self.segments[-1].next_offset
        snapshots = self._snapshot_files()
        self._producers, self._snapshot_offset, start = load_snapshot(
            self.path, self.topic, self.partition, snapshots, self._bases[0], limit, self.config
        )
        replay_trusted(self._producers, self.segments, self._bases, self._find, start, limit)
        for i in range(len(self.segments)):
            if i >= first_recover:
                break
            if self._has_file(segment_file_name(self._bases[i], ".txnindex")):
                self.segments[i].txn_index.load()
            self._aborted.extend(self.segments[i].txn_index.entries)

    def _recover_from(self, first: int, recovery_point: int) -> None:
        """Re-read the segments from index ``first`` on; at the first one that is cut (a torn
        batch, an overlap with the next segment, or a hole before a later one), the
        segments after it are deleted."""
        for i in range(first, len(self.segments)):
            seg = self.segments[i]
            cut = self._recover_segment(seg)
            next_base = self._bases[i + 1] if i + 1 < len(self.segments) else None
            if not cut and next_base is not None and seg.next_offset > next_base:
                self._warn("log_segments_overlap", seg, next_offset=seg.next_offset, next_segment_base=next_base)
                cut = True
            elif not cut and next_base is not None and seg.next_offset < next_base and next_base > recovery_point:
                # The tail of this segment did not reach the disk but a later one did:
                # nothing after the hole was ever fsynced (a flush covers every dirty
                # segment), so drop it. (A segment wholly below the recovery point was
                # durable whole; a gap there is the cleaner's work, which only cleans
                # segments below the checkpointed recovery point.)
                self._warn("log_gap_truncated", seg, next_offset=seg.next_offset, next_segment_base=self._bases[i + 1])
                cut = True
            if cut:
                self._delete_after(i)
                break
        self._bases = [s.base_offset for s in self.segments]

    def _delete_after(self, i: int) -> None:
        for extra in self.segments[i + 1 :]:
            self._warn("log_segment_deleted_after_truncation", extra, size=extra.size)
            extra.close()
            extra.delete_files()
        del self.segments[i + 1 :]
        self._dir_dirty = True

    def _delete_snapshots_above(self, offset: int) -> None:
        if not self._materialized:
            return
        for snap_offset, snap_path in self._snapshot_files():
            if snap_offset > offset:
                if snap_offset == self._snapshot_offset:
                    self._snapshot_offset = None
                try:
                    os.unlink(snap_path)
                except FileNotFoundError:
                    pass

    def _load_epochs(self, first_recovered: int | None, leo: int, log_start: int) -> LeaderEpochCache:
        """The leader epoch cache: the file, with the recovered segments' epochs taken
        from their batch headers again; rebuilt from every header without a file."""
        cache: LeaderEpochCache | None = LeaderEpochCache()
        if self._materialized:
            cache = LeaderEpochCache.read(self.path) if self._has_file(LEADER_EPOCH_CHECKPOINT) else None
        first = first_recovered
        if cache is None:
            cache = LeaderEpochCache()
            first = 0 if leo > self._bases[0] else None
            cache.dirty = True
        elif first is not None:
            cache.truncate_from_end(self._bases[first])
        if first is not None:
            for seg in self.segments[first:]:
                for _, header in seg.headers_from(0):
                    if header.partition_leader_epoch > cache.latest_epoch:
                        cache.assign(header.partition_leader_epoch, header.base_offset)
        cache.truncate_from_end(leo)
        cache.truncate_from_start(log_start)
        return cache

    def _scan_directory(self) -> list[int]:
        """Base offsets of the segment files; stray and orphan files are removed and
        swaps the cleaner committed are completed."""
        bases: set[int] = set()
        others: list[Path] = []
        swaps: list[str] = []
        present: set[str] = set()
        for entry in os.scandir(self.path):
            name = entry.name
            if name.endswith(SWAP_SUFFIX):
                swaps.append(name)
                continue
            if name.endswith(_STRAY_SUFFIXES):
                os.unlink(entry.path)
                continue
            present.add(name)
            stem, dot, suffix = name.partition(".")
            if len(stem) == 20 and stem.isdigit() and dot:
                if suffix == "log":
                    bases.add(int(stem))
                elif suffix in ("index", "timeindex", "txnindex"):
                    others.append(Path(entry.path))
        if swaps:
            self._complete_swaps(swaps, bases)
        for index_path in others:
            if int(index_path.name[:20]) not in bases and index_path.exists():
                os.unlink(index_path)
                present.discard(index_path.name)
        self._present = None if swaps else present
        return sorted(bases)

    def _has_file(self, name: str) -> bool:
        """Whether the log's directory holds ``name`` (True when the scan cannot tell)."""
        return self._present is None or name in self._present

    def _snapshot_files(self) -> list[tuple[int, Path]]:
        if not self._materialized:
            return []
        if self._present is None:
            return snapshot_files(self.path)
        return sorted(
            (offset, self.path / name) for name in self._present if (offset := _snapshot_offset(name)) is not None
        )

    def _complete_swaps(self, swaps: list[str], bases: set[int]) -> None:
        """Finish the swaps of cleaned segments that were interrupted (see
        :meth:`PartitionLog.replace_with_cleaned`). A ``<base>.log.swap`` means the swap
        was committed: the segments it replaced (those whose base offset lies between its
        own and the end of its last batch) go and the swap files take the final names.
        Index ``.swap`` files without a log ``.swap`` belong to a swap that was not
        committed and are removed."""
        path = self.path
        committed = sorted(int(n[:20]) for n in swaps if n.endswith(".log" + SWAP_SUFFIX) and n[:20].isdigit())
        for base in committed:
            swap_log = path / (segment_file_name(base, ".log") + SWAP_SUFFIX)
            end = _next_offset_of(swap_log, base)
            for old in sorted(bases):
                if base < old < end:
                    for suffix in (".log", *INDEX_SUFFIXES):
                        try:
                            os.unlink(path / segment_file_name(old, suffix))
                        except FileNotFoundError:
                            pass
                    bases.discard(old)
            for suffix in INDEX_SUFFIXES:
                swap = path / (segment_file_name(base, suffix) + SWAP_SUFFIX)
                if swap.exists():
                    os.replace(swap, path / segment_file_name(base, suffix))
            os.replace(swap_log, path / segment_file_name(base, ".log"))
            bases.add(base)
            self._swapped.add(base)
            log.warning(
                "log_clean_swap_completed", topic=self.topic, partition=self.partition, base_offset=base, end=end
            )
        for name in swaps:
            leftover = path / name
            if leftover.exists():
                os.unlink(leftover)
        fsync_dir(path)
        self._dir_dirty = True

    def _load_trusted_inactive(self, seg: LogSegment, next_base: int) -> None:
        seg.next_offset = next_base
        seg.inactive = True
        last = seg.time_index.peek_last_entry() if self._has_file(seg.time_index.path.name) else None
        if last is not None:
            seg.max_timestamp, seg.offset_of_max_timestamp = last
        if seg.size > 0:
            seg.first_batch_timestamp = -1  # only the active segment rolls by time

    def _load_trusted_active(self, seg: LogSegment) -> bool:
        """Trust the active segment's indexes after a clean shutdown, scanning only the
        tail after the last offset-index entry. False if anything looks wrong."""
        seg.indexes_checked = True
        for index in (seg.offset_index, seg.time_index):
            if not self._has_file(index.path.name):
                index.start_empty()  # no entry was ever written: nothing to read
        if not seg.offset_index.sane(None, max(seg.size, 1)) or not seg.time_index.sane(None):
            self._warn("log_index_insane", seg)
            return False
        last_time = seg.time_index.last_entry()
        if last_time is not None:
            seg.max_timestamp, seg.offset_of_max_timestamp = last_time
        last_index = seg.offset_index.last_entry()
        start = last_index[1] if last_index is not None else 0
        seg.next_offset = seg.base_offset
        try:
            for pos, header, _ in seg.scan(start, check_crc=True):
                if pos == start and last_index is not None and header.last_offset != last_index[0]:
                    return False
                seg.next_offset = header.next_offset
                if header.max_timestamp > seg.max_timestamp:
                    seg.max_timestamp = header.max_timestamp
                    seg.offset_of_max_timestamp = header.last_offset
            if seg.size > 0:
                seg.first_batch_timestamp = seg.header_at(0).max_timestamp
        except (TornBatch, RecordBatchError) as exc:
            self._warn("log_tail_invalid_after_clean_shutdown", seg, reason=str(exc))
            return False
        seg.bytes_since_index = seg.size - start
        return True

    def _rebuild_segment(self, seg: LogSegment, next_base: int | None) -> None:
        """Rebuild the indexes of a segment a swap was completed for, checking every batch
        (its aborted-transaction index is the cleaner's, kept as it is)."""
        seg.reset_indexes(keep_txn_index=True)
        seg.indexes_checked = True
        interval = self.config.index_interval_bytes
        try:
            for pos, header, _ in seg.scan(0, check_crc=True, expected_offset=seg.base_offset):
                seg.track_batch(pos, header.size, header.last_offset, header.max_timestamp, interval)
        except TornBatch as torn:
            self._cut_at(seg, torn)
        seg.on_become_inactive()
        if next_base is not None:
            seg.next_offset = next_base

    def _recover_segment(self, seg: LogSegment) -> bool:
        """Re-validate every batch of ``seg``, rebuild its indexes and replay producer
        state; cut the file at the first invalid batch. True if it was cut."""
        seg.reset_indexes()
        seg.indexes_checked = True
        interval = self.config.index_interval_bytes
        producers = self._producers
        try:
            for pos, header, view in seg.scan(0, check_crc=True, expected_offset=seg.base_offset):
                seg.track_batch(pos, header.size, header.last_offset, header.max_timestamp, interval)
                completed = replay_batch(producers, header, view)
                if completed is not None:
                    entry = aborted_entry(completed, producers)
                    if entry is not None:
                        seg.txn_index.append(entry)
                        self._aborted.append(entry)
        except TornBatch as torn:
            self._cut_at(seg, torn)
            return True
        return False

    def _cut_at(self, seg: LogSegment, torn: TornBatch) -> None:
        """Cut ``seg`` at the first invalid batch a scan met, and say so in the log."""
        self._warn(
            "log_truncated",
            seg,
            position=torn.position,
            truncated_bytes=seg.size - torn.position,
            next_offset=seg.next_offset,
            reason=torn.reason,
        )
        seg.truncate_to_position(torn.position)
