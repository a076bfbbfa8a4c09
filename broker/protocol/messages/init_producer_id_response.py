# Generated from protocol/schemas/InitProducerIdResponse.json by codegen; do not edit.
"""InitProducerIdResponse: response, api key 22, versions 0-6."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_unknown_tags,
    write_tagged_fields,
)

__all__ = [
    "InitProducerIdResponse",
]
_S0 = Struct('>ihqh')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>ihqhqh')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class InitProducerIdResponse(Message):
    """InitProducerIdResponse, api key 22."""

    API_KEY: ClassVar[int] = 22
    NAME: ClassVar[str] = 'InitProducerIdResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 6
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 6), 'error_code': (0, 6), 'producer_id': (0, 6), 'producer_epoch': (0, 6), 'ongoing_txn_producer_id': (6, 6), 'ongoing_txn_producer_epoch': (6, 6)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code; 0 means success."""

    producer_id: int = -1
    """ID of the producer at present."""

    producer_epoch: int = 0
    """Epoch currently tied to the producer id."""

    ongoing_txn_producer_id: int = -1
    """When KeepPreparedTxn is used, the producer id of the transaction in progress; -1 when no transaction is in progress."""

    ongoing_txn_producer_epoch: int = -1
    """When KeepPreparedTxn is used, the epoch of the producer id of the transaction in progress; -1 when no transaction is in progress."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_InitProducerIdResponse_v0(buf, pos):
    f_throttle_time_ms, f_error_code, f_producer_id, f_producer_epoch = _S0u(buf, pos)
    pos += 16
    return InitProducerIdResponse(f_throttle_time_ms, f_error_code, f_producer_id, f_producer_epoch, -1, -1), pos


def _d_InitProducerIdResponse_v2(buf, pos):
    f_throttle_time_ms, f_error_code, f_producer_id, f_producer_epoch = _S0u(buf, pos)
    pos += 16
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return InitProducerIdResponse(f_throttle_time_ms, f_error_code, f_producer_id, f_producer_epoch, -1, -1, unknown), pos


def _d_InitProducerIdResponse_v6(buf, pos):
    f_throttle_time_ms, f_error_code, f_producer_id, f_producer_epoch, f_ongoing_txn_producer_id, f_ongoing_txn_producer_epoch = _S1u(buf, pos)
    pos += 26
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return InitProducerIdResponse(f_throttle_time_ms, f_error_code, f_producer_id, f_producer_epoch, f_ongoing_txn_producer_id, f_ongoing_txn_producer_epoch, unknown), pos


def _e_InitProducerIdResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code, o.producer_id, o.producer_epoch)
    if o.ongoing_txn_producer_id != -1:
        raise UnsupportedFieldError('InitProducerIdResponse v0 cannot carry a non-default OngoingTxnProducerId')
    if o.ongoing_txn_producer_epoch != -1:
        raise UnsupportedFieldError('InitProducerIdResponse v0 cannot carry a non-default OngoingTxnProducerEpoch')


def _e_InitProducerIdResponse_v1(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code, o.producer_id, o.producer_epoch)
    if o.ongoing_txn_producer_id != -1:
        raise UnsupportedFieldError('InitProducerIdResponse v1 cannot carry a non-default OngoingTxnProducerId')
    if o.ongoing_txn_producer_epoch != -1:
        raise UnsupportedFieldError('InitProducerIdResponse v1 cannot carry a non-default OngoingTxnProducerEpoch')


def _e_InitProducerIdResponse_v2(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code, o.producer_id, o.producer_epoch)
    if o.ongoing_txn_producer_id != -1:
        raise UnsupportedFieldError('InitProducerIdResponse v2 cannot carry a non-default OngoingTxnProducerId')
    if o.ongoing_txn_producer_epoch != -1:
        raise UnsupportedFieldError('InitProducerIdResponse v2 cannot carry a non-default OngoingTxnProducerEpoch')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_InitProducerIdResponse_v3(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code, o.producer_id, o.producer_epoch)
    if o.ongoing_txn_producer_id != -1:
        raise UnsupportedFieldError('InitProducerIdResponse v3 cannot carry a non-default OngoingTxnProducerId')
    if o.ongoing_txn_producer_epoch != -1:
        raise UnsupportedFieldError('InitProducerIdResponse v3 cannot carry a non-default OngoingTxnProducerEpoch')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_InitProducerIdResponse_v4(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code, o.producer_id, o.producer_epoch)
    if o.ongoing_txn_producer_id != -1:
        raise UnsupportedFieldError('InitProducerIdResponse v4 cannot carry a non-default OngoingTxnProducerId')
    if o.ongoing_txn_producer_epoch != -1:
        raise UnsupportedFieldError('InitProducerIdResponse v4 cannot carry a non-default OngoingTxnProducerEpoch')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_InitProducerIdResponse_v5(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code, o.producer_id, o.producer_epoch)
    if o.ongoing_txn_producer_id != -1:
        raise UnsupportedFieldError('InitProducerIdResponse v5 cannot carry a non-default OngoingTxnProducerId')
    if o.ongoing_txn_producer_epoch != -1:
        raise UnsupportedFieldError('InitProducerIdResponse v5 cannot carry a non-default OngoingTxnProducerEpoch')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_InitProducerIdResponse_v6(o, out):
    out += _S1p(o.throttle_time_ms, o.error_code, o.producer_id, o.producer_epoch, o.ongoing_txn_producer_id, o.ongoing_txn_producer_epoch)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


InitProducerIdResponse._DECODERS = {
    0: _d_InitProducerIdResponse_v0,
    1: _d_InitProducerIdResponse_v0,
    2: _d_InitProducerIdResponse_v2,
    3: _d_InitProducerIdResponse_v2,
    4: _d_InitProducerIdResponse_v2,
    5: _d_InitProducerIdResponse_v2,
    6: _d_InitProducerIdResponse_v6,
}
InitProducerIdResponse._ENCODERS = {
    0: _e_InitProducerIdResponse_v0,
    1: _e_InitProducerIdResponse_v1,
    2: _e_InitProducerIdResponse_v2,
    3: _e_InitProducerIdResponse_v3,
    4: _e_InitProducerIdResponse_v4,
    5: _e_InitProducerIdResponse_v5,
    6: _e_InitProducerIdResponse_v6,
}
