# Generated from protocol/schemas/FetchRequest.json by codegen; do not edit.
"""FetchRequest: request, api key 1, versions 4-18."""

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
    read_array_len,
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_string,
    read_tag_header,
    read_unknown_tags,
    read_uuid,
    read_uvarint,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "ReplicaState",
    "FetchPartition",
    "FetchTopic",
    "ForgottenTopic",
    "FetchRequest",
]
_S0 = Struct('>iiiib')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>iqi')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>iqqi')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>iiiibii')
_S3u = _S3.unpack_from
_S3p = _S3.pack
_S4 = Struct('>iiqqi')
_S4u = _S4.unpack_from
_S4p = _S4.pack
_S5 = Struct('>iiqiqi')
_S5u = _S5.unpack_from
_S5p = _S5.pack
_S6 = Struct('>iiibii')
_S6u = _S6.unpack_from
_S6p = _S6.pack
_S7 = Struct('>iq')
_S7u = _S7.unpack_from
_S7p = _S7.pack
_S8 = Struct('>q')
_S8u = _S8.unpack_from
_S8p = _S8.pack
_S9 = Struct('>i')
_S9u = _S9.unpack_from
_S9p = _S9.pack
_S10 = Struct('>iiib')
_S10u = _S10.unpack_from
_S10p = _S10.pack
_S11 = Struct('>qi')
_S11u = _S11.unpack_from
_S11p = _S11.pack
_S12 = Struct('>iiq')
_S12u = _S12.unpack_from
_S12p = _S12.pack


