# Generated from protocol/schemas/ConsumerGroupTargetAssignmentMemberValue.json by codegen; do not edit.
"""ConsumerGroupTargetAssignmentMemberValue: coordinator-value, api key 7, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar
import uuid

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    check_count,
    read_compact_array_len,
    read_unknown_tags,
    read_uuid,
    write_compact_array_len,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "TopicPartition",
    "ConsumerGroupTargetAssignmentMemberValue",
]


@dataclass(slots=True)
class TopicPartition:
    """Partitions the target assignment gives the member."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_id': (0, 0), 'partitions': (0, 0)}

    topic_id: uuid.UUID = UUID_ZERO
    """ID of the topic."""

    partitions: list[int] = field(default_factory=list)
    """Indexes of the topic's partitions."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ConsumerGroupTargetAssignmentMemberValue(Message):
    """ConsumerGroupTargetAssignmentMemberValue, api key 7."""

    API_KEY: ClassVar[int] = 7
    NAME: ClassVar[str] = 'ConsumerGroupTargetAssignmentMemberValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_partitions': (0, 0)}

    topic_partitions: list[TopicPartition] = field(default_factory=list)
    """Partitions the target assignment gives the member."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_TopicPartition_v0(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopicPartition(f_topic_id, f_partitions, unknown), pos


def _d_ConsumerGroupTargetAssignmentMemberValue_v0(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_topic_partitions = []
    append = f_topic_partitions.append
    for _ in range(n):
        item, pos = _d_TopicPartition_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ConsumerGroupTargetAssignmentMemberValue(f_topic_partitions, unknown), pos


def _e_TopicPartition_v0(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ConsumerGroupTargetAssignmentMemberValue_v0(o, out):
    value = o.topic_partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicPartition_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ConsumerGroupTargetAssignmentMemberValue._DECODERS = {
    0: _d_ConsumerGroupTargetAssignmentMemberValue_v0,
}
ConsumerGroupTargetAssignmentMemberValue._ENCODERS = {
    0: _e_ConsumerGroupTargetAssignmentMemberValue_v0,
}
