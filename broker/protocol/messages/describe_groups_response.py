# Generated from protocol/schemas/DescribeGroupsResponse.json by codegen; do not edit.
"""DescribeGroupsResponse: response, api key 15, versions 0-6."""

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
    "DescribedGroupMember",
    "DescribedGroup",
    "DescribeGroupsResponse",
]
_S0 = Struct('>h')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class DescribedGroupMember:
    """Members belonging to the group."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'member_id': (0, 6), 'group_instance_id': (4, 6), 'client_id': (0, 6), 'client_host': (0, 6), 'member_metadata': (0, 6), 'member_assignment': (0, 6)}

    member_id: str = ''
    """ID of the member."""

    group_instance_id: str | None = None
    """Consumer instance identifier supplied by the end user."""

    client_id: str = ''
    """Client ID that the member sent in its most recent join group request."""

    client_host: str = ''
    """Host of the client."""

    member_metadata: bytes = b''
    """Member metadata for the group protocol currently in use."""

    member_assignment: bytes = b''
    """Assignment the group leader most recently gave this member."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribedGroup:
    """Descriptions of the requested groups."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 6), 'error_message': (6, 6), 'group_id': (0, 6), 'group_state': (0, 6), 'protocol_type': (0, 6), 'protocol_data': (0, 6), 'members': (0, 6), 'authorized_operations': (3, 6)}

    error_code: int = 0
    """Error code from describing the group; 0 means success."""

    error_message: str | None = None
    """Error message from the describe operation, or null when it succeeded."""

    group_id: str = ''
    """Group ID as a string."""

    group_state: str = ''
    """State of the group as a string, or an empty string."""

    protocol_type: str = ''
    """Protocol type of the group, or an empty string."""

    protocol_data: str = ''
    """Protocol data of the group, or an empty string."""

    members: list[DescribedGroupMember] = field(default_factory=list)
    """Members belonging to the group."""

    authorized_operations: int = -2147483648
    """Bitfield of 32 bits encoding the operations authorized on this group."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeGroupsResponse(Message):
    """DescribeGroupsResponse, api key 15."""

    API_KEY: ClassVar[int] = 15
    NAME: ClassVar[str] = 'DescribeGroupsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 6
    FLEXIBLE_MIN: ClassVar[int | None] = 5
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (1, 6), 'groups': (0, 6)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    groups: list[DescribedGroup] = field(default_factory=list)
    """Descriptions of the requested groups."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DescribedGroupMember_v0(buf, pos):
    f_member_id, pos = read_string(buf, pos)
    f_client_id, pos = read_string(buf, pos)
    f_client_host, pos = read_string(buf, pos)
    f_member_metadata, pos = read_bytes(buf, pos)
    f_member_assignment, pos = read_bytes(buf, pos)
    return DescribedGroupMember(f_member_id, None, f_client_id, f_client_host, f_member_metadata, f_member_assignment), pos


def _d_DescribedGroup_v0(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    f_group_id, pos = read_string(buf, pos)
    f_group_state, pos = read_string(buf, pos)
    f_protocol_type, pos = read_string(buf, pos)
    f_protocol_data, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_DescribedGroupMember_v0(buf, pos)
        append(item)
    return DescribedGroup(f_error_code, None, f_group_id, f_group_state, f_protocol_type, f_protocol_data, f_members, -2147483648), pos


def _d_DescribeGroupsResponse_v0(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_DescribedGroup_v0(buf, pos)
        append(item)
    return DescribeGroupsResponse(0, f_groups), pos


def _d_DescribeGroupsResponse_v1(buf, pos):
    f_throttle_time_ms = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_DescribedGroup_v0(buf, pos)
        append(item)
    return DescribeGroupsResponse(f_throttle_time_ms, f_groups), pos


def _d_DescribedGroup_v3(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    f_group_id, pos = read_string(buf, pos)
    f_group_state, pos = read_string(buf, pos)
    f_protocol_type, pos = read_string(buf, pos)
    f_protocol_data, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_DescribedGroupMember_v0(buf, pos)
        append(item)
    f_authorized_operations = _S1u(buf, pos)[0]
    pos += 4
    return DescribedGroup(f_error_code, None, f_group_id, f_group_state, f_protocol_type, f_protocol_data, f_members, f_authorized_operations), pos


def _d_DescribeGroupsResponse_v3(buf, pos):
    f_throttle_time_ms = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_DescribedGroup_v3(buf, pos)
        append(item)
    return DescribeGroupsResponse(f_throttle_time_ms, f_groups), pos


def _d_DescribedGroupMember_v4(buf, pos):
    f_member_id, pos = read_string(buf, pos)
    f_group_instance_id, pos = read_nullable_string(buf, pos)
    f_client_id, pos = read_string(buf, pos)
    f_client_host, pos = read_string(buf, pos)
    f_member_metadata, pos = read_bytes(buf, pos)
    f_member_assignment, pos = read_bytes(buf, pos)
    return DescribedGroupMember(f_member_id, f_group_instance_id, f_client_id, f_client_host, f_member_metadata, f_member_assignment), pos


def _d_DescribedGroup_v4(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    f_group_id, pos = read_string(buf, pos)
    f_group_state, pos = read_string(buf, pos)
    f_protocol_type, pos = read_string(buf, pos)
    f_protocol_data, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_DescribedGroupMember_v4(buf, pos)
        append(item)
    f_authorized_operations = _S1u(buf, pos)[0]
    pos += 4
    return DescribedGroup(f_error_code, None, f_group_id, f_group_state, f_protocol_type, f_protocol_data, f_members, f_authorized_operations), pos


def _d_DescribeGroupsResponse_v4(buf, pos):
    f_throttle_time_ms = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_DescribedGroup_v4(buf, pos)
        append(item)
    return DescribeGroupsResponse(f_throttle_time_ms, f_groups), pos


def _d_DescribedGroupMember_v5(buf, pos):
    f_member_id, pos = read_compact_string(buf, pos)
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_client_id, pos = read_compact_string(buf, pos)
    f_client_host, pos = read_compact_string(buf, pos)
    f_member_metadata, pos = read_compact_bytes(buf, pos)
    f_member_assignment, pos = read_compact_bytes(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribedGroupMember(f_member_id, f_group_instance_id, f_client_id, f_client_host, f_member_metadata, f_member_assignment, unknown), pos


def _d_DescribedGroup_v5(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    f_group_id, pos = read_compact_string(buf, pos)
    f_group_state, pos = read_compact_string(buf, pos)
    f_protocol_type, pos = read_compact_string(buf, pos)
    f_protocol_data, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_DescribedGroupMember_v5(buf, pos)
        append(item)
    f_authorized_operations = _S1u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribedGroup(f_error_code, None, f_group_id, f_group_state, f_protocol_type, f_protocol_data, f_members, f_authorized_operations, unknown), pos


def _d_DescribeGroupsResponse_v5(buf, pos):
    f_throttle_time_ms = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_DescribedGroup_v5(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeGroupsResponse(f_throttle_time_ms, f_groups, unknown), pos


def _d_DescribedGroup_v6(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_group_id, pos = read_compact_string(buf, pos)
    f_group_state, pos = read_compact_string(buf, pos)
    f_protocol_type, pos = read_compact_string(buf, pos)
    f_protocol_data, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_DescribedGroupMember_v5(buf, pos)
        append(item)
    f_authorized_operations = _S1u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribedGroup(f_error_code, f_error_message, f_group_id, f_group_state, f_protocol_type, f_protocol_data, f_members, f_authorized_operations, unknown), pos


def _d_DescribeGroupsResponse_v6(buf, pos):
    f_throttle_time_ms = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_DescribedGroup_v6(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeGroupsResponse(f_throttle_time_ms, f_groups, unknown), pos


def _e_DescribedGroupMember_v0(o, out):
    write_string(out, o.member_id)
    write_string(out, o.client_id)
    write_string(out, o.client_host)
    write_bytes(out, o.member_metadata)
    write_bytes(out, o.member_assignment)


def _e_DescribedGroup_v0(o, out):
    out += _S0p(o.error_code)
    if o.error_message is not None:
        raise UnsupportedFieldError('DescribeGroupsResponse v0 cannot carry a non-default ErrorMessage')
    write_string(out, o.group_id)
    write_string(out, o.group_state)
    write_string(out, o.protocol_type)
    write_string(out, o.protocol_data)
    value = o.members
    write_array_len(out, value)
    for item in value:
        _e_DescribedGroupMember_v0(item, out)
    if o.authorized_operations != -2147483648:
        raise UnsupportedFieldError('DescribeGroupsResponse v0 cannot carry a non-default AuthorizedOperations')


def _e_DescribeGroupsResponse_v0(o, out):
    value = o.groups
    write_array_len(out, value)
    for item in value:
        _e_DescribedGroup_v0(item, out)


def _e_DescribedGroup_v1(o, out):
    out += _S0p(o.error_code)
    if o.error_message is not None:
        raise UnsupportedFieldError('DescribeGroupsResponse v1 cannot carry a non-default ErrorMessage')
    write_string(out, o.group_id)
    write_string(out, o.group_state)
    write_string(out, o.protocol_type)
    write_string(out, o.protocol_data)
    value = o.members
    write_array_len(out, value)
    for item in value:
        _e_DescribedGroupMember_v0(item, out)
    if o.authorized_operations != -2147483648:
        raise UnsupportedFieldError('DescribeGroupsResponse v1 cannot carry a non-default AuthorizedOperations')


def _e_DescribeGroupsResponse_v1(o, out):
    out += _S1p(o.throttle_time_ms)
    value = o.groups
    write_array_len(out, value)
    for item in value:
        _e_DescribedGroup_v1(item, out)


def _e_DescribedGroup_v2(o, out):
    out += _S0p(o.error_code)
    if o.error_message is not None:
        raise UnsupportedFieldError('DescribeGroupsResponse v2 cannot carry a non-default ErrorMessage')
    write_string(out, o.group_id)
    write_string(out, o.group_state)
    write_string(out, o.protocol_type)
    write_string(out, o.protocol_data)
    value = o.members
    write_array_len(out, value)
    for item in value:
        _e_DescribedGroupMember_v0(item, out)
    if o.authorized_operations != -2147483648:
        raise UnsupportedFieldError('DescribeGroupsResponse v2 cannot carry a non-default AuthorizedOperations')


def _e_DescribeGroupsResponse_v2(o, out):
    out += _S1p(o.throttle_time_ms)
    value = o.groups
    write_array_len(out, value)
    for item in value:
        _e_DescribedGroup_v2(item, out)


def _e_DescribedGroup_v3(o, out):
    out += _S0p(o.error_code)
    if o.error_message is not None:
        raise UnsupportedFieldError('DescribeGroupsResponse v3 cannot carry a non-default ErrorMessage')
    write_string(out, o.group_id)
    write_string(out, o.group_state)
    write_string(out, o.protocol_type)
    write_string(out, o.protocol_data)
    value = o.members
    write_array_len(out, value)
    for item in value:
        _e_DescribedGroupMember_v0(item, out)
    out += _S1p(o.authorized_operations)


def _e_DescribeGroupsResponse_v3(o, out):
    out += _S1p(o.throttle_time_ms)
    value = o.groups
    write_array_len(out, value)
    for item in value:
        _e_DescribedGroup_v3(item, out)


def _e_DescribedGroupMember_v4(o, out):
    write_string(out, o.member_id)
    write_nullable_string(out, o.group_instance_id)
    write_string(out, o.client_id)
    write_string(out, o.client_host)
    write_bytes(out, o.member_metadata)
    write_bytes(out, o.member_assignment)


def _e_DescribedGroup_v4(o, out):
    out += _S0p(o.error_code)
    if o.error_message is not None:
        raise UnsupportedFieldError('DescribeGroupsResponse v4 cannot carry a non-default ErrorMessage')
    write_string(out, o.group_id)
    write_string(out, o.group_state)
    write_string(out, o.protocol_type)
    write_string(out, o.protocol_data)
    value = o.members
    write_array_len(out, value)
    for item in value:
        _e_DescribedGroupMember_v4(item, out)
    out += _S1p(o.authorized_operations)


def _e_DescribeGroupsResponse_v4(o, out):
    out += _S1p(o.throttle_time_ms)
    value = o.groups
    write_array_len(out, value)
    for item in value:
        _e_DescribedGroup_v4(item, out)


def _e_DescribedGroupMember_v5(o, out):
    write_compact_string(out, o.member_id)
    write_compact_nullable_string(out, o.group_instance_id)
    write_compact_string(out, o.client_id)
    write_compact_string(out, o.client_host)
    write_compact_bytes(out, o.member_metadata)
    write_compact_bytes(out, o.member_assignment)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribedGroup_v5(o, out):
    out += _S0p(o.error_code)
    if o.error_message is not None:
        raise UnsupportedFieldError('DescribeGroupsResponse v5 cannot carry a non-default ErrorMessage')
    write_compact_string(out, o.group_id)
    write_compact_string(out, o.group_state)
    write_compact_string(out, o.protocol_type)
    write_compact_string(out, o.protocol_data)
    value = o.members
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribedGroupMember_v5(item, out)
    out += _S1p(o.authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeGroupsResponse_v5(o, out):
    out += _S1p(o.throttle_time_ms)
    value = o.groups
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribedGroup_v5(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribedGroup_v6(o, out):
    out += _S0p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    write_compact_string(out, o.group_id)
    write_compact_string(out, o.group_state)
    write_compact_string(out, o.protocol_type)
    write_compact_string(out, o.protocol_data)
    value = o.members
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribedGroupMember_v5(item, out)
    out += _S1p(o.authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeGroupsResponse_v6(o, out):
    out += _S1p(o.throttle_time_ms)
    value = o.groups
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribedGroup_v6(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeGroupsResponse._DECODERS = {
    0: _d_DescribeGroupsResponse_v0,
    1: _d_DescribeGroupsResponse_v1,
    2: _d_DescribeGroupsResponse_v1,
    3: _d_DescribeGroupsResponse_v3,
    4: _d_DescribeGroupsResponse_v4,
    5: _d_DescribeGroupsResponse_v5,
    6: _d_DescribeGroupsResponse_v6,
}
DescribeGroupsResponse._ENCODERS = {
    0: _e_DescribeGroupsResponse_v0,
    1: _e_DescribeGroupsResponse_v1,
    2: _e_DescribeGroupsResponse_v2,
    3: _e_DescribeGroupsResponse_v3,
    4: _e_DescribeGroupsResponse_v4,
    5: _e_DescribeGroupsResponse_v5,
    6: _e_DescribeGroupsResponse_v6,
}
