# Generated from protocol/schemas/DescribeTopicPartitionsRequest.json by codegen; do not edit.
"""DescribeTopicPartitionsRequest: request, api key 75, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_array_len,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "TopicRequest",
    "Cursor",
    "DescribeTopicPartitionsRequest",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class TopicRequest:
    """Topics whose details should be fetched."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 0)}

    name: str = ''
    """Name of the topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class Cursor:
    """Topic and partition index from which fetching of details begins."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_name': (0, 0), 'partition_index': (0, 0)}

    topic_name: str = ''
    """Name of the topic where processing starts."""

    partition_index: int = 0
    """Index of the partition where processing starts."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeTopicPartitionsRequest(Message):
    """DescribeTopicPartitionsRequest, api key 75."""

    API_KEY: ClassVar[int] = 75
    NAME: ClassVar[str] = 'DescribeTopicPartitionsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topics': (0, 0), 'response_partition_limit': (0, 0), 'cursor': (0, 0)}

    topics: list[TopicRequest] = field(default_factory=list)
    """Topics whose details should be fetched."""

    response_partition_limit: int = 2000
    """Upper bound on how many partitions the response may contain."""

    cursor: Cursor | None = None
    """Topic and partition index from which fetching of details begins."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_TopicRequest_v0(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopicRequest(f_name, unknown), pos


def _d_Cursor_v0(buf, pos):
    f_topic_name, pos = read_compact_string(buf, pos)
    f_partition_index = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return Cursor(f_topic_name, f_partition_index, unknown), pos


def _d_DescribeTopicPartitionsRequest_v0(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_TopicRequest_v0(buf, pos)
        append(item)
    f_response_partition_limit = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos] == 255:
        f_cursor = None
        pos += 1
    else:
        f_cursor, pos = _d_Cursor_v0(buf, pos + 1)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeTopicPartitionsRequest(f_topics, f_response_partition_limit, f_cursor, unknown), pos


def _e_TopicRequest_v0(o, out):
    write_compact_string(out, o.name)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_Cursor_v0(o, out):
    write_compact_string(out, o.topic_name)
    out += _S0p(o.partition_index)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeTopicPartitionsRequest_v0(o, out):
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicRequest_v0(item, out)
    out += _S0p(o.response_partition_limit)
    if o.cursor is None:
        out.append(255)
    else:
        out.append(1)
        _e_Cursor_v0(o.cursor, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeTopicPartitionsRequest._DECODERS = {
    0: _d_DescribeTopicPartitionsRequest_v0,
}
DescribeTopicPartitionsRequest._ENCODERS = {
    0: _e_DescribeTopicPartitionsRequest_v0,
}
