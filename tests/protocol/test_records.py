"""Record batches v2: cross-checked against kafka-python, plus error codes and fuzzing.

kafka-python (``kafka.record``) is an independent implementation of the batch
format. Here it only has gzip of its own; for snappy, lz4 and zstd its codec
hooks are pointed at cramjam, so those cases check the batch framing (and, for
snappy, kafka-python's own xerial framer) rather than the codec itself.
"""

from __future__ import annotations

import contextlib
import random
import struct
import warnings
from collections.abc import Iterator, Sequence
from types import SimpleNamespace
from typing import Any

import cramjam
import pytest
from crc32c import crc32c
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from broker.protocol.compression import CompressionType
from broker.protocol.errors import KafkaError, ProtocolError
from broker.protocol.records import (
    BATCH_HEADER_SIZE,
    BatchHeader,
    ControlType,
    CorruptRecordError,
    EndTxnMarker,
    InvalidRecordError,
    Record,
    RecordTooLargeError,
    TimestampType,
    TruncatedBatchError,
    assign_offsets,
    build_batch,
    build_end_txn_marker,
    check_crc,
    compute_crc,
    control_type,
    iter_batches,
    iter_records,
    parse_batch_header,
    parse_end_txn_marker,
    read_headers,
    record_starts,
    set_base_offset,
    set_max_timestamp,
    set_partition_leader_epoch,
    slice_batch,
    validate_produce_records,
)

with warnings.catch_warnings():
    # kafka-python 3.0.12 calls the deprecated importlib.resources.read_text on import.
    warnings.simplefilter("ignore", DeprecationWarning)
    import kafka.codec as kp_codec
    import kafka.record.default_records as kp_default
    from kafka.record.default_records import DefaultRecordBatch, DefaultRecordBatchBuilder
    from kafka.record.memory_records import MemoryRecords, MemoryRecordsBuilder

CODECS = list(CompressionType)
RecordTuple = tuple[bytes | None, bytes | None, list[tuple[str, bytes | None]], int]

# The v2 header, spelled out independently of the module under test.
HEADER = struct.Struct(">qiibIhiqqqhii")
FIELDS = BatchHeader._fields

SAMPLE: list[RecordTuple] = [
    (b"key-0", b"value " * 50, [], 1_700_000_000_000),
    (None, b"value without key " * 20, [("trace", b"abc"), ("empty", b"")], 1_700_000_000_005),
    (b"key-2", None, [("null-value", None)], 1_699_999_999_990),  # earlier than the first
    (b"", b"", [("ünïcødé", "✓".encode())], 1_700_000_000_100),
]


@contextlib.contextmanager
def kafka_python_codecs() -> Iterator[None]:
    """Give kafka-python snappy, lz4 and zstd by pointing its codec hooks at cramjam."""

    def lz4_encode(data: bytes) -> bytes:
        compressor = cramjam.lz4.Compressor(block_linked=False)
        compressor.compress(bytes(data))
        return bytes(compressor.finish())

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(
            kp_codec,
            "snappy",
            SimpleNamespace(
                compress=lambda d: bytes(cramjam.snappy.compress_raw(bytes(d))),
                decompress=lambda d: bytes(cramjam.snappy.decompress_raw(bytes(d))),
            ),
        )
        mp.setattr(kp_codec, "lz4", SimpleNamespace())
        mp.setattr(kp_codec, "zstd", SimpleNamespace())
        mp.setattr(kp_default, "lz4_encode", lz4_encode)
        mp.setattr(kp_default, "lz4_decode", lambda d: bytes(cramjam.lz4.decompress(bytes(d))))
        mp.setattr(kp_default, "zstd_encode", lambda d: bytes(cramjam.zstd.compress(bytes(d))))
        mp.setattr(kp_default, "zstd_decode", lambda d: bytes(cramjam.zstd.decompress(bytes(d))))
        yield


