"""The log cleaner on real partition logs: what a clean keeps, transactions and
producers, tombstones and their horizon, batches and CRCs, scheduling, swaps
interrupted at every step, reads that hold replaced segments."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import pytest

from broker.log import clean as clean_module
from broker.log import partition as partition_module
from broker.log import segment as segment_module
from broker.log.cleaner import CleanerSettings, LogCleaner, cleanable_range
from broker.log.config import LogConfig
from broker.log.partition import PartitionLog
from broker.log.producer_state import AppendOrigin
from broker.protocol.compression import CompressionType
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.records import build_batch, check_crc, iter_batches, iter_records
from tests.unit.test_log_helpers import Clock, marker, open_log

# Any dirty byte makes a log cleanable here (Kafka's default ratio is 0.5).
COMPACT = LogConfig(
    cleanup_policy=("compact",), delete_retention_ms=1000, index_interval_bytes=100, min_cleanable_dirty_ratio=0.0
)
COORD = AppendOrigin.COORDINATOR
T0 = 1_700_000_000_000


def put(log: PartitionLog, *records: tuple[bytes, bytes | None], ts: int = T0, **kw) -> int:
    info = log.append(build_batch([(k, v, (), ts) for k, v in records], **kw))
    return info.base_offset


def cleaner_for(log: PartitionLog, clock: Clock, **settings) -> LogCleaner:
    return LogCleaner(log.path.parent, logs=lambda: [log], settings=lambda: CleanerSettings(**settings), now_ms=clock)


def roll_and_flush(log: PartitionLog) -> None:
    log.roll()
    log.flush()


def contents(log: PartitionLog) -> list[tuple[int, bytes | None, bytes | None]]:
    """(offset, key, value) of every record from the log start, each batch's CRC checked."""
    out = []
    data = log.read(log.log_start_offset, 1 << 30).records
    previous = -1
    for header, view in iter_batches(data):
        check_crc(view)
        assert header.base_offset > previous
        previous = header.last_offset
        if header.is_control:
            continue
        for r in iter_records(view):
            out.append((r.offset, r.key, r.value))
    return out


def batches(log: PartitionLog):
    return list(iter_batches(log.read(log.log_start_offset, 1 << 30).records))


def latest(records: list[tuple[int, bytes | None, bytes | None]]) -> dict[bytes, tuple[int, bytes | None]]:
    out: dict[bytes, tuple[int, bytes | None]] = {}
    for offset, key, value in records:
        assert key is not None
        out[key] = (offset, value)
    return out


def test_keeps_the_latest_record_of_each_key_with_its_offset(tmp_path):
    clock = Clock()
    log = open_log(tmp_path, COMPACT, clock)
    for i in range(10):
        put(log, (b"k%d" % i, b"v1-%d" % i))
    put(log, (b"k1", b"v2"), (b"k2", b"v2"))
    put(log, (b"k3", None))  # tombstone
    roll_and_flush(log)
    put(log, (b"k4", b"active"))  # the active segment is never cleaned
    before = contents(log)
    cleaner = cleaner_for(log, clock)
    assert cleaner.clean_once()
    after = contents(log)
    assert latest(after) == latest(before)
    kept = {(o, k, v) for o, k, v in after}
    assert kept <= set(before)
    # Older versions of k1, k2 and k3 are gone; k3's tombstone stays (horizon not passed).
    assert (1, b"k1", b"v1-1") not in kept and (3, b"k3", b"v1-3") not in kept
    assert (12, b"k3", None) in kept
    assert len(after) == len(before) - 3
    assert log.log_end_offset == 14
    # Survives a reopen, clean or not.
    log.close()
    log = open_log(tmp_path, COMPACT, clock)
    assert contents(log) == after
    log.discard()
    log = open_log(tmp_path, COMPACT, clock)
    assert contents(log) == after
    log.close()


