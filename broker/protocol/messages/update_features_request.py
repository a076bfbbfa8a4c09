# Generated from protocol/schemas/UpdateFeaturesRequest.json by codegen; do not edit.
"""UpdateFeaturesRequest: request, api key 57, versions 0-2."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
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
    "FeatureUpdateKey",
    "UpdateFeaturesRequest",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>h?')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>hb')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>?')
_S3u = _S3.unpack_from
_S3p = _S3.pack
_S4 = Struct('>hB')
_S4u = _S4.unpack_from
_S4p = _S4.pack
_S5 = Struct('>h')
_S5u = _S5.unpack_from
_S5p = _S5.pack
_S6 = Struct('>b')
_S6u = _S6.unpack_from
_S6p = _S6.pack
_S7 = Struct('>B')
_S7u = _S7.unpack_from
_S7p = _S7.pack


@dataclass(slots=True)
class FeatureUpdateKey:
    """Changes to the finalized features."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'feature': (0, 2), 'max_version_level': (0, 2), 'allow_downgrade': (0, 0), 'upgrade_type': (1, 2)}

    feature: str = ''
    """Name of the feature to change."""

    max_version_level: int = 0
    """New finalized level; below 1 removes the feature (disables it)."""

    allow_downgrade: bool = False
    """Version 0 only (later versions use UpgradeType): whether the level may go down or the feature be removed."""

    upgrade_type: int = 1
    """Kind of change allowed: 1 upgrade only, 2 safe (lossless) downgrade, 3 unsafe (lossy) downgrade."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class UpdateFeaturesRequest(Message):
    """UpdateFeaturesRequest, api key 57."""

    API_KEY: ClassVar[int] = 57
    NAME: ClassVar[str] = 'UpdateFeaturesRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'timeout_ms': (0, 2), 'feature_updates': (0, 2), 'validate_only': (1, 2)}

    timeout_ms: int = 60000
    """How long, in milliseconds, the request may take."""

    feature_updates: list[FeatureUpdateKey] = field(default_factory=list)
    """Changes to the finalized features."""

    validate_only: bool = False
    """Check the changes without applying them."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_FeatureUpdateKey_v0(buf, pos):
    f_feature, pos = read_compact_string(buf, pos)
    f_max_version_level, f_allow_downgrade = _S1u(buf, pos)
    pos += 3
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return FeatureUpdateKey(f_feature, f_max_version_level, f_allow_downgrade, 1, unknown), pos


def _d_UpdateFeaturesRequest_v0(buf, pos):
    f_timeout_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_feature_updates = []
    append = f_feature_updates.append
    for _ in range(n):
        item, pos = _d_FeatureUpdateKey_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return UpdateFeaturesRequest(f_timeout_ms, f_feature_updates, False, unknown), pos


def _d_FeatureUpdateKey_v1(buf, pos):
    f_feature, pos = read_compact_string(buf, pos)
    f_max_version_level, f_upgrade_type = _S2u(buf, pos)
    pos += 3
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return FeatureUpdateKey(f_feature, f_max_version_level, False, f_upgrade_type, unknown), pos


def _d_UpdateFeaturesRequest_v1(buf, pos):
    f_timeout_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_feature_updates = []
    append = f_feature_updates.append
    for _ in range(n):
        item, pos = _d_FeatureUpdateKey_v1(buf, pos)
        append(item)
    f_validate_only = _S3u(buf, pos)[0]
    pos += 1
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return UpdateFeaturesRequest(f_timeout_ms, f_feature_updates, f_validate_only, unknown), pos


def _e_FeatureUpdateKey_v0(o, out):
    write_compact_string(out, o.feature)
    out += _S4p(o.max_version_level, o.allow_downgrade)
    if o.upgrade_type != 1:
        raise UnsupportedFieldError('UpdateFeaturesRequest v0 cannot carry a non-default UpgradeType')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_UpdateFeaturesRequest_v0(o, out):
    out += _S0p(o.timeout_ms)
    value = o.feature_updates
    write_compact_array_len(out, value)
    for item in value:
        _e_FeatureUpdateKey_v0(item, out)
    if o.validate_only:
        raise UnsupportedFieldError('UpdateFeaturesRequest v0 cannot carry a non-default ValidateOnly')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FeatureUpdateKey_v1(o, out):
    write_compact_string(out, o.feature)
    out += _S5p(o.max_version_level)
    if o.allow_downgrade:
        raise UnsupportedFieldError('UpdateFeaturesRequest v1 cannot carry a non-default AllowDowngrade')
    out += _S6p(o.upgrade_type)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_UpdateFeaturesRequest_v1(o, out):
    out += _S0p(o.timeout_ms)
    value = o.feature_updates
    write_compact_array_len(out, value)
    for item in value:
        _e_FeatureUpdateKey_v1(item, out)
    out += _S7p(o.validate_only)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FeatureUpdateKey_v2(o, out):
    write_compact_string(out, o.feature)
    out += _S5p(o.max_version_level)
    if o.allow_downgrade:
        raise UnsupportedFieldError('UpdateFeaturesRequest v2 cannot carry a non-default AllowDowngrade')
    out += _S6p(o.upgrade_type)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_UpdateFeaturesRequest_v2(o, out):
    out += _S0p(o.timeout_ms)
    value = o.feature_updates
    write_compact_array_len(out, value)
    for item in value:
        _e_FeatureUpdateKey_v2(item, out)
    out += _S7p(o.validate_only)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


UpdateFeaturesRequest._DECODERS = {
    0: _d_UpdateFeaturesRequest_v0,
    1: _d_UpdateFeaturesRequest_v1,
    2: _d_UpdateFeaturesRequest_v1,
}
UpdateFeaturesRequest._ENCODERS = {
    0: _e_UpdateFeaturesRequest_v0,
    1: _e_UpdateFeaturesRequest_v1,
    2: _e_UpdateFeaturesRequest_v2,
}
