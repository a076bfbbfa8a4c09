"""Compaction of one partition's log: the work a cleaner worker process does.

Behaviour follows Apache Kafka's ``Cleaner`` (one round, called a *clean*):

1. **Map the dirty section.** Read ``[first_dirty, first_uncleanable)`` and map every
   key to the offset of its latest record (records of aborted transactions are not
   mapped). The map holds at most ``map_capacity`` keys; when it is full the round
   ends where the mapping stopped and the next round goes on from there.
2. **Rewrite the log up to the end of the map,** from the log start, in groups of
   consecutive segments whose sizes add up to at most ``segment.bytes`` (each group
   becomes one segment with the base offset of its first). A record is kept when a
   later record of its key is not in the map (``offset >= map[key]``) or it lies past
   the map; a tombstone (null value) also needs its batch's *delete horizon* not yet
   passed. Offsets never change: a batch keeps its base offset and its last offset
   delta whatever it loses, so producers' sequence numbers stay valid.
3. **Batches.** A batch that loses nothing is copied byte for byte. Otherwise it is
   rebuilt with its codec, producer fields and leader epoch, its records copied
   (only their timestamp deltas are recomputed) and a new CRC-32C. The first clean
   that keeps a tombstone, or a transaction marker that became removable, stamps
   the batch with a delete horizon (``now + delete.retention.ms``, KIP-534: base
   timestamp plus attribute bit 6); a later clean past the horizon drops them.
4. **Producers and transactions.** The batch holding an active producer's last
   sequence (or, with no data left, its last marker) is kept, emptied if need be
   (a 61-byte header without records), so producer state can be rebuilt from the
   log; so is the batch that ends the round. Data of aborted transactions goes;
   an ABORT marker stays while the clean still met data of its transaction, a
   COMMIT marker while it met the transaction's batches, and either is removed
   only after its delete horizon. An aborted transaction keeps its entry in the
   cleaned segment's ``.txnindex`` as long as its marker is kept.

The worker only reads segment files and writes new files with a ``.cleaned``
suffix beside them (fsynced, under a name unique to the job); it never renames or
deletes anything the broker serves. The broker swaps the results in
(:meth:`broker.log.partition.PartitionLog.replace_with_cleaned`).

A record without a key in a compacted topic is dropped, as Kafka does (produce
refuses them, so only a topic switched to ``compact`` can hold any).
"""

from __future__ import annotations

import hashlib
import heapq
import os
import struct
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from crc32c import crc32c

from broker.log.index import AbortedTxn, OffsetIndex, TimeIndex, TxnIndex
from broker.log.segment import MAX_RELATIVE_OFFSET, IndexedBatches, segment_file_name
from broker.protocol.compression import compress, decompress
from broker.protocol.records import (
    BATCH_HEADER_SIZE,
    BatchHeader,
    ControlType,
    RecordBatchError,
    parse_batch_header,
    read_varint,
    write_varint,
)

__all__ = [
    "CleanAborted",
    "CleanJob",
    "CleanResult",
    "CleanedGroup",
    "CorruptSegmentError",
    "OffsetMap",
    "SourceSegment",
    "TxnTracker",
    "clean",
    "filter_batch",
    "map_key",
]

CLEANED_SUFFIX = ".cleaned"
SWAP_SUFFIX = ".swap"
# The four files of a segment, in the order a swap renames them (the log file last:
# its rename is what commits the swap).
SEGMENT_SUFFIXES = (".index", ".timeindex", ".txnindex", ".log")

# Keys shorter than a digest are mapped as they are; longer ones by a 16-byte
# BLAKE2b digest (Kafka maps every key by its 16-byte MD5). A raw key and a digest
# never have the same length, so they cannot collide with each other.
DIGEST_BYTES = 16
# Bytes one mapped key costs in a worker (dict slot, key and offset objects); the
# dedupe buffer divided by this is the map's capacity.
MAP_ENTRY_BYTES = 112

