"""A leader replica's acks=all wait (broker/replica/partition.py) over a real log and
group committer: what ends the wait of a batch already appended."""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import trio

import broker.log.segment as segment_module
from broker.log.commit import GroupCommitter
from broker.log.config import LogConfig
from broker.metadata.image import PartitionState
from broker.protocol.errors import ErrorCode, KafkaError
from broker.replica.partition import Partition
from tests.unit.test_log_helpers import TOPIC_ID, batch, open_log

LEADER, FOLLOWER = 1, 2
LED = PartitionState(leader=LEADER, leader_epoch=3, replicas=(LEADER, FOLLOWER), isr=(LEADER, FOLLOWER))


class Lease:
    """This broker's registration: ``ok`` False while it has lapsed."""

    def __init__(self) -> None:
        self.ok = True

    def __call__(self) -> bool:
        return self.ok


@contextlib.asynccontextmanager
async def leader(tmp_path: Path) -> AsyncIterator[tuple[Partition, Lease, GroupCommitter]]:
    log = open_log(tmp_path, LogConfig(min_insync_replicas=2, transaction_verification=False))
    committer = GroupCommitter(lambda: [log])
    lease = Lease()
    p = Partition(
        log, LED, node_id=LEADER, topic_id=TOPIC_ID, committer=committer, appended=lambda t, i: None, lease_ok=lease
    )
    p.update_state(LED, 0)  # takes up leadership
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(committer.run)
            yield p, lease, committer
            nursery.cancel_scope.cancel()
    finally:
        log.close()


class Waiter:
    """wait_replicated of the batch ending at ``end``, run in the background."""

    def __init__(self, p: Partition, end: int, timeout_s: float = 30.0) -> None:
        self.p, self.end, self.timeout_s = p, end, timeout_s
        self.outcome: str | None = None

    async def run(self) -> None:
        try:
            await self.p.wait_replicated(self.end, timeout_s=self.timeout_s)
            self.outcome = "replicated"
        except KafkaError as exc:
            self.outcome = exc.code.name


async def append(p: Partition, committer: GroupCommitter, records: bytes) -> int:
    """Append and fsync (so a waiter started after this waits for the follower alone);
    the offset after the batch."""
    info = p.append(records)
    await committer.wait_durable(p.log)
    return info.last_offset + 1


def fetched(p: Partition, offset: int) -> None:
    p.follower_fetched(FOLLOWER, offset, 0, broker_epoch=1, now_ms=1)


async def test_a_lapsed_registration_does_not_fail_a_batch_already_appended(tmp_path):
    """Answering NOT_LEADER_OR_FOLLOWER for an appended batch tells clients it was not
    written; librdkafka may then renumber it under a new producer epoch and store it
    twice. The wait goes on through the lapse and ends when the follower has the batch."""
    async with leader(tmp_path) as (p, lease, committer):
        first = await append(p, committer, batch(pid=7, epoch=0, seq=0))
        second = await append(p, committer, batch(pid=7, epoch=0, seq=1))
        waiter = Waiter(p, second)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(waiter.run)
            await trio.testing.wait_all_tasks_blocked()
            lease.ok = False
            with pytest.raises(KafkaError) as refused:
                p.append(batch(pid=7, epoch=0, seq=2))  # new work is refused while it lapses
            assert refused.value.code == ErrorCode.NOT_LEADER_OR_FOLLOWER
            fetched(p, first)  # the high watermark moves, waking the waiter
            await trio.testing.wait_all_tasks_blocked()
            assert waiter.outcome is None
            lease.ok = True
            fetched(p, second)
        assert waiter.outcome == "replicated"


async def test_a_wait_fails_when_the_image_moves_leadership(tmp_path):
    async with leader(tmp_path) as (p, lease, committer):
        waiter = Waiter(p, await append(p, committer, batch(pid=7, epoch=0, seq=0)))
        async with trio.open_nursery() as nursery:
            nursery.start_soon(waiter.run)
            await trio.testing.wait_all_tasks_blocked()
            lease.ok = False
            moved = PartitionState(leader=FOLLOWER, leader_epoch=4, replicas=LED.replicas, isr=(FOLLOWER,))
            p.update_state(moved, 2)
        assert waiter.outcome == "NOT_LEADER_OR_FOLLOWER"


async def test_a_wait_through_a_lapse_that_does_not_end_times_out(tmp_path):
    """Outcome unknown: REQUEST_TIMED_OUT, which clients read as possibly written."""
    async with leader(tmp_path) as (p, lease, committer):
        waiter = Waiter(p, await append(p, committer, batch(pid=7, epoch=0, seq=0)), timeout_s=0.2)
        lease.ok = False
        await waiter.run()
        assert waiter.outcome == "REQUEST_TIMED_OUT"


def disk_full(fd: int) -> None:
    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


async def test_an_appended_batch_whose_fsync_finds_the_disk_full_waits_for_space(tmp_path, monkeypatch):
    """The batch is in the log (followers copy it, consumers may read it): an error would
    tell the client it was not written. Its wait goes on until a flush succeeds."""
    async with leader(tmp_path) as (p, _lease, _committer):
        end = p.append(batch(pid=7, epoch=0, seq=0)).last_offset + 1
        fetched(p, end)  # the follower has it: only the leader's fsync is missing
        monkeypatch.setattr(segment_module, "_datasync", disk_full)
        waiter = Waiter(p, end)
        async with trio.open_nursery() as nursery:
            nursery.start_soon(waiter.run)
            await trio.sleep(0.5)  # several refused flushes
            assert waiter.outcome is None
            monkeypatch.undo()  # space back
        assert waiter.outcome == "replicated"
        assert p.log.recovery_point == end


async def test_a_disk_that_stays_full_times_the_wait_out(tmp_path, monkeypatch):
    """Outcome unknown (the batch is in the log, not fsynced): REQUEST_TIMED_OUT."""
    async with leader(tmp_path) as (p, _lease, _committer):
        end = p.append(batch(pid=7, epoch=0, seq=0)).last_offset + 1
        fetched(p, end)
        monkeypatch.setattr(segment_module, "_datasync", disk_full)
        waiter = Waiter(p, end, timeout_s=0.5)
        await waiter.run()
        monkeypatch.undo()  # space back, so the log closes
        assert waiter.outcome == "REQUEST_TIMED_OUT"
