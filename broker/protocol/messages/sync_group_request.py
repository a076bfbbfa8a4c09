# Generated from protocol/schemas/SyncGroupRequest.json by codegen; do not edit.
"""SyncGroupRequest: request, api key 14, versions 0-5."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_array_len,
    read_bytes,
    read_compact_array_len,
    read_compact_bytes,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_unknown_tags,
    write_array_len,
    write_bytes,
    write_compact_array_len,
    write_compact_bytes,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "SyncGroupRequestAssignment",
    "SyncGroupRequest",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class SyncGroupRequestAssignment:
    """One entry for every assignment."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'member_id': (0, 5), 'assignment': (0, 5)}

    member_id: str = ''
    """ID of the member receiving the assignment."""

    assignment: bytes = b''
    """Assignment given to the member."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class SyncGroupRequest(Message):
    """SyncGroupRequest, api key 14."""

    API_KEY: ClassVar[int] = 14
    NAME: ClassVar[str] = 'SyncGroupRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 4
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 5), 'generation_id': (0, 5), 'member_id': (0, 5), 'group_instance_id': (3, 5), 'protocol_type': (5, 5), 'protocol_name': (5, 5), 'assignments': (0, 5)}

    group_id: str = ''
    """Identifier that uniquely names the group."""

    generation_id: int = 0
    """Generation number of the group."""

    member_id: str = ''
    """Member ID that the group assigned."""

    group_instance_id: str | None = None
    """Consumer instance identifier supplied by the end user."""

    protocol_type: str | None = None
    """Protocol type used by the group."""

    protocol_name: str | None = None
    """Name of the protocol used by the group."""

    assignments: list[SyncGroupRequestAssignment] = field(default_factory=list)
    """One entry for every assignment."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_SyncGroupRequestAssignment_v0(buf, pos):
    f_member_id, pos = read_string(buf, pos)
    f_assignment, pos = read_bytes(buf, pos)
    return SyncGroupRequestAssignment(f_member_id, f_assignment), pos


