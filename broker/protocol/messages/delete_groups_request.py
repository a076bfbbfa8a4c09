# Generated from protocol/schemas/DeleteGroupsRequest.json by codegen; do not edit.
"""DeleteGroupsRequest: request, api key 42, versions 0-3."""

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
    "DeleteGroupsRequest",
]


@dataclass(slots=True)
class DeleteGroupsRequest(Message):
    """DeleteGroupsRequest, api key 42."""

    API_KEY: ClassVar[int] = 42
    NAME: ClassVar[str] = 'DeleteGroupsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'groups_names': (0, 3)}

    groups_names: list[str] = field(default_factory=list)
    """Names of the groups that should be deleted."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DeleteGroupsRequest_v0(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_groups_names = []
    append = f_groups_names.append
    for _ in range(n):
        item, pos = read_string(buf, pos)
        append(item)
    return DeleteGroupsRequest(f_groups_names), pos


def _d_DeleteGroupsRequest_v2(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_groups_names = []
    append = f_groups_names.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteGroupsRequest(f_groups_names, unknown), pos


def _e_DeleteGroupsRequest_v0(o, out):
    value = o.groups_names
    write_array_len(out, value)
    for item in value:
        write_string(out, item)


def _e_DeleteGroupsRequest_v2(o, out):
    value = o.groups_names
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DeleteGroupsRequest._DECODERS = {
    0: _d_DeleteGroupsRequest_v0,
    1: _d_DeleteGroupsRequest_v0,
    2: _d_DeleteGroupsRequest_v2,
    3: _d_DeleteGroupsRequest_v2,
}
DeleteGroupsRequest._ENCODERS = {
    0: _e_DeleteGroupsRequest_v0,
    1: _e_DeleteGroupsRequest_v0,
    2: _e_DeleteGroupsRequest_v2,
    3: _e_DeleteGroupsRequest_v2,
}
