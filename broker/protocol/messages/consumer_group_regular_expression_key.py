# Generated from protocol/schemas/ConsumerGroupRegularExpressionKey.json by codegen; do not edit.
"""ConsumerGroupRegularExpressionKey: coordinator-key, api key 16, versions 0-0."""

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
    "ConsumerGroupRegularExpressionKey",
]


@dataclass(slots=True)
class ConsumerGroupRegularExpressionKey(Message):
    """ConsumerGroupRegularExpressionKey, api key 16."""

    API_KEY: ClassVar[int] = 16
    NAME: ClassVar[str] = 'ConsumerGroupRegularExpressionKey'
    TYPE: ClassVar[str] = 'coordinator-key'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = None
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 0), 'regular_expression': (0, 0)}

    group_id: str = ''
    """ID of the group."""

    regular_expression: str = ''
    """Regular expression some member subscribes with."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ConsumerGroupRegularExpressionKey_v0(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    f_regular_expression, pos = read_string(buf, pos)
    return ConsumerGroupRegularExpressionKey(f_group_id, f_regular_expression), pos


def _e_ConsumerGroupRegularExpressionKey_v0(o, out):
    write_string(out, o.group_id)
    write_string(out, o.regular_expression)


ConsumerGroupRegularExpressionKey._DECODERS = {
    0: _d_ConsumerGroupRegularExpressionKey_v0,
}
ConsumerGroupRegularExpressionKey._ENCODERS = {
    0: _e_ConsumerGroupRegularExpressionKey_v0,
}
