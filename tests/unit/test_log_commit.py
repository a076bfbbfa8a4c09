"""GroupCommitter (fsync rounds shared by waiters, flush policy) and log maintenance."""

from __future__ import annotations

import errno
import os
import threading

import pytest
import trio

import broker.log.segment as segment_module
from broker.log.checkpoint import RECOVERY_POINT_CHECKPOINT, read_offset_checkpoint
from broker.log.commit import GroupCommitter
from broker.log.config import LogConfig
from broker.log.manager import LogManager
from broker.protocol.errors import ErrorCode, KafkaError
from tests.unit.test_log_helpers import Clock, batch, open_log


@pytest.fixture
def datasyncs(monkeypatch) -> list[int]:
    """Count segment fdatasync calls (one per segment per flush)."""
    calls: list[int] = []
    real = segment_module._datasync

    def counting(fd: int) -> None:
        calls.append(fd)
        real(fd)

    monkeypatch.setattr(segment_module, "_datasync", counting)
    return calls


def _count_flushes(log, counter: list[int]) -> None:
    real = log.flush

    def counting() -> None:
        counter.append(1)
        real()

    log.flush = counting


async def test_concurrent_waiters_share_one_fsync_round(tmp_path, datasyncs) -> None:
    logs = [open_log(tmp_path, partition=p) for p in range(4)]
    flushes: list[int] = []
    for log in logs:
        _count_flushes(log, flushes)
    datasyncs.clear()
    committer = GroupCommitter()
    done = []

    async def producer(i: int) -> None:
        log = logs[i % 4]
        log.append(batch(1))
        await committer.wait_durable(log)
        done.append(i)

    async with trio.open_nursery() as nursery:
        await nursery.start(committer.run)
        async with trio.open_nursery() as producers:
            for i in range(40):
                producers.start_soon(producer, i)
        nursery.cancel_scope.cancel()
    assert sorted(done) == list(range(40))
    assert committer.rounds == 1
    assert len(flushes) == 4  # one flush per log, not one per producer
    assert len(datasyncs) == 4
    assert all(log.recovery_point == log.log_end_offset == 10 for log in logs)
    for log in logs:
        log.close()


async def test_each_round_is_reported_with_its_logs_and_duration(tmp_path) -> None:
    logs = [open_log(tmp_path, partition=p) for p in range(3)]
    committer = GroupCommitter()
    rounds: list[tuple[int, float]] = []
    committer.on_round = lambda n, seconds: rounds.append((n, seconds))

    async def producer(i: int) -> None:
        logs[i].append(batch(1))
        await committer.wait_durable(logs[i])

    async with trio.open_nursery() as nursery:
        await nursery.start(committer.run)
        async with trio.open_nursery() as producers:
            for i in range(3):
                producers.start_soon(producer, i)
        logs[0].append(batch(1))
        await committer.wait_durable(logs[0])
        nursery.cancel_scope.cancel()
    assert [n for n, _ in rounds] == [3, 1]
    assert all(seconds > 0 for _, seconds in rounds)
    assert committer.rounds == 2
    for log in logs:
        log.close()


async def test_a_waiter_arriving_mid_round_waits_for_the_next_round(tmp_path, monkeypatch) -> None:
    log = open_log(tmp_path)
    committer = GroupCommitter()
    started, release = threading.Event(), threading.Event()
    real = log.flush

    def slow_flush() -> None:
        started.set()
        release.wait(10)
        real()

    monkeypatch.setattr(log, "flush", slow_flush)
    finished: list[str] = []

    async def waiter(name: str) -> None:
        log.append(batch(1))
        await committer.wait_durable(log)
        finished.append(name)

    async with trio.open_nursery() as nursery:
        await nursery.start(committer.run)
        nursery.start_soon(waiter, "first")
        await trio.to_thread.run_sync(started.wait)
        started.clear()
        nursery.start_soon(waiter, "second")
        await trio.sleep(0.05)
        assert finished == []
        assert committer.rounds == 0
        release.set()
        with trio.fail_after(10):
            while len(finished) < 2:
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    assert finished == ["first", "second"]
    assert committer.rounds == 2
    assert log.recovery_point == 2
    log.close()


async def test_nothing_to_flush_returns_at_once(tmp_path):
    log = open_log(tmp_path)
    log.append(batch(1))
    log.flush()
    committer = GroupCommitter()  # not even running
    with trio.fail_after(1):
        await committer.wait_durable(log)
    log.close()


