# Generated from protocol/schemas/ShareUpdateKey.json by codegen; do not edit.
"""ShareUpdateKey: coordinator-key, api key 1, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
import uuid

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    read_string,
    read_uuid,
    write_string,
    write_uuid,
)

__all__ = [
    "ShareUpdateKey",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class ShareUpdateKey(Message):
    """ShareUpdateKey, api key 1."""

    API_KEY: ClassVar[int] = 1
    NAME: ClassVar[str] = 'ShareUpdateKey'
    TYPE: ClassVar[str] = 'coordinator-key'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = None
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 0), 'topic_id': (0, 0), 'partition': (0, 0)}

    group_id: str = ''
    """ID of the group."""

    topic_id: uuid.UUID = UUID_ZERO
    """ID of the topic."""

    partition: int = 0
    """Index of the partition."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ShareUpdateKey_v0(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    f_topic_id, pos = read_uuid(buf, pos)
    f_partition = _S0u(buf, pos)[0]
    pos += 4
    return ShareUpdateKey(f_group_id, f_topic_id, f_partition), pos


def _e_ShareUpdateKey_v0(o, out):
    write_string(out, o.group_id)
    write_uuid(out, o.topic_id)
    out += _S0p(o.partition)


ShareUpdateKey._DECODERS = {
    0: _d_ShareUpdateKey_v0,
}
ShareUpdateKey._ENCODERS = {
    0: _e_ShareUpdateKey_v0,
}
