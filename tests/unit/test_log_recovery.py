"""Restart and crash recovery of PartitionLog."""

from __future__ import annotations

import os

from structlog.testing import capture_logs

from broker.log.checkpoint import CLEAN_SHUTDOWN_FILE, RECOVERY_POINT_CHECKPOINT, write_offset_checkpoint
from broker.log.config import LogConfig
from tests.unit.test_log_helpers import all_values, batch, batch_offsets, crash, open_log

CONFIG = LogConfig(segment_bytes=1500, index_interval_bytes=100)


def _segment_files(data_dir):
    return sorted((data_dir / "t-0").glob("*.log"))


def _mark_clean(data_dir):
    (data_dir / CLEAN_SHUTDOWN_FILE).write_bytes(b"")


def test_clean_restart_keeps_offsets_indexes_and_timestamps(tmp_path):
    log = open_log(tmp_path, CONFIG)
    for k in range(40):
        log.append(batch(2, ts=1_700_000_000_000 + k))
    segments = [(s.base_offset, s.size) for s in log.segments]
    log.close()
    _mark_clean(tmp_path)
    log = open_log(tmp_path, CONFIG)
    assert [(s.base_offset, s.size) for s in log.segments] == segments
    assert log.log_end_offset == 80
    assert log.recovery_point == 80
    assert log.offset_for_timestamp(1_700_000_000_000 + 30) == (60, 1_700_000_000_000 + 30)
    assert log.max_timestamp() == (78, 1_700_000_000_000 + 39)
    assert [o for o, _ in all_values(log.read(0, 1 << 20).records)] == list(range(80))
    assert log.append(batch(1)).base_offset == 80
    log.close()


def test_torn_tail_is_truncated_and_flushed_batches_survive(tmp_path):
    log = open_log(tmp_path, CONFIG)
    for _ in range(5):
        log.append(batch(2))
    log.flush()
    flushed = log.log_end_offset
    assert log.recovery_point == flushed == 10
    for _ in range(3):
        log.append(batch(2))
    active = log.active_segment.log_path
    crash(log)
    # A torn write: the last batch lost its final 9 bytes.
    size = active.stat().st_size
    os.truncate(active, size - 9)
    with capture_logs() as logs:
        log = open_log(tmp_path, CONFIG)
    assert log.log_end_offset == 14
    assert batch_offsets(log.read(0, 1 << 20).records)[-1] == (12, 13)
    truncated = [e for e in logs if e["event"] == "log_truncated"]
    assert len(truncated) == 1
    assert truncated[0]["topic"] == "t" and truncated[0]["partition"] == 0
    assert truncated[0]["truncated_bytes"] == len(batch(2)) - 9
    assert log.append(batch(1)).base_offset == 14
    assert log.recovery_point == 14  # recovered data is fsynced before being trusted
    log.close()


def test_corrupt_batch_truncates_there_and_drops_later_segments(tmp_path):
    log = open_log(tmp_path, LogConfig(segment_bytes=400))
    for _ in range(12):
        log.append(batch(1, value_size=100))
    assert len(log.segments) >= 4
    second = log.segments[1]
    victim_offset = second.base_offset + 1
    position = second.find_batch(victim_offset)[0]
    victim_path = second.log_path
    crash(log)
    # Flip a byte inside the records of a batch in the second segment (CRC-covered).
    with open(victim_path, "r+b") as f:
        f.seek(position + 70)
        byte = f.read(1)
        f.seek(position + 70)
        f.write(bytes([byte[0] ^ 0xFF]))
    with capture_logs() as logs:
        log = open_log(tmp_path, LogConfig(segment_bytes=400))
    assert log.log_end_offset == victim_offset
    assert len(log.segments) == 2
    assert len(_segment_files(tmp_path)) == 2
    assert any(e["event"] == "log_truncated" and e["reason"] == "CRC-32C mismatch" for e in logs)
    assert [o for o, _ in all_values(log.read(0, 1 << 20).records)] == list(range(victim_offset))
    log.close()


