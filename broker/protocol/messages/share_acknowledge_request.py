# Generated from protocol/schemas/ShareAcknowledgeRequest.json by codegen; do not edit.
"""ShareAcknowledgeRequest: request, api key 79, versions 1-2."""

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
    "AcknowledgePartition",
    "AcknowledgeTopic",
    "ShareAcknowledgeRequest",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>qq')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>i?')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>iB')
_S3u = _S3.unpack_from
_S3p = _S3.pack


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
class AcknowledgePartition:
    """Partitions that contain records being acknowledged."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 2), 'acknowledgement_batches': (0, 2)}

    partition_index: int = 0
    """Index of the partition."""

    acknowledgement_batches: list[AcknowledgementBatch] = field(default_factory=list)
    """Batches of records being acknowledged."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AcknowledgeTopic:
    """Topics that contain records being acknowledged."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_id': (0, 2), 'partitions': (0, 2)}

    topic_id: uuid.UUID = UUID_ZERO
    """Unique identifier of the topic."""

    partitions: list[AcknowledgePartition] = field(default_factory=list)
    """Partitions that contain records being acknowledged."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ShareAcknowledgeRequest(Message):
    """ShareAcknowledgeRequest, api key 79."""

    API_KEY: ClassVar[int] = 79
    NAME: ClassVar[str] = 'ShareAcknowledgeRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 1
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 2), 'member_id': (0, 2), 'share_session_epoch': (0, 2), 'is_renew_ack': (2, 2), 'topics': (0, 2)}

    group_id: str | None = None
    """Identifier of the group."""

    member_id: str | None = ''
    """ID of the member."""

    share_session_epoch: int = 0
    """Share session epoch: 0 opens a share session, -1 closes it, and any other value increases with each successive request."""

    is_renew_ack: bool = False
    """Whether AcknowledgementBatches include acknowledgements of the Renew type."""

    topics: list[AcknowledgeTopic] = field(default_factory=list)
    """Topics that contain records being acknowledged."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_AcknowledgementBatch_v1(buf, pos):
    f_first_offset, f_last_offset = _S1u(buf, pos)
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


def _d_AcknowledgePartition_v1(buf, pos):
    f_partition_index = _S0u(buf, pos)[0]
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
    return AcknowledgePartition(f_partition_index, f_acknowledgement_batches, unknown), pos


def _d_AcknowledgeTopic_v1(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_AcknowledgePartition_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AcknowledgeTopic(f_topic_id, f_partitions, unknown), pos


def _d_ShareAcknowledgeRequest_v1(buf, pos):
    f_group_id, pos = read_compact_nullable_string(buf, pos)
    f_member_id, pos = read_compact_nullable_string(buf, pos)
    f_share_session_epoch = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_AcknowledgeTopic_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ShareAcknowledgeRequest(f_group_id, f_member_id, f_share_session_epoch, False, f_topics, unknown), pos


def _d_ShareAcknowledgeRequest_v2(buf, pos):
    f_group_id, pos = read_compact_nullable_string(buf, pos)
    f_member_id, pos = read_compact_nullable_string(buf, pos)
    f_share_session_epoch, f_is_renew_ack = _S2u(buf, pos)
    pos += 5
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_AcknowledgeTopic_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ShareAcknowledgeRequest(f_group_id, f_member_id, f_share_session_epoch, f_is_renew_ack, f_topics, unknown), pos


def _e_AcknowledgementBatch_v1(o, out):
    out += _S1p(o.first_offset, o.last_offset)
    value = o.acknowledge_types
    write_compact_array_len(out, value)
    out += pack('>%db' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AcknowledgePartition_v1(o, out):
    out += _S0p(o.partition_index)
    value = o.acknowledgement_batches
    write_compact_array_len(out, value)
    for item in value:
        _e_AcknowledgementBatch_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AcknowledgeTopic_v1(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_AcknowledgePartition_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ShareAcknowledgeRequest_v1(o, out):
    write_compact_nullable_string(out, o.group_id)
    write_compact_nullable_string(out, o.member_id)
    out += _S0p(o.share_session_epoch)
    if o.is_renew_ack:
        raise UnsupportedFieldError('ShareAcknowledgeRequest v1 cannot carry a non-default IsRenewAck')
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_AcknowledgeTopic_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ShareAcknowledgeRequest_v2(o, out):
    write_compact_nullable_string(out, o.group_id)
    write_compact_nullable_string(out, o.member_id)
    out += _S3p(o.share_session_epoch, o.is_renew_ack)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_AcknowledgeTopic_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ShareAcknowledgeRequest._DECODERS = {
    1: _d_ShareAcknowledgeRequest_v1,
    2: _d_ShareAcknowledgeRequest_v2,
}
ShareAcknowledgeRequest._ENCODERS = {
    1: _e_ShareAcknowledgeRequest_v1,
    2: _e_ShareAcknowledgeRequest_v2,
}
