# Generated from protocol/schemas/SaslAuthenticateResponse.json by codegen; do not edit.
"""SaslAuthenticateResponse: response, api key 36, versions 0-2."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_bytes,
    read_compact_bytes,
    read_compact_nullable_string,
    read_nullable_string,
    read_unknown_tags,
    write_bytes,
    write_compact_bytes,
    write_compact_nullable_string,
    write_nullable_string,
    write_tagged_fields,
)

__all__ = [
    "SaslAuthenticateResponse",
]
_S0 = Struct('>h')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>q')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class SaslAuthenticateResponse(Message):
    """SaslAuthenticateResponse, api key 36."""

    API_KEY: ClassVar[int] = 36
    NAME: ClassVar[str] = 'SaslAuthenticateResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 2), 'error_message': (0, 2), 'auth_bytes': (0, 2), 'session_lifetime_ms': (1, 2)}

    error_code: int = 0
    """Error code; 0 means success."""

    error_message: str | None = ''
    """Error message; null when no error occurred."""

    auth_bytes: bytes = b''
    """SASL authentication bytes sent by the server, in the format defined by the SASL mechanism."""

    session_lifetime_ms: int = 0
    """Milliseconds after which the only allowed action on this connection is re-authenticating to start a new session."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_SaslAuthenticateResponse_v0(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    f_auth_bytes, pos = read_bytes(buf, pos)
    return SaslAuthenticateResponse(f_error_code, f_error_message, f_auth_bytes, 0), pos


def _d_SaslAuthenticateResponse_v1(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    f_auth_bytes, pos = read_bytes(buf, pos)
    f_session_lifetime_ms = _S1u(buf, pos)[0]
    pos += 8
    return SaslAuthenticateResponse(f_error_code, f_error_message, f_auth_bytes, f_session_lifetime_ms), pos


def _d_SaslAuthenticateResponse_v2(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_auth_bytes, pos = read_compact_bytes(buf, pos)
    f_session_lifetime_ms = _S1u(buf, pos)[0]
    pos += 8
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return SaslAuthenticateResponse(f_error_code, f_error_message, f_auth_bytes, f_session_lifetime_ms, unknown), pos


def _e_SaslAuthenticateResponse_v0(o, out):
    out += _S0p(o.error_code)
    write_nullable_string(out, o.error_message)
    write_bytes(out, o.auth_bytes)


def _e_SaslAuthenticateResponse_v1(o, out):
    out += _S0p(o.error_code)
    write_nullable_string(out, o.error_message)
    write_bytes(out, o.auth_bytes)
    out += _S1p(o.session_lifetime_ms)


def _e_SaslAuthenticateResponse_v2(o, out):
    out += _S0p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    write_compact_bytes(out, o.auth_bytes)
    out += _S1p(o.session_lifetime_ms)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


SaslAuthenticateResponse._DECODERS = {
    0: _d_SaslAuthenticateResponse_v0,
    1: _d_SaslAuthenticateResponse_v1,
    2: _d_SaslAuthenticateResponse_v2,
}
SaslAuthenticateResponse._ENCODERS = {
    0: _e_SaslAuthenticateResponse_v0,
    1: _e_SaslAuthenticateResponse_v1,
    2: _e_SaslAuthenticateResponse_v2,
}