def kp_build(
    records: Sequence[RecordTuple],
    codec: int = 0,
    *,
    producer_id: int = -1,
    producer_epoch: int = -1,
    base_sequence: int = -1,
    transactional: bool = False,
) -> bytes:
    builder = DefaultRecordBatchBuilder(
        magic=2,
        compression_type=codec,
        is_transactional=transactional,
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        base_sequence=base_sequence,
        batch_size=1 << 30,
    )
    for i, (key, value, headers, ts) in enumerate(records):
        builder.append(i, timestamp=ts, key=key, value=value, headers=headers)
    return bytes(builder.build())


def kp_records(batch: bytes) -> list[tuple[int, int, Any, Any, list[Any]]]:
    parsed = DefaultRecordBatch(batch)
    assert parsed.validate_crc()
    return [(r.offset, r.timestamp, r.key, r.value, list(r.headers)) for r in parsed]


def as_tuples(records: Iterator[Record]) -> list[tuple[int, int, Any, Any, list[Any]]]:
    return [(r.offset, r.timestamp, r.key, r.value, r.headers) for r in records]


def forge(batch: bytes, body: bytes | None = None, **fields: int) -> bytes:
    """Rewrite header fields (and optionally the records section).

    The CRC is recomputed unless ``crc`` is one of the fields given.
    """
    values = dict(zip(FIELDS, HEADER.unpack_from(batch), strict=True))
    rest = batch[HEADER.size :] if body is None else body
    values["batch_length"] = HEADER.size - 12 + len(rest)
    values.update(fields)
    out = bytearray(HEADER.pack(*values.values()) + rest)
    if "crc" not in fields:
        struct.pack_into(">I", out, 17, crc32c(bytes(out[21:])))
    return bytes(out)


def expected(records: Sequence[RecordTuple], base_offset: int = 0) -> list[tuple[Any, ...]]:
    return [(base_offset + i, ts, k, v, h) for i, (k, v, h, ts) in enumerate(records)]


# --------------------------------------------------------------------------
# Header


def test_header_fields_and_derived_values() -> None:
    batch = build_batch(
        SAMPLE,
        base_offset=1000,
        compression=CompressionType.LZ4,
        producer_id=77,
        producer_epoch=3,
        base_sequence=40,
        transactional=True,
        partition_leader_epoch=9,
    )
    header = parse_batch_header(batch)
    assert HEADER.size == BATCH_HEADER_SIZE == 61
    assert header.size == len(batch) == header.batch_length + 12
    assert (header.base_offset, header.partition_leader_epoch, header.magic) == (1000, 9, 2)
    assert header.crc == compute_crc(batch) == crc32c(batch[21:])
    assert (header.last_offset_delta, header.records_count) == (3, 4)
    assert header.last_offset == 1003 and header.next_offset == 1004
    assert header.base_timestamp == SAMPLE[0][3]
    assert header.max_timestamp == max(r[3] for r in SAMPLE)
    assert (header.producer_id, header.producer_epoch, header.base_sequence) == (77, 3, 40)
    assert header.compression == CompressionType.LZ4
    assert header.timestamp_type == TimestampType.CREATE_TIME
    assert header.is_transactional and not header.is_control and not header.has_delete_horizon
    assert header.attributes == 0x13

    with kafka_python_codecs():
        theirs = DefaultRecordBatch(batch)
        assert theirs.validate_crc()
        assert (theirs.base_offset, theirs.last_offset, theirs.leader_epoch) == (1000, 1003, 9)
        assert (theirs.compression_type, theirs.is_transactional, theirs.is_control_batch) == (3, True, False)
        assert (theirs.producer_id, theirs.producer_epoch, theirs.base_sequence) == (77, 3, 40)
        assert theirs.max_timestamp == header.max_timestamp


