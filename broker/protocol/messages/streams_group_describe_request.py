# Generated from protocol/schemas/StreamsGroupDescribeRequest.json by codegen; do not edit.
"""StreamsGroupDescribeRequest: request, api key 89, versions 0-1."""

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
    "StreamsGroupDescribeRequest",
]
_S0 = Struct('>?')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>??')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>B')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>BB')
_S3u = _S3.unpack_from
_S3p = _S3.pack


@dataclass(slots=True)
class StreamsGroupDescribeRequest(Message):
    """StreamsGroupDescribeRequest, api key 89."""

    API_KEY: ClassVar[int] = 89
    NAME: ClassVar[str] = 'StreamsGroupDescribeRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_ids': (0, 1), 'include_authorized_operations': (0, 1), 'include_topology_description': (1, 1)}

    group_ids: list[str] = field(default_factory=list)
    """IDs of the groups to describe."""

    include_authorized_operations: bool = False
    """Whether to return the operations the caller may perform on each group."""

    include_topology_description: bool = False
    """Whether to return the full topology description stored for each group (KIP-1331)."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_StreamsGroupDescribeRequest_v0(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_group_ids = []
    append = f_group_ids.append
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
    return StreamsGroupDescribeRequest(f_group_ids, f_include_authorized_operations, False, unknown), pos


def _d_StreamsGroupDescribeRequest_v1(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_group_ids = []
    append = f_group_ids.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    f_include_authorized_operations, f_include_topology_description = _S1u(buf, pos)
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return StreamsGroupDescribeRequest(f_group_ids, f_include_authorized_operations, f_include_topology_description, unknown), pos


def _e_StreamsGroupDescribeRequest_v0(o, out):
    value = o.group_ids
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    out += _S2p(o.include_authorized_operations)
    if o.include_topology_description:
        raise UnsupportedFieldError('StreamsGroupDescribeRequest v0 cannot carry a non-default IncludeTopologyDescription')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_StreamsGroupDescribeRequest_v1(o, out):
    value = o.group_ids
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    out += _S3p(o.include_authorized_operations, o.include_topology_description)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


StreamsGroupDescribeRequest._DECODERS = {
    0: _d_StreamsGroupDescribeRequest_v0,
    1: _d_StreamsGroupDescribeRequest_v1,
}
StreamsGroupDescribeRequest._ENCODERS = {
    0: _e_StreamsGroupDescribeRequest_v0,
    1: _e_StreamsGroupDescribeRequest_v1,
}
