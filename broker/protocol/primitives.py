"""Wire primitives shared by the generated message codecs.

Readers take ``(buf, pos)`` where ``buf`` is a ``memoryview`` of unsigned bytes
and return ``(value, new_pos)``. Writers append to a ``bytearray``. Fixed-width
integers are handled directly by the generated code with precompiled
``struct.Struct`` objects; only the variable-length types live here.

Bounds: every length read from the wire is checked against the bytes actually
present before it is used, so a hostile length can neither over-read nor make
us allocate more than the frame we already hold.
"""

from __future__ import annotations

import struct
import uuid
from typing import Protocol, TypeAlias

from broker.protocol.errors import ProtocolError

__all__ = [
    "UUID_ZERO",
    "check_count",
    "read_array_len",
    "read_bytes",
    "read_compact_array_len",
    "read_compact_bytes",
    "read_compact_nullable_array_len",
    "read_compact_nullable_bytes",
    "read_compact_nullable_records",
    "read_compact_nullable_string",
    "read_compact_records",
    "read_compact_string",
    "read_nullable_array_len",
    "read_nullable_bytes",
    "read_nullable_records",
    "read_nullable_string",
    "read_records",
    "read_string",
    "read_tag_header",
    "read_unknown_tags",
    "read_uuid",
    "read_uvarint",
    "read_uvarlong",
    "read_varint",
    "read_varlong",
    "uvarint_size",
    "write_array_len",
    "write_bytes",
    "write_compact_array_len",
    "write_compact_bytes",
    "write_compact_nullable_array_len",
    "write_compact_nullable_bytes",
    "write_compact_nullable_records",
    "write_compact_nullable_string",
    "write_compact_records",
    "write_compact_string",
    "write_nullable_array_len",
    "write_nullable_bytes",
    "write_nullable_records",
    "write_nullable_string",
    "write_records",
    "write_string",
    "write_tagged_fields",
    "write_uuid",
    "write_uvarint",
    "write_varint",
    "write_varlong",
]

UUID_ZERO = uuid.UUID(int=0)

_i16 = struct.Struct(">h")
_i32 = struct.Struct(">i")
_unpack_i16 = _i16.unpack_from
_unpack_i32 = _i32.unpack_from
_pack_i16 = _i16.pack
_pack_i32 = _i32.pack

# Kafka's unsigned varints carry at most 32 bits (5 bytes); varlongs 64 bits (10 bytes).
_MAX_VARINT_SHIFT = 28
_MAX_VARLONG_SHIFT = 63


def read_uvarint(buf: memoryview, pos: int) -> tuple[int, int]:
    b = buf[pos]
    if b < 0x80:
        return b, pos + 1
    return _read_unsigned(buf, pos + 1, b & 0x7F, 7, _MAX_VARINT_SHIFT, "unsigned varint longer than 5 bytes")


def read_varint(buf: memoryview, pos: int) -> tuple[int, int]:
    v, pos = read_uvarint(buf, pos)
    return (v >> 1) ^ -(v & 1), pos


def read_uvarlong(buf: memoryview, pos: int) -> tuple[int, int]:
    return _read_unsigned(buf, pos, 0, 0, _MAX_VARLONG_SHIFT, "varlong longer than 10 bytes")


def read_varlong(buf: memoryview, pos: int) -> tuple[int, int]:
    v, pos = read_uvarlong(buf, pos)
    return (v >> 1) ^ -(v & 1), pos


def _read_unsigned(
    buf: memoryview, pos: int, result: int, shift: int, max_shift: int, too_long: str
) -> tuple[int, int]:
    """The rest of an unsigned varint or varlong, ``result`` holding its bits read so far
    (up to ``shift``); ProtocolError(``too_long``) past ``max_shift``."""
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7
        if shift > max_shift:
            raise ProtocolError(too_long)


