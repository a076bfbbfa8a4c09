# Generated from protocol/schemas/ConsumerGroupMetadataValue.json by codegen; do not edit.
"""ConsumerGroupMetadataValue: coordinator-value, api key 3, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_tag_header,
    read_uvarint,
    write_tagged_fields,
)

__all__ = [
    "ConsumerGroupMetadataValue",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>q')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class ConsumerGroupMetadataValue(Message):
    """ConsumerGroupMetadataValue, api key 3."""

    API_KEY: ClassVar[int] = 3
    NAME: ClassVar[str] = 'ConsumerGroupMetadataValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'epoch': (0, 0), 'metadata_hash': (0, 0)}

    epoch: int = 0
    """Epoch of the group."""

    metadata_hash: int = 0
    """Hash of the metadata of every topic the group subscribes to (KIP-1101); a change triggers a new assignment."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ConsumerGroupMetadataValue_v0(buf, pos):
    f_epoch = _S0u(buf, pos)[0]
    pos += 4
    f_metadata_hash = 0
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                f_metadata_hash = _S1u(buf, p)[0]
                p += 8
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return ConsumerGroupMetadataValue(f_epoch, f_metadata_hash, unknown), pos


def _e_ConsumerGroupMetadataValue_v0(o, out):
    out += _S0p(o.epoch)
    tags = list(o._unknown_tagged_fields)
    if o.metadata_hash != 0:
        t = bytearray()
        t += _S1p(o.metadata_hash)
        tags.append((0, t))
    write_tagged_fields(out, tags)


ConsumerGroupMetadataValue._DECODERS = {
    0: _d_ConsumerGroupMetadataValue_v0,
}
ConsumerGroupMetadataValue._ENCODERS = {
    0: _e_ConsumerGroupMetadataValue_v0,
}
