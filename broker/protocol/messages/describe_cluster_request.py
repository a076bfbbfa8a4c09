# Generated from protocol/schemas/DescribeClusterRequest.json by codegen; do not edit.
"""DescribeClusterRequest: request, api key 60, versions 0-2."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_unknown_tags,
    write_tagged_fields,
)

__all__ = [
    "DescribeClusterRequest",
]
_S0 = Struct('>?')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>?b')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>?b?')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>B')
_S3u = _S3.unpack_from
_S3p = _S3.pack
_S4 = Struct('>Bb')
_S4u = _S4.unpack_from
_S4p = _S4.pack
_S5 = Struct('>BbB')
_S5u = _S5.unpack_from
_S5p = _S5.pack


@dataclass(slots=True)
class DescribeClusterRequest(Message):
    """DescribeClusterRequest, api key 60."""

    API_KEY: ClassVar[int] = 60
    NAME: ClassVar[str] = 'DescribeClusterRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'include_cluster_authorized_operations': (0, 2), 'endpoint_type': (1, 2), 'include_fenced_brokers': (2, 2)}

    include_cluster_authorized_operations: bool = False
    """Set to true to have the cluster's authorized operations returned."""

    endpoint_type: int = 1
    """Which kind of endpoints to describe: 1=brokers, 2=controllers."""

    include_fenced_brokers: bool = False
    """Set to true to also list brokers that are fenced."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DescribeClusterRequest_v0(buf, pos):
    f_include_cluster_authorized_operations = _S0u(buf, pos)[0]
    pos += 1
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeClusterRequest(f_include_cluster_authorized_operations, 1, False, unknown), pos


def _d_DescribeClusterRequest_v1(buf, pos):
    f_include_cluster_authorized_operations, f_endpoint_type = _S1u(buf, pos)
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeClusterRequest(f_include_cluster_authorized_operations, f_endpoint_type, False, unknown), pos


def _d_DescribeClusterRequest_v2(buf, pos):
    f_include_cluster_authorized_operations, f_endpoint_type, f_include_fenced_brokers = _S2u(buf, pos)
    pos += 3
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeClusterRequest(f_include_cluster_authorized_operations, f_endpoint_type, f_include_fenced_brokers, unknown), pos


def _e_DescribeClusterRequest_v0(o, out):
    out += _S3p(o.include_cluster_authorized_operations)
    if o.endpoint_type != 1:
        raise UnsupportedFieldError('DescribeClusterRequest v0 cannot carry a non-default EndpointType')
    if o.include_fenced_brokers:
        raise UnsupportedFieldError('DescribeClusterRequest v0 cannot carry a non-default IncludeFencedBrokers')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeClusterRequest_v1(o, out):
    out += _S4p(o.include_cluster_authorized_operations, o.endpoint_type)
    if o.include_fenced_brokers:
        raise UnsupportedFieldError('DescribeClusterRequest v1 cannot carry a non-default IncludeFencedBrokers')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeClusterRequest_v2(o, out):
    out += _S5p(o.include_cluster_authorized_operations, o.endpoint_type, o.include_fenced_brokers)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeClusterRequest._DECODERS = {
    0: _d_DescribeClusterRequest_v0,
    1: _d_DescribeClusterRequest_v1,
    2: _d_DescribeClusterRequest_v2,
}
DescribeClusterRequest._ENCODERS = {
    0: _e_DescribeClusterRequest_v0,
    1: _e_DescribeClusterRequest_v1,
    2: _e_DescribeClusterRequest_v2,
}
