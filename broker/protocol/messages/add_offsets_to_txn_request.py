# Generated from protocol/schemas/AddOffsetsToTxnRequest.json by codegen; do not edit.
"""AddOffsetsToTxnRequest: request, api key 25, versions 0-4."""

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
    "AddOffsetsToTxnRequest",
]
_S0 = Struct('>qh')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class AddOffsetsToTxnRequest(Message):
    """AddOffsetsToTxnRequest, api key 25."""

    API_KEY: ClassVar[int] = 25
    NAME: ClassVar[str] = 'AddOffsetsToTxnRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 3
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'transactional_id': (0, 4), 'producer_id': (0, 4), 'producer_epoch': (0, 4), 'group_id': (0, 4)}

    transactional_id: str = ''
    """Transactional id identifying which transaction this entry belongs to."""

    producer_id: int = 0
    """Producer id currently assigned to this transactional id."""

    producer_epoch: int = 0
    """Epoch currently paired with the producer id."""

    group_id: str = ''
    """Identifier that uniquely names the group."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_AddOffsetsToTxnRequest_v0(buf, pos):
    f_transactional_id, pos = read_string(buf, pos)
    f_producer_id, f_producer_epoch = _S0u(buf, pos)
    pos += 10
    f_group_id, pos = read_string(buf, pos)
    return AddOffsetsToTxnRequest(f_transactional_id, f_producer_id, f_producer_epoch, f_group_id), pos


def _d_AddOffsetsToTxnRequest_v3(buf, pos):
    f_transactional_id, pos = read_compact_string(buf, pos)
    f_producer_id, f_producer_epoch = _S0u(buf, pos)
    pos += 10
    f_group_id, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AddOffsetsToTxnRequest(f_transactional_id, f_producer_id, f_producer_epoch, f_group_id, unknown), pos


def _e_AddOffsetsToTxnRequest_v0(o, out):
    write_string(out, o.transactional_id)
    out += _S0p(o.producer_id, o.producer_epoch)
    write_string(out, o.group_id)


def _e_AddOffsetsToTxnRequest_v3(o, out):
    write_compact_string(out, o.transactional_id)
    out += _S0p(o.producer_id, o.producer_epoch)
    write_compact_string(out, o.group_id)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


AddOffsetsToTxnRequest._DECODERS = {
    0: _d_AddOffsetsToTxnRequest_v0,
    1: _d_AddOffsetsToTxnRequest_v0,
    2: _d_AddOffsetsToTxnRequest_v0,
    3: _d_AddOffsetsToTxnRequest_v3,
    4: _d_AddOffsetsToTxnRequest_v3,
}
AddOffsetsToTxnRequest._ENCODERS = {
    0: _e_AddOffsetsToTxnRequest_v0,
    1: _e_AddOffsetsToTxnRequest_v0,
    2: _e_AddOffsetsToTxnRequest_v0,
    3: _e_AddOffsetsToTxnRequest_v3,
    4: _e_AddOffsetsToTxnRequest_v3,
}
