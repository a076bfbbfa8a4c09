# Generated from protocol/schemas/ConsumerGroupCurrentMemberAssignmentValue.json by codegen; do not edit.
"""ConsumerGroupCurrentMemberAssignmentValue: coordinator-value, api key 8, versions 0-0."""

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
    read_compact_nullable_array_len,
    read_tag_header,
    read_unknown_tags,
    read_uuid,
    read_uvarint,
    write_compact_array_len,
    write_compact_nullable_array_len,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "TopicPartitions",
    "ConsumerGroupCurrentMemberAssignmentValue",
]
_S0 = Struct('>iib')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class TopicPartitions:
    """Common structure TopicPartitions."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_id': (0, 0), 'partitions': (0, 0), 'assignment_epochs': (0, 0)}

    topic_id: uuid.UUID = UUID_ZERO
    """ID of the topic."""

    partitions: list[int] = field(default_factory=list)
    """Indexes of the topic's partitions."""

    assignment_epochs: list[int] | None = None
    """Epoch at which each partition in Partitions (same order, same length) was assigned to the member, used to fence commits from stale members."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ConsumerGroupCurrentMemberAssignmentValue(Message):
    """ConsumerGroupCurrentMemberAssignmentValue, api key 8."""

    API_KEY: ClassVar[int] = 8
    NAME: ClassVar[str] = 'ConsumerGroupCurrentMemberAssignmentValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'member_epoch': (0, 0), 'previous_member_epoch': (0, 0), 'state': (0, 0), 'assigned_partitions': (0, 0), 'partitions_pending_revocation': (0, 0)}

    member_epoch: int = 0
    """Epoch the coordinator expects in the member's next heartbeat."""

    previous_member_epoch: int = 0
    """Epoch before the last bump, still accepted in case the member never saw that bump."""

    state: int = 0
    """Reconciliation state of the member (Kafka's MemberState code)."""

    assigned_partitions: list[TopicPartitions] = field(default_factory=list)
    """Partitions the member owns or has been given."""

    partitions_pending_revocation: list[TopicPartitions] = field(default_factory=list)
    """Partitions the member must give up."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_TopicPartitions_v0(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    f_assignment_epochs = None
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                n, p = read_compact_nullable_array_len(buf, p)
                if n < 0:
                    f_assignment_epochs = None
                else:
                    check_count(buf, p, n, 4)
                    f_assignment_epochs = list(unpack_from('>%di' % n, buf, p))
                    p += n * 4
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return TopicPartitions(f_topic_id, f_partitions, f_assignment_epochs, unknown), pos


def _d_ConsumerGroupCurrentMemberAssignmentValue_v0(buf, pos):
    f_member_epoch, f_previous_member_epoch, f_state = _S0u(buf, pos)
    pos += 9
    n, pos = read_compact_array_len(buf, pos)
    f_assigned_partitions = []
    append = f_assigned_partitions.append
    for _ in range(n):
        item, pos = _d_TopicPartitions_v0(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions_pending_revocation = []
    append = f_partitions_pending_revocation.append
    for _ in range(n):
        item, pos = _d_TopicPartitions_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ConsumerGroupCurrentMemberAssignmentValue(f_member_epoch, f_previous_member_epoch, f_state, f_assigned_partitions, f_partitions_pending_revocation, unknown), pos


def _e_TopicPartitions_v0(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    tags = list(o._unknown_tagged_fields)
    if o.assignment_epochs is not None:
        t = bytearray()
        value = o.assignment_epochs
        write_compact_nullable_array_len(t, value)
        if value is not None:
            t += pack('>%di' % len(value), *value)
        tags.append((0, t))
    write_tagged_fields(out, tags)


def _e_ConsumerGroupCurrentMemberAssignmentValue_v0(o, out):
    out += _S0p(o.member_epoch, o.previous_member_epoch, o.state)
    value = o.assigned_partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicPartitions_v0(item, out)
    value = o.partitions_pending_revocation
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicPartitions_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ConsumerGroupCurrentMemberAssignmentValue._DECODERS = {
    0: _d_ConsumerGroupCurrentMemberAssignmentValue_v0,
}
ConsumerGroupCurrentMemberAssignmentValue._ENCODERS = {
    0: _e_ConsumerGroupCurrentMemberAssignmentValue_v0,
}
