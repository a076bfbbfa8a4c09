"""Decode the records of a stored batch straight into column lists.

``broker.protocol.records.iter_records`` builds one ``Record`` per record through
a generator and a function call per varint: right for the broker, which rarely
decodes records, but the executors of the ``kafka-share`` source decode every
record they hand to Spark. This decoder appends key, value, offset and timestamp
(and headers when asked) to lists that become Arrow arrays, with the one-byte
varints that dominate real data decoded inline, and skips records outside the
offset window without decoding their key and value. Same wire format, same
checks on lengths; multi-byte varints go through the record format's own
:func:`~broker.protocol.records.read_varint`.
"""

from __future__ import annotations

from typing import Any

from broker.protocol.compression import MAX_DECOMPRESSED_SIZE, CompressionType, decompress
from broker.protocol.records import (
    BATCH_HEADER_SIZE,
    BatchHeader,
    InvalidRecordError,
    read_headers,
    read_varint,
)

_TIMESTAMP_TYPE_BIT = 0x08


def batch_body(header: BatchHeader, view: memoryview) -> bytes:
    """The (decompressed) records section of a stored batch."""
    body = view[BATCH_HEADER_SIZE:]
    if header.compression == CompressionType.NONE:
        return bytes(body)
    return decompress(header.compression, body, max_size=MAX_DECOMPRESSED_SIZE)


def decode_into(
    header: BatchHeader,
    data: bytes,
    lo: int,
    hi: int,
    delivery_count: int,
    keys: list[bytes | None],
    values: list[bytes | None],
    offsets: list[int],
    stamps: list[int | None],
    counts: list[int],
    headers: list[Any] | None = None,
) -> int:
    """Append the records of one batch with ``lo <= offset <= hi``; returns how many.

    ``data`` is the batch's records section (``batch_body``). Timestamps are in
    microseconds (Spark's unit); a LogAppendTime batch gives every record its max
    timestamp, as Kafka does.
    """
    base_offset = header.base_offset
    base_ts = header.base_timestamp
    append_time = header.max_timestamp if header.attributes & _TIMESTAMP_TYPE_BIT else None
    end = len(data)
    pos = 0
    added = 0
    try:
        for _ in range(header.records_count):
            b = data[pos]
            if b < 0x80:
                length = (b >> 1) ^ -(b & 1)
                pos += 1
            else:
                length, pos = read_varint(data, pos, 10)
            record_end = pos + length
            if length < 0 or record_end > end:
                raise InvalidRecordError(f"record length {length} runs past the end of the batch")
            pos += 1  # attributes
            b = data[pos]
            if b < 0x80:
                ts_delta = (b >> 1) ^ -(b & 1)
                pos += 1
            else:
                ts_delta, pos = read_varint(data, pos, 10)
            b = data[pos]
            if b < 0x80:
                offset = base_offset + ((b >> 1) ^ -(b & 1))
                pos += 1
            else:
                delta, pos = read_varint(data, pos, 10)
                offset = base_offset + delta
            if offset < lo or offset > hi:
                pos = record_end
                continue
            b = data[pos]
            if b < 0x80:
                n = (b >> 1) ^ -(b & 1)
                pos += 1
            else:
                n, pos = read_varint(data, pos, 10)
            if n >= 0:
                if pos + n > record_end:
                    raise InvalidRecordError("record key runs past the end of the record")
                keys.append(data[pos : pos + n])
                pos += n
            else:
                keys.append(None)
            b = data[pos]
            if b < 0x80:
                n = (b >> 1) ^ -(b & 1)
                pos += 1
            else:
                n, pos = read_varint(data, pos, 10)
            if n >= 0:
                if pos + n > record_end:
                    raise InvalidRecordError("record value runs past the end of the record")
                values.append(data[pos : pos + n])
                pos += n
            else:
                values.append(None)
            if headers is not None:
                headers.append(_headers(data, pos, record_end))
            pos = record_end
            offsets.append(offset)
            ts = base_ts + ts_delta if append_time is None else append_time
            stamps.append(ts * 1000 if ts >= 0 else None)
            counts.append(delivery_count)
            added += 1
    except IndexError:
        raise InvalidRecordError("record runs past the end of the batch") from None
    return added


def _headers(data: bytes, pos: int, record_end: int) -> list[dict[str, str | bytes | None]]:
    headers, _ = read_headers(data, pos, record_end)
    return [{"key": key, "value": value} for key, value in headers]
