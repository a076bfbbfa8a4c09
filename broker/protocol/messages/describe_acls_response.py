# Generated from protocol/schemas/DescribeAclsResponse.json by codegen; do not edit.
"""DescribeAclsResponse: response, api key 29, versions 1-3."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_array_len,
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_unknown_tags,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "AclDescription",
    "DescribeAclsResource",
    "DescribeAclsResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>b')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>bb')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class AclDescription:
    """List of ACL entries."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'principal': (0, 3), 'host': (0, 3), 'operation': (0, 3), 'permission_type': (0, 3)}

    principal: str = ''
    """Principal of the ACL."""

    host: str = ''
    """Host of the ACL."""

    operation: int = 0
    """Operation of the ACL."""

    permission_type: int = 0
    """Permission type of the ACL."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeAclsResource:
    """Every resource referenced by an ACL."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'resource_type': (0, 3), 'resource_name': (0, 3), 'pattern_type': (1, 3), 'acls': (0, 3)}

    resource_type: int = 0
    """Type of the resource."""

    resource_name: str = ''
    """Name of the resource."""

    pattern_type: int = 3
    """Pattern type of the resource."""

    acls: list[AclDescription] = field(default_factory=list)
    """List of ACL entries."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeAclsResponse(Message):
    """DescribeAclsResponse, api key 29."""

    API_KEY: ClassVar[int] = 29
    NAME: ClassVar[str] = 'DescribeAclsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 3), 'error_code': (0, 3), 'error_message': (0, 3), 'resources': (0, 3)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code; 0 means success."""

    error_message: str | None = ''
    """Error message; null when no error occurred."""

    resources: list[DescribeAclsResource] = field(default_factory=list)
    """Every resource referenced by an ACL."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_AclDescription_v1(buf, pos):
    f_principal, pos = read_string(buf, pos)
    f_host, pos = read_string(buf, pos)
    f_operation, f_permission_type = _S2u(buf, pos)
    pos += 2
    return AclDescription(f_principal, f_host, f_operation, f_permission_type), pos


def _d_DescribeAclsResource_v1(buf, pos):
    f_resource_type = _S1u(buf, pos)[0]
    pos += 1
    f_resource_name, pos = read_string(buf, pos)
    f_pattern_type = _S1u(buf, pos)[0]
    pos += 1
    n, pos = read_array_len(buf, pos)
    f_acls = []
    append = f_acls.append
    for _ in range(n):
        item, pos = _d_AclDescription_v1(buf, pos)
        append(item)
    return DescribeAclsResource(f_resource_type, f_resource_name, f_pattern_type, f_acls), pos


def _d_DescribeAclsResponse_v1(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_nullable_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_resources = []
    append = f_resources.append
    for _ in range(n):
        item, pos = _d_DescribeAclsResource_v1(buf, pos)
        append(item)
    return DescribeAclsResponse(f_throttle_time_ms, f_error_code, f_error_message, f_resources), pos


def _d_AclDescription_v2(buf, pos):
    f_principal, pos = read_compact_string(buf, pos)
    f_host, pos = read_compact_string(buf, pos)
    f_operation, f_permission_type = _S2u(buf, pos)
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AclDescription(f_principal, f_host, f_operation, f_permission_type, unknown), pos


def _d_DescribeAclsResource_v2(buf, pos):
    f_resource_type = _S1u(buf, pos)[0]
    pos += 1
    f_resource_name, pos = read_compact_string(buf, pos)
    f_pattern_type = _S1u(buf, pos)[0]
    pos += 1
    n, pos = read_compact_array_len(buf, pos)
    f_acls = []
    append = f_acls.append
    for _ in range(n):
        item, pos = _d_AclDescription_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeAclsResource(f_resource_type, f_resource_name, f_pattern_type, f_acls, unknown), pos


def _d_DescribeAclsResponse_v2(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_resources = []
    append = f_resources.append
    for _ in range(n):
        item, pos = _d_DescribeAclsResource_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeAclsResponse(f_throttle_time_ms, f_error_code, f_error_message, f_resources, unknown), pos


def _e_AclDescription_v1(o, out):
    write_string(out, o.principal)
    write_string(out, o.host)
    out += _S2p(o.operation, o.permission_type)


def _e_DescribeAclsResource_v1(o, out):
    out += _S1p(o.resource_type)
    write_string(out, o.resource_name)
    out += _S1p(o.pattern_type)
    value = o.acls
    write_array_len(out, value)
    for item in value:
        _e_AclDescription_v1(item, out)


def _e_DescribeAclsResponse_v1(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_nullable_string(out, o.error_message)
    value = o.resources
    write_array_len(out, value)
    for item in value:
        _e_DescribeAclsResource_v1(item, out)


def _e_AclDescription_v2(o, out):
    write_compact_string(out, o.principal)
    write_compact_string(out, o.host)
    out += _S2p(o.operation, o.permission_type)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeAclsResource_v2(o, out):
    out += _S1p(o.resource_type)
    write_compact_string(out, o.resource_name)
    out += _S1p(o.pattern_type)
    value = o.acls
    write_compact_array_len(out, value)
    for item in value:
        _e_AclDescription_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeAclsResponse_v2(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    value = o.resources
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeAclsResource_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeAclsResponse._DECODERS = {
    1: _d_DescribeAclsResponse_v1,
    2: _d_DescribeAclsResponse_v2,
    3: _d_DescribeAclsResponse_v2,
}
DescribeAclsResponse._ENCODERS = {
    1: _e_DescribeAclsResponse_v1,
    2: _e_DescribeAclsResponse_v2,
    3: _e_DescribeAclsResponse_v2,
}
