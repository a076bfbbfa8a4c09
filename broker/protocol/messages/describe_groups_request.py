# Generated from protocol/schemas/DescribeGroupsRequest.json by codegen; do not edit.
"""DescribeGroupsRequest: request, api key 15, versions 0-6."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
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
    "DescribeGroupsRequest",
]
_S0 = Struct('>?')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>B')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class DescribeGroupsRequest(Message):
    """DescribeGroupsRequest, api key 15."""

    API_KEY: ClassVar[int] = 15
    NAME: ClassVar[str] = 'DescribeGroupsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 6
    FLEXIBLE_MIN: ClassVar[int | None] = 5
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'groups': (0, 6), 'include_authorized_operations': (3, 6)}

    groups: list[str] = field(default_factory=list)
    """Names of the groups that should be described."""

    include_authorized_operations: bool = False
    """Whether the authorized operations should be included in the response."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DescribeGroupsRequest_v0(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = read_string(buf, pos)
        append(item)
    return DescribeGroupsRequest(f_groups, False), pos


def _d_DescribeGroupsRequest_v3(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = read_string(buf, pos)
        append(item)
    f_include_authorized_operations = _S0u(buf, pos)[0]
    pos += 1
    return DescribeGroupsRequest(f_groups, f_include_authorized_operations), pos


def _d_DescribeGroupsRequest_v5(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    f_include_authorized_operations = _S0u(buf, pos)[0]
    pos += 1
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeGroupsRequest(f_groups, f_include_authorized_operations, unknown), pos


def _e_DescribeGroupsRequest_v0(o, out):
    value = o.groups
    write_array_len(out, value)
    for item in value:
        write_string(out, item)
    if o.include_authorized_operations:
        raise UnsupportedFieldError('DescribeGroupsRequest v0 cannot carry a non-default IncludeAuthorizedOperations')


def _e_DescribeGroupsRequest_v1(o, out):
    value = o.groups
    write_array_len(out, value)
    for item in value:
        write_string(out, item)
    if o.include_authorized_operations:
        raise UnsupportedFieldError('DescribeGroupsRequest v1 cannot carry a non-default IncludeAuthorizedOperations')


def _e_DescribeGroupsRequest_v2(o, out):
    value = o.groups
    write_array_len(out, value)
    for item in value:
        write_string(out, item)
    if o.include_authorized_operations:
        raise UnsupportedFieldError('DescribeGroupsRequest v2 cannot carry a non-default IncludeAuthorizedOperations')


def _e_DescribeGroupsRequest_v3(o, out):
    value = o.groups
    write_array_len(out, value)
    for item in value:
        write_string(out, item)
    out += _S1p(o.include_authorized_operations)


def _e_DescribeGroupsRequest_v5(o, out):
    value = o.groups
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    out += _S1p(o.include_authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeGroupsRequest._DECODERS = {
    0: _d_DescribeGroupsRequest_v0,
    1: _d_DescribeGroupsRequest_v0,
    2: _d_DescribeGroupsRequest_v0,
    3: _d_DescribeGroupsRequest_v3,
    4: _d_DescribeGroupsRequest_v3,
    5: _d_DescribeGroupsRequest_v5,
    6: _d_DescribeGroupsRequest_v5,
}
DescribeGroupsRequest._ENCODERS = {
    0: _e_DescribeGroupsRequest_v0,
    1: _e_DescribeGroupsRequest_v1,
    2: _e_DescribeGroupsRequest_v2,
    3: _e_DescribeGroupsRequest_v3,
    4: _e_DescribeGroupsRequest_v3,
    5: _e_DescribeGroupsRequest_v5,
    6: _e_DescribeGroupsRequest_v5,
}
