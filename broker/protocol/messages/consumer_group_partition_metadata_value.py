# Generated from protocol/schemas/ConsumerGroupPartitionMetadataValue.json by codegen; do not edit.
"""ConsumerGroupPartitionMetadataValue: coordinator-value, api key 4, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
import uuid

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
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
    "PartitionMetadata",
    "TopicMetadata",
    "ConsumerGroupPartitionMetadataValue",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class PartitionMetadata:
    """Racks of each partition, or empty when no partition has rack information; unused since Kafka 4.0."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition': (0, 0), 'racks': (0, 0)}

    partition: int = 0
    """Index of the partition."""

    racks: list[str] = field(default_factory=list)
    """Racks the partition's replicas are on."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TopicMetadata:
    """Metadata of the subscribed topics. Superseded by ConsumerGroupMetadataValue.MetadataHash (KIP-1101): only read from logs written before it."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_id': (0, 0), 'topic_name': (0, 0), 'num_partitions': (0, 0), 'partition_metadata': (0, 0)}

    topic_id: uuid.UUID = UUID_ZERO
    """ID of the topic."""

    topic_name: str = ''
    """Name of the topic."""

    num_partitions: int = 0
    """Number of partitions of the topic."""

    partition_metadata: list[PartitionMetadata] = field(default_factory=list)
    """Racks of each partition, or empty when no partition has rack information; unused since Kafka 4.0."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ConsumerGroupPartitionMetadataValue(Message):
    """ConsumerGroupPartitionMetadataValue, api key 4."""

    API_KEY: ClassVar[int] = 4
    NAME: ClassVar[str] = 'ConsumerGroupPartitionMetadataValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topics': (0, 0)}

    topics: list[TopicMetadata] = field(default_factory=list)
    """Metadata of the subscribed topics. Superseded by ConsumerGroupMetadataValue.MetadataHash (KIP-1101): only read from logs written before it."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_PartitionMetadata_v0(buf, pos):
    f_partition = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_racks = []
    append = f_racks.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return PartitionMetadata(f_partition, f_racks, unknown), pos


def _d_TopicMetadata_v0(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    f_topic_name, pos = read_compact_string(buf, pos)
    f_num_partitions = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_partition_metadata = []
    append = f_partition_metadata.append
    for _ in range(n):
        item, pos = _d_PartitionMetadata_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopicMetadata(f_topic_id, f_topic_name, f_num_partitions, f_partition_metadata, unknown), pos


def _d_ConsumerGroupPartitionMetadataValue_v0(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_TopicMetadata_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ConsumerGroupPartitionMetadataValue(f_topics, unknown), pos


def _e_PartitionMetadata_v0(o, out):
    out += _S0p(o.partition)
    value = o.racks
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TopicMetadata_v0(o, out):
    write_uuid(out, o.topic_id)
    write_compact_string(out, o.topic_name)
    out += _S0p(o.num_partitions)
    value = o.partition_metadata
    write_compact_array_len(out, value)
    for item in value:
        _e_PartitionMetadata_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ConsumerGroupPartitionMetadataValue_v0(o, out):
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicMetadata_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ConsumerGroupPartitionMetadataValue._DECODERS = {
    0: _d_ConsumerGroupPartitionMetadataValue_v0,
}
ConsumerGroupPartitionMetadataValue._ENCODERS = {
    0: _e_ConsumerGroupPartitionMetadataValue_v0,
}
