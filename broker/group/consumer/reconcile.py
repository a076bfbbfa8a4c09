"""Member reconciliation for KIP-848 consumer groups (Kafka's CurrentAssignmentBuilder).

A member converges on its target assignment in steps the client can follow
safely: partitions are revoked before anything new is assigned, and a
partition is given to a member only once its previous owner has released it.

Assignments here map topic id -> partition -> *assignment epoch*: the member
epoch at which the member got the partition (Kafka 4.4 persists it, so that an
offset commit carrying an older member epoch can still be accepted for a
partition the member already owned at that epoch).

What happens on a heartbeat is the table :data:`STEPS`, keyed by (member
state, whether the member epoch lags the target epoch, whether the subscription
changed in this heartbeat, whether the member still reports owning a partition
pending revocation), with one row for every combination.
"""

from __future__ import annotations

import enum
import itertools
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

from broker.protocol.errors import ErrorCode

__all__ = [
    "STEPS",
    "EpochAssignment",
    "MemberAssignment",
    "MemberState",
    "Step",
    "owns_any",
    "reconcile",
]

# topic id -> partition -> assignment epoch
EpochAssignment = dict[uuid.UUID, dict[int, int]]


class MemberState(enum.IntEnum):
    """Kafka's MemberState (the byte persisted in the current-assignment record)."""

    STABLE = 0
    UNREVOKED_PARTITIONS = 1
    UNRELEASED_PARTITIONS = 2
    UNKNOWN = 127

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True, slots=True)
class MemberAssignment:
    """A member's reconciliation state: what the current-assignment record holds."""

    member_epoch: int = 0
    previous_member_epoch: int = 0
    state: MemberState = MemberState.STABLE
    assigned: Mapping[uuid.UUID, Mapping[int, int]] = field(default_factory=dict)
    pending_revocation: Mapping[uuid.UUID, Mapping[int, int]] = field(default_factory=dict)

    def is_reconciled_to(self, target_epoch: int) -> bool:
        return self.state is MemberState.STABLE and self.member_epoch == target_epoch

    def assigned_sets(self) -> dict[uuid.UUID, frozenset[int]]:
        return {t: frozenset(ps) for t, ps in self.assigned.items() if ps}


class Step(enum.Enum):
    KEEP = "keep"  # nothing changes
    NEXT = "next"  # compute the next assignment towards the target
    STRIP = "strip"  # drop unsubscribed topics from the current assignment only
    FENCE = "fence"  # unknown state: the member must rejoin from scratch
    RESTART = "restart"  # unknown state, member owns nothing: reconcile from the target epoch


S = MemberState

# (state, epoch lags target, subscription changed, still owns a revoked partition) -> step
STEPS: dict[tuple[MemberState, bool, bool, bool], Step] = {}
for _lag, _changed, _owns in itertools.product((False, True), repeat=3):
    STEPS[S.STABLE, _lag, _changed, _owns] = Step.NEXT if _lag else (Step.STRIP if _changed else Step.KEEP)
    if _owns:
        STEPS[S.UNREVOKED_PARTITIONS, _lag, _changed, _owns] = Step.STRIP if _changed else Step.KEEP
    else:
        STEPS[S.UNREVOKED_PARTITIONS, _lag, _changed, _owns] = Step.NEXT
    STEPS[S.UNRELEASED_PARTITIONS, _lag, _changed, _owns] = Step.NEXT
    STEPS[S.UNKNOWN, _lag, _changed, _owns] = Step.FENCE if _owns else Step.RESTART
assert len(STEPS) == len(MemberState) * 8, "every (state, lag, changed, owns) combination needs a row"


def owns_any(
    owned: Iterable[tuple[uuid.UUID, Iterable[int]]] | None, partitions: Mapping[uuid.UUID, Mapping[int, int]]
) -> bool:
    """Whether the owned partitions a member reported include any of ``partitions``.

    ``owned`` None (not reported in this heartbeat) counts as still owning them.
    """
    if owned is None:
        return True
    for topic_id, ps in owned:
        pending = partitions.get(topic_id)
        if pending and any(p in pending for p in ps):
            return True
    return False


@dataclass(frozen=True, slots=True)
class Reconciled:
    assignment: MemberAssignment
    error: ErrorCode = ErrorCode.NONE


