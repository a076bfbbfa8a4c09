# Generated from protocol/schemas/DescribeClusterResponse.json by codegen; do not edit.
"""DescribeClusterResponse: response, api key 60, versions 0-2."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "DescribeClusterBroker",
    "DescribeClusterResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>b')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>?')
_S3u = _S3.unpack_from
_S3p = _S3.pack
_S4 = Struct('>B')
_S4u = _S4.unpack_from
_S4p = _S4.pack


@dataclass(slots=True)
class DescribeClusterBroker:
    """One entry per broker in the response."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'broker_id': (0, 2), 'host': (0, 2), 'port': (0, 2), 'rack': (0, 2), 'is_fenced': (2, 2)}

    broker_id: int = 0
    """ID of the broker."""

    host: str = ''
    """Hostname of the broker."""

    port: int = 0
    """Port the broker listens on."""

    rack: str | None = None
    """Rack the broker is assigned to, or null when no rack is set."""

    is_fenced: bool = False
    """Indicates whether this broker is currently fenced."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeClusterResponse(Message):
    """DescribeClusterResponse, api key 60."""

    API_KEY: ClassVar[int] = 60
    NAME: ClassVar[str] = 'DescribeClusterResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 2), 'error_code': (0, 2), 'error_message': (0, 2), 'endpoint_type': (1, 2), 'cluster_id': (0, 2), 'controller_id': (0, 2), 'brokers': (0, 2), 'cluster_authorized_operations': (0, 2)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code for the whole response; 0 means success."""

    error_message: str | None = None
    """Error message for the whole response; null when no error occurred."""

    endpoint_type: int = 1
    """Which kind of endpoints were described: 1=brokers, 2=controllers."""

    cluster_id: str = ''
    """ID of the cluster the responding broker is part of."""

    controller_id: int = -1
    """Controller ID; a controller handling the request reports the current voter leader ID, while a broker handling it falls back to reporting a random live broker ID."""

    brokers: list[DescribeClusterBroker] = field(default_factory=list)
    """One entry per broker in the response."""

    cluster_authorized_operations: int = -2147483648
    """Bitfield (32 bits) encoding the operations authorized on this cluster."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DescribeClusterBroker_v0(buf, pos):
    f_broker_id = _S1u(buf, pos)[0]
    pos += 4
    f_host, pos = read_compact_string(buf, pos)
    f_port = _S1u(buf, pos)[0]
    pos += 4
    f_rack, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeClusterBroker(f_broker_id, f_host, f_port, f_rack, False, unknown), pos


def _d_DescribeClusterResponse_v0(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_cluster_id, pos = read_compact_string(buf, pos)
    f_controller_id = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_brokers = []
    append = f_brokers.append
    for _ in range(n):
        item, pos = _d_DescribeClusterBroker_v0(buf, pos)
        append(item)
    f_cluster_authorized_operations = _S1u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeClusterResponse(f_throttle_time_ms, f_error_code, f_error_message, 1, f_cluster_id, f_controller_id, f_brokers, f_cluster_authorized_operations, unknown), pos


def _d_DescribeClusterResponse_v1(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_endpoint_type = _S2u(buf, pos)[0]
    pos += 1
    f_cluster_id, pos = read_compact_string(buf, pos)
    f_controller_id = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_brokers = []
    append = f_brokers.append
    for _ in range(n):
        item, pos = _d_DescribeClusterBroker_v0(buf, pos)
        append(item)
    f_cluster_authorized_operations = _S1u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeClusterResponse(f_throttle_time_ms, f_error_code, f_error_message, f_endpoint_type, f_cluster_id, f_controller_id, f_brokers, f_cluster_authorized_operations, unknown), pos


def _d_DescribeClusterBroker_v2(buf, pos):
    f_broker_id = _S1u(buf, pos)[0]
    pos += 4
    f_host, pos = read_compact_string(buf, pos)
    f_port = _S1u(buf, pos)[0]
    pos += 4
    f_rack, pos = read_compact_nullable_string(buf, pos)
    f_is_fenced = _S3u(buf, pos)[0]
    pos += 1
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeClusterBroker(f_broker_id, f_host, f_port, f_rack, f_is_fenced, unknown), pos


def _d_DescribeClusterResponse_v2(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_endpoint_type = _S2u(buf, pos)[0]
    pos += 1
    f_cluster_id, pos = read_compact_string(buf, pos)
    f_controller_id = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_brokers = []
    append = f_brokers.append
    for _ in range(n):
        item, pos = _d_DescribeClusterBroker_v2(buf, pos)
        append(item)
    f_cluster_authorized_operations = _S1u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeClusterResponse(f_throttle_time_ms, f_error_code, f_error_message, f_endpoint_type, f_cluster_id, f_controller_id, f_brokers, f_cluster_authorized_operations, unknown), pos


def _e_DescribeClusterBroker_v0(o, out):
    out += _S1p(o.broker_id)
    write_compact_string(out, o.host)
    out += _S1p(o.port)
    write_compact_nullable_string(out, o.rack)
    if o.is_fenced:
        raise UnsupportedFieldError('DescribeClusterResponse v0 cannot carry a non-default IsFenced')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeClusterResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    if o.endpoint_type != 1:
        raise UnsupportedFieldError('DescribeClusterResponse v0 cannot carry a non-default EndpointType')
    write_compact_string(out, o.cluster_id)
    out += _S1p(o.controller_id)
    value = o.brokers
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeClusterBroker_v0(item, out)
    out += _S1p(o.cluster_authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeClusterBroker_v1(o, out):
    out += _S1p(o.broker_id)
    write_compact_string(out, o.host)
    out += _S1p(o.port)
    write_compact_nullable_string(out, o.rack)
    if o.is_fenced:
        raise UnsupportedFieldError('DescribeClusterResponse v1 cannot carry a non-default IsFenced')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeClusterResponse_v1(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    out += _S2p(o.endpoint_type)
    write_compact_string(out, o.cluster_id)
    out += _S1p(o.controller_id)
    value = o.brokers
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeClusterBroker_v1(item, out)
    out += _S1p(o.cluster_authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeClusterBroker_v2(o, out):
    out += _S1p(o.broker_id)
    write_compact_string(out, o.host)
    out += _S1p(o.port)
    write_compact_nullable_string(out, o.rack)
    out += _S4p(o.is_fenced)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeClusterResponse_v2(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    out += _S2p(o.endpoint_type)
    write_compact_string(out, o.cluster_id)
    out += _S1p(o.controller_id)
    value = o.brokers
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeClusterBroker_v2(item, out)
    out += _S1p(o.cluster_authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeClusterResponse._DECODERS = {
    0: _d_DescribeClusterResponse_v0,
    1: _d_DescribeClusterResponse_v1,
    2: _d_DescribeClusterResponse_v2,
}
DescribeClusterResponse._ENCODERS = {
    0: _e_DescribeClusterResponse_v0,
    1: _e_DescribeClusterResponse_v1,
    2: _e_DescribeClusterResponse_v2,
}
