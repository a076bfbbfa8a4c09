# Generated from protocol/schemas/ListConfigResourcesRequest.json by codegen; do not edit.
"""ListConfigResourcesRequest: request, api key 74, versions 0-1."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
    read_compact_array_len,
    read_unknown_tags,
    write_compact_array_len,
    write_tagged_fields,
)

__all__ = [
    "ListConfigResourcesRequest",
]


@dataclass(slots=True)
class ListConfigResourcesRequest(Message):
    """ListConfigResourcesRequest, api key 74."""

    API_KEY: ClassVar[int] = 74
    NAME: ClassVar[str] = 'ListConfigResourcesRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'resource_types': (1, 1)}

    resource_types: list[int] = field(default_factory=list)
    """Config resource types to list; empty lists every type the broker supports."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ListConfigResourcesRequest_v0(buf, pos):
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListConfigResourcesRequest([], unknown), pos


def _d_ListConfigResourcesRequest_v1(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 1)
    f_resource_types = list(unpack_from('>%db' % n, buf, pos))
    pos += n * 1
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListConfigResourcesRequest(f_resource_types, unknown), pos


def _e_ListConfigResourcesRequest_v0(o, out):
    if o.resource_types:
        raise UnsupportedFieldError('ListConfigResourcesRequest v0 cannot carry a non-default ResourceTypes')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListConfigResourcesRequest_v1(o, out):
    value = o.resource_types
    write_compact_array_len(out, value)
    out += pack('>%db' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ListConfigResourcesRequest._DECODERS = {
    0: _d_ListConfigResourcesRequest_v0,
    1: _d_ListConfigResourcesRequest_v1,
}
ListConfigResourcesRequest._ENCODERS = {
    0: _e_ListConfigResourcesRequest_v0,
    1: _e_ListConfigResourcesRequest_v1,
}
