# Generated from protocol/schemas/DescribeConfigsRequest.json by codegen; do not edit.
"""DescribeConfigsRequest: request, api key 32, versions 1-4."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_array_len,
    read_compact_array_len,
    read_compact_nullable_array_len,
    read_compact_string,
    read_nullable_array_len,
    read_string,
    read_unknown_tags,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_array_len,
    write_compact_string,
    write_nullable_array_len,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "DescribeConfigsResource",
    "DescribeConfigsRequest",
]
_S0 = Struct('>b')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>?')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>??')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>B')
_S3u = _S3.unpack_from
_S3p = _S3.pack
_S4 = Struct('>BB')
_S4u = _S4.unpack_from
_S4p = _S4.pack


@dataclass(slots=True)
class DescribeConfigsResource:
    """Resources whose configuration should be described."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'resource_type': (0, 4), 'resource_name': (0, 4), 'configuration_keys': (0, 4)}

    resource_type: int = 0
    """Type of the resource."""

    resource_name: str = ''
    """Name of the resource."""

    configuration_keys: list[str] | None = field(default_factory=list)
    """Configuration keys to return; null returns every key."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeConfigsRequest(Message):
    """DescribeConfigsRequest, api key 32."""

    API_KEY: ClassVar[int] = 32
    NAME: ClassVar[str] = 'DescribeConfigsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 4
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'resources': (0, 4), 'include_synonyms': (1, 4), 'include_documentation': (3, 4)}

    resources: list[DescribeConfigsResource] = field(default_factory=list)
    """Resources whose configuration should be described."""

    include_synonyms: bool = False
    """When true, all synonyms are included in the result."""

    include_documentation: bool = False
    """When true, documentation for each configuration is included."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DescribeConfigsResource_v1(buf, pos):
    f_resource_type = _S0u(buf, pos)[0]
    pos += 1
    f_resource_name, pos = read_string(buf, pos)
    n, pos = read_nullable_array_len(buf, pos)
    if n < 0:
        f_configuration_keys = None
    else:
        f_configuration_keys = []
        append = f_configuration_keys.append
        for _ in range(n):
            item, pos = read_string(buf, pos)
            append(item)
    return DescribeConfigsResource(f_resource_type, f_resource_name, f_configuration_keys), pos


def _d_DescribeConfigsRequest_v1(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_resources = []
    append = f_resources.append
    for _ in range(n):
        item, pos = _d_DescribeConfigsResource_v1(buf, pos)
        append(item)
    f_include_synonyms = _S1u(buf, pos)[0]
    pos += 1
    return DescribeConfigsRequest(f_resources, f_include_synonyms, False), pos


def _d_DescribeConfigsRequest_v3(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_resources = []
    append = f_resources.append
    for _ in range(n):
        item, pos = _d_DescribeConfigsResource_v1(buf, pos)
        append(item)
    f_include_synonyms, f_include_documentation = _S2u(buf, pos)
    pos += 2
    return DescribeConfigsRequest(f_resources, f_include_synonyms, f_include_documentation), pos


def _d_DescribeConfigsResource_v4(buf, pos):
    f_resource_type = _S0u(buf, pos)[0]
    pos += 1
    f_resource_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_configuration_keys = None
    else:
        f_configuration_keys = []
        append = f_configuration_keys.append
        for _ in range(n):
            item, pos = read_compact_string(buf, pos)
            append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeConfigsResource(f_resource_type, f_resource_name, f_configuration_keys, unknown), pos


def _d_DescribeConfigsRequest_v4(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_resources = []
    append = f_resources.append
    for _ in range(n):
        item, pos = _d_DescribeConfigsResource_v4(buf, pos)
        append(item)
    f_include_synonyms, f_include_documentation = _S2u(buf, pos)
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeConfigsRequest(f_resources, f_include_synonyms, f_include_documentation, unknown), pos


def _e_DescribeConfigsResource_v1(o, out):
    out += _S0p(o.resource_type)
    write_string(out, o.resource_name)
    value = o.configuration_keys
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            write_string(out, item)


def _e_DescribeConfigsRequest_v1(o, out):
    value = o.resources
    write_array_len(out, value)
    for item in value:
        _e_DescribeConfigsResource_v1(item, out)
    out += _S3p(o.include_synonyms)
    if o.include_documentation:
        raise UnsupportedFieldError('DescribeConfigsRequest v1 cannot carry a non-default IncludeDocumentation')


def _e_DescribeConfigsRequest_v2(o, out):
    value = o.resources
    write_array_len(out, value)
    for item in value:
        _e_DescribeConfigsResource_v1(item, out)
    out += _S3p(o.include_synonyms)
    if o.include_documentation:
        raise UnsupportedFieldError('DescribeConfigsRequest v2 cannot carry a non-default IncludeDocumentation')


def _e_DescribeConfigsRequest_v3(o, out):
    value = o.resources
    write_array_len(out, value)
    for item in value:
        _e_DescribeConfigsResource_v1(item, out)
    out += _S4p(o.include_synonyms, o.include_documentation)


def _e_DescribeConfigsResource_v4(o, out):
    out += _S0p(o.resource_type)
    write_compact_string(out, o.resource_name)
    value = o.configuration_keys
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            write_compact_string(out, item)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeConfigsRequest_v4(o, out):
    value = o.resources
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeConfigsResource_v4(item, out)
    out += _S4p(o.include_synonyms, o.include_documentation)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeConfigsRequest._DECODERS = {
    1: _d_DescribeConfigsRequest_v1,
    2: _d_DescribeConfigsRequest_v1,
    3: _d_DescribeConfigsRequest_v3,
    4: _d_DescribeConfigsRequest_v4,
}
DescribeConfigsRequest._ENCODERS = {
    1: _e_DescribeConfigsRequest_v1,
    2: _e_DescribeConfigsRequest_v2,
    3: _e_DescribeConfigsRequest_v3,
    4: _e_DescribeConfigsRequest_v4,
}
