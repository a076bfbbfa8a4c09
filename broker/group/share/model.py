"""The share groups' state and results: what :mod:`broker.group.share.core` keeps and returns.

A :class:`Group` and its :class:`Member` records as replay builds them (epochs, the
target and current assignments, the share-partitions initialised); the answers of a
heartbeat (:class:`ShareHeartbeat` in a :class:`HeartbeatResult`), of a session expiry
(:class:`ExpiryResult`) and of a deletion (:class:`DeleteResult`); and the view of
topics the core reads (:class:`TopicMetadata`, :class:`TopicTable` for tests).
"""

from __future__ import annotations

import enum
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from broker.coordinator.result import CoordinatorResult
from broker.group.share.records import PersistedRecord

__all__ = [
    "Assignment",
    "DeleteResult",
    "ExpiryResult",
    "Group",
    "GroupState",
    "GroupType",
    "HeartbeatResult",
    "Member",
    "ShareHeartbeat",
    "TopicAssignment",
    "TopicMetadata",
    "TopicTable",
]

TopicAssignment = list[tuple[uuid.UUID, list[int]]]
Assignment = dict[uuid.UUID, frozenset[int]]


class GroupType(enum.StrEnum):
    SHARE = "share"
    CONSUMER = "consumer"
    CLASSIC = "classic"


class GroupState(enum.StrEnum):
    EMPTY = "Empty"
    STABLE = "Stable"
    DEAD = "Dead"


class TopicMetadata(Protocol):
    """What the coordinator needs to know about topics."""

    def topic(self, name: str) -> tuple[uuid.UUID, int] | None:
        """(topic id, partition count) of the topic called ``name``, if it exists."""

    def topic_name(self, topic_id: uuid.UUID) -> str | None:
        """Name of the topic with this id, if it exists."""


class TopicTable:
    """A TopicMetadata held in a dict: for tests, and for adapters to fill."""

    def __init__(self, topics: Mapping[str, tuple[uuid.UUID, int]] | None = None) -> None:
        self._by_name: dict[str, tuple[uuid.UUID, int]] = {}
        self._names: dict[uuid.UUID, str] = {}
        for name, (topic_id, partitions) in (topics or {}).items():
            self.set(name, topic_id, partitions)

    def set(self, name: str, topic_id: uuid.UUID, partitions: int) -> None:
        self.remove(name)
        self._by_name[name] = (topic_id, partitions)
        self._names[topic_id] = name

    def remove(self, name: str) -> None:
        old = self._by_name.pop(name, None)
        if old is not None:
            self._names.pop(old[0], None)

    def topic(self, name: str) -> tuple[uuid.UUID, int] | None:
        return self._by_name.get(name)

    def topic_name(self, topic_id: uuid.UUID) -> str | None:
        return self._names.get(topic_id)


@dataclass(frozen=True, slots=True)
class ShareHeartbeat:
    """The ShareGroupHeartbeat response fields.

    ``assignment`` is None when the response carries no assignment (it did
    not change); otherwise the member's full assignment as (topic id, sorted
    partitions), topics sorted by id.
    """

    error_code: int
    error_message: str | None
    member_id: str | None
    member_epoch: int
    heartbeat_interval_ms: int
    assignment: TopicAssignment | None


class HeartbeatResult(CoordinatorResult[ShareHeartbeat]):
    """A heartbeat's records (framed, already applied) and its answer, whose fields
    read through (``result.member_epoch``)."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.response, name)

    @property
    def records_to_persist(self) -> list[PersistedRecord]:
        return self.records


class ExpiryResult(CoordinatorResult[list[tuple[str, str]]]):
    """Session expiry: the records that fence the members, and the (group id, member
    id) of each member expired, whose records the caller gives back."""

    __slots__ = ()

    @property
    def expired(self) -> list[tuple[str, str]]:
        return self.response if self.response is not None else []

    @property
    def records_to_persist(self) -> list[PersistedRecord]:
        return self.records


@dataclass(slots=True)
class DeleteResult(CoordinatorResult[int]):
    """Outcome of deleting a group (the response: its error code); ``initialized``
    names the share-partitions whose state the caller should now delete from the
    share coordinator."""

    error_message: str | None = None
    initialized: dict[uuid.UUID, frozenset[int]] = field(default_factory=dict)

    @property
    def error_code(self) -> int:
        return self.response if self.response is not None else 0

    @property
    def records_to_persist(self) -> list[PersistedRecord]:
        return self.records


@dataclass(slots=True)
class Member:
    member_id: str
    member_epoch: int = 0
    previous_member_epoch: int = 0
    rack_id: str | None = None
    client_id: str = ""
    client_host: str = ""
    subscribed_topic_names: frozenset[str] = frozenset()
    assigned: Assignment = field(default_factory=dict)


@dataclass(slots=True)
class Group:
    group_id: str
    group_epoch: int = 0
    metadata_hash: int = 0
    assignment_epoch: int = 0
    # When the target was computed (0: never, or the group emptied since).
    assignment_timestamp_ms: int = 0
    members: dict[str, Member] = field(default_factory=dict)
    target: dict[str, Assignment] = field(default_factory=dict)
    initialized: dict[uuid.UUID, tuple[str, frozenset[int]]] = field(default_factory=dict)

    @property
    def state(self) -> GroupState:
        return GroupState.STABLE if self.members else GroupState.EMPTY

    def subscriptions(self) -> dict[str, frozenset[str]]:
        return {member_id: m.subscribed_topic_names for member_id, m in self.members.items()}
