"""PartitionLog: appends, reads, indexes, timestamps, retention, DeleteRecords."""

from __future__ import annotations

import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from broker.log.checkpoint import LOG_START_OFFSET_CHECKPOINT, read_offset_checkpoint
from broker.log.config import LogConfig
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.records import check_crc, iter_batches, parse_batch_header
from tests.unit.test_log_helpers import Clock, all_values, batch, batch_offsets, crash, open_log

SMALL = LogConfig(segment_bytes=1000, index_interval_bytes=150)


def test_append_assigns_consecutive_offsets_and_read_round_trips(tmp_path):
    log = open_log(tmp_path, SMALL)
    infos = [log.append(batch(3, value_size=20)) for _ in range(30)]
    assert [(i.base_offset, i.last_offset) for i in infos] == [(3 * k, 3 * k + 2) for k in range(30)]
    assert all(i.record_count == 3 and not i.duplicate and i.log_append_time_ms == -1 for i in infos)
    assert log.log_end_offset == log.high_watermark == log.last_stable_offset == 90
    assert len(log.segments) > 3  # rolled by size
    assert all(s.size <= SMALL.segment_bytes for s in log.segments)
    names = sorted(p.name for p in (tmp_path / "t-0").iterdir() if p.suffix == ".log")
    assert names[0] == "00000000000000000000.log"
    assert names == [f"{s.base_offset:020d}.log" for s in log.segments]
    result = log.read(0, 1 << 20)
    assert batch_offsets(result.records) == [(3 * k, 3 * k + 2) for k in range(30)]
    assert [o for o, _ in all_values(result.records)] == list(range(90))
    for _, view in iter_batches(result.records):
        check_crc(view)  # stored exactly as received: the CRC still holds
    log.close()


def test_stored_bytes_are_the_appended_bytes_with_base_offset_patched(tmp_path):
    log = open_log(tmp_path)
    log.append(batch(2))
    raw = batch(5, value_size=7)
    info = log.append(raw)
    stored = log.read(info.base_offset, 1 << 20).records
    assert stored[8:] == raw[8:]
    assert struct.unpack(">q", stored[:8])[0] == 2
    log.close()


def test_read_from_any_offset_returns_the_batch_holding_it(tmp_path):
    log = open_log(tmp_path, SMALL)
    for k in range(40):
        log.append(batch(1 + k % 4))
    assert any(len(s.offset_index) > 0 for s in log.segments)  # the sparse index is in use
    for offset in range(log.log_end_offset):
        result = log.read(offset, 1)
        (base, last), *_ = batch_offsets(result.records)
        assert base <= offset <= last
        assert result.first_offset == base
    log.close()


def test_read_max_bytes_and_min_one(tmp_path):
    log = open_log(tmp_path)
    sizes = []
    for _ in range(5):
        raw = batch(2, value_size=50)
        sizes.append(len(raw))
        log.append(raw)
    # min_one: the first batch whole even though max_bytes is smaller.
    assert batch_offsets(log.read(0, 10).records) == [(0, 1)]
    assert log.read(0, 10, min_one=False).records == b""
    # exactly two batches fit; a partial third is never returned.
    assert batch_offsets(log.read(0, sizes[0] + sizes[1] + 5).records) == [(0, 1), (2, 3)]
    assert batch_offsets(log.read(2, sizes[0] + sizes[1]).records) == [(2, 3), (4, 5)]
    log.close()


def test_read_never_passes_max_offset(tmp_path):
    log = open_log(tmp_path)
    for _ in range(4):
        log.append(batch(3))
    assert batch_offsets(log.read(0, 1 << 20, max_offset=6).records) == [(0, 2), (3, 5)]
    assert log.read(6, 1 << 20, max_offset=6).records == b""
    # A batch straddling max_offset is not returned at all.
    assert batch_offsets(log.read(0, 1 << 20, max_offset=4).records) == [(0, 2)]
    log.close()


def test_read_out_of_range(tmp_path):
    log = open_log(tmp_path)
    log.append(batch(3))
    assert log.read(3, 100) == (b"", 3)  # the log end: nothing yet
    for offset in (4, 100, -1):
        with pytest.raises(KafkaError) as err:
            log.read(offset, 100)
        assert err.value.error_code == ErrorCode.OFFSET_OUT_OF_RANGE == 1
    log.close()


