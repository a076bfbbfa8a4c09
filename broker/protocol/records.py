"""Kafka record batches (message format v2, "magic 2"), sans-IO.

A batch is a 61-byte header followed by its records (the records section is
compressed as one unit when the codec is not NONE). Big-endian, offsets from
the start of the batch::

     0 base_offset             int64   \\
     8 batch_length            int32    | not covered by the CRC: the broker
    12 partition_leader_epoch  int32    | rewrites offset and epoch in place
    16 magic                   int8    /
    17 crc                     uint32  CRC-32C (Castagnoli) of bytes 21..end
    21 attributes              int16   codec 0-2, timestamp type 3,
                                       transactional 4, control 5, delete horizon 6
    23 last_offset_delta       int32
    27 base_timestamp          int64
    35 max_timestamp           int64
    43 producer_id             int64
    51 producer_epoch          int16
    53 base_sequence           int32
    57 records_count           int32
    61 records...

``batch_length`` counts the bytes after itself, so a batch takes
``batch_length + 12`` bytes.

Two speeds. The hot path (produce, fetch, log) works per batch and never looks
inside the records: :func:`iter_batches` walks a blob with one ``struct``
unpack per header and hands out zero-copy ``memoryview`` slices,
:func:`validate_produce_records` checks a Produce request's batches (cost: one
CRC pass, no decompression), and :func:`assign_offsets` /
:func:`set_partition_leader_epoch` patch CRC-free fields in place. The slow
path reads records when the broker really needs them (internal topics,
transaction markers, tests): :func:`iter_records` decompresses and decodes,
:func:`build_batch` encodes.

Every exception raised here is a :class:`~broker.protocol.errors.ProtocolError`
(via ``KafkaError``) carrying ``error_code``, the Kafka error to answer with.
The codes follow what Apache Kafka's broker returns for the same input:
bad CRC, impossible length or unknown magic -> CORRUPT_MESSAGE (2); legacy
magic 0/1 in Produce v3+, a batch running past the end of the records,
control batches or inconsistent counts from a client, malformed records ->
INVALID_RECORD (87); unknown codec -> UNSUPPORTED_COMPRESSION_TYPE (76).
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Iterable, Iterator, Sequence
from enum import IntEnum
from typing import Any, NamedTuple

from crc32c import crc32c

from broker.protocol.compression import (
    MAX_DECOMPRESSED_SIZE,
    CompressionType,
    UnsupportedCompressionTypeError,
    compress,
    decompress,
)
from broker.protocol.errors import CodedError, ErrorCode

__all__ = [
    "BATCH_HEADER_SIZE",
    "BatchHeader",
    "BatchView",
    "ControlType",
    "CorruptRecordError",
    "EndTxnMarker",
    "InvalidRecordError",
    "Record",
    "RecordBatchError",
    "RecordTooLargeError",
    "TimestampType",
    "TruncatedBatchError",
    "assign_offsets",
    "build_batch",
    "build_end_txn_marker",
    "check_crc",
    "compute_crc",
    "control_type",
    "iter_batches",
    "iter_records",
    "parse_batch_header",
    "parse_end_txn_marker",
    "read_headers",
    "read_varint",
    "set_base_offset",
    "set_max_timestamp",
    "set_partition_leader_epoch",
    "validate_produce_records",
    "write_varint",
]

BytesLike = bytes | bytearray | memoryview

MAGIC_V2 = 2

# Field offsets inside a batch (see the module docstring).
_LENGTH_OFFSET = 8
_EPOCH_OFFSET = 12
_MAGIC_OFFSET = 16
_BATCH_LENGTH_OFFSET = 8
_CRC_OFFSET = 17
_ATTRIBUTES_OFFSET = 21
_LAST_OFFSET_DELTA_OFFSET = 23
_RECORDS_COUNT_OFFSET = 57
_MAX_TIMESTAMP_OFFSET = 35

# base_offset + batch_length: the bytes batch_length does not count.
LOG_OVERHEAD = 12
# base_offset, batch_length, partition_leader_epoch: the bytes before the magic
# byte, which the CRC does not cover and a broker rewrites on append.
UNCHECKED_PREFIX = _MAGIC_OFFSET
_HEADER = struct.Struct(">qiibIhiqqqhii")
BATCH_HEADER_SIZE = _HEADER.size  # 61
# Smallest legal batch_length: a header with no records.
MIN_BATCH_LENGTH = BATCH_HEADER_SIZE - LOG_OVERHEAD  # 49
# Smallest length of any message format (a magic 0 message without key or
# value): below it the bytes are not a batch of any kind.
_LEGACY_MIN_LENGTH = 14

_INT16 = struct.Struct(">h")
_INT32 = struct.Struct(">i")
_INT64 = struct.Struct(">q")
_UINT32 = struct.Struct(">I")
_CONTROL_KEY = struct.Struct(">hh")  # version, type
_END_TXN_VALUE = struct.Struct(">hi")  # version, coordinator epoch

_CODEC_MASK = 0x07
_TIMESTAMP_TYPE_BIT = 0x08
_TRANSACTIONAL_BIT = 0x10
_CONTROL_BIT = 0x20
_DELETE_HORIZON_BIT = 0x40

NO_TIMESTAMP = -1
NO_PRODUCER_ID = -1
NO_SEQUENCE = -1

# Int range limits of the wire fields that the builder fills from Python ints.
_INT32_MIN, _INT32_MAX = -(1 << 31), (1 << 31) - 1
_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


class TimestampType(IntEnum):
    """Attribute bit 3: who set the record timestamps."""

    CREATE_TIME = 0
    LOG_APPEND_TIME = 1


class ControlType(IntEnum):
    """Control record types (the int16 at byte 2 of a control record key)."""

    ABORT = 0
    COMMIT = 1
    LEADER_CHANGE = 2
    SNAPSHOT_HEADER = 3
    SNAPSHOT_FOOTER = 4
    KRAFT_VERSION = 5
    KRAFT_VOTERS = 6


# --------------------------------------------------------------------------
# Errors


class RecordBatchError(CodedError):
    """Base for malformed or refused record batches; ``CODE`` is its Kafka code."""

    CODE = ErrorCode.CORRUPT_MESSAGE


class CorruptRecordError(RecordBatchError):
    """Bad CRC, impossible batch length or unknown magic (CORRUPT_MESSAGE, 2)."""

    CODE = ErrorCode.CORRUPT_MESSAGE


class InvalidRecordError(RecordBatchError):
    """A batch or record the broker refuses to take (INVALID_RECORD, 87)."""

    CODE = ErrorCode.INVALID_RECORD


class TruncatedBatchError(InvalidRecordError):
    """A batch claims more bytes than the buffer holds.

    INVALID_RECORD, as Kafka: its batch reader skips a batch that runs past the
    end, and a Produce partition left with no batch is refused with 87.
    """


class RecordTooLargeError(RecordBatchError):
    """A batch is larger than the configured maximum (MESSAGE_TOO_LARGE, 10)."""

    CODE = ErrorCode.MESSAGE_TOO_LARGE


# --------------------------------------------------------------------------
# Headers and the batch walk (hot path)


class BatchHeader(NamedTuple):
    """The 61-byte v2 batch header, decoded by one ``struct`` unpack."""

    base_offset: int
    batch_length: int
    partition_leader_epoch: int
    magic: int
    crc: int
    attributes: int
    last_offset_delta: int
    base_timestamp: int
    max_timestamp: int
    producer_id: int
    producer_epoch: int
    base_sequence: int
    records_count: int

    @property
    def compression(self) -> int:
        """Codec id: 0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd (5-7 undefined)."""
        return self.attributes & _CODEC_MASK

    @property
    def timestamp_type(self) -> int:
        return (self.attributes & _TIMESTAMP_TYPE_BIT) >> 3

    @property
    def is_transactional(self) -> bool:
        return bool(self.attributes & _TRANSACTIONAL_BIT)

    @property
    def is_control(self) -> bool:
        return bool(self.attributes & _CONTROL_BIT)

    @property
    def has_delete_horizon(self) -> bool:
        return bool(self.attributes & _DELETE_HORIZON_BIT)

    @property
    def has_producer_id(self) -> bool:
        return self.producer_id > NO_PRODUCER_ID

    @property
    def last_offset(self) -> int:
        return self.base_offset + self.last_offset_delta

    @property
    def next_offset(self) -> int:
        return self.base_offset + self.last_offset_delta + 1

    @property
    def size(self) -> int:
        """Bytes the whole batch occupies."""
        return self.batch_length + LOG_OVERHEAD


class BatchView(NamedTuple):
    """One batch found by :func:`iter_batches`: its header and a zero-copy view of it."""

    header: BatchHeader
    view: memoryview


def _byte_view(buf: BytesLike) -> memoryview:
    view = memoryview(buf)
    if view.format != "B" or view.ndim != 1:
        view = view.cast("B")
    return view


def _check_magic(magic: int) -> None:
    if magic == MAGIC_V2:
        return
    if magic in (0, 1):
        raise InvalidRecordError(
            f"record batch magic {magic} (legacy message format) is not supported; magic 2 is required"
        )
    raise CorruptRecordError(f"invalid magic {magic} in record batch")


def parse_batch_header(buf: BytesLike, pos: int = 0) -> BatchHeader:
    """Decode the v2 header at ``pos`` (only the header need be present)."""
    if len(buf) - pos < BATCH_HEADER_SIZE:
        raise TruncatedBatchError(
            f"record batch header needs {BATCH_HEADER_SIZE} bytes, {max(len(buf) - pos, 0)} available"
        )
    header = BatchHeader._make(_HEADER.unpack_from(buf, pos))
    _check_magic(header.magic)
    if header.batch_length < MIN_BATCH_LENGTH:
        raise CorruptRecordError(f"record batch length {header.batch_length} is below the minimum {MIN_BATCH_LENGTH}")
    return header


def iter_batches(
    buf: BytesLike,
    pos: int = 0,
    *,
    allow_partial: bool = False,
    check_crc: bool = False,
) -> Iterator[BatchView]:
    """Walk concatenated batches from ``pos``, yielding zero-copy views.

    Checks each batch's length and magic (and its CRC if ``check_crc``),
    nothing inside the records. A trailing batch cut short raises
    :class:`TruncatedBatchError`, unless ``allow_partial`` is set: fetch
    responses may end in a partial batch, which is then silently dropped.
    Views keep ``buf`` exported (a bytearray cannot be resized while they live).
    """
    mv = _byte_view(buf)
    end = len(mv)
    unpack = _HEADER.unpack_from
    make = BatchHeader._make
    while pos < end:
        remaining = end - pos
        if remaining < LOG_OVERHEAD:
            if allow_partial:
                return
            raise TruncatedBatchError(f"{remaining} trailing bytes are not a record batch")
        (batch_length,) = _INT32.unpack_from(mv, pos + _LENGTH_OFFSET)
        # Same order as Kafka: a length no format allows, then the magic (so a
        # legacy message is named as such), then the v2 minimum.
        if batch_length < _LEGACY_MIN_LENGTH:
            raise CorruptRecordError(f"record batch length {batch_length} is impossible")
        if remaining > _MAGIC_OFFSET:
            magic = mv[pos + _MAGIC_OFFSET]
            _check_magic(magic - 256 if magic > 127 else magic)
        if batch_length < MIN_BATCH_LENGTH:
            raise CorruptRecordError(f"record batch length {batch_length} is below the minimum {MIN_BATCH_LENGTH}")
        size = batch_length + LOG_OVERHEAD
        if remaining < size:
            if allow_partial:
                return
            raise TruncatedBatchError(f"record batch of {size} bytes at position {pos} has only {remaining} bytes")
        view = mv[pos : pos + size]
        header = make(unpack(view))
        if check_crc:
            _verify_crc(view, header.crc)
        yield BatchView(header, view)
        pos += size


def _whole_batch(buf: BytesLike, pos: int = 0) -> tuple[BatchHeader, memoryview]:
    """Header and exact view of the batch at ``pos``, which must be complete."""
    mv = _byte_view(buf)
    header = parse_batch_header(mv, pos)
    if len(mv) - pos < header.size:
        raise TruncatedBatchError(f"record batch of {header.size} bytes has only {len(mv) - pos} bytes")
    return header, mv[pos : pos + header.size]


def compute_crc(batch: BytesLike) -> int:
    """CRC-32C of a batch's attributes..end (bytes 21 to the batch's end)."""
    _, view = _whole_batch(batch)
    return crc32c(view[_ATTRIBUTES_OFFSET:])


def _verify_crc(view: memoryview, stored: int) -> None:
    computed = crc32c(view[_ATTRIBUTES_OFFSET:])
    if computed != stored:
        raise CorruptRecordError(f"record batch is corrupt (stored crc {stored:#010x}, computed {computed:#010x})")


def check_crc(batch: BytesLike) -> None:
    """Raise :class:`CorruptRecordError` unless the batch's stored CRC matches."""
    header, view = _whole_batch(batch)
    _verify_crc(view, header.crc)


