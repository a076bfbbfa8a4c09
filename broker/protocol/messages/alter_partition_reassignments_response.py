# Generated from protocol/schemas/AlterPartitionReassignmentsResponse.json by codegen; do not edit.
"""AlterPartitionReassignmentsResponse: response, api key 45, versions 0-1."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "ReassignablePartitionResponse",
    "ReassignableTopicResponse",
    "AlterPartitionReassignmentsResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i?h')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>iBh')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class ReassignablePartitionResponse:
    """Results for every partition of the topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 1), 'error_code': (0, 1), 'error_message': (0, 1)}

    partition_index: int = 0
    """Index of the partition."""

    error_code: int = 0
    """Error for this partition; 0 means success."""

    error_message: str | None = ''
    """Message for this partition's error, or null."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ReassignableTopicResponse:
    """Results for every topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 1), 'partitions': (0, 1)}

    name: str = ''
    """Name of the topic."""

    partitions: list[ReassignablePartitionResponse] = field(default_factory=list)
    """Results for every partition of the topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AlterPartitionReassignmentsResponse(Message):
    """AlterPartitionReassignmentsResponse, api key 45."""

    API_KEY: ClassVar[int] = 45
    NAME: ClassVar[str] = 'AlterPartitionReassignmentsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 1), 'allow_replication_factor_change': (1, 1), 'error_code': (0, 1), 'error_message': (0, 1), 'responses': (0, 1)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    allow_replication_factor_change: bool = True
    """Whether the request allowed replication-factor changes."""

    error_code: int = 0
    """Error for the whole request; 0 means success."""

    error_message: str | None = ''
    """Message for the whole-request error, or null."""

    responses: list[ReassignableTopicResponse] = field(default_factory=list)
    """Results for every topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ReassignablePartitionResponse_v0(buf, pos):
    f_partition_index, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ReassignablePartitionResponse(f_partition_index, f_error_code, f_error_message, unknown), pos


def _d_ReassignableTopicResponse_v0(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_ReassignablePartitionResponse_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ReassignableTopicResponse(f_name, f_partitions, unknown), pos


def _d_AlterPartitionReassignmentsResponse_v0(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_ReassignableTopicResponse_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterPartitionReassignmentsResponse(f_throttle_time_ms, True, f_error_code, f_error_message, f_responses, unknown), pos


def _d_AlterPartitionReassignmentsResponse_v1(buf, pos):
    f_throttle_time_ms, f_allow_replication_factor_change, f_error_code = _S1u(buf, pos)
    pos += 7
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_responses = []
    append = f_responses.append
    for _ in range(n):
        item, pos = _d_ReassignableTopicResponse_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterPartitionReassignmentsResponse(f_throttle_time_ms, f_allow_replication_factor_change, f_error_code, f_error_message, f_responses, unknown), pos


def _e_ReassignablePartitionResponse_v0(o, out):
    out += _S0p(o.partition_index, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ReassignableTopicResponse_v0(o, out):
    write_compact_string(out, o.name)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_ReassignablePartitionResponse_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AlterPartitionReassignmentsResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    value = o.responses
    write_compact_array_len(out, value)
    for item in value:
        _e_ReassignableTopicResponse_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AlterPartitionReassignmentsResponse_v1(o, out):
    out += _S2p(o.throttle_time_ms, o.allow_replication_factor_change, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    value = o.responses
    write_compact_array_len(out, value)
    for item in value:
        _e_ReassignableTopicResponse_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


AlterPartitionReassignmentsResponse._DECODERS = {
    0: _d_AlterPartitionReassignmentsResponse_v0,
    1: _d_AlterPartitionReassignmentsResponse_v1,
}
AlterPartitionReassignmentsResponse._ENCODERS = {
    0: _e_AlterPartitionReassignmentsResponse_v0,
    1: _e_AlterPartitionReassignmentsResponse_v1,
}
