"""Segment descriptors are bounded: more segments than the budget stay readable and writable.

The budget is lowered for these tests; the broker's is half its open-file limit.
"""

from __future__ import annotations

import os

import pytest

from broker.log.config import LogConfig
from broker.log.manager import LogManager
from broker.log.segment import DESCRIPTORS
from tests.unit.test_log_helpers import Clock, all_values, batch, open_log


@pytest.fixture
def budget():
    saved = DESCRIPTORS.budget
    DESCRIPTORS.budget = 8
    yield 8
    DESCRIPTORS.budget = saved


def _open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_more_partitions_than_descriptors(tmp_path, budget):
    manager = LogManager(tmp_path / "data", now_ms=Clock())
    manager.open()
    manager.create_topic("many", 40)
    before = _open_fds()
    for round_ in range(3):
        for p in range(40):
            manager.partition("many", p).append(batch(2, value_size=20 + round_))
    assert len(DESCRIPTORS) <= budget
    assert _open_fds() - before <= budget
    for p in range(40):
        log = manager.partition("many", p)
        assert log.log_end_offset == 6
        assert len(all_values(log.read(0, 1 << 20).records)) == 6  # reopened on demand, every record there
    manager.close()
    # after a restart too
    manager = LogManager(tmp_path / "data", now_ms=Clock())
    manager.open()
    assert len(DESCRIPTORS) <= budget
    assert [manager.partition("many", p).log_end_offset for p in range(40)] == [6] * 40
    manager.partition("many", 3).append(batch(1))
    assert len(all_values(manager.partition("many", 3).read(0, 1 << 20).records)) == 7
    manager.close()


def test_a_deleted_segment_stays_readable_by_who_holds_it(tmp_path, budget):
    log = open_log(tmp_path, LogConfig(segment_bytes=200, retention_ms=1, file_delete_delay_ms=60_000))
    for _ in range(6):
        log.append(batch(1, value_size=100, ts=1))
    old = log.segments[0]
    others = [open_log(tmp_path, partition=p) for p in range(1, 20)]
    for other in others:  # push every descriptor of `log` out of the budget
        other.append(batch(1))
    assert old.has_file and old._fd < 0
    log.apply_retention(now_ms=10_000)
    assert old.retired and old not in log.segments and not old.log_path.exists()
    assert old.pread(10, 0)  # held open before its file went: still readable
    for other in others:
        other.close()
    log.close()