_DELETE_HORIZON_BIT = 0x40
_CONTROL_BIT = 0x20
_TRANSACTIONAL_BIT = 0x10
_TIMESTAMP_TYPE_BIT = 0x08
_CODEC_MASK = 0x07
_HEADER = struct.Struct(">qiibIhiqqqhii")
_CRC_OFFSET = 17
_ATTRIBUTES_OFFSET = 21
_CONTROL_KEY = struct.Struct(">hh")
_INT32_MAX = (1 << 31) - 1
# How often (bytes read) a worker checks that the broker that started it is alive.
_PARENT_CHECK_BYTES = 4 << 20
# How often the I/O throttle compares the bytes moved with the allowed rate.
_THROTTLE_CHECK_S = 0.1


class CleanAborted(Exception):
    """The clean stopped on purpose (the broker that asked for it is gone)."""


class CorruptSegmentError(Exception):
    """A batch in a segment fails its CRC or does not parse: the partition is left alone."""


def map_key(key: bytes) -> bytes:
    """What the offset map stores for ``key``."""
    if len(key) < DIGEST_BYTES:
        return key
    return hashlib.blake2b(key, digest_size=DIGEST_BYTES).digest()


class OffsetMap:
    """Key -> offset of its latest record in the dirty section, plus the last offset mapped."""

    __slots__ = ("_map", "capacity", "latest_offset")

    def __init__(self, capacity: int) -> None:
        self._map: dict[bytes, int] = {}
        self.capacity = capacity
        self.latest_offset = -1

    def __len__(self) -> int:
        return len(self._map)

    def put(self, key: bytes, offset: int) -> None:
        self._map[map_key(key)] = offset

    def get(self, key: bytes) -> int:
        return self._map.get(map_key(key), -1)

    @property
    def utilization(self) -> float:
        return len(self._map) / self.capacity if self.capacity else 0.0


class TxnTracker:
    """Which transactions a clean has met, deciding what of them can go.

    Fed every batch in offset order. Aborted transactions come from the log's
    aborted-transaction index (:meth:`add_aborted`); a transactional data batch of a
    producer whose aborted transaction has started is that transaction's data.
    """

    def __init__(self) -> None:
        self._pending: list[tuple[int, int, AbortedTxn]] = []  # heap by first offset
        self._seq = 0
        self._aborted: dict[int, list] = {}  # producer id -> [AbortedTxn, met a batch]
        self._committed: set[int] = set()
        # Aborted transactions whose marker is kept, for the cleaned segment's .txnindex.
        self.index: list[AbortedTxn] | None = None

    def add_aborted(self, txns: list[AbortedTxn] | tuple[AbortedTxn, ...]) -> None:
        for txn in txns:
            heapq.heappush(self._pending, (txn.first_offset, self._seq, txn))
            self._seq += 1

    def _start_up_to(self, offset: int) -> None:
        pending = self._pending
        while pending and pending[0][0] <= offset:
            txn = heapq.heappop(pending)[2]
            self._aborted.setdefault(txn.producer_id, [txn, False])

    def on_batch(self, header: BatchHeader) -> bool:
        """A data batch; True if it belongs to an aborted transaction (it can go)."""
        self._start_up_to(header.last_offset)
        if not header.is_transactional:
            return False
        aborted = self._aborted.get(header.producer_id)
        if aborted is not None:
            aborted[1] = True
            return True
        self._committed.add(header.producer_id)
        return False

    def on_control(self, header: BatchHeader, control_key: bytes | None) -> bool:
        """A control batch (``control_key``: its first record's key, None when empty);
        True if the marker may be removed once its delete horizon passes."""
        self._start_up_to(header.last_offset)
        if control_key is None:
            return True  # emptied by an earlier clean
        try:
            type_id = _CONTROL_KEY.unpack_from(control_key)[1] if len(control_key) >= 4 else -1
        except struct.error:
            type_id = -1
        pid = header.producer_id
        if type_id == ControlType.ABORT:
            aborted = self._aborted.pop(pid, None)
            if aborted is not None and aborted[1]:
                if self.index is not None:
                    self.index.append(aborted[0])
                return False
            return True
        if type_id == ControlType.COMMIT:
            if pid in self._committed:
                self._committed.discard(pid)
                return False
            return True
        return False


