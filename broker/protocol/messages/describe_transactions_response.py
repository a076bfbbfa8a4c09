# Generated from protocol/schemas/DescribeTransactionsResponse.json by codegen; do not edit.
"""DescribeTransactionsResponse: response, api key 65, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
    read_compact_array_len,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "TopicData",
    "TransactionState",
    "DescribeTransactionsResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>h')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>iqqh')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class TopicData:
    """Partitions in the current transaction while it is ongoing; while it completes, only those that still lack a marker."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic': (0, 0), 'partitions': (0, 0)}

    topic: str = ''
    """Name of the topic."""

    partitions: list[int] = field(default_factory=list)
    """Indexes of the topic's partitions in the transaction."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TransactionState:
    """One entry per requested transactional ID."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 0), 'transactional_id': (0, 0), 'transaction_state': (0, 0), 'transaction_timeout_ms': (0, 0), 'transaction_start_time_ms': (0, 0), 'producer_id': (0, 0), 'producer_epoch': (0, 0), 'topics': (0, 0)}

    error_code: int = 0
    """Error for this transactional ID; 0 means success."""

    transactional_id: str = ''
    """Transactional ID described."""

    transaction_state: str = ''
    """State of the transaction as the coordinator names it (Empty, Ongoing, PrepareCommit, ...)."""

    transaction_timeout_ms: int = 0
    """Transaction timeout of the producer, in milliseconds."""

    transaction_start_time_ms: int = 0
    """When the current transaction started, in milliseconds since the epoch."""

    producer_id: int = 0
    """Producer ID the transactional ID currently maps to."""

    producer_epoch: int = 0
    """Epoch of that producer ID."""

    topics: list[TopicData] = field(default_factory=list)
    """Partitions in the current transaction while it is ongoing; while it completes, only those that still lack a marker."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeTransactionsResponse(Message):
    """DescribeTransactionsResponse, api key 65."""

    API_KEY: ClassVar[int] = 65
    NAME: ClassVar[str] = 'DescribeTransactionsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 0), 'transaction_states': (0, 0)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    transaction_states: list[TransactionState] = field(default_factory=list)
    """One entry per requested transactional ID."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_TopicData_v0(buf, pos):
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
    return TopicData(f_topic, f_partitions, unknown), pos


def _d_TransactionState_v0(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_transactional_id, pos = read_compact_string(buf, pos)
    f_transaction_state, pos = read_compact_string(buf, pos)
    f_transaction_timeout_ms, f_transaction_start_time_ms, f_producer_id, f_producer_epoch = _S2u(buf, pos)
    pos += 22
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_TopicData_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TransactionState(f_error_code, f_transactional_id, f_transaction_state, f_transaction_timeout_ms, f_transaction_start_time_ms, f_producer_id, f_producer_epoch, f_topics, unknown), pos


def _d_DescribeTransactionsResponse_v0(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_transaction_states = []
    append = f_transaction_states.append
    for _ in range(n):
        item, pos = _d_TransactionState_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeTransactionsResponse(f_throttle_time_ms, f_transaction_states, unknown), pos


def _e_TopicData_v0(o, out):
    write_compact_string(out, o.topic)
    value = o.partitions
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TransactionState_v0(o, out):
    out += _S1p(o.error_code)
    write_compact_string(out, o.transactional_id)
    write_compact_string(out, o.transaction_state)
    out += _S2p(o.transaction_timeout_ms, o.transaction_start_time_ms, o.producer_id, o.producer_epoch)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicData_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeTransactionsResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.transaction_states
    write_compact_array_len(out, value)
    for item in value:
        _e_TransactionState_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeTransactionsResponse._DECODERS = {
    0: _d_DescribeTransactionsResponse_v0,
}
DescribeTransactionsResponse._ENCODERS = {
    0: _e_DescribeTransactionsResponse_v0,
}
