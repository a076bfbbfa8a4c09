# Generated from protocol/schemas/ConsumerProtocolAssignment.json by codegen; do not edit.
"""ConsumerProtocolAssignment: data, versions 0-3."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
    read_array_len,
    read_nullable_bytes,
    read_string,
    write_array_len,
    write_nullable_bytes,
    write_string,
)

__all__ = [
    "TopicPartition",
    "ConsumerProtocolAssignment",
]


@dataclass(slots=True)
class TopicPartition:
    """Topics and partitions that are assigned to this consumer."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic': (0, 3), 'partitions': (0, 3)}

    topic: str = ''
    """Name of the topic."""

    partitions: list[int] = field(default_factory=list)
    """Partitions that are assigned to this consumer."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ConsumerProtocolAssignment(Message):
    """ConsumerProtocolAssignment, api key None."""

    API_KEY: ClassVar[int] = -1
    NAME: ClassVar[str] = 'ConsumerProtocolAssignment'
    TYPE: ClassVar[str] = 'data'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = None
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'assigned_partitions': (0, 3), 'user_data': (0, 3)}

    assigned_partitions: list[TopicPartition] = field(default_factory=list)
    """Topics and partitions that are assigned to this consumer."""

    user_data: bytes | None = None
    """Opaque data supplied by the user."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_TopicPartition_v0(buf, pos):
    f_topic, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    return TopicPartition(f_topic, f_partitions), pos


def _d_ConsumerProtocolAssignment_v0(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_assigned_partitions = []
    append = f_assigned_partitions.append
    for _ in range(n):
        item, pos = _d_TopicPartition_v0(buf, pos)
        append(item)
    f_user_data, pos = read_nullable_bytes(buf, pos)
    return ConsumerProtocolAssignment(f_assigned_partitions, f_user_data), pos


def _e_TopicPartition_v0(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    out += pack('>%di' % len(value), *value)


def _e_ConsumerProtocolAssignment_v0(o, out):
    value = o.assigned_partitions
    write_array_len(out, value)
    for item in value:
        _e_TopicPartition_v0(item, out)
    write_nullable_bytes(out, o.user_data)


ConsumerProtocolAssignment._DECODERS = {
    0: _d_ConsumerProtocolAssignment_v0,
    1: _d_ConsumerProtocolAssignment_v0,
    2: _d_ConsumerProtocolAssignment_v0,
    3: _d_ConsumerProtocolAssignment_v0,
}
ConsumerProtocolAssignment._ENCODERS = {
    0: _e_ConsumerProtocolAssignment_v0,
    1: _e_ConsumerProtocolAssignment_v0,
    2: _e_ConsumerProtocolAssignment_v0,
    3: _e_ConsumerProtocolAssignment_v0,
}
