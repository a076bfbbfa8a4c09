# Generated from protocol/schemas/DeleteTopicsRequest.json by codegen; do not edit.
"""DeleteTopicsRequest: request, api key 20, versions 1-6."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
import uuid

from broker.protocol.errors import UnsupportedFieldError
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
    "DeleteTopicState",
    "DeleteTopicsRequest",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class DeleteTopicState:
    """Topic to act on, given either by name or by topic ID."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (6, 6), 'topic_id': (6, 6)}

    name: str | None = None
    """Name of the topic."""

    topic_id: uuid.UUID = UUID_ZERO
    """Unique identifier of the topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DeleteTopicsRequest(Message):
    """DeleteTopicsRequest, api key 20."""

    API_KEY: ClassVar[int] = 20
    NAME: ClassVar[str] = 'DeleteTopicsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 6
    FLEXIBLE_MIN: ClassVar[int | None] = 4
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topics': (6, 6), 'topic_names': (0, 5), 'timeout_ms': (0, 6)}

    topics: list[DeleteTopicState] = field(default_factory=list)
    """Topic to act on, given either by name or by topic ID."""

    topic_names: list[str] = field(default_factory=list)
    """Names of the topics that should be deleted."""

    timeout_ms: int = 0
    """How long, in milliseconds, to wait for the topic deletions to finish."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DeleteTopicsRequest_v1(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_topic_names = []
    append = f_topic_names.append
    for _ in range(n):
        item, pos = read_string(buf, pos)
        append(item)
    f_timeout_ms = _S0u(buf, pos)[0]
    pos += 4
    return DeleteTopicsRequest([], f_topic_names, f_timeout_ms), pos


def _d_DeleteTopicsRequest_v4(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_topic_names = []
    append = f_topic_names.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    f_timeout_ms = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteTopicsRequest([], f_topic_names, f_timeout_ms, unknown), pos


def _d_DeleteTopicState_v6(buf, pos):
    f_name, pos = read_compact_nullable_string(buf, pos)
    f_topic_id, pos = read_uuid(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteTopicState(f_name, f_topic_id, unknown), pos


def _d_DeleteTopicsRequest_v6(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_DeleteTopicState_v6(buf, pos)
        append(item)
    f_timeout_ms = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteTopicsRequest(f_topics, [], f_timeout_ms, unknown), pos


def _e_DeleteTopicsRequest_v1(o, out):
    if o.topics:
        raise UnsupportedFieldError('DeleteTopicsRequest v1 cannot carry a non-default Topics')
    value = o.topic_names
    write_array_len(out, value)
    for item in value:
        write_string(out, item)
    out += _S0p(o.timeout_ms)


def _e_DeleteTopicsRequest_v2(o, out):
    if o.topics:
        raise UnsupportedFieldError('DeleteTopicsRequest v2 cannot carry a non-default Topics')
    value = o.topic_names
    write_array_len(out, value)
    for item in value:
        write_string(out, item)
    out += _S0p(o.timeout_ms)


def _e_DeleteTopicsRequest_v3(o, out):
    if o.topics:
        raise UnsupportedFieldError('DeleteTopicsRequest v3 cannot carry a non-default Topics')
    value = o.topic_names
    write_array_len(out, value)
    for item in value:
        write_string(out, item)
    out += _S0p(o.timeout_ms)


def _e_DeleteTopicsRequest_v4(o, out):
    if o.topics:
        raise UnsupportedFieldError('DeleteTopicsRequest v4 cannot carry a non-default Topics')
    value = o.topic_names
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    out += _S0p(o.timeout_ms)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeleteTopicsRequest_v5(o, out):
    if o.topics:
        raise UnsupportedFieldError('DeleteTopicsRequest v5 cannot carry a non-default Topics')
    value = o.topic_names
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    out += _S0p(o.timeout_ms)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeleteTopicState_v6(o, out):
    write_compact_nullable_string(out, o.name)
    write_uuid(out, o.topic_id)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeleteTopicsRequest_v6(o, out):
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_DeleteTopicState_v6(item, out)
    out += _S0p(o.timeout_ms)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DeleteTopicsRequest._DECODERS = {
    1: _d_DeleteTopicsRequest_v1,
    2: _d_DeleteTopicsRequest_v1,
    3: _d_DeleteTopicsRequest_v1,
    4: _d_DeleteTopicsRequest_v4,
    5: _d_DeleteTopicsRequest_v4,
    6: _d_DeleteTopicsRequest_v6,
}
DeleteTopicsRequest._ENCODERS = {
    1: _e_DeleteTopicsRequest_v1,
    2: _e_DeleteTopicsRequest_v2,
    3: _e_DeleteTopicsRequest_v3,
    4: _e_DeleteTopicsRequest_v4,
    5: _e_DeleteTopicsRequest_v5,
    6: _e_DeleteTopicsRequest_v6,
}