async def test_fsync_failure_reaches_the_waiters(tmp_path, monkeypatch):
    log = open_log(tmp_path)
    committer = GroupCommitter()

    def broken(fd: int) -> None:
        raise OSError(5, "Input/output error")

    async with trio.open_nursery() as nursery:
        await nursery.start(committer.run)
        log.append(batch(1))
        monkeypatch.setattr(segment_module, "_datasync", broken)
        with pytest.raises(KafkaError) as err:
            await committer.wait_durable(log)
        assert err.value.error_code == ErrorCode.KAFKA_STORAGE_ERROR == 56
        assert log.recovery_point == 0
        monkeypatch.undo()
        await committer.wait_durable(log)  # the committer survived; the retry covers it
        assert log.recovery_point == 1
        nursery.cancel_scope.cancel()
    log.close()


@pytest.mark.parametrize(("errno_", "offline"), [(errno.ENOSPC, False), (errno.EDQUOT, False), (errno.EIO, True)])
async def test_a_full_disk_fails_the_waiters_but_takes_no_directory_offline(tmp_path, monkeypatch, errno_, offline):
    """A flush refused for want of space (ENOSPC, or a quota) fails its waiters with
    KAFKA_STORAGE_ERROR and leaves the log online; the next round flushes it once space
    returns. Any other I/O error still takes the log's directory offline."""
    log = open_log(tmp_path)
    committer = GroupCommitter()
    failed: list[str] = []
    committer.on_storage_error = lambda part_log, reason: failed.append(reason)

    def refused(fd: int) -> None:
        raise OSError(errno_, os.strerror(errno_))

    async with trio.open_nursery() as nursery:
        await nursery.start(committer.run)
        log.append(batch(1))
        monkeypatch.setattr(segment_module, "_datasync", refused)
        with pytest.raises(KafkaError) as err:
            await committer.wait_durable(log)
        assert err.value.error_code == ErrorCode.KAFKA_STORAGE_ERROR
        assert bool(failed) == offline, failed
        monkeypatch.undo()  # space back
        await committer.wait_durable(log)
        assert log.recovery_point == 1
        nursery.cancel_scope.cancel()
    log.close()


async def test_stopping_the_committer_wakes_pending_waiters(tmp_path, monkeypatch) -> None:
    log = open_log(tmp_path)
    committer = GroupCommitter()
    started, release = threading.Event(), threading.Event()
    real = log.flush

    def slow_flush() -> None:
        started.set()
        release.wait(10)
        real()

    monkeypatch.setattr(log, "flush", slow_flush)
    errors: list[int] = []

    async def waiter() -> None:
        log.append(batch(1))
        try:
            await committer.wait_durable(log)
        except KafkaError as exc:
            errors.append(exc.error_code)

    async with trio.open_nursery() as outer:
        async with trio.open_nursery() as nursery:
            await nursery.start(committer.run)
            outer.start_soon(waiter)
            await trio.to_thread.run_sync(started.wait)
            outer.start_soon(waiter)
            await trio.sleep(0.02)
            nursery.cancel_scope.cancel()
            release.set()
    assert ErrorCode.NOT_LEADER_OR_FOLLOWER in errors
    log.close()


async def test_flush_policy_by_messages_and_time(tmp_path):
    by_count = open_log(tmp_path, LogConfig(flush_messages=5), partition=0)
    by_time = open_log(tmp_path, LogConfig(flush_ms=100), partition=1)
    never = open_log(tmp_path, partition=2)
    committer = GroupCommitter(lambda: [by_count, by_time, never], policy_interval_s=0.01)
    async with trio.open_nursery() as nursery:
        await nursery.start(committer.run)
        for log in (by_count, by_time, never):
            log.append(batch(4))
        await trio.sleep(0.05)
        assert by_count.recovery_point == 0  # 4 < flush.messages
        by_count.append(batch(1))
        with trio.fail_after(5):
            while by_count.recovery_point < 5 or by_time.recovery_point < 4:
                await trio.sleep(0.01)
        assert never.recovery_point == 0  # Kafka's defaults leave it to the page cache
        nursery.cancel_scope.cancel()
    for log in (by_count, by_time, never):
        log.close()


async def test_rolled_segments_are_flushed_by_the_policy(tmp_path):
    log = open_log(tmp_path, LogConfig(segment_bytes=300))
    committer = GroupCommitter(lambda: [log], policy_interval_s=0.01)
    async with trio.open_nursery() as nursery:
        await nursery.start(committer.run)
        for _ in range(4):
            log.append(batch(1, value_size=100))
        assert len(log.segments) > 1
        with trio.fail_after(5):
            while log.has_unflushed_inactive_segment():
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    assert log.recovery_point >= log.active_segment.base_offset
    log.close()


async def test_the_flush_policy_walks_the_logs_once_per_interval_not_per_round(tmp_path):
    log = open_log(tmp_path)
    walks = []

    def logs():
        walks.append(trio.current_time())
        return [log]

    committer = GroupCommitter(logs, policy_interval_s=30)
    async with trio.open_nursery() as nursery:
        await nursery.start(committer.run)
        for _ in range(20):
            log.append(batch(1))
            await committer.wait_durable(log)
        nursery.cancel_scope.cancel()
    assert committer.rounds == 20
    assert len(walks) == 1  # the first round only; the next pass is due in 30 s
    log.close()


