# Generated from protocol/schemas/ConsumerGroupRegularExpressionValue.json by codegen; do not edit.
"""ConsumerGroupRegularExpressionValue: coordinator-value, api key 16, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_array_len,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "ConsumerGroupRegularExpressionValue",
]
_S0 = Struct('>qq')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class ConsumerGroupRegularExpressionValue(Message):
    """ConsumerGroupRegularExpressionValue, api key 16."""

    API_KEY: ClassVar[int] = 16
    NAME: ClassVar[str] = 'ConsumerGroupRegularExpressionValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topics': (0, 0), 'version': (0, 0), 'timestamp': (0, 0)}

    topics: list[str] = field(default_factory=list)
    """Topics the regular expression matched when last resolved."""

    version: int = 0
    """Version of the metadata image it was resolved against."""

    timestamp: int = 0
    """When it was resolved, in milliseconds since the epoch."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ConsumerGroupRegularExpressionValue_v0(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    f_version, f_timestamp = _S0u(buf, pos)
    pos += 16
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ConsumerGroupRegularExpressionValue(f_topics, f_version, f_timestamp, unknown), pos


def _e_ConsumerGroupRegularExpressionValue_v0(o, out):
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    out += _S0p(o.version, o.timestamp)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ConsumerGroupRegularExpressionValue._DECODERS = {
    0: _d_ConsumerGroupRegularExpressionValue_v0,
}
ConsumerGroupRegularExpressionValue._ENCODERS = {
    0: _e_ConsumerGroupRegularExpressionValue_v0,
}
