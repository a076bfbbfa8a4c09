# Generated from protocol/schemas/CreateAclsResponse.json by codegen; do not edit.
"""CreateAclsResponse: response, api key 30, versions 1-3."""

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
    "AclCreationResult",
    "CreateAclsResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>h')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class AclCreationResult:
    """Result of each ACL creation."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 3), 'error_message': (0, 3)}

    error_code: int = 0
    """Error code for the result; zero means success."""

    error_message: str | None = ''
    """Message for the result; null when no error occurred."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class CreateAclsResponse(Message):
    """CreateAclsResponse, api key 30."""

    API_KEY: ClassVar[int] = 30
    NAME: ClassVar[str] = 'CreateAclsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 3), 'results': (0, 3)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    results: list[AclCreationResult] = field(default_factory=list)
    """Result of each ACL creation."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_AclCreationResult_v1(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    return AclCreationResult(f_error_code, f_error_message), pos


def _d_CreateAclsResponse_v1(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_AclCreationResult_v1(buf, pos)
        append(item)
    return CreateAclsResponse(f_throttle_time_ms, f_results), pos


def _d_AclCreationResult_v2(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AclCreationResult(f_error_code, f_error_message, unknown), pos


def _d_CreateAclsResponse_v2(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_AclCreationResult_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CreateAclsResponse(f_throttle_time_ms, f_results, unknown), pos


def _e_AclCreationResult_v1(o, out):
    out += _S1p(o.error_code)
    write_nullable_string(out, o.error_message)


def _e_CreateAclsResponse_v1(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.results
    write_array_len(out, value)
    for item in value:
        _e_AclCreationResult_v1(item, out)


def _e_AclCreationResult_v2(o, out):
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_CreateAclsResponse_v2(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.results
    write_compact_array_len(out, value)
    for item in value:
        _e_AclCreationResult_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


CreateAclsResponse._DECODERS = {
    1: _d_CreateAclsResponse_v1,
    2: _d_CreateAclsResponse_v2,
    3: _d_CreateAclsResponse_v2,
}
CreateAclsResponse._ENCODERS = {
    1: _e_CreateAclsResponse_v1,
    2: _e_CreateAclsResponse_v2,
    3: _e_CreateAclsResponse_v2,
}
