# Generated from protocol/schemas/ConsumerGroupCurrentMemberAssignmentKey.json by codegen; do not edit.
"""ConsumerGroupCurrentMemberAssignmentKey: coordinator-key, api key 8, versions 0-0."""

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
    "ConsumerGroupCurrentMemberAssignmentKey",
]


@dataclass(slots=True)
class ConsumerGroupCurrentMemberAssignmentKey(Message):
    """ConsumerGroupCurrentMemberAssignmentKey, api key 8."""

    API_KEY: ClassVar[int] = 8
    NAME: ClassVar[str] = 'ConsumerGroupCurrentMemberAssignmentKey'
    TYPE: ClassVar[str] = 'coordinator-key'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = None
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 0), 'member_id': (0, 0)}

    group_id: str = ''
    """ID of the group."""

    member_id: str = ''
    """ID of the member."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ConsumerGroupCurrentMemberAssignmentKey_v0(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    f_member_id, pos = read_string(buf, pos)
    return ConsumerGroupCurrentMemberAssignmentKey(f_group_id, f_member_id), pos


def _e_ConsumerGroupCurrentMemberAssignmentKey_v0(o, out):
    write_string(out, o.group_id)
    write_string(out, o.member_id)


ConsumerGroupCurrentMemberAssignmentKey._DECODERS = {
    0: _d_ConsumerGroupCurrentMemberAssignmentKey_v0,
}
ConsumerGroupCurrentMemberAssignmentKey._ENCODERS = {
    0: _e_ConsumerGroupCurrentMemberAssignmentKey_v0,
}
