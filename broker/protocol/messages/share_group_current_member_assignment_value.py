# Generated from protocol/schemas/ShareGroupCurrentMemberAssignmentValue.json by codegen; do not edit.
"""ShareGroupCurrentMemberAssignmentValue: coordinator-value, api key 14, versions 0-0."""

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
    "TopicPartitions",
    "ShareGroupCurrentMemberAssignmentValue",
]
_S0 = Struct('>iib')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class TopicPartitions:
    """Common structure TopicPartitions."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_id': (0, 0), 'partitions': (0, 0)}

    topic_id: uuid.UUID = UUID_ZERO
    """ID of the topic."""

    partitions: list[int] = field(default_factory=list)
    """IDs of the partitions."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ShareGroupCurrentMemberAssignmentValue(Message):
    """ShareGroupCurrentMemberAssignmentValue, api key 14."""

    API_KEY: ClassVar[int] = 14
    NAME: ClassVar[str] = 'ShareGroupCurrentMemberAssignmentValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'member_epoch': (0, 0), 'previous_member_epoch': (0, 0), 'state': (0, 0), 'assigned_partitions': (0, 0)}

    member_epoch: int = 0
    """Member epoch the coordinator expects the member to send in its heartbeat request."""

    previous_member_epoch: int = 0
    """Previous member epoch, which the member may retry with if the most recent epoch bump never reached it."""

    state: int = 0
    """State of the member; the possible values are defined by MemberState."""

    assigned_partitions: list[TopicPartitions] = field(default_factory=list)
    """Partitions that are assigned to, or owned by, this member."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_TopicPartitions_v0(buf, pos):
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
    return TopicPartitions(f_topic_id, f_partitions, unknown), pos


def _d_ShareGroupCurrentMemberAssignmentValue_v0(buf, pos):
    f_member_epoch, f_previous_member_epoch, f_state = _S0u(buf, pos)
    pos += 9
    n, pos = read_compact_array_len(buf, pos)
    f_assigned_partitions = []
    append = f_assigned_partitions.append
    for _ in range(n):
        item, pos = _d_TopicPartitions_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ShareGroupCurrentMemberAssignmentValue(f_member_epoch, f_previous_member_epoch, f_state, f_assigned_partitions, unknown), pos


def _e_TopicPartitions_v0(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ShareGroupCurrentMemberAssignmentValue_v0(o, out):
    out += _S0p(o.member_epoch, o.previous_member_epoch, o.state)
    value = o.assigned_partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicPartitions_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ShareGroupCurrentMemberAssignmentValue._DECODERS = {
    0: _d_ShareGroupCurrentMemberAssignmentValue_v0,
}
ShareGroupCurrentMemberAssignmentValue._ENCODERS = {
    0: _e_ShareGroupCurrentMemberAssignmentValue_v0,
}
