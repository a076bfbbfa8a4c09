"""One log segment: ``<20-digit base offset>.log`` plus its three index files.

The ``.log`` file holds record batches exactly as they were appended (only the
base offset and leader epoch are patched in place before the write). Reads use
``os.pread`` on the segment's descriptor, so readers and the appender never
share a file position.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

from broker.log.index import OffsetIndex, TimeIndex, TxnIndex
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.records import (
    BATCH_HEADER_SIZE,
    BatchHeader,
    RecordBatchError,
    compute_crc,
    parse_batch_header,
)

__all__ = ["LogSegment", "TornBatch", "segment_file_name"]

# Recovery and tail scans read the segment in 1 MiB chunks: few syscalls, and
# bounded memory whatever the segment size (a larger batch is read whole).
SCAN_CHUNK_BYTES = 1 << 20

# Offsets inside a segment are stored relative to its base as int32.
MAX_RELATIVE_OFFSET = 2**31 - 1
# File positions in the offset index are int32 too: Kafka caps segment.bytes at 2 GiB - 1.
MAX_SEGMENT_POSITION = 2**31 - 1


# fdatasync covers the data and the file size, which is all a segment needs.
_datasync = getattr(os, "fdatasync", os.fsync)


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


class LogSegment:
    """A segment file and its indexes, with the in-memory facts the log needs.

    ``next_offset`` is one past the last offset stored; ``max_timestamp`` and
    ``offset_of_max_timestamp`` (the last offset of the batch holding it) feed
    retention and ListOffsets; ``first_batch_timestamp`` drives time-based rolls.
    ``dirty`` means written since the last fsync; ``pins`` counts flushes that
    are using the descriptors right now, so closing waits for them.
    """

    def __init__(self, directory: Path, base_offset: int, *, index_bytes: int, created_ms: int) -> None:
        self.directory = directory
        self.base_offset = base_offset
        self.log_path = directory / segment_file_name(base_offset, ".log")
        self.fd = os.open(self.log_path, os.O_RDWR | os.O_CREAT | os.O_APPEND, 0o644)
        self.size = os.fstat(self.fd).st_size
        self.offset_index = OffsetIndex(directory / segment_file_name(base_offset, ".index"), base_offset, index_bytes)
        self.time_index = TimeIndex(directory / segment_file_name(base_offset, ".timeindex"), base_offset, index_bytes)
        self.txn_index = TxnIndex(directory / segment_file_name(base_offset, ".txnindex"))
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
            i = 0
            while i < len(views):
                n = os.writev(self.fd, views[i : i + _IOV_MAX])
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
                os.ftruncate(self.fd, start)
            except OSError:
                pass
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"write to {self.log_path} failed: {exc}") from exc
        self.size = start + total
        self.dirty = True
        return start

    def track_batch(self, position: int, size: int, last_offset: int, max_timestamp: int, index_interval: int) -> None:
        """Account for a batch now stored at ``position``: indexes and timestamps."""
        if self.first_batch_timestamp is None:
            self.first_batch_timestamp = max_timestamp
        if max_timestamp > self.max_timestamp:
            self.max_timestamp = max_timestamp
            self.offset_of_max_timestamp = last_offset
        if self.bytes_since_index > index_interval:
            self.offset_index.append(last_offset, position)
            if self.max_timestamp >= 0:
                self.time_index.maybe_append(self.max_timestamp, self.offset_of_max_timestamp)
            self.bytes_since_index = 0
        self.bytes_since_index += size
        self.next_offset = last_offset + 1

    def on_become_inactive(self) -> None:
        """Record the final max timestamp in the time index (done at roll and close),
        so reopening can read it from the last entry instead of scanning."""
        if self.max_timestamp >= 0:
            self.time_index.maybe_append(self.max_timestamp, self.offset_of_max_timestamp)
        self.inactive = True
        self.dirty = True

    def truncate_to_position(self, position: int) -> None:
        os.ftruncate(self.fd, position)
        self.size = position
        self.dirty = True

    # ------------------------------------------------------------------ reads

    def pread(self, size: int, position: int) -> bytes:
        return _pread_exact(self.fd, size, position)

    def header_at(self, position: int) -> BatchHeader:
        data = _pread_exact(self.fd, BATCH_HEADER_SIZE, position)
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
                buf = _pread_exact(self.fd, min(window, size - pos), pos)
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
                buf = _pread_exact(self.fd, min(max(SCAN_CHUNK_BYTES, BATCH_HEADER_SIZE), end - pos), pos)
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
                buf = _pread_exact(self.fd, max(SCAN_CHUNK_BYTES, size), pos)
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

    def fsync(self, *, indexes: bool = True) -> None:
        """fdatasync the log; write the index entries buffered since the last call and,
        with ``indexes``, fsync the index files (every entry written so far).

        The active segment's flushes leave ``indexes`` off: recovery after a crash
        rebuilds the indexes of the segment holding the recovery point and of every
        later one, so only a segment that is about to be trusted (rolled, or at close)
        needs its index files durable. That saves two fsyncs per acks=all round.
        """
        _datasync(self.fd)
        for index in (self.offset_index, self.time_index, self.txn_index):
            if index.dirty:
                index.dirty = False
                try:
                    index.write_buffered()
                except OSError:
                    index.dirty = True
                    raise
            if indexes and index.unsynced:
                index.fsync()

    def close_index_files(self, *, write_buffered: bool = True) -> None:
        self.offset_index.close(write_buffered=write_buffered)
        self.time_index.close(write_buffered=write_buffered)
        self.txn_index.close(write_buffered=write_buffered)

    def close(self, *, write_buffered: bool = True) -> None:
        """Close every descriptor (the caller makes sure no flush is using them),
        first writing buffered index entries unless ``write_buffered`` is false."""
        if self.closed:
            return
        self.closed = True
        self.close_index_files(write_buffered=write_buffered)
        os.close(self.fd)

    def delete_files(self) -> None:
        for path in (self.log_path, self.offset_index.path, self.time_index.path, self.txn_index.path):
            try:
                os.unlink(path)
            except FileNotFoundError:
                pass