def test_attribute_bits() -> None:
    base = build_batch([(b"k", b"v", [], 5)])
    cases: list[tuple[int, dict[str, Any]]] = [
        (0x08, {"timestamp_type": 1}),
        (0x20, {"is_control": True}),
        (0x40, {"has_delete_horizon": True}),
        (0x04 | 0x10, {"compression": 4, "is_transactional": True}),
    ]
    for attributes, props in cases:
        header = parse_batch_header(forge(base, attributes=attributes))
        for name, value in props.items():
            assert getattr(header, name) == value


# --------------------------------------------------------------------------
# Cross-checks with kafka-python


@pytest.mark.parametrize("codec", CODECS)
def test_kafka_python_batches_parse_equal(codec: int) -> None:
    with kafka_python_codecs():
        batch = kp_build(SAMPLE, codec, producer_id=5, producer_epoch=1, base_sequence=10)
        theirs = kp_records(batch)
    header = validate_produce_records(batch)[0]
    assert header.compression == codec  # the sample compresses, so it stayed compressed
    assert (header.producer_id, header.producer_epoch, header.base_sequence) == (5, 1, 10)
    assert header.records_count == len(SAMPLE)
    ours = as_tuples(iter_records(batch))
    assert ours == theirs == expected(SAMPLE)


@pytest.mark.parametrize("codec", CODECS)
def test_our_batches_parse_equal_in_kafka_python(codec: int) -> None:
    batch = build_batch(SAMPLE, base_offset=42, compression=codec, producer_id=8, producer_epoch=2, base_sequence=0)
    with kafka_python_codecs():
        theirs = kp_records(batch)
    assert theirs == as_tuples(iter_records(batch)) == expected(SAMPLE, 42)


record_strategy = st.tuples(
    st.none() | st.binary(max_size=200),
    st.none() | st.binary(max_size=200),
    st.lists(st.tuples(st.text(max_size=12), st.none() | st.binary(max_size=40)), max_size=4),
    st.integers(0, 2**45),
)