# ----------------------------------------------------------------------------- records


class RecordSpan:
    """One record of a batch, as much as a clean needs: its offset and timestamp, its
    key, whether it has a value, and its encoded bytes after the timestamp delta."""

    __slots__ = ("has_value", "key", "offset", "tail", "timestamp")

    def __init__(self, offset: int, timestamp: int, key: bytes | None, has_value: bool, tail: bytes) -> None:
        self.offset = offset
        self.timestamp = timestamp
        self.key = key
        self.has_value = has_value
        self.tail = tail


def batch_records(header: BatchHeader, view: memoryview) -> Iterator[RecordSpan]:
    """The records of one batch (decompressed first if needed)."""
    count = header.records_count
    if count <= 0:
        return
    body = view[BATCH_HEADER_SIZE:]
    data = bytes(body) if header.compression == 0 else decompress(header.compression, body)
    base_offset = header.base_offset
    base_ts = header.base_timestamp
    log_append = header.max_timestamp if header.attributes & _TIMESTAMP_TYPE_BIT else None
    pos = 0
    end = len(data)
    try:
        for _ in range(count):
            length, pos = read_varint(data, pos, 10)
            record_end = pos + length
            if length < 0 or record_end > end:
                raise RecordBatchError("record runs past the end of its batch")
            ts_delta, p = read_varint(data, pos + 1, 10)
            tail_start = p
            offset_delta, p = read_varint(data, p, 10)
            key_len, p = read_varint(data, p, 10)
            key = None
            if key_len >= 0:
                key = data[p : p + key_len]
                p += key_len
            value_len, p = read_varint(data, p, 10)
            if p > record_end:
                raise RecordBatchError("record fields run past the record")
            yield RecordSpan(
                base_offset + offset_delta,
                base_ts + ts_delta if log_append is None else log_append,
                key,
                value_len >= 0,
                data[tail_start:record_end],
            )
            pos = record_end
    except IndexError:
        raise RecordBatchError("record runs past the end of its batch") from None
    if pos != end:
        raise RecordBatchError("bytes left after the last record of a batch")


def _pack_batch(
    header: BatchHeader,
    attributes: int,
    base_timestamp: int,
    max_timestamp: int,
    count: int,
    payload: bytes,
) -> bytes:
    out = bytearray(BATCH_HEADER_SIZE)
    _HEADER.pack_into(
        out,
        0,
        header.base_offset,
        BATCH_HEADER_SIZE - 12 + len(payload),
        header.partition_leader_epoch,
        2,
        0,
        attributes,
        header.last_offset_delta,
        base_timestamp,
        max_timestamp,
        header.producer_id,
        header.producer_epoch,
        header.base_sequence,
        count,
    )
    out += payload
    struct.pack_into(">I", out, _CRC_OFFSET, crc32c(memoryview(out)[_ATTRIBUTES_OFFSET:]))
    return bytes(out)


def empty_batch(header: BatchHeader) -> bytes:
    """The batch's header alone, without records: what keeps a producer's last
    sequence (or epoch) and the batch's offsets once every record is gone."""
    attributes = header.attributes & (_TIMESTAMP_TYPE_BIT | _TRANSACTIONAL_BIT | _CONTROL_BIT)
    return _pack_batch(header, attributes, header.max_timestamp, header.max_timestamp, 0, b"")


def rebuild_batch(header: BatchHeader, records: list[RecordSpan], delete_horizon: int | None) -> bytes:
    """``header``'s batch holding only ``records``: same offsets, codec and producer
    fields; base timestamp the delete horizon when there is one."""
    log_append = bool(header.attributes & _TIMESTAMP_TYPE_BIT)
    if delete_horizon is not None:
        base_ts = delete_horizon
    else:
        base_ts = records[0].timestamp
    max_ts = header.max_timestamp if log_append else max(r.timestamp for r in records)
    body = bytearray()
    rec = bytearray()
    for r in records:
        rec.clear()
        rec.append(0)
        write_varint(rec, r.timestamp - base_ts)
        rec += r.tail
        write_varint(body, len(rec))
        body += rec
    codec = header.compression
    payload = compress(codec, body) if codec else bytes(body)
    attributes = header.attributes & ~_DELETE_HORIZON_BIT
    if delete_horizon is not None:
        attributes |= _DELETE_HORIZON_BIT
    return _pack_batch(header, attributes, base_ts, max_ts, len(records), payload)


