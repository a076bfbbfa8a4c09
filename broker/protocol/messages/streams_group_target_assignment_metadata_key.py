# Generated from protocol/schemas/StreamsGroupTargetAssignmentMetadataKey.json by codegen; do not edit.
"""StreamsGroupTargetAssignmentMetadataKey: coordinator-key, api key 20, versions 0-0."""

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
    "StreamsGroupTargetAssignmentMetadataKey",
]


@dataclass(slots=True)
class StreamsGroupTargetAssignmentMetadataKey(Message):
    """StreamsGroupTargetAssignmentMetadataKey, api key 20."""

    API_KEY: ClassVar[int] = 20
    NAME: ClassVar[str] = 'StreamsGroupTargetAssignmentMetadataKey'
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


def _d_StreamsGroupTargetAssignmentMetadataKey_v0(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    return StreamsGroupTargetAssignmentMetadataKey(f_group_id), pos


def _e_StreamsGroupTargetAssignmentMetadataKey_v0(o, out):
    write_string(out, o.group_id)


StreamsGroupTargetAssignmentMetadataKey._DECODERS = {
    0: _d_StreamsGroupTargetAssignmentMetadataKey_v0,
}
StreamsGroupTargetAssignmentMetadataKey._ENCODERS = {
    0: _e_StreamsGroupTargetAssignmentMetadataKey_v0,
}
