"""What a group core hands the coordinator runtime, and what it is handed.

One group shard per ``__consumer_offsets`` partition owns the cores of every
group type (one namespace of group ids). The cores are pure: no I/O, no clock
reads, no trio. They speak to the runtime through these few types:

* an operation takes ``now_ms`` and the request data and returns a
  :class:`CoordinatorResult`: the records to append (state changes happen only
  when the runtime replays them, so load and live share one code path) and the
  response to send once those records are durable;
* topic metadata comes in through :class:`TopicImage` (passed in, never looked
  up globally); :class:`TopicTable` is a dict-backed one for tests and adapters;
* :func:`target_assignment_due` is the one rule (KIP-1263) every modern group
  type uses to decide whether a heartbeat may compute a new target assignment.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar

__all__ = ["CoordinatorResult", "TopicImage", "TopicInfo", "TopicTable", "target_assignment_due"]

R = TypeVar("R")


@dataclass(slots=True)
class CoordinatorResult(Generic[R]):
    """Records to replay and append, in order, then the response to send.

    ``records`` holds typed records (each has ``key``/``value`` bytes through
    the core's codec); the runtime replays every one of them through the core's
    ``replay`` before it appends them, and answers with ``response`` only once
    they are durable. ``response`` is None for timer work.
    """

    records: list[Any] = field(default_factory=list)
    response: R | None = None

    def extend(self, other: CoordinatorResult[Any]) -> None:
        self.records.extend(other.records)


def target_assignment_due(last_assignment_ms: int, interval_ms: int, now_ms: int) -> bool:
    """Whether a group whose epoch is ahead of its target may compute the next target now.

    KIP-1263 batches target assignments: a group computes at most one per
    assignment interval (``<type>.assignment.interval.ms``, Kafka 4.4's default
    1 s). ``last_assignment_ms`` is when the current target was computed, as its
    TargetAssignmentMetadata record holds it; 0 (or less) means never, which is
    also what a group's last member leaving writes, so the first target of a new
    or emptied group is never delayed. An interval of 0 disables the batching.

    Nothing is scheduled: until a heartbeat arrives once the interval has passed,
    members keep the target they have, and the heartbeat that finds the interval
    over computes the target with every change made meanwhile (Kafka 4.4 works the
    same way for consumer and share groups).
    """
    if last_assignment_ms <= 0 or interval_ms <= 0:
        return True
    return now_ms >= last_assignment_ms + interval_ms


@dataclass(frozen=True, slots=True)
class TopicInfo:
    """One topic as the group cores see it."""

    name: str
    topic_id: uuid.UUID
    partitions: int
    # racks[p] = the racks of partition p's replicas; empty when unknown.
    racks: tuple[tuple[str, ...], ...] = ()


class TopicImage(Protocol):
    """The read-only topic metadata a group core needs."""

    def topic(self, name: str) -> TopicInfo | None:
        """The topic called ``name``, if it exists."""

    def topic_by_id(self, topic_id: uuid.UUID) -> TopicInfo | None:
        """The topic with this id, if it exists."""

    def topic_names(self) -> Iterable[str]:
        """Every topic name (regular-expression subscriptions walk them)."""


class TopicTable:
    """A :class:`TopicImage` held in dicts."""

    def __init__(self, topics: Iterable[TopicInfo] | Mapping[str, tuple[uuid.UUID, int]] = ()) -> None:
        self._by_name: dict[str, TopicInfo] = {}
        self._by_id: dict[uuid.UUID, TopicInfo] = {}
        if isinstance(topics, Mapping):
            for name, (topic_id, partitions) in topics.items():
                self.put(TopicInfo(name, topic_id, partitions))
        else:
            for info in topics:
                self.put(info)

    def put(self, info: TopicInfo) -> None:
        self.remove(info.name)
        self._by_name[info.name] = info
        self._by_id[info.topic_id] = info

    def set(self, name: str, topic_id: uuid.UUID, partitions: int) -> None:
        self.put(TopicInfo(name, topic_id, partitions))

    def remove(self, name: str) -> None:
        old = self._by_name.pop(name, None)
        if old is not None:
            self._by_id.pop(old.topic_id, None)

    def topic(self, name: str) -> TopicInfo | None:
        return self._by_name.get(name)

    def topic_by_id(self, topic_id: uuid.UUID) -> TopicInfo | None:
        return self._by_id.get(topic_id)

    def topic_names(self) -> Iterable[str]:
        return list(self._by_name)