def write_uvarint(out: bytearray, value: int) -> None:
    if value < 0:
        raise ProtocolError(f"cannot encode negative value {value} as an unsigned varint")
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def write_varint(out: bytearray, value: int) -> None:
    write_uvarint(out, ((value << 1) ^ (value >> 31)) & 0xFFFFFFFF)


def write_varlong(out: bytearray, value: int) -> None:
    write_uvarint(out, ((value << 1) ^ (value >> 63)) & 0xFFFFFFFFFFFFFFFF)


def uvarint_size(value: int) -> int:
    size = 1
    while value >= 0x80:
        value >>= 7
        size += 1
    return size


# --- strings -------------------------------------------------------------------------


def _slice(buf: memoryview, pos: int, n: int) -> tuple[memoryview, int]:
    end = pos + n
    if end > len(buf):
        raise ProtocolError(f"length {n} at byte {pos} runs past the end of the frame ({len(buf)} bytes)")
    return buf[pos:end], end


def read_string(buf: memoryview, pos: int) -> tuple[str, int]:
    (n,) = _unpack_i16(buf, pos)
    if n < 0:
        raise ProtocolError("null in a non-nullable string")
    raw, pos = _slice(buf, pos + 2, n)
    return str(raw, "utf-8"), pos


def read_nullable_string(buf: memoryview, pos: int) -> tuple[str | None, int]:
    (n,) = _unpack_i16(buf, pos)
    if n < 0:
        return None, pos + 2
    raw, pos = _slice(buf, pos + 2, n)
    return str(raw, "utf-8"), pos


def read_compact_string(buf: memoryview, pos: int) -> tuple[str, int]:
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        raise ProtocolError("null in a non-nullable compact string")
    raw, pos = _slice(buf, pos, n - 1)
    return str(raw, "utf-8"), pos


def read_compact_nullable_string(buf: memoryview, pos: int) -> tuple[str | None, int]:
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        return None, pos
    raw, pos = _slice(buf, pos, n - 1)
    return str(raw, "utf-8"), pos


def _utf8(value: str) -> bytes:
    if value.__class__ is not str:
        raise ProtocolError(f"expected a string, got {type(value).__name__}")
    return value.encode("utf-8")


def write_string(out: bytearray, value: str) -> None:
    if value is None:
        raise ProtocolError("null in a non-nullable string")
    b = _utf8(value)
    if len(b) > 0x7FFF:
        raise ProtocolError(f"string of {len(b)} bytes exceeds the int16 length limit")
    out += _pack_i16(len(b))
    out += b


def write_nullable_string(out: bytearray, value: str | None) -> None:
    if value is None:
        out += b"\xff\xff"
    else:
        write_string(out, value)


def write_compact_string(out: bytearray, value: str) -> None:
    if value is None:
        raise ProtocolError("null in a non-nullable compact string")
    b = _utf8(value)
    write_uvarint(out, len(b) + 1)
    out += b


def write_compact_nullable_string(out: bytearray, value: str | None) -> None:
    if value is None:
        out.append(0)
    else:
        write_compact_string(out, value)


# --- bytes ---------------------------------------------------------------------------


def read_bytes(buf: memoryview, pos: int) -> tuple[bytes, int]:
    (n,) = _unpack_i32(buf, pos)
    if n < 0:
        raise ProtocolError("null in non-nullable bytes")
    raw, pos = _slice(buf, pos + 4, n)
    return bytes(raw), pos


def read_nullable_bytes(buf: memoryview, pos: int) -> tuple[bytes | None, int]:
    (n,) = _unpack_i32(buf, pos)
    if n < 0:
        return None, pos + 4
    raw, pos = _slice(buf, pos + 4, n)
    return bytes(raw), pos


def read_compact_bytes(buf: memoryview, pos: int) -> tuple[bytes, int]:
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        raise ProtocolError("null in non-nullable compact bytes")
    raw, pos = _slice(buf, pos, n - 1)
    return bytes(raw), pos


