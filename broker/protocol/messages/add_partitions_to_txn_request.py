# Generated from protocol/schemas/AddPartitionsToTxnRequest.json by codegen; do not edit.
"""AddPartitionsToTxnRequest: request, api key 24, versions 0-5."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
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
    "AddPartitionsToTxnTopic",
    "AddPartitionsToTxnTransaction",
    "AddPartitionsToTxnRequest",
]
_S0 = Struct('>qh')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>qh?')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>qhB')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class AddPartitionsToTxnTopic:
    """Common structure AddPartitionsToTxnTopic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 5), 'partitions': (0, 5)}

    name: str = ''
    """Name of the topic."""

    partitions: list[int] = field(default_factory=list)
    """Indexes of the partitions being added to the transaction."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AddPartitionsToTxnTransaction:
    """Transactions whose partition sets should be extended."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'transactional_id': (4, 5), 'producer_id': (4, 5), 'producer_epoch': (4, 5), 'verify_only': (4, 5), 'topics': (4, 5)}

    transactional_id: str = ''
    """Transactional id identifying which transaction this entry belongs to."""

    producer_id: int = 0
    """Producer id currently assigned to this transactional id."""

    producer_epoch: int = 0
    """Epoch currently paired with the producer id."""

    verify_only: bool = False
    """When true, only verify that the partitions already belong to the transaction instead of adding them."""

    topics: list[AddPartitionsToTxnTopic] = field(default_factory=list)
    """Topics and partitions that should become part of the transaction."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AddPartitionsToTxnRequest(Message):
    """AddPartitionsToTxnRequest, api key 24."""

    API_KEY: ClassVar[int] = 24
    NAME: ClassVar[str] = 'AddPartitionsToTxnRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 3
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'transactions': (4, 5), 'v3_and_below_transactional_id': (0, 3), 'v3_and_below_producer_id': (0, 3), 'v3_and_below_producer_epoch': (0, 3), 'v3_and_below_topics': (0, 3)}

    transactions: list[AddPartitionsToTxnTransaction] = field(default_factory=list)
    """Transactions whose partition sets should be extended."""

    v3_and_below_transactional_id: str = ''
    """Transactional id identifying which transaction this entry belongs to."""

    v3_and_below_producer_id: int = 0
    """Producer id currently assigned to this transactional id."""

    v3_and_below_producer_epoch: int = 0
    """Epoch currently paired with the producer id."""

    v3_and_below_topics: list[AddPartitionsToTxnTopic] = field(default_factory=list)
    """Topics and partitions that should become part of the transaction."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_AddPartitionsToTxnTopic_v0(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    return AddPartitionsToTxnTopic(f_name, f_partitions), pos


def _d_AddPartitionsToTxnRequest_v0(buf, pos):
    f_v3_and_below_transactional_id, pos = read_string(buf, pos)
    f_v3_and_below_producer_id, f_v3_and_below_producer_epoch = _S0u(buf, pos)
    pos += 10
    n, pos = read_array_len(buf, pos)
    f_v3_and_below_topics = []
    append = f_v3_and_below_topics.append
    for _ in range(n):
        item, pos = _d_AddPartitionsToTxnTopic_v0(buf, pos)
        append(item)
    return AddPartitionsToTxnRequest([], f_v3_and_below_transactional_id, f_v3_and_below_producer_id, f_v3_and_below_producer_epoch, f_v3_and_below_topics), pos


