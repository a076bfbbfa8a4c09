# Generated from protocol/schemas/ShareGroupDescribeRequest.json by codegen; do not edit.
"""ShareGroupDescribeRequest: request, api key 77, versions 1-1."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

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
    "ShareGroupDescribeRequest",
]
_S0 = Struct('>?')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>B')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class ShareGroupDescribeRequest(Message):
    """ShareGroupDescribeRequest, api key 77."""

    API_KEY: ClassVar[int] = 77
    NAME: ClassVar[str] = 'ShareGroupDescribeRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 1
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_ids': (0, 1), 'include_authorized_operations': (0, 1)}

    group_ids: list[str] = field(default_factory=list)
    """Ids of the groups that should be described."""

    include_authorized_operations: bool = False
    """Whether the authorized operations should be included in the response."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ShareGroupDescribeRequest_v1(buf, pos):
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
    return ShareGroupDescribeRequest(f_group_ids, f_include_authorized_operations, unknown), pos


def _e_ShareGroupDescribeRequest_v1(o, out):
    value = o.group_ids
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    out += _S1p(o.include_authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ShareGroupDescribeRequest._DECODERS = {
    1: _d_ShareGroupDescribeRequest_v1,
}
ShareGroupDescribeRequest._ENCODERS = {
    1: _e_ShareGroupDescribeRequest_v1,
}
