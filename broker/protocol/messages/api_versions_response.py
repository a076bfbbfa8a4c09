# Generated from protocol/schemas/ApiVersionsResponse.json by codegen; do not edit.
"""ApiVersionsResponse: response, api key 18, versions 0-5."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_array_len,
    read_compact_array_len,
    read_compact_string,
    read_tag_header,
    read_unknown_tags,
    read_uvarint,
    write_array_len,
    write_compact_array_len,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "ApiVersion",
    "SupportedFeatureKey",
    "FinalizedFeatureKey",
    "ApiVersionsResponse",
]
_S0 = Struct('>h')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>hhh')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>i')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>hh')
_S3u = _S3.unpack_from
_S3p = _S3.pack
_S4 = Struct('>q')
_S4u = _S4.unpack_from
_S4p = _S4.pack
_S5 = Struct('>?')
_S5u = _S5.unpack_from
_S5p = _S5.pack
_S6 = Struct('>B')
_S6u = _S6.unpack_from
_S6p = _S6.pack


@dataclass(slots=True)
class ApiVersion:
    """APIs that the broker supports."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'api_key': (0, 5), 'min_version': (0, 5), 'max_version': (0, 5)}

    api_key: int = 0
    """Key identifying the API."""

    min_version: int = 0
    """Lowest supported version (inclusive)."""

    max_version: int = 0
    """Highest supported version (inclusive)."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class SupportedFeatureKey:
    """Features the broker supports; in versions 0-3, features whose MinSupportedVersion is 0 are left out."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (3, 5), 'min_version': (3, 5), 'max_version': (3, 5)}

    name: str = ''
    """Name of the feature."""

    min_version: int = 0
    """Lowest version of the feature that is supported."""

    max_version: int = 0
    """Highest version of the feature that is supported."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class FinalizedFeatureKey:
    """Features finalized across the cluster; only meaningful when FinalizedFeaturesEpoch >= 0."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (3, 5), 'max_version_level': (3, 5), 'min_version_level': (3, 5)}

    name: str = ''
    """Name of the feature."""

    max_version_level: int = 0
    """Highest version level of the feature finalized across the cluster."""

    min_version_level: int = 0
    """Lowest version level of the feature finalized across the cluster."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ApiVersionsResponse(Message):
    """ApiVersionsResponse, api key 18."""

    API_KEY: ClassVar[int] = 18
    NAME: ClassVar[str] = 'ApiVersionsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 3
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 5), 'api_keys': (0, 5), 'throttle_time_ms': (1, 5), 'supported_features': (3, 5), 'finalized_features_epoch': (3, 5), 'finalized_features': (3, 5), 'zk_migration_ready': (3, 5)}

    error_code: int = 0
    """Error code for the whole response."""

    api_keys: list[ApiVersion] = field(default_factory=list)
    """APIs that the broker supports."""

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    supported_features: list[SupportedFeatureKey] = field(default_factory=list)
    """Features the broker supports; in versions 0-3, features whose MinSupportedVersion is 0 are left out."""

    finalized_features_epoch: int = -1
    """Epoch of the finalized features information, which only ever increases; valid values are >= 0, and -1 is reserved to mean the epoch is unknown."""

    finalized_features: list[FinalizedFeatureKey] = field(default_factory=list)
    """Features finalized across the cluster; only meaningful when FinalizedFeaturesEpoch >= 0."""

    zk_migration_ready: bool = False
    """Set by a KRaft controller when the configuration needed for ZK migration is in place."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ApiVersion_v0(buf, pos):
    f_api_key, f_min_version, f_max_version = _S1u(buf, pos)
    pos += 6
    return ApiVersion(f_api_key, f_min_version, f_max_version), pos


