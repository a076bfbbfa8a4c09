# Generated from protocol/schemas/StreamsGroupTargetAssignmentMemberValue.json by codegen; do not edit.
"""StreamsGroupTargetAssignmentMemberValue: coordinator-value, api key 21, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
    read_compact_array_len,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "TaskIds",
    "StreamsGroupTargetAssignmentMemberValue",
]


@dataclass(slots=True)
class TaskIds:
    """Common structure TaskIds."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'subtopology_id': (0, 0), 'partitions': (0, 0)}

    subtopology_id: str = ''
    """Subtopology the tasks belong to."""

    partitions: list[int] = field(default_factory=list)
    """Task partitions, i.e. the input-topic partitions these tasks process."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class StreamsGroupTargetAssignmentMemberValue(Message):
    """StreamsGroupTargetAssignmentMemberValue, api key 21."""

    API_KEY: ClassVar[int] = 21
    NAME: ClassVar[str] = 'StreamsGroupTargetAssignmentMemberValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'active_tasks': (0, 0), 'standby_tasks': (0, 0), 'warmup_tasks': (0, 0)}

    active_tasks: list[TaskIds] = field(default_factory=list)
    """Active tasks the target assignment gives the member."""

    standby_tasks: list[TaskIds] = field(default_factory=list)
    """Standby tasks the target assignment gives the member."""

    warmup_tasks: list[TaskIds] = field(default_factory=list)
    """Warm-up tasks the target assignment gives the member."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_TaskIds_v0(buf, pos):
    f_subtopology_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TaskIds(f_subtopology_id, f_partitions, unknown), pos


def _d_StreamsGroupTargetAssignmentMemberValue_v0(buf, pos):
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
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return StreamsGroupTargetAssignmentMemberValue(f_active_tasks, f_standby_tasks, f_warmup_tasks, unknown), pos


def _e_TaskIds_v0(o, out):
    write_compact_string(out, o.subtopology_id)
    value = o.partitions
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_StreamsGroupTargetAssignmentMemberValue_v0(o, out):
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
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


StreamsGroupTargetAssignmentMemberValue._DECODERS = {
    0: _d_StreamsGroupTargetAssignmentMemberValue_v0,
}
StreamsGroupTargetAssignmentMemberValue._ENCODERS = {
    0: _e_StreamsGroupTargetAssignmentMemberValue_v0,
}
