"""Where a new topic's partitions go: leaders spread over brokers, racks first.

Pure: brokers in, replica lists out. With racks set, the brokers are put in an
order that alternates racks (one broker of each rack in turn), so consecutive
partitions land in different racks and each rack gets its share of leaders; a
partition's further replicas (when replication comes) go to the next brokers
of that order whose racks it does not use yet. Without racks the order is the
broker ids. The start position is random per topic (as in Kafka), so many small
topics do not all put their partition 0 on the same broker.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

__all__ = ["assign_replicas", "rack_alternated"]


def rack_alternated(brokers: Sequence[tuple[int, str | None]]) -> list[int]:
    """Broker ids ordered so racks alternate: a1, b1, c1, a2, b2, ... (ids sorted per rack)."""
    by_rack: dict[str | None, list[int]] = {}
    for node_id, rack in sorted(brokers):
        by_rack.setdefault(rack, []).append(node_id)
    racks = sorted(by_rack, key=lambda r: (r is None, r or ""))
    out: list[int] = []
    depth = max((len(v) for v in by_rack.values()), default=0)
    for i in range(depth):
        for rack in racks:
            members = by_rack[rack]
            if i < len(members):
                out.append(members[i])
    return out


def assign_replicas(
    brokers: Sequence[tuple[int, str | None]],
    partitions: int,
    replication_factor: int,
    *,
    first_partition: int = 0,
    start: int | None = None,
    rng: random.Random | None = None,
) -> list[list[int]]:
    """Replica lists for partitions ``first_partition .. first_partition+partitions-1``
    (the first replica is the preferred leader). Raises ValueError when there are
    fewer brokers than ``replication_factor``."""
    order = rack_alternated(brokers)
    n = len(order)
    if replication_factor > n:
        raise ValueError(f"{replication_factor} replicas need {replication_factor} brokers, there are {n}")
    racks = dict(brokers)
    if start is None:
        start = (rng or random).randrange(n) if n else 0
    out: list[list[int]] = []
    for p in range(first_partition, first_partition + partitions):
        first = (start + p) % n
        replicas = [order[first]]
        used = {racks[order[first]]}
        distinct_racks = len(set(racks.values()))
        step = 1
        while len(replicas) < replication_factor:
            candidate = order[(first + step) % n]
            step += 1
            if candidate in replicas:
                continue
            if racks[candidate] in used and len(used) < distinct_racks and step <= n:
                continue  # another rack is still free for this partition
            replicas.append(candidate)
            used.add(racks[candidate])
        out.append(replicas)
    return out