def test_reads_cross_segments_up_to_max_bytes(tmp_path):
    log = open_log(tmp_path, LogConfig(segment_bytes=300))
    for _ in range(10):
        log.append(batch(1, value_size=60))
    assert len(log.segments) >= 5
    assert [o for o, _ in all_values(log.read(0, 1 << 20).records)] == list(range(10))
    log.close()


def test_offset_for_timestamp_and_max_timestamp(tmp_path):
    log = open_log(tmp_path, SMALL)
    base = 1_700_000_000_000
    # Timestamps rise in steps of 10 but the batch at offsets 30..32 holds the max.
    for k in range(20):
        stamps = [base + 10 * (3 * k + i) for i in range(3)]
        if k == 10:
            stamps = [base + 5_000, base + 9_000, base + 100]
        log.append(batch(timestamps=stamps))
    assert log.offset_for_timestamp(base) == (0, base)
    assert log.offset_for_timestamp(base + 1) == (1, base + 10)
    assert log.offset_for_timestamp(base + 255) == (26, base + 260)
    assert log.offset_for_timestamp(base + 8_000) == (31, base + 9_000)
    assert log.offset_for_timestamp(base + 9_001) is None
    assert log.max_timestamp() == (31, base + 9_000)
    log.close()
    reopened = open_log(tmp_path, SMALL)  # same answers from the indexes on disk
    assert reopened.offset_for_timestamp(base + 255) == (26, base + 260)
    assert reopened.max_timestamp() == (31, base + 9_000)
    reopened.close()


def test_max_timestamp_of_empty_log(tmp_path):
    log = open_log(tmp_path)
    assert log.max_timestamp() == (-1, -1)
    assert log.offset_for_timestamp(0) is None
    log.close()


def test_log_append_time(tmp_path):
    clock = Clock(1_800_000_000_000)
    log = open_log(tmp_path, LogConfig(message_timestamp_type="LogAppendTime"), clock)
    info = log.append(batch(3, ts=5))
    assert info.log_append_time_ms == clock.now
    stored = log.read(0, 1 << 20).records
    header = parse_batch_header(stored)
    assert header.timestamp_type == 1 and header.max_timestamp == clock.now
    check_crc(stored)
    assert log.offset_for_timestamp(clock.now) == (0, clock.now)
    assert log.max_timestamp() == (0, clock.now)
    assert log.append(batch(1), log_append_time_ms=clock.now + 7).log_append_time_ms == clock.now + 7
    log.close()


def test_size_limits(tmp_path):
    log = open_log(tmp_path, LogConfig(max_message_bytes=200, segment_bytes=1000))
    with pytest.raises(KafkaError) as err:
        log.append(batch(1, value_size=300))
    assert err.value.error_code == ErrorCode.MESSAGE_TOO_LARGE
    with pytest.raises(KafkaError) as err:
        log.append(b"".join(batch(1, value_size=100) for _ in range(10)))
    assert err.value.error_code == ErrorCode.RECORD_LIST_TOO_LARGE
    assert log.log_end_offset == 0
    log.close()


def test_time_based_roll(tmp_path):
    clock = Clock()
    log = open_log(tmp_path, LogConfig(segment_ms=1000), clock)
    log.append(batch(1, ts=clock.now))
    assert not log.maybe_roll(clock.now + 1000)
    assert log.maybe_roll(clock.now + 1001)
    assert len(log.segments) == 2 and log.active_segment.base_offset == 1
    # An append whose timestamp is past segment.ms after the segment's first batch rolls too.
    log.append(batch(1, ts=clock.now + 2000))
    log.append(batch(1, ts=clock.now + 3001))
    assert [s.base_offset for s in log.segments] == [0, 1, 2]
    log.close()


def test_retention_by_time_deletes_old_segments_and_advances_log_start(tmp_path):
    clock = Clock()
    config = LogConfig(segment_bytes=400, retention_ms=10_000)
    log = open_log(tmp_path, config, clock)
    old = clock.now - 20_000
    for _ in range(6):
        log.append(batch(1, value_size=100, ts=old))
    for _ in range(3):
        log.append(batch(1, value_size=100, ts=clock.now))
    first_new = next(s for s in log.segments if s.max_timestamp == clock.now).base_offset
    deleted = log.apply_retention(clock.now)
    assert deleted >= 1
    assert log.log_start_offset == log.segments[0].base_offset
    assert all(s.max_timestamp >= clock.now - 10_000 for s in log.segments)
    assert log.log_start_offset <= first_new
    with pytest.raises(KafkaError):
        log.read(0, 100)
    assert log.read(log.log_start_offset, 100).records
    assert not (tmp_path / "t-0" / "00000000000000000000.log").exists()
    log.close()