def test_recovery_starts_at_the_recovery_point(tmp_path):
    config = LogConfig(segment_bytes=400)
    log = open_log(tmp_path, config)
    for _ in range(12):
        log.append(batch(1, value_size=100))
    log.flush()
    write_offset_checkpoint(tmp_path / RECOVERY_POINT_CHECKPOINT, {("t", 0): log.recovery_point})
    first = log.segments[0].log_path
    crash(log)
    # Damage in a segment below the recovery point is not looked at (it was fsynced and
    # checked when written); an unclean start rescans only from the recovery point on.
    with open(first, "r+b") as f:
        f.seek(80)
        f.write(b"\x00")
    with capture_logs() as logs:
        log = open_log(tmp_path, config)
    assert log.log_end_offset == 12
    assert not any(e["event"] == "log_truncated" for e in logs)
    log.close()


def test_garbage_after_a_clean_shutdown_is_still_caught(tmp_path):
    log = open_log(tmp_path, CONFIG)
    for _ in range(4):
        log.append(batch(2))
    path = log.active_segment.log_path
    log.close()
    _mark_clean(tmp_path)
    with open(path, "ab") as f:
        f.write(b"\x00" * 30)
    with capture_logs() as logs:
        log = open_log(tmp_path, CONFIG)
    assert log.log_end_offset == 8
    assert path.stat().st_size == 4 * len(batch(2))
    assert any(e["event"] == "log_truncated" for e in logs)
    log.close()


def test_corrupt_index_is_rebuilt(tmp_path):
    config = LogConfig(segment_bytes=600, index_interval_bytes=50)
    log = open_log(tmp_path, config)
    for _ in range(20):
        log.append(batch(1, value_size=40))
    old = log.segments[0]
    index_path = old.offset_index.path
    assert len(old.offset_index) > 0
    log.close()
    _mark_clean(tmp_path)
    index_path.write_bytes(b"\x7f\xff\xff\xff\x7f\xff\xff\xff" * 3)
    log = open_log(tmp_path, config)
    with capture_logs() as logs:
        for offset in range(log.log_end_offset):
            (base, last), *_ = batch_offsets(log.read(offset, 1).records)
            assert base <= offset <= last
    assert any(e["event"] == "log_index_rebuilt" for e in logs)
    log.close()


def test_missing_index_files_are_rebuilt_on_unclean_start(tmp_path):
    log = open_log(tmp_path, CONFIG)
    for _ in range(30):
        log.append(batch(2))
    crash(log)
    for path in (tmp_path / "t-0").glob("*.index"):
        path.unlink()
    log = open_log(tmp_path, CONFIG)
    assert log.log_end_offset == 60
    assert all(len(s.offset_index) > 0 for s in log.segments if s.size > 200)
    for offset in range(0, 60, 7):
        (base, last), *_ = batch_offsets(log.read(offset, 1).records)
        assert base <= offset <= last
    log.close()


def test_stray_files_are_cleaned_up(tmp_path):
    log = open_log(tmp_path)
    log.append(batch(1))
    log.close()
    part = tmp_path / "t-0"
    (part / "00000000000000000000.log.tmp").write_bytes(b"junk")
    (part / "00000000000000000099.index").write_bytes(b"\x00" * 8)
    log = open_log(tmp_path)
    assert not (part / "00000000000000000000.log.tmp").exists()
    assert not (part / "00000000000000000099.index").exists()
    assert log.log_end_offset == 1
    log.close()


def test_lost_tail_before_a_later_segment_drops_what_follows(tmp_path):
    config = LogConfig(segment_bytes=400)
    log = open_log(tmp_path, config)
    for _ in range(9):
        log.append(batch(1, value_size=100))
    assert len(log.segments) >= 3
    first = log.segments[0]
    lost_from = first.next_offset - 1
    keep_bytes = first.find_batch(lost_from)[0]
    crash(log)
    # The OS wrote the newer segments but not the last batch of the first one.
    os.truncate(first.log_path, keep_bytes)
    with capture_logs() as logs:
        log = open_log(tmp_path, config)
    assert log.log_end_offset == lost_from
    assert len(log.segments) == 1
    assert any(e["event"] == "log_gap_truncated" for e in logs)
    assert log.append(batch(1)).base_offset == lost_from
    log.close()


