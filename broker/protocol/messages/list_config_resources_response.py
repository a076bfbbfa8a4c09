# Generated from protocol/schemas/ListConfigResourcesResponse.json by codegen; do not edit.
"""ListConfigResourcesResponse: response, api key 74, versions 0-1."""

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
    "ConfigResource",
    "ListConfigResourcesResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>b')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class ConfigResource:
    """One entry per config resource."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'resource_name': (0, 1), 'resource_type': (1, 1)}

    resource_name: str = ''
    """Name of the resource."""

    resource_type: int = 16
    """Type of the resource (16: client metrics)."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ListConfigResourcesResponse(Message):
    """ListConfigResourcesResponse, api key 74."""

    API_KEY: ClassVar[int] = 74
    NAME: ClassVar[str] = 'ListConfigResourcesResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 1), 'error_code': (0, 1), 'config_resources': (0, 1)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code; 0 means success."""

    config_resources: list[ConfigResource] = field(default_factory=list)
    """One entry per config resource."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ConfigResource_v0(buf, pos):
    f_resource_name, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ConfigResource(f_resource_name, 16, unknown), pos


def _d_ListConfigResourcesResponse_v0(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos)
    f_config_resources = []
    append = f_config_resources.append
    for _ in range(n):
        item, pos = _d_ConfigResource_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListConfigResourcesResponse(f_throttle_time_ms, f_error_code, f_config_resources, unknown), pos


def _d_ConfigResource_v1(buf, pos):
    f_resource_name, pos = read_compact_string(buf, pos)
    f_resource_type = _S1u(buf, pos)[0]
    pos += 1
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ConfigResource(f_resource_name, f_resource_type, unknown), pos


def _d_ListConfigResourcesResponse_v1(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos)
    f_config_resources = []
    append = f_config_resources.append
    for _ in range(n):
        item, pos = _d_ConfigResource_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListConfigResourcesResponse(f_throttle_time_ms, f_error_code, f_config_resources, unknown), pos


def _e_ConfigResource_v0(o, out):
    write_compact_string(out, o.resource_name)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListConfigResourcesResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    value = o.config_resources
    write_compact_array_len(out, value)
    for item in value:
        _e_ConfigResource_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ConfigResource_v1(o, out):
    write_compact_string(out, o.resource_name)
    out += _S1p(o.resource_type)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListConfigResourcesResponse_v1(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    value = o.config_resources
    write_compact_array_len(out, value)
    for item in value:
        _e_ConfigResource_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ListConfigResourcesResponse._DECODERS = {
    0: _d_ListConfigResourcesResponse_v0,
    1: _d_ListConfigResourcesResponse_v1,
}
ListConfigResourcesResponse._ENCODERS = {
    0: _e_ListConfigResourcesResponse_v0,
    1: _e_ListConfigResourcesResponse_v1,
}
