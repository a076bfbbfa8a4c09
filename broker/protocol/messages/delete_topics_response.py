# Generated from protocol/schemas/DeleteTopicsResponse.json by codegen; do not edit.
"""DeleteTopicsResponse: response, api key 20, versions 1-6."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
import uuid

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    read_array_len,
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_string,
    read_unknown_tags,
    read_uuid,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "DeletableTopicResult",
    "DeleteTopicsResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>h')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class DeletableTopicResult:
    """Outcome for every topic whose deletion was attempted."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 6), 'topic_id': (6, 6), 'error_code': (0, 6), 'error_message': (5, 6)}

    name: str | None = ''
    """Name of the topic."""

    topic_id: uuid.UUID = UUID_ZERO
    """Unique identifier of the topic."""

    error_code: int = 0
    """Error from the deletion; 0 when it succeeded."""

    error_message: str | None = None
    """Error message; null when no error occurred."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DeleteTopicsResponse(Message):
    """DeleteTopicsResponse, api key 20."""

    API_KEY: ClassVar[int] = 20
    NAME: ClassVar[str] = 'DeleteTopicsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 6
    FLEXIBLE_MIN: ClassVar[int | None] = 4
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (1, 6), 'responses': (0, 6)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    responses: list[DeletableTopicResult] = field(default_factory=list)
    """Outcome for every topic whose deletion was attempted."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DeletableTopicResult_v1(buf, pos):
    f_name, pos = read_string(buf, pos)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    return DeletableTopicResult(f_name, UUID_ZERO, f_error_code, None), pos


def _d_DeleteTopicsResponse_v1(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_DeletableTopicResult_v1(buf, pos)
        append(item)
    return DeleteTopicsResponse(f_throttle_time_ms, f_responses), pos


def _d_DeletableTopicResult_v4(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeletableTopicResult(f_name, UUID_ZERO, f_error_code, None, unknown), pos


def _d_DeleteTopicsResponse_v4(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_DeletableTopicResult_v4(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteTopicsResponse(f_throttle_time_ms, f_responses, unknown), pos


def _d_DeletableTopicResult_v5(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeletableTopicResult(f_name, UUID_ZERO, f_error_code, f_error_message, unknown), pos


def _d_DeleteTopicsResponse_v5(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_DeletableTopicResult_v5(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteTopicsResponse(f_throttle_time_ms, f_responses, unknown), pos


def _d_DeletableTopicResult_v6(buf, pos):
    f_name, pos = read_compact_nullable_string(buf, pos)
    f_topic_id, pos = read_uuid(buf, pos)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeletableTopicResult(f_name, f_topic_id, f_error_code, f_error_message, unknown), pos


def _d_DeleteTopicsResponse_v6(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_DeletableTopicResult_v6(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteTopicsResponse(f_throttle_time_ms, f_responses, unknown), pos


def _e_DeletableTopicResult_v1(o, out):
    write_string(out, o.name)
    out += _S1p(o.error_code)


def _e_DeleteTopicsResponse_v1(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.responses
    write_array_len(out, value)
    for item in value:
        _e_DeletableTopicResult_v1(item, out)


def _e_DeletableTopicResult_v4(o, out):
    write_compact_string(out, o.name)
    out += _S1p(o.error_code)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeleteTopicsResponse_v4(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.responses
    write_compact_array_len(out, value)
    for item in value:
        _e_DeletableTopicResult_v4(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeletableTopicResult_v5(o, out):
    write_compact_string(out, o.name)
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeleteTopicsResponse_v5(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.responses
    write_compact_array_len(out, value)
    for item in value:
        _e_DeletableTopicResult_v5(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeletableTopicResult_v6(o, out):
    write_compact_nullable_string(out, o.name)
    write_uuid(out, o.topic_id)
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeleteTopicsResponse_v6(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.responses
    write_compact_array_len(out, value)
    for item in value:
        _e_DeletableTopicResult_v6(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DeleteTopicsResponse._DECODERS = {
    1: _d_DeleteTopicsResponse_v1,
    2: _d_DeleteTopicsResponse_v1,
    3: _d_DeleteTopicsResponse_v1,
    4: _d_DeleteTopicsResponse_v4,
    5: _d_DeleteTopicsResponse_v5,
    6: _d_DeleteTopicsResponse_v6,
}
DeleteTopicsResponse._ENCODERS = {
    1: _e_DeleteTopicsResponse_v1,
    2: _e_DeleteTopicsResponse_v1,
    3: _e_DeleteTopicsResponse_v1,
    4: _e_DeleteTopicsResponse_v4,
    5: _e_DeleteTopicsResponse_v5,
    6: _e_DeleteTopicsResponse_v6,
}
