# Generated from protocol/schemas/ConsumerGroupTargetAssignmentMetadataValue.json by codegen; do not edit.
"""ConsumerGroupTargetAssignmentMetadataValue: coordinator-value, api key 6, versions 0-0."""

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
    "ConsumerGroupTargetAssignmentMetadataValue",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>q')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class ConsumerGroupTargetAssignmentMetadataValue(Message):
    """ConsumerGroupTargetAssignmentMetadataValue, api key 6."""

    API_KEY: ClassVar[int] = 6
    NAME: ClassVar[str] = 'ConsumerGroupTargetAssignmentMetadataValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'assignment_epoch': (0, 0), 'assignment_timestamp': (0, 0)}

    assignment_epoch: int = 0
    """Epoch of the target assignment."""

    assignment_timestamp: int = 0
    """Time, in milliseconds, at which the assignment was computed; 0 when not recorded."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ConsumerGroupTargetAssignmentMetadataValue_v0(buf, pos):
    f_assignment_epoch = _S0u(buf, pos)[0]
    pos += 4
    f_assignment_timestamp = 0
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                f_assignment_timestamp = _S1u(buf, p)[0]
                p += 8
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return ConsumerGroupTargetAssignmentMetadataValue(f_assignment_epoch, f_assignment_timestamp, unknown), pos


def _e_ConsumerGroupTargetAssignmentMetadataValue_v0(o, out):
    out += _S0p(o.assignment_epoch)
    tags = list(o._unknown_tagged_fields)
    if o.assignment_timestamp != 0:
        t = bytearray()
        t += _S1p(o.assignment_timestamp)
        tags.append((0, t))
    write_tagged_fields(out, tags)


ConsumerGroupTargetAssignmentMetadataValue._DECODERS = {
    0: _d_ConsumerGroupTargetAssignmentMetadataValue_v0,
}
ConsumerGroupTargetAssignmentMetadataValue._ENCODERS = {
    0: _e_ConsumerGroupTargetAssignmentMetadataValue_v0,
}
