"""Deferred opening: after a clean shutdown the logs open on first use or in the background."""

from __future__ import annotations

import json
import os
import uuid

import trio

from broker.log.checkpoint import (
    HIGH_WATERMARK_CHECKPOINT,
    LOG_START_OFFSET_CHECKPOINT,
    read_offset_checkpoint,
    write_offset_checkpoint,
)
from broker.log.cleaner import CLEANER_CHECKPOINT
from broker.log.manager import LogManager
from tests.unit.test_log_helpers import Clock, batch


def _made(data, topics=(("t", 3),), records=3) -> None:
    """A data directory holding ``topics``, each partition with ``records`` records, closed cleanly."""
    m = LogManager(data, now_ms=Clock())
    m.open()
    for name, n in topics:
        m.create_topic(name, n, {})
        for p in range(n):
            log = m.partition(name, p)
            assert log is not None
            for _ in range(records):
                log.append(batch(1))
    m.close()


def test_a_clean_start_opens_no_log_until_one_is_used(tmp_path):
    data = tmp_path / "data"
    _made(data)
    m = LogManager(data, now_ms=Clock())
    m.open()
    try:
        assert m.deferred_count == 3 and m.logs() == []
        assert all(m.has_log("t", p) and m.opened("t", p) is None for p in range(3))
        assert m.log_dir_of("t", 1) == data
        one = m.partition("t", 1)
        assert one is not None and one.log_end_offset == 3 and one.read(0, 10_000).records
        assert m.opened("t", 1) is one and m.partition("t", 1) is one
        assert m.logs() == [one] and m.deferred_count == 2
        assert m.partition("t", 3) is None and not m.has_log("t", 3)
    finally:
        m.close()


def test_an_unclean_start_opens_and_recovers_every_log_first(tmp_path):
    data = tmp_path / "data"
    m = LogManager(data, now_ms=Clock())
    m.open()
    m.create_topic("t", 2, {})
    for p in range(2):
        m.partition("t", p).append(batch(1))
        m.partition("t", p).flush()
    m.checkpoint()
    for log in m.logs():
        log.discard()  # killed: no close, no clean-shutdown marker
    for d in m.dirs.dirs:
        os.close(d.lock_fd)
    m = LogManager(data, now_ms=Clock())
    m.open()
    try:
        assert m.deferred_count == 0 and len(m.logs()) == 2
    finally:
        m.close()


def test_checkpoints_written_while_logs_are_deferred_keep_their_entries(tmp_path):
    data = tmp_path / "data"
    m = LogManager(data, now_ms=Clock())
    m.open()
    m.create_topic("t", 2, {})
    for p in range(2):
        for _ in range(5):
            m.partition("t", p).append(batch(1))
        m.partition("t", p).track_high_watermark(5)
    m.partition("t", 0).delete_records(3)
    m.close()
    m = LogManager(data, now_ms=Clock())
    m.open()
    m.partition("t", 1)  # one opened, one still deferred
    m.checkpoint()
    assert read_offset_checkpoint(data / LOG_START_OFFSET_CHECKPOINT).get(("t", 0)) == 3
    assert read_offset_checkpoint(data / HIGH_WATERMARK_CHECKPOINT) == {("t", 0): 5, ("t", 1): 5}
    m.close()  # ("t", 0) never opened
    m = LogManager(data, now_ms=Clock())
    m.open()
    try:
        zero = m.partition("t", 0)
        assert (zero.log_start_offset, zero.high_watermark, zero.log_end_offset) == (3, 5, 5)
    finally:
        m.close()


def test_the_cleaner_checkpoint_keeps_the_entries_of_deferred_logs(tmp_path):
    data = tmp_path / "data"
    _made(data, (("c", 1),))
    write_offset_checkpoint(data / CLEANER_CHECKPOINT, {("c", 0): 2, ("gone", 0): 1})
    m = LogManager(data, now_ms=Clock())
    m.open()
    m.close()
    assert read_offset_checkpoint(data / CLEANER_CHECKPOINT) == {("c", 0): 2}


def test_a_deferred_directory_of_an_older_topic_id_is_removed_when_it_opens(tmp_path):
    data = tmp_path / "data"
    _made(data, (("t", 1),))
    # The topic was deleted and made again (a new id) while this directory stayed behind.
    catalog = json.loads((data / "topics.json").read_text())
    catalog["topics"][0]["topic_id"] = str(uuid.uuid4())
    (data / "topics.json").write_text(json.dumps(catalog))
    m = LogManager(data, now_ms=Clock())
    m.open()
    try:
        assert m.deferred_count == 1
        log = m.partition("t", 0)
        assert log is not None and log.log_end_offset == 0 and log.log_start_offset == 0
    finally:
        m.close()


def test_deleting_a_topic_forgets_its_deferred_logs(tmp_path):
    data = tmp_path / "data"
    _made(data, (("t", 2), ("u", 1)))
    m = LogManager(data, now_ms=Clock())
    m.open()
    try:
        m.delete_topic("t")
        assert m.deferred_count == 1 and not m.has_log("t", 0) and m.partition("t", 0) is None
        assert not (data / "t-0").exists() and (data / "u-0").exists()
    finally:
        m.close()