def test_tombstones_go_after_delete_retention(tmp_path):
    clock = Clock()
    log = open_log(tmp_path, COMPACT, clock)
    put(log, (b"a", b"1"), (b"b", b"1"))
    put(log, (b"a", None))
    roll_and_flush(log)
    cleaner = cleaner_for(log, clock)
    assert cleaner.clean_once()
    (tomb,) = [b for b in batches(log) if b.header.base_offset == 2]
    assert tomb.header.has_delete_horizon and tomb.header.base_timestamp == clock.now + 1000
    assert [r.timestamp for r in iter_records(tomb.view)] == [T0]  # record timestamps unchanged
    # Before the horizon another clean keeps it; after it, the tombstone goes.
    put(log, (b"c", b"1"))
    roll_and_flush(log)
    assert cleaner.clean_once()
    assert (2, b"a", None) in contents(log)
    clock.now += 1001
    put(log, (b"d", b"1"))
    roll_and_flush(log)
    assert cleaner.clean_once()
    assert [(o, k) for o, k, _ in contents(log)] == [(1, b"b"), (3, b"c"), (4, b"d")]
    log.close()


def test_aborted_transactions_go_and_markers_stay_until_safe(tmp_path):
    clock = Clock()
    config = LogConfig(
        cleanup_policy=("compact",),
        delete_retention_ms=1000,
        min_cleanable_dirty_ratio=0.0,
        producer_id_expiration_ms=1,
    )
    log = open_log(tmp_path, config, clock)
    pid, other = 7, 8
    put(log, (b"x", b"base"))
    put(log, (b"x", b"aborted"), (b"y", b"aborted"), producer_id=pid, producer_epoch=0, transactional=True)
    put(log, (b"x", b"committed"), producer_id=other, producer_epoch=0, transactional=True)
    abort_at = log.append(marker(pid, 0, commit=False), origin=COORD).base_offset
    commit_at = log.append(marker(other, 0, commit=True), origin=COORD).base_offset
    put(log, (b"z", b"plain"))
    roll_and_flush(log)
    assert log.aborted_transactions(0, log.log_end_offset) == [(pid, 1)]
    cleaner = cleaner_for(log, clock)

    def markers() -> list[tuple[int, bool]]:
        return [
            (b.header.base_offset, b.header.has_delete_horizon)
            for b in batches(log)
            if b.header.is_control and b.header.records_count
        ]

    assert cleaner.clean_once()
    values = contents(log)
    assert (1, b"x", b"aborted") not in values and (2, b"y", b"aborted") not in values
    assert latest(values)[b"x"] == (3, b"committed")
    assert b"y" not in latest(values)
    # The aborted batch is its producer's last: it stays, emptied, to keep the sequence.
    (emptied,) = [b.header for b in batches(log) if b.header.producer_id == pid and not b.header.is_control]
    assert (emptied.base_offset, emptied.last_offset, emptied.records_count) == (1, 2, 0)
    # The clean met both transactions' data: both markers stay, and the aborted
    # transaction stays in the index while its marker does.
    assert markers() == [(abort_at, False), (commit_at, False)]
    assert log.aborted_transactions(0, log.log_end_offset) == [(pid, 1)]
    # The producers expire; x is overwritten: the transactions' last batches go, but
    # this clean still meets them, so the markers stay.
    put(log, (b"x", b"final"))
    clock.now += 10
    log.apply_retention(clock.now)
    assert log.last_records_of_producers() == {}
    roll_and_flush(log)
    assert cleaner.clean_once()
    assert [b.header.producer_id for b in batches(log) if not b.header.is_control].count(pid) == 0
    assert markers() == [(abort_at, False), (commit_at, False)]
    # Next clean meets no data of either: the markers get a delete horizon; past it they go.
    put(log, (b"w", b"1"))
    roll_and_flush(log)
    assert cleaner.clean_once()
    assert markers() == [(abort_at, True), (commit_at, True)]
    clock.now += 1001
    put(log, (b"v", b"1"))
    roll_and_flush(log)
    assert cleaner.clean_once()
    assert markers() == []
    assert log.aborted_transactions(0, log.log_end_offset) == []
    assert latest(contents(log)) == {b"x": (7, b"final"), b"z": (6, b"plain"), b"w": (8, b"1"), b"v": (9, b"1")}
    log.close()


