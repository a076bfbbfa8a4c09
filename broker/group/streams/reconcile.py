"""Member reconciliation for KIP-1071 streams groups (Kafka's streams CurrentAssignmentBuilder).

A member converges on its target in steps it can follow safely: active tasks it must
give up are revoked first (the member keeps its epoch until it reports them gone), a
task moves to it only once no other member still runs it, and standbys follow the
target at once, never on the process running the task as active.
"""

from __future__ import annotations

from broker.group.streams.assignor import Tasks
from broker.group.streams.model import STABLE, UNRELEASED, UNREVOKED, StreamsGroup
from broker.group.streams.records import CurrentValue, TargetValue

__all__ = ["reconcile"]


def reconcile(
    group: StreamsGroup,
    mine: tuple[str, ...],
    process_id: str,
    current: CurrentValue,
    target_epoch: int,
    target: TargetValue | None,
    owned_active: Tasks | None,
) -> CurrentValue:
    """The member's current assignment one step towards ``target``: active tasks it must
    give up are revoked first (UNREVOKED until it reports them gone), a task moves to it
    only once no other member runs it (UNRELEASED meanwhile), and standbys follow the
    target at once, never on the process that runs the task as active."""
    if target is None:
        target = TargetValue()
    if current.state == STABLE and current.member_epoch == target_epoch:
        return current
    if current.state == UNREVOKED:
        still = owned_active is None or any(
            p in current.active_pending_revocation.get(s, ()) for s, ps in owned_active.items() for p in ps
        )
        if still:
            return current
    wanted_active = target.active
    keep = {s: {p: e for p, e in ps.items() if p in wanted_active.get(s, ())} for s, ps in current.active.items()}
    keep = {s: ps for s, ps in keep.items() if ps}
    revoke = {s: frozenset(p for p in ps if p not in wanted_active.get(s, ())) for s, ps in current.active.items()}
    revoke = {s: ps for s, ps in revoke.items() if ps}
    if revoke and (owned_active is None or any(p in revoke.get(s, ()) for s, ps in owned_active.items() for p in ps)):
        return CurrentValue(
            current.member_epoch,
            current.previous_member_epoch,
            UNREVOKED,
            keep,
            current.standby,
            current.warmup,
            revoke,
        )
    unreleased = False
    for s, ps in wanted_active.items():
        for p in ps:
            if p in keep.get(s, {}):
                continue
            if group.active_owner(s, p, without=mine) is not None:
                unreleased = True
                continue
            keep.setdefault(s, {})[p] = target_epoch
    standby: dict[str, frozenset[int]] = {}
    for s, ps in target.standby.items():
        placed = set()
        for p in ps:
            if p in keep.get(s, {}):
                continue  # never standby and active for the same task
            owner = group.active_owner(s, p, mine)
            if owner is None or owner.meta.process_id != process_id:
                placed.add(p)
        if placed:
            standby[s] = frozenset(placed)
    previous = current.member_epoch if target_epoch != current.member_epoch else current.previous_member_epoch
    return CurrentValue(target_epoch, previous, UNRELEASED if unreleased else STABLE, keep, standby, {}, {})
