# Generated from protocol/schemas/DeleteShareGroupOffsetsResponse.json by codegen; do not edit.
"""DeleteShareGroupOffsetsResponse: response, api key 92, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
import uuid

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "DeleteShareGroupOffsetsResponseTopic",
    "DeleteShareGroupOffsetsResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>h')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class DeleteShareGroupOffsetsResponseTopic:
    """Per-topic results."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_name': (0, 0), 'topic_id': (0, 0), 'error_code': (0, 0), 'error_message': (0, 0)}

    topic_name: str = ''
    """Name of the topic."""

    topic_id: uuid.UUID = UUID_ZERO
    """Unique identifier of the topic."""

    error_code: int = 0
    """Error code for the topic; 0 means success."""

    error_message: str | None = None
    """Error message for the topic; null when no error occurred."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DeleteShareGroupOffsetsResponse(Message):
    """DeleteShareGroupOffsetsResponse, api key 92."""

    API_KEY: ClassVar[int] = 92
    NAME: ClassVar[str] = 'DeleteShareGroupOffsetsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 0), 'error_code': (0, 0), 'error_message': (0, 0), 'responses': (0, 0)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code for the whole response; 0 means success."""

    error_message: str | None = None
    """Error message for the whole response; null when no error occurred."""

    responses: list[DeleteShareGroupOffsetsResponseTopic] = field(default_factory=list)
    """Per-topic results."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DeleteShareGroupOffsetsResponseTopic_v0(buf, pos):
    f_topic_name, pos = read_compact_string(buf, pos)
    f_topic_id, pos = read_uuid(buf, pos)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteShareGroupOffsetsResponseTopic(f_topic_name, f_topic_id, f_error_code, f_error_message, unknown), pos


def _d_DeleteShareGroupOffsetsResponse_v0(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_DeleteShareGroupOffsetsResponseTopic_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteShareGroupOffsetsResponse(f_throttle_time_ms, f_error_code, f_error_message, f_responses, unknown), pos


def _e_DeleteShareGroupOffsetsResponseTopic_v0(o, out):
    write_compact_string(out, o.topic_name)
    write_uuid(out, o.topic_id)
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeleteShareGroupOffsetsResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    value = o.responses
    write_compact_array_len(out, value)
    for item in value:
        _e_DeleteShareGroupOffsetsResponseTopic_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DeleteShareGroupOffsetsResponse._DECODERS = {
    0: _d_DeleteShareGroupOffsetsResponse_v0,
}
DeleteShareGroupOffsetsResponse._ENCODERS = {
    0: _e_DeleteShareGroupOffsetsResponse_v0,
}
