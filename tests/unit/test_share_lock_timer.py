"""LockTimer: the share-partition manager's lock scan is woken only for a nearer deadline."""

from __future__ import annotations

from broker.share.lock_timer import LockTimer


def _slept_until(at_ms: int | None) -> LockTimer:
    timer = LockTimer()
    timer.scanning()
    timer.sleeping_until(at_ms)
    return timer


def test_a_deadline_after_the_one_the_scan_sleeps_until_does_not_wake_it():
    timer = _slept_until(30_000)
    timer.due_by(60_000)  # a new lock, a whole lock duration after those already held
    timer.due_by(30_000)  # due together with the one it wakes for
    assert not timer.changed.is_set()


def test_a_nearer_deadline_wakes_the_scan():
    timer = _slept_until(30_000)
    timer.due_by(29_999)
    assert timer.changed.is_set()


def test_a_scan_sleeping_with_nothing_due_is_woken_by_any_deadline():
    timer = _slept_until(None)
    timer.due_by(10**15)
    assert timer.changed.is_set()


def test_a_deadline_set_while_a_scan_runs_wakes_the_next_scan():
    timer = _slept_until(30_000)
    timer.scanning()  # the scan may already have passed the share-partition that changed
    timer.due_by(60_000)
    assert timer.changed.is_set()
    timer.scanning()  # the next scan starts from a fresh event
    assert not timer.changed.is_set()


def test_no_deadline_wakes_nothing():
    timer = _slept_until(None)
    timer.due_by(None)
    assert not timer.changed.is_set()
