"""What PartitionLog.close writes: a clean stop of a log that took a little data makes no
new file, and everything is still found after the restart."""

from __future__ import annotations

from broker.log.checkpoint import CLEAN_SHUTDOWN_FILE
from broker.log.config import LogConfig
from broker.log.epoch_cache import LEADER_EPOCH_CHECKPOINT, EpochEntry
from tests.unit.test_log_helpers import batch, open_log

CONFIG = LogConfig(segment_bytes=100_000, index_interval_bytes=4096, transaction_verification=False)
PID = 7001
T0 = 1_700_000_000_000


def _files(data_dir):
    return sorted(p.name for p in (data_dir / "t-0").iterdir())


def _reopen_clean(data_dir, config=CONFIG):
    (data_dir / CLEAN_SHUTDOWN_FILE).write_bytes(b"")
    return open_log(data_dir, config)


def test_closing_a_log_that_took_a_few_records_creates_no_file(tmp_path):
    log = open_log(tmp_path, CONFIG)
    log.append(batch(2, pid=PID, epoch=0, seq=0, timestamps=[T0 + 5, T0 + 9]))
    log.append(batch(1, pid=PID, epoch=0, seq=2, ts=T0 + 3))
    log.flush()
    before = _files(tmp_path)
    log.close()
    assert _files(tmp_path) == before  # no producer snapshot, no time index file
    assert not any(name.endswith((".snapshot", ".timeindex")) for name in before)

    log = _reopen_clean(tmp_path)
    assert log.log_end_offset == 3
    assert log.max_timestamp() == (1, T0 + 9)  # found by the open's scan of the tail
    assert log.offset_for_timestamp(T0 + 6) == (1, T0 + 9)
    # The producer state was rebuilt from the batches: a retried batch is a duplicate,
    # the next sequence is accepted, a gap is refused.
    assert log.append(batch(1, pid=PID, epoch=0, seq=2, ts=T0 + 3)).duplicate
    assert log.append(batch(1, pid=PID, epoch=0, seq=3, ts=T0 + 10)).base_offset == 3
    log.close()


def test_a_log_whose_state_would_take_more_than_an_index_interval_to_rebuild_gets_a_snapshot(tmp_path):
    log = open_log(tmp_path, CONFIG)
    for seq in range(0, 60, 2):
        log.append(batch(2, pid=PID, epoch=0, seq=seq, value_size=100))
    assert log.active_segment.size > CONFIG.index_interval_bytes
    log.close()
    snapshots = [n for n in _files(tmp_path) if n.endswith(".snapshot")]
    assert snapshots == [f"{60:020d}.snapshot"]

    log = _reopen_clean(tmp_path)
    assert log.append(batch(2, pid=PID, epoch=0, seq=58, value_size=100)).duplicate
    log.close()


def test_after_a_roll_the_snapshot_taken_at_the_roll_is_where_the_next_open_replays_from(tmp_path):
    config = LogConfig(segment_bytes=3000, index_interval_bytes=4096, transaction_verification=False)
    log = open_log(tmp_path, config)
    seq = 0
    while len(log.segments) == 1:
        log.append(batch(2, pid=PID, epoch=0, seq=seq, value_size=100))
        seq += 2
    rolled_at = log.active_segment.base_offset
    assert f"{rolled_at:020d}.snapshot" in _files(tmp_path)  # written by the roll
    log.close()
    assert sorted(n for n in _files(tmp_path) if n.endswith(".snapshot")) == [f"{rolled_at:020d}.snapshot"]

    log = _reopen_clean(tmp_path, config)
    assert log.log_end_offset == seq
    assert log.append(batch(2, pid=PID, epoch=0, seq=seq - 2, value_size=100)).duplicate
    assert log.append(batch(1, pid=PID, epoch=0, seq=seq, value_size=100)).base_offset == seq
    log.close()


def _epoch_file(data_dir):
    return (data_dir / "t-0" / LEADER_EPOCH_CHECKPOINT).read_bytes()


