# Generated from protocol/schemas/OffsetDeleteRequest.json by codegen; do not edit.
"""OffsetDeleteRequest: request, api key 47, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_array_len,
    read_string,
    write_array_len,
    write_string,
)

__all__ = [
    "OffsetDeleteRequestPartition",
    "OffsetDeleteRequestTopic",
    "OffsetDeleteRequest",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class OffsetDeleteRequestPartition:
    """One entry for every partition whose offsets are to be deleted."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 0)}

    partition_index: int = 0
    """Index of the partition."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetDeleteRequestTopic:
    """Topics whose offsets should be deleted."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 0), 'partitions': (0, 0)}

    name: str = ''
    """Name of the topic."""

    partitions: list[OffsetDeleteRequestPartition] = field(default_factory=list)
    """One entry for every partition whose offsets are to be deleted."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetDeleteRequest(Message):
    """OffsetDeleteRequest, api key 47."""

    API_KEY: ClassVar[int] = 47
    NAME: ClassVar[str] = 'OffsetDeleteRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = None
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 0), 'topics': (0, 0)}

    group_id: str = ''
    """Identifier that uniquely names the group."""

    topics: list[OffsetDeleteRequestTopic] = field(default_factory=list)
    """Topics whose offsets should be deleted."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_OffsetDeleteRequestPartition_v0(buf, pos):
    f_partition_index = _S0u(buf, pos)[0]
    pos += 4
    return OffsetDeleteRequestPartition(f_partition_index), pos


def _d_OffsetDeleteRequestTopic_v0(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_OffsetDeleteRequestPartition_v0(buf, pos)
        append(item)
    return OffsetDeleteRequestTopic(f_name, f_partitions), pos


def _d_OffsetDeleteRequest_v0(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetDeleteRequestTopic_v0(buf, pos)
        append(item)
    return OffsetDeleteRequest(f_group_id, f_topics), pos


def _e_OffsetDeleteRequestPartition_v0(o, out):
    out += _S0p(o.partition_index)


def _e_OffsetDeleteRequestTopic_v0(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_OffsetDeleteRequestPartition_v0(item, out)


def _e_OffsetDeleteRequest_v0(o, out):
    write_string(out, o.group_id)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_OffsetDeleteRequestTopic_v0(item, out)


OffsetDeleteRequest._DECODERS = {
    0: _d_OffsetDeleteRequest_v0,
}
OffsetDeleteRequest._ENCODERS = {
    0: _e_OffsetDeleteRequest_v0,
}