# --------------------------------------------------------------------------
# In-place edits


def record_starts(batch: BytesLike) -> array[int] | None:
    """Where each record of a stored batch begins (and where the last one ends), for slicing.

    Only for batches :func:`slice_batch` can cut: uncompressed data batches whose
    records hold consecutive offsets (record ``i`` at offset delta ``i``); None for
    the others (compressed, control, compacted with holes). Reads one length
    varint per record and nothing else, once per batch: callers cache the answer,
    hence an array of 4-byte positions (16 KiB for 4,000 records, against about
    140 KiB as a list of ints).
    """
    header, view = _whole_batch(batch)
    count = header.records_count
    if header.compression or header.is_control or count != header.last_offset_delta + 1 or count <= 0:
        return None
    data = view
    pos = BATCH_HEADER_SIZE
    end = header.size
    starts: list[int] = []
    add = starts.append
    try:
        for _ in range(count):
            add(pos)
            # The record's length, a zigzag varint: one or two bytes inline (records
            # under 8 KiB), the general decoder beyond.
            b0 = data[pos]
            if b0 < 0x80:
                pos += 1 + ((b0 >> 1) ^ -(b0 & 1))
                continue
            b1 = data[pos + 1]
            if b1 < 0x80:
                n = (b0 & 0x7F) | (b1 << 7)
                pos += 2 + ((n >> 1) ^ -(n & 1))
                continue
            length, pos = read_varint(data, pos, 5)  # type: ignore[arg-type]
            pos += length
    except (IndexError, InvalidRecordError):
        return None
    if pos != end:
        return None
    starts.append(pos)
    return array("I", starts)


