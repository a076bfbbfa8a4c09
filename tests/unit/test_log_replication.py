"""The log's replication side: the leader epoch cache, follower appends, truncation, the
high watermark and its checkpoint."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from broker.log.checkpoint import (
    HIGH_WATERMARK_CHECKPOINT,
    RECOVERY_POINT_CHECKPOINT,
    read_offset_checkpoint,
    write_offset_checkpoint,
)
from broker.log.config import LogConfig
from broker.log.epoch_cache import LEADER_EPOCH_CHECKPOINT, EpochEntry, LeaderEpochCache
from broker.protocol.errors import ErrorCode, KafkaError
from tests.unit.test_log_helpers import all_values, batch, batch_offsets, crash, marker, open_log

# Transactional batches are appended straight to the leader log here, with no coordinator
# to verify them.
SMALL = LogConfig(segment_bytes=1024 * 1024, index_interval_bytes=150, transaction_verification=False)


# --- the cache ------------------------------------------------------------------------


def test_end_offset_for_answers_as_kafka_does():
    cache = LeaderEpochCache([EpochEntry(0, 0), EpochEntry(2, 100), EpochEntry(5, 250)])
    assert cache.end_offset_for(5, 300) == (5, 300)  # the latest ends at the log end
    assert cache.end_offset_for(2, 300) == (2, 250)
    assert cache.end_offset_for(3, 300) == (2, 250)  # unknown in between: the epoch below, the next start
    assert cache.end_offset_for(4, 300) == (2, 250)
    assert cache.end_offset_for(0, 300) == (0, 100)
    assert cache.end_offset_for(6, 300) == (-1, -1)  # above the latest
    assert cache.end_offset_for(-1, 300) == (-1, -1)
    assert LeaderEpochCache().end_offset_for(0, 10) == (-1, -1)
    later = LeaderEpochCache([EpochEntry(3, 40), EpochEntry(4, 70)])
    assert later.end_offset_for(1, 90) == (1, 40)  # older than every entry: the first start


def test_assign_keeps_both_columns_increasing():
    cache = LeaderEpochCache()
    assert cache.assign(0, 0)
    assert not cache.assign(0, 10)  # same epoch, later offset: nothing
    assert cache.assign(3, 50)
    assert cache.assign(4, 50)  # same start, higher epoch: replaces
    assert cache.entries == [EpochEntry(0, 0), EpochEntry(4, 50)]
    assert cache.assign(2, 20)  # a lower epoch drops everything at or above it
    assert cache.entries == [EpochEntry(0, 0), EpochEntry(2, 20)]


def test_truncation_from_both_ends():
    cache = LeaderEpochCache([EpochEntry(0, 0), EpochEntry(2, 100), EpochEntry(5, 250)])
    cache.truncate_from_end(250)
    assert cache.entries == [EpochEntry(0, 0), EpochEntry(2, 100)]
    cache.truncate_from_start(120)
    assert cache.entries == [EpochEntry(2, 120)]
    cache.truncate_from_start(50)  # nothing below its start
    assert cache.entries == [EpochEntry(2, 120)]


@given(st.lists(st.tuples(st.integers(0, 20), st.integers(0, 1000)), max_size=30))
def test_entries_always_increase_and_the_file_round_trips(tmp_path_factory, ops):
    cache = LeaderEpochCache()
    for epoch, offset in ops:
        cache.assign(epoch, offset)
    entries = cache.entries
    assert all(a.epoch < b.epoch and a.start_offset < b.start_offset for a, b in zip(entries, entries[1:]))
    d = tmp_path_factory.mktemp("epochs")
    (d / LEADER_EPOCH_CHECKPOINT).write_bytes(cache.encode())
    loaded = LeaderEpochCache.read(d)
    assert loaded is not None and loaded.entries == entries


# --- the log --------------------------------------------------------------------------


def _leader_log(tmp_path, epochs_and_counts):
    """A log appended as a leader: [(epoch, batches of 2 records)]."""
    log = open_log(tmp_path, SMALL)
    for epoch, n in epochs_and_counts:
        for _ in range(n):
            log.append(batch(2), leader_epoch=epoch)
    return log


def test_leader_appends_record_where_each_epoch_starts(tmp_path):
    log = _leader_log(tmp_path, [(0, 3), (2, 2), (3, 1)])
    assert log.epochs.entries == [EpochEntry(0, 0), EpochEntry(2, 6), EpochEntry(3, 10)]
    log.assign_epoch_start(5)  # elected at epoch 5 before any append
    assert log.epochs.latest == EpochEntry(5, 12)
    log.append(batch(1), leader_epoch=5)
    log.close()
    reopened = open_log(tmp_path, SMALL)
    assert reopened.epochs.entries == [EpochEntry(0, 0), EpochEntry(2, 6), EpochEntry(3, 10), EpochEntry(5, 12)]
    reopened.close()


def test_follower_copies_batches_as_they_are(tmp_path):
    leader = _leader_log(tmp_path / "a", [(0, 3), (4, 2), (7, 3)])
    leader.append(batch(2, pid=9, epoch=0, seq=0, txn=True), leader_epoch=7)
    data = leader.read(0, 1 << 20).records
    follower = open_log(tmp_path / "b", SMALL)
    follower.track_high_watermark(0)
    info = follower.append_as_follower(data)
    assert info is not None and (info.base_offset, info.last_offset) == (0, 17)
    assert follower.read(0, 1 << 20).records == data
    assert follower.epochs.entries == leader.epochs.entries
    # The open transaction is known; the LSO waits for the high watermark and the marker.
    assert follower.high_watermark == 0 and follower.last_stable_offset == 0
    follower.update_high_watermark(18)
    assert follower.last_stable_offset == 16
    leader.append(marker(9, 0, commit=False), leader_epoch=7)
    follower.append_as_follower(leader.read(18, 1 << 20).records)
    follower.update_high_watermark(19)
    assert follower.last_stable_offset == 19
    assert follower.aborted_transactions(0, 19) == [(9, 16)]
    # A duplicate of what the follower already holds is refused: offsets must be dense.
    with pytest.raises(KafkaError) as err:
        follower.append_as_follower(data)
    assert err.value.code == ErrorCode.OFFSET_OUT_OF_RANGE
    leader.close()
    follower.close()


def test_follower_producer_state_detects_a_retried_batch_after_it_leads(tmp_path):
    leader = open_log(tmp_path / "a", SMALL)
    leader.append(batch(3, pid=4, epoch=0, seq=0), leader_epoch=0)
    follower = open_log(tmp_path / "b", SMALL)
    follower.append_as_follower(leader.read(0, 1 << 20).records)
    again = follower.append(batch(3, pid=4, epoch=0, seq=0), leader_epoch=1)
    assert again.duplicate and again.base_offset == 0
    leader.close()
    follower.close()


def test_a_corrupt_batch_from_the_leader_is_refused(tmp_path):
    leader = _leader_log(tmp_path / "a", [(0, 2)])
    data = bytearray(leader.read(0, 1 << 20).records)
    data[-1] ^= 0xFF
    follower = open_log(tmp_path / "b", SMALL)
    with pytest.raises(KafkaError) as err:
        follower.append_as_follower(bytes(data))
    assert err.value.code == ErrorCode.CORRUPT_MESSAGE
    assert follower.log_end_offset == 0
    leader.close()
    follower.close()


def test_truncate_to_cuts_whole_batches_and_everything_derived(tmp_path):
    config = LogConfig(segment_bytes=1024 * 1024, index_interval_bytes=50, transaction_verification=False)
    log = open_log(tmp_path, config)
    for epoch in range(4):
        for _ in range(5):
            log.append(batch(2, value_size=30), leader_epoch=epoch)
    log.append(batch(2, pid=3, epoch=0, seq=0, txn=True), leader_epoch=3)
    log.track_high_watermark(42)
    log.flush()
    assert log.last_stable_offset == 40
    # The log keeps the offsets below the target; a batch holding the target goes whole.
    end = log.truncate_to(25)  # inside the batch 24-25
    assert end == 24 and log.log_end_offset == 24
    end = log.truncate_to(22)  # a batch boundary: exact
    assert end == 22
    end = log.truncate_to(21)  # inside 20-21: cut at 20
    assert end == 20
    assert log.epochs.entries == [EpochEntry(0, 0), EpochEntry(1, 10)]
    assert log.high_watermark == 20 and log.last_stable_offset == 20  # the open transaction went too
    assert log.recovery_point == 20
    assert read_offset_checkpoint(tmp_path / RECOVERY_POINT_CHECKPOINT)[("t", 0)] == 20
    assert batch_offsets(log.read(0, 1 << 20).records)[-1] == (18, 19)
    for offset in range(20):  # indexes still find every batch
        assert batch_offsets(log.read(offset, 1).records)[0][0] <= offset
    # Appending continues at the cut, in a later epoch.
    info = log.append(batch(2), leader_epoch=6)
    assert info.base_offset == 20
    assert log.epochs.latest == EpochEntry(6, 20)
    log.close()
    reopened = open_log(tmp_path, config)
    assert reopened.log_end_offset == 22
    assert reopened.epochs.entries == [EpochEntry(0, 0), EpochEntry(1, 10), EpochEntry(6, 20)]
    reopened.close()


def test_truncating_at_the_log_end_drops_an_epoch_begun_there_with_no_record(tmp_path):
    # This replica led at epoch 2 and wrote nothing; the leader of epoch 3 never had
    # epoch 2. Truncation to the log end cuts nothing but must drop that epoch, or the
    # next fetch names it as the last fetched epoch and the leader answers with the
    # same divergence again, round after round.
    log = _leader_log(tmp_path, [(0, 3), (1, 2)])
    log.assign_epoch_start(2)
    assert log.epochs.latest == EpochEntry(2, 10)
    assert log.truncate_to(10) == 10
    assert log.log_end_offset == 10
    assert log.epochs.entries == [EpochEntry(0, 0), EpochEntry(1, 6)]
    assert log.truncate_to(15) == 10  # beyond the end: still nothing cut
    assert log.epochs.entries == [EpochEntry(0, 0), EpochEntry(1, 6)]
    log.close()


def test_truncate_across_segments(tmp_path):
    config = LogConfig(segment_bytes=1024 * 1024, index_interval_bytes=50, transaction_verification=False)
    log = open_log(tmp_path, config)
    for i in range(30):
        log.append(batch(2), leader_epoch=i // 10)
        if i % 7 == 6:
            log.roll()
    assert len(log.segments) > 3
    log.truncate_to(17)  # inside the batch 16-17
    assert log.log_end_offset == 16
    assert all(s.base_offset < 16 for s in log.segments)
    assert [o for o, _ in all_values(log.read(0, 1 << 20).records)] == list(range(16))
    log.append(batch(1), leader_epoch=9)
    log.close()
    reopened = open_log(tmp_path, config)
    assert reopened.log_end_offset == 17
    reopened.close()


def test_truncate_fully_and_start_at(tmp_path):
    log = _leader_log(tmp_path, [(0, 5)])
    log.truncate_fully_and_start_at(500)
    assert (log.log_start_offset, log.log_end_offset) == (500, 500)
    assert log.epochs.entries == []
    leader = open_log(tmp_path / "leader", SMALL)
    leader.truncate_fully_and_start_at(500)
    leader.append(batch(2), leader_epoch=4)
    log.append_as_follower(leader.read(500, 1 << 20).records)
    assert log.log_end_offset == 502 and log.epochs.entries == [EpochEntry(4, 500)]
    log.close()
    leader.close()
    reopened = open_log(tmp_path, SMALL)
    assert (reopened.log_start_offset, reopened.log_end_offset) == (500, 502)
    reopened.close()


def test_epochs_of_unflushed_batches_are_rebuilt_after_a_crash(tmp_path):
    log = _leader_log(tmp_path, [(0, 3)])
    log.flush()  # the cache file now holds epoch 0
    log.append(batch(2), leader_epoch=2)
    log.append(batch(2), leader_epoch=5)
    crash(log)  # the page cache survives a killed process, the cache file is stale
    reopened = open_log(tmp_path, SMALL)
    assert reopened.epochs.entries == [EpochEntry(0, 0), EpochEntry(2, 6), EpochEntry(5, 8)]
    reopened.close()


def test_a_missing_cache_file_is_rebuilt_from_every_batch(tmp_path):
    log = _leader_log(tmp_path, [(0, 2), (1, 2)])
    log.close()
    (tmp_path / "t-0" / LEADER_EPOCH_CHECKPOINT).unlink()
    reopened = open_log(tmp_path, SMALL)
    assert reopened.epochs.entries == [EpochEntry(0, 0), EpochEntry(1, 4)]
    reopened.close()


def test_high_watermark_follows_the_log_end_until_tracked(tmp_path):
    log = _leader_log(tmp_path, [(0, 3)])
    assert log.high_watermark == log.log_end_offset == 6
    log.track_high_watermark(2)
    assert log.high_watermark == 2
    log.append(batch(2), leader_epoch=0)
    assert log.high_watermark == 2
    assert log.update_high_watermark(100)  # clamped to the log end
    assert log.high_watermark == 8
    assert not log.update_high_watermark(8)
    with pytest.raises(KafkaError):  # consumers read below the high watermark only
        log.delete_records(9)
    log.close()


def test_the_high_watermark_checkpoint_is_the_starting_point(tmp_path):
    log = _leader_log(tmp_path, [(0, 5)])
    log.close()
    write_offset_checkpoint(tmp_path / HIGH_WATERMARK_CHECKPOINT, {("t", 0): 4})
    reopened = open_log(tmp_path, SMALL)
    assert reopened.checkpointed_high_watermark == 4
    assert reopened.high_watermark == 10  # untracked
    reopened.track_high_watermark()
    assert reopened.high_watermark == 4
    reopened.close()


def test_an_epoch_file_is_fsynced_before_a_recovery_point_past_it_is_checkpointed(tmp_path):
    from broker.log.manager import LogManager
    from tests.unit.test_log_helpers import Clock

    manager = LogManager(tmp_path / "data", now_ms=Clock())
    manager.open()
    manager.create_topic("t", 1)
    log = manager.partition("t", 0)
    log.assign_epoch_start(3)
    log.append(batch(2), leader_epoch=3)
    log.flush()  # the epoch file is written and renamed in, its data not fsynced yet
    assert log.epochs_unsynced
    assert read_offset_checkpoint(manager.data_dir / RECOVERY_POINT_CHECKPOINT).get(("t", 0), 0) == 0
    manager.checkpoint()  # fsyncs it first, then records the recovery point
    assert not log.epochs_unsynced
    assert read_offset_checkpoint(manager.data_dir / RECOVERY_POINT_CHECKPOINT)[("t", 0)] == 2
    manager.close()


def test_epochs_whose_file_was_lost_before_the_checkpoint_are_rebuilt(tmp_path):
    log = _leader_log(tmp_path, [(0, 2), (4, 3)])
    log.flush()
    assert log.epochs_unsynced
    crash(log)
    # The recovery point never reached the checkpoint file: a lost epoch file is rebuilt
    # from the batch headers of everything recovery rereads.
    (tmp_path / "t-0" / LEADER_EPOCH_CHECKPOINT).unlink()
    reopened = open_log(tmp_path, SMALL)
    assert reopened.epochs.entries == [EpochEntry(0, 0), EpochEntry(4, 4)]
    reopened.close()
