# Generated from protocol/schemas/PushTelemetryResponse.json by codegen; do not edit.
"""PushTelemetryResponse: response, api key 72, versions 0-0."""

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
    "PushTelemetryResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class PushTelemetryResponse(Message):
    """PushTelemetryResponse, api key 72."""

    API_KEY: ClassVar[int] = 72
    NAME: ClassVar[str] = 'PushTelemetryResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 0), 'error_code': (0, 0)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code; 0 means success."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_PushTelemetryResponse_v0(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return PushTelemetryResponse(f_throttle_time_ms, f_error_code, unknown), pos


def _e_PushTelemetryResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


PushTelemetryResponse._DECODERS = {
    0: _d_PushTelemetryResponse_v0,
}
PushTelemetryResponse._ENCODERS = {
    0: _e_PushTelemetryResponse_v0,
}
