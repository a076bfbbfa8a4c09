# Generated from protocol/schemas/WriteTxnMarkersRequest.json by codegen; do not edit.
"""WriteTxnMarkersRequest: request, api key 27, versions 1-2."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
    read_compact_array_len,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "WritableTxnMarkerTopic",
    "WritableTxnMarker",
    "WriteTxnMarkersRequest",
]
_S0 = Struct('>qh?')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>ib')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>qhB')
_S3u = _S3.unpack_from
_S3p = _S3.pack


@dataclass(slots=True)
class WritableTxnMarkerTopic:
    """Topics to write markers to."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 2), 'partition_indexes': (0, 2)}

    name: str = ''
    """Name of the topic."""

    partition_indexes: list[int] = field(default_factory=list)
    """Partitions of the topic that get a marker."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class WritableTxnMarker:
    """Transaction markers to write, one entry per producer."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'producer_id': (0, 2), 'producer_epoch': (0, 2), 'transaction_result': (0, 2), 'topics': (0, 2), 'coordinator_epoch': (0, 2), 'transaction_version': (2, 2)}

    producer_id: int = 0
    """Producer ID whose transaction ends."""

    producer_epoch: int = 0
    """Epoch of the producer ID the markers are written with."""

    transaction_result: bool = False
    """How the transaction ends: true writes COMMIT markers, false writes ABORT markers."""

    topics: list[WritableTxnMarkerTopic] = field(default_factory=list)
    """Topics to write markers to."""

    coordinator_epoch: int = 0
    """Epoch of the transaction coordinator, i.e. of the __transaction_state partition it leads."""

    transaction_version: int = 0
    """Transaction protocol version the transaction ran under: 0 or 1 for the original protocol, 2 for KIP-890's."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class WriteTxnMarkersRequest(Message):
    """WriteTxnMarkersRequest, api key 27."""

    API_KEY: ClassVar[int] = 27
    NAME: ClassVar[str] = 'WriteTxnMarkersRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 1
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'markers': (0, 2)}

    markers: list[WritableTxnMarker] = field(default_factory=list)
    """Transaction markers to write, one entry per producer."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_WritableTxnMarkerTopic_v1(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partition_indexes = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return WritableTxnMarkerTopic(f_name, f_partition_indexes, unknown), pos


def _d_WritableTxnMarker_v1(buf, pos):
    f_producer_id, f_producer_epoch, f_transaction_result = _S0u(buf, pos)
    pos += 11
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_WritableTxnMarkerTopic_v1(buf, pos)
        append(item)
    f_coordinator_epoch = _S1u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return WritableTxnMarker(f_producer_id, f_producer_epoch, f_transaction_result, f_topics, f_coordinator_epoch, 0, unknown), pos


def _d_WriteTxnMarkersRequest_v1(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_markers = []
    append = f_markers.append
    for _ in range(n):
        item, pos = _d_WritableTxnMarker_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return WriteTxnMarkersRequest(f_markers, unknown), pos


def _d_WritableTxnMarker_v2(buf, pos):
    f_producer_id, f_producer_epoch, f_transaction_result = _S0u(buf, pos)
    pos += 11
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_WritableTxnMarkerTopic_v1(buf, pos)
        append(item)
    f_coordinator_epoch, f_transaction_version = _S2u(buf, pos)
    pos += 5
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return WritableTxnMarker(f_producer_id, f_producer_epoch, f_transaction_result, f_topics, f_coordinator_epoch, f_transaction_version, unknown), pos


def _d_WriteTxnMarkersRequest_v2(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_markers = []
    append = f_markers.append
    for _ in range(n):
        item, pos = _d_WritableTxnMarker_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return WriteTxnMarkersRequest(f_markers, unknown), pos


def _e_WritableTxnMarkerTopic_v1(o, out):
    write_compact_string(out, o.name)
    value = o.partition_indexes
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_WritableTxnMarker_v1(o, out):
    out += _S3p(o.producer_id, o.producer_epoch, o.transaction_result)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_WritableTxnMarkerTopic_v1(item, out)
    out += _S1p(o.coordinator_epoch)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_WriteTxnMarkersRequest_v1(o, out):
    value = o.markers
    write_compact_array_len(out, value)
    for item in value:
        _e_WritableTxnMarker_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_WritableTxnMarker_v2(o, out):
    out += _S3p(o.producer_id, o.producer_epoch, o.transaction_result)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_WritableTxnMarkerTopic_v1(item, out)
    out += _S2p(o.coordinator_epoch, o.transaction_version)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_WriteTxnMarkersRequest_v2(o, out):
    value = o.markers
    write_compact_array_len(out, value)
    for item in value:
        _e_WritableTxnMarker_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


WriteTxnMarkersRequest._DECODERS = {
    1: _d_WriteTxnMarkersRequest_v1,
    2: _d_WriteTxnMarkersRequest_v2,
}
WriteTxnMarkersRequest._ENCODERS = {
    1: _e_WriteTxnMarkersRequest_v1,
    2: _e_WriteTxnMarkersRequest_v2,
}
