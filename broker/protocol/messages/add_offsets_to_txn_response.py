# Generated from protocol/schemas/AddOffsetsToTxnResponse.json by codegen; do not edit.
"""AddOffsetsToTxnResponse: response, api key 25, versions 0-4."""

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
    "AddOffsetsToTxnResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class AddOffsetsToTxnResponse(Message):
    """AddOffsetsToTxnResponse, api key 25."""

    API_KEY: ClassVar[int] = 25
    NAME: ClassVar[str] = 'AddOffsetsToTxnResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 3
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 4), 'error_code': (0, 4)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code for the response; 0 means success."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_AddOffsetsToTxnResponse_v0(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    return AddOffsetsToTxnResponse(f_throttle_time_ms, f_error_code), pos


def _d_AddOffsetsToTxnResponse_v3(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AddOffsetsToTxnResponse(f_throttle_time_ms, f_error_code, unknown), pos


def _e_AddOffsetsToTxnResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)


def _e_AddOffsetsToTxnResponse_v3(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


AddOffsetsToTxnResponse._DECODERS = {
    0: _d_AddOffsetsToTxnResponse_v0,
    1: _d_AddOffsetsToTxnResponse_v0,
    2: _d_AddOffsetsToTxnResponse_v0,
    3: _d_AddOffsetsToTxnResponse_v3,
    4: _d_AddOffsetsToTxnResponse_v3,
}
AddOffsetsToTxnResponse._ENCODERS = {
    0: _e_AddOffsetsToTxnResponse_v0,
    1: _e_AddOffsetsToTxnResponse_v0,
    2: _e_AddOffsetsToTxnResponse_v0,
    3: _e_AddOffsetsToTxnResponse_v3,
    4: _e_AddOffsetsToTxnResponse_v3,
}
