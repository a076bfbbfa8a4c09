# Generated from protocol/schemas/ResponseHeader.json by codegen; do not edit.
"""ResponseHeader: header, versions 0-1."""

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
    "ResponseHeader",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class ResponseHeader(Message):
    """ResponseHeader, api key None."""

    API_KEY: ClassVar[int] = -1
    NAME: ClassVar[str] = 'ResponseHeader'
    TYPE: ClassVar[str] = 'header'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 1
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'correlation_id': (0, 1)}

    correlation_id: int = 0
    """Correlation ID of this response."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ResponseHeader_v0(buf, pos):
    f_correlation_id = _S0u(buf, pos)[0]
    pos += 4
    return ResponseHeader(f_correlation_id), pos


def _d_ResponseHeader_v1(buf, pos):
    f_correlation_id = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ResponseHeader(f_correlation_id, unknown), pos


def _e_ResponseHeader_v0(o, out):
    out += _S0p(o.correlation_id)


def _e_ResponseHeader_v1(o, out):
    out += _S0p(o.correlation_id)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ResponseHeader._DECODERS = {
    0: _d_ResponseHeader_v0,
    1: _d_ResponseHeader_v1,
}
ResponseHeader._ENCODERS = {
    0: _e_ResponseHeader_v0,
    1: _e_ResponseHeader_v1,
}
