"""The seam between classic groups and KIP-848 consumer groups (online migration).

Kafka 4.4 converts groups between the two protocols, and so does this broker:

* **upgrade**: a ConsumerGroupHeartbeat join to a classic group. An *empty*
  classic group is deleted (its GroupMetadata tombstone) and a consumer group
  takes its id, whatever ``group.consumer.migration.policy`` says; a non-empty
  one is converted when the policy allows upgrades and the group uses the
  ``consumer`` protocol type: its members become classic members of the
  consumer group at the group's generation, keeping their assignments, and the
  requests parked in a classic rebalance are answered REBALANCE_IN_PROGRESS so
  that they join again. Otherwise the join is answered GROUP_ID_NOT_FOUND
  ("Group <id> is not a consumer group.").
* **classic members in a consumer group**: JoinGroup, SyncGroup, Heartbeat and
  LeaveGroup of such members are served by the consumer core (a JoinGroup is
  answered at once with the member epoch as generation; Heartbeat answers
  REBALANCE_IN_PROGRESS when the member must join again to move on).
* **downgrade**: when the last consumer-protocol member leaves (or is fenced)
  and classic members remain, the policy permitting and their number within
  ``group.max.size``, the consumer group's records are deleted and a classic
  group is written with the remaining members and their target assignments;
  it then rebalances.

:class:`ClassicDirectory` is what the shard hands :class:`ConsumerGroups` as
its :class:`~broker.group.consumer.core.GroupDirectory`: it answers from
the classic core (:mod:`broker.group.classic`) and the other cores' registries,
and builds the classic records both directions need. The records it returns
are routed by the shard: :class:`ClassicTombstone` hands the classic group over,
:class:`ClassicAdopt` makes the classic core take the downgraded group.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from broker.group.classic.core import ClassicGroups
from broker.group.classic.model import GroupState, preferred_protocol
from broker.group.classic.records import group_metadata_record
from broker.group.consumer.classic_protocol import encode_assignment, version_of
from broker.group.consumer.model import (
    ClassicMemberSnapshot,
    ClassicSnapshot,
    DowngradeMember,
    GroupDirectory,
)
from broker.protocol.errors import ProtocolError
from broker.protocol.messages.group_metadata_value import GroupMetadataValue, MemberMetadata

__all__ = ["ClassicAdopt", "ClassicDirectory", "ClassicTombstone"]

CONSUMER_PROTOCOL_TYPE = "consumer"


class _ClassicRecord(tuple):
    """A GroupMetadata record the consumer core hands the classic core: (key bytes, value
    bytes or None, ...)."""

    __slots__ = ()

    @property
    def key(self) -> bytes:
        return self[0]

    @property
    def value(self) -> bytes | None:
        return self[1]


class ClassicTombstone(_ClassicRecord):
    """A GroupMetadata tombstone as (key bytes, None): the classic group is handed over."""

    __slots__ = ()


class ClassicAdopt(_ClassicRecord):
    """(key bytes, value bytes, group id, GroupMetadataValue): the classic group an online
    downgrade creates, for the classic core to take over."""

    __slots__ = ()

    @property
    def group_id(self) -> str:
        return self[2]

    @property
    def metadata(self) -> GroupMetadataValue:
        return self[3]


class ClassicDirectory(GroupDirectory):
    def __init__(
        self,
        classic: ClassicGroups,
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

    def classic_max_size(self) -> int:
        return self.classic.config.max_size

    def classic_snapshot(self, group_id: str) -> ClassicSnapshot | None:
        group = self.classic.groups.get(group_id)
        if group is None:
            return None
        return ClassicSnapshot(
            group_id,
            group.generation,
            group.protocol_type,
            group.protocol_name,
            tuple(
                ClassicMemberSnapshot(
                    m.member_id,
                    m.group_instance_id,
                    m.client_id,
                    m.client_host,
                    m.rebalance_timeout_ms,
                    m.session_timeout_ms,
                    tuple(m.protocols),
                    m.assignment,
                )
                for m in group.members.values()
            ),
        )

    def classic_group_records(self, group_id: str, generation: int, members: Sequence[DowngradeMember]) -> list[object]:
        """The GroupMetadata record of the classic group a downgrade creates (Kafka's
        ClassicGroup.fromConsumerGroup): Stable at the consumer group's epoch, the
        protocol every member supports that most prefer, each member's target
        assignment in its protocol's version."""
        protocol = preferred_protocol([[name for name, _ in m.protocols] for m in members])
        if protocol is None and members:
            protocol = members[0].protocols[0][0]
        metadata = []
        for m in members:
            subscription = dict(m.protocols).get(protocol or "", b"")
            try:
                version = version_of(subscription)
            except ProtocolError:
                version = 0
            metadata.append(
                MemberMetadata(
                    member_id=m.member_id,
                    group_instance_id=m.instance_id,
                    client_id=m.client_id,
                    client_host=m.client_host,
                    rebalance_timeout=m.rebalance_timeout_ms,
                    session_timeout=m.session_timeout_ms,
                    subscription=subscription,
                    assignment=encode_assignment(version, m.assignment),
                )
            )
        value = GroupMetadataValue(
            protocol_type=CONSUMER_PROTOCOL_TYPE,
            generation=generation,
            protocol=protocol,
            leader=members[0].member_id if members else None,
            current_state_timestamp=-1,
            members=metadata,
        )
        key, raw = group_metadata_record(group_id, value)
        assert raw is not None
        return [ClassicAdopt((key, raw, group_id, value))]
