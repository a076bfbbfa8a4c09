# Generated from protocol/schemas/ShareGroupTargetAssignmentMetadataValue.json by codegen; do not edit.
"""ShareGroupTargetAssignmentMetadataValue: coordinator-value, api key 12, versions 0-0."""

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
    "ShareGroupTargetAssignmentMetadataValue",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class ShareGroupTargetAssignmentMetadataValue(Message):
    """ShareGroupTargetAssignmentMetadataValue, api key 12."""

    API_KEY: ClassVar[int] = 12
    NAME: ClassVar[str] = 'ShareGroupTargetAssignmentMetadataValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'assignment_epoch': (0, 0)}

    assignment_epoch: int = 0
    """Epoch of the assignment."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ShareGroupTargetAssignmentMetadataValue_v0(buf, pos):
    f_assignment_epoch = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ShareGroupTargetAssignmentMetadataValue(f_assignment_epoch, unknown), pos


def _e_ShareGroupTargetAssignmentMetadataValue_v0(o, out):
    out += _S0p(o.assignment_epoch)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ShareGroupTargetAssignmentMetadataValue._DECODERS = {
    0: _d_ShareGroupTargetAssignmentMetadataValue_v0,
}
ShareGroupTargetAssignmentMetadataValue._ENCODERS = {
    0: _e_ShareGroupTargetAssignmentMetadataValue_v0,
}