def slice_batch(batch: BytesLike, starts: Sequence[int], first: int, last: int) -> bytes:
    """A batch holding records ``first``..``last`` (by index) of ``batch``, everything else kept.

    The base offset, timestamps and producer fields stay as they are, so every
    record keeps its offset and timestamp (offset = base offset + its offset
    delta, the first delta no longer 0, as in a compacted batch); the length,
    last offset delta, record count and CRC are rewritten. ``starts`` is what
    :func:`record_starts` gave for ``batch``.
    """
    view = _byte_view(batch)
    body = view[starts[first] : starts[last + 1]]
    out = bytearray(BATCH_HEADER_SIZE + len(body))
    out[:BATCH_HEADER_SIZE] = view[:BATCH_HEADER_SIZE]
    out[BATCH_HEADER_SIZE:] = body
    _INT32.pack_into(out, _BATCH_LENGTH_OFFSET, len(out) - LOG_OVERHEAD)
    _INT32.pack_into(out, _LAST_OFFSET_DELTA_OFFSET, last)
    _INT32.pack_into(out, _RECORDS_COUNT_OFFSET, last - first + 1)
    _UINT32.pack_into(out, _CRC_OFFSET, crc32c(memoryview(out)[_ATTRIBUTES_OFFSET:]))
    return bytes(out)


