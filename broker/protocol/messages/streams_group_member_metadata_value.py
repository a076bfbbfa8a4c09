# Generated from protocol/schemas/StreamsGroupMemberMetadataValue.json by codegen; do not edit.
"""StreamsGroupMemberMetadataValue: coordinator-value, api key 19, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

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
    "Endpoint",
    "KeyValue",
    "StreamsGroupMemberMetadataValue",
]
_S0 = Struct('>ii')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>H')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class Endpoint:
    """Common structure Endpoint."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'host': (0, 0), 'port': (0, 0)}

    host: str = ''
    """Host name of the endpoint."""

    port: int = 0
    """Port of the endpoint."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class KeyValue:
    """Common structure KeyValue."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'key': (0, 0), 'value': (0, 0)}

    key: str = ''
    """Name of the tag."""

    value: str = ''
    """Value of the tag."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class StreamsGroupMemberMetadataValue(Message):
    """StreamsGroupMemberMetadataValue, api key 19."""

    API_KEY: ClassVar[int] = 19
    NAME: ClassVar[str] = 'StreamsGroupMemberMetadataValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'instance_id': (0, 0), 'rack_id': (0, 0), 'client_id': (0, 0), 'client_host': (0, 0), 'rebalance_timeout_ms': (0, 0), 'topology_epoch': (0, 0), 'process_id': (0, 0), 'user_endpoint': (0, 0), 'client_tags': (0, 0)}

    instance_id: str | None = ''
    """Instance ID for static membership, or null."""

    rack_id: str | None = ''
    """Rack of the member, or null."""

    client_id: str = ''
    """Client ID of the member."""

    client_host: str = ''
    """Host the member connects from."""

    rebalance_timeout_ms: int = -1
    """Rebalance timeout of the member, in milliseconds."""

    topology_epoch: int = 0
    """Epoch of the topology the member runs."""

    process_id: str = ''
    """ID of the Streams process the member belongs to, which may run several members."""

    user_endpoint: Endpoint | None = None
    """Endpoint the member serves interactive queries on, or null."""

    client_tags: list[KeyValue] = field(default_factory=list)
    """Client tags for rack-aware task assignment."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_Endpoint_v0(buf, pos):
    f_host, pos = read_compact_string(buf, pos)
    f_port = _S1u(buf, pos)[0]
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return Endpoint(f_host, f_port, unknown), pos


def _d_KeyValue_v0(buf, pos):
    f_key, pos = read_compact_string(buf, pos)
    f_value, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return KeyValue(f_key, f_value, unknown), pos


def _d_StreamsGroupMemberMetadataValue_v0(buf, pos):
    f_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_rack_id, pos = read_compact_nullable_string(buf, pos)
    f_client_id, pos = read_compact_string(buf, pos)
    f_client_host, pos = read_compact_string(buf, pos)
    f_rebalance_timeout_ms, f_topology_epoch = _S0u(buf, pos)
    pos += 8
    f_process_id, pos = read_compact_string(buf, pos)
    if buf[pos] == 255:
        f_user_endpoint = None
        pos += 1
    else:
        f_user_endpoint, pos = _d_Endpoint_v0(buf, pos + 1)
    n, pos = read_compact_array_len(buf, pos)
    f_client_tags = []
    append = f_client_tags.append
    for _ in range(n):
        item, pos = _d_KeyValue_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return StreamsGroupMemberMetadataValue(f_instance_id, f_rack_id, f_client_id, f_client_host, f_rebalance_timeout_ms, f_topology_epoch, f_process_id, f_user_endpoint, f_client_tags, unknown), pos


def _e_Endpoint_v0(o, out):
    write_compact_string(out, o.host)
    out += _S1p(o.port)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_KeyValue_v0(o, out):
    write_compact_string(out, o.key)
    write_compact_string(out, o.value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_StreamsGroupMemberMetadataValue_v0(o, out):
    write_compact_nullable_string(out, o.instance_id)
    write_compact_nullable_string(out, o.rack_id)
    write_compact_string(out, o.client_id)
    write_compact_string(out, o.client_host)
    out += _S0p(o.rebalance_timeout_ms, o.topology_epoch)
    write_compact_string(out, o.process_id)
    if o.user_endpoint is None:
        out.append(255)
    else:
        out.append(1)
        _e_Endpoint_v0(o.user_endpoint, out)
    value = o.client_tags
    write_compact_array_len(out, value)
    for item in value:
        _e_KeyValue_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


StreamsGroupMemberMetadataValue._DECODERS = {
    0: _d_StreamsGroupMemberMetadataValue_v0,
}
StreamsGroupMemberMetadataValue._ENCODERS = {
    0: _e_StreamsGroupMemberMetadataValue_v0,
}