def test_retention_rolls_an_expired_active_segment(tmp_path):
    clock = Clock()
    log = open_log(tmp_path, LogConfig(retention_ms=1000), clock)
    log.append(batch(5, ts=clock.now - 5000))
    assert log.apply_retention(clock.now) == 1
    assert [s.base_offset for s in log.segments] == [5]
    assert log.log_start_offset == log.log_end_offset == 5
    assert log.read(5, 100).records == b""
    assert log.append(batch(1)).base_offset == 5
    log.close()


def test_retention_by_bytes(tmp_path):
    log = open_log(tmp_path, LogConfig(segment_bytes=400, retention_bytes=500, retention_ms=-1))
    for _ in range(12):
        log.append(batch(1, value_size=100))
    log.apply_retention(Clock().now)
    assert log.size_bytes <= 500 + 400
    assert log.size_bytes - log.segments[0].size < 500
    assert log.log_start_offset == log.segments[0].base_offset > 0
    log.close()


def test_no_time_retention_without_delete_policy(tmp_path):
    clock = Clock()
    log = open_log(tmp_path, LogConfig(segment_bytes=300, retention_ms=1, cleanup_policy=("compact",)), clock)
    for _ in range(5):
        log.append(batch(1, value_size=100, ts=0))
    assert log.apply_retention(clock.now) == 0
    log.close()


def test_delete_records(tmp_path):
    log = open_log(tmp_path, LogConfig(segment_bytes=400))
    for _ in range(10):
        log.append(batch(2, value_size=100))
    assert len(log.segments) > 2
    assert log.delete_records(7) == 7
    assert log.log_start_offset == 7
    assert log.segments[0].base_offset <= 7 < log.segments[0].next_offset
    with pytest.raises(KafkaError) as err:
        log.read(6, 100)
    assert err.value.error_code == ErrorCode.OFFSET_OUT_OF_RANGE
    assert batch_offsets(log.read(7, 1).records) == [(6, 7)]  # the batch holding 7
    assert read_offset_checkpoint(tmp_path / LOG_START_OFFSET_CHECKPOINT) == {("t", 0): 7}
    assert log.delete_records(3) == 7  # never moves back
    with pytest.raises(KafkaError) as err:
        log.delete_records(21)
    assert err.value.error_code == ErrorCode.OFFSET_OUT_OF_RANGE
    assert log.delete_records(-1) == 20  # -1: the high watermark
    assert len(log.segments) == 1  # only the active segment stays
    crash(log)
    reopened = open_log(tmp_path, LogConfig(segment_bytes=400))
    assert reopened.log_start_offset == 20
    assert reopened.log_end_offset == 20
    reopened.close()


def test_closed_log_refuses_calls(tmp_path):
    log = open_log(tmp_path)
    log.close()
    with pytest.raises(KafkaError) as err:
        log.append(batch(1))
    assert err.value.error_code == ErrorCode.NOT_LEADER_OR_FOLLOWER
    log.close()  # idempotent
    log.flush()  # a late committer round is harmless


