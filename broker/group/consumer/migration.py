"""The seam between classic groups and KIP-848 consumer groups (online migration).

Kafka 4.4 converts groups between the two protocols:

* **upgrade**: a ConsumerGroupHeartbeat join to a classic group. An *empty*
  classic group is deleted (its GroupMetadata tombstone) and a consumer group
  takes its id, whatever ``group.consumer.migration.policy`` says; a non-empty
  one is converted (its members become consumer-group members that keep
  speaking JoinGroup/SyncGroup) when the policy allows upgrades and the group
  uses the ``consumer`` protocol type.
* **downgrade**: when the last consumer-protocol member leaves a consumer
  group whose remaining members all speak the classic protocol, the group is
  converted back (policy permitting); a JoinGroup to an *empty* consumer group
  deletes it and creates a classic group.

:class:`ClassicDirectory` is what the shard hands :class:`ConsumerGroups` as
its :class:`~broker.group.consumer.coordinator.GroupDirectory`: it answers from
the classic core (:mod:`broker.group.classic`) and the other cores' registries,
and builds the tombstone of an empty classic group. The empty-group upgrade is
served; the conversion of non-empty groups (and classic members inside a
consumer group) is not yet: such a join is answered GROUP_ID_NOT_FOUND
("Group <id> is not a consumer group."), which is also what Kafka answers when
the policy forbids the upgrade.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from broker.group.classic import ClassicGroupCoordinator, GroupState
from broker.group.consumer.coordinator import GroupDirectory
from broker.group.offsets import group_metadata_record

__all__ = ["ClassicDirectory", "ClassicTombstone"]


class ClassicTombstone(tuple):
    """A GroupMetadata tombstone as (key bytes, None), for the shard to route to the classic core."""

    __slots__ = ()

    @property
    def key(self) -> bytes:
        return self[0]

    @property
    def value(self) -> None:
        return None


class ClassicDirectory(GroupDirectory):
    def __init__(
        self,
        classic: ClassicGroupCoordinator,
        others: Iterable[Callable[[str], str | None]] = (),
    ) -> None:
        self.classic = classic
        self.others = list(others)

    def group_type(self, group_id: str) -> str | None:
        if self.classic.group_type(group_id) is not None:
            return "classic"
        for lookup in self.others:
            kind = lookup(group_id)
            if kind is not None:
                return kind
        return None

    def is_empty_classic(self, group_id: str) -> bool:
        group = self.classic.groups.get(group_id)
        return group is not None and group.state is GroupState.EMPTY

    def classic_tombstones(self, group_id: str) -> list[object]:
        key, _ = group_metadata_record(group_id, None)
        return [ClassicTombstone((key, None))]
