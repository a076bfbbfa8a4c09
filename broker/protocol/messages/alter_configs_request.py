# Generated from protocol/schemas/AlterConfigsRequest.json by codegen; do not edit.
"""AlterConfigsRequest: request, api key 33, versions 0-2."""

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
    "AlterableConfig",
    "AlterConfigsResource",
    "AlterConfigsRequest",
]
_S0 = Struct('>b')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>?')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>B')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class AlterableConfig:
    """Configuration entries."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 2), 'value': (0, 2)}

    name: str = ''
    """Name of the configuration key."""

    value: str | None = ''
    """New value to assign to the configuration key."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AlterConfigsResource:
    """Resources whose configurations are being updated."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'resource_type': (0, 2), 'resource_name': (0, 2), 'configs': (0, 2)}

    resource_type: int = 0
    """Type of the resource."""

    resource_name: str = ''
    """Name of the resource."""

    configs: list[AlterableConfig] = field(default_factory=list)
    """Configuration entries."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AlterConfigsRequest(Message):
    """AlterConfigsRequest, api key 33."""

    API_KEY: ClassVar[int] = 33
    NAME: ClassVar[str] = 'AlterConfigsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'resources': (0, 2), 'validate_only': (0, 2)}

    resources: list[AlterConfigsResource] = field(default_factory=list)
    """Resources whose configurations are being updated."""

    validate_only: bool = False
    """When true, the request is only validated and no configuration is actually changed."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_AlterableConfig_v0(buf, pos):
    f_name, pos = read_string(buf, pos)
    f_value, pos = read_nullable_string(buf, pos)
    return AlterableConfig(f_name, f_value), pos


def _d_AlterConfigsResource_v0(buf, pos):
    f_resource_type = _S0u(buf, pos)[0]
    pos += 1
    f_resource_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_configs = []
    append = f_configs.append
    for _ in range(n):
        item, pos = _d_AlterableConfig_v0(buf, pos)
        append(item)
    return AlterConfigsResource(f_resource_type, f_resource_name, f_configs), pos


def _d_AlterConfigsRequest_v0(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_resources = []
    append = f_resources.append
    for _ in range(n):
        item, pos = _d_AlterConfigsResource_v0(buf, pos)
        append(item)
    f_validate_only = _S1u(buf, pos)[0]
    pos += 1
    return AlterConfigsRequest(f_resources, f_validate_only), pos


def _d_AlterableConfig_v2(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_value, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterableConfig(f_name, f_value, unknown), pos


def _d_AlterConfigsResource_v2(buf, pos):
    f_resource_type = _S0u(buf, pos)[0]
    pos += 1
    f_resource_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_configs = []
    append = f_configs.append
    for _ in range(n):
        item, pos = _d_AlterableConfig_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterConfigsResource(f_resource_type, f_resource_name, f_configs, unknown), pos


def _d_AlterConfigsRequest_v2(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_resources = []
    append = f_resources.append
    for _ in range(n):
        item, pos = _d_AlterConfigsResource_v2(buf, pos)
        append(item)
    f_validate_only = _S1u(buf, pos)[0]
    pos += 1
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterConfigsRequest(f_resources, f_validate_only, unknown), pos


def _e_AlterableConfig_v0(o, out):
    write_string(out, o.name)
    write_nullable_string(out, o.value)


def _e_AlterConfigsResource_v0(o, out):
    out += _S0p(o.resource_type)
    write_string(out, o.resource_name)
    value = o.configs
    write_array_len(out, value)
    for item in value:
        _e_AlterableConfig_v0(item, out)


def _e_AlterConfigsRequest_v0(o, out):
    value = o.resources
    write_array_len(out, value)
    for item in value:
        _e_AlterConfigsResource_v0(item, out)
    out += _S2p(o.validate_only)


def _e_AlterableConfig_v2(o, out):
    write_compact_string(out, o.name)
    write_compact_nullable_string(out, o.value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AlterConfigsResource_v2(o, out):
    out += _S0p(o.resource_type)
    write_compact_string(out, o.resource_name)
    value = o.configs
    write_compact_array_len(out, value)
    for item in value:
        _e_AlterableConfig_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AlterConfigsRequest_v2(o, out):
    value = o.resources
    write_compact_array_len(out, value)
    for item in value:
        _e_AlterConfigsResource_v2(item, out)
    out += _S2p(o.validate_only)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


AlterConfigsRequest._DECODERS = {
    0: _d_AlterConfigsRequest_v0,
    1: _d_AlterConfigsRequest_v0,
    2: _d_AlterConfigsRequest_v2,
}
AlterConfigsRequest._ENCODERS = {
    0: _e_AlterConfigsRequest_v0,
    1: _e_AlterConfigsRequest_v0,
    2: _e_AlterConfigsRequest_v2,
}
