# Generated from protocol/schemas/ConsumerGroupMemberMetadataValue.json by codegen; do not edit.
"""ConsumerGroupMemberMetadataValue: coordinator-value, api key 5, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_array_len,
    read_compact_bytes,
    read_compact_nullable_string,
    read_compact_string,
    read_tag_header,
    read_unknown_tags,
    read_uvarint,
    write_compact_array_len,
    write_compact_bytes,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "ClassicProtocol",
    "ClassicMemberMetadata",
    "ConsumerGroupMemberMetadataValue",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class ClassicProtocol:
    """Assignment protocols the classic member supports."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 0), 'metadata': (0, 0)}

    name: str = ''
    """Name of the protocol."""

    metadata: bytes = b''
    """Metadata the member sent for the protocol."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ClassicMemberMetadata:
    """For a member still on the classic protocol (in a group upgraded to the consumer protocol): its session timeout and supported protocols. Null for members on the consumer protocol."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'session_timeout_ms': (0, 0), 'supported_protocols': (0, 0)}

    session_timeout_ms: int = 0
    """Session timeout of the classic member, in milliseconds."""

    supported_protocols: list[ClassicProtocol] = field(default_factory=list)
    """Assignment protocols the classic member supports."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ConsumerGroupMemberMetadataValue(Message):
    """ConsumerGroupMemberMetadataValue, api key 5."""

    API_KEY: ClassVar[int] = 5
    NAME: ClassVar[str] = 'ConsumerGroupMemberMetadataValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'instance_id': (0, 0), 'rack_id': (0, 0), 'client_id': (0, 0), 'client_host': (0, 0), 'subscribed_topic_names': (0, 0), 'subscribed_topic_regex': (0, 0), 'rebalance_timeout_ms': (0, 0), 'server_assignor': (0, 0), 'classic_member_metadata': (0, 0)}

    instance_id: str | None = ''
    """Instance ID for static membership, or null."""

    rack_id: str | None = ''
    """Rack of the member, or null."""

    client_id: str = ''
    """Client ID of the member."""

    client_host: str = ''
    """Host the member connects from."""

    subscribed_topic_names: list[str] = field(default_factory=list)
    """Topics the member subscribes to by name."""

    subscribed_topic_regex: str | None = ''
    """Regular expression the member subscribes with, or null."""

    rebalance_timeout_ms: int = -1
    """Rebalance timeout of the member, in milliseconds."""

    server_assignor: str | None = ''
    """Server-side assignor the member asked for, or null to leave the choice to the group."""

    classic_member_metadata: ClassicMemberMetadata | None = None
    """For a member still on the classic protocol (in a group upgraded to the consumer protocol): its session timeout and supported protocols. Null for members on the consumer protocol."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ClassicProtocol_v0(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_metadata, pos = read_compact_bytes(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ClassicProtocol(f_name, f_metadata, unknown), pos


def _d_ClassicMemberMetadata_v0(buf, pos):
    f_session_timeout_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_supported_protocols = []
    append = f_supported_protocols.append
    for _ in range(n):
        item, pos = _d_ClassicProtocol_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ClassicMemberMetadata(f_session_timeout_ms, f_supported_protocols, unknown), pos


def _d_ConsumerGroupMemberMetadataValue_v0(buf, pos):
    f_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_rack_id, pos = read_compact_nullable_string(buf, pos)
    f_client_id, pos = read_compact_string(buf, pos)
    f_client_host, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_subscribed_topic_names = []
    append = f_subscribed_topic_names.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    f_subscribed_topic_regex, pos = read_compact_nullable_string(buf, pos)
    f_rebalance_timeout_ms = _S0u(buf, pos)[0]
    pos += 4
    f_server_assignor, pos = read_compact_nullable_string(buf, pos)
    f_classic_member_metadata = None
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                if buf[p] == 0:
                    f_classic_member_metadata = None
                    p += 1
                else:
                    _, p = read_uvarint(buf, p)
                    f_classic_member_metadata, p = _d_ClassicMemberMetadata_v0(buf, p)
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return ConsumerGroupMemberMetadataValue(f_instance_id, f_rack_id, f_client_id, f_client_host, f_subscribed_topic_names, f_subscribed_topic_regex, f_rebalance_timeout_ms, f_server_assignor, f_classic_member_metadata, unknown), pos


def _e_ClassicProtocol_v0(o, out):
    write_compact_string(out, o.name)
    write_compact_bytes(out, o.metadata)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ClassicMemberMetadata_v0(o, out):
    out += _S0p(o.session_timeout_ms)
    value = o.supported_protocols
    write_compact_array_len(out, value)
    for item in value:
        _e_ClassicProtocol_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ConsumerGroupMemberMetadataValue_v0(o, out):
    write_compact_nullable_string(out, o.instance_id)
    write_compact_nullable_string(out, o.rack_id)
    write_compact_string(out, o.client_id)
    write_compact_string(out, o.client_host)
    value = o.subscribed_topic_names
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    write_compact_nullable_string(out, o.subscribed_topic_regex)
    out += _S0p(o.rebalance_timeout_ms)
    write_compact_nullable_string(out, o.server_assignor)
    tags = list(o._unknown_tagged_fields)
    if o.classic_member_metadata is not None:
        t = bytearray()
        if o.classic_member_metadata is None:
            t.append(0)
        else:
            t.append(1)
            _e_ClassicMemberMetadata_v0(o.classic_member_metadata, t)
        tags.append((0, t))
    write_tagged_fields(out, tags)


ConsumerGroupMemberMetadataValue._DECODERS = {
    0: _d_ConsumerGroupMemberMetadataValue_v0,
}
ConsumerGroupMemberMetadataValue._ENCODERS = {
    0: _e_ConsumerGroupMemberMetadataValue_v0,
}
