# Generated from protocol/schemas/ShareGroupStatePartitionMetadataValue.json by codegen; do not edit.
"""ShareGroupStatePartitionMetadataValue: coordinator-value, api key 15, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar
import uuid

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    check_count,
    read_compact_array_len,
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    write_compact_array_len,
    write_compact_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "TopicPartitionsInfo",
    "TopicInfo",
    "ShareGroupStatePartitionMetadataValue",
]


@dataclass(slots=True)
class TopicPartitionsInfo:
    """Common structure TopicPartitionsInfo."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_id': (0, 0), 'topic_name': (0, 0), 'partitions': (0, 0)}

    topic_id: uuid.UUID = UUID_ZERO
    """Unique identifier of the topic."""

    topic_name: str = ''
    """Name of the topic."""

    partitions: list[int] = field(default_factory=list)
    """List of partitions."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TopicInfo:
    """Common structure TopicInfo."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_id': (0, 0), 'topic_name': (0, 0)}

    topic_id: uuid.UUID = UUID_ZERO
    """Unique identifier of the topic."""

    topic_name: str = ''
    """Name of the topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ShareGroupStatePartitionMetadataValue(Message):
    """ShareGroupStatePartitionMetadataValue, api key 15."""

    API_KEY: ClassVar[int] = 15
    NAME: ClassVar[str] = 'ShareGroupStatePartitionMetadataValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'initializing_topics': (0, 0), 'initialized_topics': (0, 0), 'deleting_topics': (0, 0)}

    initializing_topics: list[TopicPartitionsInfo] = field(default_factory=list)
    """Topic-partitions whose share-group state is currently being initialized."""

    initialized_topics: list[TopicPartitionsInfo] = field(default_factory=list)
    """Topics whose share-group state has been initialized."""

    deleting_topics: list[TopicInfo] = field(default_factory=list)
    """Topics whose share-group state is currently being deleted."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_TopicPartitionsInfo_v0(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
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
    return TopicPartitionsInfo(f_topic_id, f_topic_name, f_partitions, unknown), pos


def _d_TopicInfo_v0(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    f_topic_name, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopicInfo(f_topic_id, f_topic_name, unknown), pos


def _d_ShareGroupStatePartitionMetadataValue_v0(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_initializing_topics = []
    append = f_initializing_topics.append
    for _ in range(n):
        item, pos = _d_TopicPartitionsInfo_v0(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_initialized_topics = []
    append = f_initialized_topics.append
    for _ in range(n):
        item, pos = _d_TopicPartitionsInfo_v0(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_deleting_topics = []
    append = f_deleting_topics.append
    for _ in range(n):
        item, pos = _d_TopicInfo_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ShareGroupStatePartitionMetadataValue(f_initializing_topics, f_initialized_topics, f_deleting_topics, unknown), pos


def _e_TopicPartitionsInfo_v0(o, out):
    write_uuid(out, o.topic_id)
    write_compact_string(out, o.topic_name)
    value = o.partitions
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TopicInfo_v0(o, out):
    write_uuid(out, o.topic_id)
    write_compact_string(out, o.topic_name)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ShareGroupStatePartitionMetadataValue_v0(o, out):
    value = o.initializing_topics
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicPartitionsInfo_v0(item, out)
    value = o.initialized_topics
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicPartitionsInfo_v0(item, out)
    value = o.deleting_topics
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicInfo_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ShareGroupStatePartitionMetadataValue._DECODERS = {
    0: _d_ShareGroupStatePartitionMetadataValue_v0,
}
ShareGroupStatePartitionMetadataValue._ENCODERS = {
    0: _e_ShareGroupStatePartitionMetadataValue_v0,
}
