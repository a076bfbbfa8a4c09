"""What a group core hands the coordinator runtime, and what it is handed.

One group shard per ``__consumer_offsets`` partition owns the cores of every
group type (one namespace of group ids). The cores are pure: no I/O, no clock
reads, no trio. They speak to the runtime through these few types:

* an operation takes ``now_ms`` and the request data and returns a
  :class:`~broker.coordinator.result.CoordinatorResult`: the records to append
  (state changes happen only when the runtime replays them, so load and live
  share one code path) and the response to send once those records are durable;
* topic metadata comes in through :class:`TopicImage` (passed in, never looked
  up globally); :class:`TopicTable` is a dict-backed one for tests and adapters;
* :func:`target_assignment_due` is the one rule (KIP-1263) every modern group
  type uses to decide whether a heartbeat may compute a new target assignment;
* :func:`described_not_found` is every modern group type's describe answer for a
  group id it holds no group under;
* :func:`topics_hash` is the metadata hash consumer and share groups keep of the
  topics they subscribe to.
"""

from __future__ import annotations

import hashlib
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol, TypeVar

from broker.protocol.errors import ErrorCode

__all__ = [
    "TopicImage",
    "TopicInfo",
    "TopicTable",
    "described_not_found",
    "heartbeat_interval_while_batching",
    "merged_partitions",
    "sorted_wire",
    "target_assignment_due",
    "topics_hash",
]


D = TypeVar("D")
# What an assignment is keyed by: topic ids (consumer and share groups), subtopology ids (streams).
Owner = TypeVar("Owner", uuid.UUID, str)


def sorted_wire(assignment: Mapping[Owner, Iterable[int]]) -> list[tuple[Owner, list[int]]]:
    """An assignment as the wire and the records list it: by topic (or subtopology) id,
    partitions sorted, topics with none left out."""
    return [(t, sorted(ps)) for t, ps in sorted(assignment.items()) if ps]


def merged_partitions(entries: Iterable[tuple[Owner, Iterable[int]]]) -> dict[Owner, frozenset[int]]:
    """An assignment from the list the wire or a record carries (what :func:`sorted_wire`
    writes): a topic (or subtopology) listed twice gets its partitions merged."""
    out: dict[Owner, frozenset[int]] = {}
    for owner, partitions in entries:
        out[owner] = out.get(owner, frozenset()) | frozenset(partitions)
    return out


def described_not_found(described: Callable[..., D], group_id: str, group_type: str, elsewhere: bool) -> D:
    """A describe's answer for a group id with no ``group_type`` group: GROUP_ID_NOT_FOUND,
    saying so when the id is a group of another type (``elsewhere``)."""
    message = f"Group {group_id} is not a {group_type} group." if elsewhere else f"Group {group_id} not found."
    return described(error_code=int(ErrorCode.GROUP_ID_NOT_FOUND), error_message=message, group_id=group_id)


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


# A member told to come back when the next target is due comes back after at least this
# long: arriving a little late costs nothing, arriving early costs a heartbeat.
MIN_BATCHED_HEARTBEAT_INTERVAL_MS = 50
# Added to the time until the target is due: the member's timer starts when it reads
# the answer, after the coordinator's clock was read, so this only absorbs rounding.
BATCHED_HEARTBEAT_SLACK_MS = 5
# A consumer-group member waiting for partitions other members still have to revoke
# heartbeats this often: it gets them a fraction of a second after they are given up, for
# four heartbeats a second while it waits.
RELEASE_WAIT_HEARTBEAT_MS = 250


def heartbeat_interval_while_batching(
    configured_ms: int,
    target_ms: int,
    interval_ms: int,
    now_ms: int,
    *,
    waiting_for_release: bool = False,
) -> int:
    """``HeartbeatIntervalMs`` to answer while KIP-1263 batches target assignments (beyond Kafka).

    With batching, a change (a member joining, leaving, a subscription) reaches the
    target only with the first heartbeat once the assignment interval has passed
    since the current target was computed (at ``target_ms``); a member heartbeating
    every ``configured_ms`` (5 s by default) would learn of it up to that long after
    it was decided. So within the interval of the current target every member is
    told to come back when the interval is over: one that joined meanwhile gets its
    partitions then (it heartbeats when the next target is due), and one that holds
    partitions the next target gives to others learns it then too. Members starting
    together converge at the end of the interval instead of a heartbeat interval
    later. ``target_ms`` is ``now_ms`` when this heartbeat computed the target.

    A consumer-group member whose target holds partitions others have yet to revoke
    (``waiting_for_release``) comes back every :data:`RELEASE_WAIT_HEARTBEAT_MS`.

    Never longer than ``configured_ms``; with ``interval_ms`` 0 (no batching) only the
    last rule applies.
    """
    if waiting_for_release:
        return min(configured_ms, RELEASE_WAIT_HEARTBEAT_MS)
    if interval_ms <= 0 or target_ms <= 0:
        return configured_ms
    due_in = target_ms + interval_ms - now_ms
    if due_in < 0:
        return configured_ms  # the interval is over: nothing is held back
    return min(configured_ms, max(MIN_BATCHED_HEARTBEAT_INTERVAL_MS, due_in + BATCHED_HEARTBEAT_SLACK_MS))


@dataclass(frozen=True, slots=True)
class TopicInfo:
    """One topic as the group cores see it."""

    name: str
    topic_id: uuid.UUID
    partitions: int
    # racks[p] = the racks of partition p's replicas; empty when unknown.
    racks: tuple[tuple[str, ...], ...] = ()


def topics_hash(topics: Iterable[TopicInfo]) -> int:
    """The metadata hash of a group's subscribed topics that exist (0: none does): their
    names, ids, partition counts and replica racks, in name order. A change to any of
    them changes the hash, and a group whose hash changed computes a new target."""
    digest = hashlib.blake2b(digest_size=8)
    found = False
    for info in sorted(topics, key=lambda i: i.name):
        found = True
        encoded = info.name.encode()
        digest.update(len(encoded).to_bytes(4, "big") + encoded + info.topic_id.bytes)
        digest.update(info.partitions.to_bytes(4, "big"))
        for racks in info.racks:
            digest.update(b"|" + ",".join(sorted(racks)).encode())
    return int.from_bytes(digest.digest(), "big", signed=True) if found else 0


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
