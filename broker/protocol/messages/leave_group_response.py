# Generated from protocol/schemas/LeaveGroupResponse.json by codegen; do not edit.
"""LeaveGroupResponse: response, api key 13, versions 0-5."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_array_len,
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_unknown_tags,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "MemberResponse",
    "LeaveGroupResponse",
]
_S0 = Struct('>h')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>ih')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class MemberResponse:
    """Per-member results for the members that left the group."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'member_id': (3, 5), 'group_instance_id': (3, 5), 'error_code': (3, 5)}

    member_id: str = ''
    """ID of the member to be removed from the group."""

    group_instance_id: str | None = ''
    """Group instance ID of the static member to be removed from the group."""

    error_code: int = 0
    """Error code; 0 means success."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class LeaveGroupResponse(Message):
    """LeaveGroupResponse, api key 13."""

    API_KEY: ClassVar[int] = 13
    NAME: ClassVar[str] = 'LeaveGroupResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 4
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (1, 5), 'error_code': (0, 5), 'members': (3, 5)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code; 0 means success."""

    members: list[MemberResponse] = field(default_factory=list)
    """Per-member results for the members that left the group."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_LeaveGroupResponse_v0(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    return LeaveGroupResponse(0, f_error_code, []), pos


def _d_LeaveGroupResponse_v1(buf, pos):
    f_throttle_time_ms, f_error_code = _S1u(buf, pos)
    pos += 6
    return LeaveGroupResponse(f_throttle_time_ms, f_error_code, []), pos


def _d_MemberResponse_v3(buf, pos):
    f_member_id, pos = read_string(buf, pos)
    f_group_instance_id, pos = read_nullable_string(buf, pos)
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    return MemberResponse(f_member_id, f_group_instance_id, f_error_code), pos


def _d_LeaveGroupResponse_v3(buf, pos):
    f_throttle_time_ms, f_error_code = _S1u(buf, pos)
    pos += 6
    n, pos = read_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_MemberResponse_v3(buf, pos)
        append(item)
    return LeaveGroupResponse(f_throttle_time_ms, f_error_code, f_members), pos


def _d_MemberResponse_v4(buf, pos):
    f_member_id, pos = read_compact_string(buf, pos)
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return MemberResponse(f_member_id, f_group_instance_id, f_error_code, unknown), pos


def _d_LeaveGroupResponse_v4(buf, pos):
    f_throttle_time_ms, f_error_code = _S1u(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_MemberResponse_v4(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return LeaveGroupResponse(f_throttle_time_ms, f_error_code, f_members, unknown), pos


def _e_LeaveGroupResponse_v0(o, out):
    out += _S0p(o.error_code)
    if o.members:
        raise UnsupportedFieldError('LeaveGroupResponse v0 cannot carry a non-default Members')


def _e_LeaveGroupResponse_v1(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code)
    if o.members:
        raise UnsupportedFieldError('LeaveGroupResponse v1 cannot carry a non-default Members')


def _e_LeaveGroupResponse_v2(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code)
    if o.members:
        raise UnsupportedFieldError('LeaveGroupResponse v2 cannot carry a non-default Members')


def _e_MemberResponse_v3(o, out):
    write_string(out, o.member_id)
    write_nullable_string(out, o.group_instance_id)
    out += _S0p(o.error_code)


def _e_LeaveGroupResponse_v3(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code)
    value = o.members
    write_array_len(out, value)
    for item in value:
        _e_MemberResponse_v3(item, out)


def _e_MemberResponse_v4(o, out):
    write_compact_string(out, o.member_id)
    write_compact_nullable_string(out, o.group_instance_id)
    out += _S0p(o.error_code)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_LeaveGroupResponse_v4(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code)
    value = o.members
    write_compact_array_len(out, value)
    for item in value:
        _e_MemberResponse_v4(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


LeaveGroupResponse._DECODERS = {
    0: _d_LeaveGroupResponse_v0,
    1: _d_LeaveGroupResponse_v1,
    2: _d_LeaveGroupResponse_v1,
    3: _d_LeaveGroupResponse_v3,
    4: _d_LeaveGroupResponse_v4,
    5: _d_LeaveGroupResponse_v4,
}
LeaveGroupResponse._ENCODERS = {
    0: _e_LeaveGroupResponse_v0,
    1: _e_LeaveGroupResponse_v1,
    2: _e_LeaveGroupResponse_v2,
    3: _e_LeaveGroupResponse_v3,
    4: _e_LeaveGroupResponse_v4,
    5: _e_LeaveGroupResponse_v4,
}
