"""The keyed timer the coordinator runtime gives every shard (broker.coordinator.timer)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from broker.coordinator.timer import CoordinatorTimer, TimerQueue


def test_a_key_holds_one_deadline_and_rescheduling_replaces_it():
    q: TimerQueue[str] = TimerQueue()
    q.schedule("a", 100, "first")
    q.schedule("a", 50, "second")
    q.schedule("b", 70, "b")
    assert q.next_deadline_ms() == 50 and q.deadline("a") == 50 and len(q) == 2
    assert q.pop_due(49) is None
    assert q.pop_due(100) == ("a", "second")
    assert q.pop_due(100) == ("b", "b")
    assert q.pop_due(100) is None and q.next_deadline_ms() is None


def test_cancel_drops_the_key():
    q: TimerQueue[str] = TimerQueue()
    q.schedule(("session", "g", "m"), 10, "x")
    assert ("session", "g", "m") in q
    assert q.cancel(("session", "g", "m")) is True
    assert q.cancel(("session", "g", "m")) is False
    assert q.next_deadline_ms() is None and q.pop_due(1_000) is None


def test_stale_entries_do_not_grow_the_heap_without_bound():
    q: TimerQueue[int] = TimerQueue()
    for i in range(10_000):
        q.schedule("k", i, i)
    assert len(q._heap) <= 2 * len(q) + 64 + 1
    assert q.pop_due(10_000) == ("k", 9_999)


def test_the_owner_hears_of_every_schedule():
    heard = []
    timer = CoordinatorTimer(lambda: heard.append(1))
    timer.queue("classic").schedule("k", 5, "t")
    timer.queue("share").schedule("k", 3, "u")
    assert len(heard) == 2
    assert timer.queue("classic") is timer.queue("classic")
    assert timer.next_deadline_ms() == 3


def test_due_tasks_come_earliest_first_and_a_task_may_cancel_a_later_one():
    timer = CoordinatorTimer()
    classic, consumer = timer.queue("classic"), timer.queue("consumer")
    classic.schedule("join", 20, "complete join")
    consumer.schedule("session", 10, "fence")
    classic.schedule("heartbeat", 30, "expire")
    taken = []
    for name, key, task in timer.due(25):
        taken.append((name, key, task))
        if task == "fence":
            classic.cancel("join")  # what the first task did is seen by the next take
    assert taken == [("consumer", "session", "fence")]
    assert [(n, k) for n, k, _ in timer.due(30)] == [("classic", "heartbeat")]
    assert timer.next_deadline_ms() is None


@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 1_000), st.booleans()), max_size=60))
def test_the_queue_behaves_like_a_dict_of_deadlines(ops):
    q: TimerQueue[int] = TimerQueue()
    model: dict[int, int] = {}
    for key, deadline, cancel in ops:
        if cancel:
            assert q.cancel(key) == (key in model)
            model.pop(key, None)
        else:
            q.schedule(key, deadline, deadline)
            model[key] = deadline
    assert q.next_deadline_ms() == min(model.values(), default=None)
    popped = []
    while (entry := q.pop_due(1_000)) is not None:
        popped.append(entry)
    assert sorted(popped) == sorted(model.items())
    assert [d for _, d in popped] == sorted(d for _, d in popped)