@dataclass(slots=True)
class CleanStats:
    map_records_read: int = 0
    map_bytes_read: int = 0
    records_read: int = 0
    bytes_read: int = 0
    records_kept: int = 0
    bytes_written: int = 0
    keyless_dropped: int = 0
    map_seconds: float = 0.0
    seconds: float = 0.0
    buffer_utilization: float = 0.0


@dataclass(slots=True)
class _RoundState:
    offset_map: OffsetMap
    txn: TxnTracker
    last_records: dict[int, tuple[int, int]]  # producer id -> (last data offset or -1, epoch)
    now_ms: int
    delete_retention_ms: int
    round_end: int  # first uncleanable offset: the batch ending there is kept
    stats: CleanStats


def filter_batch(header: BatchHeader, view: memoryview, state: _RoundState) -> bytes | None:
    """What of one batch a clean keeps: the batch as it is (``view``'s bytes), a
    rebuilt or emptied batch, or None (nothing)."""
    stats = state.stats
    if header.is_control:
        records = list(batch_records(header, view))
        control_key = records[0].key if records else None
        can_discard = state.txn.on_control(header, control_key)
        horizon_passed = header.has_delete_horizon and header.base_timestamp <= state.now_ms
        discard_records = can_discard and horizon_passed
    else:
        records = None
        can_discard = state.txn.on_batch(header)
        discard_records = can_discard
    pid = header.producer_id
    last = state.last_records.get(pid) if pid >= 0 else None
    if last is not None:
        last_data, epoch = last
        producer_last = (
            header.last_offset == last_data if last_data >= 0 else header.is_control and header.producer_epoch == epoch
        )
    else:
        producer_last = False
    retain_empty = producer_last or header.next_offset == state.round_end
    marker_for_empty_txn = can_discard and header.is_control
    if discard_records and not retain_empty:
        stats.records_read += max(header.records_count, 0)
        return None

    kept: list[RecordSpan] = []
    complete = True
    tombstones = False
    if records is None:
        records = list(batch_records(header, view))
    stats.records_read += len(records)
    if discard_records:
        complete = not records
    elif header.is_control:
        kept = records
    else:
        offset_map = state.offset_map
        latest = offset_map.latest_offset
        now = state.now_ms
        retain_deletes = not header.has_delete_horizon or now < header.base_timestamp
        for r in records:
            if r.offset > latest:
                keep = True
            elif r.key is None:
                stats.keyless_dropped += 1
                keep = False
            else:
                keep = r.offset >= offset_map.get(r.key) and (r.has_value or retain_deletes)
            if keep:
                kept.append(r)
                if not r.has_value:
                    tombstones = True
            else:
                complete = False
    if kept:
        stats.records_kept += len(kept)
        set_horizon = (tombstones or marker_for_empty_txn) and not header.has_delete_horizon
        if complete and not set_horizon:
            return bytes(view)
        if set_horizon:
            horizon: int | None = state.now_ms + state.delete_retention_ms
        elif header.has_delete_horizon:
            horizon = header.base_timestamp
        else:
            horizon = None
        return rebuild_batch(header, kept, horizon)
    if retain_empty:
        return empty_batch(header)
    return None


# ----------------------------------------------------------------------------- jobs


@dataclass(frozen=True, slots=True)
class SourceSegment:
    """A segment as the broker saw it when the job was made (inactive: it never grows)."""

    base_offset: int
    size: int
    next_base: int  # base offset of the next segment


