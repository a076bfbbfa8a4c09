"""Codecs: round trips, Kafka's wire framings, error mapping, the size cap."""

from __future__ import annotations

import gzip
import os
import random
import struct

import cramjam
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from broker.protocol.compression import (
    CompressionType,
    CorruptCompressedDataError,
    UnsupportedCompressionTypeError,
    compress,
    decompress,
)
from broker.protocol.errors import ProtocolError

CODECS = list(CompressionType)
COMPRESSED = [c for c in CompressionType if c is not CompressionType.NONE]
XERIAL_MAGIC = b"\x82SNAPPY\x00"

# Compressible and incompressible data, spanning several xerial (32 KiB) and
# lz4 (64 KiB) blocks.
SAMPLES = [
    b"",
    b"x",
    b"hello kafka " * 1000,
    os.urandom(100_000),
    bytes(range(256)) * 700,
]


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("data", SAMPLES, ids=["empty", "one", "text", "random", "ramp"])
def test_round_trip(codec: int, data: bytes) -> None:
    packed = compress(codec, data)
    assert isinstance(packed, bytes)
    assert decompress(codec, packed) == data
    # Views and bytearrays are accepted on both sides.
    assert decompress(codec, memoryview(bytearray(packed))) == data
    assert decompress(codec, compress(codec, bytearray(data))) == data


@given(data=st.binary(max_size=5000), codec=st.sampled_from(CODECS))
@settings(max_examples=200, deadline=None)
def test_round_trip_property(data: bytes, codec: int) -> None:
    assert decompress(codec, compress(codec, data)) == data


def test_snappy_encodes_xerial_framing_like_java() -> None:
    data = b"abcdefgh" * 10_000  # 80 000 bytes -> three 32 KiB blocks
    packed = compress(CompressionType.SNAPPY, data)
    assert packed[:8] == XERIAL_MAGIC
    assert struct.unpack(">ii", packed[8:16]) == (1, 1)
    pos, blocks, out = 16, 0, b""
    while pos < len(packed):
        (length,) = struct.unpack_from(">i", packed, pos)
        out += bytes(cramjam.snappy.decompress_raw(packed[pos + 4 : pos + 4 + length]))
        pos += 4 + length
        blocks += 1
    assert blocks == 3
    assert out == data


def test_snappy_decodes_raw_block_as_librdkafka_sends() -> None:
    data = b"librdkafka raw snappy " * 500
    raw = bytes(cramjam.snappy.compress_raw(data))
    assert decompress(CompressionType.SNAPPY, raw) == data


def _xerial(data: bytes, block: int, header: bytes) -> bytes:
    out = header
    for i in range(0, len(data), block):
        chunk = bytes(cramjam.snappy.compress_raw(data[i : i + block]))
        out += struct.pack(">i", len(chunk)) + chunk
    return out


def test_snappy_decodes_xerial_variants() -> None:
    data = os.urandom(5000) + b"z" * 70_000
    standard = XERIAL_MAGIC + struct.pack(">ii", 1, 1)
    # Any block size, version fields written little-endian (seen in the wild),
    # and two streams concatenated (snappy-java reads those too).
    assert decompress(CompressionType.SNAPPY, _xerial(data, 1000, standard)) == data
    little = XERIAL_MAGIC + struct.pack("<ii", 1, 1)
    assert decompress(CompressionType.SNAPPY, _xerial(data, 32 * 1024, little)) == data
    twice = _xerial(data, 4096, standard) + _xerial(data, 8192, standard)
    assert decompress(CompressionType.SNAPPY, twice) == data + data
    assert decompress(CompressionType.SNAPPY, standard) == b""


def test_lz4_frame_is_what_java_reads() -> None:
    packed = compress(CompressionType.LZ4, b"frame " * 30_000)
    assert packed[:4] == b"\x04\x22\x4d\x18"  # LZ4 frame magic, little-endian
    flg, bd = packed[4], packed[5]
    assert flg >> 6 == 1  # frame version 01
    assert flg & 0x20  # independent blocks: Java refuses linked ones
    assert flg & 0x03 == 0  # reserved bits
    assert (bd >> 4) & 0x07 in (4, 5, 6, 7)  # a block size Java supports
    # Frames with linked blocks (other producers) decode too.
    linked = bytes(cramjam.lz4.compress(b"linked " * 30_000))
    assert decompress(CompressionType.LZ4, linked) == b"linked " * 30_000


