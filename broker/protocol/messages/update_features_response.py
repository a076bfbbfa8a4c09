# Generated from protocol/schemas/UpdateFeaturesResponse.json by codegen; do not edit.
"""UpdateFeaturesResponse: response, api key 57, versions 0-2."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "UpdatableFeatureResult",
    "UpdateFeaturesResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>h')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class UpdatableFeatureResult:
    """One entry per feature named in the request (versions 0-1)."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'feature': (0, 2), 'error_code': (0, 2), 'error_message': (0, 2)}

    feature: str = ''
    """Name of the feature."""

    error_code: int = 0
    """Error of this feature's change; 0 means success."""

    error_message: str | None = ''
    """Message for this feature's error, or null."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class UpdateFeaturesResponse(Message):
    """UpdateFeaturesResponse, api key 57."""

    API_KEY: ClassVar[int] = 57
    NAME: ClassVar[str] = 'UpdateFeaturesResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 2), 'error_code': (0, 2), 'error_message': (0, 2), 'results': (0, 1)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error for the whole request; 0 means success."""

    error_message: str | None = ''
    """Message for the error of the whole request, or null."""

    results: list[UpdatableFeatureResult] = field(default_factory=list)
    """One entry per feature named in the request (versions 0-1)."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_UpdatableFeatureResult_v0(buf, pos):
    f_feature, pos = read_compact_string(buf, pos)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return UpdatableFeatureResult(f_feature, f_error_code, f_error_message, unknown), pos


def _d_UpdateFeaturesResponse_v0(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_UpdatableFeatureResult_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return UpdateFeaturesResponse(f_throttle_time_ms, f_error_code, f_error_message, f_results, unknown), pos


def _d_UpdateFeaturesResponse_v2(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return UpdateFeaturesResponse(f_throttle_time_ms, f_error_code, f_error_message, [], unknown), pos


def _e_UpdatableFeatureResult_v0(o, out):
    write_compact_string(out, o.feature)
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_UpdateFeaturesResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    value = o.results
    write_compact_array_len(out, value)
    for item in value:
        _e_UpdatableFeatureResult_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_UpdateFeaturesResponse_v2(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


UpdateFeaturesResponse._DECODERS = {
    0: _d_UpdateFeaturesResponse_v0,
    1: _d_UpdateFeaturesResponse_v0,
    2: _d_UpdateFeaturesResponse_v2,
}
UpdateFeaturesResponse._ENCODERS = {
    0: _e_UpdateFeaturesResponse_v0,
    1: _e_UpdateFeaturesResponse_v0,
    2: _e_UpdateFeaturesResponse_v2,
}
