# Generated from protocol/schemas/ListGroupsRequest.json by codegen; do not edit.
"""ListGroupsRequest: request, api key 16, versions 0-5."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_array_len,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "ListGroupsRequest",
]


@dataclass(slots=True)
class ListGroupsRequest(Message):
    """ListGroupsRequest, api key 16."""

    API_KEY: ClassVar[int] = 16
    NAME: ClassVar[str] = 'ListGroupsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 3
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'states_filter': (4, 5), 'types_filter': (5, 5)}

    states_filter: list[str] = field(default_factory=list)
    """Group states to filter the listing by; when empty, every group is returned together with its state."""

    types_filter: list[str] = field(default_factory=list)
    """Group types to filter the listing by; when empty, every group is returned together with its type."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ListGroupsRequest_v0(buf, pos):
    return ListGroupsRequest([], []), pos


def _d_ListGroupsRequest_v3(buf, pos):
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListGroupsRequest([], [], unknown), pos


def _d_ListGroupsRequest_v4(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_states_filter = []
    append = f_states_filter.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListGroupsRequest(f_states_filter, [], unknown), pos


def _d_ListGroupsRequest_v5(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_states_filter = []
    append = f_states_filter.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_types_filter = []
    append = f_types_filter.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListGroupsRequest(f_states_filter, f_types_filter, unknown), pos


def _e_ListGroupsRequest_v0(o, out):
    if o.states_filter:
        raise UnsupportedFieldError('ListGroupsRequest v0 cannot carry a non-default StatesFilter')
    if o.types_filter:
        raise UnsupportedFieldError('ListGroupsRequest v0 cannot carry a non-default TypesFilter')


def _e_ListGroupsRequest_v1(o, out):
    if o.states_filter:
        raise UnsupportedFieldError('ListGroupsRequest v1 cannot carry a non-default StatesFilter')
    if o.types_filter:
        raise UnsupportedFieldError('ListGroupsRequest v1 cannot carry a non-default TypesFilter')


def _e_ListGroupsRequest_v2(o, out):
    if o.states_filter:
        raise UnsupportedFieldError('ListGroupsRequest v2 cannot carry a non-default StatesFilter')
    if o.types_filter:
        raise UnsupportedFieldError('ListGroupsRequest v2 cannot carry a non-default TypesFilter')


def _e_ListGroupsRequest_v3(o, out):
    if o.states_filter:
        raise UnsupportedFieldError('ListGroupsRequest v3 cannot carry a non-default StatesFilter')
    if o.types_filter:
        raise UnsupportedFieldError('ListGroupsRequest v3 cannot carry a non-default TypesFilter')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListGroupsRequest_v4(o, out):
    value = o.states_filter
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    if o.types_filter:
        raise UnsupportedFieldError('ListGroupsRequest v4 cannot carry a non-default TypesFilter')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListGroupsRequest_v5(o, out):
    value = o.states_filter
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    value = o.types_filter
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ListGroupsRequest._DECODERS = {
    0: _d_ListGroupsRequest_v0,
    1: _d_ListGroupsRequest_v0,
    2: _d_ListGroupsRequest_v0,
    3: _d_ListGroupsRequest_v3,
    4: _d_ListGroupsRequest_v4,
    5: _d_ListGroupsRequest_v5,
}
ListGroupsRequest._ENCODERS = {
    0: _e_ListGroupsRequest_v0,
    1: _e_ListGroupsRequest_v1,
    2: _e_ListGroupsRequest_v2,
    3: _e_ListGroupsRequest_v3,
    4: _e_ListGroupsRequest_v4,
    5: _e_ListGroupsRequest_v5,
}