def test_an_open_transaction_is_not_cleaned(tmp_path):
    clock = Clock()
    log = open_log(tmp_path, COMPACT, clock)
    put(log, (b"a", b"1"))
    put(log, (b"a", b"2"), producer_id=5, producer_epoch=0, transactional=True)
    roll_and_flush(log)
    put(log, (b"a", b"3"))
    roll_and_flush(log)
    ltc = cleanable_range(log, None, clock.now)
    assert ltc is not None and ltc.first_uncleanable == 0  # the LSO sits in the first segment
    assert not cleaner_for(log, clock).clean_once()
    log.close()


def test_an_active_producers_last_batch_stays_empty(tmp_path):
    clock = Clock()
    log = open_log(tmp_path, COMPACT, clock)
    put(log, (b"k", b"idempotent"), producer_id=11, producer_epoch=0, base_sequence=0)
    put(log, (b"k", b"later"))
    roll_and_flush(log)
    assert cleaner_for(log, clock).clean_once()
    first = batches(log)[0].header
    assert (first.base_offset, first.records_count, first.producer_id, first.base_sequence) == (0, 0, 11, 0)
    assert contents(log) == [(1, b"k", b"later")]
    log.close()
    for snap in tmp_path.glob("t-0/*.snapshot"):
        snap.unlink()
    log = open_log(tmp_path, COMPACT, clock)
    # The producer's sequence survived: a retry is a duplicate, the next sequence fits.
    dup = log.append(build_batch([(b"k", b"idempotent", (), T0)], producer_id=11, producer_epoch=0, base_sequence=0))
    assert dup.duplicate
    log.append(build_batch([(b"k", b"next", (), T0)], producer_id=11, producer_epoch=0, base_sequence=1))
    log.close()


@pytest.mark.parametrize(
    "codec", [CompressionType.GZIP, CompressionType.SNAPPY, CompressionType.LZ4, CompressionType.ZSTD]
)
def test_compressed_batches_are_rebuilt_with_their_codec(tmp_path, codec):
    clock = Clock()
    log = open_log(tmp_path, COMPACT, clock)
    put(log, *[(b"k%d" % (i % 5), b"value-%d" % i) for i in range(20)], compression=codec)
    roll_and_flush(log)
    assert cleaner_for(log, clock).clean_once()
    (only,) = batches(log)
    check_crc(only.view)
    assert only.header.compression == codec
    assert (only.header.base_offset, only.header.last_offset) == (0, 19)  # offsets kept
    assert contents(log) == [(15 + i, b"k%d" % i, b"value-%d" % (15 + i)) for i in range(5)]
    log.close()


def test_keyless_records_are_refused_on_compacted_topics(tmp_path):
    log = open_log(tmp_path, COMPACT)
    with pytest.raises(KafkaError) as err:
        log.append(build_batch([(None, b"v", (), T0)]))
    assert err.value.error_code == ErrorCode.INVALID_RECORD
    log.close()


def test_a_small_key_map_takes_several_rounds_to_the_same_result(tmp_path):
    clock = Clock()
    log = open_log(tmp_path / "small", COMPACT, clock)
    rng = random.Random(3)
    for _ in range(6):
        for _ in range(20):
            put(log, (b"k%d" % rng.randrange(30), b"%d" % rng.randrange(1000)))
        log.roll()
    put(log, (b"tail", b"1"))
    log.flush()
    before = contents(log)
    log.close()
    shutil.copytree(tmp_path / "small", tmp_path / "big")
    log = open_log(tmp_path / "small", COMPACT, clock)
    # 500 bytes of buffer: four keys per round.
    cleaner = cleaner_for(log, clock, dedupe_buffer_size=500, load_factor=1.0)
    rounds = 0
    while cleaner.clean_once():
        rounds += 1
        assert latest(contents(log)) == latest(before)
        assert rounds < 1000
    assert rounds > 5
    reference = open_log(tmp_path / "big", COMPACT, clock)
    assert cleaner_for(reference, clock).clean_once()
    assert contents(log) == contents(reference)
    reference.close()
    log.close()


