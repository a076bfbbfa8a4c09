# Generated from protocol/schemas/DeleteAclsResponse.json by codegen; do not edit.
"""DeleteAclsResponse: response, api key 31, versions 1-3."""

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
    "DeleteAclsMatchingAcl",
    "DeleteAclsFilterResult",
    "DeleteAclsResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>h')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>b')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>bb')
_S3u = _S3.unpack_from
_S3p = _S3.pack


@dataclass(slots=True)
class DeleteAclsMatchingAcl:
    """ACLs that this filter matched."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 3), 'error_message': (0, 3), 'resource_type': (0, 3), 'resource_name': (0, 3), 'pattern_type': (1, 3), 'principal': (0, 3), 'host': (0, 3), 'operation': (0, 3), 'permission_type': (0, 3)}

    error_code: int = 0
    """Error code from the deletion; 0 when it succeeded."""

    error_message: str | None = ''
    """Error message from the deletion; null when it succeeded."""

    resource_type: int = 0
    """Resource type of the ACL."""

    resource_name: str = ''
    """Resource name of the ACL."""

    pattern_type: int = 3
    """Resource pattern type of the ACL."""

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
class DeleteAclsFilterResult:
    """Result for each filter."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 3), 'error_message': (0, 3), 'matching_acls': (0, 3)}

    error_code: int = 0
    """Error code; 0 when the filter succeeded."""

    error_message: str | None = ''
    """Error message; null when the filter succeeded."""

    matching_acls: list[DeleteAclsMatchingAcl] = field(default_factory=list)
    """ACLs that this filter matched."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DeleteAclsResponse(Message):
    """DeleteAclsResponse, api key 31."""

    API_KEY: ClassVar[int] = 31
    NAME: ClassVar[str] = 'DeleteAclsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 3), 'filter_results': (0, 3)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    filter_results: list[DeleteAclsFilterResult] = field(default_factory=list)
    """Result for each filter."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DeleteAclsMatchingAcl_v1(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    f_resource_type = _S2u(buf, pos)[0]
    pos += 1
    f_resource_name, pos = read_string(buf, pos)
    f_pattern_type = _S2u(buf, pos)[0]
    pos += 1
    f_principal, pos = read_string(buf, pos)
    f_host, pos = read_string(buf, pos)
    f_operation, f_permission_type = _S3u(buf, pos)
    pos += 2
    return DeleteAclsMatchingAcl(f_error_code, f_error_message, f_resource_type, f_resource_name, f_pattern_type, f_principal, f_host, f_operation, f_permission_type), pos


def _d_DeleteAclsFilterResult_v1(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_matching_acls = []
    append = f_matching_acls.append
    for _ in range(n):
        item, pos = _d_DeleteAclsMatchingAcl_v1(buf, pos)
        append(item)
    return DeleteAclsFilterResult(f_error_code, f_error_message, f_matching_acls), pos


def _d_DeleteAclsResponse_v1(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_filter_results = []
    append = f_filter_results.append
    for _ in range(n):
        item, pos = _d_DeleteAclsFilterResult_v1(buf, pos)
        append(item)
    return DeleteAclsResponse(f_throttle_time_ms, f_filter_results), pos


def _d_DeleteAclsMatchingAcl_v2(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_resource_type = _S2u(buf, pos)[0]
    pos += 1
    f_resource_name, pos = read_compact_string(buf, pos)
    f_pattern_type = _S2u(buf, pos)[0]
    pos += 1
    f_principal, pos = read_compact_string(buf, pos)
    f_host, pos = read_compact_string(buf, pos)
    f_operation, f_permission_type = _S3u(buf, pos)
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteAclsMatchingAcl(f_error_code, f_error_message, f_resource_type, f_resource_name, f_pattern_type, f_principal, f_host, f_operation, f_permission_type, unknown), pos


def _d_DeleteAclsFilterResult_v2(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_matching_acls = []
    append = f_matching_acls.append
    for _ in range(n):
        item, pos = _d_DeleteAclsMatchingAcl_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteAclsFilterResult(f_error_code, f_error_message, f_matching_acls, unknown), pos


def _d_DeleteAclsResponse_v2(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_filter_results = []
    append = f_filter_results.append
    for _ in range(n):
        item, pos = _d_DeleteAclsFilterResult_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteAclsResponse(f_throttle_time_ms, f_filter_results, unknown), pos


def _e_DeleteAclsMatchingAcl_v1(o, out):
    out += _S1p(o.error_code)
    write_nullable_string(out, o.error_message)
    out += _S2p(o.resource_type)
    write_string(out, o.resource_name)
    out += _S2p(o.pattern_type)
    write_string(out, o.principal)
    write_string(out, o.host)
    out += _S3p(o.operation, o.permission_type)


def _e_DeleteAclsFilterResult_v1(o, out):
    out += _S1p(o.error_code)
    write_nullable_string(out, o.error_message)
    value = o.matching_acls
    write_array_len(out, value)
    for item in value:
        _e_DeleteAclsMatchingAcl_v1(item, out)


def _e_DeleteAclsResponse_v1(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.filter_results
    write_array_len(out, value)
    for item in value:
        _e_DeleteAclsFilterResult_v1(item, out)


def _e_DeleteAclsMatchingAcl_v2(o, out):
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    out += _S2p(o.resource_type)
    write_compact_string(out, o.resource_name)
    out += _S2p(o.pattern_type)
    write_compact_string(out, o.principal)
    write_compact_string(out, o.host)
    out += _S3p(o.operation, o.permission_type)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeleteAclsFilterResult_v2(o, out):
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    value = o.matching_acls
    write_compact_array_len(out, value)
    for item in value:
        _e_DeleteAclsMatchingAcl_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeleteAclsResponse_v2(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.filter_results
    write_compact_array_len(out, value)
    for item in value:
        _e_DeleteAclsFilterResult_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DeleteAclsResponse._DECODERS = {
    1: _d_DeleteAclsResponse_v1,
    2: _d_DeleteAclsResponse_v2,
    3: _d_DeleteAclsResponse_v2,
}
DeleteAclsResponse._ENCODERS = {
    1: _e_DeleteAclsResponse_v1,
    2: _e_DeleteAclsResponse_v2,
    3: _e_DeleteAclsResponse_v2,
}
