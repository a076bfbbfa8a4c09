# Generated from protocol/schemas/SyncGroupResponse.json by codegen; do not edit.
"""SyncGroupResponse: response, api key 14, versions 0-5."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_bytes,
    read_compact_bytes,
    read_compact_nullable_string,
    read_unknown_tags,
    write_bytes,
    write_compact_bytes,
    write_compact_nullable_string,
    write_tagged_fields,
)

__all__ = [
    "SyncGroupResponse",
]
_S0 = Struct('>h')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>ih')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class SyncGroupResponse(Message):
    """SyncGroupResponse, api key 14."""

    API_KEY: ClassVar[int] = 14
    NAME: ClassVar[str] = 'SyncGroupResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 4
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (1, 5), 'error_code': (0, 5), 'protocol_type': (5, 5), 'protocol_name': (5, 5), 'assignment': (0, 5)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code; 0 means success."""

    protocol_type: str | None = None
    """Protocol type used by the group."""

    protocol_name: str | None = None
    """Name of the protocol used by the group."""

    assignment: bytes = b''
    """Assignment given to the member."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_SyncGroupResponse_v0(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    f_assignment, pos = read_bytes(buf, pos)
    return SyncGroupResponse(0, f_error_code, None, None, f_assignment), pos


def _d_SyncGroupResponse_v1(buf, pos):
    f_throttle_time_ms, f_error_code = _S1u(buf, pos)
    pos += 6
    f_assignment, pos = read_bytes(buf, pos)
    return SyncGroupResponse(f_throttle_time_ms, f_error_code, None, None, f_assignment), pos


def _d_SyncGroupResponse_v4(buf, pos):
    f_throttle_time_ms, f_error_code = _S1u(buf, pos)
    pos += 6
    f_assignment, pos = read_compact_bytes(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return SyncGroupResponse(f_throttle_time_ms, f_error_code, None, None, f_assignment, unknown), pos


def _d_SyncGroupResponse_v5(buf, pos):
    f_throttle_time_ms, f_error_code = _S1u(buf, pos)
    pos += 6
    f_protocol_type, pos = read_compact_nullable_string(buf, pos)
    f_protocol_name, pos = read_compact_nullable_string(buf, pos)
    f_assignment, pos = read_compact_bytes(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return SyncGroupResponse(f_throttle_time_ms, f_error_code, f_protocol_type, f_protocol_name, f_assignment, unknown), pos


def _e_SyncGroupResponse_v0(o, out):
    out += _S0p(o.error_code)
    write_bytes(out, o.assignment)


def _e_SyncGroupResponse_v1(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code)
    write_bytes(out, o.assignment)


def _e_SyncGroupResponse_v4(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code)
    write_compact_bytes(out, o.assignment)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_SyncGroupResponse_v5(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code)
    write_compact_nullable_string(out, o.protocol_type)
    write_compact_nullable_string(out, o.protocol_name)
    write_compact_bytes(out, o.assignment)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


SyncGroupResponse._DECODERS = {
    0: _d_SyncGroupResponse_v0,
    1: _d_SyncGroupResponse_v1,
    2: _d_SyncGroupResponse_v1,
    3: _d_SyncGroupResponse_v1,
    4: _d_SyncGroupResponse_v4,
    5: _d_SyncGroupResponse_v5,
}
SyncGroupResponse._ENCODERS = {
    0: _e_SyncGroupResponse_v0,
    1: _e_SyncGroupResponse_v1,
    2: _e_SyncGroupResponse_v1,
    3: _e_SyncGroupResponse_v1,
    4: _e_SyncGroupResponse_v4,
    5: _e_SyncGroupResponse_v5,
}