def set_base_offset(buf: bytearray | memoryview, base_offset: int, *, pos: int = 0) -> None:
    """Overwrite the base offset of the batch at ``pos``; the CRC stays valid."""
    _INT64.pack_into(buf, pos, base_offset)


def set_partition_leader_epoch(buf: bytearray | memoryview, epoch: int, *, pos: int = 0) -> None:
    """Overwrite the partition leader epoch at ``pos``; it is outside the CRC too."""
    _INT32.pack_into(buf, pos + _EPOCH_OFFSET, epoch)


def assign_offsets(
    buf: bytearray | memoryview,
    base_offset: int,
    *,
    partition_leader_epoch: int | None = None,
    pos: int = 0,
) -> int:
    """Give every batch in ``buf`` consecutive offsets from ``base_offset``, in place.

    Each batch keeps its ``last_offset_delta``; optionally stamps the leader
    epoch. Touches only CRC-free bytes. Returns the next offset to assign.
    """
    # Walk everything first so a bad batch leaves the buffer untouched.
    batches = list(iter_batches(buf, pos))
    next_offset = base_offset
    for header, view in batches:
        _INT64.pack_into(view, 0, next_offset)
        if partition_leader_epoch is not None:
            _INT32.pack_into(view, _EPOCH_OFFSET, partition_leader_epoch)
        next_offset += header.last_offset_delta + 1
    return next_offset


