# Generated from protocol/schemas/ExpireDelegationTokenResponse.json by codegen; do not edit.
"""ExpireDelegationTokenResponse: response, api key 40, versions 1-2."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_unknown_tags,
    write_tagged_fields,
)

__all__ = [
    "ExpireDelegationTokenResponse",
]
_S0 = Struct('>hqi')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class ExpireDelegationTokenResponse(Message):
    """ExpireDelegationTokenResponse, api key 40."""

    API_KEY: ClassVar[int] = 40
    NAME: ClassVar[str] = 'ExpireDelegationTokenResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 2), 'expiry_timestamp_ms': (0, 2), 'throttle_time_ms': (0, 2)}

    error_code: int = 0
    """Error code; 0 means success."""

    expiry_timestamp_ms: int = 0
    """The token's new expiry time (ms since the epoch)."""

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ExpireDelegationTokenResponse_v1(buf, pos):
    f_error_code, f_expiry_timestamp_ms, f_throttle_time_ms = _S0u(buf, pos)
    pos += 14
    return ExpireDelegationTokenResponse(f_error_code, f_expiry_timestamp_ms, f_throttle_time_ms), pos


def _d_ExpireDelegationTokenResponse_v2(buf, pos):
    f_error_code, f_expiry_timestamp_ms, f_throttle_time_ms = _S0u(buf, pos)
    pos += 14
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ExpireDelegationTokenResponse(f_error_code, f_expiry_timestamp_ms, f_throttle_time_ms, unknown), pos


def _e_ExpireDelegationTokenResponse_v1(o, out):
    out += _S0p(o.error_code, o.expiry_timestamp_ms, o.throttle_time_ms)


def _e_ExpireDelegationTokenResponse_v2(o, out):
    out += _S0p(o.error_code, o.expiry_timestamp_ms, o.throttle_time_ms)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ExpireDelegationTokenResponse._DECODERS = {
    1: _d_ExpireDelegationTokenResponse_v1,
    2: _d_ExpireDelegationTokenResponse_v2,
}
ExpireDelegationTokenResponse._ENCODERS = {
    1: _e_ExpireDelegationTokenResponse_v1,
    2: _e_ExpireDelegationTokenResponse_v2,
}