@dataclass(frozen=True, slots=True)
class CleanJob:
    directory: str
    segments: tuple[SourceSegment, ...]  # from the first segment up to the first uncleanable offset
    first_dirty: int
    first_uncleanable: int
    aborted: tuple[AbortedTxn, ...]
    last_records: dict[int, tuple[int, int]]
    now_ms: int
    delete_retention_ms: int
    segment_bytes: int
    index_bytes: int
    index_interval_bytes: int
    map_capacity: int
    io_buffer_bytes: int = 512 * 1024
    max_bytes_per_second: float = float("inf")
    token: str = "0"
    parent_pid: int = 0  # stop when the process that asked is gone (0: do not check)


@dataclass(slots=True)
class CleanedGroup:
    """One group of source segments, rewritten as one segment under ``.cleaned`` names."""

    bases: list[int]
    files: dict[str, str]  # segment suffix (".log", ...) -> file name of its cleaned version
    size: int
    next_offset: int  # one past the last batch kept (the base offset when none is)
    max_timestamp: int
    offset_of_max_timestamp: int
    aborted: list[AbortedTxn]
    index_entries: int


@dataclass(slots=True)
class CleanResult:
    end_offset: int  # the next round starts here (the cleaner checkpoint)
    groups: list[CleanedGroup]
    stats: CleanStats = field(default_factory=CleanStats)


class _Throttle:
    def __init__(self, rate: float) -> None:
        self.rate = rate
        self.period_start = time.monotonic()
        self.bytes = 0

    def __call__(self, n: int) -> None:
        if self.rate == float("inf") or self.rate <= 0:
            return
        self.bytes += n
        now = time.monotonic()
        elapsed = now - self.period_start
        if elapsed < _THROTTLE_CHECK_S and self.bytes < self.rate * _THROTTLE_CHECK_S:
            return
        wanted = self.bytes / self.rate
        if wanted > elapsed:
            time.sleep(wanted - elapsed)
        self.period_start = time.monotonic()
        self.bytes = 0


class _Reader:
    """Whole batches of one segment file, in chunks of the I/O buffer, CRCs checked."""

    def __init__(self, fd: int, size: int, name: str, job: CleanJob, throttle: _Throttle) -> None:
        self.fd = fd
        self.size = size
        self.name = name
        self.chunk = max(job.io_buffer_bytes, BATCH_HEADER_SIZE)
        self.throttle = throttle
        self.parent_pid = job.parent_pid
        self.since_check = 0

    def batches(self) -> Iterator[tuple[BatchHeader, memoryview]]:
        pos = 0
        while pos < self.size:
            data = os.pread(self.fd, min(self.chunk, self.size - pos), pos)
            if len(data) < BATCH_HEADER_SIZE:
                raise CorruptSegmentError(f"{self.name}: {len(data)} bytes at {pos} are not a batch")
            header = _parse(data, 0, self.name, pos)
            if header.size > len(data):
                data = os.pread(self.fd, header.size, pos)
                if len(data) < header.size:
                    raise CorruptSegmentError(f"{self.name}: batch at {pos} is cut short")
            self.throttle(len(data))
            self._check_parent(len(data))
            view = memoryview(data)
            off = 0
            while len(data) - off >= BATCH_HEADER_SIZE:
                header = _parse(data, off, self.name, pos + off)
                if header.size > len(data) - off:
                    break
                batch = view[off : off + header.size]
                if crc32c(batch[_ATTRIBUTES_OFFSET:]) != header.crc:
                    raise CorruptSegmentError(f"{self.name}: batch at {pos + off} fails its CRC")
                yield header, batch
                off += header.size
            pos += off

    def _check_parent(self, n: int) -> None:
        self.since_check += n
        if self.parent_pid and self.since_check >= _PARENT_CHECK_BYTES:
            self.since_check = 0
            if os.getppid() != self.parent_pid:
                raise CleanAborted("the broker that started this clean is gone")


def _parse(data: bytes, off: int, name: str, pos: int) -> BatchHeader:
    try:
        return parse_batch_header(data, off)
    except RecordBatchError as exc:
        raise CorruptSegmentError(f"{name}: no valid batch at {pos}: {exc}") from None


