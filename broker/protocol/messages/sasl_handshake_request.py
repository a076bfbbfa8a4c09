# Generated from protocol/schemas/SaslHandshakeRequest.json by codegen; do not edit.
"""SaslHandshakeRequest: request, api key 17, versions 0-1."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_string,
    write_string,
)

__all__ = [
    "SaslHandshakeRequest",
]


@dataclass(slots=True)
class SaslHandshakeRequest(Message):
    """SaslHandshakeRequest, api key 17."""

    API_KEY: ClassVar[int] = 17
    NAME: ClassVar[str] = 'SaslHandshakeRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = None
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'mechanism': (0, 1)}

    mechanism: str = ''
    """SASL mechanism selected by the client."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_SaslHandshakeRequest_v0(buf, pos):
    f_mechanism, pos = read_string(buf, pos)
    return SaslHandshakeRequest(f_mechanism), pos


def _e_SaslHandshakeRequest_v0(o, out):
    write_string(out, o.mechanism)


SaslHandshakeRequest._DECODERS = {
    0: _d_SaslHandshakeRequest_v0,
    1: _d_SaslHandshakeRequest_v0,
}
SaslHandshakeRequest._ENCODERS = {
    0: _e_SaslHandshakeRequest_v0,
    1: _e_SaslHandshakeRequest_v0,
}
