# Generated from protocol/schemas/DescribeProducersRequest.json by codegen; do not edit.
"""DescribeProducersRequest: request, api key 61, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
    read_compact_array_len,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "TopicRequest",
    "DescribeProducersRequest",
]


@dataclass(slots=True)
class TopicRequest:
    """Topics whose partitions' producers to describe."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 0), 'partition_indexes': (0, 0)}

    name: str = ''
    """Name of the topic."""

    partition_indexes: list[int] = field(default_factory=list)
    """Partitions of the topic to describe."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeProducersRequest(Message):
    """DescribeProducersRequest, api key 61."""

    API_KEY: ClassVar[int] = 61
    NAME: ClassVar[str] = 'DescribeProducersRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topics': (0, 0)}

    topics: list[TopicRequest] = field(default_factory=list)
    """Topics whose partitions' producers to describe."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_TopicRequest_v0(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partition_indexes = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopicRequest(f_name, f_partition_indexes, unknown), pos


def _d_DescribeProducersRequest_v0(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_TopicRequest_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeProducersRequest(f_topics, unknown), pos


def _e_TopicRequest_v0(o, out):
    write_compact_string(out, o.name)
    value = o.partition_indexes
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeProducersRequest_v0(o, out):
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicRequest_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeProducersRequest._DECODERS = {
    0: _d_DescribeProducersRequest_v0,
}
DescribeProducersRequest._ENCODERS = {
    0: _e_DescribeProducersRequest_v0,
}
