# Generated from protocol/schemas/TransactionLogValue.json by codegen; do not edit.
"""TransactionLogValue: coordinator-value, api key 0, versions 0-1."""

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
    read_compact_nullable_array_len,
    read_compact_string,
    read_nullable_array_len,
    read_string,
    read_tag_header,
    read_unknown_tags,
    read_uvarint,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_array_len,
    write_compact_string,
    write_nullable_array_len,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "PartitionsSchema",
    "TransactionLogValue",
]
_S0 = Struct('>qhib')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>qq')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>q')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>h')
_S3u = _S3.unpack_from
_S3p = _S3.pack
_S4 = Struct('>ib')
_S4u = _S4.unpack_from
_S4p = _S4.pack


@dataclass(slots=True)
class PartitionsSchema:
    """Partitions in the transaction; null when there are none."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic': (0, 1), 'partition_ids': (0, 1)}

    topic: str = ''
    """Name of the topic."""

    partition_ids: list[int] = field(default_factory=list)
    """Indexes of the topic's partitions in the transaction."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TransactionLogValue(Message):
    """TransactionLogValue, api key 0."""

    API_KEY: ClassVar[int] = 0
    NAME: ClassVar[str] = 'TransactionLogValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 1
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'producer_id': (0, 1), 'previous_producer_id': (1, 1), 'next_producer_id': (1, 1), 'producer_epoch': (0, 1), 'next_producer_epoch': (1, 1), 'transaction_timeout_ms': (0, 1), 'transaction_status': (0, 1), 'transaction_partitions': (0, 1), 'transaction_last_update_timestamp_ms': (0, 1), 'transaction_start_timestamp_ms': (0, 1), 'client_transaction_version': (1, 1)}

    producer_id: int = 0
    """Producer ID the transactional ID currently uses."""

    previous_producer_id: int = -1
    """Producer ID of the last committed transaction, kept across a producer ID rotation; -1 when none."""

    next_producer_id: int = -1
    """Producer ID already handed to the producer for its next epoch (KIP-890 rotation); -1 when none."""

    producer_epoch: int = 0
    """Epoch of ProducerId."""

    next_producer_epoch: int = -1
    """Epoch that goes with NextProducerId; -1 when none."""

    transaction_timeout_ms: int = 0
    """Transaction timeout of the producer, in milliseconds."""

    transaction_status: int = 0
    """State of the transaction: 0 Empty, 1 Ongoing, 2 PrepareCommit, 3 PrepareAbort, 4 CompleteCommit, 5 CompleteAbort, 6 Dead, 7 PrepareEpochFence."""

    transaction_partitions: list[PartitionsSchema] | None = field(default_factory=list)
    """Partitions in the transaction; null when there are none."""

    transaction_last_update_timestamp_ms: int = 0
    """When the transaction state last changed, in milliseconds since the epoch."""

    transaction_start_timestamp_ms: int = 0
    """When the transaction started, in milliseconds since the epoch."""

    client_transaction_version: int = 0
    """Transaction protocol version the client uses (0 when not recorded)."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_PartitionsSchema_v0(buf, pos):
    f_topic, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partition_ids = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    return PartitionsSchema(f_topic, f_partition_ids), pos


def _d_TransactionLogValue_v0(buf, pos):
    f_producer_id, f_producer_epoch, f_transaction_timeout_ms, f_transaction_status = _S0u(buf, pos)
    pos += 15
    n, pos = read_nullable_array_len(buf, pos)
    if n < 0:
        f_transaction_partitions = None
    else:
        f_transaction_partitions = []
        append = f_transaction_partitions.append
        for _ in range(n):
            item, pos = _d_PartitionsSchema_v0(buf, pos)
            append(item)
    f_transaction_last_update_timestamp_ms, f_transaction_start_timestamp_ms = _S1u(buf, pos)
    pos += 16
    return TransactionLogValue(f_producer_id, -1, -1, f_producer_epoch, -1, f_transaction_timeout_ms, f_transaction_status, f_transaction_partitions, f_transaction_last_update_timestamp_ms, f_transaction_start_timestamp_ms, 0), pos


def _d_PartitionsSchema_v1(buf, pos):
    f_topic, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partition_ids = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return PartitionsSchema(f_topic, f_partition_ids, unknown), pos


def _d_TransactionLogValue_v1(buf, pos):
    f_producer_id, f_producer_epoch, f_transaction_timeout_ms, f_transaction_status = _S0u(buf, pos)
    pos += 15
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_transaction_partitions = None
    else:
        f_transaction_partitions = []
        append = f_transaction_partitions.append
        for _ in range(n):
            item, pos = _d_PartitionsSchema_v1(buf, pos)
            append(item)
    f_transaction_last_update_timestamp_ms, f_transaction_start_timestamp_ms = _S1u(buf, pos)
    pos += 16
    f_previous_producer_id = -1
    f_next_producer_id = -1
    f_next_producer_epoch = -1
    f_client_transaction_version = 0
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                f_previous_producer_id = _S2u(buf, p)[0]
                p += 8
            elif tag == 1:
                f_next_producer_id = _S2u(buf, p)[0]
                p += 8
            elif tag == 2:
                f_client_transaction_version = _S3u(buf, p)[0]
                p += 2
            elif tag == 3:
                f_next_producer_epoch = _S3u(buf, p)[0]
                p += 2
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return TransactionLogValue(f_producer_id, f_previous_producer_id, f_next_producer_id, f_producer_epoch, f_next_producer_epoch, f_transaction_timeout_ms, f_transaction_status, f_transaction_partitions, f_transaction_last_update_timestamp_ms, f_transaction_start_timestamp_ms, f_client_transaction_version, unknown), pos


def _e_PartitionsSchema_v0(o, out):
    write_string(out, o.topic)
    value = o.partition_ids
    write_array_len(out, value)
    out += pack('>%di' % len(value), *value)


def _e_TransactionLogValue_v0(o, out):
    out += _S2p(o.producer_id)
    if o.previous_producer_id != -1:
        raise UnsupportedFieldError('TransactionLogValue v0 cannot carry a non-default PreviousProducerId')
    if o.next_producer_id != -1:
        raise UnsupportedFieldError('TransactionLogValue v0 cannot carry a non-default NextProducerId')
    out += _S3p(o.producer_epoch)
    if o.next_producer_epoch != -1:
        raise UnsupportedFieldError('TransactionLogValue v0 cannot carry a non-default NextProducerEpoch')
    out += _S4p(o.transaction_timeout_ms, o.transaction_status)
    value = o.transaction_partitions
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_PartitionsSchema_v0(item, out)
    out += _S1p(o.transaction_last_update_timestamp_ms, o.transaction_start_timestamp_ms)
    if o.client_transaction_version != 0:
        raise UnsupportedFieldError('TransactionLogValue v0 cannot carry a non-default ClientTransactionVersion')


def _e_PartitionsSchema_v1(o, out):
    write_compact_string(out, o.topic)
    value = o.partition_ids
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TransactionLogValue_v1(o, out):
    out += _S0p(o.producer_id, o.producer_epoch, o.transaction_timeout_ms, o.transaction_status)
    value = o.transaction_partitions
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_PartitionsSchema_v1(item, out)
    out += _S1p(o.transaction_last_update_timestamp_ms, o.transaction_start_timestamp_ms)
    tags = list(o._unknown_tagged_fields)
    if o.previous_producer_id != -1:
        t = bytearray()
        t += _S2p(o.previous_producer_id)
        tags.append((0, t))
    if o.next_producer_id != -1:
        t = bytearray()
        t += _S2p(o.next_producer_id)
        tags.append((1, t))
    if o.client_transaction_version != 0:
        t = bytearray()
        t += _S3p(o.client_transaction_version)
        tags.append((2, t))
    if o.next_producer_epoch != -1:
        t = bytearray()
        t += _S3p(o.next_producer_epoch)
        tags.append((3, t))
    write_tagged_fields(out, tags)


TransactionLogValue._DECODERS = {
    0: _d_TransactionLogValue_v0,
    1: _d_TransactionLogValue_v1,
}
TransactionLogValue._ENCODERS = {
    0: _e_TransactionLogValue_v0,
    1: _e_TransactionLogValue_v1,
}