def set_max_timestamp(buf: bytearray | memoryview, timestamp_type: int, max_timestamp: int, *, pos: int = 0) -> None:
    """Set the timestamp type bit and max timestamp, then recompute the CRC.

    Used for topics with LogAppendTime: both fields are CRC-covered, so this
    costs one CRC pass over the batch (still no per-record work).
    """
    header, view = _whole_batch(buf, pos)
    attributes = header.attributes & ~_TIMESTAMP_TYPE_BIT
    if timestamp_type == TimestampType.LOG_APPEND_TIME:
        attributes |= _TIMESTAMP_TYPE_BIT
    if attributes == header.attributes and max_timestamp == header.max_timestamp:
        return
    _INT16.pack_into(view, _ATTRIBUTES_OFFSET, attributes)
    _INT64.pack_into(view, _MAX_TIMESTAMP_OFFSET, max_timestamp)
    _UINT32.pack_into(view, _CRC_OFFSET, crc32c(view[_ATTRIBUTES_OFFSET:]))


# --------------------------------------------------------------------------
# Produce-side validation


def validate_produce_records(
    records: BytesLike | None,
    *,
    api_version: int | None = None,
    max_batch_size: int | None = None,
) -> list[BatchHeader]:
    """Check the records of one partition in a Produce request; return the headers.

    Mirrors the checks Apache Kafka's broker makes on a client's batches, in
    the same order, without decompressing (the cost is one CRC pass):

    * at least one batch, exactly one (Produce v3+), no bytes left over -> 87
    * magic 2 (0/1 -> INVALID_RECORD 87; anything else -> CORRUPT_MESSAGE 2)
    * codec 0-4 (-> 76), and no zstd before Produce v7 (-> 76)
    * base offset 0 (-> 87); size within ``max_batch_size`` (-> MESSAGE_TOO_LARGE 10)
    * CRC (-> 2)
    * records_count >= 1 and equal to last_offset_delta + 1 (-> 87)
    * no control batch, and a base sequence if there is a producer id (-> 87)

    ``api_version`` None means the newest version (no zstd restriction).
    """
    if records is None or len(records) == 0:
        raise InvalidRecordError("produce request must carry at least one record batch per partition")
    batches = list(iter_batches(records))
    if len(batches) != 1:
        raise InvalidRecordError(
            f"produce request must carry exactly one record batch per partition, got {len(batches)}"
        )
    headers: list[BatchHeader] = []
    for header, view in batches:
        codec = header.compression
        if codec > CompressionType.ZSTD:
            raise UnsupportedCompressionTypeError(codec)
        if codec == CompressionType.ZSTD and api_version is not None and api_version < 7:
            raise UnsupportedCompressionTypeError(codec)
        if header.base_offset != 0:
            raise InvalidRecordError(f"client batch base offset must be 0, got {header.base_offset}")
        if max_batch_size is not None and header.size > max_batch_size:
            raise RecordTooLargeError(f"record batch of {header.size} bytes exceeds the maximum of {max_batch_size}")
        _verify_crc(view, header.crc)
        if header.last_offset_delta < 0:
            raise InvalidRecordError(f"invalid last offset delta {header.last_offset_delta}")
        if header.records_count <= 0:
            raise InvalidRecordError(f"invalid record count {header.records_count}")
        if header.records_count != header.last_offset_delta + 1:
            raise InvalidRecordError(
                f"record count {header.records_count} does not match last offset delta {header.last_offset_delta}"
            )
        if header.is_control:
            raise InvalidRecordError("clients may not write control batches")
        if header.has_producer_id and header.base_sequence < 0:
            raise InvalidRecordError(
                f"invalid base sequence {header.base_sequence} with producer id {header.producer_id}"
            )
        headers.append(header)
    return headers


# --------------------------------------------------------------------------
# Records (slow path)


