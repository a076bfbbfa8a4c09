# Generated from protocol/schemas/InitProducerIdRequest.json by codegen; do not edit.
"""InitProducerIdRequest: request, api key 22, versions 0-6."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_nullable_string,
    read_nullable_string,
    read_unknown_tags,
    write_compact_nullable_string,
    write_nullable_string,
    write_tagged_fields,
)

__all__ = [
    "InitProducerIdRequest",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>iqh')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>iqh??')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>iqhBB')
_S3u = _S3.unpack_from
_S3p = _S3.pack


@dataclass(slots=True)
class InitProducerIdRequest(Message):
    """InitProducerIdRequest, api key 22."""

    API_KEY: ClassVar[int] = 22
    NAME: ClassVar[str] = 'InitProducerIdRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 6
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = True
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'transactional_id': (0, 6), 'transaction_timeout_ms': (0, 6), 'producer_id': (3, 6), 'producer_epoch': (3, 6), 'enable2_pc': (6, 6), 'keep_prepared_txn': (6, 6)}

    transactional_id: str | None = ''
    """Transactional ID, or null for a non-transactional producer."""

    transaction_timeout_ms: int = 0
    """How long in ms to wait before aborting an idle transaction from this producer; only applies when a TransactionalId is set."""

    producer_id: int = -1
    """ID of the producer, used to tell requests apart when a transactional id is reused after it expires."""

    producer_epoch: int = -1
    """Epoch currently held by the producer; the broker compares it with its own producer epoch and fails the request on a mismatch."""

    enable2_pc: bool = False
    """Set to true when the client wishes to use the two-phase commit (2PC) protocol for transactions."""

    keep_prepared_txn: bool = False
    """Set to true when the client wishes to retain the transaction in progress rather than abort it."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_InitProducerIdRequest_v0(buf, pos):
    f_transactional_id, pos = read_nullable_string(buf, pos)
    f_transaction_timeout_ms = _S0u(buf, pos)[0]
    pos += 4
    return InitProducerIdRequest(f_transactional_id, f_transaction_timeout_ms, -1, -1, False, False), pos


def _d_InitProducerIdRequest_v2(buf, pos):
    f_transactional_id, pos = read_compact_nullable_string(buf, pos)
    f_transaction_timeout_ms = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return InitProducerIdRequest(f_transactional_id, f_transaction_timeout_ms, -1, -1, False, False, unknown), pos


def _d_InitProducerIdRequest_v3(buf, pos):
    f_transactional_id, pos = read_compact_nullable_string(buf, pos)
    f_transaction_timeout_ms, f_producer_id, f_producer_epoch = _S1u(buf, pos)
    pos += 14
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return InitProducerIdRequest(f_transactional_id, f_transaction_timeout_ms, f_producer_id, f_producer_epoch, False, False, unknown), pos


def _d_InitProducerIdRequest_v6(buf, pos):
    f_transactional_id, pos = read_compact_nullable_string(buf, pos)
    f_transaction_timeout_ms, f_producer_id, f_producer_epoch, f_enable2_pc, f_keep_prepared_txn = _S2u(buf, pos)
    pos += 16
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return InitProducerIdRequest(f_transactional_id, f_transaction_timeout_ms, f_producer_id, f_producer_epoch, f_enable2_pc, f_keep_prepared_txn, unknown), pos


def _e_InitProducerIdRequest_v0(o, out):
    write_nullable_string(out, o.transactional_id)
    out += _S0p(o.transaction_timeout_ms)
    if o.producer_id != -1:
        raise UnsupportedFieldError('InitProducerIdRequest v0 cannot carry a non-default ProducerId')
    if o.producer_epoch != -1:
        raise UnsupportedFieldError('InitProducerIdRequest v0 cannot carry a non-default ProducerEpoch')
    if o.enable2_pc:
        raise UnsupportedFieldError('InitProducerIdRequest v0 cannot carry a non-default Enable2Pc')
    if o.keep_prepared_txn:
        raise UnsupportedFieldError('InitProducerIdRequest v0 cannot carry a non-default KeepPreparedTxn')


