# Generated from protocol/schemas/ConsumerGroupMetadataKey.json by codegen; do not edit.
"""ConsumerGroupMetadataKey: coordinator-key, api key 3, versions 0-0."""

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
    "ConsumerGroupMetadataKey",
]


@dataclass(slots=True)
class ConsumerGroupMetadataKey(Message):
    """ConsumerGroupMetadataKey, api key 3."""

    API_KEY: ClassVar[int] = 3
    NAME: ClassVar[str] = 'ConsumerGroupMetadataKey'
    TYPE: ClassVar[str] = 'coordinator-key'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = None
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 0)}

    group_id: str = ''
    """ID of the group."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ConsumerGroupMetadataKey_v0(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    return ConsumerGroupMetadataKey(f_group_id), pos


def _e_ConsumerGroupMetadataKey_v0(o, out):
    write_string(out, o.group_id)


ConsumerGroupMetadataKey._DECODERS = {
    0: _d_ConsumerGroupMetadataKey_v0,
}
ConsumerGroupMetadataKey._ENCODERS = {
    0: _e_ConsumerGroupMetadataKey_v0,
}