def test_a_crash_right_after_a_roll_rebuilds_the_rolled_segments_indexes(tmp_path):
    """Index entries reach the file with a flush. If the active segment rolls and
    the process or machine dies before the next flush, the recovery point sits at
    the new segment's base: recovery must still re-read the rolled segment."""
    config = LogConfig(segment_bytes=1000, index_interval_bytes=100)
    base_ts = 1_700_000_000_000
    log = open_log(tmp_path, config)
    k = 0
    while len(log.segments) == 1:
        log.append(batch(2, ts=base_ts + k))
        k += 1
    # k batches make the first roll. Start again and flush one batch short of it.
    log.close()
    for p in (tmp_path / "t-0").iterdir():
        p.unlink()
    (tmp_path / RECOVERY_POINT_CHECKPOINT).unlink(missing_ok=True)
    log = open_log(tmp_path, config)
    for i in range(k - 1):
        log.append(batch(2, ts=base_ts + i))
    log.flush()
    first = log.active_segment
    end = log.log_end_offset
    write_offset_checkpoint(tmp_path / RECOVERY_POINT_CHECKPOINT, {("t", 0): log.recovery_point})
    log.append(batch(2, ts=base_ts + k - 1))  # rolls: the recovery point is the new base
    assert len(log.segments) == 2 and log.segments[1].base_offset == end == log.recovery_point
    max_ts = log.max_timestamp()
    probe = log.offset_for_timestamp(base_ts + k - 2)
    crash(log)
    # Damaged indexes in the rolled segment: recovery must not trust them.
    first.offset_index.path.write_bytes(b"")
    first.time_index.path.write_bytes(b"")
    log = open_log(tmp_path, config)
    rebuilt = log.segments[0]
    assert len(rebuilt.offset_index) > 0
    assert log.max_timestamp() == max_ts and max_ts[1] == base_ts + k - 1
    assert log.offset_for_timestamp(base_ts + k - 2) == probe
    assert [o for o, _ in all_values(log.read(0, 1 << 20).records)] == list(range(2 * k))
    log.close()


def _index_fsyncs(monkeypatch) -> list[str]:
    """Names of the index files fsynced from now on."""
    names: list[str] = []
    real = os.fsync

    def counting(fd: int) -> None:
        name = os.path.basename(os.readlink(f"/proc/self/fd/{fd}"))
        if name.endswith(("index", "timeindex", "txnindex")):
            names.append(name)
        real(fd)

    monkeypatch.setattr(os, "fsync", counting)
    return names


def test_the_active_segments_index_files_are_fsynced_once_it_rolls_or_closes(tmp_path, monkeypatch):
    fsynced = _index_fsyncs(monkeypatch)
    log = open_log(tmp_path, CONFIG)
    for _ in range(6):
        log.append(batch(2))
    first = log.active_segment
    assert len(first.offset_index) > 0
    log.flush()
    assert fsynced == []  # written to the file, not fsynced: recovery rebuilds them
    assert first.offset_index.path.stat().st_size == len(first.offset_index) * 8
    while log.active_segment is first:
        log.append(batch(2))
    log.flush()  # the rolled segment is trusted from now on: its index files are durable
    assert {first.offset_index.path.name, first.time_index.path.name} <= set(fsynced)
    assert not any(n.startswith(f"{log.active_segment.base_offset:020d}") for n in fsynced)
    fsynced.clear()
    active = log.active_segment
    log.append(batch(2))
    log.close()  # a clean shutdown trusts the active segment's indexes at the next start
    assert active.offset_index.path.name in fsynced or len(active.offset_index) == 0
    assert active.time_index.path.name in fsynced or len(active.time_index) == 0


def test_index_entries_lost_with_the_active_segment_are_rebuilt_after_a_crash(tmp_path):
    log = open_log(tmp_path, CONFIG)
    for _ in range(5):
        log.append(batch(2))
    active = log.active_segment
    assert len(active.offset_index) > 0
    log.flush()  # data durable, the recovery point at the log end; index files only written
    crash(log)
    # A machine crash can lose index bytes no fsync covered: the file ends up short.
    active.offset_index.path.write_bytes(b"")
    active.time_index.path.write_bytes(b"")
    log = open_log(tmp_path, CONFIG)
    assert log.log_end_offset == 10
    assert len(log.active_segment.offset_index) > 0
    for offset in range(10):
        (base, last), *_ = batch_offsets(log.read(offset, 1).records)
        assert base <= offset <= last
    log.close()