class Record(NamedTuple):
    """A decoded record; ``offset`` and ``timestamp`` are absolute."""

    offset: int
    timestamp: int
    key: bytes | None
    value: bytes | None
    headers: list[tuple[str, bytes | None]]


def iter_records(batch: BytesLike, *, max_uncompressed_size: int = MAX_DECOMPRESSED_SIZE) -> Iterator[Record]:
    """Decode the records of one batch (decompressing first if needed).

    ``batch`` starts at the batch header; bytes after the batch are ignored.
    The CRC is not checked here (see :func:`check_crc`). Records of a
    LogAppendTime batch take the batch's max timestamp, as in Kafka.
    Header errors and decompression happen on the call; a malformed record
    raises when iteration reaches it.
    """
    header, view = _whole_batch(batch)
    count = header.records_count
    if count < 0:
        raise InvalidRecordError(f"invalid record count {count}")
    if count == 0:
        return iter(())
    body = view[BATCH_HEADER_SIZE:]
    codec = header.compression
    if codec == CompressionType.NONE:
        data = bytes(body)
    else:
        data = decompress(codec, body, max_size=max_uncompressed_size)
    return _decode_records(data, header, count)


def _decode_records(data: bytes, header: BatchHeader, count: int) -> Iterator[Record]:
    base_offset = header.base_offset
    base_timestamp = header.base_timestamp
    log_append_time = header.max_timestamp if header.attributes & _TIMESTAMP_TYPE_BIT else None
    end = len(data)
    pos = 0
    try:
        for _ in range(count):
            length, pos = read_varint(data, pos, 5)
            record_end = pos + length
            if length < 0 or record_end > end:
                raise InvalidRecordError(
                    f"record length {length} runs past the end of the batch, premature EOF reached"
                )
            pos += 1  # attributes: no bits are defined for records
            ts_delta, pos = read_varint(data, pos, 10)
            offset_delta, pos = read_varint(data, pos, 5)
            key_len, pos = read_varint(data, pos, 5)
            if key_len >= 0:
                if pos + key_len > record_end:
                    raise InvalidRecordError("record key runs past the end of the record")
                key: bytes | None = data[pos : pos + key_len]
                pos += key_len
            else:
                key = None
            value_len, pos = read_varint(data, pos, 5)
            if value_len >= 0:
                if pos + value_len > record_end:
                    raise InvalidRecordError("record value runs past the end of the record")
                value: bytes | None = data[pos : pos + value_len]
                pos += value_len
            else:
                value = None
            headers, pos = read_headers(data, pos, record_end)
            if pos != record_end:
                raise InvalidRecordError(
                    f"invalid record size: expected {length} bytes, read {length + pos - record_end}"
                )
            yield Record(
                base_offset + offset_delta,
                base_timestamp + ts_delta if log_append_time is None else log_append_time,
                key,
                value,
                headers,
            )
    except IndexError:
        raise InvalidRecordError("record runs past the end of the batch, premature EOF reached") from None
    if pos != end:
        raise InvalidRecordError(f"incorrect declared batch size: {end - pos} bytes remain after {count} records")


def read_headers(data: bytes, pos: int, record_end: int) -> tuple[list[tuple[str, bytes | None]], int]:
    """The headers of a record, their count at ``pos``: ([(key, value)], next position).
    Every size is checked against ``record_end``; raises InvalidRecordError when one does
    not fit (IndexError when the data ends first)."""
    n_headers, pos = read_varint(data, pos, 5)
    # Each header takes at least two bytes, which bounds the loop.
    if n_headers < 0 or n_headers > record_end - pos:
        raise InvalidRecordError(f"invalid number of record headers {n_headers}")
    headers: list[tuple[str, bytes | None]] = []
    for _ in range(n_headers):
        hk_len, pos = read_varint(data, pos, 5)
        if hk_len < 0 or pos + hk_len > record_end:
            raise InvalidRecordError(f"invalid record header key size {hk_len}")
        # Invalid UTF-8 is replaced, not refused, as Java does.
        hkey = data[pos : pos + hk_len].decode("utf-8", "replace")
        pos += hk_len
        hv_len, pos = read_varint(data, pos, 5)
        if hv_len >= 0:
            if pos + hv_len > record_end:
                raise InvalidRecordError("record header value runs past the end of the record")
            headers.append((hkey, data[pos : pos + hv_len]))
            pos += hv_len
        else:
            headers.append((hkey, None))
    return headers, pos


