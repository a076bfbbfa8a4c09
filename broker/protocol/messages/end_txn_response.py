# Generated from protocol/schemas/EndTxnResponse.json by codegen; do not edit.
"""EndTxnResponse: response, api key 26, versions 0-5."""

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
    "EndTxnResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>ihqh')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class EndTxnResponse(Message):
    """EndTxnResponse, api key 26."""

    API_KEY: ClassVar[int] = 26
    NAME: ClassVar[str] = 'EndTxnResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 3
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 5), 'error_code': (0, 5), 'producer_id': (5, 5), 'producer_epoch': (5, 5)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code; 0 means success."""

    producer_id: int = -1
    """ID of the producer."""

    producer_epoch: int = -1
    """Epoch currently held by the producer."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_EndTxnResponse_v0(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    return EndTxnResponse(f_throttle_time_ms, f_error_code, -1, -1), pos


def _d_EndTxnResponse_v3(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return EndTxnResponse(f_throttle_time_ms, f_error_code, -1, -1, unknown), pos


def _d_EndTxnResponse_v5(buf, pos):
    f_throttle_time_ms, f_error_code, f_producer_id, f_producer_epoch = _S1u(buf, pos)
    pos += 16
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return EndTxnResponse(f_throttle_time_ms, f_error_code, f_producer_id, f_producer_epoch, unknown), pos


def _e_EndTxnResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)


def _e_EndTxnResponse_v3(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_EndTxnResponse_v5(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code, o.producer_id, o.producer_epoch)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


EndTxnResponse._DECODERS = {
    0: _d_EndTxnResponse_v0,
    1: _d_EndTxnResponse_v0,
    2: _d_EndTxnResponse_v0,
    3: _d_EndTxnResponse_v3,
    4: _d_EndTxnResponse_v3,
    5: _d_EndTxnResponse_v5,
}
EndTxnResponse._ENCODERS = {
    0: _e_EndTxnResponse_v0,
    1: _e_EndTxnResponse_v0,
    2: _e_EndTxnResponse_v0,
    3: _e_EndTxnResponse_v3,
    4: _e_EndTxnResponse_v3,
    5: _e_EndTxnResponse_v5,
}