def _d_AddPartitionsToTxnTopic_v3(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AddPartitionsToTxnTopic(f_name, f_partitions, unknown), pos


def _d_AddPartitionsToTxnRequest_v3(buf, pos):
    f_v3_and_below_transactional_id, pos = read_compact_string(buf, pos)
    f_v3_and_below_producer_id, f_v3_and_below_producer_epoch = _S0u(buf, pos)
    pos += 10
    n, pos = read_compact_array_len(buf, pos)
    f_v3_and_below_topics = []
    append = f_v3_and_below_topics.append
    for _ in range(n):
        item, pos = _d_AddPartitionsToTxnTopic_v3(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AddPartitionsToTxnRequest([], f_v3_and_below_transactional_id, f_v3_and_below_producer_id, f_v3_and_below_producer_epoch, f_v3_and_below_topics, unknown), pos


def _d_AddPartitionsToTxnTransaction_v4(buf, pos):
    f_transactional_id, pos = read_compact_string(buf, pos)
    f_producer_id, f_producer_epoch, f_verify_only = _S1u(buf, pos)
    pos += 11
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_AddPartitionsToTxnTopic_v3(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AddPartitionsToTxnTransaction(f_transactional_id, f_producer_id, f_producer_epoch, f_verify_only, f_topics, unknown), pos


def _d_AddPartitionsToTxnRequest_v4(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_transactions = []
    append = f_transactions.append
    for _ in range(n):
        item, pos = _d_AddPartitionsToTxnTransaction_v4(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AddPartitionsToTxnRequest(f_transactions, '', 0, 0, [], unknown), pos


def _e_AddPartitionsToTxnTopic_v0(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    out += pack('>%di' % len(value), *value)


def _e_AddPartitionsToTxnRequest_v0(o, out):
    if o.transactions:
        raise UnsupportedFieldError('AddPartitionsToTxnRequest v0 cannot carry a non-default Transactions')
    write_string(out, o.v3_and_below_transactional_id)
    out += _S0p(o.v3_and_below_producer_id, o.v3_and_below_producer_epoch)
    value = o.v3_and_below_topics
    write_array_len(out, value)
    for item in value:
        _e_AddPartitionsToTxnTopic_v0(item, out)


def _e_AddPartitionsToTxnRequest_v1(o, out):
    if o.transactions:
        raise UnsupportedFieldError('AddPartitionsToTxnRequest v1 cannot carry a non-default Transactions')
    write_string(out, o.v3_and_below_transactional_id)
    out += _S0p(o.v3_and_below_producer_id, o.v3_and_below_producer_epoch)
    value = o.v3_and_below_topics
    write_array_len(out, value)
    for item in value:
        _e_AddPartitionsToTxnTopic_v0(item, out)


def _e_AddPartitionsToTxnRequest_v2(o, out):
    if o.transactions:
        raise UnsupportedFieldError('AddPartitionsToTxnRequest v2 cannot carry a non-default Transactions')
    write_string(out, o.v3_and_below_transactional_id)
    out += _S0p(o.v3_and_below_producer_id, o.v3_and_below_producer_epoch)
    value = o.v3_and_below_topics
    write_array_len(out, value)
    for item in value:
        _e_AddPartitionsToTxnTopic_v0(item, out)


def _e_AddPartitionsToTxnTopic_v3(o, out):
    write_compact_string(out, o.name)
    value = o.partitions
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AddPartitionsToTxnRequest_v3(o, out):
    if o.transactions:
        raise UnsupportedFieldError('AddPartitionsToTxnRequest v3 cannot carry a non-default Transactions')
    write_compact_string(out, o.v3_and_below_transactional_id)
    out += _S0p(o.v3_and_below_producer_id, o.v3_and_below_producer_epoch)
    value = o.v3_and_below_topics
    write_compact_array_len(out, value)
    for item in value:
        _e_AddPartitionsToTxnTopic_v3(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AddPartitionsToTxnTransaction_v4(o, out):
    write_compact_string(out, o.transactional_id)
    out += _S2p(o.producer_id, o.producer_epoch, o.verify_only)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_AddPartitionsToTxnTopic_v3(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AddPartitionsToTxnRequest_v4(o, out):
    value = o.transactions
    write_compact_array_len(out, value)
    for item in value:
        _e_AddPartitionsToTxnTransaction_v4(item, out)
    if o.v3_and_below_transactional_id != '':
        raise UnsupportedFieldError('AddPartitionsToTxnRequest v4 cannot carry a non-default V3AndBelowTransactionalId')
    if o.v3_and_below_producer_id != 0:
        raise UnsupportedFieldError('AddPartitionsToTxnRequest v4 cannot carry a non-default V3AndBelowProducerId')
    if o.v3_and_below_producer_epoch != 0:
        raise UnsupportedFieldError('AddPartitionsToTxnRequest v4 cannot carry a non-default V3AndBelowProducerEpoch')
    if o.v3_and_below_topics:
        raise UnsupportedFieldError('AddPartitionsToTxnRequest v4 cannot carry a non-default V3AndBelowTopics')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AddPartitionsToTxnRequest_v5(o, out):
    value = o.transactions
    write_compact_array_len(out, value)
    for item in value:
        _e_AddPartitionsToTxnTransaction_v4(item, out)
    if o.v3_and_below_transactional_id != '':
        raise UnsupportedFieldError('AddPartitionsToTxnRequest v5 cannot carry a non-default V3AndBelowTransactionalId')
    if o.v3_and_below_producer_id != 0:
        raise UnsupportedFieldError('AddPartitionsToTxnRequest v5 cannot carry a non-default V3AndBelowProducerId')
    if o.v3_and_below_producer_epoch != 0:
        raise UnsupportedFieldError('AddPartitionsToTxnRequest v5 cannot carry a non-default V3AndBelowProducerEpoch')
    if o.v3_and_below_topics:
        raise UnsupportedFieldError('AddPartitionsToTxnRequest v5 cannot carry a non-default V3AndBelowTopics')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


AddPartitionsToTxnRequest._DECODERS = {
    0: _d_AddPartitionsToTxnRequest_v0,
    1: _d_AddPartitionsToTxnRequest_v0,
    2: _d_AddPartitionsToTxnRequest_v0,
    3: _d_AddPartitionsToTxnRequest_v3,
    4: _d_AddPartitionsToTxnRequest_v4,
    5: _d_AddPartitionsToTxnRequest_v4,
}
AddPartitionsToTxnRequest._ENCODERS = {
    0: _e_AddPartitionsToTxnRequest_v0,
    1: _e_AddPartitionsToTxnRequest_v1,
    2: _e_AddPartitionsToTxnRequest_v2,
    3: _e_AddPartitionsToTxnRequest_v3,
    4: _e_AddPartitionsToTxnRequest_v4,
    5: _e_AddPartitionsToTxnRequest_v5,
}
