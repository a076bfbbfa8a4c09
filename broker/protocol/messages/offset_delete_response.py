# Generated from protocol/schemas/OffsetDeleteResponse.json by codegen; do not edit.
"""OffsetDeleteResponse: response, api key 47, versions 0-0."""

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
    "OffsetDeleteResponsePartition",
    "OffsetDeleteResponseTopic",
    "OffsetDeleteResponse",
]
_S0 = Struct('>hi')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>ih')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class OffsetDeleteResponsePartition:
    """Results for every partition of the topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 0), 'error_code': (0, 0)}

    partition_index: int = 0
    """Index of the partition."""

    error_code: int = 0
    """Error code; 0 means success."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetDeleteResponseTopic:
    """Results for every topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 0), 'partitions': (0, 0)}

    name: str = ''
    """Name of the topic."""

    partitions: list[OffsetDeleteResponsePartition] = field(default_factory=list)
    """Results for every partition of the topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetDeleteResponse(Message):
    """OffsetDeleteResponse, api key 47."""

    API_KEY: ClassVar[int] = 47
    NAME: ClassVar[str] = 'OffsetDeleteResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = None
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 0), 'throttle_time_ms': (0, 0), 'topics': (0, 0)}

    error_code: int = 0
    """Error code for the whole response; 0 means success."""

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    topics: list[OffsetDeleteResponseTopic] = field(default_factory=list)
    """Results for every topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_OffsetDeleteResponsePartition_v0(buf, pos):
    f_partition_index, f_error_code = _S1u(buf, pos)
    pos += 6
    return OffsetDeleteResponsePartition(f_partition_index, f_error_code), pos


def _d_OffsetDeleteResponseTopic_v0(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_OffsetDeleteResponsePartition_v0(buf, pos)
        append(item)
    return OffsetDeleteResponseTopic(f_name, f_partitions), pos


def _d_OffsetDeleteResponse_v0(buf, pos):
    f_error_code, f_throttle_time_ms = _S0u(buf, pos)
    pos += 6
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetDeleteResponseTopic_v0(buf, pos)
        append(item)
    return OffsetDeleteResponse(f_error_code, f_throttle_time_ms, f_topics), pos


def _e_OffsetDeleteResponsePartition_v0(o, out):
    out += _S1p(o.partition_index, o.error_code)


def _e_OffsetDeleteResponseTopic_v0(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    for item in value:
        _e_OffsetDeleteResponsePartition_v0(item, out)


def _e_OffsetDeleteResponse_v0(o, out):
    out += _S0p(o.error_code, o.throttle_time_ms)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_OffsetDeleteResponseTopic_v0(item, out)


OffsetDeleteResponse._DECODERS = {
    0: _d_OffsetDeleteResponse_v0,
}
OffsetDeleteResponse._ENCODERS = {
    0: _e_OffsetDeleteResponse_v0,
}
