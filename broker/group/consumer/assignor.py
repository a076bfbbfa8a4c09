"""The server-side consumer-group assignors: ``uniform`` and ``range`` (KIP-848).

Both are pure and deterministic: the result depends only on the values passed
in, never on dict or set iteration order. Members are named by member id;
topics by topic id with their partition count. ``previous`` is the member's
current *target* assignment, the only input to stickiness (as in Kafka).

``uniform`` (Kafka's default, ``UniformAssignor``):

* homogeneous subscriptions (every member subscribes to the same topics): all
  partitions form one pool; every member gets ``P // M`` or ``P // M + 1`` of
  them; a member keeps what it held up to its quota (one extra slot goes to
  members that held more, in member-id order), the rest is handed out to the
  members furthest below their quota;
* heterogeneous subscriptions: every partition goes to a member subscribed to
  its topic; members keep what they held, new partitions go to the least
  loaded subscriber (topics with the fewest subscribers first), then
  partitions move from the most loaded member to a less loaded subscriber
  while that narrows the gap by more than one. The result has the same
  properties as Kafka's (complete, valid, sticky, balanced as far as the
  subscriptions allow) but is not guaranteed to be the same assignment.

``range`` (Kafka's ``RangeAssignor``): per topic, the subscribed members in
member-id order get consecutive ranges, the first ``P % M`` one partition more.
Topics with the same partition count and the same subscribers therefore get
the same ranges (co-partitioning), which is what a range assignor is for.

Racks: Kafka 4.4's server-side assignors ignore them; so do these.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

__all__ = ["ASSIGNORS", "DEFAULT_ASSIGNORS", "Assignment", "MemberSpec", "range_assign", "uniform_assign"]

Assignment = dict[uuid.UUID, frozenset[int]]
TopicPartition = tuple[uuid.UUID, int]


@dataclass(frozen=True, slots=True)
class MemberSpec:
    """What an assignor knows about one member."""

    subscribed: frozenset[uuid.UUID]
    previous: Mapping[uuid.UUID, frozenset[int]] = field(default_factory=dict)
    rack_id: str | None = None
    instance_id: str | None = None


def _as_assignment(owned: set[TopicPartition]) -> Assignment:
    out: dict[uuid.UUID, set[int]] = {}
    for topic_id, partition in owned:
        out.setdefault(topic_id, set()).add(partition)
    return {t: frozenset(ps) for t, ps in out.items()}


def _valid_previous(spec: MemberSpec, topics: Mapping[uuid.UUID, int]) -> list[TopicPartition]:
    return sorted(
        (t, p)
        for t, ps in spec.previous.items()
        if t in spec.subscribed and topics.get(t, 0) > 0
        for p in ps
        if 0 <= p < topics[t]
    )


def uniform_assign(members: Mapping[str, MemberSpec], topics: Mapping[uuid.UUID, int]) -> dict[str, Assignment]:
    subscriptions = {m: frozenset(t for t in s.subscribed if topics.get(t, 0) > 0) for m, s in members.items()}
    if len(set(subscriptions.values())) <= 1:
        owned = _uniform_homogeneous(members, subscriptions, topics)
    else:
        owned = _uniform_heterogeneous(members, subscriptions, topics)
    return {m: _as_assignment(owned[m]) for m in members}


def _uniform_homogeneous(
    members: Mapping[str, MemberSpec],
    subscriptions: Mapping[str, frozenset[uuid.UUID]],
    topics: Mapping[uuid.UUID, int],
) -> dict[str, set[TopicPartition]]:
    order = sorted(members)
    owned: dict[str, set[TopicPartition]] = {m: set() for m in order}
    if not order:
        return owned
    common = subscriptions[order[0]]
    pool = [(t, p) for t in sorted(common) for p in range(topics[t])]
    if not pool:
        return owned
    base, extra = divmod(len(pool), len(order))
    taken: set[TopicPartition] = set()
    leftovers: dict[str, list[TopicPartition]] = {}
    for m in order:
        kept = [tp for tp in _valid_previous(members[m], topics) if tp not in taken]
        for tp in kept[:base]:
            owned[m].add(tp)
            taken.add(tp)
        leftovers[m] = kept[base:]
    # One extra slot each for members that held more than the base quota.
    for m in order:
        if extra == 0:
            break
        for tp in leftovers[m]:
            if tp not in taken:
                owned[m].add(tp)
                taken.add(tp)
                extra -= 1
                break
    free = [tp for tp in pool if tp not in taken]
    free.reverse()
    # Everyone up to the base quota first, most deficient first; then the extra slots.
    for m in sorted(order, key=lambda m: (len(owned[m]), m)):
        while len(owned[m]) < base:
            owned[m].add(free.pop())
    for m in order:
        if not free or extra == 0:
            break
        if len(owned[m]) == base:
            owned[m].add(free.pop())
            extra -= 1
    assert not free, "the homogeneous quotas cover every partition"
    return owned


def _uniform_heterogeneous(
    members: Mapping[str, MemberSpec],
    subscriptions: Mapping[str, frozenset[uuid.UUID]],
    topics: Mapping[uuid.UUID, int],
) -> dict[str, set[TopicPartition]]:
    order = sorted(members)
    owned: dict[str, set[TopicPartition]] = {m: set() for m in order}
    holder: dict[TopicPartition, str] = {}
    for m in order:
        for tp in _valid_previous(members[m], topics):
            if tp not in holder:
                holder[tp] = m
                owned[m].add(tp)
    subscribers: dict[uuid.UUID, list[str]] = {}
    for m in order:
        for t in subscriptions[m]:
            subscribers.setdefault(t, []).append(m)
    for t in sorted(subscribers, key=lambda t: (len(subscribers[t]), t)):
        for p in range(topics[t]):
            if (t, p) in holder:
                continue
            m = min(subscribers[t], key=lambda m: (len(owned[m]), m))
            holder[(t, p)] = m
            owned[m].add((t, p))
    # Narrow the gaps: move one partition from a more loaded member to a less loaded
    # subscriber of its topic while the loads differ by more than one. Each move
    # lowers the sum of squared loads, so this ends.
    while True:
        best: tuple[int, str, TopicPartition, str] | None = None
        for src in order:
            for tp in sorted(owned[src]):
                dst = min(subscribers[tp[0]], key=lambda m: (len(owned[m]), m))
                gap = len(owned[src]) - len(owned[dst])
                if gap > 1 and (best is None or gap > best[0]):
                    best = (gap, src, tp, dst)
        if best is None:
            return owned
        _, src, tp, dst = best
        owned[src].discard(tp)
        owned[dst].add(tp)


def range_assign(members: Mapping[str, MemberSpec], topics: Mapping[uuid.UUID, int]) -> dict[str, Assignment]:
    out: dict[str, dict[uuid.UUID, frozenset[int]]] = {m: {} for m in members}
    for t in sorted(topics):
        count = topics[t]
        subs = sorted(m for m, s in members.items() if t in s.subscribed)
        if count <= 0 or not subs:
            continue
        base, extra = divmod(count, len(subs))
        start = 0
        for i, m in enumerate(subs):
            size = base + (1 if i < extra else 0)
            if size:
                out[m][t] = frozenset(range(start, start + size))
            start += size
    return out


Assignor = Callable[[Mapping[str, MemberSpec], Mapping[uuid.UUID, int]], dict[str, Assignment]]
ASSIGNORS: dict[str, Assignor] = {"uniform": uniform_assign, "range": range_assign}
# group.consumer.assignors default; the first one is the group's default assignor.
DEFAULT_ASSIGNORS: tuple[str, ...] = ("uniform", "range")
