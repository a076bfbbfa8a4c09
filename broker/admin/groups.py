"""The members of a consumer group (KIP-848) or a classic group, read alike from
ConsumerGroupDescribe and DescribeGroups answers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from broker.admin.client import classic_assignment, member_assignment

__all__ = ["GroupMember", "classic_members", "consumer_members"]


@dataclass(frozen=True, slots=True)
class GroupMember:
    """One member: its ids, client, host and assignment (topic -> sorted partitions); a
    consumer group's member also has its epoch and target assignment."""

    member_id: str
    instance_id: str | None
    host: str
    client_id: str
    assignment: dict[str, list[int]]
    member_epoch: int | None = None
    target: dict[str, list[int]] | None = None


def consumer_members(described: Any) -> list[GroupMember]:
    """The members of a ConsumerGroupDescribe ``DescribedGroup``."""
    return [
        GroupMember(
            m.member_id,
            m.instance_id,
            m.client_host,
            m.client_id,
            member_assignment(m.assignment),
            m.member_epoch,
            member_assignment(m.target_assignment),
        )
        for m in described.members
    ]


def classic_members(described: Any) -> list[GroupMember]:
    """The members of a DescribeGroups ``DescribedGroup`` (their assignments decoded as the
    consumer protocol's)."""
    return [
        GroupMember(
            m.member_id,
            m.group_instance_id,
            m.client_host,
            m.client_id,
            classic_assignment(bytes(m.member_assignment)),
        )
        for m in described.members
    ]
