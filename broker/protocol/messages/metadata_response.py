# Generated from protocol/schemas/MetadataResponse.json by codegen; do not edit.
"""MetadataResponse: response, api key 3, versions 0-13."""

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
    "MetadataResponseBroker",
    "MetadataResponsePartition",
    "MetadataResponseTopic",
    "MetadataResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>h')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>hii')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>?')
_S3u = _S3.unpack_from
_S3p = _S3.pack
_S4 = Struct('>hiii')
_S4u = _S4.unpack_from
_S4p = _S4.pack
_S5 = Struct('>B')
_S5u = _S5.unpack_from
_S5p = _S5.pack


@dataclass(slots=True)
class MetadataResponseBroker:
    """Brokers that are currently part of the cluster."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'node_id': (0, 13), 'host': (0, 13), 'port': (0, 13), 'rack': (1, 13)}

    node_id: int = 0
    """ID of the broker."""

    host: str = ''
    """Hostname of the broker."""

    port: int = 0
    """Port the broker listens on."""

    rack: str | None = None
    """Rack the broker is assigned to, or null when no rack is set."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class MetadataResponsePartition:
    """One entry per partition of the topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 13), 'partition_index': (0, 13), 'leader_id': (0, 13), 'leader_epoch': (7, 13), 'replica_nodes': (0, 13), 'isr_nodes': (0, 13), 'offline_replicas': (5, 13)}

    error_code: int = 0
    """Error code for the partition, or 0 when there was no error."""

    partition_index: int = 0
    """Index of the partition."""

    leader_id: int = 0
    """Broker ID of the partition leader."""

    leader_epoch: int = -1
    """Leader epoch for this partition."""

    replica_nodes: list[int] = field(default_factory=list)
    """All nodes holding a replica of this partition."""

    isr_nodes: list[int] = field(default_factory=list)
    """Nodes whose replicas of this partition are in sync with the leader."""

    offline_replicas: list[int] = field(default_factory=list)
    """Replicas of this partition that are offline."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class MetadataResponseTopic:
    """One entry per topic in the response."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 13), 'name': (0, 13), 'topic_id': (10, 13), 'is_internal': (1, 13), 'partitions': (0, 13), 'topic_authorized_operations': (8, 13)}

    error_code: int = 0
    """Error code for the topic, or 0 when there was no error."""

    name: str | None = ''
    """Name of the topic; null when a topic looked up by ID does not exist. It is always set when ErrorCode is zero, and at least one of Name and TopicId is always present."""

    topic_id: uuid.UUID = UUID_ZERO
    """ID of the topic; zero when a topic looked up by name does not exist. It is always non-zero when ErrorCode is zero, and at least one of Name and TopicId is always present."""

    is_internal: bool = False
    """Indicates whether the topic is internal."""

    partitions: list[MetadataResponsePartition] = field(default_factory=list)
    """One entry per partition of the topic."""

    topic_authorized_operations: int = -2147483648
    """Bitfield (32 bits) encoding the operations authorized on this topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class MetadataResponse(Message):
    """MetadataResponse, api key 3."""

    API_KEY: ClassVar[int] = 3
    NAME: ClassVar[str] = 'MetadataResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 13
    FLEXIBLE_MIN: ClassVar[int | None] = 9
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (3, 13), 'brokers': (0, 13), 'cluster_id': (2, 13), 'controller_id': (1, 13), 'topics': (0, 13), 'cluster_authorized_operations': (8, 10), 'error_code': (13, 13)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    brokers: list[MetadataResponseBroker] = field(default_factory=list)
    """Brokers that are currently part of the cluster."""

    cluster_id: str | None = None
    """ID of the cluster the responding broker is part of."""

    controller_id: int = -1
    """Broker ID of the active controller."""

    topics: list[MetadataResponseTopic] = field(default_factory=list)
    """One entry per topic in the response."""

    cluster_authorized_operations: int = -2147483648
    """Bitfield (32 bits) encoding the operations authorized on this cluster."""

    error_code: int = 0
    """Error code for the whole response; 0 means success."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_MetadataResponseBroker_v0(buf, pos):
    f_node_id = _S0u(buf, pos)[0]
    pos += 4
    f_host, pos = read_string(buf, pos)
    f_port = _S0u(buf, pos)[0]
    pos += 4
    return MetadataResponseBroker(f_node_id, f_host, f_port, None), pos


def _d_MetadataResponsePartition_v0(buf, pos):
    f_error_code, f_partition_index, f_leader_id = _S2u(buf, pos)
    pos += 10
    n, pos = read_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_replica_nodes = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    n, pos = read_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_isr_nodes = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    return MetadataResponsePartition(f_error_code, f_partition_index, f_leader_id, -1, f_replica_nodes, f_isr_nodes, []), pos


def _d_MetadataResponseTopic_v0(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_MetadataResponsePartition_v0(buf, pos)
        append(item)
    return MetadataResponseTopic(f_error_code, f_name, UUID_ZERO, False, f_partitions, -2147483648), pos


def _d_MetadataResponse_v0(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_brokers = []
    append = f_brokers.append
    for _ in range(n):
        item, pos = _d_MetadataResponseBroker_v0(buf, pos)
        append(item)
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_MetadataResponseTopic_v0(buf, pos)
        append(item)
    return MetadataResponse(0, f_brokers, None, -1, f_topics, -2147483648, 0), pos


def _d_MetadataResponseBroker_v1(buf, pos):
    f_node_id = _S0u(buf, pos)[0]
    pos += 4
    f_host, pos = read_string(buf, pos)
    f_port = _S0u(buf, pos)[0]
    pos += 4
    f_rack, pos = read_nullable_string(buf, pos)
    return MetadataResponseBroker(f_node_id, f_host, f_port, f_rack), pos


def _d_MetadataResponseTopic_v1(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_name, pos = read_string(buf, pos)
    f_is_internal = _S3u(buf, pos)[0]
    pos += 1
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_MetadataResponsePartition_v0(buf, pos)
        append(item)
    return MetadataResponseTopic(f_error_code, f_name, UUID_ZERO, f_is_internal, f_partitions, -2147483648), pos


def _d_MetadataResponse_v1(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_brokers = []
    append = f_brokers.append
    for _ in range(n):
        item, pos = _d_MetadataResponseBroker_v1(buf, pos)
        append(item)
    f_controller_id = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_MetadataResponseTopic_v1(buf, pos)
        append(item)
    return MetadataResponse(0, f_brokers, None, f_controller_id, f_topics, -2147483648, 0), pos


def _d_MetadataResponse_v2(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_brokers = []
    append = f_brokers.append
    for _ in range(n):
        item, pos = _d_MetadataResponseBroker_v1(buf, pos)
        append(item)
    f_cluster_id, pos = read_nullable_string(buf, pos)
    f_controller_id = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_MetadataResponseTopic_v1(buf, pos)
        append(item)
    return MetadataResponse(0, f_brokers, f_cluster_id, f_controller_id, f_topics, -2147483648, 0), pos


def _d_MetadataResponse_v3(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_brokers = []
    append = f_brokers.append
    for _ in range(n):
        item, pos = _d_MetadataResponseBroker_v1(buf, pos)
        append(item)
    f_cluster_id, pos = read_nullable_string(buf, pos)
    f_controller_id = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_MetadataResponseTopic_v1(buf, pos)
        append(item)
    return MetadataResponse(f_throttle_time_ms, f_brokers, f_cluster_id, f_controller_id, f_topics, -2147483648, 0), pos


def _d_MetadataResponsePartition_v5(buf, pos):
    f_error_code, f_partition_index, f_leader_id = _S2u(buf, pos)
    pos += 10
    n, pos = read_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_replica_nodes = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    n, pos = read_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_isr_nodes = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    n, pos = read_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_offline_replicas = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    return MetadataResponsePartition(f_error_code, f_partition_index, f_leader_id, -1, f_replica_nodes, f_isr_nodes, f_offline_replicas), pos


def _d_MetadataResponseTopic_v5(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_name, pos = read_string(buf, pos)
    f_is_internal = _S3u(buf, pos)[0]
    pos += 1
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_MetadataResponsePartition_v5(buf, pos)
        append(item)
    return MetadataResponseTopic(f_error_code, f_name, UUID_ZERO, f_is_internal, f_partitions, -2147483648), pos


def _d_MetadataResponse_v5(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_brokers = []
    append = f_brokers.append
    for _ in range(n):
        item, pos = _d_MetadataResponseBroker_v1(buf, pos)
        append(item)
    f_cluster_id, pos = read_nullable_string(buf, pos)
    f_controller_id = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_MetadataResponseTopic_v5(buf, pos)
        append(item)
    return MetadataResponse(f_throttle_time_ms, f_brokers, f_cluster_id, f_controller_id, f_topics, -2147483648, 0), pos


def _d_MetadataResponsePartition_v7(buf, pos):
    f_error_code, f_partition_index, f_leader_id, f_leader_epoch = _S4u(buf, pos)
    pos += 14
    n, pos = read_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_replica_nodes = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    n, pos = read_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_isr_nodes = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    n, pos = read_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_offline_replicas = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    return MetadataResponsePartition(f_error_code, f_partition_index, f_leader_id, f_leader_epoch, f_replica_nodes, f_isr_nodes, f_offline_replicas), pos


def _d_MetadataResponseTopic_v7(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_name, pos = read_string(buf, pos)
    f_is_internal = _S3u(buf, pos)[0]
    pos += 1
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_MetadataResponsePartition_v7(buf, pos)
        append(item)
    return MetadataResponseTopic(f_error_code, f_name, UUID_ZERO, f_is_internal, f_partitions, -2147483648), pos


def _d_MetadataResponse_v7(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_brokers = []
    append = f_brokers.append
    for _ in range(n):
        item, pos = _d_MetadataResponseBroker_v1(buf, pos)
        append(item)
    f_cluster_id, pos = read_nullable_string(buf, pos)
    f_controller_id = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_MetadataResponseTopic_v7(buf, pos)
        append(item)
    return MetadataResponse(f_throttle_time_ms, f_brokers, f_cluster_id, f_controller_id, f_topics, -2147483648, 0), pos


def _d_MetadataResponseTopic_v8(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_name, pos = read_string(buf, pos)
    f_is_internal = _S3u(buf, pos)[0]
    pos += 1
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_MetadataResponsePartition_v7(buf, pos)
        append(item)
    f_topic_authorized_operations = _S0u(buf, pos)[0]
    pos += 4
    return MetadataResponseTopic(f_error_code, f_name, UUID_ZERO, f_is_internal, f_partitions, f_topic_authorized_operations), pos


def _d_MetadataResponse_v8(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_brokers = []
    append = f_brokers.append
    for _ in range(n):
        item, pos = _d_MetadataResponseBroker_v1(buf, pos)
        append(item)
    f_cluster_id, pos = read_nullable_string(buf, pos)
    f_controller_id = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_MetadataResponseTopic_v8(buf, pos)
        append(item)
    f_cluster_authorized_operations = _S0u(buf, pos)[0]
    pos += 4
    return MetadataResponse(f_throttle_time_ms, f_brokers, f_cluster_id, f_controller_id, f_topics, f_cluster_authorized_operations, 0), pos


def _d_MetadataResponseBroker_v9(buf, pos):
    f_node_id = _S0u(buf, pos)[0]
    pos += 4
    f_host, pos = read_compact_string(buf, pos)
    f_port = _S0u(buf, pos)[0]
    pos += 4
    f_rack, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return MetadataResponseBroker(f_node_id, f_host, f_port, f_rack, unknown), pos


def _d_MetadataResponsePartition_v9(buf, pos):
    f_error_code, f_partition_index, f_leader_id, f_leader_epoch = _S4u(buf, pos)
    pos += 14
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_replica_nodes = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_isr_nodes = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_offline_replicas = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return MetadataResponsePartition(f_error_code, f_partition_index, f_leader_id, f_leader_epoch, f_replica_nodes, f_isr_nodes, f_offline_replicas, unknown), pos


def _d_MetadataResponseTopic_v9(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_name, pos = read_compact_string(buf, pos)
    f_is_internal = _S3u(buf, pos)[0]
    pos += 1
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_MetadataResponsePartition_v9(buf, pos)
        append(item)
    f_topic_authorized_operations = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return MetadataResponseTopic(f_error_code, f_name, UUID_ZERO, f_is_internal, f_partitions, f_topic_authorized_operations, unknown), pos


def _d_MetadataResponse_v9(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_brokers = []
    append = f_brokers.append
    for _ in range(n):
        item, pos = _d_MetadataResponseBroker_v9(buf, pos)
        append(item)
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
    f_controller_id = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_MetadataResponseTopic_v9(buf, pos)
        append(item)
    f_cluster_authorized_operations = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return MetadataResponse(f_throttle_time_ms, f_brokers, f_cluster_id, f_controller_id, f_topics, f_cluster_authorized_operations, 0, unknown), pos


def _d_MetadataResponseTopic_v10(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_name, pos = read_compact_string(buf, pos)
    f_topic_id, pos = read_uuid(buf, pos)
    f_is_internal = _S3u(buf, pos)[0]
    pos += 1
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_MetadataResponsePartition_v9(buf, pos)
        append(item)
    f_topic_authorized_operations = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return MetadataResponseTopic(f_error_code, f_name, f_topic_id, f_is_internal, f_partitions, f_topic_authorized_operations, unknown), pos


def _d_MetadataResponse_v10(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_brokers = []
    append = f_brokers.append
    for _ in range(n):
        item, pos = _d_MetadataResponseBroker_v9(buf, pos)
        append(item)
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
    f_controller_id = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_MetadataResponseTopic_v10(buf, pos)
        append(item)
    f_cluster_authorized_operations = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return MetadataResponse(f_throttle_time_ms, f_brokers, f_cluster_id, f_controller_id, f_topics, f_cluster_authorized_operations, 0, unknown), pos


def _d_MetadataResponse_v11(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_brokers = []
    append = f_brokers.append
    for _ in range(n):
        item, pos = _d_MetadataResponseBroker_v9(buf, pos)
        append(item)
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
    f_controller_id = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_MetadataResponseTopic_v10(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return MetadataResponse(f_throttle_time_ms, f_brokers, f_cluster_id, f_controller_id, f_topics, -2147483648, 0, unknown), pos


def _d_MetadataResponseTopic_v12(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_name, pos = read_compact_nullable_string(buf, pos)
    f_topic_id, pos = read_uuid(buf, pos)
    f_is_internal = _S3u(buf, pos)[0]
    pos += 1
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_MetadataResponsePartition_v9(buf, pos)
        append(item)
    f_topic_authorized_operations = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return MetadataResponseTopic(f_error_code, f_name, f_topic_id, f_is_internal, f_partitions, f_topic_authorized_operations, unknown), pos


def _d_MetadataResponse_v12(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_brokers = []
    append = f_brokers.append
    for _ in range(n):
        item, pos = _d_MetadataResponseBroker_v9(buf, pos)
        append(item)
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
    f_controller_id = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_MetadataResponseTopic_v12(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return MetadataResponse(f_throttle_time_ms, f_brokers, f_cluster_id, f_controller_id, f_topics, -2147483648, 0, unknown), pos


def _d_MetadataResponse_v13(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_brokers = []
    append = f_brokers.append
    for _ in range(n):
        item, pos = _d_MetadataResponseBroker_v9(buf, pos)
        append(item)
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
    f_controller_id = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_MetadataResponseTopic_v12(buf, pos)
        append(item)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return MetadataResponse(f_throttle_time_ms, f_brokers, f_cluster_id, f_controller_id, f_topics, -2147483648, f_error_code, unknown), pos


def _e_MetadataResponseBroker_v0(o, out):
    out += _S0p(o.node_id)
    write_string(out, o.host)
    out += _S0p(o.port)


def _e_MetadataResponsePartition_v0(o, out):
    out += _S2p(o.error_code, o.partition_index, o.leader_id)
    value = o.replica_nodes
    write_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    value = o.isr_nodes
    write_array_len(out, value)
    out += pack('>%di' % len(value), *value)


def _e_MetadataResponseTopic_v0(o, out):
    out += _S1p(o.error_code)
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponsePartition_v0(item, out)
    if o.topic_authorized_operations != -2147483648:
        raise UnsupportedFieldError('MetadataResponse v0 cannot carry a non-default TopicAuthorizedOperations')


def _e_MetadataResponse_v0(o, out):
    value = o.brokers
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponseBroker_v0(item, out)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponseTopic_v0(item, out)
    if o.cluster_authorized_operations != -2147483648:
        raise UnsupportedFieldError('MetadataResponse v0 cannot carry a non-default ClusterAuthorizedOperations')


def _e_MetadataResponseBroker_v1(o, out):
    out += _S0p(o.node_id)
    write_string(out, o.host)
    out += _S0p(o.port)
    write_nullable_string(out, o.rack)


def _e_MetadataResponseTopic_v1(o, out):
    out += _S1p(o.error_code)
    write_string(out, o.name)
    out += _S5p(o.is_internal)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponsePartition_v0(item, out)
    if o.topic_authorized_operations != -2147483648:
        raise UnsupportedFieldError('MetadataResponse v1 cannot carry a non-default TopicAuthorizedOperations')


def _e_MetadataResponse_v1(o, out):
    value = o.brokers
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponseBroker_v1(item, out)
    out += _S0p(o.controller_id)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponseTopic_v1(item, out)
    if o.cluster_authorized_operations != -2147483648:
        raise UnsupportedFieldError('MetadataResponse v1 cannot carry a non-default ClusterAuthorizedOperations')


def _e_MetadataResponseTopic_v2(o, out):
    out += _S1p(o.error_code)
    write_string(out, o.name)
    out += _S5p(o.is_internal)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponsePartition_v0(item, out)
    if o.topic_authorized_operations != -2147483648:
        raise UnsupportedFieldError('MetadataResponse v2 cannot carry a non-default TopicAuthorizedOperations')


def _e_MetadataResponse_v2(o, out):
    value = o.brokers
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponseBroker_v1(item, out)
    write_nullable_string(out, o.cluster_id)
    out += _S0p(o.controller_id)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponseTopic_v2(item, out)
    if o.cluster_authorized_operations != -2147483648:
        raise UnsupportedFieldError('MetadataResponse v2 cannot carry a non-default ClusterAuthorizedOperations')


def _e_MetadataResponseTopic_v3(o, out):
    out += _S1p(o.error_code)
    write_string(out, o.name)
    out += _S5p(o.is_internal)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponsePartition_v0(item, out)
    if o.topic_authorized_operations != -2147483648:
        raise UnsupportedFieldError('MetadataResponse v3 cannot carry a non-default TopicAuthorizedOperations')


def _e_MetadataResponse_v3(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.brokers
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponseBroker_v1(item, out)
    write_nullable_string(out, o.cluster_id)
    out += _S0p(o.controller_id)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponseTopic_v3(item, out)
    if o.cluster_authorized_operations != -2147483648:
        raise UnsupportedFieldError('MetadataResponse v3 cannot carry a non-default ClusterAuthorizedOperations')


def _e_MetadataResponseTopic_v4(o, out):
    out += _S1p(o.error_code)
    write_string(out, o.name)
    out += _S5p(o.is_internal)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponsePartition_v0(item, out)
    if o.topic_authorized_operations != -2147483648:
        raise UnsupportedFieldError('MetadataResponse v4 cannot carry a non-default TopicAuthorizedOperations')


def _e_MetadataResponse_v4(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.brokers
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponseBroker_v1(item, out)
    write_nullable_string(out, o.cluster_id)
    out += _S0p(o.controller_id)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponseTopic_v4(item, out)
    if o.cluster_authorized_operations != -2147483648:
        raise UnsupportedFieldError('MetadataResponse v4 cannot carry a non-default ClusterAuthorizedOperations')


def _e_MetadataResponsePartition_v5(o, out):
    out += _S2p(o.error_code, o.partition_index, o.leader_id)
    value = o.replica_nodes
    write_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    value = o.isr_nodes
    write_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    value = o.offline_replicas
    write_array_len(out, value)
    out += pack('>%di' % len(value), *value)


def _e_MetadataResponseTopic_v5(o, out):
    out += _S1p(o.error_code)
    write_string(out, o.name)
    out += _S5p(o.is_internal)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponsePartition_v5(item, out)
    if o.topic_authorized_operations != -2147483648:
        raise UnsupportedFieldError('MetadataResponse v5 cannot carry a non-default TopicAuthorizedOperations')


def _e_MetadataResponse_v5(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.brokers
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponseBroker_v1(item, out)
    write_nullable_string(out, o.cluster_id)
    out += _S0p(o.controller_id)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponseTopic_v5(item, out)
    if o.cluster_authorized_operations != -2147483648:
        raise UnsupportedFieldError('MetadataResponse v5 cannot carry a non-default ClusterAuthorizedOperations')


def _e_MetadataResponseTopic_v6(o, out):
    out += _S1p(o.error_code)
    write_string(out, o.name)
    out += _S5p(o.is_internal)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponsePartition_v5(item, out)
    if o.topic_authorized_operations != -2147483648:
        raise UnsupportedFieldError('MetadataResponse v6 cannot carry a non-default TopicAuthorizedOperations')


def _e_MetadataResponse_v6(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.brokers
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponseBroker_v1(item, out)
    write_nullable_string(out, o.cluster_id)
    out += _S0p(o.controller_id)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponseTopic_v6(item, out)
    if o.cluster_authorized_operations != -2147483648:
        raise UnsupportedFieldError('MetadataResponse v6 cannot carry a non-default ClusterAuthorizedOperations')


def _e_MetadataResponsePartition_v7(o, out):
    out += _S4p(o.error_code, o.partition_index, o.leader_id, o.leader_epoch)
    value = o.replica_nodes
    write_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    value = o.isr_nodes
    write_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    value = o.offline_replicas
    write_array_len(out, value)
    out += pack('>%di' % len(value), *value)


def _e_MetadataResponseTopic_v7(o, out):
    out += _S1p(o.error_code)
    write_string(out, o.name)
    out += _S5p(o.is_internal)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponsePartition_v7(item, out)
    if o.topic_authorized_operations != -2147483648:
        raise UnsupportedFieldError('MetadataResponse v7 cannot carry a non-default TopicAuthorizedOperations')


def _e_MetadataResponse_v7(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.brokers
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponseBroker_v1(item, out)
    write_nullable_string(out, o.cluster_id)
    out += _S0p(o.controller_id)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponseTopic_v7(item, out)
    if o.cluster_authorized_operations != -2147483648:
        raise UnsupportedFieldError('MetadataResponse v7 cannot carry a non-default ClusterAuthorizedOperations')


def _e_MetadataResponseTopic_v8(o, out):
    out += _S1p(o.error_code)
    write_string(out, o.name)
    out += _S5p(o.is_internal)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponsePartition_v7(item, out)
    out += _S0p(o.topic_authorized_operations)


def _e_MetadataResponse_v8(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.brokers
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponseBroker_v1(item, out)
    write_nullable_string(out, o.cluster_id)
    out += _S0p(o.controller_id)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_MetadataResponseTopic_v8(item, out)
    out += _S0p(o.cluster_authorized_operations)


def _e_MetadataResponseBroker_v9(o, out):
    out += _S0p(o.node_id)
    write_compact_string(out, o.host)
    out += _S0p(o.port)
    write_compact_nullable_string(out, o.rack)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_MetadataResponsePartition_v9(o, out):
    out += _S4p(o.error_code, o.partition_index, o.leader_id, o.leader_epoch)
    value = o.replica_nodes
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    value = o.isr_nodes
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    value = o.offline_replicas
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_MetadataResponseTopic_v9(o, out):
    out += _S1p(o.error_code)
    write_compact_string(out, o.name)
    out += _S5p(o.is_internal)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_MetadataResponsePartition_v9(item, out)
    out += _S0p(o.topic_authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_MetadataResponse_v9(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.brokers
    write_compact_array_len(out, value)
    for item in value:
        _e_MetadataResponseBroker_v9(item, out)
    write_compact_nullable_string(out, o.cluster_id)
    out += _S0p(o.controller_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_MetadataResponseTopic_v9(item, out)
    out += _S0p(o.cluster_authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_MetadataResponseTopic_v10(o, out):
    out += _S1p(o.error_code)
    write_compact_string(out, o.name)
    write_uuid(out, o.topic_id)
    out += _S5p(o.is_internal)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_MetadataResponsePartition_v9(item, out)
    out += _S0p(o.topic_authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_MetadataResponse_v10(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.brokers
    write_compact_array_len(out, value)
    for item in value:
        _e_MetadataResponseBroker_v9(item, out)
    write_compact_nullable_string(out, o.cluster_id)
    out += _S0p(o.controller_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_MetadataResponseTopic_v10(item, out)
    out += _S0p(o.cluster_authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_MetadataResponse_v11(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.brokers
    write_compact_array_len(out, value)
    for item in value:
        _e_MetadataResponseBroker_v9(item, out)
    write_compact_nullable_string(out, o.cluster_id)
    out += _S0p(o.controller_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_MetadataResponseTopic_v10(item, out)
    if o.cluster_authorized_operations != -2147483648:
        raise UnsupportedFieldError('MetadataResponse v11 cannot carry a non-default ClusterAuthorizedOperations')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_MetadataResponseTopic_v12(o, out):
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.name)
    write_uuid(out, o.topic_id)
    out += _S5p(o.is_internal)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_MetadataResponsePartition_v9(item, out)
    out += _S0p(o.topic_authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_MetadataResponse_v12(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.brokers
    write_compact_array_len(out, value)
    for item in value:
        _e_MetadataResponseBroker_v9(item, out)
    write_compact_nullable_string(out, o.cluster_id)
    out += _S0p(o.controller_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_MetadataResponseTopic_v12(item, out)
    if o.cluster_authorized_operations != -2147483648:
        raise UnsupportedFieldError('MetadataResponse v12 cannot carry a non-default ClusterAuthorizedOperations')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_MetadataResponse_v13(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.brokers
    write_compact_array_len(out, value)
    for item in value:
        _e_MetadataResponseBroker_v9(item, out)
    write_compact_nullable_string(out, o.cluster_id)
    out += _S0p(o.controller_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_MetadataResponseTopic_v12(item, out)
    if o.cluster_authorized_operations != -2147483648:
        raise UnsupportedFieldError('MetadataResponse v13 cannot carry a non-default ClusterAuthorizedOperations')
    out += _S1p(o.error_code)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


MetadataResponse._DECODERS = {
    0: _d_MetadataResponse_v0,
    1: _d_MetadataResponse_v1,
    2: _d_MetadataResponse_v2,
    3: _d_MetadataResponse_v3,
    4: _d_MetadataResponse_v3,
    5: _d_MetadataResponse_v5,
    6: _d_MetadataResponse_v5,
    7: _d_MetadataResponse_v7,
    8: _d_MetadataResponse_v8,
    9: _d_MetadataResponse_v9,
    10: _d_MetadataResponse_v10,
    11: _d_MetadataResponse_v11,
    12: _d_MetadataResponse_v12,
    13: _d_MetadataResponse_v13,
}
MetadataResponse._ENCODERS = {
    0: _e_MetadataResponse_v0,
    1: _e_MetadataResponse_v1,
    2: _e_MetadataResponse_v2,
    3: _e_MetadataResponse_v3,
    4: _e_MetadataResponse_v4,
    5: _e_MetadataResponse_v5,
    6: _e_MetadataResponse_v6,
    7: _e_MetadataResponse_v7,
    8: _e_MetadataResponse_v8,
    9: _e_MetadataResponse_v9,
    10: _e_MetadataResponse_v10,
    11: _e_MetadataResponse_v11,
    12: _e_MetadataResponse_v12,
    13: _e_MetadataResponse_v13,
}