def test_describing_log_dirs_counts_every_replica(tmp_path):
    data = tmp_path / "data"
    _made(data, (("t", 2),))
    m = LogManager(data, now_ms=Clock())
    m.open()
    try:
        (report,) = m.describe_dirs()
        assert sorted((r.topic, r.partition) for r in report.replicas) == [("t", 0), ("t", 1)]
        assert all(r.size == 3 * len(batch(1)) for r in report.replicas)
    finally:
        m.close()


def test_describing_some_replicas_opens_only_theirs(tmp_path):
    data = tmp_path / "data"
    _made(data, (("t", 3),))
    m = LogManager(data, now_ms=Clock())
    m.open()
    try:
        (report,) = m.describe_dirs(lambda topic, p: p == 1)
        assert [(r.topic, r.partition) for r in report.replicas] == [("t", 1)]
        assert m.deferred_count == 2 and m.opened("t", 1) is not None
    finally:
        m.close()


async def test_opening_in_slices_lets_other_tasks_run_between_slices(tmp_path, monkeypatch):
    from broker.log import deferred

    data = tmp_path / "data"
    _made(data, (("t", 40),), records=1)
    m = LogManager(data, now_ms=Clock())
    m.open()
    steps: list[list[tuple[str, int]]] = []
    m.log_open_listeners.append(steps.append)
    monkeypatch.setattr(deferred, "OPEN_DEFERRED_SLICE_S", 0.0)  # one log per slice
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            ticks += 1
            await trio.lowlevel.checkpoint()

    try:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(ticker)
            await m.open_in_slices([("t", 3), ("t", 1), ("nope", 0)])
            assert m.deferred_count == 38 and [k for s in steps for k in s] == [("t", 3), ("t", 1)]
            before = ticks
            await m.open_in_slices()
            nursery.cancel_scope.cancel()
        assert m.deferred_count == 0 and sum(len(s) for s in steps) == 40
        assert ticks - before >= 30  # the other task ran between the slices
    finally:
        m.close()


async def test_the_background_opener_opens_internal_topics_first_and_the_rest_once_ready(tmp_path):
    data = tmp_path / "data"
    _made(data, (("t", 70), ("__consumer_offsets", 2)), records=1)
    catalog = json.loads((data / "topics.json").read_text())
    for t in catalog["topics"]:
        t["internal"] = t["name"] == "__consumer_offsets"
    (data / "topics.json").write_text(json.dumps(catalog))
    m = LogManager(data, now_ms=Clock())
    m.open()
    steps: list[list[tuple[str, int]]] = []
    m.log_open_listeners.append(steps.append)
    try:
        assert m.deferred_count == 72
        async with trio.open_nursery() as nursery:
            await nursery.start(m.open_deferred_in_turn)
            with trio.fail_after(10):
                while m.deferred_count > 70:
                    await trio.sleep(0.01)
            await trio.sleep(0.05)
            first = [k for step in steps for k in step]
            assert first == [("__consumer_offsets", 0), ("__consumer_offsets", 1)] and m.deferred_count == 70
            m.open_rest_soon()  # the broker is ready
            with trio.fail_after(10):
                while m.deferred_count:
                    await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
        assert len(m.logs()) == 72 and sum(len(s) for s in steps) == 72
        assert all(log.log_end_offset == 1 for log in m.logs())
    finally:
        m.close()


def test_a_new_topic_opens_no_log_until_one_is_used(tmp_path):
    data = tmp_path / "data"
    m = LogManager(data, now_ms=Clock())
    m.open()
    try:
        m.create_topic("n", 1000)
        assert m.deferred_count == 1000 and m.logs() == [] and m.has_log("n", 999)
        log = m.partition("n", 7)
        assert log is not None and log.log_end_offset == 0 and not (data / "n-7").exists()
        log.append(batch(2))
        assert (data / "n-7" / "partition.metadata").exists() and m.deferred_count == 999
        m.delete_topic("n")
        m.create_topic("n", 8)  # the same name again: new, empty logs
        assert m.partition("n", 7).log_end_offset == 0
    finally:
        m.close()


def test_a_clean_start_defers_logs_that_never_had_a_file(tmp_path):
    data = tmp_path / "data"
    m = LogManager(data, now_ms=Clock())
    m.open()
    m.create_topic("n", 3)
    m.partition("n", 1).append(batch(1))
    m.close()
    m = LogManager(data, now_ms=Clock())
    m.open()
    try:
        assert m.deferred_count == 3
        assert [m.partition("n", p).log_end_offset for p in range(3)] == [0, 1, 0]
    finally:
        m.close()


async def test_logs_a_cluster_member_is_given_open_in_the_background(tmp_path):
    from broker.log.topics import TopicInfo

    m = LogManager(tmp_path / "data", now_ms=Clock())
    m.open()
    steps: list[list[tuple[str, int]]] = []
    m.log_open_listeners.append(steps.append)
    try:
        async with trio.open_nursery() as nursery:
            await nursery.start(m.open_deferred_in_turn)
            m.apply_topics([TopicInfo("r", uuid.uuid4(), 100, {}, False, frozenset(range(0, 100, 2)))])
            assert m.deferred_count == 50 and m.has_log("r", 98) and not m.has_log("r", 99)
            with trio.fail_after(10):
                while m.deferred_count:
                    await trio.sleep(0.01)
            nursery.cancel_scope.cancel()
        assert sorted(k for step in steps for k in step) == [("r", p) for p in range(0, 100, 2)]
        assert all(log.log_end_offset == 0 for log in m.logs()) and len(m.logs()) == 50
    finally:
        m.close()
