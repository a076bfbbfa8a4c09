# Generated from protocol/schemas/StreamsGroupTopologyDescriptionUpdateResponse.json by codegen; do not edit.
"""StreamsGroupTopologyDescriptionUpdateResponse: response, api key 93, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_nullable_string,
    read_unknown_tags,
    write_compact_nullable_string,
    write_tagged_fields,
)

__all__ = [
    "StreamsGroupTopologyDescriptionUpdateResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class StreamsGroupTopologyDescriptionUpdateResponse(Message):
    """StreamsGroupTopologyDescriptionUpdateResponse, api key 93."""

    API_KEY: ClassVar[int] = 93
    NAME: ClassVar[str] = 'StreamsGroupTopologyDescriptionUpdateResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 0), 'error_code': (0, 0), 'error_message': (0, 0)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code for the whole response; 0 means success."""

    error_message: str | None = None
    """Error message for the whole response; null when no error occurred."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_StreamsGroupTopologyDescriptionUpdateResponse_v0(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return StreamsGroupTopologyDescriptionUpdateResponse(f_throttle_time_ms, f_error_code, f_error_message, unknown), pos


def _e_StreamsGroupTopologyDescriptionUpdateResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


StreamsGroupTopologyDescriptionUpdateResponse._DECODERS = {
    0: _d_StreamsGroupTopologyDescriptionUpdateResponse_v0,
}
StreamsGroupTopologyDescriptionUpdateResponse._ENCODERS = {
    0: _e_StreamsGroupTopologyDescriptionUpdateResponse_v0,
}
