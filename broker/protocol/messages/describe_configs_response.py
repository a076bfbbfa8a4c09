# Generated from protocol/schemas/DescribeConfigsResponse.json by codegen; do not edit.
"""DescribeConfigsResponse: response, api key 32, versions 1-4."""

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
    "DescribeConfigsSynonym",
    "DescribeConfigsResourceResult",
    "DescribeConfigsResult",
    "DescribeConfigsResponse",
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
_S3 = Struct('>?b?')
_S3u = _S3.unpack_from
_S3p = _S3.pack
_S4 = Struct('>BbB')
_S4u = _S4.unpack_from
_S4p = _S4.pack


@dataclass(slots=True)
class DescribeConfigsSynonym:
    """Synonyms that exist for this configuration key."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (1, 4), 'value': (1, 4), 'source': (1, 4)}

    name: str = ''
    """Name of the synonym."""

    value: str | None = ''
    """Value of the synonym."""

    source: int = 0
    """Where the synonym value comes from."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeConfigsResourceResult:
    """One entry per returned configuration."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 4), 'value': (0, 4), 'read_only': (0, 4), 'config_source': (1, 4), 'is_sensitive': (0, 4), 'synonyms': (1, 4), 'config_type': (3, 4), 'documentation': (3, 4)}

    name: str = ''
    """Name of the configuration."""

    value: str | None = ''
    """Value of the configuration."""

    read_only: bool = False
    """Whether the configuration is read-only."""

    config_source: int = -1
    """Source the configuration comes from."""

    is_sensitive: bool = False
    """Whether this configuration is sensitive."""

    synonyms: list[DescribeConfigsSynonym] = field(default_factory=list)
    """Synonyms that exist for this configuration key."""

    config_type: int = 0
    """Data type of the configuration, one of BOOLEAN, STRING, INT, SHORT, LONG, DOUBLE, LIST, CLASS or PASSWORD."""

    documentation: str | None = ''
    """Documentation text for the configuration."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeConfigsResult:
    """Per-resource results."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 4), 'error_message': (0, 4), 'resource_type': (0, 4), 'resource_name': (0, 4), 'configs': (0, 4)}

    error_code: int = 0
    """Error code for describing the configurations, or 0 on success."""

    error_message: str | None = ''
    """Error message for describing the configurations, or null on success."""

    resource_type: int = 0
    """Type of the resource."""

    resource_name: str = ''
    """Name of the resource."""

    configs: list[DescribeConfigsResourceResult] = field(default_factory=list)
    """One entry per returned configuration."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeConfigsResponse(Message):
    """DescribeConfigsResponse, api key 32."""

    API_KEY: ClassVar[int] = 32
    NAME: ClassVar[str] = 'DescribeConfigsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 4
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 4), 'results': (0, 4)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    results: list[DescribeConfigsResult] = field(default_factory=list)
    """Per-resource results."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DescribeConfigsSynonym_v1(buf, pos):
    f_name, pos = read_string(buf, pos)
    f_value, pos = read_nullable_string(buf, pos)
    f_source = _S2u(buf, pos)[0]
    pos += 1
    return DescribeConfigsSynonym(f_name, f_value, f_source), pos


def _d_DescribeConfigsResourceResult_v1(buf, pos):
    f_name, pos = read_string(buf, pos)
    f_value, pos = read_nullable_string(buf, pos)
    f_read_only, f_config_source, f_is_sensitive = _S3u(buf, pos)
    pos += 3
    n, pos = read_array_len(buf, pos)
    f_synonyms = []
    append = f_synonyms.append
    for _ in range(n):
        item, pos = _d_DescribeConfigsSynonym_v1(buf, pos)
        append(item)
    return DescribeConfigsResourceResult(f_name, f_value, f_read_only, f_config_source, f_is_sensitive, f_synonyms, 0, ''), pos


def _d_DescribeConfigsResult_v1(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    f_resource_type = _S2u(buf, pos)[0]
    pos += 1
    f_resource_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_configs = []
    append = f_configs.append
    for _ in range(n):
        item, pos = _d_DescribeConfigsResourceResult_v1(buf, pos)
        append(item)
    return DescribeConfigsResult(f_error_code, f_error_message, f_resource_type, f_resource_name, f_configs), pos


def _d_DescribeConfigsResponse_v1(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_DescribeConfigsResult_v1(buf, pos)
        append(item)
    return DescribeConfigsResponse(f_throttle_time_ms, f_results), pos


def _d_DescribeConfigsResourceResult_v3(buf, pos):
    f_name, pos = read_string(buf, pos)
    f_value, pos = read_nullable_string(buf, pos)
    f_read_only, f_config_source, f_is_sensitive = _S3u(buf, pos)
    pos += 3
    n, pos = read_array_len(buf, pos)
    f_synonyms = []
    append = f_synonyms.append
    for _ in range(n):
        item, pos = _d_DescribeConfigsSynonym_v1(buf, pos)
        append(item)
    f_config_type = _S2u(buf, pos)[0]
    pos += 1
    f_documentation, pos = read_nullable_string(buf, pos)
    return DescribeConfigsResourceResult(f_name, f_value, f_read_only, f_config_source, f_is_sensitive, f_synonyms, f_config_type, f_documentation), pos


def _d_DescribeConfigsResult_v3(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    f_resource_type = _S2u(buf, pos)[0]
    pos += 1
    f_resource_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_configs = []
    append = f_configs.append
    for _ in range(n):
        item, pos = _d_DescribeConfigsResourceResult_v3(buf, pos)
        append(item)
    return DescribeConfigsResult(f_error_code, f_error_message, f_resource_type, f_resource_name, f_configs), pos


def _d_DescribeConfigsResponse_v3(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_DescribeConfigsResult_v3(buf, pos)
        append(item)
    return DescribeConfigsResponse(f_throttle_time_ms, f_results), pos


def _d_DescribeConfigsSynonym_v4(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_value, pos = read_compact_nullable_string(buf, pos)
    f_source = _S2u(buf, pos)[0]
    pos += 1
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeConfigsSynonym(f_name, f_value, f_source, unknown), pos


def _d_DescribeConfigsResourceResult_v4(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_value, pos = read_compact_nullable_string(buf, pos)
    f_read_only, f_config_source, f_is_sensitive = _S3u(buf, pos)
    pos += 3
    n, pos = read_compact_array_len(buf, pos)
    f_synonyms = []
    append = f_synonyms.append
    for _ in range(n):
        item, pos = _d_DescribeConfigsSynonym_v4(buf, pos)
        append(item)
    f_config_type = _S2u(buf, pos)[0]
    pos += 1
    f_documentation, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeConfigsResourceResult(f_name, f_value, f_read_only, f_config_source, f_is_sensitive, f_synonyms, f_config_type, f_documentation, unknown), pos


def _d_DescribeConfigsResult_v4(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_resource_type = _S2u(buf, pos)[0]
    pos += 1
    f_resource_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_configs = []
    append = f_configs.append
    for _ in range(n):
        item, pos = _d_DescribeConfigsResourceResult_v4(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeConfigsResult(f_error_code, f_error_message, f_resource_type, f_resource_name, f_configs, unknown), pos


def _d_DescribeConfigsResponse_v4(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_DescribeConfigsResult_v4(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeConfigsResponse(f_throttle_time_ms, f_results, unknown), pos


def _e_DescribeConfigsSynonym_v1(o, out):
    write_string(out, o.name)
    write_nullable_string(out, o.value)
    out += _S2p(o.source)


def _e_DescribeConfigsResourceResult_v1(o, out):
    write_string(out, o.name)
    write_nullable_string(out, o.value)
    out += _S4p(o.read_only, o.config_source, o.is_sensitive)
    value = o.synonyms
    write_array_len(out, value)
    for item in value:
        _e_DescribeConfigsSynonym_v1(item, out)


def _e_DescribeConfigsResult_v1(o, out):
    out += _S1p(o.error_code)
    write_nullable_string(out, o.error_message)
    out += _S2p(o.resource_type)
    write_string(out, o.resource_name)
    value = o.configs
    write_array_len(out, value)
    for item in value:
        _e_DescribeConfigsResourceResult_v1(item, out)


def _e_DescribeConfigsResponse_v1(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.results
    write_array_len(out, value)
    for item in value:
        _e_DescribeConfigsResult_v1(item, out)


def _e_DescribeConfigsResourceResult_v3(o, out):
    write_string(out, o.name)
    write_nullable_string(out, o.value)
    out += _S4p(o.read_only, o.config_source, o.is_sensitive)
    value = o.synonyms
    write_array_len(out, value)
    for item in value:
        _e_DescribeConfigsSynonym_v1(item, out)
    out += _S2p(o.config_type)
    write_nullable_string(out, o.documentation)


def _e_DescribeConfigsResult_v3(o, out):
    out += _S1p(o.error_code)
    write_nullable_string(out, o.error_message)
    out += _S2p(o.resource_type)
    write_string(out, o.resource_name)
    value = o.configs
    write_array_len(out, value)
    for item in value:
        _e_DescribeConfigsResourceResult_v3(item, out)


def _e_DescribeConfigsResponse_v3(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.results
    write_array_len(out, value)
    for item in value:
        _e_DescribeConfigsResult_v3(item, out)


def _e_DescribeConfigsSynonym_v4(o, out):
    write_compact_string(out, o.name)
    write_compact_nullable_string(out, o.value)
    out += _S2p(o.source)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeConfigsResourceResult_v4(o, out):
    write_compact_string(out, o.name)
    write_compact_nullable_string(out, o.value)
    out += _S4p(o.read_only, o.config_source, o.is_sensitive)
    value = o.synonyms
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeConfigsSynonym_v4(item, out)
    out += _S2p(o.config_type)
    write_compact_nullable_string(out, o.documentation)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeConfigsResult_v4(o, out):
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    out += _S2p(o.resource_type)
    write_compact_string(out, o.resource_name)
    value = o.configs
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeConfigsResourceResult_v4(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeConfigsResponse_v4(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.results
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeConfigsResult_v4(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeConfigsResponse._DECODERS = {
    1: _d_DescribeConfigsResponse_v1,
    2: _d_DescribeConfigsResponse_v1,
    3: _d_DescribeConfigsResponse_v3,
    4: _d_DescribeConfigsResponse_v4,
}
DescribeConfigsResponse._ENCODERS = {
    1: _e_DescribeConfigsResponse_v1,
    2: _e_DescribeConfigsResponse_v1,
    3: _e_DescribeConfigsResponse_v3,
    4: _e_DescribeConfigsResponse_v4,
}
