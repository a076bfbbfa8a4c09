# Generated from protocol/schemas/AlterClientQuotasRequest.json by codegen; do not edit.
"""AlterClientQuotasRequest: request, api key 49, versions 0-1."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_array_len,
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_unknown_tags,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "EntityData",
    "OpData",
    "EntryData",
    "AlterClientQuotasRequest",
]
_S0 = Struct('>d?')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>?')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>dB')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>B')
_S3u = _S3.unpack_from
_S3p = _S3.pack


@dataclass(slots=True)
class EntityData:
    """The parts naming the entity."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'entity_type': (0, 1), 'entity_name': (0, 1)}

    entity_type: str = ''
    """Type of this part (user, client-id, ip)."""

    entity_name: str | None = ''
    """Name of this part, or null for the type's default."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OpData:
    """Quota keys to set or remove."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'key': (0, 1), 'value': (0, 1), 'remove': (0, 1)}

    key: str = ''
    """Quota key."""

    value: float = 0.0
    """New value; ignored when removing."""

    remove: bool = False
    """Remove the key instead of setting it."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class EntryData:
    """Quota changes, one entry per entity."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'entity': (0, 1), 'ops': (0, 1)}

    entity: list[EntityData] = field(default_factory=list)
    """The parts naming the entity."""

    ops: list[OpData] = field(default_factory=list)
    """Quota keys to set or remove."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AlterClientQuotasRequest(Message):
    """AlterClientQuotasRequest, api key 49."""

    API_KEY: ClassVar[int] = 49
    NAME: ClassVar[str] = 'AlterClientQuotasRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 1
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'entries': (0, 1), 'validate_only': (0, 1)}

    entries: list[EntryData] = field(default_factory=list)
    """Quota changes, one entry per entity."""

    validate_only: bool = False
    """Check the changes without making them."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_EntityData_v0(buf, pos):
    f_entity_type, pos = read_string(buf, pos)
    f_entity_name, pos = read_nullable_string(buf, pos)
    return EntityData(f_entity_type, f_entity_name), pos


def _d_OpData_v0(buf, pos):
    f_key, pos = read_string(buf, pos)
    f_value, f_remove = _S0u(buf, pos)
    pos += 9
    return OpData(f_key, f_value, f_remove), pos


def _d_EntryData_v0(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_entity = []
    append = f_entity.append
    for _ in range(n):
        item, pos = _d_EntityData_v0(buf, pos)
        append(item)
    n, pos = read_array_len(buf, pos)
    f_ops = []
    append = f_ops.append
    for _ in range(n):
        item, pos = _d_OpData_v0(buf, pos)
        append(item)
    return EntryData(f_entity, f_ops), pos


def _d_AlterClientQuotasRequest_v0(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_entries = []
    append = f_entries.append
    for _ in range(n):
        item, pos = _d_EntryData_v0(buf, pos)
        append(item)
    f_validate_only = _S1u(buf, pos)[0]
    pos += 1
    return AlterClientQuotasRequest(f_entries, f_validate_only), pos


def _d_EntityData_v1(buf, pos):
    f_entity_type, pos = read_compact_string(buf, pos)
    f_entity_name, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return EntityData(f_entity_type, f_entity_name, unknown), pos


def _d_OpData_v1(buf, pos):
    f_key, pos = read_compact_string(buf, pos)
    f_value, f_remove = _S0u(buf, pos)
    pos += 9
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OpData(f_key, f_value, f_remove, unknown), pos


def _d_EntryData_v1(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_entity = []
    append = f_entity.append
    for _ in range(n):
        item, pos = _d_EntityData_v1(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_ops = []
    append = f_ops.append
    for _ in range(n):
        item, pos = _d_OpData_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return EntryData(f_entity, f_ops, unknown), pos


def _d_AlterClientQuotasRequest_v1(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_entries = []
    append = f_entries.append
    for _ in range(n):
        item, pos = _d_EntryData_v1(buf, pos)
        append(item)
    f_validate_only = _S1u(buf, pos)[0]
    pos += 1
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterClientQuotasRequest(f_entries, f_validate_only, unknown), pos


def _e_EntityData_v0(o, out):
    write_string(out, o.entity_type)
    write_nullable_string(out, o.entity_name)


def _e_OpData_v0(o, out):
    write_string(out, o.key)
    out += _S2p(o.value, o.remove)


def _e_EntryData_v0(o, out):
    value = o.entity
    write_array_len(out, value)
    for item in value:
        _e_EntityData_v0(item, out)
    value = o.ops
    write_array_len(out, value)
    for item in value:
        _e_OpData_v0(item, out)


def _e_AlterClientQuotasRequest_v0(o, out):
    value = o.entries
    write_array_len(out, value)
    for item in value:
        _e_EntryData_v0(item, out)
    out += _S3p(o.validate_only)


def _e_EntityData_v1(o, out):
    write_compact_string(out, o.entity_type)
    write_compact_nullable_string(out, o.entity_name)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OpData_v1(o, out):
    write_compact_string(out, o.key)
    out += _S2p(o.value, o.remove)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_EntryData_v1(o, out):
    value = o.entity
    write_compact_array_len(out, value)
    for item in value:
        _e_EntityData_v1(item, out)
    value = o.ops
    write_compact_array_len(out, value)
    for item in value:
        _e_OpData_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AlterClientQuotasRequest_v1(o, out):
    value = o.entries
    write_compact_array_len(out, value)
    for item in value:
        _e_EntryData_v1(item, out)
    out += _S3p(o.validate_only)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


AlterClientQuotasRequest._DECODERS = {
    0: _d_AlterClientQuotasRequest_v0,
    1: _d_AlterClientQuotasRequest_v1,
}
AlterClientQuotasRequest._ENCODERS = {
    0: _e_AlterClientQuotasRequest_v0,
    1: _e_AlterClientQuotasRequest_v1,
}