def test_cleaning_waits_for_min_compaction_lag_and_max_lag_forces_it(tmp_path):
    clock = Clock(T0 + 10_000)
    config = LogConfig(cleanup_policy=("compact",), min_compaction_lag_ms=60_000, min_cleanable_dirty_ratio=1.0)
    log = open_log(tmp_path, config, clock)
    put(log, (b"a", b"1"), ts=T0)
    put(log, (b"a", b"2"), ts=T0)
    roll_and_flush(log)
    put(log, (b"b", b"1"), ts=T0)
    log.checkpoint_recovery_point()
    cleaner = cleaner_for(log, clock)
    assert cleanable_range(log, None, clock.now).first_uncleanable == 0
    clock.now = T0 + 61_000
    ltc = cleanable_range(log, None, clock.now)
    assert ltc.first_uncleanable == 2 and ltc.dirty_ratio == 1.0
    assert not cleaner.clean_once()  # the ratio must exceed the minimum
    log.config = LogConfig(cleanup_policy=("compact",), min_cleanable_dirty_ratio=1.0, max_compaction_lag_ms=30_000)
    assert cleanable_range(log, None, clock.now).need_compaction_now
    assert cleaner.clean_once()
    assert contents(log) == [(1, b"a", b"2"), (2, b"b", b"1")]
    log.close()


def test_max_compaction_lag_rolls_the_active_segment(tmp_path):
    clock = Clock(T0)
    config = LogConfig(cleanup_policy=("compact",), max_compaction_lag_ms=5_000)
    log = open_log(tmp_path, config, clock)
    put(log, (b"a", b"1"), ts=T0)
    put(log, (b"a", b"2"), ts=T0 + 6_000)
    assert len(log.segments) == 2
    log.close()


def test_the_filthiest_log_goes_first(tmp_path):
    clock = Clock()
    logs = [open_log(tmp_path, COMPACT, clock, partition=p) for p in range(3)]
    cleaner = LogCleaner(tmp_path, logs=lambda: logs, settings=CleanerSettings, now_ms=clock)
    for log in logs:
        put(log, (b"a", b"1"), (b"b", b"1"))
        roll_and_flush(log)
    assert cleaner.clean_once() and cleaner.clean_once() and cleaner.clean_once()
    assert not cleaner.clean_once()
    for p, log in enumerate(logs):
        for _ in range(p * 3):
            put(log, (b"a", b"x" * 50))
        roll_and_flush(log)
        log.checkpoint_recovery_point()
    ratios = [cleaner.dirty_ratio(log) for log in logs]
    assert ratios[0] == 0 < ratios[1] < ratios[2]
    ltc = cleaner.grab_filthiest(clock.now)
    assert ltc is not None and ltc.log is logs[2]
    assert cleaner.max_dirty_ratio == ratios[2]
    for log in logs:
        log.close()


def test_nothing_is_cleaned_above_the_checkpointed_recovery_point(tmp_path):
    clock = Clock()
    log = open_log(tmp_path, COMPACT, clock)
    put(log, (b"a", b"1"))
    put(log, (b"a", b"2"))
    log.roll()
    assert log.checkpointed_recovery_point == 0
    assert cleanable_range(log, None, clock.now).first_uncleanable == 0
    log.flush()
    assert cleaner_for(log, clock).clean_once()  # it checkpoints the recovery point first
    assert log.checkpointed_recovery_point == 2
    log.close()


def test_a_read_that_holds_replaced_segments_goes_on(tmp_path):
    clock = Clock()
    log = open_log(tmp_path, COMPACT, clock)
    for i in range(50):
        put(log, (b"k%d" % (i % 3), b"v%d" % i))
    roll_and_flush(log)
    reader = log.batch_headers(0, 1 << 30)
    first = next(reader)
    assert cleaner_for(log, clock).clean_once()
    rest = list(reader)  # the old segment, through its still-open descriptor
    assert [h.base_offset for h in [first, *rest]] == list(range(50))
    assert [h.base_offset for h in log.batch_headers(0, 1 << 30)] == [47, 48, 49]
    log.close()


