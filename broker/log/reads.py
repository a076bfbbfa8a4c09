"""Reads of a PartitionLog: whole stored batches from an offset, as bytes or as file ranges,
their headers alone, and the lookups by timestamp.

:class:`LogReads` is part of :class:`broker.log.partition.PartitionLog` (a mixin, split
out at this seam for size): it works on the log's segment list, which the cleaner and
retention replace with a new list instead of changing it, so a read in a worker thread
walks a consistent set of segments. An old segment's indexes are sanity-checked on
first use and rebuilt if broken.
"""

from __future__ import annotations

import threading
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from typing import NamedTuple

import structlog

from broker.log.config import LogConfig
from broker.log.file_slice import FileSlice
from broker.log.index import AbortedTxn
from broker.log.segment import DESCRIPTORS, LogSegment, TornBatch
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.records import (
    BATCH_HEADER_SIZE,
    BatchHeader,
    TimestampType,
    iter_records,
    parse_batch_header,
)

__all__ = ["FILE_SLICE_MIN_BYTES", "LogReads", "ReadResult"]

log = structlog.get_logger("sharebroker.log")

# A read_slice smaller than this is read at once: it would be copied into the answer's
# frame anyway (primitives.SPLICE_MIN_BYTES), and it holds no descriptors while it waits.
FILE_SLICE_MIN_BYTES = 64 * 1024


class ReadResult(NamedTuple):
    records: bytes | memoryview
    first_offset: int  # base offset of the first batch returned (the requested offset if none)


def _base_of(seg: LogSegment) -> int:
    return seg.base_offset


class LogReads:
    """The read half of PartitionLog (which provides these attributes)."""

    topic: str
    partition: int
    segments: list[LogSegment]
    _bases: list[int]
    _lock: threading.Lock
    _leo: int
    _log_start: int
    _closed: bool
    _aborted: list[AbortedTxn]
    _aborted_last: list[int]

    _config: LogConfig

    def _check_open(self) -> None:
        if self._closed:
            raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER, f"log {self.topic}-{self.partition} is closed")

    def _segment_index(self, offset: int) -> int:
        return max(bisect_right(self._bases, offset) - 1, 0)

    def _ensure_indexes(self, seg: LogSegment) -> bool:
        """Sanity-check an old segment's indexes on first use and rebuild them if broken.
        False if they cannot be trusted right now (callers then scan from position 0)."""
        if seg.indexes_checked:
            return True
        interval = self._config.index_interval_bytes
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
