# Generated from protocol/schemas/DescribeAclsRequest.json by codegen; do not edit.
"""DescribeAclsRequest: request, api key 29, versions 1-3."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_nullable_string,
    read_nullable_string,
    read_unknown_tags,
    write_compact_nullable_string,
    write_nullable_string,
    write_tagged_fields,
)

__all__ = [
    "DescribeAclsRequest",
]
_S0 = Struct('>b')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>bb')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class DescribeAclsRequest(Message):
    """DescribeAclsRequest, api key 29."""

    API_KEY: ClassVar[int] = 29
    NAME: ClassVar[str] = 'DescribeAclsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'resource_type_filter': (0, 3), 'resource_name_filter': (0, 3), 'pattern_type_filter': (1, 3), 'principal_filter': (0, 3), 'host_filter': (0, 3), 'operation': (0, 3), 'permission_type': (0, 3)}

    resource_type_filter: int = 0
    """Type of the resource."""

    resource_name_filter: str | None = ''
    """Name of the resource, or null to match any resource name."""

    pattern_type_filter: int = 3
    """Resource pattern type used as the match filter."""

    principal_filter: str | None = ''
    """Principal used as the match filter; null matches every principal."""

    host_filter: str | None = ''
    """Host used as the match filter; null matches every host."""

    operation: int = 0
    """Operation used as the match filter."""

    permission_type: int = 0
    """Permission type used as the match filter."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DescribeAclsRequest_v1(buf, pos):
    f_resource_type_filter = _S0u(buf, pos)[0]
    pos += 1
    f_resource_name_filter, pos = read_nullable_string(buf, pos)
    f_pattern_type_filter = _S0u(buf, pos)[0]
    pos += 1
    f_principal_filter, pos = read_nullable_string(buf, pos)
    f_host_filter, pos = read_nullable_string(buf, pos)
    f_operation, f_permission_type = _S1u(buf, pos)
    pos += 2
    return DescribeAclsRequest(f_resource_type_filter, f_resource_name_filter, f_pattern_type_filter, f_principal_filter, f_host_filter, f_operation, f_permission_type), pos


def _d_DescribeAclsRequest_v2(buf, pos):
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
    return DescribeAclsRequest(f_resource_type_filter, f_resource_name_filter, f_pattern_type_filter, f_principal_filter, f_host_filter, f_operation, f_permission_type, unknown), pos


def _e_DescribeAclsRequest_v1(o, out):
    out += _S0p(o.resource_type_filter)
    write_nullable_string(out, o.resource_name_filter)
    out += _S0p(o.pattern_type_filter)
    write_nullable_string(out, o.principal_filter)
    write_nullable_string(out, o.host_filter)
    out += _S1p(o.operation, o.permission_type)


def _e_DescribeAclsRequest_v2(o, out):
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


DescribeAclsRequest._DECODERS = {
    1: _d_DescribeAclsRequest_v1,
    2: _d_DescribeAclsRequest_v2,
    3: _d_DescribeAclsRequest_v2,
}
DescribeAclsRequest._ENCODERS = {
    1: _e_DescribeAclsRequest_v1,
    2: _e_DescribeAclsRequest_v2,
    3: _e_DescribeAclsRequest_v2,
}
