# Generated from protocol/schemas/OffsetCommitKey.json by codegen; do not edit.
"""OffsetCommitKey: coordinator-key, api key 1, versions 0-0."""

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
    "OffsetCommitKey",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class OffsetCommitKey(Message):
    """OffsetCommitKey, api key 1."""

    API_KEY: ClassVar[int] = 1
    NAME: ClassVar[str] = 'OffsetCommitKey'
    TYPE: ClassVar[str] = 'coordinator-key'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = None
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group': (0, 0), 'topic': (0, 0), 'partition': (0, 0)}

    group: str = ''
    """ID of the consumer group."""

    topic: str = ''
    """Name of the topic."""

    partition: int = 0
    """Index of the partition within the topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_OffsetCommitKey_v0(buf, pos):
    f_group, pos = read_string(buf, pos)
    f_topic, pos = read_string(buf, pos)
    f_partition = _S0u(buf, pos)[0]
    pos += 4
    return OffsetCommitKey(f_group, f_topic, f_partition), pos


def _e_OffsetCommitKey_v0(o, out):
    write_string(out, o.group)
    write_string(out, o.topic)
    out += _S0p(o.partition)


OffsetCommitKey._DECODERS = {
    0: _d_OffsetCommitKey_v0,
}
OffsetCommitKey._ENCODERS = {
    0: _e_OffsetCommitKey_v0,
}
