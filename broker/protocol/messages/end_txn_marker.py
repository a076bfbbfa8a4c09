# Generated from protocol/schemas/EndTxnMarker.json by codegen; do not edit.
"""EndTxnMarker: data, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message

__all__ = [
    "EndTxnMarker",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class EndTxnMarker(Message):
    """EndTxnMarker, api key None."""

    API_KEY: ClassVar[int] = -1
    NAME: ClassVar[str] = 'EndTxnMarker'
    TYPE: ClassVar[str] = 'data'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = None
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'coordinator_epoch': (0, 0)}

    coordinator_epoch: int = 0
    """Epoch of the coordinator at the time the record was appended."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_EndTxnMarker_v0(buf, pos):
    f_coordinator_epoch = _S0u(buf, pos)[0]
    pos += 4
    return EndTxnMarker(f_coordinator_epoch), pos


def _e_EndTxnMarker_v0(o, out):
    out += _S0p(o.coordinator_epoch)


EndTxnMarker._DECODERS = {
    0: _d_EndTxnMarker_v0,
}
EndTxnMarker._ENCODERS = {
    0: _e_EndTxnMarker_v0,
}
