# Generated from protocol/schemas/StreamsGroupCurrentMemberAssignmentValue.json by codegen; do not edit.
"""StreamsGroupCurrentMemberAssignmentValue: coordinator-value, api key 22, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
    read_compact_array_len,
    read_compact_nullable_array_len,
    read_compact_string,
    read_tag_header,
    read_unknown_tags,
    read_uvarint,
    write_compact_array_len,
    write_compact_nullable_array_len,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "TaskIds",
    "StreamsGroupCurrentMemberAssignmentValue",
]
_S0 = Struct('>iib')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class TaskIds:
    """Common structure TaskIds."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'subtopology_id': (0, 0), 'partitions': (0, 0), 'assignment_epochs': (0, 0)}

    subtopology_id: str = ''
    """Subtopology the tasks belong to."""

    partitions: list[int] = field(default_factory=list)
    """Task partitions, i.e. the input-topic partitions these tasks process."""

    assignment_epochs: list[int] | None = None
    """For active tasks only: the epoch at which each partition in Partitions (same order, same length) was assigned, used to fence commits from stale members."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class StreamsGroupCurrentMemberAssignmentValue(Message):
    """StreamsGroupCurrentMemberAssignmentValue, api key 22."""

    API_KEY: ClassVar[int] = 22
    NAME: ClassVar[str] = 'StreamsGroupCurrentMemberAssignmentValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'member_epoch': (0, 0), 'previous_member_epoch': (0, 0), 'state': (0, 0), 'active_tasks': (0, 0), 'standby_tasks': (0, 0), 'warmup_tasks': (0, 0), 'active_tasks_pending_revocation': (0, 0), 'standby_tasks_pending_revocation': (0, 0), 'warmup_tasks_pending_revocation': (0, 0)}

    member_epoch: int = 0
    """Epoch the coordinator expects in the member's next heartbeat."""

    previous_member_epoch: int = 0
    """Epoch before the last bump, still accepted in case the member never saw that bump."""

    state: int = 0
    """Reconciliation state of the member (Kafka's streams MemberState code)."""

    active_tasks: list[TaskIds] = field(default_factory=list)
    """Active tasks the member owns or has been given."""

    standby_tasks: list[TaskIds] = field(default_factory=list)
    """Standby tasks the member owns or has been given."""

    warmup_tasks: list[TaskIds] = field(default_factory=list)
    """Warm-up tasks the member owns or has been given."""

    active_tasks_pending_revocation: list[TaskIds] = field(default_factory=list)
    """Active tasks the member must give up."""

    standby_tasks_pending_revocation: list[TaskIds] = field(default_factory=list)
    """Standby tasks the member must give up."""

    warmup_tasks_pending_revocation: list[TaskIds] = field(default_factory=list)
    """Warm-up tasks the member must give up."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_TaskIds_v0(buf, pos):
    f_subtopology_id, pos = read_compact_string(buf, pos)
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
    return TaskIds(f_subtopology_id, f_partitions, f_assignment_epochs, unknown), pos


def _d_StreamsGroupCurrentMemberAssignmentValue_v0(buf, pos):
    f_member_epoch, f_previous_member_epoch, f_state = _S0u(buf, pos)
    pos += 9
    n, pos = read_compact_array_len(buf, pos)
    f_active_tasks = []
    append = f_active_tasks.append
    for _ in range(n):
        item, pos = _d_TaskIds_v0(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_standby_tasks = []
    append = f_standby_tasks.append
    for _ in range(n):
        item, pos = _d_TaskIds_v0(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_warmup_tasks = []
    append = f_warmup_tasks.append
    for _ in range(n):
        item, pos = _d_TaskIds_v0(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_active_tasks_pending_revocation = []
    append = f_active_tasks_pending_revocation.append
    for _ in range(n):
        item, pos = _d_TaskIds_v0(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_standby_tasks_pending_revocation = []
    append = f_standby_tasks_pending_revocation.append
    for _ in range(n):
        item, pos = _d_TaskIds_v0(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_warmup_tasks_pending_revocation = []
    append = f_warmup_tasks_pending_revocation.append
    for _ in range(n):
        item, pos = _d_TaskIds_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return StreamsGroupCurrentMemberAssignmentValue(f_member_epoch, f_previous_member_epoch, f_state, f_active_tasks, f_standby_tasks, f_warmup_tasks, f_active_tasks_pending_revocation, f_standby_tasks_pending_revocation, f_warmup_tasks_pending_revocation, unknown), pos


def _e_TaskIds_v0(o, out):
    write_compact_string(out, o.subtopology_id)
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


def _e_StreamsGroupCurrentMemberAssignmentValue_v0(o, out):
    out += _S0p(o.member_epoch, o.previous_member_epoch, o.state)
    value = o.active_tasks
    write_compact_array_len(out, value)
    for item in value:
        _e_TaskIds_v0(item, out)
    value = o.standby_tasks
    write_compact_array_len(out, value)
    for item in value:
        _e_TaskIds_v0(item, out)
    value = o.warmup_tasks
    write_compact_array_len(out, value)
    for item in value:
        _e_TaskIds_v0(item, out)
    value = o.active_tasks_pending_revocation
    write_compact_array_len(out, value)
    for item in value:
        _e_TaskIds_v0(item, out)
    value = o.standby_tasks_pending_revocation
    write_compact_array_len(out, value)
    for item in value:
        _e_TaskIds_v0(item, out)
    value = o.warmup_tasks_pending_revocation
    write_compact_array_len(out, value)
    for item in value:
        _e_TaskIds_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


StreamsGroupCurrentMemberAssignmentValue._DECODERS = {
    0: _d_StreamsGroupCurrentMemberAssignmentValue_v0,
}
StreamsGroupCurrentMemberAssignmentValue._ENCODERS = {
    0: _e_StreamsGroupCurrentMemberAssignmentValue_v0,
}