def _d_ApiVersionsResponse_v0(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    n, pos = read_array_len(buf, pos)
    f_api_keys = []
    append = f_api_keys.append
    for _ in range(n):
        item, pos = _d_ApiVersion_v0(buf, pos)
        append(item)
    return ApiVersionsResponse(f_error_code, f_api_keys, 0, [], -1, [], False), pos


def _d_ApiVersionsResponse_v1(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    n, pos = read_array_len(buf, pos)
    f_api_keys = []
    append = f_api_keys.append
    for _ in range(n):
        item, pos = _d_ApiVersion_v0(buf, pos)
        append(item)
    f_throttle_time_ms = _S2u(buf, pos)[0]
    pos += 4
    return ApiVersionsResponse(f_error_code, f_api_keys, f_throttle_time_ms, [], -1, [], False), pos


def _d_ApiVersion_v3(buf, pos):
    f_api_key, f_min_version, f_max_version = _S1u(buf, pos)
    pos += 6
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ApiVersion(f_api_key, f_min_version, f_max_version, unknown), pos


def _d_SupportedFeatureKey_v3(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_min_version, f_max_version = _S3u(buf, pos)
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return SupportedFeatureKey(f_name, f_min_version, f_max_version, unknown), pos


def _d_FinalizedFeatureKey_v3(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_max_version_level, f_min_version_level = _S3u(buf, pos)
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return FinalizedFeatureKey(f_name, f_max_version_level, f_min_version_level, unknown), pos


def _d_ApiVersionsResponse_v3(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    n, pos = read_compact_array_len(buf, pos)
    f_api_keys = []
    append = f_api_keys.append
    for _ in range(n):
        item, pos = _d_ApiVersion_v3(buf, pos)
        append(item)
    f_throttle_time_ms = _S2u(buf, pos)[0]
    pos += 4
    f_supported_features = []
    f_finalized_features_epoch = -1
    f_finalized_features = []
    f_zk_migration_ready = False
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                n, p = read_compact_array_len(buf, p)
                f_supported_features = []
                append = f_supported_features.append
                for _ in range(n):
                    item, p = _d_SupportedFeatureKey_v3(buf, p)
                    append(item)
            elif tag == 1:
                f_finalized_features_epoch = _S4u(buf, p)[0]
                p += 8
            elif tag == 2:
                n, p = read_compact_array_len(buf, p)
                f_finalized_features = []
                append = f_finalized_features.append
                for _ in range(n):
                    item, p = _d_FinalizedFeatureKey_v3(buf, p)
                    append(item)
            elif tag == 3:
                f_zk_migration_ready = _S5u(buf, p)[0]
                p += 1
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return ApiVersionsResponse(f_error_code, f_api_keys, f_throttle_time_ms, f_supported_features, f_finalized_features_epoch, f_finalized_features, f_zk_migration_ready, unknown), pos


def _e_ApiVersion_v0(o, out):
    out += _S1p(o.api_key, o.min_version, o.max_version)


def _e_ApiVersionsResponse_v0(o, out):
    out += _S0p(o.error_code)
    value = o.api_keys
    write_array_len(out, value)
    for item in value:
        _e_ApiVersion_v0(item, out)


def _e_ApiVersionsResponse_v1(o, out):
    out += _S0p(o.error_code)
    value = o.api_keys
    write_array_len(out, value)
    for item in value:
        _e_ApiVersion_v0(item, out)
    out += _S2p(o.throttle_time_ms)


def _e_ApiVersion_v3(o, out):
    out += _S1p(o.api_key, o.min_version, o.max_version)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_SupportedFeatureKey_v3(o, out):
    write_compact_string(out, o.name)
    out += _S3p(o.min_version, o.max_version)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FinalizedFeatureKey_v3(o, out):
    write_compact_string(out, o.name)
    out += _S3p(o.max_version_level, o.min_version_level)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ApiVersionsResponse_v3(o, out):
    out += _S0p(o.error_code)
    value = o.api_keys
    write_compact_array_len(out, value)
    for item in value:
        _e_ApiVersion_v3(item, out)
    out += _S2p(o.throttle_time_ms)
    tags = list(o._unknown_tagged_fields)
    if (o.supported_features or o.supported_features is None):
        t = bytearray()
        value = o.supported_features
        write_compact_array_len(t, value)
        for item in value:
            _e_SupportedFeatureKey_v3(item, t)
        tags.append((0, t))
    if o.finalized_features_epoch != -1:
        t = bytearray()
        t += _S4p(o.finalized_features_epoch)
        tags.append((1, t))
    if (o.finalized_features or o.finalized_features is None):
        t = bytearray()
        value = o.finalized_features
        write_compact_array_len(t, value)
        for item in value:
            _e_FinalizedFeatureKey_v3(item, t)
        tags.append((2, t))
    if o.zk_migration_ready is not False:
        t = bytearray()
        t += _S6p(o.zk_migration_ready)
        tags.append((3, t))
    write_tagged_fields(out, tags)


ApiVersionsResponse._DECODERS = {
    0: _d_ApiVersionsResponse_v0,
    1: _d_ApiVersionsResponse_v1,
    2: _d_ApiVersionsResponse_v1,
    3: _d_ApiVersionsResponse_v3,
    4: _d_ApiVersionsResponse_v3,
    5: _d_ApiVersionsResponse_v3,
}
ApiVersionsResponse._ENCODERS = {
    0: _e_ApiVersionsResponse_v0,
    1: _e_ApiVersionsResponse_v1,
    2: _e_ApiVersionsResponse_v1,
    3: _e_ApiVersionsResponse_v3,
    4: _e_ApiVersionsResponse_v3,
    5: _e_ApiVersionsResponse_v3,
}
