# Generated from protocol/schemas/StreamsGroupMetadataValue.json by codegen; do not edit.
"""StreamsGroupMetadataValue: coordinator-value, api key 17, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_nullable_array_len,
    read_compact_string,
    read_tag_header,
    read_unknown_tags,
    read_uvarint,
    write_compact_nullable_array_len,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "LastAssignmentConfig",
    "StreamsGroupMetadataValue",
]
_S0 = Struct('>iq')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class LastAssignmentConfig:
    """Common structure LastAssignmentConfig."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'key': (0, 0), 'value': (0, 0)}

    key: str = ''
    """Name of the setting."""

    value: str = ''
    """Value of the setting."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class StreamsGroupMetadataValue(Message):
    """StreamsGroupMetadataValue, api key 17."""

    API_KEY: ClassVar[int] = 17
    NAME: ClassVar[str] = 'StreamsGroupMetadataValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'epoch': (0, 0), 'metadata_hash': (0, 0), 'validated_topology_epoch': (0, 0), 'last_assignment_configs': (0, 0), 'stored_description_topology_epoch': (0, 0), 'failed_description_topology_epoch': (0, 0)}

    epoch: int = 0
    """Epoch of the group."""

    metadata_hash: int = 0
    """Hash of the metadata of every topic the group's topology uses."""

    validated_topology_epoch: int = -1
    """Topology epoch whose topics were last found present and correctly configured; -1 when none."""

    last_assignment_configs: list[LastAssignmentConfig] | None = None
    """Assignment settings (key/value) the last assignment was computed with, or null."""

    stored_description_topology_epoch: int = -1
    """Topology epoch whose description the description plugin holds; -1 when none, -2 when a plugin operation was interrupted (treated like -1 for asking clients, like a stored epoch for deletion)."""

    failed_description_topology_epoch: int = -1
    """Topology epoch whose description the plugin refused for good; -1 when none. While it equals the current topology epoch, heartbeats stop asking for a description."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_LastAssignmentConfig_v0(buf, pos):
    f_key, pos = read_compact_string(buf, pos)
    f_value, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return LastAssignmentConfig(f_key, f_value, unknown), pos


def _d_StreamsGroupMetadataValue_v0(buf, pos):
    f_epoch, f_metadata_hash = _S0u(buf, pos)
    pos += 12
    f_validated_topology_epoch = -1
    f_last_assignment_configs = None
    f_stored_description_topology_epoch = -1
    f_failed_description_topology_epoch = -1
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                f_validated_topology_epoch = _S1u(buf, p)[0]
                p += 4
            elif tag == 1:
                n, p = read_compact_nullable_array_len(buf, p)
                if n < 0:
                    f_last_assignment_configs = None
                else:
                    f_last_assignment_configs = []
                    append = f_last_assignment_configs.append
                    for _ in range(n):
                        item, p = _d_LastAssignmentConfig_v0(buf, p)
                        append(item)
            elif tag == 2:
                f_stored_description_topology_epoch = _S1u(buf, p)[0]
                p += 4
            elif tag == 3:
                f_failed_description_topology_epoch = _S1u(buf, p)[0]
                p += 4
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return StreamsGroupMetadataValue(f_epoch, f_metadata_hash, f_validated_topology_epoch, f_last_assignment_configs, f_stored_description_topology_epoch, f_failed_description_topology_epoch, unknown), pos


def _e_LastAssignmentConfig_v0(o, out):
    write_compact_string(out, o.key)
    write_compact_string(out, o.value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_StreamsGroupMetadataValue_v0(o, out):
    out += _S0p(o.epoch, o.metadata_hash)
    tags = list(o._unknown_tagged_fields)
    if o.validated_topology_epoch != -1:
        t = bytearray()
        t += _S1p(o.validated_topology_epoch)
        tags.append((0, t))
    if o.last_assignment_configs is not None:
        t = bytearray()
        value = o.last_assignment_configs
        write_compact_nullable_array_len(t, value)
        if value is not None:
            for item in value:
                _e_LastAssignmentConfig_v0(item, t)
        tags.append((1, t))
    if o.stored_description_topology_epoch != -1:
        t = bytearray()
        t += _S1p(o.stored_description_topology_epoch)
        tags.append((2, t))
    if o.failed_description_topology_epoch != -1:
        t = bytearray()
        t += _S1p(o.failed_description_topology_epoch)
        tags.append((3, t))
    write_tagged_fields(out, tags)


StreamsGroupMetadataValue._DECODERS = {
    0: _d_StreamsGroupMetadataValue_v0,
}
StreamsGroupMetadataValue._ENCODERS = {
    0: _e_StreamsGroupMetadataValue_v0,
}
