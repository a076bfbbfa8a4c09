# Generated from protocol/schemas/ShareFetchRequest.json by codegen; do not edit.
"""ShareFetchRequest: request, api key 78, versions 1-2."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar
import uuid

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    check_count,
    read_compact_array_len,
    read_compact_nullable_string,
    read_unknown_tags,
    read_uuid,
    write_compact_array_len,
    write_compact_nullable_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "AcknowledgementBatch",
    "FetchPartition",
    "FetchTopic",
    "ForgottenTopic",
    "ShareFetchRequest",
]
_S0 = Struct('>iiiiii')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>qq')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>iiiiiib?')
_S3u = _S3.unpack_from
_S3p = _S3.pack
_S4 = Struct('>iiiiiibB')
_S4u = _S4.unpack_from
_S4p = _S4.pack


@dataclass(slots=True)
class AcknowledgementBatch:
    """Batches of records being acknowledged."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'first_offset': (0, 2), 'last_offset': (0, 2), 'acknowledge_types': (0, 2)}

    first_offset: int = 0
    """Offset of the first record in the batch being acknowledged."""

    last_offset: int = 0
    """Offset of the last record, inclusive, in the batch being acknowledged."""

    acknowledge_types: list[int] = field(default_factory=list)
    """Acknowledgement types for the batch, each one of 0:Gap,1:Accept,2:Release,3:Reject,4:Renew."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class FetchPartition:
    """Partitions to be fetched."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 2), 'partition_max_bytes': (0, 0), 'acknowledgement_batches': (0, 2)}

    partition_index: int = 0
    """Index of the partition."""

    partition_max_bytes: int = 0
    """Upper limit on the bytes to fetch from this partition, or 0 if only acknowledging without fetching; KIP-74 describes cases in which it may be exceeded."""

    acknowledgement_batches: list[AcknowledgementBatch] = field(default_factory=list)
    """Batches of records being acknowledged."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class FetchTopic:
    """Topics to be fetched."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_id': (0, 2), 'partitions': (0, 2)}

    topic_id: uuid.UUID = UUID_ZERO
    """Unique identifier of the topic."""

    partitions: list[FetchPartition] = field(default_factory=list)
    """Partitions to be fetched."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ForgottenTopic:
    """Partitions to be dropped from this share session."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_id': (0, 2), 'partitions': (0, 2)}

    topic_id: uuid.UUID = UUID_ZERO
    """Unique identifier of the topic."""

    partitions: list[int] = field(default_factory=list)
    """Indexes of the partitions to forget."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ShareFetchRequest(Message):
    """ShareFetchRequest, api key 78."""

    API_KEY: ClassVar[int] = 78
    NAME: ClassVar[str] = 'ShareFetchRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 1
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 2), 'member_id': (0, 2), 'share_session_epoch': (0, 2), 'max_wait_ms': (0, 2), 'min_bytes': (0, 2), 'max_bytes': (0, 2), 'max_records': (1, 2), 'batch_size': (1, 2), 'share_acquire_mode': (2, 2), 'is_renew_ack': (2, 2), 'topics': (0, 2), 'forgotten_topics_data': (0, 2)}

    group_id: str | None = None
    """Identifier of the group."""

    member_id: str | None = ''
    """ID of the member."""

    share_session_epoch: int = 0
    """Share session epoch: 0 opens a share session, -1 closes it, and any other value increases with each successive request."""

    max_wait_ms: int = 0
    """Longest time, in milliseconds, to wait before returning a response."""

    min_bytes: int = 0
    """Minimum number of bytes to accumulate before responding."""

    max_bytes: int = 2147483647
    """Upper limit on the bytes to fetch; KIP-74 describes cases in which it may be exceeded."""

    max_records: int = 0
    """Upper limit on the number of records to fetch, which may be exceeded so that batch boundaries stay aligned."""

    batch_size: int = 0
    """Preferred number of records per batch of acquired records and acknowledgements."""

    share_acquire_mode: int = 0
    """Acquire mode that governs fetch behavior, one of 0:batch-optimized,1:record-limit."""

    is_renew_ack: bool = False
    """Whether AcknowledgementBatches include acknowledgements of the Renew type."""

    topics: list[FetchTopic] = field(default_factory=list)
    """Topics to be fetched."""

    forgotten_topics_data: list[ForgottenTopic] = field(default_factory=list)
    """Partitions to be dropped from this share session."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_AcknowledgementBatch_v1(buf, pos):
    f_first_offset, f_last_offset = _S2u(buf, pos)
    pos += 16
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 1)
    f_acknowledge_types = list(unpack_from('>%db' % n, buf, pos))
    pos += n * 1
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AcknowledgementBatch(f_first_offset, f_last_offset, f_acknowledge_types, unknown), pos


