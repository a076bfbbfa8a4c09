"""Waiting long polls of a share-partition are woken in turn (broker.share.manager.Entry)."""

from __future__ import annotations

import uuid

import trio

from broker.share.manager import Entry


def _entry() -> Entry:
    return Entry(("g", uuid.uuid4(), 0), "t", None, None, 0, 0)  # type: ignore[arg-type]


def test_the_longest_waiting_long_poll_is_woken_first_and_one_at_a_time():
    e = _entry()
    first, second, third = trio.Event(), trio.Event(), trio.Event()
    for ev in (first, second, third):
        e.waiters[ev] = None
    assert e.wake_next() and first.is_set() and not second.is_set()
    assert e.wake_next() and second.is_set() and not third.is_set()
    assert list(e.waiters) == [third]


def test_a_long_poll_already_woken_by_another_partition_is_skipped():
    e = _entry()
    gone, waiting = trio.Event(), trio.Event()
    e.waiters[gone] = None
    e.waiters[waiting] = None
    gone.set()  # its fetch also waited on another share-partition, which woke it
    assert e.wake_next() and waiting.is_set()
    assert not e.waiters
    assert not e.wake_next()


def test_wake_wakes_every_waiter():
    e = _entry()
    events = [trio.Event() for _ in range(3)]
    for ev in events:
        e.waiters[ev] = None
    e.wake()
    assert all(ev.is_set() for ev in events) and not e.waiters