def read_compact_nullable_bytes(buf: memoryview, pos: int) -> tuple[bytes | None, int]:
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        return None, pos
    raw, pos = _slice(buf, pos, n - 1)
    return bytes(raw), pos


# A bytes field at least this large is not copied into a SplicedFrame: the frame keeps
# a reference and the payload is sent from where it is (a fetch of 16 MiB saves a copy
# of 16 MiB, and the page faults of growing the frame to that size).
SPLICE_MIN_BYTES = 64 * 1024


class OutOfBand(Protocol):
    """A payload kept outside memory that reads itself when asked (``bytes(payload)``): a
    log's file ranges, which a connection may send straight from the file instead."""

    def __len__(self) -> int: ...

    def __bytes__(self) -> bytes: ...


# A piece of an encoded frame, as a connection sends it.
Chunk: TypeAlias = bytes | bytearray | memoryview | OutOfBand


class SplicedFrame(bytearray):
    """A frame being encoded whose large bytes fields stay outside it.

    ``splices`` lists (position in the frame, payload): the payload belongs at that
    position. :meth:`chunks` gives the frame in order, ready to send; the size
    prefix written by the caller must count ``spliced_bytes`` too.
    """

    __slots__ = ("spliced_bytes", "splices")

    def __init__(self, size: int = 0) -> None:
        super().__init__(size)
        self.splices: list[tuple[int, Chunk]] = []
        self.spliced_bytes = 0

    def splice(self, value: Chunk) -> None:
        self.splices.append((len(self), value))
        self.spliced_bytes += len(value)

    def chunks(self) -> list[Chunk]:
        if not self.splices:
            return [self]
        view = memoryview(self)
        out: list[Chunk] = []
        start = 0
        for position, payload in self.splices:
            if position > start:
                out.append(view[start:position])
            out.append(payload)
            start = position
        if start < len(self):
            out.append(view[start:])
        return out


def _write_payload(out: bytearray, value: bytes) -> None:
    if type(out) is SplicedFrame and len(value) >= SPLICE_MIN_BYTES:
        out.splice(value)
    elif isinstance(value, bytes | bytearray | memoryview):
        out += value
    else:
        # A payload kept outside memory (a log's file ranges), small or not spliced: read now.
        out += bytes(value)


def write_bytes(out: bytearray, value: bytes) -> None:
    if value is None:
        raise ProtocolError("null in non-nullable bytes")
    out += _pack_i32(len(value))
    _write_payload(out, value)


def write_nullable_bytes(out: bytearray, value: bytes | None) -> None:
    if value is None:
        out += b"\xff\xff\xff\xff"
    else:
        write_bytes(out, value)


def write_compact_bytes(out: bytearray, value: bytes) -> None:
    if value is None:
        raise ProtocolError("null in non-nullable compact bytes")
    write_uvarint(out, len(value) + 1)
    _write_payload(out, value)


def write_compact_nullable_bytes(out: bytearray, value: bytes | None) -> None:
    if value is None:
        out.append(0)
    else:
        write_compact_bytes(out, value)


# --- records: zero-copy views into the frame ------------------------------------------


def read_records(buf: memoryview, pos: int) -> tuple[memoryview, int]:
    (n,) = _unpack_i32(buf, pos)
    if n < 0:
        raise ProtocolError("null in non-nullable records")
    return _slice(buf, pos + 4, n)


def read_nullable_records(buf: memoryview, pos: int) -> tuple[memoryview | None, int]:
    (n,) = _unpack_i32(buf, pos)
    if n < 0:
        return None, pos + 4
    return _slice(buf, pos + 4, n)


def read_compact_records(buf: memoryview, pos: int) -> tuple[memoryview, int]:
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        raise ProtocolError("null in non-nullable compact records")
    return _slice(buf, pos, n - 1)


def read_compact_nullable_records(buf: memoryview, pos: int) -> tuple[memoryview | None, int]:
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        return None, pos
    return _slice(buf, pos, n - 1)


