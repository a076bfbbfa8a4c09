# Generated from protocol/schemas/JoinGroupResponse.json by codegen; do not edit.
"""JoinGroupResponse: response, api key 11, versions 0-9."""

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
    "JoinGroupResponseMember",
    "JoinGroupResponse",
]
_S0 = Struct('>hi')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>ihi')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>?')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>B')
_S3u = _S3.unpack_from
_S3p = _S3.pack


@dataclass(slots=True)
class JoinGroupResponseMember:
    """Members belonging to the group."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'member_id': (0, 9), 'group_instance_id': (5, 9), 'metadata': (0, 9)}

    member_id: str = ''
    """ID of the member within the group."""

    group_instance_id: str | None = None
    """Consumer instance identifier supplied by the end user."""

    metadata: bytes = b''
    """Metadata supplied by this group member."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class JoinGroupResponse(Message):
    """JoinGroupResponse, api key 11."""

    API_KEY: ClassVar[int] = 11
    NAME: ClassVar[str] = 'JoinGroupResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 9
    FLEXIBLE_MIN: ClassVar[int | None] = 6
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (2, 9), 'error_code': (0, 9), 'generation_id': (0, 9), 'protocol_type': (7, 9), 'protocol_name': (0, 9), 'leader': (0, 9), 'skip_assignment': (9, 9), 'member_id': (0, 9), 'members': (0, 9)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code; 0 means success."""

    generation_id: int = -1
    """Generation number of the group."""

    protocol_type: str | None = None
    """Name of the protocol used by the group."""

    protocol_name: str | None = ''
    """Name of the protocol that the coordinator picked for the group."""

    leader: str = ''
    """Member ID of the current group leader."""

    skip_assignment: bool = False
    """When true, the leader should not perform the partition assignment itself."""

    member_id: str = ''
    """Member ID that the group coordinator has assigned to this member."""

    members: list[JoinGroupResponseMember] = field(default_factory=list)
    """Members belonging to the group."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_JoinGroupResponseMember_v0(buf, pos):
    f_member_id, pos = read_string(buf, pos)
    f_metadata, pos = read_bytes(buf, pos)
    return JoinGroupResponseMember(f_member_id, None, f_metadata), pos


def _d_JoinGroupResponse_v0(buf, pos):
    f_error_code, f_generation_id = _S0u(buf, pos)
    pos += 6
    f_protocol_name, pos = read_string(buf, pos)
    f_leader, pos = read_string(buf, pos)
    f_member_id, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_JoinGroupResponseMember_v0(buf, pos)
        append(item)
    return JoinGroupResponse(0, f_error_code, f_generation_id, None, f_protocol_name, f_leader, False, f_member_id, f_members), pos


def _d_JoinGroupResponse_v2(buf, pos):
    f_throttle_time_ms, f_error_code, f_generation_id = _S1u(buf, pos)
    pos += 10
    f_protocol_name, pos = read_string(buf, pos)
    f_leader, pos = read_string(buf, pos)
    f_member_id, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_JoinGroupResponseMember_v0(buf, pos)
        append(item)
    return JoinGroupResponse(f_throttle_time_ms, f_error_code, f_generation_id, None, f_protocol_name, f_leader, False, f_member_id, f_members), pos


def _d_JoinGroupResponseMember_v5(buf, pos):
    f_member_id, pos = read_string(buf, pos)
    f_group_instance_id, pos = read_nullable_string(buf, pos)
    f_metadata, pos = read_bytes(buf, pos)
    return JoinGroupResponseMember(f_member_id, f_group_instance_id, f_metadata), pos


def _d_JoinGroupResponse_v5(buf, pos):
    f_throttle_time_ms, f_error_code, f_generation_id = _S1u(buf, pos)
    pos += 10
    f_protocol_name, pos = read_string(buf, pos)
    f_leader, pos = read_string(buf, pos)
    f_member_id, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_JoinGroupResponseMember_v5(buf, pos)
        append(item)
    return JoinGroupResponse(f_throttle_time_ms, f_error_code, f_generation_id, None, f_protocol_name, f_leader, False, f_member_id, f_members), pos


