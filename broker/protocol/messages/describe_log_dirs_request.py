# Generated from protocol/schemas/DescribeLogDirsRequest.json by codegen; do not edit.
"""DescribeLogDirsRequest: request, api key 35, versions 1-5."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
    read_array_len,
    read_compact_array_len,
    read_compact_nullable_array_len,
    read_compact_string,
    read_nullable_array_len,
    read_string,
    read_unknown_tags,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_array_len,
    write_compact_string,
    write_nullable_array_len,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "DescribableLogDirTopic",
    "DescribeLogDirsRequest",
]


@dataclass(slots=True)
class DescribableLogDirTopic:
    """Topics to describe; null describes every topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic': (0, 5), 'partitions': (0, 5)}

    topic: str = ''
    """Name of the topic."""

    partitions: list[int] = field(default_factory=list)
    """Partitions of the topic to describe."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeLogDirsRequest(Message):
    """DescribeLogDirsRequest, api key 35."""

    API_KEY: ClassVar[int] = 35
    NAME: ClassVar[str] = 'DescribeLogDirsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topics': (0, 5)}

    topics: list[DescribableLogDirTopic] | None = field(default_factory=list)
    """Topics to describe; null describes every topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DescribableLogDirTopic_v1(buf, pos):
    f_topic, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    return DescribableLogDirTopic(f_topic, f_partitions), pos


def _d_DescribeLogDirsRequest_v1(buf, pos):
    n, pos = read_nullable_array_len(buf, pos)
    if n < 0:
        f_topics = None
    else:
        f_topics = []
        append = f_topics.append
        for _ in range(n):
            item, pos = _d_DescribableLogDirTopic_v1(buf, pos)
            append(item)
    return DescribeLogDirsRequest(f_topics), pos


def _d_DescribableLogDirTopic_v2(buf, pos):
    f_topic, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribableLogDirTopic(f_topic, f_partitions, unknown), pos


def _d_DescribeLogDirsRequest_v2(buf, pos):
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_topics = None
    else:
        f_topics = []
        append = f_topics.append
        for _ in range(n):
            item, pos = _d_DescribableLogDirTopic_v2(buf, pos)
            append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeLogDirsRequest(f_topics, unknown), pos


def _e_DescribableLogDirTopic_v1(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    out += pack('>%di' % len(value), *value)


def _e_DescribeLogDirsRequest_v1(o, out):
    value = o.topics
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_DescribableLogDirTopic_v1(item, out)


def _e_DescribableLogDirTopic_v2(o, out):
    write_compact_string(out, o.topic)
    value = o.partitions
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeLogDirsRequest_v2(o, out):
    value = o.topics
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_DescribableLogDirTopic_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeLogDirsRequest._DECODERS = {
    1: _d_DescribeLogDirsRequest_v1,
    2: _d_DescribeLogDirsRequest_v2,
    3: _d_DescribeLogDirsRequest_v2,
    4: _d_DescribeLogDirsRequest_v2,
    5: _d_DescribeLogDirsRequest_v2,
}
DescribeLogDirsRequest._ENCODERS = {
    1: _e_DescribeLogDirsRequest_v1,
    2: _e_DescribeLogDirsRequest_v2,
    3: _e_DescribeLogDirsRequest_v2,
    4: _e_DescribeLogDirsRequest_v2,
    5: _e_DescribeLogDirsRequest_v2,
}