def read_varint(data: bytes, pos: int, max_bytes: int) -> tuple[int, int]:
    """Zigzag varint of a record at ``pos``: (value, next position); ``max_bytes`` is 5
    for int32, 10 for int64. Raises InvalidRecordError past ``max_bytes``."""
    b = data[pos]
    pos += 1
    if b < 0x80:
        return (b >> 1) ^ -(b & 1), pos
    raw = b & 0x7F
    shift = 7
    limit = pos + max_bytes - 1
    while True:
        b = data[pos]
        pos += 1
        raw |= (b & 0x7F) << shift
        if b < 0x80:
            return (raw >> 1) ^ -(raw & 1), pos
        if pos >= limit:
            raise InvalidRecordError(f"varint longer than {max_bytes} bytes")
        shift += 7


# --------------------------------------------------------------------------
# Builder


def write_varint(out: bytearray, value: int) -> None:
    """Append ``value`` as a record's zigzag varint."""
    raw = (value << 1) if value >= 0 else ((-value) << 1) - 1
    while raw >= 0x80:
        out.append((raw & 0x7F) | 0x80)
        raw >>= 7
    out.append(raw)


def _write_bytes(out: bytearray, data: BytesLike | None) -> None:
    if data is None:
        out.append(1)  # zigzag(-1)
        return
    if len(data) > _INT32_MAX:
        raise ValueError("a record field cannot exceed 2**31 - 1 bytes")
    write_varint(out, len(data))
    out += data


def _fields(record: Any) -> tuple[Any, Any, Any, Any]:
    if hasattr(record, "key"):
        return record.key, record.value, getattr(record, "headers", ()), getattr(record, "timestamp", None)
    key, value, *rest = record
    headers = rest[0] if len(rest) > 0 else ()
    timestamp = rest[1] if len(rest) > 1 else None
    return key, value, headers, timestamp


def _encode_records(items: list[tuple[Any, Any, Any, Any]], base_timestamp: int) -> tuple[bytearray, int]:
    """The records section of a batch (each record length-prefixed) from ``_fields``
    tuples, and the largest timestamp in it."""
    body = bytearray()
    record = bytearray()
    max_timestamp = NO_TIMESTAMP
    for offset_delta, (key, value, headers, timestamp) in enumerate(items):
        if timestamp is None:
            timestamp = base_timestamp
        if not _INT64_MIN <= timestamp <= _INT64_MAX:
            raise ValueError(f"timestamp {timestamp} does not fit in int64")
        if timestamp > max_timestamp:
            max_timestamp = timestamp
        record.clear()
        record.append(0)  # attributes
        write_varint(record, timestamp - base_timestamp)
        write_varint(record, offset_delta)
        _write_bytes(record, key)
        _write_bytes(record, value)
        write_varint(record, len(headers))
        for hkey, hvalue in headers:
            _write_bytes(record, hkey.encode("utf-8"))
            _write_bytes(record, hvalue)
        write_varint(body, len(record))
        body += record
    return body, max_timestamp


def _batch_attributes(compression: int, timestamp_type: int, transactional: bool, is_control: bool) -> int:
    attributes = compression
    if timestamp_type == TimestampType.LOG_APPEND_TIME:
        attributes |= _TIMESTAMP_TYPE_BIT
    if transactional:
        attributes |= _TRANSACTIONAL_BIT
    if is_control:
        attributes |= _CONTROL_BIT
    return attributes


