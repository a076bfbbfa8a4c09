# Generated from protocol/schemas/CreateAclsRequest.json by codegen; do not edit.
"""CreateAclsRequest: request, api key 30, versions 1-3."""

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
    "AclCreation",
    "CreateAclsRequest",
]
_S0 = Struct('>b')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>bb')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class AclCreation:
    """ACLs to be created."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'resource_type': (0, 3), 'resource_name': (0, 3), 'resource_pattern_type': (1, 3), 'principal': (0, 3), 'host': (0, 3), 'operation': (0, 3), 'permission_type': (0, 3)}

    resource_type: int = 0
    """Type of the resource."""

    resource_name: str = ''
    """Name of the resource the ACL applies to."""

    resource_pattern_type: int = 3
    """Resource pattern type of the ACL."""

    principal: str = ''
    """Principal the ACL applies to."""

    host: str = ''
    """Host the ACL applies to."""

    operation: int = 0
    """Operation covered by the ACL, such as read or write."""

    permission_type: int = 0
    """Permission granted by the ACL, such as allow or deny."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class CreateAclsRequest(Message):
    """CreateAclsRequest, api key 30."""

    API_KEY: ClassVar[int] = 30
    NAME: ClassVar[str] = 'CreateAclsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'creations': (0, 3)}

    creations: list[AclCreation] = field(default_factory=list)
    """ACLs to be created."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_AclCreation_v1(buf, pos):
    f_resource_type = _S0u(buf, pos)[0]
    pos += 1
    f_resource_name, pos = read_string(buf, pos)
    f_resource_pattern_type = _S0u(buf, pos)[0]
    pos += 1
    f_principal, pos = read_string(buf, pos)
    f_host, pos = read_string(buf, pos)
    f_operation, f_permission_type = _S1u(buf, pos)
    pos += 2
    return AclCreation(f_resource_type, f_resource_name, f_resource_pattern_type, f_principal, f_host, f_operation, f_permission_type), pos


def _d_CreateAclsRequest_v1(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_creations = []
    append = f_creations.append
    for _ in range(n):
        item, pos = _d_AclCreation_v1(buf, pos)
        append(item)
    return CreateAclsRequest(f_creations), pos


def _d_AclCreation_v2(buf, pos):
    f_resource_type = _S0u(buf, pos)[0]
    pos += 1
    f_resource_name, pos = read_compact_string(buf, pos)
    f_resource_pattern_type = _S0u(buf, pos)[0]
    pos += 1
    f_principal, pos = read_compact_string(buf, pos)
    f_host, pos = read_compact_string(buf, pos)
    f_operation, f_permission_type = _S1u(buf, pos)
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AclCreation(f_resource_type, f_resource_name, f_resource_pattern_type, f_principal, f_host, f_operation, f_permission_type, unknown), pos


def _d_CreateAclsRequest_v2(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_creations = []
    append = f_creations.append
    for _ in range(n):
        item, pos = _d_AclCreation_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CreateAclsRequest(f_creations, unknown), pos


def _e_AclCreation_v1(o, out):
    out += _S0p(o.resource_type)
    write_string(out, o.resource_name)
    out += _S0p(o.resource_pattern_type)
    write_string(out, o.principal)
    write_string(out, o.host)
    out += _S1p(o.operation, o.permission_type)


def _e_CreateAclsRequest_v1(o, out):
    value = o.creations
    write_array_len(out, value)
    for item in value:
        _e_AclCreation_v1(item, out)


def _e_AclCreation_v2(o, out):
    out += _S0p(o.resource_type)
    write_compact_string(out, o.resource_name)
    out += _S0p(o.resource_pattern_type)
    write_compact_string(out, o.principal)
    write_compact_string(out, o.host)
    out += _S1p(o.operation, o.permission_type)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_CreateAclsRequest_v2(o, out):
    value = o.creations
    write_compact_array_len(out, value)
    for item in value:
        _e_AclCreation_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


CreateAclsRequest._DECODERS = {
    1: _d_CreateAclsRequest_v1,
    2: _d_CreateAclsRequest_v2,
    3: _d_CreateAclsRequest_v2,
}
CreateAclsRequest._ENCODERS = {
    1: _e_CreateAclsRequest_v1,
    2: _e_CreateAclsRequest_v2,
    3: _e_CreateAclsRequest_v2,
}