def test_gzip_is_standard_and_multi_member() -> None:
    data = b"gzip " * 4000
    assert gzip.decompress(compress(CompressionType.GZIP, data)) == data
    two = gzip.compress(b"first") + gzip.compress(b"second")
    assert decompress(CompressionType.GZIP, two) == b"firstsecond"


def test_zstd_streaming_frame_and_multiple_frames() -> None:
    streamer = cramjam.zstd.Compressor()
    streamer.compress(b"no content size " * 1000)
    frame = bytes(streamer.finish())
    assert decompress(CompressionType.ZSTD, frame) == b"no content size " * 1000
    two = bytes(cramjam.zstd.compress(b"a" * 10)) + bytes(cramjam.zstd.compress(b"b" * 10))
    assert decompress(CompressionType.ZSTD, two) == b"a" * 10 + b"b" * 10


@pytest.mark.parametrize("codec", [5, 6, 7, -1, 8])
def test_unknown_codec_is_unsupported_compression_type(codec: int) -> None:
    with pytest.raises(UnsupportedCompressionTypeError) as info:
        decompress(codec, b"whatever")
    assert info.value.error_code == 76
    assert isinstance(info.value, ProtocolError)
    with pytest.raises(UnsupportedCompressionTypeError):
        compress(codec, b"whatever")


@pytest.mark.parametrize("codec", COMPRESSED)
def test_corrupt_input_is_corrupt_message(codec: int) -> None:
    good = compress(codec, b"payload " * 2000)
    # (b"\x00" would be a valid raw snappy block: "zero bytes follow".)
    for bad in (b"", b"\x05", good[: len(good) // 2], b"\xff" * 64):
        with pytest.raises(CorruptCompressedDataError) as info:
            decompress(codec, bad)
        assert info.value.error_code == 2


def test_corrupt_xerial_block_lengths() -> None:
    header = XERIAL_MAGIC + struct.pack(">ii", 1, 1)
    for bad in (
        header + b"\x00\x00",  # truncated length
        header + struct.pack(">i", -5),  # negative length
        header + struct.pack(">i", 100) + b"abc",  # runs past the end
        header + struct.pack(">i", 3) + b"\xff\xff\xff",  # not snappy
    ):
        with pytest.raises(CorruptCompressedDataError):
            decompress(CompressionType.SNAPPY, bad)


@pytest.mark.parametrize("codec", CODECS)
def test_output_cap_stops_bombs(codec: int) -> None:
    data = bytes(3 * 1024 * 1024)  # zeros: shrinks to a few KiB
    packed = compress(codec, data)
    # Far beyond the first output guess: the buffer has to grow to fit.
    assert decompress(codec, packed, max_size=len(data)) == data
    with pytest.raises(CorruptCompressedDataError) as info:
        decompress(codec, packed, max_size=1024 * 1024)
    assert info.value.error_code == 2


def test_fuzz_decompress_raises_only_protocol_errors() -> None:
    rng = random.Random(932)
    seeds = {c: compress(c, b"fuzz me " * 300 + os.urandom(50)) for c in COMPRESSED}
    for _ in range(3000):
        codec = rng.choice(COMPRESSED)
        if rng.random() < 0.3:
            blob = rng.randbytes(rng.randrange(0, 200))
        else:
            buf = bytearray(seeds[codec])
            for _ in range(rng.randrange(1, 4)):
                buf[rng.randrange(len(buf))] ^= 1 << rng.randrange(8)
            blob = bytes(buf[: rng.randrange(len(buf) + 1)] if rng.random() < 0.3 else buf)
        try:
            decompress(codec, blob, max_size=1024 * 1024)
        except ProtocolError:
            pass
