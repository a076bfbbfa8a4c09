# Generated from protocol/schemas/LeaveGroupRequest.json by codegen; do not edit.
"""LeaveGroupRequest: request, api key 13, versions 0-5."""

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
    "MemberIdentity",
    "LeaveGroupRequest",
]


@dataclass(slots=True)
class MemberIdentity:
    """Identities of the members that are leaving the group."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'member_id': (3, 5), 'group_instance_id': (3, 5), 'reason': (5, 5)}

    member_id: str = ''
    """ID of the member to be removed from the group."""

    group_instance_id: str | None = None
    """Group instance ID of the static member to be removed from the group."""

    reason: str | None = None
    """Reason given for the member leaving the group."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class LeaveGroupRequest(Message):
    """LeaveGroupRequest, api key 13."""

    API_KEY: ClassVar[int] = 13
    NAME: ClassVar[str] = 'LeaveGroupRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 4
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 5), 'member_id': (0, 2), 'members': (3, 5)}

    group_id: str = ''
    """ID of the group that the member is leaving."""

    member_id: str = ''
    """ID of the member to be removed from the group."""

    members: list[MemberIdentity] = field(default_factory=list)
    """Identities of the members that are leaving the group."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_LeaveGroupRequest_v0(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    f_member_id, pos = read_string(buf, pos)
    return LeaveGroupRequest(f_group_id, f_member_id, []), pos


def _d_MemberIdentity_v3(buf, pos):
    f_member_id, pos = read_string(buf, pos)
    f_group_instance_id, pos = read_nullable_string(buf, pos)
    return MemberIdentity(f_member_id, f_group_instance_id, None), pos


def _d_LeaveGroupRequest_v3(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_MemberIdentity_v3(buf, pos)
        append(item)
    return LeaveGroupRequest(f_group_id, '', f_members), pos


def _d_MemberIdentity_v4(buf, pos):
    f_member_id, pos = read_compact_string(buf, pos)
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return MemberIdentity(f_member_id, f_group_instance_id, None, unknown), pos


def _d_LeaveGroupRequest_v4(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_MemberIdentity_v4(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return LeaveGroupRequest(f_group_id, '', f_members, unknown), pos


def _d_MemberIdentity_v5(buf, pos):
    f_member_id, pos = read_compact_string(buf, pos)
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_reason, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return MemberIdentity(f_member_id, f_group_instance_id, f_reason, unknown), pos


def _d_LeaveGroupRequest_v5(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_MemberIdentity_v5(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return LeaveGroupRequest(f_group_id, '', f_members, unknown), pos


def _e_LeaveGroupRequest_v0(o, out):
    write_string(out, o.group_id)
    write_string(out, o.member_id)
    if o.members:
        raise UnsupportedFieldError('LeaveGroupRequest v0 cannot carry a non-default Members')


def _e_LeaveGroupRequest_v1(o, out):
    write_string(out, o.group_id)
    write_string(out, o.member_id)
    if o.members:
        raise UnsupportedFieldError('LeaveGroupRequest v1 cannot carry a non-default Members')


def _e_LeaveGroupRequest_v2(o, out):
    write_string(out, o.group_id)
    write_string(out, o.member_id)
    if o.members:
        raise UnsupportedFieldError('LeaveGroupRequest v2 cannot carry a non-default Members')


def _e_MemberIdentity_v3(o, out):
    write_string(out, o.member_id)
    write_nullable_string(out, o.group_instance_id)


def _e_LeaveGroupRequest_v3(o, out):
    write_string(out, o.group_id)
    if o.member_id != '':
        raise UnsupportedFieldError('LeaveGroupRequest v3 cannot carry a non-default MemberId')
    value = o.members
    write_array_len(out, value)
    for item in value:
        _e_MemberIdentity_v3(item, out)


def _e_MemberIdentity_v4(o, out):
    write_compact_string(out, o.member_id)
    write_compact_nullable_string(out, o.group_instance_id)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_LeaveGroupRequest_v4(o, out):
    write_compact_string(out, o.group_id)
    if o.member_id != '':
        raise UnsupportedFieldError('LeaveGroupRequest v4 cannot carry a non-default MemberId')
    value = o.members
    write_compact_array_len(out, value)
    for item in value:
        _e_MemberIdentity_v4(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_MemberIdentity_v5(o, out):
    write_compact_string(out, o.member_id)
    write_compact_nullable_string(out, o.group_instance_id)
    write_compact_nullable_string(out, o.reason)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_LeaveGroupRequest_v5(o, out):
    write_compact_string(out, o.group_id)
    if o.member_id != '':
        raise UnsupportedFieldError('LeaveGroupRequest v5 cannot carry a non-default MemberId')
    value = o.members
    write_compact_array_len(out, value)
    for item in value:
        _e_MemberIdentity_v5(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


LeaveGroupRequest._DECODERS = {
    0: _d_LeaveGroupRequest_v0,
    1: _d_LeaveGroupRequest_v0,
    2: _d_LeaveGroupRequest_v0,
    3: _d_LeaveGroupRequest_v3,
    4: _d_LeaveGroupRequest_v4,
    5: _d_LeaveGroupRequest_v5,
}
LeaveGroupRequest._ENCODERS = {
    0: _e_LeaveGroupRequest_v0,
    1: _e_LeaveGroupRequest_v1,
    2: _e_LeaveGroupRequest_v2,
    3: _e_LeaveGroupRequest_v3,
    4: _e_LeaveGroupRequest_v4,
    5: _e_LeaveGroupRequest_v5,
}
