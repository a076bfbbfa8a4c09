"""One log segment: ``<20-digit base offset>.log`` plus its three index files.

The ``.log`` file holds record batches exactly as they were appended (only the
base offset and leader epoch are patched in place before the write). Reads use
``os.pread`` on the segment's descriptor, so readers and the appender never
share a file position.

Descriptors are opened on first use and kept in one process-wide LRU of at most
``DESCRIPTORS.budget`` (half the open-file limit): a broker holding more segments
than that (tens of thousands of partitions) reopens the least recently used ones
when they are touched again, instead of failing with EMFILE. Every use of a
descriptor holds it (``users``) so that no other thread closes it meanwhile; a
segment taken out of the log (``retired``) keeps its descriptor until it is closed.
A new segment's file is created by its first write (after ``prepare``, which makes
the partition's directory), so an empty partition costs no file at all.
"""

from __future__ import annotations

import functools
import os
import resource
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol, TypeVar

from broker.log.index import OffsetIndex, TimeIndex, TxnIndex
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.records import (
    BATCH_HEADER_SIZE,
    BatchHeader,
    RecordBatchError,
    compute_crc,
    parse_batch_header,
)

__all__ = ["DESCRIPTORS", "IndexedBatches", "LogSegment", "TornBatch", "segment_file_name"]

IndexT = TypeVar("IndexT", OffsetIndex, TimeIndex)

# Recovery and tail scans read the segment in 1 MiB chunks: few syscalls, and
# bounded memory whatever the segment size (a larger batch is read whole).
SCAN_CHUNK_BYTES = 1 << 20

# Offsets inside a segment are stored relative to its base as int32.
MAX_RELATIVE_OFFSET = 2**31 - 1
# File positions in the offset index are int32 too: Kafka caps segment.bytes at 2 GiB - 1.
MAX_SEGMENT_POSITION = 2**31 - 1


# fdatasync covers the data and the file size, which is all a segment needs.
_datasync = getattr(os, "fdatasync", os.fsync)


# Segment descriptors held open at once: half the soft open-file limit (20,000 on the
# development VM, so 10,000), the other half left to connections, index files being
# written, etcd and the runtime. At least 64 whatever the limit.
DESCRIPTOR_SHARE = 0.5
MIN_DESCRIPTORS = 64


def _default_budget() -> int:
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        soft = 1 << 20
    return max(MIN_DESCRIPTORS, int(soft * DESCRIPTOR_SHARE))


