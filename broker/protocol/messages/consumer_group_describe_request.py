# Generated from protocol/schemas/ConsumerGroupDescribeRequest.json by codegen; do not edit.
"""ConsumerGroupDescribeRequest: request, api key 69, versions 0-1."""

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
    "ConsumerGroupDescribeRequest",
]
_S0 = Struct('>?')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>B')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class ConsumerGroupDescribeRequest(Message):
    """ConsumerGroupDescribeRequest, api key 69."""

    API_KEY: ClassVar[int] = 69
    NAME: ClassVar[str] = 'ConsumerGroupDescribeRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_ids': (0, 1), 'include_authorized_operations': (0, 1)}

    group_ids: list[str] = field(default_factory=list)
    """Ids of the groups that should be described."""

    include_authorized_operations: bool = False
    """Whether the authorized operations should be included in the response."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ConsumerGroupDescribeRequest_v0(buf, pos):
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
    return ConsumerGroupDescribeRequest(f_group_ids, f_include_authorized_operations, unknown), pos


def _e_ConsumerGroupDescribeRequest_v0(o, out):
    value = o.group_ids
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    out += _S1p(o.include_authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ConsumerGroupDescribeRequest._DECODERS = {
    0: _d_ConsumerGroupDescribeRequest_v0,
    1: _d_ConsumerGroupDescribeRequest_v0,
}
ConsumerGroupDescribeRequest._ENCODERS = {
    0: _e_ConsumerGroupDescribeRequest_v0,
    1: _e_ConsumerGroupDescribeRequest_v0,
}
