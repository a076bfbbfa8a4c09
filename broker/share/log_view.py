"""The read-only view of a partition log that a share partition needs.

Adapts :class:`broker.log.partition.PartitionLog` to
:class:`broker.share.partition.ShareLog`: batch boundaries come from the
stored batch headers (one ``struct`` unpack per batch; records are never
decoded here).
"""

from __future__ import annotations

from array import array
from collections.abc import Hashable, Sequence

from broker.log.file_slice import FileSlice
from broker.log.partition import PartitionLog
from broker.protocol.records import BatchHeader, iter_batches, iter_records, record_starts, slice_batch
from broker.share.inflight import UNLIMITED_BYTES, AcquiredRange, LogBatch

# Per-key ordering reads the keys of the records entering the window; at most this much at a time.
_KEY_READ_BYTES = 64 << 20
# A batch partly acquired is sliced only from this size on: below it, slicing saves less
# than the slice costs (a read of the batch, its record positions, a CRC).
SLICE_MIN_BYTES = 4096
# Batches whose record positions are kept per share-partition: the members sharing a
# partition slice the same few batches at the head of its window.
_SLICED_BATCHES_KEPT = 16
_UNKNOWN: list[int] = []


class PartitionLogView:
    __slots__ = ("_starts", "log")

    def __init__(self, log: PartitionLog) -> None:
        self.log = log
        # Record positions of the batches sliced lately (None: cannot be sliced), by
        # (base offset, CRC): the members sharing a batch each take a slice of it.
        self._starts: dict[tuple[int, int], array[int] | None] = {}

    @property
    def log_start_offset(self) -> int:
        return self.log.log_start_offset

    @property
    def high_watermark(self) -> int:
        return self.log.high_watermark

    @property
    def last_stable_offset(self) -> int:
        return self.log.last_stable_offset

    def batch_bounds(self, start_offset: int, end_offset: int, max_records: int, max_bytes: int) -> Sequence[LogBatch]:
        log = self.log
        start = max(start_offset, log.log_start_offset)
        if start >= end_offset:
            return []
        # Walk to the high watermark: a batch that starts below end_offset but
        # ends past it still holds offsets in range. Headers only, never records.
        out: list[LogBatch] = []
        for header in log.batch_headers(start, max_bytes, max_offset=log.high_watermark):
            if header.base_offset >= end_offset:
                break
            out.append(
                LogBatch(
                    header.base_offset,
                    header.last_offset,
                    header.is_control,
                    header.producer_id,
                    header.is_transactional,
                    header.size,
                )
            )
            if header.last_offset - start + 1 >= max_records:
                break
        return out

    def aborted_transactions(self, start: int, end: int) -> Sequence[tuple[int, int]]:
        return self.log.aborted_transactions(start, end)

    def offset_for_timestamp(self, timestamp: int) -> tuple[int, int] | None:
        return self.log.offset_for_timestamp(timestamp)

    def records_covering(self, first: int, last: int, max_bytes: int) -> bytes | memoryview:
        """Stored batches from the one holding ``first`` through the one holding ``last``
        (at most ``max_bytes``, but the first batch whole)."""
        log = self.log
        first = max(first, log.log_start_offset)
        if first > last:
            return b""
        # Size the read from the headers, so only the batches sent are read from disk.
        size = 0
        for header in log.batch_headers(first, max_bytes, max_offset=log.high_watermark):
            size += header.size
            if header.last_offset >= last:
                break
        if not size:
            return b""
        return log.read(first, size, max_offset=log.high_watermark).records

    def records_for(self, ranges: Sequence[AcquiredRange], *, as_file: bool = False) -> bytes | memoryview | FileSlice:
        """The stored batches holding the offsets of ``ranges`` (sorted, not overlapping).

        Every batch that holds an acquired offset goes out, whatever its size: the
        byte budget was applied when the records were acquired
        (:meth:`SharePartition.acquire`), and an acquired record the answer does
        not carry would be lost (the client acknowledges it as a gap). Batches
        between the ranges that hold none of their offsets are left out.

        A large batch of which only part was acquired (several members share the
        partition, each taking its part of the batch) goes out sliced: a batch of
        just the records from the first to the last acquired offset in it
        (:func:`slice_batch`), so that members sharing a batch do not each receive
        all of it. Compressed batches go out whole, as Kafka sends them.

        With ``as_file``, an answer of whole batches only comes as their file ranges
        (:class:`FileSlice`, as a Fetch answer does): the connection sends them from the
        page cache, so an answer waiting to be sent holds no copy of its batches.
        """
        if not ranges:
            return b""
        log = self.log
        hw = log.high_watermark
        first = max(ranges[0].first_offset, log.log_start_offset)
        last = ranges[-1].last_offset
        if first > last:
            return b""
        parts: list[bytes | memoryview] = []
        span: list[int] | None = None  # [first offset, bytes] of whole batches read together
        r = 0
        for header in log.batch_headers(first, UNLIMITED_BYTES, max_offset=hw):
            if header.base_offset > last:
                break
            while r < len(ranges) and ranges[r].last_offset < header.base_offset:
                r += 1
            if r == len(ranges):
                break
            if ranges[r].first_offset > header.last_offset:
                self._flush(span, parts)  # holds none of the acquired offsets
                span = None
                continue
            lo = max(ranges[r].first_offset, header.base_offset)
            k = r
            while k + 1 < len(ranges) and ranges[k + 1].first_offset <= header.last_offset:
                k += 1
            hi = min(ranges[k].last_offset, header.last_offset)
            whole = (lo == header.base_offset and hi == header.last_offset) or header.size < SLICE_MIN_BYTES
            sliced = None if whole else self._slice(header, lo, hi)
            if sliced is None:
                if span is None:
                    span = [header.base_offset, 0]
                span[1] += header.size
            else:
                self._flush(span, parts)
                span = None
                parts.append(sliced)
        if as_file and not parts and span is not None:
            found = self._file_ranges(span)
            if found is not None:
                return found
        self._flush(span, parts)
        if len(parts) == 1:
            return parts[0]
        return b"".join(parts)

    def _read(self, base_offset: int, size: int) -> bytes | memoryview:
        """``size`` bytes of whole batches from the one at ``base_offset``. The log start
        may have moved inside that batch (DeleteRecords): reading from it gives the same batch."""
        log = self.log
        return log.read(max(base_offset, log.log_start_offset), size, max_offset=log.high_watermark).records

    def _file_ranges(self, span: list[int]) -> FileSlice | None:
        """The whole batches of ``span`` (:meth:`_read`'s) as file ranges; None if the log
        no longer holds exactly those bytes (then they are read)."""
        log = self.log
        found, _ = log.read_slice(max(span[0], log.log_start_offset), span[1], max_offset=log.high_watermark)
        if found is not None and len(found) != span[1]:
            found.close()
            return None
        return found

    def _flush(self, span: list[int] | None, parts: list[bytes | memoryview]) -> None:
        if span is not None:
            parts.append(self._read(span[0], span[1]))

    def _slice(self, header: BatchHeader, lo: int, hi: int) -> bytes | None:
        """The batch of ``header`` cut down to offsets ``lo``..``hi``; None if it cannot be cut."""
        key = (header.base_offset, header.crc)
        starts = self._starts.get(key, _UNKNOWN)
        raw: bytes | memoryview | None = None
        if starts is _UNKNOWN:
            raw = self._read(header.base_offset, header.size)
            if len(raw) != header.size:
                return None
            starts = record_starts(raw)
            self._starts[key] = starts
            if len(self._starts) > _SLICED_BATCHES_KEPT:
                del self._starts[next(iter(self._starts))]
        if starts is None:
            return None
        if raw is None:
            raw = self._read(header.base_offset, header.size)
            if len(raw) != header.size:
                return None
        return slice_batch(raw, starts, lo - header.base_offset, hi - header.base_offset)

    def record_keys(self, start_offset: int, end_offset: int) -> Sequence[tuple[int, Hashable]]:
        """(offset, key) of the data records in ``[start_offset, end_offset)`` with a key."""
        if end_offset <= start_offset:
            return []
        raw = self.records_covering(start_offset, end_offset - 1, _KEY_READ_BYTES)
        out: list[tuple[int, Hashable]] = []
        for batch in iter_batches(raw, allow_partial=True):
            if batch.header.is_control:
                continue
            for rec in iter_records(batch.view):
                if start_offset <= rec.offset < end_offset and rec.key is not None:
                    out.append((rec.offset, rec.key))
        return out