class _Descriptors:
    """The open segment descriptors, least recently used first, at most ``budget``."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.lock = threading.Lock()
        self.lru: OrderedDict[LogSegment, None] = OrderedDict()
        self.reopened = 0  # descriptors opened again after being closed for the budget

    def acquire(self, seg: LogSegment) -> int:
        with self.lock:
            fd = seg._fd
            if fd >= 0:
                seg.users += 1
                self.lru.move_to_end(seg)
                return fd
            if seg.closed:
                raise OSError(9, f"{seg.log_path} is closed")
            fd = seg._open_file()
            seg._fd = fd
            seg.users += 1
            self.lru[seg] = None
            if len(self.lru) > self.budget:
                self._evict()
            return fd

    def release(self, seg: LogSegment) -> None:
        with self.lock:
            seg.users -= 1

    def _evict(self) -> None:
        excess = len(self.lru) - self.budget
        victims = []
        for seg in self.lru:
            if excess <= 0:
                break
            if seg.users == 0 and not seg.held:
                victims.append(seg)
                excess -= 1
        for seg in victims:
            del self.lru[seg]
            fd, seg._fd = seg._fd, -1
            os.close(fd)

    def forget(self, seg: LogSegment) -> int:
        """Take ``seg`` out (it is being closed); its descriptor, -1 if none is open."""
        with self.lock:
            self.lru.pop(seg, None)
            fd, seg._fd = seg._fd, -1
            return fd

    def __len__(self) -> int:
        return len(self.lru)


DESCRIPTORS = _Descriptors(_default_budget())


def segment_file_name(base_offset: int, suffix: str) -> str:
    return f"{base_offset:020d}{suffix}"


class TornBatch(KafkaError):
    """Bytes at ``position`` are not a valid batch. Recovery cuts the segment there;
    met anywhere else it is KAFKA_STORAGE_ERROR (56): the files are damaged."""

    def __init__(self, position: int, reason: str) -> None:
        super().__init__(ErrorCode.KAFKA_STORAGE_ERROR, f"invalid batch at position {position}: {reason}")
        self.position = position
        self.reason = reason


# Buffers per writev call (the portable minimum of IOV_MAX).
_IOV_MAX = 1024
# Bytes read per chunk when walking batch headers without their records.
HEADER_WINDOW = 16 * 1024


def _pread_exact(fd: int, n: int, pos: int) -> bytes:
    data = os.pread(fd, n, pos)
    if len(data) == n or not data:
        return data
    parts = [data]
    got = len(data)
    while got < n:
        more = os.pread(fd, n - got, pos + got)
        if not more:
            break
        parts.append(more)
        got += len(more)
    return b"".join(parts)


class _Indexes(Protocol):
    """What :class:`IndexedBatches` needs of the class it is mixed into."""

    @property
    def offset_index(self) -> OffsetIndex: ...

    @property
    def time_index(self) -> TimeIndex: ...

    next_offset: int
    max_timestamp: int
    offset_of_max_timestamp: int
    bytes_since_index: int

    def index_max_timestamp(self) -> None: ...


class IndexedBatches:
    """The index bookkeeping of a segment being written, batch by batch: a log segment,
    or the cleaner's output. An offset index entry (and a time index entry for the max
    timestamp so far) goes in once more than the index interval has been written since
    the last one."""

    def index_batch(
        self: _Indexes, position: int, size: int, last_offset: int, max_timestamp: int, index_interval: int
    ) -> None:
        """Account for a batch of ``size`` bytes now stored at ``position``."""
        if max_timestamp > self.max_timestamp:
            self.max_timestamp = max_timestamp
            self.offset_of_max_timestamp = last_offset
        if self.bytes_since_index > index_interval:
            self.offset_index.append(last_offset, position)
            self.index_max_timestamp()
            self.bytes_since_index = 0
        self.bytes_since_index += size
        self.next_offset = last_offset + 1

    def index_max_timestamp(self: _Indexes) -> None:
        """Put the max timestamp so far in the time index (if there is one)."""
        if self.max_timestamp >= 0:
            self.time_index.maybe_append(self.max_timestamp, self.offset_of_max_timestamp)


class LogSegment(IndexedBatches):
    """A segment file and its indexes, with the in-memory facts the log needs.

    ``next_offset`` is one past the last offset stored; ``max_timestamp`` and
    ``offset_of_max_timestamp`` (the last offset of the batch holding it) feed
    retention and ListOffsets; ``first_batch_timestamp`` drives time-based rolls.
    ``dirty`` means written since the last fsync; ``pins`` counts flushes that
    are using the descriptors right now, so closing waits for them.

    ``exists``: the file is on disk (its size is read); otherwise the segment is new
    and its file is created, empty, by the first write (``prepare`` runs first).
    """

    def __init__(
        self,
        directory: Path,
        base_offset: int,
        *,
        index_bytes: int,
        created_ms: int,
        exists: bool = False,
        prepare: Callable[[], None] | None = None,
    ) -> None:
        self.directory = directory
        self.base_offset = base_offset
        self._fd = -1
        self.users = 0
        self._new = not exists
        # Made here (not found on disk): its indexes hold only what this object appends,
        # even after the first write created the segment file (the time index is often
        # first used at close: it must not read a file that cannot hold anything).
        self._made_here = not exists
        self._prepare = prepare
        # Kept open whatever the budget: its file is about to be renamed over or deleted
        # while reads that picked it up may still come (see hold).
        self.held = False
        self.size = os.stat(self.log_path).st_size if exists else 0
        self._index_bytes = index_bytes
        self.next_offset = base_offset
        self.max_timestamp = -1
        self.offset_of_max_timestamp = -1
        self.first_batch_timestamp: int | None = None
        self.created_ms = created_ms
        self.bytes_since_index = 0
        self.indexes_checked = False
        self.dirty = False
        self.pins = 0
        self.closed = False
        self.closing = False  # close once no flush holds the descriptors
        self.inactive = False
        # Replaced by the cleaner or deleted by retention: out of the log, its files
        # gone or renamed over, its descriptors open a while for reads under way.
        self.retired = False

    @functools.cached_property
    def log_path(self) -> Path:
        return self.directory / segment_file_name(self.base_offset, ".log")

    # ------------------------------------------------------------------ indexes

    # Made on first use: a partition that is never read or written (most of them, on a
    # broker holding thousands) builds none. A new segment's start empty in memory.
    @functools.cached_property
    def offset_index(self) -> OffsetIndex:
        return self._open_index(OffsetIndex, ".index")

    @functools.cached_property
    def time_index(self) -> TimeIndex:
        return self._open_index(TimeIndex, ".timeindex")

    def _open_index(self, index_type: type[IndexT], suffix: str) -> IndexT:
        index = index_type(
            self.directory / segment_file_name(self.base_offset, suffix), self.base_offset, self._index_bytes
        )
        if self._made_here:
            index.start_empty()
        return index

    @functools.cached_property
    def txn_index(self) -> TxnIndex:
        return TxnIndex(self.directory / segment_file_name(self.base_offset, ".txnindex"))

    # ------------------------------------------------------------------ descriptor

    def _open_file(self) -> int:
        """Open the file (under the descriptor lock): a new segment's is created empty."""
        flags = os.O_RDWR | os.O_APPEND
        if self._new:
            if self._prepare is not None:
                self._prepare()
            flags |= os.O_CREAT | os.O_TRUNC
        else:
            DESCRIPTORS.reopened += 1
        fd = os.open(self.log_path, flags, 0o644)
        self._new = False
        return fd

    @property
    def has_file(self) -> bool:
        """Whether the file was created (a new segment's is made by its first write)."""
        return not self._new

    def hold(self) -> None:
        """Open the descriptor now and keep it until close: the file is about to be
        renamed over or deleted, and reading it again by name would be wrong."""
        if not self.has_file or self.closed:
            return
        DESCRIPTORS.acquire(self)
        self.held = True
        DESCRIPTORS.release(self)

    def ensure_file(self) -> None:
        """Create the file now (a segment that must be found on disk even while empty)."""
        fd = DESCRIPTORS.acquire(self)
        del fd
        DESCRIPTORS.release(self)

    # ------------------------------------------------------------------ state

    @property
    def is_empty(self) -> bool:
        return self.size == 0

    def rolling_base_ms(self) -> int:
        """The time a time-based roll counts from: first batch's timestamp, else creation."""
        ts = self.first_batch_timestamp
        return ts if ts is not None and ts >= 0 else self.created_ms

    def largest_time_ms(self, mtime_fallback: bool = True) -> int:
        """Newest record timestamp, for time retention (file mtime if none is known)."""
        if self.max_timestamp >= 0 or not mtime_fallback:
            return self.max_timestamp
        try:
            return int(os.stat(self.log_path).st_mtime * 1000)
        except FileNotFoundError:
            return -1

    def can_hold(self, data_size: int, last_offset: int) -> bool:
        """Whether an append of ``data_size`` bytes ending at ``last_offset`` fits the formats."""
        return (
            last_offset - self.base_offset <= MAX_RELATIVE_OFFSET
            and self.size + data_size <= MAX_SEGMENT_POSITION
            and not self.offset_index.is_full
            and not self.time_index.is_full
        )

    # ------------------------------------------------------------------ writes

    def write(self, *parts: bytes | bytearray | memoryview) -> int:
        """Append ``parts`` (together, whole batches) to the file; returns their start position.

        One ``writev`` for all of them, so a caller can store a batch as a patched
        header plus a view of the received bytes without joining them first. No
        fsync. A failed write is cut back so the file never ends in half a batch
        that memory does not know about.
        """
        start = self.size
        views = [memoryview(p) for p in parts if len(p)]
        total = sum(len(v) for v in views)
        try:
            fd = DESCRIPTORS.acquire(self)
        except OSError as exc:
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"cannot open {self.log_path}: {exc}") from exc
        try:
            self._write_all(fd, views, start)
        finally:
            DESCRIPTORS.release(self)
        self.size = start + total
        self.dirty = True
        return start

    def _write_all(self, fd: int, views: list[memoryview], start: int) -> None:
        try:
            i = 0
            while i < len(views):
                n = os.writev(fd, views[i : i + _IOV_MAX])
                while n:  # skip what was written, keep the rest of a partly written part
                    v = views[i]
                    if n >= len(v):
                        n -= len(v)
                        i += 1
                    else:
                        views[i] = v[n:]
                        n = 0
        except OSError as exc:
            try:
                os.ftruncate(fd, start)
            except OSError:
                pass
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"write to {self.log_path} failed: {exc}") from exc

    def track_batch(self, position: int, size: int, last_offset: int, max_timestamp: int, index_interval: int) -> None:
        """Account for a batch now stored at ``position``: indexes and timestamps."""
        if self.first_batch_timestamp is None:
            self.first_batch_timestamp = max_timestamp
        self.index_batch(position, size, last_offset, max_timestamp, index_interval)

    def on_become_inactive(self) -> None:
        """Record the final max timestamp in the time index (done at roll and close),
        so reopening can read it from the last entry instead of scanning."""
        self.index_max_timestamp()
        self.inactive = True
        self.dirty = True

    def truncate_to_position(self, position: int) -> None:
        if self.has_file or position:
            fd = DESCRIPTORS.acquire(self)
            try:
                os.ftruncate(fd, position)
            finally:
                DESCRIPTORS.release(self)
        self.size = position
        self.dirty = True

    # ------------------------------------------------------------------ reads

    def pread(self, size: int, position: int) -> bytes:
        fd = DESCRIPTORS.acquire(self)
        try:
            return _pread_exact(fd, size, position)
        finally:
            DESCRIPTORS.release(self)

    def header_at(self, position: int) -> BatchHeader:
        data = self.pread(BATCH_HEADER_SIZE, position)
        header = parse_batch_header(data)
        if position + header.size > self.size:
            raise TornBatch(position, "batch runs past the end of the segment")
        return header

    def headers_from(self, position: int, window: int = HEADER_WINDOW) -> Iterator[tuple[int, BatchHeader]]:
        """(position, header) of each stored batch from ``position`` to the end.

        Reads the headers in ``window``-byte chunks and skips the records, so
        walking many batches costs one small read per window (small batches) or
        per batch (batches larger than the window), not a read of the data.
        """
        size = self.size
        buf = b""
        base = pos = position
        while pos < size:
            off = pos - base
            if off + BATCH_HEADER_SIZE > len(buf):
                base, off = pos, 0
                buf = self.pread(min(window, size - pos), pos)
            header = parse_batch_header(buf, off)
            if pos + header.size > size:
                raise TornBatch(pos, "batch runs past the end of the segment")
            yield pos, header
            pos += header.size

    def find_batch(self, offset: int, start_position: int | None = None) -> tuple[int, BatchHeader] | None:
        """Position and header of the first batch whose last offset is >= ``offset``."""
        start = self.offset_index.lookup(offset) if start_position is None else start_position
        for pos, header in self.headers_from(start):
            if header.last_offset >= offset:
                return pos, header
        return None

    def scan(
        self, start: int = 0, *, check_crc: bool, expected_offset: int | None = None
    ) -> Iterator[tuple[int, BatchHeader, memoryview]]:
        """Walk whole batches from ``start``, yielding (position, header, bytes).

        Raises :class:`TornBatch` at the first batch that is cut short, has a bad
        length or magic, fails its CRC (when ``check_crc``) or whose base offset is
        below ``expected_offset`` (offsets in a segment increase; the cleaner leaves
        gaps between batches, so they need not be dense).
        """
        pos = start
        end = self.size
        buf = b""
        buf_start = pos
        while pos < end:
            rel = pos - buf_start
            if len(buf) - rel < BATCH_HEADER_SIZE:
                buf = self.pread(min(max(SCAN_CHUNK_BYTES, BATCH_HEADER_SIZE), end - pos), pos)
                buf_start, rel = pos, 0
                if len(buf) < BATCH_HEADER_SIZE:
                    raise TornBatch(pos, f"{len(buf)} trailing bytes are not a batch header")
            try:
                header = parse_batch_header(buf, rel)
            except RecordBatchError as exc:
                raise TornBatch(pos, str(exc)) from None
            size = header.size
            if pos + size > end:
                raise TornBatch(pos, f"batch of {size} bytes runs past the end ({end - pos} left)")
            if len(buf) - rel < size:
                buf = self.pread(max(SCAN_CHUNK_BYTES, size), pos)
                buf_start, rel = pos, 0
                if len(buf) < size:
                    raise TornBatch(pos, "batch is cut short")
            view = memoryview(buf)[rel : rel + size]
            if expected_offset is not None and header.base_offset < expected_offset:
                raise TornBatch(pos, f"base offset {header.base_offset}, expected at least {expected_offset}")
            if header.last_offset_delta < 0 or header.records_count < 0:
                raise TornBatch(pos, "negative offset delta or record count")
            if check_crc and compute_crc(view) != header.crc:
                raise TornBatch(pos, "CRC-32C mismatch")
            yield pos, header, view
            expected_offset = header.next_offset if expected_offset is not None else None
            pos += size

    # ------------------------------------------------------------------ rebuild

    def reset_indexes(self, *, keep_txn_index: bool = False) -> None:
        self.offset_index.reset()
        self.time_index.reset()
        if not keep_txn_index:
            self.txn_index.reset()
        self.max_timestamp = -1
        self.offset_of_max_timestamp = -1
        self.first_batch_timestamp = None
        self.bytes_since_index = 0
        self.next_offset = self.base_offset

    # ------------------------------------------------------------------ durability

    def fsync(self, *, indexes: bool = True, sync: bool = True) -> None:
        """fdatasync the log; write the index entries buffered since the last call and,
        with ``indexes``, fsync the index files (every entry written so far).

        The active segment's flushes leave ``indexes`` off: recovery after a crash
        rebuilds the indexes of the segment holding the recovery point and of every
        later one, so only a segment that is about to be trusted (rolled, or at close)
        needs its index files durable. That saves two fsyncs per acks=all round.
        Without ``sync`` the buffered index entries are only written (the caller syncs
        the whole file system afterwards).
        """
        if sync and self.has_file:
            fd = DESCRIPTORS.acquire(self)
            try:
                _datasync(fd)
            finally:
                DESCRIPTORS.release(self)
        for index in self._built_indexes():
            if index.dirty:
                index.dirty = False
                try:
                    index.write_buffered()
                except OSError:
                    index.dirty = True
                    raise
            if indexes and sync and index.unsynced:
                index.fsync()

    def _built_indexes(self) -> list[OffsetIndex | TimeIndex | TxnIndex]:
        """The indexes made so far (one never made has nothing to write or close)."""
        return [i for name in ("offset_index", "time_index", "txn_index") if (i := self.__dict__.get(name)) is not None]

    def close_index_files(self, *, write_buffered: bool = True) -> None:
        for index in self._built_indexes():
            index.close(write_buffered=write_buffered)

    def close(self, *, write_buffered: bool = True) -> None:
        """Close every descriptor (the caller makes sure no flush is using them),
        first writing buffered index entries unless ``write_buffered`` is false."""
        if self.closed:
            return
        self.closed = True
        self.close_index_files(write_buffered=write_buffered)
        fd = DESCRIPTORS.forget(self)
        if fd >= 0:
            os.close(fd)

    def delete_files(self) -> None:
        base = self.base_offset
        for path in (
            self.log_path,
            *(self.directory / segment_file_name(base, suffix) for suffix in (".index", ".timeindex", ".txnindex")),
        ):
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
