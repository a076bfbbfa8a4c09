# Generated from protocol/schemas/GroupMetadataKey.json by codegen; do not edit.
"""GroupMetadataKey: coordinator-key, api key 2, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_string,
    write_string,
)

__all__ = [
    "GroupMetadataKey",
]


@dataclass(slots=True)
class GroupMetadataKey(Message):
    """GroupMetadataKey, api key 2."""

    API_KEY: ClassVar[int] = 2
    NAME: ClassVar[str] = 'GroupMetadataKey'
    TYPE: ClassVar[str] = 'coordinator-key'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = None
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group': (0, 0)}

    group: str = ''
    """ID of the group."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_GroupMetadataKey_v0(buf, pos):
    f_group, pos = read_string(buf, pos)
    return GroupMetadataKey(f_group), pos


def _e_GroupMetadataKey_v0(o, out):
    write_string(out, o.group)


GroupMetadataKey._DECODERS = {
    0: _d_GroupMetadataKey_v0,
}
GroupMetadataKey._ENCODERS = {
    0: _e_GroupMetadataKey_v0,
}
