# Generated from protocol/schemas/DescribeShareGroupOffsetsRequest.json by codegen; do not edit.
"""DescribeShareGroupOffsetsRequest: request, api key 90, versions 0-1."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
    read_compact_array_len,
    read_compact_nullable_array_len,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_nullable_array_len,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "DescribeShareGroupOffsetsRequestTopic",
    "DescribeShareGroupOffsetsRequestGroup",
    "DescribeShareGroupOffsetsRequest",
]


@dataclass(slots=True)
class DescribeShareGroupOffsetsRequestTopic:
    """Topics whose offsets should be described; null means every topic-partition."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_name': (0, 1), 'partitions': (0, 1)}

    topic_name: str = ''
    """Name of the topic."""

    partitions: list[int] = field(default_factory=list)
    """List of partitions."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeShareGroupOffsetsRequestGroup:
    """Groups whose offsets should be described."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 1), 'topics': (0, 1)}

    group_id: str = ''
    """Identifier of the group."""

    topics: list[DescribeShareGroupOffsetsRequestTopic] | None = field(default_factory=list)
    """Topics whose offsets should be described; null means every topic-partition."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeShareGroupOffsetsRequest(Message):
    """DescribeShareGroupOffsetsRequest, api key 90."""

    API_KEY: ClassVar[int] = 90
    NAME: ClassVar[str] = 'DescribeShareGroupOffsetsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'groups': (0, 1)}

    groups: list[DescribeShareGroupOffsetsRequestGroup] = field(default_factory=list)
    """Groups whose offsets should be described."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DescribeShareGroupOffsetsRequestTopic_v0(buf, pos):
    f_topic_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeShareGroupOffsetsRequestTopic(f_topic_name, f_partitions, unknown), pos


def _d_DescribeShareGroupOffsetsRequestGroup_v0(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_topics = None
    else:
        f_topics = []
        append = f_topics.append
        for _ in range(n):
            item, pos = _d_DescribeShareGroupOffsetsRequestTopic_v0(buf, pos)
            append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeShareGroupOffsetsRequestGroup(f_group_id, f_topics, unknown), pos


def _d_DescribeShareGroupOffsetsRequest_v0(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_DescribeShareGroupOffsetsRequestGroup_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeShareGroupOffsetsRequest(f_groups, unknown), pos


def _e_DescribeShareGroupOffsetsRequestTopic_v0(o, out):
    write_compact_string(out, o.topic_name)
    value = o.partitions
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeShareGroupOffsetsRequestGroup_v0(o, out):
    write_compact_string(out, o.group_id)
    value = o.topics
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_DescribeShareGroupOffsetsRequestTopic_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeShareGroupOffsetsRequest_v0(o, out):
    value = o.groups
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeShareGroupOffsetsRequestGroup_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeShareGroupOffsetsRequest._DECODERS = {
    0: _d_DescribeShareGroupOffsetsRequest_v0,
    1: _d_DescribeShareGroupOffsetsRequest_v0,
}
DescribeShareGroupOffsetsRequest._ENCODERS = {
    0: _e_DescribeShareGroupOffsetsRequest_v0,
    1: _e_DescribeShareGroupOffsetsRequest_v0,
}