def _d_FetchPartition_v1(buf, pos):
    f_partition_index = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_acknowledgement_batches = []
    append = f_acknowledgement_batches.append
    for _ in range(n):
        item, pos = _d_AcknowledgementBatch_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return FetchPartition(f_partition_index, 0, f_acknowledgement_batches, unknown), pos


def _d_FetchTopic_v1(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_FetchPartition_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return FetchTopic(f_topic_id, f_partitions, unknown), pos


def _d_ForgottenTopic_v1(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ForgottenTopic(f_topic_id, f_partitions, unknown), pos


def _d_ShareFetchRequest_v1(buf, pos):
    f_group_id, pos = read_compact_nullable_string(buf, pos)
    f_member_id, pos = read_compact_nullable_string(buf, pos)
    f_share_session_epoch, f_max_wait_ms, f_min_bytes, f_max_bytes, f_max_records, f_batch_size = _S0u(buf, pos)
    pos += 24
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_FetchTopic_v1(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_forgotten_topics_data = []
    append = f_forgotten_topics_data.append
    for _ in range(n):
        item, pos = _d_ForgottenTopic_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ShareFetchRequest(f_group_id, f_member_id, f_share_session_epoch, f_max_wait_ms, f_min_bytes, f_max_bytes, f_max_records, f_batch_size, 0, False, f_topics, f_forgotten_topics_data, unknown), pos


def _d_ShareFetchRequest_v2(buf, pos):
    f_group_id, pos = read_compact_nullable_string(buf, pos)
    f_member_id, pos = read_compact_nullable_string(buf, pos)
    f_share_session_epoch, f_max_wait_ms, f_min_bytes, f_max_bytes, f_max_records, f_batch_size, f_share_acquire_mode, f_is_renew_ack = _S3u(buf, pos)
    pos += 26
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_FetchTopic_v1(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_forgotten_topics_data = []
    append = f_forgotten_topics_data.append
    for _ in range(n):
        item, pos = _d_ForgottenTopic_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ShareFetchRequest(f_group_id, f_member_id, f_share_session_epoch, f_max_wait_ms, f_min_bytes, f_max_bytes, f_max_records, f_batch_size, f_share_acquire_mode, f_is_renew_ack, f_topics, f_forgotten_topics_data, unknown), pos


def _e_AcknowledgementBatch_v1(o, out):
    out += _S2p(o.first_offset, o.last_offset)
    value = o.acknowledge_types
    write_compact_array_len(out, value)
    out += pack('>%db' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FetchPartition_v1(o, out):
    out += _S1p(o.partition_index)
    if o.partition_max_bytes != 0:
        raise UnsupportedFieldError('ShareFetchRequest v1 cannot carry a non-default PartitionMaxBytes')
    value = o.acknowledgement_batches
    write_compact_array_len(out, value)
    for item in value:
        _e_AcknowledgementBatch_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FetchTopic_v1(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchPartition_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ForgottenTopic_v1(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ShareFetchRequest_v1(o, out):
    write_compact_nullable_string(out, o.group_id)
    write_compact_nullable_string(out, o.member_id)
    out += _S0p(o.share_session_epoch, o.max_wait_ms, o.min_bytes, o.max_bytes, o.max_records, o.batch_size)
    if o.is_renew_ack:
        raise UnsupportedFieldError('ShareFetchRequest v1 cannot carry a non-default IsRenewAck')
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchTopic_v1(item, out)
    value = o.forgotten_topics_data
    write_compact_array_len(out, value)
    for item in value:
        _e_ForgottenTopic_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FetchPartition_v2(o, out):
    out += _S1p(o.partition_index)
    if o.partition_max_bytes != 0:
        raise UnsupportedFieldError('ShareFetchRequest v2 cannot carry a non-default PartitionMaxBytes')
    value = o.acknowledgement_batches
    write_compact_array_len(out, value)
    for item in value:
        _e_AcknowledgementBatch_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FetchTopic_v2(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchPartition_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ShareFetchRequest_v2(o, out):
    write_compact_nullable_string(out, o.group_id)
    write_compact_nullable_string(out, o.member_id)
    out += _S4p(o.share_session_epoch, o.max_wait_ms, o.min_bytes, o.max_bytes, o.max_records, o.batch_size, o.share_acquire_mode, o.is_renew_ack)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchTopic_v2(item, out)
    value = o.forgotten_topics_data
    write_compact_array_len(out, value)
    for item in value:
        _e_ForgottenTopic_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ShareFetchRequest._DECODERS = {
    1: _d_ShareFetchRequest_v1,
    2: _d_ShareFetchRequest_v2,
}
ShareFetchRequest._ENCODERS = {
    1: _e_ShareFetchRequest_v1,
    2: _e_ShareFetchRequest_v2,
}
