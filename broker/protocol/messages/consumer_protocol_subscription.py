# Generated from protocol/schemas/ConsumerProtocolSubscription.json by codegen; do not edit.
"""ConsumerProtocolSubscription: data, versions 0-3."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
    read_array_len,
    read_nullable_bytes,
    read_nullable_string,
    read_string,
    write_array_len,
    write_nullable_bytes,
    write_nullable_string,
    write_string,
)

__all__ = [
    "TopicPartition",
    "ConsumerProtocolSubscription",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class TopicPartition:
    """Partitions currently owned by the member."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic': (1, 3), 'partitions': (1, 3)}

    topic: str = ''
    """Name of the topic."""

    partitions: list[int] = field(default_factory=list)
    """IDs of the partitions."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ConsumerProtocolSubscription(Message):
    """ConsumerProtocolSubscription, api key None."""

    API_KEY: ClassVar[int] = -1
    NAME: ClassVar[str] = 'ConsumerProtocolSubscription'
    TYPE: ClassVar[str] = 'data'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = None
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topics': (0, 3), 'user_data': (0, 3), 'owned_partitions': (1, 3), 'generation_id': (2, 3), 'rack_id': (3, 3)}

    topics: list[str] = field(default_factory=list)
    """Topics the member wishes to consume."""

    user_data: bytes | None = None
    """Opaque user data returned to the consumer."""

    owned_partitions: list[TopicPartition] = field(default_factory=list)
    """Partitions currently owned by the member."""

    generation_id: int = -1
    """Generation id the member belongs to."""

    rack_id: str | None = None
    """Rack id of the member."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ConsumerProtocolSubscription_v0(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = read_string(buf, pos)
        append(item)
    f_user_data, pos = read_nullable_bytes(buf, pos)
    return ConsumerProtocolSubscription(f_topics, f_user_data, [], -1, None), pos


def _d_TopicPartition_v1(buf, pos):
    f_topic, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    return TopicPartition(f_topic, f_partitions), pos


def _d_ConsumerProtocolSubscription_v1(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = read_string(buf, pos)
        append(item)
    f_user_data, pos = read_nullable_bytes(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_owned_partitions = []
    append = f_owned_partitions.append
    for _ in range(n):
        item, pos = _d_TopicPartition_v1(buf, pos)
        append(item)
    return ConsumerProtocolSubscription(f_topics, f_user_data, f_owned_partitions, -1, None), pos


def _d_ConsumerProtocolSubscription_v2(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = read_string(buf, pos)
        append(item)
    f_user_data, pos = read_nullable_bytes(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_owned_partitions = []
    append = f_owned_partitions.append
    for _ in range(n):
        item, pos = _d_TopicPartition_v1(buf, pos)
        append(item)
    f_generation_id = _S0u(buf, pos)[0]
    pos += 4
    return ConsumerProtocolSubscription(f_topics, f_user_data, f_owned_partitions, f_generation_id, None), pos


def _d_ConsumerProtocolSubscription_v3(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = read_string(buf, pos)
        append(item)
    f_user_data, pos = read_nullable_bytes(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_owned_partitions = []
    append = f_owned_partitions.append
    for _ in range(n):
        item, pos = _d_TopicPartition_v1(buf, pos)
        append(item)
    f_generation_id = _S0u(buf, pos)[0]
    pos += 4
    f_rack_id, pos = read_nullable_string(buf, pos)
    return ConsumerProtocolSubscription(f_topics, f_user_data, f_owned_partitions, f_generation_id, f_rack_id), pos


def _e_ConsumerProtocolSubscription_v0(o, out):
    value = o.topics
    write_array_len(out, value)
    for item in value:
        write_string(out, item)
    write_nullable_bytes(out, o.user_data)


def _e_TopicPartition_v1(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    out += pack('>%di' % len(value), *value)


def _e_ConsumerProtocolSubscription_v1(o, out):
    value = o.topics
    write_array_len(out, value)
    for item in value:
        write_string(out, item)
    write_nullable_bytes(out, o.user_data)
    value = o.owned_partitions
    write_array_len(out, value)
    for item in value:
        _e_TopicPartition_v1(item, out)


def _e_ConsumerProtocolSubscription_v2(o, out):
    value = o.topics
    write_array_len(out, value)
    for item in value:
        write_string(out, item)
    write_nullable_bytes(out, o.user_data)
    value = o.owned_partitions
    write_array_len(out, value)
    for item in value:
        _e_TopicPartition_v1(item, out)
    out += _S0p(o.generation_id)


def _e_ConsumerProtocolSubscription_v3(o, out):
    value = o.topics
    write_array_len(out, value)
    for item in value:
        write_string(out, item)
    write_nullable_bytes(out, o.user_data)
    value = o.owned_partitions
    write_array_len(out, value)
    for item in value:
        _e_TopicPartition_v1(item, out)
    out += _S0p(o.generation_id)
    write_nullable_string(out, o.rack_id)


ConsumerProtocolSubscription._DECODERS = {
    0: _d_ConsumerProtocolSubscription_v0,
    1: _d_ConsumerProtocolSubscription_v1,
    2: _d_ConsumerProtocolSubscription_v2,
    3: _d_ConsumerProtocolSubscription_v3,
}
ConsumerProtocolSubscription._ENCODERS = {
    0: _e_ConsumerProtocolSubscription_v0,
    1: _e_ConsumerProtocolSubscription_v1,
    2: _e_ConsumerProtocolSubscription_v2,
    3: _e_ConsumerProtocolSubscription_v3,
}