def reconcile(
    current: MemberAssignment,
    *,
    target_epoch: int,
    target: Mapping[uuid.UUID, frozenset[int]],
    subscribed: frozenset[uuid.UUID],
    subscription_changed: bool,
    owned: Iterable[tuple[uuid.UUID, Iterable[int]]] | None,
    partition_epoch: Callable[[uuid.UUID, int], int],
) -> Reconciled:
    """The member's next reconciliation state.

    ``subscribed``: the topic ids the member subscribes to now (names and a
    resolved regex); ``owned``: the partitions it reported (None: not
    reported); ``partition_epoch(t, p)``: the member epoch of the partition's
    current owner, -1 when nobody owns it.
    """
    owned_list = None if owned is None else [(t, list(ps)) for t, ps in owned]
    lag = current.member_epoch != target_epoch
    owns = owns_any(owned_list, current.pending_revocation) if current.pending_revocation else False
    if current.state is S.UNKNOWN:
        owns = owned_list is None or any(ps for _, ps in owned_list)
    step = STEPS[current.state, lag, subscription_changed, owns]
    if step is Step.KEEP:
        return Reconciled(current)
    if step is Step.FENCE:
        return Reconciled(current, ErrorCode.FENCED_MEMBER_EPOCH)
    if step is Step.STRIP:
        return Reconciled(_strip(current, subscribed, owned_list))
    epoch = target_epoch if step is Step.RESTART else current.member_epoch
    return Reconciled(_next(current, epoch, target_epoch, target, subscribed, owned_list, partition_epoch))


def _strip(
    current: MemberAssignment,
    subscribed: frozenset[uuid.UUID],
    owned: list[tuple[uuid.UUID, list[int]]] | None,
) -> MemberAssignment:
    """Move partitions of topics no longer subscribed to pending revocation."""
    dropped = {t: ps for t, ps in current.assigned.items() if t not in subscribed}
    if not dropped:
        return current
    assigned = {t: ps for t, ps in current.assigned.items() if t in subscribed}
    pending: dict[uuid.UUID, dict[int, int]] = {t: dict(ps) for t, ps in current.pending_revocation.items()}
    for t, ps in dropped.items():
        pending.setdefault(t, {}).update(ps)
    if owns_any(owned, pending):
        return MemberAssignment(
            current.member_epoch, current.previous_member_epoch, S.UNREVOKED_PARTITIONS, assigned, pending
        )
    return MemberAssignment(
        current.member_epoch, current.previous_member_epoch, current.state, assigned, current.pending_revocation
    )


def _next(
    current: MemberAssignment,
    member_epoch: int,
    target_epoch: int,
    target: Mapping[uuid.UUID, frozenset[int]],
    subscribed: frozenset[uuid.UUID],
    owned: list[tuple[uuid.UUID, list[int]]] | None,
    partition_epoch: Callable[[uuid.UUID, int], int],
) -> MemberAssignment:
    assigned: EpochAssignment = {}
    revoke: EpochAssignment = {}
    to_assign: dict[uuid.UUID, set[int]] = {}
    unreleased = False
    for t in sorted(set(target) | set(current.assigned)):
        wanted = target.get(t, frozenset()) if t in subscribed else frozenset()
        have = current.assigned.get(t, {})
        keep = {p: e for p, e in have.items() if p in wanted}
        drop = {p: e for p, e in have.items() if p not in wanted}
        pending_here = current.pending_revocation.get(t, {})
        add = set()
        for p in wanted:
            if p in keep:
                continue
            # Free, or still held by this very member as a partition it is revoking.
            if partition_epoch(t, p) != -1 and p not in pending_here:
                unreleased = True
                continue
            add.add(p)
        if keep:
            assigned[t] = keep
        if drop:
            revoke[t] = drop
        if add:
            to_assign[t] = add
    if revoke and owns_any(owned, revoke):
        # Revoke first: the member keeps its epoch until it reports them gone.
        return _built(current, member_epoch, S.UNREVOKED_PARTITIONS, assigned, revoke)
    for t, ps in to_assign.items():
        topic = assigned.setdefault(t, {})
        for p in ps:
            topic[p] = target_epoch
    state = S.UNRELEASED_PARTITIONS if unreleased else S.STABLE
    return _built(current, target_epoch, state, assigned, {})


def _built(
    current: MemberAssignment,
    epoch: int,
    state: MemberState,
    assigned: EpochAssignment,
    pending: EpochAssignment,
) -> MemberAssignment:
    # Kafka's updateMemberEpoch: the previous epoch moves only when the epoch does.
    previous = current.member_epoch if epoch != current.member_epoch else current.previous_member_epoch
    return MemberAssignment(epoch, previous, state, assigned, pending)
