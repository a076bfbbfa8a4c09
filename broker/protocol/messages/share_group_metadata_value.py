# Generated from protocol/schemas/ShareGroupMetadataValue.json by codegen; do not edit.
"""ShareGroupMetadataValue: coordinator-value, api key 11, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_unknown_tags,
    write_tagged_fields,
)

__all__ = [
    "ShareGroupMetadataValue",
]
_S0 = Struct('>iq')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class ShareGroupMetadataValue(Message):
    """ShareGroupMetadataValue, api key 11."""

    API_KEY: ClassVar[int] = 11
    NAME: ClassVar[str] = 'ShareGroupMetadataValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'epoch': (0, 0), 'metadata_hash': (0, 0)}

    epoch: int = 0
    """Epoch of the group."""

    metadata_hash: int = 0
    """Hash computed over every topic in the group."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ShareGroupMetadataValue_v0(buf, pos):
    f_epoch, f_metadata_hash = _S0u(buf, pos)
    pos += 12
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ShareGroupMetadataValue(f_epoch, f_metadata_hash, unknown), pos


def _e_ShareGroupMetadataValue_v0(o, out):
    out += _S0p(o.epoch, o.metadata_hash)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ShareGroupMetadataValue._DECODERS = {
    0: _d_ShareGroupMetadataValue_v0,
}
ShareGroupMetadataValue._ENCODERS = {
    0: _e_ShareGroupMetadataValue_v0,
}
