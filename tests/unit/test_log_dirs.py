"""Several log directories (JBOD): placement, DescribeLogDirs reports, AlterReplicaLogDirs
moves through a future replica, crashes during a move, and a failed directory."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from broker.log.checkpoint import RECOVERY_POINT_CHECKPOINT, read_offset_checkpoint
from broker.log.dirs import parse_replica_dir
from broker.log.future import catch_up
from broker.log.manager import LogManager
from broker.protocol.errors import ErrorCode, KafkaError
from tests.unit.test_log_helpers import Clock, all_values, batch


def _open(*dirs: Path) -> LogManager:
    # Small segments, so moves copy several.
    m = LogManager(list(dirs), {"log.segment.bytes": 1024}, now_ms=Clock())
    m.open()
    return m


def _crash(m: LogManager) -> None:
    """What kill -9 leaves: nothing flushed, closed or marked clean; the locks released."""
    for part_log in m.logs():
        part_log.discard()
    for f in m._futures.values():
        f.log.discard()
    for d in m.dirs.dirs:
        if d.lock_fd >= 0:
            os.close(d.lock_fd)


def _values(m: LogManager, topic: str, p: int) -> list[tuple[int, bytes | None]]:
    part_log = m.partition(topic, p)
    assert part_log is not None
    return all_values(bytes(part_log.read(part_log.log_start_offset, 1 << 30).records))


def _move(m: LogManager, topic: str, p: int, target: Path, *, appends: int = 0) -> None:
    """Start a move and step it to its end, appending between steps."""
    m.alter_replica_dir(topic, p, str(target))
    future = m._futures[(topic, p)]
    for _ in range(1000):
        if (topic, p) not in m._futures:
            return
        if appends:
            part_log = m.partition(topic, p)
            assert part_log is not None
            part_log.append(batch(2))
            appends -= 1
        m._move_step(future, max_bytes=300)
    raise AssertionError("the move never finished")


def test_partitions_are_spread_over_the_directories(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    m = _open(a, b)
    m.create_topic("t", 4, {})
    placed = sorted((p, m.log_dir_of("t", p)) for p in range(4))
    assert [d for _, d in placed].count(a) == 2 and [d for _, d in placed].count(b) == 2
    assert (tmp_path / "a" / "topics.json").exists() and not (b / "topics.json").exists()
    for p in range(4):
        m.partition("t", p).append(batch(3))
    m.close()
    m = _open(a, b)
    assert sorted((p, m.log_dir_of("t", p)) for p in range(4)) == placed
    assert all(m.partition("t", p).log_end_offset == 3 for p in range(4))
    reports = m.describe_dirs()
    assert [r.path for r in reports] == [a, b]
    assert all(r.error == 0 and r.total_bytes > 0 and 0 <= r.usable_bytes <= r.total_bytes for r in reports)
    assert sum(len(r.replicas) for r in reports) == 4
    assert all(rep.size > 0 and rep.offset_lag == 0 and not rep.is_future for r in reports for rep in r.replicas)
    only = m.describe_dirs(lambda topic, p: p == 0)
    assert [(rep.topic, rep.partition) for r in only for rep in r.replicas] == [("t", 0)]
    m.close()


def test_a_move_copies_everything_while_appends_go_on_then_swaps(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    m = _open(a, b)
    m.create_topic("t", 1, {})
    source_dir = m.log_dir_of("t", 0)
    target = b if source_dir == a else a
    for _ in range(50):
        m.partition("t", 0).append(batch(3, value_size=40))
    m.alter_replica_dir("t", 0, str(target))
    future = m._futures[("t", 0)]
    rep = [r for d in m.describe_dirs() if d.path == target for r in d.replicas]
    assert [(r.is_future, r.offset_lag) for r in rep] == [(True, 150)]
    _move(m, "t", 0, target, appends=5)
    assert future.log.closed
    assert m.log_dir_of("t", 0) == target
    assert not (source_dir / "t-0").exists()
    assert [n for n in os.listdir(target) if parse_replica_dir(n)] == ["t-0"]
    values = _values(m, "t", 0)
    assert [o for o, _ in values] == list(range(160))
    m.partition("t", 0).append(batch(1))
    assert ("t", 0) in read_offset_checkpoint(target / RECOVERY_POINT_CHECKPOINT)
    assert ("t", 0) not in read_offset_checkpoint(source_dir / RECOVERY_POINT_CHECKPOINT)
    m.close()
    m = _open(a, b)
    assert m.log_dir_of("t", 0) == target and m.partition("t", 0).log_end_offset == 161
    m.close()


def test_alter_replica_dir_errors_as_kafka_answers(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    m = _open(a, b)
    m.create_topic("t", 1, {})
    with pytest.raises(KafkaError) as err:
        m.alter_replica_dir("t", 0, str(tmp_path / "nowhere"))
    assert err.value.error_code == ErrorCode.LOG_DIR_NOT_FOUND
    with pytest.raises(KafkaError) as err:
        m.alter_replica_dir("t", 0, "b")  # relative: not a configured path
    assert err.value.error_code == ErrorCode.LOG_DIR_NOT_FOUND
    # Already there: nothing to do.
    m.alter_replica_dir("t", 0, str(m.log_dir_of("t", 0)))
    assert not m._futures
    # No replica yet: REPLICA_NOT_AVAILABLE, and the directory is used when it comes.
    with pytest.raises(KafkaError) as err:
        m.alter_replica_dir("later", 0, str(b))
    assert err.value.error_code == ErrorCode.REPLICA_NOT_AVAILABLE
    m.create_topic("later", 1, {})
    assert m.log_dir_of("later", 0) == b
    m.close()


def test_moving_elsewhere_mid_move_restarts_it_there(tmp_path):
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    m = _open(a, b, c)
    m.create_topic("t", 1, {})
    assert m.log_dir_of("t", 0) == a
    m.partition("t", 0).append(batch(5))
    m.alter_replica_dir("t", 0, str(b))
    first = m._futures[("t", 0)].log.path
    m.alter_replica_dir("t", 0, str(c))
    assert not first.exists()
    _move(m, "t", 0, c)
    assert m.log_dir_of("t", 0) == c and [o for o, _ in _values(m, "t", 0)] == list(range(5))
    m.close()


def test_catch_up_follows_the_current_log_start_and_truncation(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    m = _open(a, b)
    m.create_topic("t", 1, {})
    current = m.partition("t", 0)
    for _ in range(30):
        current.append(batch(2, value_size=40))
    m.alter_replica_dir("t", 0, str(b))
    future = m._futures[("t", 0)].log
    assert not catch_up(current, future, max_bytes=200)
    current.delete_records(41)  # the head goes while the copy is under way
    while not catch_up(current, future, max_bytes=200):
        pass
    assert future.log_start_offset == 41 and future.log_end_offset == 60
    current.truncate_to(50)  # cut back (a follower meeting its leader)
    assert catch_up(current, future)
    assert future.log_end_offset == 50
    m.close()


def test_kill_during_a_move_loses_nothing_and_the_move_resumes(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    m = _open(a, b)
    m.create_topic("t", 1, {})
    for _ in range(40):
        m.partition("t", 0).append(batch(2, value_size=40))
    for part_log in m.logs():
        part_log.flush()
    m.alter_replica_dir("t", 0, str(b))
    future = m._futures[("t", 0)]
    m._move_step(future, max_bytes=300)
    assert ("t", 0) in m._futures and 0 < future.log.log_end_offset < 80
    _crash(m)
    m = _open(a, b)
    assert m.log_dir_of("t", 0) == a and ("t", 0) in m._futures  # resumed
    assert [o for o, _ in _values(m, "t", 0)] == list(range(80))
    _move(m, "t", 0, b)
    assert m.log_dir_of("t", 0) == b and [o for o, _ in _values(m, "t", 0)] == list(range(80))
    m.close()


def test_a_crash_between_the_renames_of_a_swap_keeps_the_future_log(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    m = _open(a, b)
    m.create_topic("t", 1, {})
    m.partition("t", 0).append(batch(7))
    m.alter_replica_dir("t", 0, str(b))
    future = m._futures[("t", 0)]
    assert catch_up(m.partition("t", 0), future.log)
    future.log.close()
    m.checkpoint_dir(b, extra=[(("t", 0), future.log)])
    shutil.rmtree(a / "t-0")  # the current log was renamed away and removed; then the crash
    _crash(m)
    m = _open(a, b)
    assert m.log_dir_of("t", 0) == b and not m._futures
    assert [o for o, _ in _values(m, "t", 0)] == list(range(7))
    m.close()


def test_a_partition_in_two_directories_stops_the_broker(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    m = _open(a, b)
    m.create_topic("t", 1, {})
    m.partition("t", 0).append(batch(1))  # a partition's directory is made by its first write
    where = m.log_dir_of("t", 0)
    m.close()
    other = b if where == a else a
    shutil.copytree(where / "t-0", other / "t-0")
    with pytest.raises(KafkaError) as err:
        _open(a, b)
    assert err.value.error_code == ErrorCode.KAFKA_STORAGE_ERROR and "several log directories" in str(err.value)


def test_a_failed_directory_takes_only_its_partitions_offline(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    m = _open(a, b)
    m.create_topic("t", 2, {})
    assert {m.log_dir_of("t", p) for p in range(2)} == {a, b}
    on_b = next(p for p in range(2) if m.log_dir_of("t", p) == b)
    on_a = 1 - on_b
    for p in range(2):
        m.partition("t", p).append(batch(1))
    m.close()
    shutil.rmtree(b)
    b.write_bytes(b"")  # the disk is gone: the path is no longer a directory
    m = _open(a, b)
    assert m.is_offline("t", on_b) and m.partition("t", on_b) is None
    assert m.partition("t", on_a).log_end_offset == 1
    reports = {r.path: r for r in m.describe_dirs()}
    assert reports[b].error == ErrorCode.KAFKA_STORAGE_ERROR and reports[b].total_bytes == -1
    assert reports[a].error == 0
    # New partitions go to the directories that work; moves wait for the failed one.
    m.create_partitions("t", 3)
    assert m.log_dir_of("t", 2) == a
    with pytest.raises(KafkaError) as err:
        m.alter_replica_dir("t", on_a, str(b))
    assert err.value.error_code == ErrorCode.KAFKA_STORAGE_ERROR
    m.close()


def test_a_directory_failing_at_run_time_goes_offline_with_its_partitions(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    m = _open(a, b)
    m.create_topic("t", 2, {})
    on_b = next(p for p in range(2) if m.log_dir_of("t", p) == b)
    m.fail_log(m.partition("t", on_b), "write failed: Input/output error")
    assert m.is_offline("t", on_b) and m.partition("t", on_b) is None
    assert m.partition("t", 1 - on_b) is not None
    assert {r.path: r.error for r in m.describe_dirs()} == {a: 0, b: ErrorCode.KAFKA_STORAGE_ERROR}
    m.close()


def test_an_unusable_first_directory_stops_the_broker(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_bytes(b"")
    with pytest.raises(KafkaError) as err:
        _open(a, b)
    assert "first log directory" in str(err.value)


def test_a_partition_never_written_moves_and_takes_writes_there(tmp_path):
    # A new partition has no directory until its first write; a move makes both.
    a, b = tmp_path / "a", tmp_path / "b"
    m = _open(a, b)
    m.create_topic("t", 1, {})
    where = m.log_dir_of("t", 0)
    other = b if where == a else a
    assert not (where / "t-0").exists()
    _move(m, "t", 0, other)
    assert m.log_dir_of("t", 0) == other and (other / "t-0").is_dir() and not (where / "t-0").exists()
    m.partition("t", 0).append(batch(3))
    m.close()
    m = _open(a, b)
    assert m.log_dir_of("t", 0) == other
    assert [o for o, _ in _values(m, "t", 0)] == [0, 1, 2]
    m.close()
