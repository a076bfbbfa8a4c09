# Generated from protocol/schemas/HeartbeatResponse.json by codegen; do not edit.
"""HeartbeatResponse: response, api key 12, versions 0-4."""

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
    "HeartbeatResponse",
]
_S0 = Struct('>h')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>ih')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class HeartbeatResponse(Message):
    """HeartbeatResponse, api key 12."""

    API_KEY: ClassVar[int] = 12
    NAME: ClassVar[str] = 'HeartbeatResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 4
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (1, 4), 'error_code': (0, 4)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code; 0 means success."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_HeartbeatResponse_v0(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    return HeartbeatResponse(0, f_error_code), pos


def _d_HeartbeatResponse_v1(buf, pos):
    f_throttle_time_ms, f_error_code = _S1u(buf, pos)
    pos += 6
    return HeartbeatResponse(f_throttle_time_ms, f_error_code), pos


def _d_HeartbeatResponse_v4(buf, pos):
    f_throttle_time_ms, f_error_code = _S1u(buf, pos)
    pos += 6
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return HeartbeatResponse(f_throttle_time_ms, f_error_code, unknown), pos


def _e_HeartbeatResponse_v0(o, out):
    out += _S0p(o.error_code)


def _e_HeartbeatResponse_v1(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code)


def _e_HeartbeatResponse_v4(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


HeartbeatResponse._DECODERS = {
    0: _d_HeartbeatResponse_v0,
    1: _d_HeartbeatResponse_v1,
    2: _d_HeartbeatResponse_v1,
    3: _d_HeartbeatResponse_v1,
    4: _d_HeartbeatResponse_v4,
}
HeartbeatResponse._ENCODERS = {
    0: _e_HeartbeatResponse_v0,
    1: _e_HeartbeatResponse_v1,
    2: _e_HeartbeatResponse_v1,
    3: _e_HeartbeatResponse_v1,
    4: _e_HeartbeatResponse_v4,
}
