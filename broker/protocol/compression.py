"""Record-batch compression codecs (sans-IO): none, gzip, snappy, lz4, zstd.

A v2 record batch compresses its records section as one unit; the codec is in
the low three bits of the batch attributes. All four codecs go through
``cramjam``, one maintained Rust-backed package, instead of four separate
bindings with four release cycles.

Wire formats, as Kafka's Java client and broker write and read them:

* gzip: an RFC 1952 stream (concatenated members are accepted).
* snappy: Java (snappy-java) writes the *xerial* framing: the 8-byte magic
  ``\\x82SNAPPY\\x00``, two int32s (version, minimum compatible version; both 1,
  read but not checked because some producers write them little-endian), then
  repeated ``[int32 BE length][raw snappy block]``. librdkafka writes one raw
  snappy block. Both decode here; encoding uses the xerial framing, like Java.
* lz4: the standard LZ4 frame format with a correct header checksum (magic v2
  never used the broken pre-0.10 checksum). Java's reader rejects linked
  blocks, so frames are written with independent blocks.
* zstd: a standard zstd frame (several frames are accepted).

Errors: an unknown codec id raises :class:`UnsupportedCompressionTypeError`
(UNSUPPORTED_COMPRESSION_TYPE, 76); any failure to decompress raises
:class:`CorruptCompressedDataError` (CORRUPT_MESSAGE, 2), never a cramjam
exception. Decompressed output is capped (``max_size``) so a small hostile
payload cannot expand without bound.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from enum import IntEnum
from typing import ClassVar

import cramjam

from broker.protocol.errors import CodedError, ErrorCode, KafkaError

__all__ = [
    "MAX_DECOMPRESSED_SIZE",
    "CompressionType",
    "CorruptCompressedDataError",
    "UnsupportedCompressionTypeError",
    "compress",
    "decompress",
]

BytesLike = bytes | bytearray | memoryview

# 64 MiB. A batch arrives capped by message.max.bytes (1 MiB by default), so
# this allows a 64:1 ratio at the default, which covers real payloads, while a
# decompression bomb costs at most this much memory.
MAX_DECOMPRESSED_SIZE = 64 * 1024 * 1024

# First output buffer for a codec whose frame does not state its size: 8x the
# input (typical Kafka payloads compress 2-8x), at least 64 KiB. The buffer
# grows 4x per retry up to ``max_size``.
_INITIAL_RATIO = 8
_INITIAL_MIN = 64 * 1024
_GROWTH = 4

# snappy-java's xerial stream header, and its default uncompressed block size
# (32 KiB), which is what Java producers emit.
XERIAL_MAGIC = b"\x82SNAPPY\x00"
_XERIAL_HEADER = XERIAL_MAGIC + struct.pack(">ii", 1, 1)
_XERIAL_HEADER_SIZE = 16
_XERIAL_BLOCK_SIZE = 32 * 1024
_INT32 = struct.Struct(">i")

# Levels when none is given: zlib's default (6, what Java's Deflater uses)
# and zstd's default (3, what zstd-jni uses); lz4 keeps cramjam's default.
_GZIP_LEVEL = 6
_ZSTD_LEVEL = 3


class CompressionType(IntEnum):
    """Codec ids stored in bits 0-2 of the batch attributes."""

    NONE = 0
    GZIP = 1
    SNAPPY = 2
    LZ4 = 3
    ZSTD = 4


class CorruptCompressedDataError(CodedError):
    """Compressed records could not be decompressed (CORRUPT_MESSAGE)."""

    CODE = ErrorCode.CORRUPT_MESSAGE


class UnsupportedCompressionTypeError(KafkaError):
    """The codec id is not one Kafka defines (UNSUPPORTED_COMPRESSION_TYPE)."""

    CODE: ClassVar[ErrorCode] = ErrorCode.UNSUPPORTED_COMPRESSION_TYPE

    def __init__(self, codec: int) -> None:
        super().__init__(self.CODE, f"unknown compression codec id {codec}")
        self.codec = codec


def _codec(codec: int) -> CompressionType:
    try:
        return CompressionType(codec)
    except ValueError:
        raise UnsupportedCompressionTypeError(codec) from None


def compress(codec: int, data: BytesLike, *, level: int | None = None) -> bytes:
    """Compress ``data`` the way Kafka's Java producer frames it for ``codec``."""
    kind = _codec(codec)
    if kind is CompressionType.NONE:
        return bytes(data)
    if kind is CompressionType.GZIP:
        return bytes(cramjam.gzip.compress(data, level=_GZIP_LEVEL if level is None else level))
    if kind is CompressionType.SNAPPY:
        return _xerial_compress(data)
    if kind is CompressionType.LZ4:
        compressor = cramjam.lz4.Compressor(level=level, content_checksum=False, block_linked=False)
        # The streaming compressor takes bytes only.
        compressor.compress(data if isinstance(data, bytes) else bytes(data))
        return bytes(compressor.finish())
    return bytes(cramjam.zstd.compress(data, level=_ZSTD_LEVEL if level is None else level))