def _d_SyncGroupRequest_v0(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    f_generation_id = _S0u(buf, pos)[0]
    pos += 4
    f_member_id, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_assignments = []
    append = f_assignments.append
    for _ in range(n):
        item, pos = _d_SyncGroupRequestAssignment_v0(buf, pos)
        append(item)
    return SyncGroupRequest(f_group_id, f_generation_id, f_member_id, None, None, None, f_assignments), pos


def _d_SyncGroupRequest_v3(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    f_generation_id = _S0u(buf, pos)[0]
    pos += 4
    f_member_id, pos = read_string(buf, pos)
    f_group_instance_id, pos = read_nullable_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_assignments = []
    append = f_assignments.append
    for _ in range(n):
        item, pos = _d_SyncGroupRequestAssignment_v0(buf, pos)
        append(item)
    return SyncGroupRequest(f_group_id, f_generation_id, f_member_id, f_group_instance_id, None, None, f_assignments), pos


def _d_SyncGroupRequestAssignment_v4(buf, pos):
    f_member_id, pos = read_compact_string(buf, pos)
    f_assignment, pos = read_compact_bytes(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return SyncGroupRequestAssignment(f_member_id, f_assignment, unknown), pos


def _d_SyncGroupRequest_v4(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    f_generation_id = _S0u(buf, pos)[0]
    pos += 4
    f_member_id, pos = read_compact_string(buf, pos)
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_assignments = []
    append = f_assignments.append
    for _ in range(n):
        item, pos = _d_SyncGroupRequestAssignment_v4(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return SyncGroupRequest(f_group_id, f_generation_id, f_member_id, f_group_instance_id, None, None, f_assignments, unknown), pos


def _d_SyncGroupRequest_v5(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    f_generation_id = _S0u(buf, pos)[0]
    pos += 4
    f_member_id, pos = read_compact_string(buf, pos)
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_protocol_type, pos = read_compact_nullable_string(buf, pos)
    f_protocol_name, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_assignments = []
    append = f_assignments.append
    for _ in range(n):
        item, pos = _d_SyncGroupRequestAssignment_v4(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return SyncGroupRequest(f_group_id, f_generation_id, f_member_id, f_group_instance_id, f_protocol_type, f_protocol_name, f_assignments, unknown), pos


def _e_SyncGroupRequestAssignment_v0(o, out):
    write_string(out, o.member_id)
    write_bytes(out, o.assignment)


def _e_SyncGroupRequest_v0(o, out):
    write_string(out, o.group_id)
    out += _S0p(o.generation_id)
    write_string(out, o.member_id)
    if o.group_instance_id is not None:
        raise UnsupportedFieldError('SyncGroupRequest v0 cannot carry a non-default GroupInstanceId')
    value = o.assignments
    write_array_len(out, value)
    for item in value:
        _e_SyncGroupRequestAssignment_v0(item, out)


def _e_SyncGroupRequest_v1(o, out):
    write_string(out, o.group_id)
    out += _S0p(o.generation_id)
    write_string(out, o.member_id)
    if o.group_instance_id is not None:
        raise UnsupportedFieldError('SyncGroupRequest v1 cannot carry a non-default GroupInstanceId')
    value = o.assignments
    write_array_len(out, value)
    for item in value:
        _e_SyncGroupRequestAssignment_v0(item, out)


def _e_SyncGroupRequest_v2(o, out):
    write_string(out, o.group_id)
    out += _S0p(o.generation_id)
    write_string(out, o.member_id)
    if o.group_instance_id is not None:
        raise UnsupportedFieldError('SyncGroupRequest v2 cannot carry a non-default GroupInstanceId')
    value = o.assignments
    write_array_len(out, value)
    for item in value:
        _e_SyncGroupRequestAssignment_v0(item, out)


def _e_SyncGroupRequest_v3(o, out):
    write_string(out, o.group_id)
    out += _S0p(o.generation_id)
    write_string(out, o.member_id)
    write_nullable_string(out, o.group_instance_id)
    value = o.assignments
    write_array_len(out, value)
    for item in value:
        _e_SyncGroupRequestAssignment_v0(item, out)


def _e_SyncGroupRequestAssignment_v4(o, out):
    write_compact_string(out, o.member_id)
    write_compact_bytes(out, o.assignment)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_SyncGroupRequest_v4(o, out):
    write_compact_string(out, o.group_id)
    out += _S0p(o.generation_id)
    write_compact_string(out, o.member_id)
    write_compact_nullable_string(out, o.group_instance_id)
    value = o.assignments
    write_compact_array_len(out, value)
    for item in value:
        _e_SyncGroupRequestAssignment_v4(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_SyncGroupRequest_v5(o, out):
    write_compact_string(out, o.group_id)
    out += _S0p(o.generation_id)
    write_compact_string(out, o.member_id)
    write_compact_nullable_string(out, o.group_instance_id)
    write_compact_nullable_string(out, o.protocol_type)
    write_compact_nullable_string(out, o.protocol_name)
    value = o.assignments
    write_compact_array_len(out, value)
    for item in value:
        _e_SyncGroupRequestAssignment_v4(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


SyncGroupRequest._DECODERS = {
    0: _d_SyncGroupRequest_v0,
    1: _d_SyncGroupRequest_v0,
    2: _d_SyncGroupRequest_v0,
    3: _d_SyncGroupRequest_v3,
    4: _d_SyncGroupRequest_v4,
    5: _d_SyncGroupRequest_v5,
}
SyncGroupRequest._ENCODERS = {
    0: _e_SyncGroupRequest_v0,
    1: _e_SyncGroupRequest_v1,
    2: _e_SyncGroupRequest_v2,
    3: _e_SyncGroupRequest_v3,
    4: _e_SyncGroupRequest_v4,
    5: _e_SyncGroupRequest_v5,
}
