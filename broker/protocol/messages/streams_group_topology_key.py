# Generated from protocol/schemas/StreamsGroupTopologyKey.json by codegen; do not edit.
"""StreamsGroupTopologyKey: coordinator-key, api key 23, versions 0-0."""

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
    "StreamsGroupTopologyKey",
]


@dataclass(slots=True)
class StreamsGroupTopologyKey(Message):
    """StreamsGroupTopologyKey, api key 23."""

    API_KEY: ClassVar[int] = 23
    NAME: ClassVar[str] = 'StreamsGroupTopologyKey'
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


def _d_StreamsGroupTopologyKey_v0(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    return StreamsGroupTopologyKey(f_group_id), pos


def _e_StreamsGroupTopologyKey_v0(o, out):
    write_string(out, o.group_id)


StreamsGroupTopologyKey._DECODERS = {
    0: _d_StreamsGroupTopologyKey_v0,
}
StreamsGroupTopologyKey._ENCODERS = {
    0: _e_StreamsGroupTopologyKey_v0,
}
