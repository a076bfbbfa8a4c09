# Generated from protocol/schemas/ElectLeadersResponse.json by codegen; do not edit.
"""ElectLeadersResponse: response, api key 43, versions 0-2."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
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
    "PartitionResult",
    "ReplicaElectionResult",
    "ElectLeadersResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>ih')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class PartitionResult:
    """Results for every partition of the topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_id': (0, 2), 'error_code': (0, 2), 'error_message': (0, 2)}

    partition_id: int = 0
    """Index of the partition."""

    error_code: int = 0
    """Error for this partition's election; 0 means success."""

    error_message: str | None = ''
    """Message for this partition's error, or null."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ReplicaElectionResult:
    """Results of the elections; empty when the caller may not elect leaders and asked for every partition."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic': (0, 2), 'partition_result': (0, 2)}

    topic: str = ''
    """Name of the topic."""

    partition_result: list[PartitionResult] = field(default_factory=list)
    """Results for every partition of the topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ElectLeadersResponse(Message):
    """ElectLeadersResponse, api key 43."""

    API_KEY: ClassVar[int] = 43
    NAME: ClassVar[str] = 'ElectLeadersResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 2), 'error_code': (1, 2), 'replica_election_results': (0, 2)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error for the whole request; 0 means success."""

    replica_election_results: list[ReplicaElectionResult] = field(default_factory=list)
    """Results of the elections; empty when the caller may not elect leaders and asked for every partition."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_PartitionResult_v0(buf, pos):
    f_partition_id, f_error_code = _S1u(buf, pos)
    pos += 6
    f_error_message, pos = read_nullable_string(buf, pos)
    return PartitionResult(f_partition_id, f_error_code, f_error_message), pos


def _d_ReplicaElectionResult_v0(buf, pos):
    f_topic, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partition_result = []
    append = f_partition_result.append
    for _ in range(n):
        item, pos = _d_PartitionResult_v0(buf, pos)
        append(item)
    return ReplicaElectionResult(f_topic, f_partition_result), pos


def _d_ElectLeadersResponse_v0(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_replica_election_results = []
    append = f_replica_election_results.append
    for _ in range(n):
        item, pos = _d_ReplicaElectionResult_v0(buf, pos)
        append(item)
    return ElectLeadersResponse(f_throttle_time_ms, 0, f_replica_election_results), pos


def _d_ElectLeadersResponse_v1(buf, pos):
    f_throttle_time_ms, f_error_code = _S1u(buf, pos)
    pos += 6
    n, pos = read_array_len(buf, pos)
    f_replica_election_results = []
    append = f_replica_election_results.append
    for _ in range(n):
        item, pos = _d_ReplicaElectionResult_v0(buf, pos)
        append(item)
    return ElectLeadersResponse(f_throttle_time_ms, f_error_code, f_replica_election_results), pos


def _d_PartitionResult_v2(buf, pos):
    f_partition_id, f_error_code = _S1u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return PartitionResult(f_partition_id, f_error_code, f_error_message, unknown), pos


def _d_ReplicaElectionResult_v2(buf, pos):
    f_topic, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partition_result = []
    append = f_partition_result.append
    for _ in range(n):
        item, pos = _d_PartitionResult_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ReplicaElectionResult(f_topic, f_partition_result, unknown), pos


def _d_ElectLeadersResponse_v2(buf, pos):
    f_throttle_time_ms, f_error_code = _S1u(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos)
    f_replica_election_results = []
    append = f_replica_election_results.append
    for _ in range(n):
        item, pos = _d_ReplicaElectionResult_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ElectLeadersResponse(f_throttle_time_ms, f_error_code, f_replica_election_results, unknown), pos


def _e_PartitionResult_v0(o, out):
    out += _S1p(o.partition_id, o.error_code)
    write_nullable_string(out, o.error_message)


def _e_ReplicaElectionResult_v0(o, out):
    write_string(out, o.topic)
    value = o.partition_result
    write_array_len(out, value)
    for item in value:
        _e_PartitionResult_v0(item, out)


def _e_ElectLeadersResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms)
    if o.error_code != 0:
        raise UnsupportedFieldError('ElectLeadersResponse v0 cannot carry a non-default ErrorCode')
    value = o.replica_election_results
    write_array_len(out, value)
    for item in value:
        _e_ReplicaElectionResult_v0(item, out)


def _e_ElectLeadersResponse_v1(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code)
    value = o.replica_election_results
    write_array_len(out, value)
    for item in value:
        _e_ReplicaElectionResult_v0(item, out)


def _e_PartitionResult_v2(o, out):
    out += _S1p(o.partition_id, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ReplicaElectionResult_v2(o, out):
    write_compact_string(out, o.topic)
    value = o.partition_result
    write_compact_array_len(out, value)
    for item in value:
        _e_PartitionResult_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ElectLeadersResponse_v2(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code)
    value = o.replica_election_results
    write_compact_array_len(out, value)
    for item in value:
        _e_ReplicaElectionResult_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ElectLeadersResponse._DECODERS = {
    0: _d_ElectLeadersResponse_v0,
    1: _d_ElectLeadersResponse_v1,
    2: _d_ElectLeadersResponse_v2,
}
ElectLeadersResponse._ENCODERS = {
    0: _e_ElectLeadersResponse_v0,
    1: _e_ElectLeadersResponse_v1,
    2: _e_ElectLeadersResponse_v2,
}
