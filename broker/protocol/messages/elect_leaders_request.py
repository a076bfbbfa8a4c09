# Generated from protocol/schemas/ElectLeadersRequest.json by codegen; do not edit.
"""ElectLeadersRequest: request, api key 43, versions 0-2."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
    read_array_len,
    read_compact_array_len,
    read_compact_nullable_array_len,
    read_compact_string,
    read_nullable_array_len,
    read_string,
    read_unknown_tags,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_array_len,
    write_compact_string,
    write_nullable_array_len,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "TopicPartitions",
    "ElectLeadersRequest",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>b')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class TopicPartitions:
    """Partitions to hold elections for; null means every partition."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic': (0, 2), 'partitions': (0, 2)}

    topic: str = ''
    """Name of the topic."""

    partitions: list[int] = field(default_factory=list)
    """Partitions of the topic to hold elections for."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ElectLeadersRequest(Message):
    """ElectLeadersRequest, api key 43."""

    API_KEY: ClassVar[int] = 43
    NAME: ClassVar[str] = 'ElectLeadersRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'election_type': (1, 2), 'topic_partitions': (0, 2), 'timeout_ms': (0, 2)}

    election_type: int = 0
    """Kind of election: 0 elects the preferred replica, 1 elects any live replica when no in-sync replica is left (unclean)."""

    topic_partitions: list[TopicPartitions] | None = field(default_factory=list)
    """Partitions to hold elections for; null means every partition."""

    timeout_ms: int = 60000
    """How long, in milliseconds, to wait for the elections to finish."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_TopicPartitions_v0(buf, pos):
    f_topic, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    return TopicPartitions(f_topic, f_partitions), pos


def _d_ElectLeadersRequest_v0(buf, pos):
    n, pos = read_nullable_array_len(buf, pos)
    if n < 0:
        f_topic_partitions = None
    else:
        f_topic_partitions = []
        append = f_topic_partitions.append
        for _ in range(n):
            item, pos = _d_TopicPartitions_v0(buf, pos)
            append(item)
    f_timeout_ms = _S0u(buf, pos)[0]
    pos += 4
    return ElectLeadersRequest(0, f_topic_partitions, f_timeout_ms), pos


def _d_ElectLeadersRequest_v1(buf, pos):
    f_election_type = _S1u(buf, pos)[0]
    pos += 1
    n, pos = read_nullable_array_len(buf, pos)
    if n < 0:
        f_topic_partitions = None
    else:
        f_topic_partitions = []
        append = f_topic_partitions.append
        for _ in range(n):
            item, pos = _d_TopicPartitions_v0(buf, pos)
            append(item)
    f_timeout_ms = _S0u(buf, pos)[0]
    pos += 4
    return ElectLeadersRequest(f_election_type, f_topic_partitions, f_timeout_ms), pos


def _d_TopicPartitions_v2(buf, pos):
    f_topic, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopicPartitions(f_topic, f_partitions, unknown), pos


def _d_ElectLeadersRequest_v2(buf, pos):
    f_election_type = _S1u(buf, pos)[0]
    pos += 1
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_topic_partitions = None
    else:
        f_topic_partitions = []
        append = f_topic_partitions.append
        for _ in range(n):
            item, pos = _d_TopicPartitions_v2(buf, pos)
            append(item)
    f_timeout_ms = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ElectLeadersRequest(f_election_type, f_topic_partitions, f_timeout_ms, unknown), pos


def _e_TopicPartitions_v0(o, out):
    write_string(out, o.topic)
    value = o.partitions
    write_array_len(out, value)
    out += pack('>%di' % len(value), *value)


def _e_ElectLeadersRequest_v0(o, out):
    if o.election_type != 0:
        raise UnsupportedFieldError('ElectLeadersRequest v0 cannot carry a non-default ElectionType')
    value = o.topic_partitions
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_TopicPartitions_v0(item, out)
    out += _S0p(o.timeout_ms)


def _e_ElectLeadersRequest_v1(o, out):
    out += _S1p(o.election_type)
    value = o.topic_partitions
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_TopicPartitions_v0(item, out)
    out += _S0p(o.timeout_ms)


def _e_TopicPartitions_v2(o, out):
    write_compact_string(out, o.topic)
    value = o.partitions
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ElectLeadersRequest_v2(o, out):
    out += _S1p(o.election_type)
    value = o.topic_partitions
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_TopicPartitions_v2(item, out)
    out += _S0p(o.timeout_ms)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ElectLeadersRequest._DECODERS = {
    0: _d_ElectLeadersRequest_v0,
    1: _d_ElectLeadersRequest_v1,
    2: _d_ElectLeadersRequest_v2,
}
ElectLeadersRequest._ENCODERS = {
    0: _e_ElectLeadersRequest_v0,
    1: _e_ElectLeadersRequest_v1,
    2: _e_ElectLeadersRequest_v2,
}