def build_batch(
    records: Iterable[Any],
    *,
    base_offset: int = 0,
    compression: int = CompressionType.NONE,
    producer_id: int = NO_PRODUCER_ID,
    producer_epoch: int = -1,
    base_sequence: int = NO_SEQUENCE,
    transactional: bool = False,
    is_control: bool = False,
    timestamp_type: int = TimestampType.CREATE_TIME,
    partition_leader_epoch: int = -1,
    base_timestamp: int | None = None,
) -> bytes:
    """Encode one v2 batch.

    ``records`` are tuples ``(key, value[, headers[, timestamp]])`` or objects
    with those attributes (a :class:`Record` works): key/value are bytes or
    None, headers a sequence of ``(str, bytes | None)``, timestamp int ms or
    None. Offsets are consecutive from ``base_offset``. ``base_timestamp``
    defaults to the first record's timestamp; a record without a timestamp
    gets the base timestamp (NO_TIMESTAMP, -1, if nothing gives one).
    """
    if not CompressionType.NONE <= compression <= CompressionType.ZSTD:
        raise UnsupportedCompressionTypeError(compression)
    items = [_fields(r) for r in records]
    if not items:
        raise ValueError("a record batch needs at least one record")
    if len(items) > _INT32_MAX:
        raise ValueError("too many records for one batch")
    if base_timestamp is None:
        base_timestamp = next((ts for *_, ts in items if ts is not None), NO_TIMESTAMP)
    body, max_timestamp = _encode_records(items, base_timestamp)
    payload = compress(compression, body) if compression else bytes(body)
    attributes = _batch_attributes(compression, timestamp_type, transactional, is_control)
    batch_length = BATCH_HEADER_SIZE - LOG_OVERHEAD + len(payload)
    if batch_length > _INT32_MAX:
        raise ValueError("record batch exceeds 2**31 - 1 bytes")
    out = bytearray(BATCH_HEADER_SIZE)
    _HEADER.pack_into(
        out,
        0,
        base_offset,
        batch_length,
        partition_leader_epoch,
        MAGIC_V2,
        0,  # CRC, filled in below
        attributes,
        len(items) - 1,
        base_timestamp,
        max_timestamp,
        producer_id,
        producer_epoch,
        base_sequence,
        len(items),
    )
    out += payload
    _UINT32.pack_into(out, _CRC_OFFSET, crc32c(memoryview(out)[_ATTRIBUTES_OFFSET:]))
    return bytes(out)


# --------------------------------------------------------------------------
# Control batches: transaction markers


class EndTxnMarker(NamedTuple):
    """A transaction marker: COMMIT or ABORT, and the coordinator epoch that wrote it."""

    control_type: ControlType
    coordinator_epoch: int

    @property
    def is_commit(self) -> bool:
        return self.control_type is ControlType.COMMIT


def control_type(key: BytesLike | None) -> int:
    """The type id in a control record key (version int16, type int16).

    Key versions above 0 are read as version 0, as Kafka does; unknown type
    ids are returned as is, for the caller to ignore.
    """
    if key is None or len(key) < _CONTROL_KEY.size:
        raise InvalidRecordError(f"control record key must have at least {_CONTROL_KEY.size} bytes")
    version, type_id = _CONTROL_KEY.unpack_from(key)
    if version < 0:
        raise InvalidRecordError(f"invalid control record key version {version}")
    return int(type_id)


def parse_end_txn_marker(key: BytesLike | None, value: BytesLike | None) -> EndTxnMarker:
    """Decode a COMMIT/ABORT control record from its key and value."""
    type_id = control_type(key)
    if type_id not in (ControlType.ABORT, ControlType.COMMIT):
        raise InvalidRecordError(f"control record type {type_id} is not a transaction marker")
    if value is None or len(value) < _END_TXN_VALUE.size:
        raise InvalidRecordError(f"transaction marker value must have at least {_END_TXN_VALUE.size} bytes")
    version, coordinator_epoch = _END_TXN_VALUE.unpack_from(value)
    if version < 0:
        raise InvalidRecordError(f"invalid transaction marker version {version}")
    return EndTxnMarker(ControlType(type_id), coordinator_epoch)


def build_end_txn_marker(
    *,
    commit: bool,
    coordinator_epoch: int,
    producer_id: int,
    producer_epoch: int,
    base_offset: int = 0,
    timestamp: int,
    partition_leader_epoch: int = -1,
) -> bytes:
    """A transactional control batch holding one COMMIT or ABORT marker.

    ``timestamp`` (ms) comes from the caller's clock: this module reads none.
    """
    type_id = ControlType.COMMIT if commit else ControlType.ABORT
    key = _CONTROL_KEY.pack(0, type_id)
    value = _END_TXN_VALUE.pack(0, coordinator_epoch)
    return build_batch(
        [(key, value, (), timestamp)],
        base_offset=base_offset,
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        transactional=True,
        is_control=True,
        partition_leader_epoch=partition_leader_epoch,
    )
