# Generated from protocol/schemas/SaslHandshakeResponse.json by codegen; do not edit.
"""SaslHandshakeResponse: response, api key 17, versions 0-1."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_array_len,
    read_string,
    write_array_len,
    write_string,
)

__all__ = [
    "SaslHandshakeResponse",
]
_S0 = Struct('>h')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class SaslHandshakeResponse(Message):
    """SaslHandshakeResponse, api key 17."""

    API_KEY: ClassVar[int] = 17
    NAME: ClassVar[str] = 'SaslHandshakeResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = None
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 1), 'mechanisms': (0, 1)}

    error_code: int = 0
    """Error code; 0 means success."""

    mechanisms: list[str] = field(default_factory=list)
    """SASL mechanisms that the server has enabled."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_SaslHandshakeResponse_v0(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    n, pos = read_array_len(buf, pos)
    f_mechanisms = []
    append = f_mechanisms.append
    for _ in range(n):
        item, pos = read_string(buf, pos)
        append(item)
    return SaslHandshakeResponse(f_error_code, f_mechanisms), pos


def _e_SaslHandshakeResponse_v0(o, out):
    out += _S0p(o.error_code)
    value = o.mechanisms
    write_array_len(out, value)
    for item in value:
        write_string(out, item)


SaslHandshakeResponse._DECODERS = {
    0: _d_SaslHandshakeResponse_v0,
    1: _d_SaslHandshakeResponse_v0,
}
SaslHandshakeResponse._ENCODERS = {
    0: _e_SaslHandshakeResponse_v0,
    1: _e_SaslHandshakeResponse_v0,
}