def decompress(codec: int, data: BytesLike, *, max_size: int = MAX_DECOMPRESSED_SIZE) -> bytes:
    """Decompress one batch's records section.

    Raises :class:`UnsupportedCompressionTypeError` for an unknown codec and
    :class:`CorruptCompressedDataError` for anything undecodable or for output
    larger than ``max_size`` bytes.
    """
    kind = _codec(codec)
    if kind is CompressionType.NONE:
        if len(data) > max_size:
            raise CorruptCompressedDataError(f"records section exceeds {max_size} bytes")
        return bytes(data)
    try:
        if kind is CompressionType.SNAPPY:
            return _snappy_decompress(memoryview(data).cast("B"), max_size)
        if kind is CompressionType.GZIP:
            return _bounded(cramjam.gzip.decompress_into, data, max_size, "gzip")
        if kind is CompressionType.LZ4:
            return _bounded(cramjam.lz4.decompress_into, data, max_size, "lz4")
        return _bounded(cramjam.zstd.decompress_into, data, max_size, "zstd")
    except CorruptCompressedDataError:
        raise
    except MemoryError:
        raise
    except Exception as exc:  # cramjam raises several types; all mean "corrupt"
        raise CorruptCompressedDataError(f"cannot decompress {kind.name.lower()} data: {exc}") from exc


def _bounded(
    decompress_into: Callable[[BytesLike, bytearray], int], data: BytesLike, max_size: int, name: str
) -> bytes:
    """Decompress into a buffer that grows until the output fits or hits ``max_size``.

    cramjam refuses to write past the end of the buffer it is given, so memory
    stays bounded; data that does not fit is retried in a larger buffer.
    """
    cap = min(max_size, max(_INITIAL_MIN, len(data) * _INITIAL_RATIO))
    while True:
        out = bytearray(cap)
        try:
            n = decompress_into(data, out)
        except Exception as exc:
            if cap >= max_size:
                raise CorruptCompressedDataError(
                    f"{name}: undecodable or larger than {max_size} bytes ({exc})"
                ) from exc
            cap = min(max_size, cap * _GROWTH)
            continue
        del out[n:]
        return bytes(out)


def _snappy_decompress(data: memoryview, max_size: int) -> bytes:
    if len(data) >= _XERIAL_HEADER_SIZE and data[:8] == XERIAL_MAGIC:
        return _xerial_decompress(data, max_size)
    return _raw_snappy(data, max_size, 0)


def _raw_snappy(block: memoryview, max_size: int, already: int) -> bytes:
    # A raw snappy block starts with its uncompressed length: check it before
    # allocating anything.
    size = cramjam.snappy.decompress_raw_len(block)
    if already + size > max_size:
        raise CorruptCompressedDataError(f"snappy: output exceeds {max_size} bytes")
    return bytes(cramjam.snappy.decompress_raw(block))


def _xerial_decompress(data: memoryview, max_size: int) -> bytes:
    parts: list[bytes] = []
    total = 0
    pos = _XERIAL_HEADER_SIZE
    end = len(data)
    while pos < end:
        # snappy-java also reads streams concatenated header and all.
        if data[pos : pos + 8] == XERIAL_MAGIC:
            pos += _XERIAL_HEADER_SIZE
            continue
        if end - pos < 4:
            raise CorruptCompressedDataError("snappy: truncated xerial block length")
        (length,) = _INT32.unpack_from(data, pos)
        pos += 4
        if length < 0 or length > end - pos:
            raise CorruptCompressedDataError(f"snappy: xerial block length {length} out of range")
        if length:
            part = _raw_snappy(data[pos : pos + length], max_size, total)
            total += len(part)
            parts.append(part)
        pos += length
    return b"".join(parts)


def _xerial_compress(data: BytesLike) -> bytes:
    view = memoryview(data).cast("B")
    out = [_XERIAL_HEADER]
    for start in range(0, len(view), _XERIAL_BLOCK_SIZE):
        block = bytes(cramjam.snappy.compress_raw(view[start : start + _XERIAL_BLOCK_SIZE]))
        out.append(_INT32.pack(len(block)))
        out.append(block)
    return b"".join(out)
