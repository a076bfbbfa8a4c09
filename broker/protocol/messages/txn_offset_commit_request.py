# Generated from protocol/schemas/TxnOffsetCommitRequest.json by codegen; do not edit.
"""TxnOffsetCommitRequest: request, api key 28, versions 0-6."""

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
    "TxnOffsetCommitRequestPartition",
    "TxnOffsetCommitRequestTopic",
    "TxnOffsetCommitRequest",
]
_S0 = Struct('>qh')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>iq')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>iqi')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>qhi')
_S3u = _S3.unpack_from
_S3p = _S3.pack


@dataclass(slots=True)
class TxnOffsetCommitRequestPartition:
    """Partitions of the topic whose offsets are being committed."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 6), 'committed_offset': (0, 6), 'committed_leader_epoch': (2, 6), 'committed_metadata': (0, 6)}

    partition_index: int = 0
    """Index of the partition in its topic."""

    committed_offset: int = 0
    """Offset of the message that is being committed."""

    committed_leader_epoch: int = -1
    """Leader epoch of the most recently consumed record."""

    committed_metadata: str | None = ''
    """Optional client-supplied metadata stored alongside the commit."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TxnOffsetCommitRequestTopic:
    """One entry for every topic whose offsets are being committed."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 5), 'topic_id': (6, 6), 'partitions': (0, 6)}

    name: str = ''
    """Name of the topic; versions up to 5 name topics this way."""

    topic_id: uuid.UUID = UUID_ZERO
    """ID of the topic; from version 6 topics are named by ID only (KIP-1319)."""

    partitions: list[TxnOffsetCommitRequestPartition] = field(default_factory=list)
    """Partitions of the topic whose offsets are being committed."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TxnOffsetCommitRequest(Message):
    """TxnOffsetCommitRequest, api key 28."""

    API_KEY: ClassVar[int] = 28
    NAME: ClassVar[str] = 'TxnOffsetCommitRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 6
    FLEXIBLE_MIN: ClassVar[int | None] = 3
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'transactional_id': (0, 6), 'group_id': (0, 6), 'producer_id': (0, 6), 'producer_epoch': (0, 6), 'generation_id_or_member_epoch': (3, 6), 'member_id': (3, 6), 'group_instance_id': (3, 6), 'topics': (0, 6)}

    transactional_id: str = ''
    """Transactional ID of the transaction."""

    group_id: str = ''
    """Identifier of the group."""

    producer_id: int = 0
    """Producer ID currently used by this transactional ID."""

    producer_epoch: int = 0
    """Epoch currently associated with the producer ID."""

    generation_id_or_member_epoch: int = -1
    """Generation of the group under the classic protocol, or the member epoch under the consumer protocol (KIP-848)."""

    member_id: str = ''
    """Member ID that the group coordinator has assigned to this member."""

    group_instance_id: str | None = None
    """Consumer instance identifier supplied by the end user."""

    topics: list[TxnOffsetCommitRequestTopic] = field(default_factory=list)
    """One entry for every topic whose offsets are being committed."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_TxnOffsetCommitRequestPartition_v0(buf, pos):
    f_partition_index, f_committed_offset = _S1u(buf, pos)
    pos += 12
    f_committed_metadata, pos = read_nullable_string(buf, pos)
    return TxnOffsetCommitRequestPartition(f_partition_index, f_committed_offset, -1, f_committed_metadata), pos


def _d_TxnOffsetCommitRequestTopic_v0(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_TxnOffsetCommitRequestPartition_v0(buf, pos)
        append(item)
    return TxnOffsetCommitRequestTopic(f_name, UUID_ZERO, f_partitions), pos


def _d_TxnOffsetCommitRequest_v0(buf, pos):
    f_transactional_id, pos = read_string(buf, pos)
    f_group_id, pos = read_string(buf, pos)
    f_producer_id, f_producer_epoch = _S0u(buf, pos)
    pos += 10
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_TxnOffsetCommitRequestTopic_v0(buf, pos)
        append(item)
    return TxnOffsetCommitRequest(f_transactional_id, f_group_id, f_producer_id, f_producer_epoch, -1, '', None, f_topics), pos


def _d_TxnOffsetCommitRequestPartition_v2(buf, pos):
    f_partition_index, f_committed_offset, f_committed_leader_epoch = _S2u(buf, pos)
    pos += 16
    f_committed_metadata, pos = read_nullable_string(buf, pos)
    return TxnOffsetCommitRequestPartition(f_partition_index, f_committed_offset, f_committed_leader_epoch, f_committed_metadata), pos


def _d_TxnOffsetCommitRequestTopic_v2(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_TxnOffsetCommitRequestPartition_v2(buf, pos)
        append(item)
    return TxnOffsetCommitRequestTopic(f_name, UUID_ZERO, f_partitions), pos


def _d_TxnOffsetCommitRequest_v2(buf, pos):
    f_transactional_id, pos = read_string(buf, pos)
    f_group_id, pos = read_string(buf, pos)
    f_producer_id, f_producer_epoch = _S0u(buf, pos)
    pos += 10
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_TxnOffsetCommitRequestTopic_v2(buf, pos)
        append(item)
    return TxnOffsetCommitRequest(f_transactional_id, f_group_id, f_producer_id, f_producer_epoch, -1, '', None, f_topics), pos


def _d_TxnOffsetCommitRequestPartition_v3(buf, pos):
    f_partition_index, f_committed_offset, f_committed_leader_epoch = _S2u(buf, pos)
    pos += 16
    f_committed_metadata, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TxnOffsetCommitRequestPartition(f_partition_index, f_committed_offset, f_committed_leader_epoch, f_committed_metadata, unknown), pos


def _d_TxnOffsetCommitRequestTopic_v3(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_TxnOffsetCommitRequestPartition_v3(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TxnOffsetCommitRequestTopic(f_name, UUID_ZERO, f_partitions, unknown), pos


def _d_TxnOffsetCommitRequest_v3(buf, pos):
    f_transactional_id, pos = read_compact_string(buf, pos)
    f_group_id, pos = read_compact_string(buf, pos)
    f_producer_id, f_producer_epoch, f_generation_id_or_member_epoch = _S3u(buf, pos)
    pos += 14
    f_member_id, pos = read_compact_string(buf, pos)
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_TxnOffsetCommitRequestTopic_v3(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TxnOffsetCommitRequest(f_transactional_id, f_group_id, f_producer_id, f_producer_epoch, f_generation_id_or_member_epoch, f_member_id, f_group_instance_id, f_topics, unknown), pos


def _d_TxnOffsetCommitRequestTopic_v6(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_TxnOffsetCommitRequestPartition_v3(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TxnOffsetCommitRequestTopic('', f_topic_id, f_partitions, unknown), pos


def _d_TxnOffsetCommitRequest_v6(buf, pos):
    f_transactional_id, pos = read_compact_string(buf, pos)
    f_group_id, pos = read_compact_string(buf, pos)
    f_producer_id, f_producer_epoch, f_generation_id_or_member_epoch = _S3u(buf, pos)
    pos += 14
    f_member_id, pos = read_compact_string(buf, pos)
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_TxnOffsetCommitRequestTopic_v6(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TxnOffsetCommitRequest(f_transactional_id, f_group_id, f_producer_id, f_producer_epoch, f_generation_id_or_member_epoch, f_member_id, f_group_instance_id, f_topics, unknown), pos


def _e_TxnOffsetCommitRequestPartition_v0(o, out):
    out += _S1p(o.partition_index, o.committed_offset)
    write_nullable_string(out, o.committed_metadata)


def _e_TxnOffsetCommitRequestTopic_v0(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_TxnOffsetCommitRequestPartition_v0(item, out)


def _e_TxnOffsetCommitRequest_v0(o, out):
    write_string(out, o.transactional_id)
    write_string(out, o.group_id)
    out += _S0p(o.producer_id, o.producer_epoch)
    if o.generation_id_or_member_epoch != -1:
        raise UnsupportedFieldError('TxnOffsetCommitRequest v0 cannot carry a non-default GenerationIdOrMemberEpoch')
    if o.member_id != '':
        raise UnsupportedFieldError('TxnOffsetCommitRequest v0 cannot carry a non-default MemberId')
    if o.group_instance_id is not None:
        raise UnsupportedFieldError('TxnOffsetCommitRequest v0 cannot carry a non-default GroupInstanceId')
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_TxnOffsetCommitRequestTopic_v0(item, out)


def _e_TxnOffsetCommitRequest_v1(o, out):
    write_string(out, o.transactional_id)
    write_string(out, o.group_id)
    out += _S0p(o.producer_id, o.producer_epoch)
    if o.generation_id_or_member_epoch != -1:
        raise UnsupportedFieldError('TxnOffsetCommitRequest v1 cannot carry a non-default GenerationIdOrMemberEpoch')
    if o.member_id != '':
        raise UnsupportedFieldError('TxnOffsetCommitRequest v1 cannot carry a non-default MemberId')
    if o.group_instance_id is not None:
        raise UnsupportedFieldError('TxnOffsetCommitRequest v1 cannot carry a non-default GroupInstanceId')
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_TxnOffsetCommitRequestTopic_v0(item, out)


def _e_TxnOffsetCommitRequestPartition_v2(o, out):
    out += _S2p(o.partition_index, o.committed_offset, o.committed_leader_epoch)
    write_nullable_string(out, o.committed_metadata)


def _e_TxnOffsetCommitRequestTopic_v2(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_TxnOffsetCommitRequestPartition_v2(item, out)


def _e_TxnOffsetCommitRequest_v2(o, out):
    write_string(out, o.transactional_id)
    write_string(out, o.group_id)
    out += _S0p(o.producer_id, o.producer_epoch)
    if o.generation_id_or_member_epoch != -1:
        raise UnsupportedFieldError('TxnOffsetCommitRequest v2 cannot carry a non-default GenerationIdOrMemberEpoch')
    if o.member_id != '':
        raise UnsupportedFieldError('TxnOffsetCommitRequest v2 cannot carry a non-default MemberId')
    if o.group_instance_id is not None:
        raise UnsupportedFieldError('TxnOffsetCommitRequest v2 cannot carry a non-default GroupInstanceId')
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_TxnOffsetCommitRequestTopic_v2(item, out)


def _e_TxnOffsetCommitRequestPartition_v3(o, out):
    out += _S2p(o.partition_index, o.committed_offset, o.committed_leader_epoch)
    write_compact_nullable_string(out, o.committed_metadata)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TxnOffsetCommitRequestTopic_v3(o, out):
    write_compact_string(out, o.name)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_TxnOffsetCommitRequestPartition_v3(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TxnOffsetCommitRequest_v3(o, out):
    write_compact_string(out, o.transactional_id)
    write_compact_string(out, o.group_id)
    out += _S3p(o.producer_id, o.producer_epoch, o.generation_id_or_member_epoch)
    write_compact_string(out, o.member_id)
    write_compact_nullable_string(out, o.group_instance_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_TxnOffsetCommitRequestTopic_v3(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TxnOffsetCommitRequestTopic_v6(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_TxnOffsetCommitRequestPartition_v3(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TxnOffsetCommitRequest_v6(o, out):
    write_compact_string(out, o.transactional_id)
    write_compact_string(out, o.group_id)
    out += _S3p(o.producer_id, o.producer_epoch, o.generation_id_or_member_epoch)
    write_compact_string(out, o.member_id)
    write_compact_nullable_string(out, o.group_instance_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_TxnOffsetCommitRequestTopic_v6(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


TxnOffsetCommitRequest._DECODERS = {
    0: _d_TxnOffsetCommitRequest_v0,
    1: _d_TxnOffsetCommitRequest_v0,
    2: _d_TxnOffsetCommitRequest_v2,
    3: _d_TxnOffsetCommitRequest_v3,
    4: _d_TxnOffsetCommitRequest_v3,
    5: _d_TxnOffsetCommitRequest_v3,
    6: _d_TxnOffsetCommitRequest_v6,
}
TxnOffsetCommitRequest._ENCODERS = {
    0: _e_TxnOffsetCommitRequest_v0,
    1: _e_TxnOffsetCommitRequest_v1,
    2: _e_TxnOffsetCommitRequest_v2,
    3: _e_TxnOffsetCommitRequest_v3,
    4: _e_TxnOffsetCommitRequest_v3,
    5: _e_TxnOffsetCommitRequest_v3,
    6: _e_TxnOffsetCommitRequest_v6,
}