def test_an_epoch_begun_with_no_record_is_not_written_at_close(tmp_path):
    """A leader elected after a restart starts its epoch at the log end; until a record is
    written in it, the file is not rewritten at close (loading drops such an entry)."""
    log = open_log(tmp_path, CONFIG)
    log.assign_epoch_start(3)
    log.append(batch(2), leader_epoch=3)
    log.close()
    written = _epoch_file(tmp_path)
    mtime = (tmp_path / "t-0" / LEADER_EPOCH_CHECKPOINT).stat().st_mtime_ns

    log = _reopen_clean(tmp_path)
    log.assign_epoch_start(4)  # elected again: no record in epoch 4 yet
    assert log.epochs.latest == EpochEntry(4, 2)
    log.close()
    assert _epoch_file(tmp_path) == written
    assert (tmp_path / "t-0" / LEADER_EPOCH_CHECKPOINT).stat().st_mtime_ns == mtime

    log = _reopen_clean(tmp_path)
    assert log.epochs.entries == [EpochEntry(3, 0)]  # what writing the file would have given
    log.assign_epoch_start(5)
    log.append(batch(1), leader_epoch=5)  # a record in epoch 5: the file must name it
    log.close()
    log = _reopen_clean(tmp_path)
    assert log.epochs.entries == [EpochEntry(3, 0), EpochEntry(5, 2)]
    assert log.epochs.end_offset_for(3, log.log_end_offset) == (3, 2)
    log.close()


def test_opening_a_log_after_a_clean_stop_opens_no_file_that_is_not_there(tmp_path, monkeypatch):
    """The directory's scan says which files exist: a log of a few records (no index
    entry, no snapshot, no aborted transaction) is opened without failed opens, and
    without listing its directory again for snapshots."""
    import os
    import pathlib

    log = open_log(tmp_path, CONFIG)
    log.append(batch(2, pid=PID, epoch=0, seq=0, timestamps=[T0 + 5, T0 + 9]), leader_epoch=1)
    log.close()
    (tmp_path / CLEAN_SHUTDOWN_FILE).write_bytes(b"")

    missing: list[str] = []
    listed: list[str] = []
    real_open, real_scandir = pathlib.Path.open, os.scandir

    def tracking_open(self, *args, **kwargs):
        try:
            return real_open(self, *args, **kwargs)
        except FileNotFoundError:
            if self.parent.name == "t-0":  # the data directory's checkpoints are read once for all logs
                missing.append(self.name)
            raise

    def tracking_scandir(path="."):
        listed.append(str(path))
        return real_scandir(path)

    monkeypatch.setattr(pathlib.Path, "open", tracking_open)
    monkeypatch.setattr(os, "scandir", tracking_scandir)
    log = open_log(tmp_path, CONFIG)
    monkeypatch.undo()
    assert missing == []
    assert listed == [str(tmp_path / "t-0")]  # the one scan
    assert log.log_end_offset == 2
    assert log.max_timestamp() == (1, T0 + 9)
    assert log.epochs.entries == [EpochEntry(1, 0)]
    assert log.append(batch(2, pid=PID, epoch=0, seq=0, timestamps=[T0 + 5, T0 + 9])).duplicate
    log.close()


def test_snapshots_are_pruned_after_a_log_restarted_below_where_it_had_pruned(tmp_path):
    """Pruning skips listing the directory when nothing can lie below the log start; a
    log emptied and restarted at a lower offset writes snapshots there again, and they
    are pruned when its start passes them."""
    config = LogConfig(segment_bytes=400, index_interval_bytes=4096, transaction_verification=False)
    log = open_log(tmp_path, config)
    for _ in range(10):
        log.append(batch(2, value_size=100))
    assert log.delete_records(-1) == 20
    first = log.segments[0].base_offset
    assert first > 8
    assert all(int(n[:20]) >= first for n in _files(tmp_path) if n.endswith(".snapshot"))

    log.truncate_fully_and_start_at(4)
    for _ in range(6):
        log.append(batch(2, value_size=100))
    low = sorted(int(n[:20]) for n in _files(tmp_path) if n.endswith(".snapshot"))
    assert low and low[0] < first  # written at rolls below where the log had pruned
    log.delete_records(log.log_end_offset)
    kept = log.segments[0].base_offset
    assert kept > low[0]
    assert all(int(n[:20]) >= kept for n in _files(tmp_path) if n.endswith(".snapshot"))
    log.close()
