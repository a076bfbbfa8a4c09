"""The consumer protocol that classic members embed in JoinGroup and SyncGroup.

A classic member's protocol metadata is a ConsumerProtocolSubscription and its
assignment a ConsumerProtocolAssignment, each framed as an int16 version
followed by the struct (every version starts with the v0 layout; newer
clients may send versions past the ones known here, which are read as the
newest known). A consumer group that hosts classic members (after an online
upgrade, or when a classic member joins it) reads their subscriptions from
these bytes and hands their assignments back in the same version they use.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from broker.group.shard_api import merged_partitions, sorted_wire
from broker.protocol.errors import ProtocolError
from broker.protocol.messages.consumer_protocol_assignment import ConsumerProtocolAssignment
from broker.protocol.messages.consumer_protocol_assignment import TopicPartition as AssignedTopic
from broker.protocol.messages.consumer_protocol_subscription import ConsumerProtocolSubscription

__all__ = ["Subscription", "decode_assignment", "decode_subscription", "encode_assignment", "version_of"]

_INT16 = struct.Struct(">h")


@dataclass(frozen=True, slots=True)
class Subscription:
    version: int
    topics: tuple[str, ...]
    owned: Mapping[str, tuple[int, ...]]
    rack_id: str | None


def version_of(data: bytes) -> int:
    if len(data) < 2:
        raise ProtocolError("embedded consumer protocol shorter than its 2-byte version")
    return _INT16.unpack_from(data)[0]


def decode_subscription(data: bytes) -> Subscription:
    """Raises ProtocolError when the bytes are not a consumer subscription."""
    version = version_of(data)
    if version < 0:
        raise ProtocolError(f"consumer subscription version {version}")
    read = min(version, ConsumerProtocolSubscription.MAX_VERSION)
    try:
        sub = ConsumerProtocolSubscription.decode(memoryview(data)[2:], read)
    except (ProtocolError, IndexError, ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError(f"malformed consumer subscription: {exc}") from exc
    owned: dict[str, tuple[int, ...]] = {}
    for tp in sub.owned_partitions:
        owned[tp.topic] = tuple(sorted(set(owned.get(tp.topic, ())) | set(tp.partitions)))
    return Subscription(version, tuple(sorted(set(sub.topics))), owned, sub.rack_id)


def decode_assignment(data: bytes) -> dict[str, list[int]]:
    """Topic name -> partitions of a ConsumerProtocolAssignment (empty bytes: nothing)."""
    if not data:
        return {}
    version = version_of(data)
    read = min(max(version, 0), ConsumerProtocolAssignment.MAX_VERSION)
    try:
        decoded = ConsumerProtocolAssignment.decode(memoryview(data)[2:], read)
    except (ProtocolError, IndexError, ValueError, UnicodeDecodeError) as exc:
        raise ProtocolError(f"malformed consumer assignment: {exc}") from exc
    merged = merged_partitions((tp.topic, tp.partitions) for tp in decoded.assigned_partitions)
    return {t: sorted(ps) for t, ps in merged.items()}


def encode_assignment(version: int, assignment: Mapping[str, Iterable[int]]) -> bytes:
    """A ConsumerProtocolAssignment in ``version`` (clamped to the versions known here)."""
    version = min(max(version, 0), ConsumerProtocolAssignment.MAX_VERSION)
    message = ConsumerProtocolAssignment(
        assigned_partitions=[AssignedTopic(t, ps) for t, ps in sorted_wire(assignment)],
        user_data=None,
    )
    return _INT16.pack(version) + message.encode(version)