def test_every_record_gone_leaves_an_empty_segment_retention_can_delete(tmp_path):
    clock = Clock()
    # Tiny segments: each source segment is a group of its own.
    config = LogConfig(cleanup_policy=("compact", "delete"), segment_bytes=100, retention_bytes=10**6)
    log = open_log(tmp_path, config, clock)
    put(log, (b"a", b"1"))
    roll_and_flush(log)
    put(log, (b"a", b"2"))
    roll_and_flush(log)
    put(log, (b"b", b"1"))
    assert cleaner_for(log, clock).clean_once()
    assert log.segments[0].size == 0
    assert contents(log) == [(1, b"a", b"2"), (2, b"b", b"1")]
    log.config = LogConfig(cleanup_policy=("compact", "delete"), segment_bytes=100, retention_bytes=100)
    assert log.apply_retention(clock.now) >= 1
    assert log.segments[0].size > 0 and log.log_start_offset >= 1
    log.close()
    log = open_log(tmp_path, config, clock)
    assert contents(log)[-1] == (2, b"b", b"1")
    log.close()


# ----------------------------------------------------------------------------- crashes


class Crash(BaseException):
    pass


def _interrupt_after(monkeypatch, steps: int) -> list[str]:
    """Make the n-th file-system change of a swap raise Crash (the process dies there)."""
    done: list[str] = []

    def wrap(name, fn):
        def inner(*args, **kwargs):
            if len(done) >= steps:
                raise Crash(name)
            done.append(name)
            return fn(*args, **kwargs)

        return inner

    monkeypatch.setattr(partition_module.os, "replace", wrap("replace", os.replace))
    monkeypatch.setattr(segment_module.os, "unlink", wrap("unlink", os.unlink))
    monkeypatch.setattr(partition_module, "fsync_dir", wrap("fsync_dir", partition_module.fsync_dir))
    return done


def _build_dirty_log(path: Path, clock: Clock) -> PartitionLog:
    log = open_log(path, COMPACT, clock)
    rng = random.Random(7)
    for _ in range(4):
        for _ in range(30):
            put(log, *[(b"k%d" % rng.randrange(40), b"v%d" % rng.randrange(10**6)) for _ in range(3)])
        put(log, (b"k%d" % rng.randrange(40), None))
        log.roll()
    put(log, (b"tail", b"1"))
    log.flush()
    log.checkpoint_recovery_point()
    return log


def test_a_swap_interrupted_at_any_step_leaves_a_valid_complete_log(tmp_path, monkeypatch):
    clock = Clock()
    seed = tmp_path / "seed"
    log = _build_dirty_log(seed, clock)
    before = contents(log)
    log.discard()  # the state on disk, as a crash would leave it
    # How many file-system changes one clean makes.
    probe = tmp_path / "probe"
    shutil.copytree(seed, probe)
    log = open_log(probe, COMPACT, clock)
    steps = _interrupt_after(monkeypatch, 10**6)
    assert cleaner_for(log, clock).clean_once()
    expected_clean = contents(log)
    total = len(steps)
    monkeypatch.undo()
    log.close()
    assert total > 8
    seen = set()
    for n in range(total + 1):
        work = tmp_path / f"crash-{n}"
        shutil.copytree(seed, work)
        log = open_log(work, COMPACT, clock)
        _interrupt_after(monkeypatch, n)
        try:
            cleaner_for(log, clock).clean_once()
        except Crash:
            pass
        monkeypatch.undo()
        log.discard()
        log = open_log(work, COMPACT, clock)
        after = contents(log)
        # Valid (CRCs, increasing offsets: checked by contents), complete (every key's
        # latest record), and nothing invented.
        assert latest(after) == latest(before), n
        assert set(after) <= set(before), n
        seen.add(len(after))
        assert not list(work.glob("t-0/*.cleaned")) and not list(work.glob("t-0/*.swap")), n
        # And it can be cleaned again to the same result.
        assert cleaner_for(log, clock).clean_once() or after == expected_clean
        assert latest(contents(log)) == latest(before)
        log.close()
    assert len(before) in seen and len(expected_clean) in seen


def test_a_clean_that_fails_leaves_no_files(tmp_path, monkeypatch):
    clock = Clock()
    log = _build_dirty_log(tmp_path, clock)

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(clean_module._Writer, "finish", broken)
    assert not cleaner_for(log, clock).clean_once()
    assert not list(tmp_path.glob("t-0/*.cleaned"))
    log.close()
