"""The share-group ``simple`` assignor (KIP-932, the behaviour Kafka 4.2 ships).

Share groups let several members consume one partition, so the assignor has
different goals from a consumer-group assignor:

* every subscribed partition goes to at least one subscribed member;
* when members outnumber partitions each partition is shared by
  ``ceil(members / partitions)`` members (the *desired sharing*);
* member loads differ by at most one;
* it is sticky second: previous assignments are kept wherever the first three
  goals allow, so adding a member moves as few partitions as possible.

When every member subscribes to the same topics (homogeneous) all partitions
form one pool and the balance holds across topics. When subscriptions differ
(heterogeneous) each topic is its own pool balanced over the members subscribed
to it, which is how Kafka's heterogeneous builder behaves; a running load count
breaks ties so that members end up with similar totals.

The function is pure and deterministic: its result depends only on the values
passed in, never on dict or set iteration order.

How one pool is filled (``P`` partitions, ``M`` members, sharing ``s``):

1. Quotas. ``s * P`` slots are spread over the members, ``base`` or ``base + 1``
   each. The ``+1`` goes to the members that held most of the pool before
   (stickiness), then to those with the lowest load so far, then by member id.
2. Retention. Members keep previous partitions, round-robin one at a time, while
   both the member's quota and the partition's sharing limit allow.
3. Filling. Partitions with the fewest holders are handed to the members with
   the largest remaining deficit. A member whose only open partitions are ones it
   already holds swaps: some holder ``n`` of a full partition ``q`` (there is one,
   since ``q`` has more holders than the open partition ``p``) gives ``q`` to the
   member and takes ``p``. Supply equals demand (``s * P`` slots on both sides),
   so filling ends with every partition shared exactly ``s`` times and every
   member at its quota.
"""

from __future__ import annotations

import heapq
import uuid
from collections import deque
from collections.abc import Iterable, Mapping

__all__ = ["ASSIGNOR_NAME", "Assignment", "GroupAssignment", "assign"]

ASSIGNOR_NAME = "simple"

TopicPartition = tuple[uuid.UUID, int]
Assignment = dict[uuid.UUID, set[int]]
GroupAssignment = dict[str, Assignment]


def assign(
    members: Mapping[str, Iterable[uuid.UUID]],
    topics: Mapping[uuid.UUID, int],
    previous: Mapping[str, Mapping[uuid.UUID, Iterable[int]]] | None = None,
) -> GroupAssignment:
    """Assign the partitions of ``topics`` to ``members``.

    ``members`` maps a member id to the topic ids it subscribes to; ``topics``
    maps a topic id to its partition count (topics missing from it, or with no
    partitions, are skipped); ``previous`` is the last assignment, used only for
    stickiness (entries for unknown members, topics or partitions are ignored).
    Every member appears in the result, possibly with an empty assignment.
    """
    previous = previous or {}
    subscriptions = {
        member_id: frozenset(t for t in topic_ids if topics.get(t, 0) > 0) for member_id, topic_ids in members.items()
    }
    held_before: dict[str, set[TopicPartition]] = {
        member_id: {
            (topic_id, partition)
            for topic_id, partitions in previous.get(member_id, {}).items()
            if topic_id in subscriptions[member_id]
            for partition in partitions
            if 0 <= partition < topics[topic_id]
        }
        for member_id in subscriptions
    }
    result: GroupAssignment = {member_id: {} for member_id in subscriptions}
    load = dict.fromkeys(subscriptions, 0)
    for partitions, pool_members in _pools(subscriptions, topics):
        granted = _fill_pool(partitions, pool_members, held_before, load)
        for member_id, owned in granted.items():
            load[member_id] += len(owned)
            for topic_id, partition in owned:
                result[member_id].setdefault(topic_id, set()).add(partition)
    return result


def _pools(
    subscriptions: Mapping[str, frozenset[uuid.UUID]],
    topics: Mapping[uuid.UUID, int],
) -> list[tuple[list[TopicPartition], list[str]]]:
    """Split the work into pools of (partitions, members that may take them)."""
    if not subscriptions:
        return []
    distinct = set(subscriptions.values())
    if len(distinct) == 1:
        (common,) = distinct
        partitions = [(t, p) for t in sorted(common) for p in range(topics[t])]
        return [(partitions, sorted(subscriptions))]
    every_topic = sorted(set().union(*distinct))
    return [
        ([(t, p) for p in range(topics[t])], sorted(m for m, subscribed in subscriptions.items() if t in subscribed))
        for t in every_topic
    ]


def _fill_pool(
    partitions: list[TopicPartition],
    members: list[str],
    held_before: Mapping[str, set[TopicPartition]],
    load: Mapping[str, int],
) -> dict[str, set[TopicPartition]]:
    if not partitions or not members:
        return {m: set() for m in members}
    sharing = -(-len(members) // len(partitions))
    base, extra = divmod(sharing * len(partitions), len(members))
    in_pool = set(partitions)
    kept_before = {m: sorted(held_before[m] & in_pool) for m in members}
    order = sorted(members, key=lambda m: (-len(kept_before[m]), load[m], m))
    rank = {m: i for i, m in enumerate(order)}
    quota = {m: base + (1 if rank[m] < extra else 0) for m in members}

    holders: dict[TopicPartition, set[str]] = {tp: set() for tp in partitions}
    owned: dict[str, set[TopicPartition]] = {m: set() for m in members}

    def give(member: str, tp: TopicPartition) -> None:
        holders[tp].add(member)
        owned[member].add(tp)

    # Retention, one partition per member per round so contention is fair.
    queues = {m: deque(kept_before[m]) for m in order}
    active = [m for m in order if queues[m]]
    while active:
        still_active = []
        for member in active:
            queue = queues[member]
            while queue and len(owned[member]) < quota[member]:
                tp = queue.popleft()
                if len(holders[tp]) < sharing:
                    give(member, tp)
                    break
            if queue and len(owned[member]) < quota[member]:
                still_active.append(member)
        active = still_active

    # Filling, partition by partition, least-shared first. The heap holds one
    # entry per member still short of its quota, largest deficit first.
    def deficit(member: str) -> int:
        return quota[member] - len(owned[member])

    short = [(-deficit(m), rank[m], m) for m in order if deficit(m) > 0]
    heapq.heapify(short)
    for tp in sorted(partitions, key=lambda tp: (len(holders[tp]), tp)):
        skipped = []
        while short and len(holders[tp]) < sharing:
            entry = heapq.heappop(short)
            member = entry[2]
            if member in holders[tp]:
                skipped.append(entry)
                continue
            give(member, tp)
            if deficit(member) > 0:
                heapq.heappush(short, (-deficit(member), entry[1], member))
        for entry in skipped:
            heapq.heappush(short, entry)

    # Repair: members left short only hold the partitions that still have room.
    for member in order:
        while deficit(member) > 0:
            open_elsewhere = [tp for tp in partitions if len(holders[tp]) < sharing and tp not in owned[member]]
            if open_elsewhere:
                give(member, min(open_elsewhere, key=lambda tp: (len(holders[tp]), tp)))
                continue
            p = min(tp for tp in owned[member] if len(holders[tp]) < sharing)
            q = min(tp for tp in partitions if tp not in owned[member])
            n = min(holders[q] - holders[p], key=lambda m: rank[m])
            holders[q].discard(n)
            owned[n].discard(q)
            give(n, p)
            give(member, q)
    return owned