write_records = write_bytes
write_nullable_records = write_nullable_bytes
write_compact_records = write_compact_bytes
write_compact_nullable_records = write_compact_nullable_bytes


# --- uuid ----------------------------------------------------------------------------


def read_uuid(buf: memoryview, pos: int) -> tuple[uuid.UUID, int]:
    end = pos + 16
    if end > len(buf):
        raise ProtocolError("uuid runs past the end of the frame")
    return uuid.UUID(bytes=bytes(buf[pos:end])), end


def write_uuid(out: bytearray, value: uuid.UUID) -> None:
    if value.__class__ is not uuid.UUID:
        raise ProtocolError(f"expected a UUID, got {type(value).__name__}")
    out += value.bytes


# --- array lengths -------------------------------------------------------------------


def read_array_len(buf: memoryview, pos: int) -> tuple[int, int]:
    (n,) = _unpack_i32(buf, pos)
    if n < 0:
        raise ProtocolError("null in a non-nullable array")
    return n, pos + 4


def read_nullable_array_len(buf: memoryview, pos: int) -> tuple[int, int]:
    (n,) = _unpack_i32(buf, pos)
    return (-1 if n < 0 else n), pos + 4


def read_compact_array_len(buf: memoryview, pos: int) -> tuple[int, int]:
    n, pos = read_uvarint(buf, pos)
    if n == 0:
        raise ProtocolError("null in a non-nullable compact array")
    return n - 1, pos


def read_compact_nullable_array_len(buf: memoryview, pos: int) -> tuple[int, int]:
    n, pos = read_uvarint(buf, pos)
    return n - 1, pos


def write_array_len(out: bytearray, value: list | None) -> None:
    if value is None:
        raise ProtocolError("null in a non-nullable array")
    out += _pack_i32(len(value))


def write_nullable_array_len(out: bytearray, value: list | None) -> None:
    out += _pack_i32(-1 if value is None else len(value))


def write_compact_array_len(out: bytearray, value: list | None) -> None:
    if value is None:
        raise ProtocolError("null in a non-nullable compact array")
    write_uvarint(out, len(value) + 1)


def write_compact_nullable_array_len(out: bytearray, value: list | None) -> None:
    write_uvarint(out, 0 if value is None else len(value) + 1)


def check_count(buf: memoryview, pos: int, count: int, item_size: int) -> None:
    """Refuse an array count that cannot fit in the bytes left in the frame."""
    if count * item_size > len(buf) - pos:
        raise ProtocolError(f"array of {count} items runs past the end of the frame")


# --- tagged fields -------------------------------------------------------------------


def read_tag_header(buf: memoryview, pos: int) -> tuple[int, int, int]:
    """Read one tag and its size; return (tag, start, end) of its payload."""
    tag, pos = read_uvarint(buf, pos)
    size, pos = read_uvarint(buf, pos)
    end = pos + size
    if end > len(buf):
        raise ProtocolError(f"tagged field {tag} runs past the end of the frame")
    return tag, pos, end


def write_tagged_fields(out: bytearray, fields: list[tuple[int, bytes]]) -> None:
    """Write the tagged-field section; ``fields`` need not be sorted."""
    if len(fields) > 1:
        fields = sorted(fields, key=lambda f: f[0])
    write_uvarint(out, len(fields))
    for tag, payload in fields:
        write_uvarint(out, tag)
        write_uvarint(out, len(payload))
        out += payload


def read_unknown_tags(buf: memoryview, pos: int) -> tuple[list[tuple[int, bytes]], int]:
    """Read a tagged-field section none of whose tags we know; keep them for re-encoding."""
    n, pos = read_uvarint(buf, pos)
    out = []
    for _ in range(n):
        tag, start, pos = read_tag_header(buf, pos)
        out.append((tag, bytes(buf[start:pos])))
    return out, pos