class _Writer(IndexedBatches):
    """The cleaned segment of one group: its log file and indexes, built as the log is."""

    def __init__(self, directory: Path, base: int, job: CleanJob, throttle: _Throttle) -> None:
        self.directory = directory
        self.base = base
        self.job = job
        self.throttle = throttle
        self.files = {s: f"{segment_file_name(base, s)}.{job.token}{CLEANED_SUFFIX}" for s in SEGMENT_SUFFIXES}
        self.fd = os.open(directory / self.files[".log"], os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        self.offset_index = OffsetIndex(directory / self.files[".index"], base, job.index_bytes)
        self.time_index = TimeIndex(directory / self.files[".timeindex"], base, job.index_bytes)
        self.txn_index = TxnIndex(directory / self.files[".txnindex"])
        self.buf = bytearray()
        self.size = 0
        self.next_offset = base
        self.max_timestamp = -1
        self.offset_of_max_timestamp = -1
        self.bytes_since_index = 0
        self.aborted: list[AbortedTxn] = []

    def append(self, batch: bytes | memoryview, last_offset: int, max_timestamp: int) -> None:
        position = self.size
        size = len(batch)
        self.buf += batch
        self.size += size
        self.index_batch(position, size, last_offset, max_timestamp, self.job.index_interval_bytes)
        if len(self.buf) >= self.job.io_buffer_bytes:
            self._drain()

    def _drain(self) -> None:
        n = len(self.buf)
        with memoryview(self.buf) as view:
            done = 0
            while done < n:
                done += os.write(self.fd, view[done:])
        self.throttle(n)
        self.buf.clear()

    def finish(self) -> CleanedGroup:
        self._drain()
        os.fsync(self.fd)
        os.close(self.fd)
        self.index_max_timestamp()
        for txn in self.aborted:
            self.txn_index.append(txn)
        entries = len(self.offset_index)
        for index in (self.offset_index, self.time_index, self.txn_index):
            # Every index file exists (possibly empty), so the swap renames all four.
            fd = os.open(index.path, os.O_WRONLY | os.O_CREAT, 0o644)
            os.close(fd)
            index.fsync()
            index.close()
        return CleanedGroup(
            bases=[],
            files=dict(self.files),
            size=self.size,
            next_offset=self.next_offset,
            max_timestamp=self.max_timestamp,
            offset_of_max_timestamp=self.offset_of_max_timestamp,
            aborted=list(self.aborted),
            index_entries=entries,
        )

    def discard(self) -> None:
        try:
            os.close(self.fd)
        except OSError:
            pass
        for name in self.files.values():
            try:
                os.unlink(self.directory / name)
            except FileNotFoundError:
                pass


def _group_segments(
    segments: list[SourceSegment], index_sizes: dict[int, int], max_size: int, max_index: int, end: int
) -> list[list[SourceSegment]]:
    """Consecutive segments whose log bytes (and index bytes) fit one segment, and
    whose offsets fit its 32-bit relative offsets (Kafka's groupSegmentsBySize)."""
    groups: list[list[SourceSegment]] = []
    i = 0
    while i < len(segments):
        group = [segments[i]]
        size = segments[i].size
        index = index_sizes.get(segments[i].base_offset, 0)
        i += 1
        while i < len(segments):
            nxt = segments[i]
            last_offset = (segments[i + 1].base_offset if i + 1 < len(segments) else end) - 1
            if (
                size + nxt.size <= max_size
                and index + index_sizes.get(nxt.base_offset, 0) <= max_index
                and (nxt.size == 0 or last_offset - group[0].base_offset <= MAX_RELATIVE_OFFSET)
            ):
                group.append(nxt)
                size += nxt.size
                index += index_sizes.get(nxt.base_offset, 0)
                i += 1
            else:
                break
        groups.append(group)
    return groups


def _index_size(directory: Path, base: int) -> int:
    try:
        return max(
            os.stat(directory / segment_file_name(base, ".index")).st_size,
            os.stat(directory / segment_file_name(base, ".timeindex")).st_size,
        )
    except FileNotFoundError:
        return 0


def clean(job: CleanJob) -> CleanResult:
    """One round of cleaning. Runs in a worker (or any thread); raises
    :class:`CorruptSegmentError`, :class:`CleanAborted` or OSError, leaving no
    ``.cleaned`` file of its own behind."""
    started = time.monotonic()
    directory = Path(job.directory)
    throttle = _Throttle(job.max_bytes_per_second)
    stats = CleanStats()
    fds: dict[int, int] = {}
    writers: list[_Writer] = []
    try:
        # Open every source now: a segment retention deletes later stays readable.
        for seg in job.segments:
            fds[seg.base_offset] = os.open(directory / segment_file_name(seg.base_offset, ".log"), os.O_RDONLY)
        offset_map = OffsetMap(job.map_capacity)
        _build_map(job, fds, offset_map, throttle, stats)
        stats.map_seconds = time.monotonic() - started
        end = offset_map.latest_offset + 1
        if end <= job.first_dirty:
            return CleanResult(job.first_dirty, [], stats)
        to_clean = [s for s in job.segments if s.base_offset < end]
        index_sizes = {s.base_offset: _index_size(directory, s.base_offset) for s in to_clean}
        state = _RoundState(
            offset_map,
            TxnTracker(),
            job.last_records,
            job.now_ms,
            job.delete_retention_ms,
            job.first_uncleanable,
            stats,
        )
        state.txn.add_aborted(job.aborted)
        groups: list[CleanedGroup] = []
        for group in _group_segments(to_clean, index_sizes, job.segment_bytes, job.index_bytes, end):
            writer = _Writer(directory, group[0].base_offset, job, throttle)
            writers.append(writer)
            state.txn.index = writer.aborted
            for seg in group:
                reader = _Reader(
                    fds[seg.base_offset], seg.size, segment_file_name(seg.base_offset, ".log"), job, throttle
                )
                for header, view in reader.batches():
                    stats.bytes_read += header.size
                    out = filter_batch(header, view, state)
                    if out is not None:
                        writer.append(out, header.last_offset, parse_batch_header(out).max_timestamp)
            result = writer.finish()
            result.bases = [s.base_offset for s in group]
            stats.bytes_written += result.size
            groups.append(result)
        stats.buffer_utilization = offset_map.utilization
        stats.seconds = time.monotonic() - started
        writers.clear()
        return CleanResult(end, groups, stats)
    except RecordBatchError as exc:
        raise CorruptSegmentError(str(exc)) from None
    finally:
        for writer in writers:
            writer.discard()
        for fd in fds.values():
            os.close(fd)


def _build_map(
    job: CleanJob, fds: dict[int, int], offset_map: OffsetMap, throttle: _Throttle, stats: CleanStats
) -> None:
    start, end = job.first_dirty, job.first_uncleanable
    dirty = [s for s in job.segments if s.next_base > start and s.base_offset < end]
    txn = TxnTracker()
    txn.add_aborted([t for t in job.aborted if t.last_offset >= start and t.first_offset < end])
    limit = job.map_capacity
    for i, seg in enumerate(dirty):
        next_start = dirty[i + 1].base_offset if i + 1 < len(dirty) else end
        reader = _Reader(fds[seg.base_offset], seg.size, segment_file_name(seg.base_offset, ".log"), job, throttle)
        for header, view in reader.batches():
            stats.map_bytes_read += header.size
            if header.is_control:
                first = next(batch_records(header, view), None)
                txn.on_control(header, None if first is None else first.key)
                stats.map_records_read += 1
            elif txn.on_batch(header):
                stats.map_records_read += max(header.records_count, 0)
            elif header.last_offset >= start:
                for r in batch_records(header, view):
                    if r.key is not None and r.offset >= start:
                        if len(offset_map) < limit:
                            offset_map.put(r.key, r.offset)
                        else:
                            return
                    stats.map_records_read += 1
            if header.last_offset >= start:
                offset_map.latest_offset = header.last_offset
        offset_map.latest_offset = next_start - 1
