# Generated from protocol/schemas/SaslAuthenticateRequest.json by codegen; do not edit.
"""SaslAuthenticateRequest: request, api key 36, versions 0-2."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_bytes,
    read_compact_bytes,
    read_unknown_tags,
    write_bytes,
    write_compact_bytes,
    write_tagged_fields,
)

__all__ = [
    "SaslAuthenticateRequest",
]


@dataclass(slots=True)
class SaslAuthenticateRequest(Message):
    """SaslAuthenticateRequest, api key 36."""

    API_KEY: ClassVar[int] = 36
    NAME: ClassVar[str] = 'SaslAuthenticateRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'auth_bytes': (0, 2)}

    auth_bytes: bytes = b''
    """SASL authentication bytes sent by the client, in the format defined by the SASL mechanism."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_SaslAuthenticateRequest_v0(buf, pos):
    f_auth_bytes, pos = read_bytes(buf, pos)
    return SaslAuthenticateRequest(f_auth_bytes), pos


def _d_SaslAuthenticateRequest_v2(buf, pos):
    f_auth_bytes, pos = read_compact_bytes(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return SaslAuthenticateRequest(f_auth_bytes, unknown), pos


def _e_SaslAuthenticateRequest_v0(o, out):
    write_bytes(out, o.auth_bytes)


def _e_SaslAuthenticateRequest_v2(o, out):
    write_compact_bytes(out, o.auth_bytes)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


SaslAuthenticateRequest._DECODERS = {
    0: _d_SaslAuthenticateRequest_v0,
    1: _d_SaslAuthenticateRequest_v0,
    2: _d_SaslAuthenticateRequest_v2,
}
SaslAuthenticateRequest._ENCODERS = {
    0: _e_SaslAuthenticateRequest_v0,
    1: _e_SaslAuthenticateRequest_v0,
    2: _e_SaslAuthenticateRequest_v2,
}
