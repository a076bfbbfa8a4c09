# Generated from protocol/schemas/AddPartitionsToTxnResponse.json by codegen; do not edit.
"""AddPartitionsToTxnResponse: response, api key 24, versions 0-5."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_array_len,
    read_compact_array_len,
    read_compact_string,
    read_string,
    read_unknown_tags,
    write_array_len,
    write_compact_array_len,
    write_compact_string,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "AddPartitionsToTxnPartitionResult",
    "AddPartitionsToTxnTopicResult",
    "AddPartitionsToTxnResult",
    "AddPartitionsToTxnResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>ih')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class AddPartitionsToTxnPartitionResult:
    """Common structure AddPartitionsToTxnPartitionResult."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 5), 'partition_error_code': (0, 5)}

    partition_index: int = 0
    """Indexes of the partitions."""

    partition_error_code: int = 0
    """Error code for this partition."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AddPartitionsToTxnTopicResult:
    """Common structure AddPartitionsToTxnTopicResult."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 5), 'results_by_partition': (0, 5)}

    name: str = ''
    """Name of the topic."""

    results_by_partition: list[AddPartitionsToTxnPartitionResult] = field(default_factory=list)
    """Per-partition results."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AddPartitionsToTxnResult:
    """Per-transaction results, keyed by transactional ID."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'transactional_id': (4, 5), 'topic_results': (4, 5)}

    transactional_id: str = ''
    """Transactional id identifying which transaction this entry belongs to."""

    topic_results: list[AddPartitionsToTxnTopicResult] = field(default_factory=list)
    """Per-topic results."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AddPartitionsToTxnResponse(Message):
    """AddPartitionsToTxnResponse, api key 24."""

    API_KEY: ClassVar[int] = 24
    NAME: ClassVar[str] = 'AddPartitionsToTxnResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 3
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 5), 'error_code': (4, 5), 'results_by_transaction': (4, 5), 'results_by_topic_v3_and_below': (0, 3)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code that applies to the whole response."""

    results_by_transaction: list[AddPartitionsToTxnResult] = field(default_factory=list)
    """Per-transaction results, keyed by transactional ID."""

    results_by_topic_v3_and_below: list[AddPartitionsToTxnTopicResult] = field(default_factory=list)
    """Per-topic results."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_AddPartitionsToTxnPartitionResult_v0(buf, pos):
    f_partition_index, f_partition_error_code = _S1u(buf, pos)
    pos += 6
    return AddPartitionsToTxnPartitionResult(f_partition_index, f_partition_error_code), pos


def _d_AddPartitionsToTxnTopicResult_v0(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_results_by_partition = []
    append = f_results_by_partition.append
    for _ in range(n):
        item, pos = _d_AddPartitionsToTxnPartitionResult_v0(buf, pos)
        append(item)
    return AddPartitionsToTxnTopicResult(f_name, f_results_by_partition), pos


def _d_AddPartitionsToTxnResponse_v0(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_results_by_topic_v3_and_below = []
    append = f_results_by_topic_v3_and_below.append
    for _ in range(n):
        item, pos = _d_AddPartitionsToTxnTopicResult_v0(buf, pos)
        append(item)
    return AddPartitionsToTxnResponse(f_throttle_time_ms, 0, [], f_results_by_topic_v3_and_below), pos


def _d_AddPartitionsToTxnPartitionResult_v3(buf, pos):
    f_partition_index, f_partition_error_code = _S1u(buf, pos)
    pos += 6
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AddPartitionsToTxnPartitionResult(f_partition_index, f_partition_error_code, unknown), pos


def _d_AddPartitionsToTxnTopicResult_v3(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_results_by_partition = []
    append = f_results_by_partition.append
    for _ in range(n):
        item, pos = _d_AddPartitionsToTxnPartitionResult_v3(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AddPartitionsToTxnTopicResult(f_name, f_results_by_partition, unknown), pos


def _d_AddPartitionsToTxnResponse_v3(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_results_by_topic_v3_and_below = []
    append = f_results_by_topic_v3_and_below.append
    for _ in range(n):
        item, pos = _d_AddPartitionsToTxnTopicResult_v3(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AddPartitionsToTxnResponse(f_throttle_time_ms, 0, [], f_results_by_topic_v3_and_below, unknown), pos


def _d_AddPartitionsToTxnResult_v4(buf, pos):
    f_transactional_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_topic_results = []
    append = f_topic_results.append
    for _ in range(n):
        item, pos = _d_AddPartitionsToTxnTopicResult_v3(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AddPartitionsToTxnResult(f_transactional_id, f_topic_results, unknown), pos


def _d_AddPartitionsToTxnResponse_v4(buf, pos):
    f_throttle_time_ms, f_error_code = _S1u(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos)
    f_results_by_transaction = []
    append = f_results_by_transaction.append
    for _ in range(n):
        item, pos = _d_AddPartitionsToTxnResult_v4(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AddPartitionsToTxnResponse(f_throttle_time_ms, f_error_code, f_results_by_transaction, [], unknown), pos


def _e_AddPartitionsToTxnPartitionResult_v0(o, out):
    out += _S1p(o.partition_index, o.partition_error_code)


def _e_AddPartitionsToTxnTopicResult_v0(o, out):
    write_string(out, o.name)
    value = o.results_by_partition
    write_array_len(out, value)
    for item in value:
        _e_AddPartitionsToTxnPartitionResult_v0(item, out)


def _e_AddPartitionsToTxnResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms)
    if o.results_by_transaction:
        raise UnsupportedFieldError('AddPartitionsToTxnResponse v0 cannot carry a non-default ResultsByTransaction')
    value = o.results_by_topic_v3_and_below
    write_array_len(out, value)
    for item in value:
        _e_AddPartitionsToTxnTopicResult_v0(item, out)


def _e_AddPartitionsToTxnResponse_v1(o, out):
    out += _S0p(o.throttle_time_ms)
    if o.results_by_transaction:
        raise UnsupportedFieldError('AddPartitionsToTxnResponse v1 cannot carry a non-default ResultsByTransaction')
    value = o.results_by_topic_v3_and_below
    write_array_len(out, value)
    for item in value:
        _e_AddPartitionsToTxnTopicResult_v0(item, out)


def _e_AddPartitionsToTxnResponse_v2(o, out):
    out += _S0p(o.throttle_time_ms)
    if o.results_by_transaction:
        raise UnsupportedFieldError('AddPartitionsToTxnResponse v2 cannot carry a non-default ResultsByTransaction')
    value = o.results_by_topic_v3_and_below
    write_array_len(out, value)
    for item in value:
        _e_AddPartitionsToTxnTopicResult_v0(item, out)


def _e_AddPartitionsToTxnPartitionResult_v3(o, out):
    out += _S1p(o.partition_index, o.partition_error_code)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AddPartitionsToTxnTopicResult_v3(o, out):
    write_compact_string(out, o.name)
    value = o.results_by_partition
    write_compact_array_len(out, value)
    for item in value:
        _e_AddPartitionsToTxnPartitionResult_v3(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AddPartitionsToTxnResponse_v3(o, out):
    out += _S0p(o.throttle_time_ms)
    if o.results_by_transaction:
        raise UnsupportedFieldError('AddPartitionsToTxnResponse v3 cannot carry a non-default ResultsByTransaction')
    value = o.results_by_topic_v3_and_below
    write_compact_array_len(out, value)
    for item in value:
        _e_AddPartitionsToTxnTopicResult_v3(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AddPartitionsToTxnResult_v4(o, out):
    write_compact_string(out, o.transactional_id)
    value = o.topic_results
    write_compact_array_len(out, value)
    for item in value:
        _e_AddPartitionsToTxnTopicResult_v3(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AddPartitionsToTxnResponse_v4(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code)
    value = o.results_by_transaction
    write_compact_array_len(out, value)
    for item in value:
        _e_AddPartitionsToTxnResult_v4(item, out)
    if o.results_by_topic_v3_and_below:
        raise UnsupportedFieldError('AddPartitionsToTxnResponse v4 cannot carry a non-default ResultsByTopicV3AndBelow')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AddPartitionsToTxnResponse_v5(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code)
    value = o.results_by_transaction
    write_compact_array_len(out, value)
    for item in value:
        _e_AddPartitionsToTxnResult_v4(item, out)
    if o.results_by_topic_v3_and_below:
        raise UnsupportedFieldError('AddPartitionsToTxnResponse v5 cannot carry a non-default ResultsByTopicV3AndBelow')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


AddPartitionsToTxnResponse._DECODERS = {
    0: _d_AddPartitionsToTxnResponse_v0,
    1: _d_AddPartitionsToTxnResponse_v0,
    2: _d_AddPartitionsToTxnResponse_v0,
    3: _d_AddPartitionsToTxnResponse_v3,
    4: _d_AddPartitionsToTxnResponse_v4,
    5: _d_AddPartitionsToTxnResponse_v4,
}
AddPartitionsToTxnResponse._ENCODERS = {
    0: _e_AddPartitionsToTxnResponse_v0,
    1: _e_AddPartitionsToTxnResponse_v1,
    2: _e_AddPartitionsToTxnResponse_v2,
    3: _e_AddPartitionsToTxnResponse_v3,
    4: _e_AddPartitionsToTxnResponse_v4,
    5: _e_AddPartitionsToTxnResponse_v5,
}