@dataclass(slots=True)
class ReplicaState:
    """Replica state as tracked by the follower."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'replica_id': (15, 18), 'replica_epoch': (15, 18)}

    replica_id: int = -1
    """Replica ID of the follower, or -1 when a consumer sent the request."""

    replica_epoch: int = -1
    """Epoch of this follower, or -1 when unavailable."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class FetchPartition:
    """Partitions to be fetched."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition': (0, 18), 'current_leader_epoch': (9, 18), 'fetch_offset': (0, 18), 'last_fetched_epoch': (12, 18), 'log_start_offset': (5, 18), 'partition_max_bytes': (0, 18), 'replica_directory_id': (17, 18), 'high_watermark': (18, 18)}

    partition: int = 0
    """Index of the partition."""

    current_leader_epoch: int = -1
    """Partition leader epoch currently known."""

    fetch_offset: int = 0
    """Offset of the message to fetch from."""

    last_fetched_epoch: int = -1
    """Epoch of the most recently fetched record, or -1 when there is none."""

    log_start_offset: int = -1
    """Earliest offset available on the follower replica; only meaningful when a follower sends the request."""

    partition_max_bytes: int = 0
    """Upper limit on bytes to fetch for this partition; KIP-74 describes cases where this limit may be exceeded."""

    replica_directory_id: uuid.UUID = UUID_ZERO
    """Directory ID of the follower performing the fetch."""

    high_watermark: int = 9223372036854775807
    """High-watermark as known by the replica; -1 when unknown and 9223372036854775807 when the feature is unsupported."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class FetchTopic:
    """Topics to be fetched."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic': (0, 12), 'topic_id': (13, 18), 'partitions': (0, 18)}

    topic: str = ''
    """Name of the topic to be fetched."""

    topic_id: uuid.UUID = UUID_ZERO
    """Unique identifier of the topic."""

    partitions: list[FetchPartition] = field(default_factory=list)
    """Partitions to be fetched."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ForgottenTopic:
    """Partitions to drop from the session in an incremental fetch request."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic': (7, 12), 'topic_id': (13, 18), 'partitions': (7, 18)}

    topic: str = ''
    """Name of the topic."""

    topic_id: uuid.UUID = UUID_ZERO
    """Unique identifier of the topic."""

    partitions: list[int] = field(default_factory=list)
    """Indexes of the partitions to forget."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class FetchRequest(Message):
    """FetchRequest, api key 1."""

    API_KEY: ClassVar[int] = 1
    NAME: ClassVar[str] = 'FetchRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 4
    MAX_VERSION: ClassVar[int] = 18
    FLEXIBLE_MIN: ClassVar[int | None] = 12
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'cluster_id': (12, 18), 'replica_id': (0, 14), 'replica_state': (15, 18), 'max_wait_ms': (0, 18), 'min_bytes': (0, 18), 'max_bytes': (3, 18), 'isolation_level': (4, 18), 'session_id': (7, 18), 'session_epoch': (7, 18), 'topics': (0, 18), 'forgotten_topics_data': (7, 18), 'rack_id': (11, 18)}

    cluster_id: str | None = None
    """Cluster ID, if known; used to validate metadata fetches made before the broker registers."""

    replica_id: int = -1
    """Broker ID of the follower, or -1 when a consumer sent the request."""

    replica_state: ReplicaState = field(default_factory=ReplicaState)
    """Replica state as tracked by the follower."""

    max_wait_ms: int = 0
    """Longest time, in milliseconds, to wait before returning a response."""

    min_bytes: int = 0
    """Minimum number of bytes to accumulate before responding."""

    max_bytes: int = 2147483647
    """Upper limit on bytes to fetch; KIP-74 describes cases where this limit may be exceeded."""

    isolation_level: int = 0
    """Controls which transactional records are visible: READ_UNCOMMITTED (isolation_level = 0) exposes every record, while READ_COMMITTED (isolation_level = 1) exposes only non-transactional and COMMITTED transactional records, returning data below the last stable offset (LSO) together with the list of aborted transactions so consumers can drop ABORTED transactional records."""

    session_id: int = 0
    """ID of the fetch session."""

    session_epoch: int = -1
    """Epoch of the fetch session, used to order requests within the session."""

    topics: list[FetchTopic] = field(default_factory=list)
    """Topics to be fetched."""

    forgotten_topics_data: list[ForgottenTopic] = field(default_factory=list)
    """Partitions to drop from the session in an incremental fetch request."""

    rack_id: str = ''
    """ID of the rack where the requesting consumer runs."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_FetchPartition_v4(buf, pos):
    f_partition, f_fetch_offset, f_partition_max_bytes = _S1u(buf, pos)
    pos += 16
    return FetchPartition(f_partition, -1, f_fetch_offset, -1, -1, f_partition_max_bytes, UUID_ZERO, 9223372036854775807), pos


def _d_FetchTopic_v4(buf, pos):
    f_topic, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_FetchPartition_v4(buf, pos)
        append(item)
    return FetchTopic(f_topic, UUID_ZERO, f_partitions), pos


def _d_FetchRequest_v4(buf, pos):
    f_replica_id, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level = _S0u(buf, pos)
    pos += 17
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_FetchTopic_v4(buf, pos)
        append(item)
    return FetchRequest(None, f_replica_id, ReplicaState(), f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, 0, -1, f_topics, [], ''), pos


def _d_FetchPartition_v5(buf, pos):
    f_partition, f_fetch_offset, f_log_start_offset, f_partition_max_bytes = _S2u(buf, pos)
    pos += 24
    return FetchPartition(f_partition, -1, f_fetch_offset, -1, f_log_start_offset, f_partition_max_bytes, UUID_ZERO, 9223372036854775807), pos


def _d_FetchTopic_v5(buf, pos):
    f_topic, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_FetchPartition_v5(buf, pos)
        append(item)
    return FetchTopic(f_topic, UUID_ZERO, f_partitions), pos


def _d_FetchRequest_v5(buf, pos):
    f_replica_id, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level = _S0u(buf, pos)
    pos += 17
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_FetchTopic_v5(buf, pos)
        append(item)
    return FetchRequest(None, f_replica_id, ReplicaState(), f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, 0, -1, f_topics, [], ''), pos


def _d_ForgottenTopic_v7(buf, pos):
    f_topic, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    return ForgottenTopic(f_topic, UUID_ZERO, f_partitions), pos


def _d_FetchRequest_v7(buf, pos):
    f_replica_id, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch = _S3u(buf, pos)
    pos += 25
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_FetchTopic_v5(buf, pos)
        append(item)
    n, pos = read_array_len(buf, pos)
    f_forgotten_topics_data = []
    append = f_forgotten_topics_data.append
    for _ in range(n):
        item, pos = _d_ForgottenTopic_v7(buf, pos)
        append(item)
    return FetchRequest(None, f_replica_id, ReplicaState(), f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch, f_topics, f_forgotten_topics_data, ''), pos


def _d_FetchPartition_v9(buf, pos):
    f_partition, f_current_leader_epoch, f_fetch_offset, f_log_start_offset, f_partition_max_bytes = _S4u(buf, pos)
    pos += 28
    return FetchPartition(f_partition, f_current_leader_epoch, f_fetch_offset, -1, f_log_start_offset, f_partition_max_bytes, UUID_ZERO, 9223372036854775807), pos


def _d_FetchTopic_v9(buf, pos):
    f_topic, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_FetchPartition_v9(buf, pos)
        append(item)
    return FetchTopic(f_topic, UUID_ZERO, f_partitions), pos


def _d_FetchRequest_v9(buf, pos):
    f_replica_id, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch = _S3u(buf, pos)
    pos += 25
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_FetchTopic_v9(buf, pos)
        append(item)
    n, pos = read_array_len(buf, pos)
    f_forgotten_topics_data = []
    append = f_forgotten_topics_data.append
    for _ in range(n):
        item, pos = _d_ForgottenTopic_v7(buf, pos)
        append(item)
    return FetchRequest(None, f_replica_id, ReplicaState(), f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch, f_topics, f_forgotten_topics_data, ''), pos


def _d_FetchRequest_v11(buf, pos):
    f_replica_id, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch = _S3u(buf, pos)
    pos += 25
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_FetchTopic_v9(buf, pos)
        append(item)
    n, pos = read_array_len(buf, pos)
    f_forgotten_topics_data = []
    append = f_forgotten_topics_data.append
    for _ in range(n):
        item, pos = _d_ForgottenTopic_v7(buf, pos)
        append(item)
    f_rack_id, pos = read_string(buf, pos)
    return FetchRequest(None, f_replica_id, ReplicaState(), f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch, f_topics, f_forgotten_topics_data, f_rack_id), pos


def _d_FetchPartition_v12(buf, pos):
    f_partition, f_current_leader_epoch, f_fetch_offset, f_last_fetched_epoch, f_log_start_offset, f_partition_max_bytes = _S5u(buf, pos)
    pos += 32
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return FetchPartition(f_partition, f_current_leader_epoch, f_fetch_offset, f_last_fetched_epoch, f_log_start_offset, f_partition_max_bytes, UUID_ZERO, 9223372036854775807, unknown), pos


def _d_FetchTopic_v12(buf, pos):
    f_topic, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_FetchPartition_v12(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return FetchTopic(f_topic, UUID_ZERO, f_partitions, unknown), pos


def _d_ForgottenTopic_v12(buf, pos):
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
    return ForgottenTopic(f_topic, UUID_ZERO, f_partitions, unknown), pos


def _d_FetchRequest_v12(buf, pos):
    f_replica_id, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch = _S3u(buf, pos)
    pos += 25
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_FetchTopic_v12(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_forgotten_topics_data = []
    append = f_forgotten_topics_data.append
    for _ in range(n):
        item, pos = _d_ForgottenTopic_v12(buf, pos)
        append(item)
    f_rack_id, pos = read_compact_string(buf, pos)
    f_cluster_id = None
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                f_cluster_id, p = read_compact_nullable_string(buf, p)
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return FetchRequest(f_cluster_id, f_replica_id, ReplicaState(), f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch, f_topics, f_forgotten_topics_data, f_rack_id, unknown), pos


def _d_FetchTopic_v13(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_FetchPartition_v12(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return FetchTopic('', f_topic_id, f_partitions, unknown), pos


def _d_ForgottenTopic_v13(buf, pos):
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
    return ForgottenTopic('', f_topic_id, f_partitions, unknown), pos


def _d_FetchRequest_v13(buf, pos):
    f_replica_id, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch = _S3u(buf, pos)
    pos += 25
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_FetchTopic_v13(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_forgotten_topics_data = []
    append = f_forgotten_topics_data.append
    for _ in range(n):
        item, pos = _d_ForgottenTopic_v13(buf, pos)
        append(item)
    f_rack_id, pos = read_compact_string(buf, pos)
    f_cluster_id = None
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                f_cluster_id, p = read_compact_nullable_string(buf, p)
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return FetchRequest(f_cluster_id, f_replica_id, ReplicaState(), f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch, f_topics, f_forgotten_topics_data, f_rack_id, unknown), pos


def _d_ReplicaState_v15(buf, pos):
    f_replica_id, f_replica_epoch = _S7u(buf, pos)
    pos += 12
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ReplicaState(f_replica_id, f_replica_epoch, unknown), pos


def _d_FetchRequest_v15(buf, pos):
    f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch = _S6u(buf, pos)
    pos += 21
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_FetchTopic_v13(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_forgotten_topics_data = []
    append = f_forgotten_topics_data.append
    for _ in range(n):
        item, pos = _d_ForgottenTopic_v13(buf, pos)
        append(item)
    f_rack_id, pos = read_compact_string(buf, pos)
    f_cluster_id = None
    f_replica_state = ReplicaState()
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                f_cluster_id, p = read_compact_nullable_string(buf, p)
            elif tag == 1:
                f_replica_state, p = _d_ReplicaState_v15(buf, p)
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return FetchRequest(f_cluster_id, -1, f_replica_state, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch, f_topics, f_forgotten_topics_data, f_rack_id, unknown), pos


def _d_FetchPartition_v17(buf, pos):
    f_partition, f_current_leader_epoch, f_fetch_offset, f_last_fetched_epoch, f_log_start_offset, f_partition_max_bytes = _S5u(buf, pos)
    pos += 32
    f_replica_directory_id = UUID_ZERO
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                f_replica_directory_id, p = read_uuid(buf, p)
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return FetchPartition(f_partition, f_current_leader_epoch, f_fetch_offset, f_last_fetched_epoch, f_log_start_offset, f_partition_max_bytes, f_replica_directory_id, 9223372036854775807, unknown), pos


def _d_FetchTopic_v17(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_FetchPartition_v17(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return FetchTopic('', f_topic_id, f_partitions, unknown), pos


def _d_FetchRequest_v17(buf, pos):
    f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch = _S6u(buf, pos)
    pos += 21
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_FetchTopic_v17(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_forgotten_topics_data = []
    append = f_forgotten_topics_data.append
    for _ in range(n):
        item, pos = _d_ForgottenTopic_v13(buf, pos)
        append(item)
    f_rack_id, pos = read_compact_string(buf, pos)
    f_cluster_id = None
    f_replica_state = ReplicaState()
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                f_cluster_id, p = read_compact_nullable_string(buf, p)
            elif tag == 1:
                f_replica_state, p = _d_ReplicaState_v15(buf, p)
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return FetchRequest(f_cluster_id, -1, f_replica_state, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch, f_topics, f_forgotten_topics_data, f_rack_id, unknown), pos


def _d_FetchPartition_v18(buf, pos):
    f_partition, f_current_leader_epoch, f_fetch_offset, f_last_fetched_epoch, f_log_start_offset, f_partition_max_bytes = _S5u(buf, pos)
    pos += 32
    f_replica_directory_id = UUID_ZERO
    f_high_watermark = 9223372036854775807
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                f_replica_directory_id, p = read_uuid(buf, p)
            elif tag == 1:
                f_high_watermark = _S8u(buf, p)[0]
                p += 8
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return FetchPartition(f_partition, f_current_leader_epoch, f_fetch_offset, f_last_fetched_epoch, f_log_start_offset, f_partition_max_bytes, f_replica_directory_id, f_high_watermark, unknown), pos


def _d_FetchTopic_v18(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_FetchPartition_v18(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return FetchTopic('', f_topic_id, f_partitions, unknown), pos


def _d_FetchRequest_v18(buf, pos):
    f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch = _S6u(buf, pos)
    pos += 21
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_FetchTopic_v18(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_forgotten_topics_data = []
    append = f_forgotten_topics_data.append
    for _ in range(n):
        item, pos = _d_ForgottenTopic_v13(buf, pos)
        append(item)
    f_rack_id, pos = read_compact_string(buf, pos)
    f_cluster_id = None
    f_replica_state = ReplicaState()
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                f_cluster_id, p = read_compact_nullable_string(buf, p)
            elif tag == 1:
                f_replica_state, p = _d_ReplicaState_v15(buf, p)
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return FetchRequest(f_cluster_id, -1, f_replica_state, f_max_wait_ms, f_min_bytes, f_max_bytes, f_isolation_level, f_session_id, f_session_epoch, f_topics, f_forgotten_topics_data, f_rack_id, unknown), pos


def _e_FetchPartition_v4(o, out):
    out += _S7p(o.partition, o.fetch_offset)
    if o.last_fetched_epoch != -1:
        raise UnsupportedFieldError('FetchRequest v4 cannot carry a non-default LastFetchedEpoch')
    out += _S9p(o.partition_max_bytes)


def _e_FetchTopic_v4(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_FetchPartition_v4(item, out)


def _e_FetchRequest_v4(o, out):
    out += _S9p(o.replica_id)
    if o.replica_state != ReplicaState():
        raise UnsupportedFieldError('FetchRequest v4 cannot carry a non-default ReplicaState')
    out += _S10p(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_FetchTopic_v4(item, out)
    if o.forgotten_topics_data:
        raise UnsupportedFieldError('FetchRequest v4 cannot carry a non-default ForgottenTopicsData')


def _e_FetchPartition_v5(o, out):
    out += _S7p(o.partition, o.fetch_offset)
    if o.last_fetched_epoch != -1:
        raise UnsupportedFieldError('FetchRequest v5 cannot carry a non-default LastFetchedEpoch')
    out += _S11p(o.log_start_offset, o.partition_max_bytes)


def _e_FetchTopic_v5(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_FetchPartition_v5(item, out)


def _e_FetchRequest_v5(o, out):
    out += _S9p(o.replica_id)
    if o.replica_state != ReplicaState():
        raise UnsupportedFieldError('FetchRequest v5 cannot carry a non-default ReplicaState')
    out += _S10p(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_FetchTopic_v5(item, out)
    if o.forgotten_topics_data:
        raise UnsupportedFieldError('FetchRequest v5 cannot carry a non-default ForgottenTopicsData')


def _e_FetchPartition_v6(o, out):
    out += _S7p(o.partition, o.fetch_offset)
    if o.last_fetched_epoch != -1:
        raise UnsupportedFieldError('FetchRequest v6 cannot carry a non-default LastFetchedEpoch')
    out += _S11p(o.log_start_offset, o.partition_max_bytes)


def _e_FetchTopic_v6(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_FetchPartition_v6(item, out)


def _e_FetchRequest_v6(o, out):
    out += _S9p(o.replica_id)
    if o.replica_state != ReplicaState():
        raise UnsupportedFieldError('FetchRequest v6 cannot carry a non-default ReplicaState')
    out += _S10p(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_FetchTopic_v6(item, out)
    if o.forgotten_topics_data:
        raise UnsupportedFieldError('FetchRequest v6 cannot carry a non-default ForgottenTopicsData')


def _e_FetchPartition_v7(o, out):
    out += _S7p(o.partition, o.fetch_offset)
    if o.last_fetched_epoch != -1:
        raise UnsupportedFieldError('FetchRequest v7 cannot carry a non-default LastFetchedEpoch')
    out += _S11p(o.log_start_offset, o.partition_max_bytes)


def _e_FetchTopic_v7(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_FetchPartition_v7(item, out)


def _e_ForgottenTopic_v7(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    out += pack('>%di' % len(value), *value)


def _e_FetchRequest_v7(o, out):
    out += _S9p(o.replica_id)
    if o.replica_state != ReplicaState():
        raise UnsupportedFieldError('FetchRequest v7 cannot carry a non-default ReplicaState')
    out += _S6p(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_FetchTopic_v7(item, out)
    value = o.forgotten_topics_data
    write_array_len(out, value)
    for item in value:
        _e_ForgottenTopic_v7(item, out)


def _e_FetchPartition_v8(o, out):
    out += _S7p(o.partition, o.fetch_offset)
    if o.last_fetched_epoch != -1:
        raise UnsupportedFieldError('FetchRequest v8 cannot carry a non-default LastFetchedEpoch')
    out += _S11p(o.log_start_offset, o.partition_max_bytes)


def _e_FetchTopic_v8(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_FetchPartition_v8(item, out)


def _e_FetchRequest_v8(o, out):
    out += _S9p(o.replica_id)
    if o.replica_state != ReplicaState():
        raise UnsupportedFieldError('FetchRequest v8 cannot carry a non-default ReplicaState')
    out += _S6p(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_FetchTopic_v8(item, out)
    value = o.forgotten_topics_data
    write_array_len(out, value)
    for item in value:
        _e_ForgottenTopic_v7(item, out)


def _e_FetchPartition_v9(o, out):
    out += _S12p(o.partition, o.current_leader_epoch, o.fetch_offset)
    if o.last_fetched_epoch != -1:
        raise UnsupportedFieldError('FetchRequest v9 cannot carry a non-default LastFetchedEpoch')
    out += _S11p(o.log_start_offset, o.partition_max_bytes)


def _e_FetchTopic_v9(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_FetchPartition_v9(item, out)


def _e_FetchRequest_v9(o, out):
    out += _S9p(o.replica_id)
    if o.replica_state != ReplicaState():
        raise UnsupportedFieldError('FetchRequest v9 cannot carry a non-default ReplicaState')
    out += _S6p(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_FetchTopic_v9(item, out)
    value = o.forgotten_topics_data
    write_array_len(out, value)
    for item in value:
        _e_ForgottenTopic_v7(item, out)


def _e_FetchPartition_v10(o, out):
    out += _S12p(o.partition, o.current_leader_epoch, o.fetch_offset)
    if o.last_fetched_epoch != -1:
        raise UnsupportedFieldError('FetchRequest v10 cannot carry a non-default LastFetchedEpoch')
    out += _S11p(o.log_start_offset, o.partition_max_bytes)


def _e_FetchTopic_v10(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_FetchPartition_v10(item, out)


def _e_FetchRequest_v10(o, out):
    out += _S9p(o.replica_id)
    if o.replica_state != ReplicaState():
        raise UnsupportedFieldError('FetchRequest v10 cannot carry a non-default ReplicaState')
    out += _S6p(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_FetchTopic_v10(item, out)
    value = o.forgotten_topics_data
    write_array_len(out, value)
    for item in value:
        _e_ForgottenTopic_v7(item, out)


def _e_FetchPartition_v11(o, out):
    out += _S12p(o.partition, o.current_leader_epoch, o.fetch_offset)
    if o.last_fetched_epoch != -1:
        raise UnsupportedFieldError('FetchRequest v11 cannot carry a non-default LastFetchedEpoch')
    out += _S11p(o.log_start_offset, o.partition_max_bytes)


def _e_FetchTopic_v11(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_FetchPartition_v11(item, out)


def _e_FetchRequest_v11(o, out):
    out += _S9p(o.replica_id)
    if o.replica_state != ReplicaState():
        raise UnsupportedFieldError('FetchRequest v11 cannot carry a non-default ReplicaState')
    out += _S6p(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_FetchTopic_v11(item, out)
    value = o.forgotten_topics_data
    write_array_len(out, value)
    for item in value:
        _e_ForgottenTopic_v7(item, out)
    write_string(out, o.rack_id)


def _e_FetchPartition_v12(o, out):
    out += _S5p(o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FetchTopic_v12(o, out):
    write_compact_string(out, o.topic)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchPartition_v12(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ForgottenTopic_v12(o, out):
    write_compact_string(out, o.topic)
    value = o.partitions
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FetchRequest_v12(o, out):
    out += _S9p(o.replica_id)
    if o.replica_state != ReplicaState():
        raise UnsupportedFieldError('FetchRequest v12 cannot carry a non-default ReplicaState')
    out += _S6p(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchTopic_v12(item, out)
    value = o.forgotten_topics_data
    write_compact_array_len(out, value)
    for item in value:
        _e_ForgottenTopic_v12(item, out)
    write_compact_string(out, o.rack_id)
    tags = list(o._unknown_tagged_fields)
    if o.cluster_id is not None:
        t = bytearray()
        write_compact_nullable_string(t, o.cluster_id)
        tags.append((0, t))
    write_tagged_fields(out, tags)


def _e_FetchTopic_v13(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchPartition_v12(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ForgottenTopic_v13(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FetchRequest_v13(o, out):
    out += _S9p(o.replica_id)
    if o.replica_state != ReplicaState():
        raise UnsupportedFieldError('FetchRequest v13 cannot carry a non-default ReplicaState')
    out += _S6p(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchTopic_v13(item, out)
    value = o.forgotten_topics_data
    write_compact_array_len(out, value)
    for item in value:
        _e_ForgottenTopic_v13(item, out)
    write_compact_string(out, o.rack_id)
    tags = list(o._unknown_tagged_fields)
    if o.cluster_id is not None:
        t = bytearray()
        write_compact_nullable_string(t, o.cluster_id)
        tags.append((0, t))
    write_tagged_fields(out, tags)


def _e_FetchRequest_v14(o, out):
    out += _S9p(o.replica_id)
    if o.replica_state != ReplicaState():
        raise UnsupportedFieldError('FetchRequest v14 cannot carry a non-default ReplicaState')
    out += _S6p(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchTopic_v13(item, out)
    value = o.forgotten_topics_data
    write_compact_array_len(out, value)
    for item in value:
        _e_ForgottenTopic_v13(item, out)
    write_compact_string(out, o.rack_id)
    tags = list(o._unknown_tagged_fields)
    if o.cluster_id is not None:
        t = bytearray()
        write_compact_nullable_string(t, o.cluster_id)
        tags.append((0, t))
    write_tagged_fields(out, tags)


def _e_ReplicaState_v15(o, out):
    out += _S7p(o.replica_id, o.replica_epoch)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FetchRequest_v15(o, out):
    if o.replica_id != -1:
        raise UnsupportedFieldError('FetchRequest v15 cannot carry a non-default ReplicaId')
    out += _S6p(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchTopic_v13(item, out)
    value = o.forgotten_topics_data
    write_compact_array_len(out, value)
    for item in value:
        _e_ForgottenTopic_v13(item, out)
    write_compact_string(out, o.rack_id)
    tags = list(o._unknown_tagged_fields)
    if o.cluster_id is not None:
        t = bytearray()
        write_compact_nullable_string(t, o.cluster_id)
        tags.append((0, t))
    if o.replica_state != ReplicaState():
        t = bytearray()
        _e_ReplicaState_v15(o.replica_state, t)
        tags.append((1, t))
    write_tagged_fields(out, tags)


def _e_FetchRequest_v16(o, out):
    if o.replica_id != -1:
        raise UnsupportedFieldError('FetchRequest v16 cannot carry a non-default ReplicaId')
    out += _S6p(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchTopic_v13(item, out)
    value = o.forgotten_topics_data
    write_compact_array_len(out, value)
    for item in value:
        _e_ForgottenTopic_v13(item, out)
    write_compact_string(out, o.rack_id)
    tags = list(o._unknown_tagged_fields)
    if o.cluster_id is not None:
        t = bytearray()
        write_compact_nullable_string(t, o.cluster_id)
        tags.append((0, t))
    if o.replica_state != ReplicaState():
        t = bytearray()
        _e_ReplicaState_v15(o.replica_state, t)
        tags.append((1, t))
    write_tagged_fields(out, tags)


def _e_FetchPartition_v17(o, out):
    out += _S5p(o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes)
    tags = list(o._unknown_tagged_fields)
    if o.replica_directory_id != UUID_ZERO:
        t = bytearray()
        write_uuid(t, o.replica_directory_id)
        tags.append((0, t))
    write_tagged_fields(out, tags)


def _e_FetchTopic_v17(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchPartition_v17(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FetchRequest_v17(o, out):
    if o.replica_id != -1:
        raise UnsupportedFieldError('FetchRequest v17 cannot carry a non-default ReplicaId')
    out += _S6p(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchTopic_v17(item, out)
    value = o.forgotten_topics_data
    write_compact_array_len(out, value)
    for item in value:
        _e_ForgottenTopic_v13(item, out)
    write_compact_string(out, o.rack_id)
    tags = list(o._unknown_tagged_fields)
    if o.cluster_id is not None:
        t = bytearray()
        write_compact_nullable_string(t, o.cluster_id)
        tags.append((0, t))
    if o.replica_state != ReplicaState():
        t = bytearray()
        _e_ReplicaState_v15(o.replica_state, t)
        tags.append((1, t))
    write_tagged_fields(out, tags)


def _e_FetchPartition_v18(o, out):
    out += _S5p(o.partition, o.current_leader_epoch, o.fetch_offset, o.last_fetched_epoch, o.log_start_offset, o.partition_max_bytes)
    tags = list(o._unknown_tagged_fields)
    if o.replica_directory_id != UUID_ZERO:
        t = bytearray()
        write_uuid(t, o.replica_directory_id)
        tags.append((0, t))
    if o.high_watermark != 9223372036854775807:
        t = bytearray()
        t += _S8p(o.high_watermark)
        tags.append((1, t))
    write_tagged_fields(out, tags)


def _e_FetchTopic_v18(o, out):
    write_uuid(out, o.topic_id)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchPartition_v18(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FetchRequest_v18(o, out):
    if o.replica_id != -1:
        raise UnsupportedFieldError('FetchRequest v18 cannot carry a non-default ReplicaId')
    out += _S6p(o.max_wait_ms, o.min_bytes, o.max_bytes, o.isolation_level, o.session_id, o.session_epoch)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_FetchTopic_v18(item, out)
    value = o.forgotten_topics_data
    write_compact_array_len(out, value)
    for item in value:
        _e_ForgottenTopic_v13(item, out)
    write_compact_string(out, o.rack_id)
    tags = list(o._unknown_tagged_fields)
    if o.cluster_id is not None:
        t = bytearray()
        write_compact_nullable_string(t, o.cluster_id)
        tags.append((0, t))
    if o.replica_state != ReplicaState():
        t = bytearray()
        _e_ReplicaState_v15(o.replica_state, t)
        tags.append((1, t))
    write_tagged_fields(out, tags)


FetchRequest._DECODERS = {
    4: _d_FetchRequest_v4,
    5: _d_FetchRequest_v5,
    6: _d_FetchRequest_v5,
    7: _d_FetchRequest_v7,
    8: _d_FetchRequest_v7,
    9: _d_FetchRequest_v9,
    10: _d_FetchRequest_v9,
    11: _d_FetchRequest_v11,
    12: _d_FetchRequest_v12,
    13: _d_FetchRequest_v13,
    14: _d_FetchRequest_v13,
    15: _d_FetchRequest_v15,
    16: _d_FetchRequest_v15,
    17: _d_FetchRequest_v17,
    18: _d_FetchRequest_v18,
}
FetchRequest._ENCODERS = {
    4: _e_FetchRequest_v4,
    5: _e_FetchRequest_v5,
    6: _e_FetchRequest_v6,
    7: _e_FetchRequest_v7,
    8: _e_FetchRequest_v8,
    9: _e_FetchRequest_v9,
    10: _e_FetchRequest_v10,
    11: _e_FetchRequest_v11,
    12: _e_FetchRequest_v12,
    13: _e_FetchRequest_v13,
    14: _e_FetchRequest_v14,
    15: _e_FetchRequest_v15,
    16: _e_FetchRequest_v16,
    17: _e_FetchRequest_v17,
    18: _e_FetchRequest_v18,
}