def _d_JoinGroupResponseMember_v6(buf, pos):
    f_member_id, pos = read_compact_string(buf, pos)
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_metadata, pos = read_compact_bytes(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return JoinGroupResponseMember(f_member_id, f_group_instance_id, f_metadata, unknown), pos


def _d_JoinGroupResponse_v6(buf, pos):
    f_throttle_time_ms, f_error_code, f_generation_id = _S1u(buf, pos)
    pos += 10
    f_protocol_name, pos = read_compact_string(buf, pos)
    f_leader, pos = read_compact_string(buf, pos)
    f_member_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_JoinGroupResponseMember_v6(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return JoinGroupResponse(f_throttle_time_ms, f_error_code, f_generation_id, None, f_protocol_name, f_leader, False, f_member_id, f_members, unknown), pos


def _d_JoinGroupResponse_v7(buf, pos):
    f_throttle_time_ms, f_error_code, f_generation_id = _S1u(buf, pos)
    pos += 10
    f_protocol_type, pos = read_compact_nullable_string(buf, pos)
    f_protocol_name, pos = read_compact_nullable_string(buf, pos)
    f_leader, pos = read_compact_string(buf, pos)
    f_member_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_JoinGroupResponseMember_v6(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return JoinGroupResponse(f_throttle_time_ms, f_error_code, f_generation_id, f_protocol_type, f_protocol_name, f_leader, False, f_member_id, f_members, unknown), pos


def _d_JoinGroupResponse_v9(buf, pos):
    f_throttle_time_ms, f_error_code, f_generation_id = _S1u(buf, pos)
    pos += 10
    f_protocol_type, pos = read_compact_nullable_string(buf, pos)
    f_protocol_name, pos = read_compact_nullable_string(buf, pos)
    f_leader, pos = read_compact_string(buf, pos)
    f_skip_assignment = _S2u(buf, pos)[0]
    pos += 1
    f_member_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_JoinGroupResponseMember_v6(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return JoinGroupResponse(f_throttle_time_ms, f_error_code, f_generation_id, f_protocol_type, f_protocol_name, f_leader, f_skip_assignment, f_member_id, f_members, unknown), pos


def _e_JoinGroupResponseMember_v0(o, out):
    write_string(out, o.member_id)
    write_bytes(out, o.metadata)


def _e_JoinGroupResponse_v0(o, out):
    out += _S0p(o.error_code, o.generation_id)
    write_string(out, o.protocol_name)
    write_string(out, o.leader)
    if o.skip_assignment:
        raise UnsupportedFieldError('JoinGroupResponse v0 cannot carry a non-default SkipAssignment')
    write_string(out, o.member_id)
    value = o.members
    write_array_len(out, value)
    for item in value:
        _e_JoinGroupResponseMember_v0(item, out)


def _e_JoinGroupResponse_v1(o, out):
    out += _S0p(o.error_code, o.generation_id)
    write_string(out, o.protocol_name)
    write_string(out, o.leader)
    if o.skip_assignment:
        raise UnsupportedFieldError('JoinGroupResponse v1 cannot carry a non-default SkipAssignment')
    write_string(out, o.member_id)
    value = o.members
    write_array_len(out, value)
    for item in value:
        _e_JoinGroupResponseMember_v0(item, out)


def _e_JoinGroupResponse_v2(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code, o.generation_id)
    write_string(out, o.protocol_name)
    write_string(out, o.leader)
    if o.skip_assignment:
        raise UnsupportedFieldError('JoinGroupResponse v2 cannot carry a non-default SkipAssignment')
    write_string(out, o.member_id)
    value = o.members
    write_array_len(out, value)
    for item in value:
        _e_JoinGroupResponseMember_v0(item, out)


def _e_JoinGroupResponse_v3(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code, o.generation_id)
    write_string(out, o.protocol_name)
    write_string(out, o.leader)
    if o.skip_assignment:
        raise UnsupportedFieldError('JoinGroupResponse v3 cannot carry a non-default SkipAssignment')
    write_string(out, o.member_id)
    value = o.members
    write_array_len(out, value)
    for item in value:
        _e_JoinGroupResponseMember_v0(item, out)


def _e_JoinGroupResponse_v4(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code, o.generation_id)
    write_string(out, o.protocol_name)
    write_string(out, o.leader)
    if o.skip_assignment:
        raise UnsupportedFieldError('JoinGroupResponse v4 cannot carry a non-default SkipAssignment')
    write_string(out, o.member_id)
    value = o.members
    write_array_len(out, value)
    for item in value:
        _e_JoinGroupResponseMember_v0(item, out)


def _e_JoinGroupResponseMember_v5(o, out):
    write_string(out, o.member_id)
    write_nullable_string(out, o.group_instance_id)
    write_bytes(out, o.metadata)


def _e_JoinGroupResponse_v5(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code, o.generation_id)
    write_string(out, o.protocol_name)
    write_string(out, o.leader)
    if o.skip_assignment:
        raise UnsupportedFieldError('JoinGroupResponse v5 cannot carry a non-default SkipAssignment')
    write_string(out, o.member_id)
    value = o.members
    write_array_len(out, value)
    for item in value:
        _e_JoinGroupResponseMember_v5(item, out)


def _e_JoinGroupResponseMember_v6(o, out):
    write_compact_string(out, o.member_id)
    write_compact_nullable_string(out, o.group_instance_id)
    write_compact_bytes(out, o.metadata)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_JoinGroupResponse_v6(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code, o.generation_id)
    write_compact_string(out, o.protocol_name)
    write_compact_string(out, o.leader)
    if o.skip_assignment:
        raise UnsupportedFieldError('JoinGroupResponse v6 cannot carry a non-default SkipAssignment')
    write_compact_string(out, o.member_id)
    value = o.members
    write_compact_array_len(out, value)
    for item in value:
        _e_JoinGroupResponseMember_v6(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_JoinGroupResponse_v7(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code, o.generation_id)
    write_compact_nullable_string(out, o.protocol_type)
    write_compact_nullable_string(out, o.protocol_name)
    write_compact_string(out, o.leader)
    if o.skip_assignment:
        raise UnsupportedFieldError('JoinGroupResponse v7 cannot carry a non-default SkipAssignment')
    write_compact_string(out, o.member_id)
    value = o.members
    write_compact_array_len(out, value)
    for item in value:
        _e_JoinGroupResponseMember_v6(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_JoinGroupResponse_v8(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code, o.generation_id)
    write_compact_nullable_string(out, o.protocol_type)
    write_compact_nullable_string(out, o.protocol_name)
    write_compact_string(out, o.leader)
    if o.skip_assignment:
        raise UnsupportedFieldError('JoinGroupResponse v8 cannot carry a non-default SkipAssignment')
    write_compact_string(out, o.member_id)
    value = o.members
    write_compact_array_len(out, value)
    for item in value:
        _e_JoinGroupResponseMember_v6(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_JoinGroupResponse_v9(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code, o.generation_id)
    write_compact_nullable_string(out, o.protocol_type)
    write_compact_nullable_string(out, o.protocol_name)
    write_compact_string(out, o.leader)
    out += _S3p(o.skip_assignment)
    write_compact_string(out, o.member_id)
    value = o.members
    write_compact_array_len(out, value)
    for item in value:
        _e_JoinGroupResponseMember_v6(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


JoinGroupResponse._DECODERS = {
    0: _d_JoinGroupResponse_v0,
    1: _d_JoinGroupResponse_v0,
    2: _d_JoinGroupResponse_v2,
    3: _d_JoinGroupResponse_v2,
    4: _d_JoinGroupResponse_v2,
    5: _d_JoinGroupResponse_v5,
    6: _d_JoinGroupResponse_v6,
    7: _d_JoinGroupResponse_v7,
    8: _d_JoinGroupResponse_v7,
    9: _d_JoinGroupResponse_v9,
}
JoinGroupResponse._ENCODERS = {
    0: _e_JoinGroupResponse_v0,
    1: _e_JoinGroupResponse_v1,
    2: _e_JoinGroupResponse_v2,
    3: _e_JoinGroupResponse_v3,
    4: _e_JoinGroupResponse_v4,
    5: _e_JoinGroupResponse_v5,
    6: _e_JoinGroupResponse_v6,
    7: _e_JoinGroupResponse_v7,
    8: _e_JoinGroupResponse_v8,
    9: _e_JoinGroupResponse_v9,
}