async def test_log_maintenance_applies_retention_and_checkpoints(tmp_path):
    clock = Clock()
    manager = LogManager(
        tmp_path,
        {
            "log.retention.check.interval.ms": 20,
            "log.flush.offset.checkpoint.interval.ms": 20,
            "log.retention.ms": 1000,
            "log.segment.bytes": 300,
        },
        now_ms=clock,
    )
    manager.open()
    manager.create_topic("m", 1, {})
    log = manager.partition("m", 0)
    for _ in range(5):
        log.append(batch(1, value_size=100, ts=clock.now - 60_000))
    log.flush()
    async with trio.open_nursery() as nursery:
        await nursery.start(manager.run_maintenance)
        with trio.fail_after(5):
            while (
                log.log_start_offset < 5
                or read_offset_checkpoint(tmp_path / RECOVERY_POINT_CHECKPOINT).get(("m", 0)) != log.recovery_point
            ):
                await trio.sleep(0.01)
        nursery.cancel_scope.cancel()
    manager.close()


# ------------------------------------------------------------------ concurrent fsyncs in a round


def _fsync_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("sharebroker-fsync")]


async def test_a_rounds_fsyncs_run_at_the_same_time(tmp_path):
    logs = [open_log(tmp_path, partition=p) for p in range(8)]
    # Every flush waits for all eight to be inside flush at once: one after another,
    # the barrier breaks (after 5 s) and the flushes fail.
    barrier = threading.Barrier(8, timeout=5)
    for log in logs:
        real = log.flush

        def meeting(real=real) -> None:
            barrier.wait()
            real()

        log.flush = meeting
    committer = GroupCommitter(fsync_concurrency=8)

    async def producer(log) -> None:
        log.append(batch(2))
        await committer.wait_durable(log)

    async with trio.open_nursery() as nursery:
        await nursery.start(committer.run)
        with trio.fail_after(10):
            async with trio.open_nursery() as producers:
                for log in logs:
                    producers.start_soon(producer, log)
        nursery.cancel_scope.cancel()
    assert committer.rounds == 1
    assert all(log.recovery_point == 2 for log in logs)
    for log in logs:
        del log.flush  # the real one again, for close
        log.close()


async def test_no_more_fsyncs_at_once_than_the_bound(tmp_path):
    logs = [open_log(tmp_path, partition=p) for p in range(12)]
    lock = threading.Lock()
    active, peak = [0], [0]
    for log in logs:
        real = log.flush

        def counted(real=real) -> None:
            with lock:
                active[0] += 1
                peak[0] = max(peak[0], active[0])
            try:
                threading.Event().wait(0.02)  # long enough for the others to pile up
                real()
            finally:
                with lock:
                    active[0] -= 1

        log.flush = counted
    committer = GroupCommitter(fsync_concurrency=3)

    async def producer(log) -> None:
        log.append(batch(1))
        await committer.wait_durable(log)

    async with trio.open_nursery() as nursery:
        await nursery.start(committer.run)
        async with trio.open_nursery() as producers:
            for log in logs:
                producers.start_soon(producer, log)
        nursery.cancel_scope.cancel()
    assert committer.rounds == 1
    assert peak[0] == 3
    assert all(log.recovery_point == 1 for log in logs)
    for log in logs:
        del log.flush
        log.close()


@pytest.mark.parametrize("concurrency", [1, 8])
async def test_one_logs_failed_fsync_fails_only_its_own_waiters(tmp_path, concurrency, monkeypatch) -> None:
    logs = [open_log(tmp_path, partition=p) for p in range(8)]

    def io_error() -> None:
        raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, "fsync failed: Input/output error")

    def bug() -> None:
        raise RuntimeError("not a KafkaError")

    monkeypatch.setattr(logs[2], "flush", io_error)
    monkeypatch.setattr(logs[5], "flush", bug)
    committer = GroupCommitter(fsync_concurrency=concurrency)
    outcomes: dict[tuple[int, int], int] = {}

    async def producer(p: int, i: int) -> None:
        logs[p].append(batch(1))
        try:
            await committer.wait_durable(logs[p])
            outcomes[p, i] = 0
        except KafkaError as exc:
            outcomes[p, i] = exc.error_code

    async with trio.open_nursery() as nursery:
        await nursery.start(committer.run)
        with trio.fail_after(10):
            async with trio.open_nursery() as producers:
                for p in range(8):
                    for i in range(3):
                        producers.start_soon(producer, p, i)
        nursery.cancel_scope.cancel()
    assert len(outcomes) == 24  # every waiter released
    for (p, _), code in outcomes.items():
        assert code == (ErrorCode.KAFKA_STORAGE_ERROR if p in (2, 5) else 0), (p, code)
    monkeypatch.undo()  # the real flush back, to close
    for p, log in enumerate(logs):
        assert log.recovery_point == (0 if p in (2, 5) else 3)
        log.close()


