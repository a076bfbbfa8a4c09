# Generated from protocol/schemas/WriteTxnMarkersResponse.json by codegen; do not edit.
"""WriteTxnMarkersResponse: response, api key 27, versions 1-2."""

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
    "WritableTxnMarkerPartitionResult",
    "WritableTxnMarkerTopicResult",
    "WritableTxnMarkerResult",
    "WriteTxnMarkersResponse",
]
_S0 = Struct('>q')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>ih')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class WritableTxnMarkerPartitionResult:
    """Results for every partition of the topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'partition_index': (0, 2), 'error_code': (0, 2)}

    partition_index: int = 0
    """Index of the partition."""

    error_code: int = 0
    """Error writing the marker to this partition; 0 means success."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class WritableTxnMarkerTopicResult:
    """Results for every topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 2), 'partitions': (0, 2)}

    name: str = ''
    """Name of the topic."""

    partitions: list[WritableTxnMarkerPartitionResult] = field(default_factory=list)
    """Results for every partition of the topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class WritableTxnMarkerResult:
    """Results, one entry per producer in the request."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'producer_id': (0, 2), 'topics': (0, 2)}

    producer_id: int = 0
    """Producer ID the markers were written for."""

    topics: list[WritableTxnMarkerTopicResult] = field(default_factory=list)
    """Results for every topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class WriteTxnMarkersResponse(Message):
    """WriteTxnMarkersResponse, api key 27."""

    API_KEY: ClassVar[int] = 27
    NAME: ClassVar[str] = 'WriteTxnMarkersResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 1
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'markers': (0, 2)}

    markers: list[WritableTxnMarkerResult] = field(default_factory=list)
    """Results, one entry per producer in the request."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_WritableTxnMarkerPartitionResult_v1(buf, pos):
    f_partition_index, f_error_code = _S1u(buf, pos)
    pos += 6
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return WritableTxnMarkerPartitionResult(f_partition_index, f_error_code, unknown), pos


def _d_WritableTxnMarkerTopicResult_v1(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_partitions = []
    append = f_partitions.append
    for _ in range(n):
        item, pos = _d_WritableTxnMarkerPartitionResult_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return WritableTxnMarkerTopicResult(f_name, f_partitions, unknown), pos


def _d_WritableTxnMarkerResult_v1(buf, pos):
    f_producer_id = _S0u(buf, pos)[0]
    pos += 8
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_WritableTxnMarkerTopicResult_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return WritableTxnMarkerResult(f_producer_id, f_topics, unknown), pos


def _d_WriteTxnMarkersResponse_v1(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_markers = []
    append = f_markers.append
    for _ in range(n):
        item, pos = _d_WritableTxnMarkerResult_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return WriteTxnMarkersResponse(f_markers, unknown), pos


def _e_WritableTxnMarkerPartitionResult_v1(o, out):
    out += _S1p(o.partition_index, o.error_code)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_WritableTxnMarkerTopicResult_v1(o, out):
    write_compact_string(out, o.name)
    value = o.partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_WritableTxnMarkerPartitionResult_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_WritableTxnMarkerResult_v1(o, out):
    out += _S0p(o.producer_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_WritableTxnMarkerTopicResult_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_WriteTxnMarkersResponse_v1(o, out):
    value = o.markers
    write_compact_array_len(out, value)
    for item in value:
        _e_WritableTxnMarkerResult_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


WriteTxnMarkersResponse._DECODERS = {
    1: _d_WriteTxnMarkersResponse_v1,
    2: _d_WriteTxnMarkersResponse_v1,
}
WriteTxnMarkersResponse._ENCODERS = {
    1: _e_WriteTxnMarkersResponse_v1,
    2: _e_WriteTxnMarkersResponse_v1,
}
