# Generated from protocol/schemas/AlterConfigsResponse.json by codegen; do not edit.
"""AlterConfigsResponse: response, api key 33, versions 0-2."""

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
    "AlterConfigsResourceResponse",
    "AlterConfigsResponse",
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


@dataclass(slots=True)
class AlterConfigsResourceResponse:
    """Per-resource responses."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 2), 'error_message': (0, 2), 'resource_type': (0, 2), 'resource_name': (0, 2)}

    error_code: int = 0
    """Error code for this resource."""

    error_message: str | None = ''
    """Error message for this resource; null when no error occurred."""

    resource_type: int = 0
    """Type of the resource."""

    resource_name: str = ''
    """Name of the resource."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AlterConfigsResponse(Message):
    """AlterConfigsResponse, api key 33."""

    API_KEY: ClassVar[int] = 33
    NAME: ClassVar[str] = 'AlterConfigsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 2), 'responses': (0, 2)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    responses: list[AlterConfigsResourceResponse] = field(default_factory=list)
    """Per-resource responses."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_AlterConfigsResourceResponse_v0(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    f_resource_type = _S2u(buf, pos)[0]
    pos += 1
    f_resource_name, pos = read_string(buf, pos)
    return AlterConfigsResourceResponse(f_error_code, f_error_message, f_resource_type, f_resource_name), pos


def _d_AlterConfigsResponse_v0(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_AlterConfigsResourceResponse_v0(buf, pos)
        append(item)
    return AlterConfigsResponse(f_throttle_time_ms, f_responses), pos


def _d_AlterConfigsResourceResponse_v2(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_resource_type = _S2u(buf, pos)[0]
    pos += 1
    f_resource_name, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterConfigsResourceResponse(f_error_code, f_error_message, f_resource_type, f_resource_name, unknown), pos


def _d_AlterConfigsResponse_v2(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_AlterConfigsResourceResponse_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterConfigsResponse(f_throttle_time_ms, f_responses, unknown), pos


def _e_AlterConfigsResourceResponse_v0(o, out):
    out += _S1p(o.error_code)
    write_nullable_string(out, o.error_message)
    out += _S2p(o.resource_type)
    write_string(out, o.resource_name)


def _e_AlterConfigsResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.responses
    write_array_len(out, value)
    for item in value:
        _e_AlterConfigsResourceResponse_v0(item, out)


def _e_AlterConfigsResourceResponse_v2(o, out):
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    out += _S2p(o.resource_type)
    write_compact_string(out, o.resource_name)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AlterConfigsResponse_v2(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.responses
    write_compact_array_len(out, value)
    for item in value:
        _e_AlterConfigsResourceResponse_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


AlterConfigsResponse._DECODERS = {
    0: _d_AlterConfigsResponse_v0,
    1: _d_AlterConfigsResponse_v0,
    2: _d_AlterConfigsResponse_v2,
}
AlterConfigsResponse._ENCODERS = {
    0: _e_AlterConfigsResponse_v0,
    1: _e_AlterConfigsResponse_v0,
    2: _e_AlterConfigsResponse_v2,
}
