# Generated from protocol/schemas/CreateTopicsRequest.json by codegen; do not edit.
"""CreateTopicsRequest: request, api key 19, versions 2-7."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
    read_array_len,
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_unknown_tags,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "CreatableReplicaAssignment",
    "CreatableTopicConfig",
    "CreatableTopic",
    "CreateTopicsRequest",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>i?')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>iB')
_S3u = _S3.unpack_from
_S3p = _S3.pack


@dataclass(slots=True)
class CreatableReplicaAssignment:
    """Explicit partition assignment, or an empty array when assignment is automatic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 7), 'broker_ids': (0, 7)}

    partition_index: int = 0
    """Index of the partition."""

    broker_ids: list[int] = field(default_factory=list)
    """Brokers that should host the partition."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class CreatableTopicConfig:
    """Custom configurations to apply to the topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 7), 'value': (0, 7)}

    name: str = ''
    """Name of the configuration."""

    value: str | None = ''
    """Value of the configuration."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class CreatableTopic:
    """Topics that should be created."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 7), 'num_partitions': (0, 7), 'replication_factor': (0, 7), 'assignments': (0, 7), 'configs': (0, 7)}

    name: str = ''
    """Name of the topic."""

    num_partitions: int = 0
    """Partition count for the new topic, or -1 when a manual partition assignment is given or the default partition count should be used."""

    replication_factor: int = 0
    """Replica count for every partition of the new topic, or -1 when a manual partition assignment is given or the default replication factor should be used."""

    assignments: list[CreatableReplicaAssignment] = field(default_factory=list)
    """Explicit partition assignment, or an empty array when assignment is automatic."""

    configs: list[CreatableTopicConfig] = field(default_factory=list)
    """Custom configurations to apply to the topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class CreateTopicsRequest(Message):
    """CreateTopicsRequest, api key 19."""

    API_KEY: ClassVar[int] = 19
    NAME: ClassVar[str] = 'CreateTopicsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 2
    MAX_VERSION: ClassVar[int] = 7
    FLEXIBLE_MIN: ClassVar[int | None] = 5
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topics': (0, 7), 'timeout_ms': (0, 7), 'validate_only': (1, 7)}

    topics: list[CreatableTopic] = field(default_factory=list)
    """Topics that should be created."""

    timeout_ms: int = 60000
    """Time in milliseconds to wait before the request times out."""

    validate_only: bool = False
    """When true, only check that the topics could be created as described, without creating anything."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_CreatableReplicaAssignment_v2(buf, pos):
    f_partition_index = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_broker_ids = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    return CreatableReplicaAssignment(f_partition_index, f_broker_ids), pos


def _d_CreatableTopicConfig_v2(buf, pos):
    f_name, pos = read_string(buf, pos)
    f_value, pos = read_nullable_string(buf, pos)
    return CreatableTopicConfig(f_name, f_value), pos


def _d_CreatableTopic_v2(buf, pos):
    f_name, pos = read_string(buf, pos)
    f_num_partitions, f_replication_factor = _S0u(buf, pos)
    pos += 6
    n, pos = read_array_len(buf, pos)
    f_assignments = []
    append = f_assignments.append
    for _ in range(n):
        item, pos = _d_CreatableReplicaAssignment_v2(buf, pos)
        append(item)
    n, pos = read_array_len(buf, pos)
    f_configs = []
    append = f_configs.append
    for _ in range(n):
        item, pos = _d_CreatableTopicConfig_v2(buf, pos)
        append(item)
    return CreatableTopic(f_name, f_num_partitions, f_replication_factor, f_assignments, f_configs), pos


def _d_CreateTopicsRequest_v2(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_CreatableTopic_v2(buf, pos)
        append(item)
    f_timeout_ms, f_validate_only = _S2u(buf, pos)
    pos += 5
    return CreateTopicsRequest(f_topics, f_timeout_ms, f_validate_only), pos


def _d_CreatableReplicaAssignment_v5(buf, pos):
    f_partition_index = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_broker_ids = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CreatableReplicaAssignment(f_partition_index, f_broker_ids, unknown), pos


def _d_CreatableTopicConfig_v5(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_value, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CreatableTopicConfig(f_name, f_value, unknown), pos


def _d_CreatableTopic_v5(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_num_partitions, f_replication_factor = _S0u(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos)
    f_assignments = []
    append = f_assignments.append
    for _ in range(n):
        item, pos = _d_CreatableReplicaAssignment_v5(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_configs = []
    append = f_configs.append
    for _ in range(n):
        item, pos = _d_CreatableTopicConfig_v5(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CreatableTopic(f_name, f_num_partitions, f_replication_factor, f_assignments, f_configs, unknown), pos


def _d_CreateTopicsRequest_v5(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_CreatableTopic_v5(buf, pos)
        append(item)
    f_timeout_ms, f_validate_only = _S2u(buf, pos)
    pos += 5
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CreateTopicsRequest(f_topics, f_timeout_ms, f_validate_only, unknown), pos


def _e_CreatableReplicaAssignment_v2(o, out):
    out += _S1p(o.partition_index)
    value = o.broker_ids
    write_array_len(out, value)
    out += pack('>%di' % len(value), *value)


def _e_CreatableTopicConfig_v2(o, out):
    write_string(out, o.name)
    write_nullable_string(out, o.value)


def _e_CreatableTopic_v2(o, out):
    write_string(out, o.name)
    out += _S0p(o.num_partitions, o.replication_factor)
    value = o.assignments
    write_array_len(out, value)
    for item in value:
        _e_CreatableReplicaAssignment_v2(item, out)
    value = o.configs
    write_array_len(out, value)
    for item in value:
        _e_CreatableTopicConfig_v2(item, out)


def _e_CreateTopicsRequest_v2(o, out):
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_CreatableTopic_v2(item, out)
    out += _S3p(o.timeout_ms, o.validate_only)


def _e_CreatableReplicaAssignment_v5(o, out):
    out += _S1p(o.partition_index)
    value = o.broker_ids
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_CreatableTopicConfig_v5(o, out):
    write_compact_string(out, o.name)
    write_compact_nullable_string(out, o.value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_CreatableTopic_v5(o, out):
    write_compact_string(out, o.name)
    out += _S0p(o.num_partitions, o.replication_factor)
    value = o.assignments
    write_compact_array_len(out, value)
    for item in value:
        _e_CreatableReplicaAssignment_v5(item, out)
    value = o.configs
    write_compact_array_len(out, value)
    for item in value:
        _e_CreatableTopicConfig_v5(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_CreateTopicsRequest_v5(o, out):
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_CreatableTopic_v5(item, out)
    out += _S3p(o.timeout_ms, o.validate_only)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


CreateTopicsRequest._DECODERS = {
    2: _d_CreateTopicsRequest_v2,
    3: _d_CreateTopicsRequest_v2,
    4: _d_CreateTopicsRequest_v2,
    5: _d_CreateTopicsRequest_v5,
    6: _d_CreateTopicsRequest_v5,
    7: _d_CreateTopicsRequest_v5,
}
CreateTopicsRequest._ENCODERS = {
    2: _e_CreateTopicsRequest_v2,
    3: _e_CreateTopicsRequest_v2,
    4: _e_CreateTopicsRequest_v2,
    5: _e_CreateTopicsRequest_v5,
    6: _e_CreateTopicsRequest_v5,
    7: _e_CreateTopicsRequest_v5,
}