@given(records=st.lists(record_strategy, min_size=1, max_size=30), codec=st.sampled_from(CODECS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_cross_check_property(records: list[RecordTuple], codec: int) -> None:
    with kafka_python_codecs():
        theirs_batch = kp_build(records, codec)
        ours_batch = build_batch(records, compression=codec)
        assert kp_records(ours_batch) == expected(records)
        their_view = kp_records(theirs_batch)
    assert as_tuples(iter_records(theirs_batch)) == their_view == expected(records)
    # kafka-python sends uncompressed when compression does not pay; both agree on it.
    assert parse_batch_header(theirs_batch).compression == DefaultRecordBatch(theirs_batch).compression_type


@given(
    records=st.lists(record_strategy, min_size=1, max_size=40),
    codec=st.sampled_from(CODECS),
    base_offset=st.integers(0, 2**62),
    timestamp_type=st.sampled_from(list(TimestampType)),
)
@settings(max_examples=200, deadline=None)
def test_build_then_iterate_gives_the_records_back(
    records: list[RecordTuple], codec: int, base_offset: int, timestamp_type: int
) -> None:
    batch = build_batch(records, base_offset=base_offset, compression=codec, timestamp_type=timestamp_type)
    header = parse_batch_header(batch)
    check_crc(batch)
    assert header.compression == codec
    assert header.max_timestamp == max(r[3] for r in records)
    got = list(iter_records(batch))
    want = expected(records, base_offset)
    if timestamp_type == TimestampType.LOG_APPEND_TIME:
        # Every record reads the batch's (broker-set) max timestamp.
        want = [(o, header.max_timestamp, k, v, h) for o, _, k, v, h in want]
    assert as_tuples(iter(got)) == want
    # Record objects feed straight back into the builder.
    again = build_batch(got, base_offset=base_offset, compression=codec)
    assert list(iter_records(again)) == got


def test_records_without_timestamps_take_the_base_timestamp() -> None:
    batch = build_batch([(b"a", b"1"), (b"b", b"2", [("h", None)])], base_timestamp=123)
    assert [(r.timestamp, r.headers) for r in iter_records(batch)] == [(123, []), (123, [("h", None)])]


def test_walk_matches_kafka_python_memory_records() -> None:
    blob = b"".join(
        [
            kp_build(SAMPLE[:2], 1),
            build_batch(SAMPLE, base_offset=2),
            build_batch(SAMPLE[1:], base_offset=6, compression=CompressionType.ZSTD),
            kp_build(SAMPLE[3:]),
        ]
    )
    ours = list(iter_batches(blob, check_crc=True))
    theirs = list(MemoryRecords(blob))
    assert [h.base_offset for h, _ in ours] == [b.base_offset for b in theirs]
    assert [len(v) for _, v in ours] == [b.size_in_bytes for b in theirs]
    # Views are zero-copy slices of the input.
    assert all(v.obj is blob for _, v in ours)
    # A fetch response may end in a partial batch: dropped, like kafka-python does.
    for cut in range(len(blob) + 1):
        partial = blob[:cut]
        assert len(list(iter_batches(partial, allow_partial=True))) == len(list(MemoryRecords(partial)))
        complete = sum(len(v) for _, v in iter_batches(partial, allow_partial=True))
        if complete != cut:
            with pytest.raises(TruncatedBatchError):
                list(iter_batches(partial))


def test_iter_batches_from_a_position() -> None:
    first, second = build_batch(SAMPLE), build_batch(SAMPLE, base_offset=4)
    got = list(iter_batches(bytearray(first + second), len(first)))
    assert [h.base_offset for h, _ in got] == [4]


# --------------------------------------------------------------------------
# Errors and their Kafka codes


def assert_code(exc: BaseException, code: int) -> None:
    assert isinstance(exc, ProtocolError) and isinstance(exc, KafkaError)
    assert exc.error_code == code == exc.code


def test_crc_corruption_is_detected() -> None:
    batch = build_batch(SAMPLE, compression=CompressionType.GZIP)
    check_crc(batch)
    for pos in range(21, len(batch)):
        bad = bytearray(batch)
        bad[pos] ^= 0x01
        for call in (
            lambda bad=bad: check_crc(bad),
            lambda bad=bad: list(iter_batches(bad, check_crc=True)),
            lambda bad=bad: validate_produce_records(bytes(bad)),
        ):
            with pytest.raises(ProtocolError) as info:
                call()
            # CRC first; a flipped codec bit may name the codec instead.
            assert info.value.error_code in (2, 76)  # type: ignore[attr-defined]
        with pytest.raises(CorruptRecordError) as crc_info:
            check_crc(bad)
        assert_code(crc_info.value, 2)


def test_fields_outside_the_crc() -> None:
    batch = bytearray(build_batch(SAMPLE))
    for pos in list(range(8)) + list(range(12, 16)):
        bad = bytearray(batch)
        bad[pos] ^= 0xFF
        check_crc(bad)  # base offset and leader epoch are not covered


def test_truncated_input() -> None:
    batch = build_batch(SAMPLE)
    for cut in range(len(batch)):
        part = batch[:cut]
        if cut:
            with pytest.raises(TruncatedBatchError) as info:
                list(iter_batches(part))
            assert_code(info.value, 87)
        assert list(iter_batches(part, allow_partial=True)) == []
        with pytest.raises(InvalidRecordError) as info2:
            validate_produce_records(part)
        assert_code(info2.value, 87)
        with pytest.raises(TruncatedBatchError):
            list(iter_records(part))
        with pytest.raises(TruncatedBatchError):
            check_crc(part)
        if cut < BATCH_HEADER_SIZE:
            with pytest.raises(TruncatedBatchError):
                parse_batch_header(part)


@pytest.mark.parametrize("magic", [0, 1])
def test_legacy_magic_is_invalid_record(magic: int) -> None:
    builder = MemoryRecordsBuilder(magic=magic, compression_type=0, batch_size=1 << 20)
    builder.append(timestamp=1000 if magic else None, key=b"k", value=b"v")
    builder.close()
    legacy = bytes(builder.buffer())
    assert legacy[16] == magic
    for call in (lambda: validate_produce_records(legacy), lambda: list(iter_batches(legacy))):
        with pytest.raises(InvalidRecordError) as info:
            call()
        assert_code(info.value, 87)


@pytest.mark.parametrize("magic", [3, 127, -1, -128])
def test_unknown_magic_is_corrupt(magic: int) -> None:
    bad = forge(build_batch(SAMPLE), magic=magic)
    for call in (
        lambda: validate_produce_records(bad),
        lambda: parse_batch_header(bad),
        lambda: list(iter_records(bad)),
    ):
        with pytest.raises(CorruptRecordError) as info:
            call()
        assert_code(info.value, 2)


@pytest.mark.parametrize("length", [-1, 0, 13, 48])
def test_impossible_batch_length_is_corrupt(length: int) -> None:
    bad = bytearray(build_batch(SAMPLE))
    struct.pack_into(">i", bad, 8, length)
    with pytest.raises(CorruptRecordError) as info:
        list(iter_batches(bad, allow_partial=True))
    assert_code(info.value, 2)


def test_produce_validation_accepts_client_batches() -> None:
    for batch in (
        kp_build(SAMPLE, 1, producer_id=3, producer_epoch=0, base_sequence=0, transactional=True),
        build_batch(SAMPLE, compression=CompressionType.ZSTD),
    ):
        [header] = validate_produce_records(batch, api_version=11, max_batch_size=len(batch))
        assert header == parse_batch_header(batch)
    assert validate_produce_records(memoryview(batch))[0].records_count == len(SAMPLE)


def test_produce_validation_rejections() -> None:
    good = build_batch(SAMPLE, producer_id=4, producer_epoch=0, base_sequence=7)
    cases: list[tuple[Any, dict[str, Any], int]] = [
        (None, {}, 87),  # null records
        (b"", {}, 87),  # no batch
        (good + good, {}, 87),  # more than one batch per partition
        (good + good[:30], {}, 87),  # trailing partial batch
        (forge(good, base_offset=5), {}, 87),  # clients send base offset 0
        (forge(good, records_count=3), {}, 87),  # count vs last offset delta
        (forge(good, records_count=0, last_offset_delta=-1), {}, 87),
        (forge(good, last_offset_delta=-5), {}, 87),
        (forge(good, attributes=0x20), {}, 87),  # control batch from a client
        (forge(good, base_sequence=-1), {}, 87),  # producer id without a sequence
        (forge(good, attributes=5), {}, 76),  # undefined codec
        (forge(good, attributes=7), {}, 76),
        (build_batch(SAMPLE, compression=4), {"api_version": 6}, 76),  # zstd needs Produce v7
        (good, {"max_batch_size": len(good) - 1}, 10),
        (forge(good, crc=0), {}, 2),
    ]
    for records, kwargs, code in cases:
        with pytest.raises(ProtocolError) as info:
            validate_produce_records(records, **kwargs)
        assert info.value.error_code == code, (records, kwargs)  # type: ignore[attr-defined]
    with pytest.raises(RecordTooLargeError):
        validate_produce_records(good, max_batch_size=60)


# --------------------------------------------------------------------------
# In-place edits


def test_offset_and_epoch_rewrite_keep_the_crc_valid() -> None:
    batch = bytearray(kp_build(SAMPLE, 1))
    crc = parse_batch_header(batch).crc
    set_base_offset(batch, 123_456_789_000)
    set_partition_leader_epoch(batch, 17)
    header = parse_batch_header(batch)
    assert (header.base_offset, header.partition_leader_epoch, header.crc) == (123_456_789_000, 17, crc)
    check_crc(batch)
    assert [r.offset for r in iter_records(batch)] == [123_456_789_000 + i for i in range(4)]
    assert DefaultRecordBatch(bytes(batch)).validate_crc()


def test_assign_offsets_over_several_batches() -> None:
    blob = bytearray(build_batch(SAMPLE) + kp_build(SAMPLE[:1]) + build_batch(SAMPLE[:2], compression=2))
    assert assign_offsets(blob, 500, partition_leader_epoch=3) == 507
    batches = list(iter_batches(blob, check_crc=True))
    assert [(h.base_offset, h.last_offset, h.partition_leader_epoch) for h, _ in batches] == [
        (500, 503, 3),
        (504, 504, 3),
        (505, 506, 3),
    ]
    # Through a view at an offset, on one batch only, leaving the rest alone.
    size = batches[0].header.size
    set_base_offset(memoryview(blob), 9, pos=size)
    assert [h.base_offset for h, _ in iter_batches(blob)] == [500, 9, 505]
    # A bad batch anywhere leaves the buffer untouched.
    broken = bytearray(blob[:-1])
    with pytest.raises(TruncatedBatchError):
        assign_offsets(broken, 0)
    assert broken == blob[:-1]


def test_set_max_timestamp_for_log_append_time() -> None:
    batch = bytearray(kp_build(SAMPLE, 1))
    set_max_timestamp(batch, TimestampType.LOG_APPEND_TIME, 1_800_000_000_000)
    header = parse_batch_header(batch)
    assert header.timestamp_type == TimestampType.LOG_APPEND_TIME
    assert header.compression == 1
    check_crc(batch)
    assert {r.timestamp for r in iter_records(batch)} == {1_800_000_000_000}
    assert {t for _, t, *_ in kp_records(bytes(batch))} == {1_800_000_000_000}
    set_max_timestamp(batch, TimestampType.CREATE_TIME, 5)
    assert parse_batch_header(batch).timestamp_type == TimestampType.CREATE_TIME
    check_crc(batch)


# --------------------------------------------------------------------------
# Control batches


@pytest.mark.parametrize("commit", [True, False])
def test_end_txn_marker_round_trip(commit: bool) -> None:
    batch = build_end_txn_marker(
        commit=commit,
        coordinator_epoch=12,
        producer_id=99,
        producer_epoch=4,
        base_offset=70,
        timestamp=1_700_000_000_000,
        partition_leader_epoch=2,
    )
    header = parse_batch_header(batch)
    assert header.is_control and header.is_transactional
    assert (header.producer_id, header.producer_epoch, header.base_sequence) == (99, 4, -1)
    assert header.size == 61 + 17  # Kafka's fixed marker batch size
    [record] = iter_records(batch)
    assert record.offset == 70 and record.timestamp == 1_700_000_000_000
    marker = parse_end_txn_marker(record.key, record.value)
    assert marker == EndTxnMarker(ControlType.COMMIT if commit else ControlType.ABORT, 12)
    assert marker.is_commit is commit
    [theirs] = list(DefaultRecordBatch(batch))
    assert (theirs.commit, theirs.abort, theirs.version) == (commit, not commit, 0)
    # Clients may not send it.
    with pytest.raises(InvalidRecordError):
        validate_produce_records(forge(batch, base_offset=0))


def test_control_record_parsing() -> None:
    kraft = build_batch([(struct.pack(">hh", 0, 2), b"leader change", [], 1)], is_control=True)
    [record] = iter_records(kraft)
    assert control_type(record.key) == ControlType.LEADER_CHANGE
    # Newer key/value versions parse as version 0, as in Kafka.
    assert parse_end_txn_marker(struct.pack(">hh", 3, 1), struct.pack(">hi", 2, 7)) == (
        ControlType.COMMIT,
        7,
    )
    for key, value in [
        (None, struct.pack(">hi", 0, 1)),
        (b"\x00\x00\x00", struct.pack(">hi", 0, 1)),  # short key
        (struct.pack(">hh", -1, 1), struct.pack(">hi", 0, 1)),  # negative key version
        (struct.pack(">hh", 0, 2), struct.pack(">hi", 0, 1)),  # not a transaction marker
        (struct.pack(">hh", 0, 0), b"\x00\x00\x00"),  # short value
        (struct.pack(">hh", 0, 0), None),
        (struct.pack(">hh", 0, 0), struct.pack(">hi", -2, 1)),  # negative value version
    ]:
        with pytest.raises(InvalidRecordError) as info:
            parse_end_txn_marker(key, value)
        assert_code(info.value, 87)


# --------------------------------------------------------------------------
# Malformed records


def varint(value: int) -> bytes:
    raw = (value << 1) ^ (value >> 63)
    out = bytearray()
    while raw >= 0x80:
        out.append((raw & 0x7F) | 0x80)
        raw >>= 7
    out.append(raw)
    return bytes(out)


def one_record(body: bytes) -> bytes:
    return varint(len(body)) + body


@pytest.mark.parametrize(
    ("body", "count"),
    [
        (one_record(b"\x00\x00\x00" + varint(10) + b"abc" + varint(-1) + varint(0)), 1),  # key past record
        (one_record(b"\x00\x00\x00" + varint(-1) + varint(-1) + varint(-1)), 1),  # negative header count
        (one_record(b"\x00\x00\x00" + varint(-1) + varint(-1) + varint(1) + varint(-1)), 1),  # null header key
        (one_record(b"\x00\x00\x00" + varint(-1) + varint(-1) + varint(0) + b"xx"), 1),  # size mismatch
        (one_record(b"\x00\x00\x00" + varint(-1) + varint(-1) + varint(0)) + b"extra", 1),  # bytes left
        (one_record(b"\x00\x00\x00" + varint(-1) + varint(-1) + varint(0)), 2),  # fewer than counted
        (b"\xff\xff\xff\xff\xff\x01", 1),  # six-byte varint
        (varint(-7), 1),  # negative record length
        (b"", -1),  # negative count
    ],
)
def test_malformed_records_are_invalid_record(body: bytes, count: int) -> None:
    batch = forge(build_batch([(None, None)]), body=body, records_count=count)
    with pytest.raises(InvalidRecordError) as info:
        list(iter_records(batch))
    assert_code(info.value, 87)


def header_bytes(headers: Sequence[tuple[bytes, bytes | None]]) -> bytes:
    out = varint(len(headers))
    for key, value in headers:
        out += varint(len(key)) + key + (varint(-1) if value is None else varint(len(value)) + value)
    return out


def test_read_headers_reads_keys_and_nullable_values_to_the_next_position() -> None:
    data = b"xx" + header_bytes([(b"a", b"1"), (b"\xff", None), (b"", b"")]) + b"tail"
    headers, pos = read_headers(data, 2, len(data) - 4)
    assert headers == [("a", b"1"), ("\ufffd", None), ("", b"")]  # invalid UTF-8 replaced
    assert data[pos:] == b"tail"
    assert read_headers(varint(0), 0, 1) == ([], 1)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (varint(-1), "invalid number of record headers -1"),
        (varint(3) + b"\x00\x00", "invalid number of record headers 3"),  # more than the bytes allow
        (varint(1) + varint(-1) + varint(-1), "invalid record header key size -1"),
        (varint(1) + varint(4) + b"ab" + varint(-1), "invalid record header key size 4"),
        (varint(1) + varint(1) + b"k" + varint(3) + b"v", "record header value runs past the end"),
    ],
)
def test_read_headers_refuses_sizes_past_the_record(data: bytes, message: str) -> None:
    with pytest.raises(InvalidRecordError, match=message):
        read_headers(data, 0, len(data))


