"""The keyed timer of a coordinator shard, owned by the runtime (Kafka's ``CoordinatorTimer``).

Cores do not keep timer heaps of their own. The runtime gives every hosted shard
one :class:`CoordinatorTimer`; each core of the shard schedules in its own
:class:`TimerQueue` of it (``timer.queue("classic")``): a deadline and a task per
key, where scheduling a key again replaces its deadline and task, and cancelling
drops it. The runtime sleeps until the earliest deadline of the shard, takes
the tasks due one by one (:meth:`CoordinatorTimer.due`) and hands them to its
coordinator, which runs each in turn (``task(now_ms)`` returns a
:class:`~broker.coordinator.result.CoordinatorResult`) and persists what they
return; a task taken later sees what the earlier ones changed, cancellations
included.

A core built without a runtime (unit tests) gets a queue of its own and drives
it by hand (:meth:`TimerQueue.pop_due`).

Everything here is pure: no clock (deadlines are absolute milliseconds the
caller computed from its ``now_ms``), no I/O.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Hashable, Iterator
from typing import Any, Generic, TypeVar

__all__ = ["CoordinatorTimer", "TimerQueue"]

T = TypeVar("T")

# A queue's heap keeps the entries of rescheduled and cancelled keys until they come
# to the top; past this many stale entries (beyond twice the live ones) it is rebuilt,
# so a key rescheduled on every heartbeat does not grow it without bound.
STALE_SLACK = 64


class TimerQueue(Generic[T]):
    """Keyed deadlines, the earliest first: at most one (deadline, task) per key."""

    __slots__ = ("_entries", "_heap", "_on_schedule", "_seq")

    def __init__(self, on_schedule: Callable[[], None] | None = None) -> None:
        # key -> (deadline, sequence, task); the heap holds (deadline, sequence, key)
        # and an entry whose sequence is no longer its key's is stale.
        self._entries: dict[Hashable, tuple[int, int, T]] = {}
        self._heap: list[tuple[int, int, Hashable]] = []
        self._seq = itertools.count()
        self._on_schedule = on_schedule

    def schedule(self, key: Hashable, deadline_ms: int, task: T) -> None:
        """Run ``task`` at ``deadline_ms``, in place of whatever ``key`` had."""
        seq = next(self._seq)
        self._entries[key] = (deadline_ms, seq, task)
        heapq.heappush(self._heap, (deadline_ms, seq, key))
        if len(self._heap) > 2 * len(self._entries) + STALE_SLACK:
            self._heap = [(d, s, k) for k, (d, s, _) in self._entries.items()]
            heapq.heapify(self._heap)
        if self._on_schedule is not None:
            self._on_schedule()

    def cancel(self, key: Hashable) -> bool:
        """Drop ``key``'s timer; whether it had one."""
        return self._entries.pop(key, None) is not None

    def deadline(self, key: Hashable) -> int | None:
        entry = self._entries.get(key)
        return None if entry is None else entry[0]

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def keys(self) -> Iterator[Hashable]:
        return iter(list(self._entries))

    def _prune(self) -> None:
        heap, entries = self._heap, self._entries
        while heap:
            _, seq, key = heap[0]
            entry = entries.get(key)
            if entry is not None and entry[1] == seq:
                return
            heapq.heappop(heap)

    def next_deadline_ms(self) -> int | None:
        """The earliest deadline, or None when no timer is set."""
        self._prune()
        return self._heap[0][0] if self._heap else None

    def pop_due(self, now_ms: int) -> tuple[Hashable, T] | None:
        """The earliest (key, task) due at ``now_ms``, removed; None when none is due."""
        self._prune()
        if not self._heap or self._heap[0][0] > now_ms:
            return None
        _, _, key = heapq.heappop(self._heap)
        _, _, task = self._entries.pop(key)
        return key, task


class CoordinatorTimer:
    """The timer of one hosted shard: a :class:`TimerQueue` per core, by name.

    ``on_schedule`` (the runtime's, set once the shard is loaded: replay runs in a
    worker thread) is told of every new deadline, so the task that sleeps until the
    earliest one wakes up to look again.
    """

    __slots__ = ("_queues", "on_schedule")

    def __init__(self, on_schedule: Callable[[], None] | None = None) -> None:
        self._queues: dict[str, TimerQueue[Any]] = {}
        self.on_schedule = on_schedule

    def _scheduled(self) -> None:
        if self.on_schedule is not None:
            self.on_schedule()

    def queue(self, name: str) -> TimerQueue[Any]:
        """The queue of the core called ``name`` (created on first use)."""
        queue = self._queues.get(name)
        if queue is None:
            queue = self._queues[name] = TimerQueue(self._scheduled)
        return queue

    def next_deadline_ms(self) -> int | None:
        deadlines = [d for q in self._queues.values() if (d := q.next_deadline_ms()) is not None]
        return min(deadlines, default=None)

    def pop_due(self, now_ms: int) -> tuple[str, Hashable, Any] | None:
        """The earliest (queue name, key, task) due at ``now_ms``, removed; None when none is."""
        earliest: tuple[int, str] | None = None
        for name, queue in self._queues.items():
            deadline = queue.next_deadline_ms()
            if deadline is not None and deadline <= now_ms and (earliest is None or deadline < earliest[0]):
                earliest = (deadline, name)
        if earliest is None:
            return None
        popped = self._queues[earliest[1]].pop_due(now_ms)
        assert popped is not None
        return (earliest[1], *popped)

    def due(self, now_ms: int) -> Iterator[tuple[str, Hashable, Any]]:
        """The tasks due at ``now_ms``, earliest first, each removed as it is taken: a task
        that cancels or reschedules another before that one is taken is heeded."""
        while (entry := self.pop_due(now_ms)) is not None:
            yield entry
