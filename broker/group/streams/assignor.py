"""The ``sticky`` task assignor of streams groups (KIP-1071).

Pure and deterministic. Active tasks stay with the member that ran them when
balance allows (each member keeps at most its share, ``ceil(tasks / members)``),
the rest go to the least loaded member. Every task then gets up to
``standby_replicas`` standbys, never on the process that runs its active (nor
twice on one process): members that had the standby before come first, then
the least loaded. With ``rack_tags`` (``group.streams.rack.aware.assignment.tags``)
standbys prefer members whose values of those client tags differ from the
ones already holding the task, so replicas spread over racks or zones.

Warm-up tasks are not planned: Kafka 4.4's sticky assignor plans none either.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

__all__ = ["TaskMember", "Tasks", "sticky_assign"]

Tasks = dict[str, frozenset[int]]  # subtopology id -> partitions (task ids)
Task = tuple[str, int]


@dataclass(frozen=True, slots=True)
class TaskMember:
    process_id: str
    previous_active: Mapping[str, frozenset[int]] = field(default_factory=dict)
    previous_standby: Mapping[str, frozenset[int]] = field(default_factory=dict)
    client_tags: Mapping[str, str] = field(default_factory=dict)


def _as_tasks(items: set[Task]) -> Tasks:
    out: dict[str, set[int]] = {}
    for s, p in items:
        out.setdefault(s, set()).add(p)
    return {s: frozenset(ps) for s, ps in out.items()}


def sticky_assign(
    members: Mapping[str, TaskMember],
    tasks: Mapping[str, int],
    standby_replicas: int = 0,
    rack_tags: Sequence[str] = (),
) -> dict[str, tuple[Tasks, Tasks]]:
    """(active, standby) tasks per member."""
    order = sorted(members)
    if not order:
        return {}
    active: dict[str, set[Task]] = {m: set() for m in order}
    standby: dict[str, set[Task]] = {m: set() for m in order}
    every = [(s, p) for s in sorted(tasks) for p in range(tasks[s])]
    wanted = set(every)
    quota = -(-len(every) // len(order))
    owner: dict[Task, str] = {}
    for m in order:
        for s, ps in sorted(members[m].previous_active.items()):
            for p in sorted(ps):
                if (s, p) in wanted and (s, p) not in owner and len(active[m]) < quota:
                    owner[s, p] = m
                    active[m].add((s, p))
    for task in every:
        if task not in owner:
            m = min(order, key=lambda m: (len(active[m]), m))
            owner[task] = m
            active[m].add(task)
    if standby_replicas > 0:
        for task in every:
            holders = [owner[task]]
            used = {members[owner[task]].process_id}

            def distance(m: str, holders: list[str] = holders) -> int:
                tags = members[m].client_tags
                return -sum(1 for k in rack_tags for h in holders if tags.get(k) != members[h].client_tags.get(k))

            for _ in range(standby_replicas):
                candidates = [m for m in order if members[m].process_id not in used]
                if not candidates:
                    break
                m = min(
                    candidates,
                    key=lambda m: (
                        distance(m),
                        task[1] not in members[m].previous_standby.get(task[0], ()),
                        len(active[m]) + len(standby[m]),
                        m,
                    ),
                )
                standby[m].add(task)
                used.add(members[m].process_id)
                holders.append(m)
    return {m: (_as_tasks(active[m]), _as_tasks(standby[m])) for m in order}