def test_empty_batch_has_no_records_and_is_not_decompressed() -> None:
    batch = forge(build_batch([(b"k", b"v", [], 1)]), body=b"not zstd", records_count=0, attributes=4)
    assert list(iter_records(batch)) == []


# --------------------------------------------------------------------------
# Fuzzing: garbage in, ProtocolError (or a result) out


def exercise(blob: bytes) -> None:
    for call in (
        lambda: list(iter_batches(blob, allow_partial=True, check_crc=True)),
        lambda: list(iter_batches(blob)),
        lambda: validate_produce_records(blob),
        lambda: list(iter_records(blob, max_uncompressed_size=1 << 20)),
        lambda: check_crc(blob),
    ):
        try:
            call()
        except ProtocolError:
            pass


def test_fuzz_bit_flips_and_random_bytes() -> None:
    rng = random.Random(4932)
    seeds = [build_batch(SAMPLE * 3, compression=c) for c in CODECS]
    seeds += [
        kp_build(SAMPLE, 1),
        build_end_txn_marker(commit=True, coordinator_epoch=1, producer_id=1, producer_epoch=0, timestamp=0),
    ]
    for _ in range(3000):
        if rng.random() < 0.2:
            blob = rng.randbytes(rng.randrange(0, 150))
        else:
            buf = bytearray(rng.choice(seeds))
            for _ in range(rng.randrange(1, 4)):
                buf[rng.randrange(len(buf))] ^= 1 << rng.randrange(8)
            if rng.random() < 0.2:
                del buf[rng.randrange(len(buf)) :]
            blob = bytes(buf)
        exercise(blob)
        # Bit flips behind a valid CRC reach the record decoder for real.
        if len(blob) >= BATCH_HEADER_SIZE and blob[16] == 2:
            length = struct.unpack_from(">i", blob, 8)[0]
            if 49 <= length and length + 12 <= len(blob):
                exercise(forge(blob[: length + 12]))


