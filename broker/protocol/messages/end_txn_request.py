# Generated from protocol/schemas/EndTxnRequest.json by codegen; do not edit.
"""EndTxnRequest: request, api key 26, versions 0-5."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_string,
    read_string,
    read_unknown_tags,
    write_compact_string,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "EndTxnRequest",
]
_S0 = Struct('>qh?')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>qhB')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class EndTxnRequest(Message):
    """EndTxnRequest, api key 26."""

    API_KEY: ClassVar[int] = 26
    NAME: ClassVar[str] = 'EndTxnRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 3
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'transactional_id': (0, 5), 'producer_id': (0, 5), 'producer_epoch': (0, 5), 'committed': (0, 5)}

    transactional_id: str = ''
    """Transactional ID of the transaction being ended."""

    producer_id: int = 0
    """ID of the producer."""

    producer_epoch: int = 0
    """Epoch currently held by the producer."""

    committed: bool = False
    """Set to true when the transaction was committed and false when it was aborted."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_EndTxnRequest_v0(buf, pos):
    f_transactional_id, pos = read_string(buf, pos)
    f_producer_id, f_producer_epoch, f_committed = _S0u(buf, pos)
    pos += 11
    return EndTxnRequest(f_transactional_id, f_producer_id, f_producer_epoch, f_committed), pos


def _d_EndTxnRequest_v3(buf, pos):
    f_transactional_id, pos = read_compact_string(buf, pos)
    f_producer_id, f_producer_epoch, f_committed = _S0u(buf, pos)
    pos += 11
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return EndTxnRequest(f_transactional_id, f_producer_id, f_producer_epoch, f_committed, unknown), pos


def _e_EndTxnRequest_v0(o, out):
    write_string(out, o.transactional_id)
    out += _S1p(o.producer_id, o.producer_epoch, o.committed)


def _e_EndTxnRequest_v3(o, out):
    write_compact_string(out, o.transactional_id)
    out += _S1p(o.producer_id, o.producer_epoch, o.committed)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


EndTxnRequest._DECODERS = {
    0: _d_EndTxnRequest_v0,
    1: _d_EndTxnRequest_v0,
    2: _d_EndTxnRequest_v0,
    3: _d_EndTxnRequest_v3,
    4: _d_EndTxnRequest_v3,
    5: _d_EndTxnRequest_v3,
}
EndTxnRequest._ENCODERS = {
    0: _e_EndTxnRequest_v0,
    1: _e_EndTxnRequest_v0,
    2: _e_EndTxnRequest_v0,
    3: _e_EndTxnRequest_v3,
    4: _e_EndTxnRequest_v3,
    5: _e_EndTxnRequest_v3,
}
