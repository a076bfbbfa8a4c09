# Generated from protocol/schemas/RequestHeader.json by codegen; do not edit.
"""RequestHeader: header, versions 1-2."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_nullable_string,
    read_unknown_tags,
    write_nullable_string,
    write_tagged_fields,
)

__all__ = [
    "RequestHeader",
]
_S0 = Struct('>hhi')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class RequestHeader(Message):
    """RequestHeader, api key None."""

    API_KEY: ClassVar[int] = -1
    NAME: ClassVar[str] = 'RequestHeader'
    TYPE: ClassVar[str] = 'header'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'request_api_key': (0, 2), 'request_api_version': (0, 2), 'correlation_id': (0, 2), 'client_id': (1, 2)}

    request_api_key: int = 0
    """API key identifying this request."""

    request_api_version: int = 0
    """API version used by this request."""

    correlation_id: int = 0
    """Correlation ID of this request."""

    client_id: str | None = ''
    """Identifier string of the client."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_RequestHeader_v1(buf, pos):
    f_request_api_key, f_request_api_version, f_correlation_id = _S0u(buf, pos)
    pos += 8
    f_client_id, pos = read_nullable_string(buf, pos)
    return RequestHeader(f_request_api_key, f_request_api_version, f_correlation_id, f_client_id), pos


def _d_RequestHeader_v2(buf, pos):
    f_request_api_key, f_request_api_version, f_correlation_id = _S0u(buf, pos)
    pos += 8
    f_client_id, pos = read_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return RequestHeader(f_request_api_key, f_request_api_version, f_correlation_id, f_client_id, unknown), pos


def _e_RequestHeader_v1(o, out):
    out += _S0p(o.request_api_key, o.request_api_version, o.correlation_id)
    write_nullable_string(out, o.client_id)


def _e_RequestHeader_v2(o, out):
    out += _S0p(o.request_api_key, o.request_api_version, o.correlation_id)
    write_nullable_string(out, o.client_id)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


RequestHeader._DECODERS = {
    1: _d_RequestHeader_v1,
    2: _d_RequestHeader_v2,
}
RequestHeader._ENCODERS = {
    1: _e_RequestHeader_v1,
    2: _e_RequestHeader_v2,
}