async def test_every_waiter_is_released_only_after_its_append_is_fsynced(tmp_path, datasyncs) -> None:
    logs = [open_log(tmp_path, partition=p) for p in range(8)]
    committer = GroupCommitter(fsync_concurrency=4)
    seen: list[tuple[int, int]] = []  # (offset the append needed, recovery point at release)

    async def producer(i: int) -> None:
        log = logs[i % 8]
        for _ in range(5):
            end = log.append(batch(1)).last_offset + 1
            await committer.wait_durable(log)
            seen.append((end, log.recovery_point))

    async with trio.open_nursery() as nursery:
        await nursery.start(committer.run)
        with trio.fail_after(20):
            async with trio.open_nursery() as producers:
                for i in range(32):
                    producers.start_soon(producer, i)
        nursery.cancel_scope.cancel()
    assert len(seen) == 160
    assert all(point >= end for end, point in seen)
    assert all(log.recovery_point == log.log_end_offset == 20 for log in logs)
    assert len(datasyncs) >= 8
    for log in logs:
        log.close()


async def test_the_fsync_threads_stop_with_the_committer(tmp_path):
    logs = [open_log(tmp_path, partition=p) for p in range(4)]
    committer = GroupCommitter(fsync_concurrency=4)
    async with trio.open_nursery() as nursery:
        await nursery.start(committer.run)
        for log in logs:
            log.append(batch(1))
        async with trio.open_nursery() as producers:
            for log in logs:
                producers.start_soon(committer.wait_durable, log)
        assert _fsync_threads()
        nursery.cancel_scope.cancel()
    with trio.fail_after(5):
        while _fsync_threads():
            await trio.sleep(0.01)
    for log in logs:
        log.close()


def test_fsync_concurrency_must_be_positive():
    with pytest.raises(ValueError, match="at least 1"):
        GroupCommitter(fsync_concurrency=0)


async def test_many_logs_wait_for_one_round_with_one_waiter(tmp_path, datasyncs) -> None:
    logs = [open_log(tmp_path, partition=p) for p in range(20)]
    for log in logs:
        log.append(batch(2))
    committer = GroupCommitter()
    async with trio.open_nursery() as nursery:
        await nursery.start(committer.run)
        assert await committer.wait_durable_all(logs) == {}
        assert committer.rounds == 1
        assert await committer.wait_durable_all(logs) == {}  # nothing left to flush: no round
        assert committer.rounds == 1
        nursery.cancel_scope.cancel()
    assert all(log.recovery_point == 2 and not log.needs_flush() for log in logs)
    for log in logs:
        log.close()


async def test_a_round_of_many_logs_syncs_the_file_system_once(tmp_path, datasyncs, monkeypatch) -> None:
    import broker.log.commit as commit_module

    syncs: list[object] = []
    real_sync = commit_module.sync_filesystem

    def counting(path) -> None:
        syncs.append(path)
        real_sync(path)

    monkeypatch.setattr(commit_module, "sync_filesystem", counting)
    monkeypatch.setattr(commit_module, "SYNCFS_MIN_LOGS", 8)
    logs = [open_log(tmp_path, partition=p) for p in range(8)]
    for log in logs:
        log.append(batch(2))
    datasyncs.clear()
    committer = GroupCommitter()
    async with trio.open_nursery() as nursery:
        await nursery.start(committer.run)
        assert await committer.wait_durable_all(logs) == {}
        assert len(syncs) == 1 and datasyncs == []  # one syncfs, no fdatasync per segment
        assert all(log.recovery_point == 2 and not log.needs_flush() for log in logs)

        def broken(path) -> None:
            raise OSError(5, "Input/output error")

        monkeypatch.setattr(commit_module, "sync_filesystem", broken)
        for log in logs:
            log.append(batch(1))
        errors = await committer.wait_durable_all(logs)
        assert len(errors) == 8  # a failed sync fails every log of the round
        assert all(e.error_code == ErrorCode.KAFKA_STORAGE_ERROR for e in errors.values())
        assert all(log.recovery_point == 2 for log in logs)
        monkeypatch.setattr(commit_module, "sync_filesystem", counting)
        assert await committer.wait_durable_all(logs) == {}  # the retry covers them
        assert all(log.recovery_point == 3 for log in logs)
        nursery.cancel_scope.cancel()
    for log in logs:
        log.close()
