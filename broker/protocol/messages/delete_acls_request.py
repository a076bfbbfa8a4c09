# Generated from protocol/schemas/DeleteAclsRequest.json by codegen; do not edit.
"""DeleteAclsRequest: request, api key 31, versions 1-3."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_array_len,
    read_compact_array_len,
    read_compact_nullable_string,
    read_nullable_string,
    read_unknown_tags,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_string,
    write_nullable_string,
    write_tagged_fields,
)

__all__ = [
    "DeleteAclsFilter",
    "DeleteAclsRequest",
]
_S0 = Struct('>b')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>bb')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class DeleteAclsFilter:
    """Filters that select which ACLs to delete."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'resource_type_filter': (0, 3), 'resource_name_filter': (0, 3), 'pattern_type_filter': (1, 3), 'principal_filter': (0, 3), 'host_filter': (0, 3), 'operation': (0, 3), 'permission_type': (0, 3)}

    resource_type_filter: int = 0
    """Type of the resource."""

    resource_name_filter: str | None = ''
    """Name of the resource, or null to match any resource name."""

    pattern_type_filter: int = 3
    """Type of the resource pattern."""

    principal_filter: str | None = ''
    """Principal to match, or null to match all principals."""

    host_filter: str | None = ''
    """Host to match, or null to match all hosts."""

    operation: int = 0
    """Operation of the ACL."""

    permission_type: int = 0
    """Type of permission."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DeleteAclsRequest(Message):
    """DeleteAclsRequest, api key 31."""

    API_KEY: ClassVar[int] = 31
    NAME: ClassVar[str] = 'DeleteAclsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'filters': (0, 3)}

    filters: list[DeleteAclsFilter] = field(default_factory=list)
    """Filters that select which ACLs to delete."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DeleteAclsFilter_v1(buf, pos):
    f_resource_type_filter = _S0u(buf, pos)[0]
    pos += 1
    f_resource_name_filter, pos = read_nullable_string(buf, pos)
    f_pattern_type_filter = _S0u(buf, pos)[0]
    pos += 1
    f_principal_filter, pos = read_nullable_string(buf, pos)
    f_host_filter, pos = read_nullable_string(buf, pos)
    f_operation, f_permission_type = _S1u(buf, pos)
    pos += 2
    return DeleteAclsFilter(f_resource_type_filter, f_resource_name_filter, f_pattern_type_filter, f_principal_filter, f_host_filter, f_operation, f_permission_type), pos


def _d_DeleteAclsRequest_v1(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_filters = []
    append = f_filters.append
    for _ in range(n):
        item, pos = _d_DeleteAclsFilter_v1(buf, pos)
        append(item)
    return DeleteAclsRequest(f_filters), pos


def _d_DeleteAclsFilter_v2(buf, pos):
    f_resource_type_filter = _S0u(buf, pos)[0]
    pos += 1
    f_resource_name_filter, pos = read_compact_nullable_string(buf, pos)
    f_pattern_type_filter = _S0u(buf, pos)[0]
    pos += 1
    f_principal_filter, pos = read_compact_nullable_string(buf, pos)
    f_host_filter, pos = read_compact_nullable_string(buf, pos)
    f_operation, f_permission_type = _S1u(buf, pos)
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteAclsFilter(f_resource_type_filter, f_resource_name_filter, f_pattern_type_filter, f_principal_filter, f_host_filter, f_operation, f_permission_type, unknown), pos


def _d_DeleteAclsRequest_v2(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_filters = []
    append = f_filters.append
    for _ in range(n):
        item, pos = _d_DeleteAclsFilter_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteAclsRequest(f_filters, unknown), pos


def _e_DeleteAclsFilter_v1(o, out):
    out += _S0p(o.resource_type_filter)
    write_nullable_string(out, o.resource_name_filter)
    out += _S0p(o.pattern_type_filter)
    write_nullable_string(out, o.principal_filter)
    write_nullable_string(out, o.host_filter)
    out += _S1p(o.operation, o.permission_type)


def _e_DeleteAclsRequest_v1(o, out):
    value = o.filters
    write_array_len(out, value)
    for item in value:
        _e_DeleteAclsFilter_v1(item, out)


def _e_DeleteAclsFilter_v2(o, out):
    out += _S0p(o.resource_type_filter)
    write_compact_nullable_string(out, o.resource_name_filter)
    out += _S0p(o.pattern_type_filter)
    write_compact_nullable_string(out, o.principal_filter)
    write_compact_nullable_string(out, o.host_filter)
    out += _S1p(o.operation, o.permission_type)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeleteAclsRequest_v2(o, out):
    value = o.filters
    write_compact_array_len(out, value)
    for item in value:
        _e_DeleteAclsFilter_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DeleteAclsRequest._DECODERS = {
    1: _d_DeleteAclsRequest_v1,
    2: _d_DeleteAclsRequest_v2,
    3: _d_DeleteAclsRequest_v2,
}
DeleteAclsRequest._ENCODERS = {
    1: _e_DeleteAclsRequest_v1,
    2: _e_DeleteAclsRequest_v2,
    3: _e_DeleteAclsRequest_v2,
}
