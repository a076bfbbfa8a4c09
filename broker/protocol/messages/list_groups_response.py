# Generated from protocol/schemas/ListGroupsResponse.json by codegen; do not edit.
"""ListGroupsResponse: response, api key 16, versions 0-5."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_array_len,
    read_compact_array_len,
    read_compact_string,
    read_string,
    read_unknown_tags,
    write_array_len,
    write_compact_array_len,
    write_compact_string,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "ListedGroup",
    "ListGroupsResponse",
]
_S0 = Struct('>h')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>ih')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class ListedGroup:
    """One entry for every group in the response."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 5), 'protocol_type': (0, 5), 'group_state': (4, 5), 'group_type': (5, 5)}

    group_id: str = ''
    """Identifier of the group."""

    protocol_type: str = ''
    """Protocol type used by the group."""

    group_state: str = ''
    """Name of the state the group is currently in."""

    group_type: str = ''
    """Name of the type of the group."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ListGroupsResponse(Message):
    """ListGroupsResponse, api key 16."""

    API_KEY: ClassVar[int] = 16
    NAME: ClassVar[str] = 'ListGroupsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 3
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (1, 5), 'error_code': (0, 5), 'groups': (0, 5)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code; 0 means success."""

    groups: list[ListedGroup] = field(default_factory=list)
    """One entry for every group in the response."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ListedGroup_v0(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    f_protocol_type, pos = read_string(buf, pos)
    return ListedGroup(f_group_id, f_protocol_type, '', ''), pos


def _d_ListGroupsResponse_v0(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    n, pos = read_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_ListedGroup_v0(buf, pos)
        append(item)
    return ListGroupsResponse(0, f_error_code, f_groups), pos


def _d_ListGroupsResponse_v1(buf, pos):
    f_throttle_time_ms, f_error_code = _S1u(buf, pos)
    pos += 6
    n, pos = read_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_ListedGroup_v0(buf, pos)
        append(item)
    return ListGroupsResponse(f_throttle_time_ms, f_error_code, f_groups), pos


def _d_ListedGroup_v3(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    f_protocol_type, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListedGroup(f_group_id, f_protocol_type, '', '', unknown), pos


def _d_ListGroupsResponse_v3(buf, pos):
    f_throttle_time_ms, f_error_code = _S1u(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_ListedGroup_v3(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListGroupsResponse(f_throttle_time_ms, f_error_code, f_groups, unknown), pos


def _d_ListedGroup_v4(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    f_protocol_type, pos = read_compact_string(buf, pos)
    f_group_state, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListedGroup(f_group_id, f_protocol_type, f_group_state, '', unknown), pos


def _d_ListGroupsResponse_v4(buf, pos):
    f_throttle_time_ms, f_error_code = _S1u(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_ListedGroup_v4(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListGroupsResponse(f_throttle_time_ms, f_error_code, f_groups, unknown), pos


def _d_ListedGroup_v5(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    f_protocol_type, pos = read_compact_string(buf, pos)
    f_group_state, pos = read_compact_string(buf, pos)
    f_group_type, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListedGroup(f_group_id, f_protocol_type, f_group_state, f_group_type, unknown), pos


def _d_ListGroupsResponse_v5(buf, pos):
    f_throttle_time_ms, f_error_code = _S1u(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_ListedGroup_v5(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListGroupsResponse(f_throttle_time_ms, f_error_code, f_groups, unknown), pos


def _e_ListedGroup_v0(o, out):
    write_string(out, o.group_id)
    write_string(out, o.protocol_type)


def _e_ListGroupsResponse_v0(o, out):
    out += _S0p(o.error_code)
    value = o.groups
    write_array_len(out, value)
    for item in value:
        _e_ListedGroup_v0(item, out)


def _e_ListGroupsResponse_v1(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code)
    value = o.groups
    write_array_len(out, value)
    for item in value:
        _e_ListedGroup_v0(item, out)


def _e_ListedGroup_v3(o, out):
    write_compact_string(out, o.group_id)
    write_compact_string(out, o.protocol_type)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListGroupsResponse_v3(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code)
    value = o.groups
    write_compact_array_len(out, value)
    for item in value:
        _e_ListedGroup_v3(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListedGroup_v4(o, out):
    write_compact_string(out, o.group_id)
    write_compact_string(out, o.protocol_type)
    write_compact_string(out, o.group_state)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListGroupsResponse_v4(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code)
    value = o.groups
    write_compact_array_len(out, value)
    for item in value:
        _e_ListedGroup_v4(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListedGroup_v5(o, out):
    write_compact_string(out, o.group_id)
    write_compact_string(out, o.protocol_type)
    write_compact_string(out, o.group_state)
    write_compact_string(out, o.group_type)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListGroupsResponse_v5(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code)
    value = o.groups
    write_compact_array_len(out, value)
    for item in value:
        _e_ListedGroup_v5(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ListGroupsResponse._DECODERS = {
    0: _d_ListGroupsResponse_v0,
    1: _d_ListGroupsResponse_v1,
    2: _d_ListGroupsResponse_v1,
    3: _d_ListGroupsResponse_v3,
    4: _d_ListGroupsResponse_v4,
    5: _d_ListGroupsResponse_v5,
}
ListGroupsResponse._ENCODERS = {
    0: _e_ListGroupsResponse_v0,
    1: _e_ListGroupsResponse_v1,
    2: _e_ListGroupsResponse_v1,
    3: _e_ListGroupsResponse_v3,
    4: _e_ListGroupsResponse_v4,
    5: _e_ListGroupsResponse_v5,
}