def test_partition_metadata_file(tmp_path):
    log = open_log(tmp_path)
    # A new partition's directory (and this file) is made by its first write.
    assert not (tmp_path / "t-0").exists()
    log.append(batch(1))
    text = (tmp_path / "t-0" / "partition.metadata").read_text()
    assert text.startswith("version: 0\ntopic_id: ")
    assert text.split("topic_id: ")[1] == "XRxvTppHSmKLVQ9_Om4rEQ"
    log.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    counts=st.lists(st.integers(min_value=1, max_value=6), min_size=1, max_size=40),
    segment_bytes=st.integers(min_value=500, max_value=3000),
    interval=st.sampled_from([0, 64, 4096]),
    probes=st.lists(st.integers(min_value=0, max_value=10_000), max_size=20),
    max_bytes=st.integers(min_value=1, max_value=5000),
)
def test_offsets_property(tmp_path_factory, counts, segment_bytes, interval, probes, max_bytes):
    data_dir = tmp_path_factory.mktemp("prop")
    config = LogConfig(segment_bytes=segment_bytes, index_interval_bytes=interval)
    log = open_log(data_dir, config)
    expected = 0
    for n in counts:
        info = log.append(batch(n, value_size=n * 7))
        assert (info.base_offset, info.last_offset) == (expected, expected + n - 1)
        expected += n
    assert log.log_end_offset == expected
    for reopen in (False, True):
        if reopen:
            log.close()
            log = open_log(data_dir, config)
            assert log.log_end_offset == expected
        for probe in probes:
            offset = probe % expected
            result = log.read(offset, max_bytes)
            ranges = batch_offsets(result.records)
            assert ranges and ranges[0][0] <= offset <= ranges[0][1]
            assert len(result.records) <= max_bytes or len(ranges) == 1
            assert all(b == a[1] + 1 for a, (b, _) in zip(ranges, ranges[1:]))
    log.close()


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    counts=st.lists(st.integers(min_value=1, max_value=6), min_size=1, max_size=40),
    segment_bytes=st.integers(min_value=500, max_value=3000),
    probes=st.lists(
        st.tuples(st.integers(0, 10_000), st.one_of(st.integers(1, 150), st.integers(1, 5000)), st.integers(0, 10_000)),
        min_size=1,
        max_size=20,
    ),
    window=st.sampled_from([61, 100, 16 * 1024]),
)
def test_batch_headers_are_the_headers_of_what_read_returns(
    tmp_path_factory, monkeypatch, counts, segment_bytes, probes, window
):
    import broker.log.segment as segment

    # A window barely larger than one header forces a re-read for almost every batch.
    monkeypatch.setattr(segment.LogSegment.headers_from, "__defaults__", (window,))
    log = open_log(tmp_path_factory.mktemp("headers"), LogConfig(segment_bytes=segment_bytes))
    for n in counts:
        log.append(batch(n, value_size=n * 5))
    end = log.log_end_offset
    for probe, max_bytes, cap in probes:
        offset, max_offset = probe % end, cap % (end + 1)
        result = log.read(offset, max_bytes, max_offset=max_offset)
        headers = list(log.batch_headers(offset, max_bytes, max_offset=max_offset))
        assert [(h.base_offset, h.last_offset) for h in headers] == batch_offsets(result.records)
        assert sum(h.size for h in headers) == len(result.records)
    with pytest.raises(KafkaError):
        list(log.batch_headers(end + 1, 100))
    log.close()


def test_index_entries_reach_the_file_with_the_flush(tmp_path):
    log = open_log(tmp_path, SMALL)
    for _k in range(12):
        log.append(batch(2, value_size=30))
    seg = log.active_segment
    entries = len(seg.offset_index)
    assert entries > 1
    path = seg.offset_index.path
    assert not path.exists() or path.stat().st_size == 0  # buffered: no write() per entry
    assert batch_offsets(log.read(17, 1).records)[0] == (16, 17)  # lookups use the in-memory entries
    log.flush()
    assert path.stat().st_size == entries * 8
    log.append(batch(2, value_size=30))
    log.close()
    assert path.stat().st_size == len(seg.offset_index) * 8  # close writes what is left
    reopened = open_log(tmp_path, SMALL)
    assert [o for o, _ in all_values(reopened.read(0, 1 << 20).records)] == list(range(26))
    reopened.close()


def test_append_leaves_the_callers_bytes_alone_and_writes_many_batches_at_once(tmp_path):
    log = open_log(tmp_path, LogConfig(segment_bytes=10_000_000))
    log.append(batch(3))
    # 700 batches in one append: 1,400 writev parts, more than one call's worth.
    raw = bytearray(b"".join(batch(2, value_size=5) for _ in range(700)))
    before = bytes(raw)
    info = log.append(raw, leader_epoch=7)
    assert raw == before
    assert (info.base_offset, info.last_offset) == (3, 1402)
    stored = log.read(3, 1 << 24).records
    assert len(stored) == len(raw)
    assert batch_offsets(stored) == [(3 + 2 * k, 4 + 2 * k) for k in range(700)]
    for header, view in iter_batches(stored):
        assert header.partition_leader_epoch == 7
        check_crc(view)
    log.close()