def _e_InitProducerIdRequest_v1(o, out):
    write_nullable_string(out, o.transactional_id)
    out += _S0p(o.transaction_timeout_ms)
    if o.producer_id != -1:
        raise UnsupportedFieldError('InitProducerIdRequest v1 cannot carry a non-default ProducerId')
    if o.producer_epoch != -1:
        raise UnsupportedFieldError('InitProducerIdRequest v1 cannot carry a non-default ProducerEpoch')
    if o.enable2_pc:
        raise UnsupportedFieldError('InitProducerIdRequest v1 cannot carry a non-default Enable2Pc')
    if o.keep_prepared_txn:
        raise UnsupportedFieldError('InitProducerIdRequest v1 cannot carry a non-default KeepPreparedTxn')


def _e_InitProducerIdRequest_v2(o, out):
    write_compact_nullable_string(out, o.transactional_id)
    out += _S0p(o.transaction_timeout_ms)
    if o.producer_id != -1:
        raise UnsupportedFieldError('InitProducerIdRequest v2 cannot carry a non-default ProducerId')
    if o.producer_epoch != -1:
        raise UnsupportedFieldError('InitProducerIdRequest v2 cannot carry a non-default ProducerEpoch')
    if o.enable2_pc:
        raise UnsupportedFieldError('InitProducerIdRequest v2 cannot carry a non-default Enable2Pc')
    if o.keep_prepared_txn:
        raise UnsupportedFieldError('InitProducerIdRequest v2 cannot carry a non-default KeepPreparedTxn')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_InitProducerIdRequest_v3(o, out):
    write_compact_nullable_string(out, o.transactional_id)
    out += _S1p(o.transaction_timeout_ms, o.producer_id, o.producer_epoch)
    if o.enable2_pc:
        raise UnsupportedFieldError('InitProducerIdRequest v3 cannot carry a non-default Enable2Pc')
    if o.keep_prepared_txn:
        raise UnsupportedFieldError('InitProducerIdRequest v3 cannot carry a non-default KeepPreparedTxn')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_InitProducerIdRequest_v4(o, out):
    write_compact_nullable_string(out, o.transactional_id)
    out += _S1p(o.transaction_timeout_ms, o.producer_id, o.producer_epoch)
    if o.enable2_pc:
        raise UnsupportedFieldError('InitProducerIdRequest v4 cannot carry a non-default Enable2Pc')
    if o.keep_prepared_txn:
        raise UnsupportedFieldError('InitProducerIdRequest v4 cannot carry a non-default KeepPreparedTxn')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_InitProducerIdRequest_v5(o, out):
    write_compact_nullable_string(out, o.transactional_id)
    out += _S1p(o.transaction_timeout_ms, o.producer_id, o.producer_epoch)
    if o.enable2_pc:
        raise UnsupportedFieldError('InitProducerIdRequest v5 cannot carry a non-default Enable2Pc')
    if o.keep_prepared_txn:
        raise UnsupportedFieldError('InitProducerIdRequest v5 cannot carry a non-default KeepPreparedTxn')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_InitProducerIdRequest_v6(o, out):
    write_compact_nullable_string(out, o.transactional_id)
    out += _S3p(o.transaction_timeout_ms, o.producer_id, o.producer_epoch, o.enable2_pc, o.keep_prepared_txn)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


InitProducerIdRequest._DECODERS = {
    0: _d_InitProducerIdRequest_v0,
    1: _d_InitProducerIdRequest_v0,
    2: _d_InitProducerIdRequest_v2,
    3: _d_InitProducerIdRequest_v3,
    4: _d_InitProducerIdRequest_v3,
    5: _d_InitProducerIdRequest_v3,
    6: _d_InitProducerIdRequest_v6,
}
InitProducerIdRequest._ENCODERS = {
    0: _e_InitProducerIdRequest_v0,
    1: _e_InitProducerIdRequest_v1,
    2: _e_InitProducerIdRequest_v2,
    3: _e_InitProducerIdRequest_v3,
    4: _e_InitProducerIdRequest_v4,
    5: _e_InitProducerIdRequest_v5,
    6: _e_InitProducerIdRequest_v6,
}