@given(st.binary(max_size=300))
@settings(max_examples=300, deadline=None)
def test_fuzz_hypothesis_bytes(blob: bytes) -> None:
    exercise(blob)
    exercise(forge(build_batch([(None, None)]), body=blob, records_count=len(blob) % 5))


# -- slicing a stored batch (shared share-partitions) ----------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.lists(st.integers(0, 20_000), min_size=1, max_size=40),
    data=st.data(),
)
def test_a_slice_holds_exactly_the_chosen_records_with_their_offsets(sizes: list[int], data) -> None:
    records = [(b"k%d" % i, b"v" * size, [("h", b"%d" % i)], None) for i, size in enumerate(sizes)]
    batch = build_batch(records, base_offset=500, base_timestamp=1_700_000_000_000)
    starts = record_starts(batch)
    assert starts is not None and len(starts) == len(sizes) + 1 and starts[-1] == len(batch)
    first = data.draw(st.integers(0, len(sizes) - 1))
    last = data.draw(st.integers(first, len(sizes) - 1))
    sliced = slice_batch(batch, starts, first, last)
    check_crc(sliced)
    ((header, view),) = list(iter_batches(sliced))
    whole = {r.offset: r for _, v in iter_batches(batch) for r in iter_records(v)}
    got = list(iter_records(view))
    assert [r.offset for r in got] == list(range(500 + first, 500 + last + 1))
    assert got == [whole[r.offset] for r in got]  # keys, values, headers, timestamps as stored
    assert header.base_offset == 500 and header.last_offset == 500 + last
    assert header.records_count == last - first + 1


def test_batches_that_cannot_be_sliced() -> None:
    rows: list[tuple[None, bytes, list, None]] = [(None, b"x" * 100, [], None)] * 50
    assert record_starts(build_batch(rows, compression=CompressionType.GZIP)) is None
    assert record_starts(build_batch(rows, is_control=True)) is None
    holes = bytearray(build_batch(rows))
    struct.pack_into(">i", holes, 23, 60)  # last offset delta past the record count: compacted
    assert record_starts(bytes(holes)) is None
    torn = bytearray(build_batch(rows))
    struct.pack_into(">i", torn, 57, 51)  # one record more than the batch holds
    assert record_starts(bytes(torn)) is None
