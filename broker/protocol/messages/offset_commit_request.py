# Generated from protocol/schemas/OffsetCommitRequest.json by codegen; do not edit.
"""OffsetCommitRequest: request, api key 8, versions 2-10."""

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
    read_nullable_string,
    read_string,
    read_unknown_tags,
    read_uuid,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "OffsetCommitRequestPartition",
    "OffsetCommitRequestTopic",
    "OffsetCommitRequest",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>q')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>iq')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>iqi')
_S3u = _S3.unpack_from
_S3p = _S3.pack


@dataclass(slots=True)
class OffsetCommitRequestPartition:
    """One entry for every partition whose offset is being committed."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 10), 'committed_offset': (0, 10), 'committed_leader_epoch': (6, 10), 'committed_metadata': (0, 10)}

    partition_index: int = 0
    """Index of the partition."""

    committed_offset: int = 0
    """Offset of the message that is being committed."""

    committed_leader_epoch: int = -1
    """Leader epoch for this partition."""

    committed_metadata: str | None = ''
    """Optional client-supplied metadata stored alongside the commit."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetCommitRequestTopic:
    """Topics whose offsets are being committed."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 9), 'topic_id': (10, 10), 'partitions': (0, 10)}

    name: str = ''
    """Name of the topic."""

    topic_id: uuid.UUID = UUID_ZERO
    """ID of the topic."""

    partitions: list[OffsetCommitRequestPartition] = field(default_factory=list)
    """One entry for every partition whose offset is being committed."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetCommitRequest(Message):
    """OffsetCommitRequest, api key 8."""

    API_KEY: ClassVar[int] = 8
    NAME: ClassVar[str] = 'OffsetCommitRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 2
    MAX_VERSION: ClassVar[int] = 10
    FLEXIBLE_MIN: ClassVar[int | None] = 8
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 10), 'generation_id_or_member_epoch': (1, 10), 'member_id': (1, 10), 'group_instance_id': (7, 10), 'retention_time_ms': (2, 4), 'topics': (0, 10)}

    group_id: str = ''
    """Identifier that uniquely names the group."""

    generation_id_or_member_epoch: int = -1
    """Group generation when the classic group protocol is used, or the member epoch when the consumer protocol is used."""

    member_id: str = ''
    """Member ID that the group coordinator has assigned to this member."""

    group_instance_id: str | None = None
    """Consumer instance identifier supplied by the end user."""

    retention_time_ms: int = -1
    """How long, in ms, the committed offset should be retained."""

    topics: list[OffsetCommitRequestTopic] = field(default_factory=list)
    """Topics whose offsets are being committed."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_OffsetCommitRequestPartition_v2(buf, pos):
    f_partition_index, f_committed_offset = _S2u(buf, pos)
    pos += 12
    f_committed_metadata, pos = read_nullable_string(buf, pos)
    return OffsetCommitRequestPartition(f_partition_index, f_committed_offset, -1, f_committed_metadata), pos


def _d_OffsetCommitRequestTopic_v2(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_OffsetCommitRequestPartition_v2(buf, pos)
        append(item)
    return OffsetCommitRequestTopic(f_name, UUID_ZERO, f_partitions), pos


def _d_OffsetCommitRequest_v2(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    f_generation_id_or_member_epoch = _S0u(buf, pos)[0]
    pos += 4
    f_member_id, pos = read_string(buf, pos)
    f_retention_time_ms = _S1u(buf, pos)[0]
    pos += 8
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetCommitRequestTopic_v2(buf, pos)
        append(item)
    return OffsetCommitRequest(f_group_id, f_generation_id_or_member_epoch, f_member_id, None, f_retention_time_ms, f_topics), pos


def _d_OffsetCommitRequest_v5(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    f_generation_id_or_member_epoch = _S0u(buf, pos)[0]
    pos += 4
    f_member_id, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetCommitRequestTopic_v2(buf, pos)
        append(item)
    return OffsetCommitRequest(f_group_id, f_generation_id_or_member_epoch, f_member_id, None, -1, f_topics), pos


def _d_OffsetCommitRequestPartition_v6(buf, pos):
    f_partition_index, f_committed_offset, f_committed_leader_epoch = _S3u(buf, pos)
    pos += 16
    f_committed_metadata, pos = read_nullable_string(buf, pos)
    return OffsetCommitRequestPartition(f_partition_index, f_committed_offset, f_committed_leader_epoch, f_committed_metadata), pos


def _d_OffsetCommitRequestTopic_v6(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_OffsetCommitRequestPartition_v6(buf, pos)
        append(item)
    return OffsetCommitRequestTopic(f_name, UUID_ZERO, f_partitions), pos


def _d_OffsetCommitRequest_v6(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    f_generation_id_or_member_epoch = _S0u(buf, pos)[0]
    pos += 4
    f_member_id, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetCommitRequestTopic_v6(buf, pos)
        append(item)
    return OffsetCommitRequest(f_group_id, f_generation_id_or_member_epoch, f_member_id, None, -1, f_topics), pos


def _d_OffsetCommitRequest_v7(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    f_generation_id_or_member_epoch = _S0u(buf, pos)[0]
    pos += 4
    f_member_id, pos = read_string(buf, pos)
    f_group_instance_id, pos = read_nullable_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetCommitRequestTopic_v6(buf, pos)
        append(item)
    return OffsetCommitRequest(f_group_id, f_generation_id_or_member_epoch, f_member_id, f_group_instance_id, -1, f_topics), pos


def _d_OffsetCommitRequestPartition_v8(buf, pos):
    f_partition_index, f_committed_offset, f_committed_leader_epoch = _S3u(buf, pos)
    pos += 16
    f_committed_metadata, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetCommitRequestPartition(f_partition_index, f_committed_offset, f_committed_leader_epoch, f_committed_metadata, unknown), pos


def _d_OffsetCommitRequestTopic_v8(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_OffsetCommitRequestPartition_v8(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetCommitRequestTopic(f_name, UUID_ZERO, f_partitions, unknown), pos


def _d_OffsetCommitRequest_v8(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    f_generation_id_or_member_epoch = _S0u(buf, pos)[0]
    pos += 4
    f_member_id, pos = read_compact_string(buf, pos)
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetCommitRequestTopic_v8(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetCommitRequest(f_group_id, f_generation_id_or_member_epoch, f_member_id, f_group_instance_id, -1, f_topics, unknown), pos


def _d_OffsetCommitRequestTopic_v10(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_OffsetCommitRequestPartition_v8(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetCommitRequestTopic('', f_topic_id, f_partitions, unknown), pos


def _d_OffsetCommitRequest_v10(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    f_generation_id_or_member_epoch = _S0u(buf, pos)[0]
    pos += 4
    f_member_id, pos = read_compact_string(buf, pos)
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetCommitRequestTopic_v10(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetCommitRequest(f_group_id, f_generation_id_or_member_epoch, f_member_id, f_group_instance_id, -1, f_topics, unknown), pos


def _e_OffsetCommitRequestPartition_v2(o, out):
    out += _S2p(o.partition_index, o.committed_offset)
    write_nullable_string(out, o.committed_metadata)


def _e_OffsetCommitRequestTopic_v2(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_OffsetCommitRequestPartition_v2(item, out)


def _e_OffsetCommitRequest_v2(o, out):
    write_string(out, o.group_id)
    out += _S0p(o.generation_id_or_member_epoch)
    write_string(out, o.member_id)
    if o.group_instance_id is not None:
        raise UnsupportedFieldError('OffsetCommitRequest v2 cannot carry a non-default GroupInstanceId')
    out += _S1p(o.retention_time_ms)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_OffsetCommitRequestTopic_v2(item, out)


def _e_OffsetCommitRequest_v3(o, out):
    write_string(out, o.group_id)
    out += _S0p(o.generation_id_or_member_epoch)
    write_string(out, o.member_id)
    if o.group_instance_id is not None:
        raise UnsupportedFieldError('OffsetCommitRequest v3 cannot carry a non-default GroupInstanceId')
    out += _S1p(o.retention_time_ms)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_OffsetCommitRequestTopic_v2(item, out)


def _e_OffsetCommitRequest_v4(o, out):
    write_string(out, o.group_id)
    out += _S0p(o.generation_id_or_member_epoch)
    write_string(out, o.member_id)
    if o.group_instance_id is not None:
        raise UnsupportedFieldError('OffsetCommitRequest v4 cannot carry a non-default GroupInstanceId')
    out += _S1p(o.retention_time_ms)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_OffsetCommitRequestTopic_v2(item, out)


def _e_OffsetCommitRequest_v5(o, out):
    write_string(out, o.group_id)
    out += _S0p(o.generation_id_or_member_epoch)
    write_string(out, o.member_id)
    if o.group_instance_id is not None:
        raise UnsupportedFieldError('OffsetCommitRequest v5 cannot carry a non-default GroupInstanceId')
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_OffsetCommitRequestTopic_v2(item, out)


def _e_OffsetCommitRequestPartition_v6(o, out):
    out += _S3p(o.partition_index, o.committed_offset, o.committed_leader_epoch)
    write_nullable_string(out, o.committed_metadata)


def _e_OffsetCommitRequestTopic_v6(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_OffsetCommitRequestPartition_v6(item, out)


def _e_OffsetCommitRequest_v6(o, out):
    write_string(out, o.group_id)
    out += _S0p(o.generation_id_or_member_epoch)
    write_string(out, o.member_id)
    if o.group_instance_id is not None:
        raise UnsupportedFieldError('OffsetCommitRequest v6 cannot carry a non-default GroupInstanceId')
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_OffsetCommitRequestTopic_v6(item, out)


def _e_OffsetCommitRequest_v7(o, out):
    write_string(out, o.group_id)
    out += _S0p(o.generation_id_or_member_epoch)
    write_string(out, o.member_id)
    write_nullable_string(out, o.group_instance_id)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_OffsetCommitRequestTopic_v6(item, out)


def _e_OffsetCommitRequestPartition_v8(o, out):
    out += _S3p(o.partition_index, o.committed_offset, o.committed_leader_epoch)
    write_compact_nullable_string(out, o.committed_metadata)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetCommitRequestTopic_v8(o, out):
    write_compact_string(out, o.name)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetCommitRequestPartition_v8(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetCommitRequest_v8(o, out):
    write_compact_string(out, o.group_id)
    out += _S0p(o.generation_id_or_member_epoch)
    write_compact_string(out, o.member_id)
    write_compact_nullable_string(out, o.group_instance_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetCommitRequestTopic_v8(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetCommitRequestTopic_v10(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetCommitRequestPartition_v8(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetCommitRequest_v10(o, out):
    write_compact_string(out, o.group_id)
    out += _S0p(o.generation_id_or_member_epoch)
    write_compact_string(out, o.member_id)
    write_compact_nullable_string(out, o.group_instance_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetCommitRequestTopic_v10(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


OffsetCommitRequest._DECODERS = {
    2: _d_OffsetCommitRequest_v2,
    3: _d_OffsetCommitRequest_v2,
    4: _d_OffsetCommitRequest_v2,
    5: _d_OffsetCommitRequest_v5,
    6: _d_OffsetCommitRequest_v6,
    7: _d_OffsetCommitRequest_v7,
    8: _d_OffsetCommitRequest_v8,
    9: _d_OffsetCommitRequest_v8,
    10: _d_OffsetCommitRequest_v10,
}
OffsetCommitRequest._ENCODERS = {
    2: _e_OffsetCommitRequest_v2,
    3: _e_OffsetCommitRequest_v3,
    4: _e_OffsetCommitRequest_v4,
    5: _e_OffsetCommitRequest_v5,
    6: _e_OffsetCommitRequest_v6,
    7: _e_OffsetCommitRequest_v7,
    8: _e_OffsetCommitRequest_v8,
    9: _e_OffsetCommitRequest_v8,
    10: _e_OffsetCommitRequest_v10,
}
