# Generated from protocol/schemas/AlterClientQuotasResponse.json by codegen; do not edit.
"""AlterClientQuotasResponse: response, api key 49, versions 0-1."""

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
    "EntryData",
    "AlterClientQuotasResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>h')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class EntityData:
    """The parts naming the entity."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'entity_type': (0, 1), 'entity_name': (0, 1)}

    entity_type: str = ''
    """Type of this part."""

    entity_name: str | None = ''
    """Name of this part, or null for the type's default."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class EntryData:
    """One result per entity of the request."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 1), 'error_message': (0, 1), 'entity': (0, 1)}

    error_code: int = 0
    """Error for this entity; 0 means success."""

    error_message: str | None = ''
    """Message for the error, or null."""

    entity: list[EntityData] = field(default_factory=list)
    """The parts naming the entity."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AlterClientQuotasResponse(Message):
    """AlterClientQuotasResponse, api key 49."""

    API_KEY: ClassVar[int] = 49
    NAME: ClassVar[str] = 'AlterClientQuotasResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 1
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 1), 'entries': (0, 1)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    entries: list[EntryData] = field(default_factory=list)
    """One result per entity of the request."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_EntityData_v0(buf, pos):
    f_entity_type, pos = read_string(buf, pos)
    f_entity_name, pos = read_nullable_string(buf, pos)
    return EntityData(f_entity_type, f_entity_name), pos


def _d_EntryData_v0(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_entity = []
    append = f_entity.append
    for _ in range(n):
        item, pos = _d_EntityData_v0(buf, pos)
        append(item)
    return EntryData(f_error_code, f_error_message, f_entity), pos


def _d_AlterClientQuotasResponse_v0(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_entries = []
    append = f_entries.append
    for _ in range(n):
        item, pos = _d_EntryData_v0(buf, pos)
        append(item)
    return AlterClientQuotasResponse(f_throttle_time_ms, f_entries), pos


def _d_EntityData_v1(buf, pos):
    f_entity_type, pos = read_compact_string(buf, pos)
    f_entity_name, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return EntityData(f_entity_type, f_entity_name, unknown), pos


def _d_EntryData_v1(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_entity = []
    append = f_entity.append
    for _ in range(n):
        item, pos = _d_EntityData_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return EntryData(f_error_code, f_error_message, f_entity, unknown), pos


def _d_AlterClientQuotasResponse_v1(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_entries = []
    append = f_entries.append
    for _ in range(n):
        item, pos = _d_EntryData_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterClientQuotasResponse(f_throttle_time_ms, f_entries, unknown), pos


def _e_EntityData_v0(o, out):
    write_string(out, o.entity_type)
    write_nullable_string(out, o.entity_name)


def _e_EntryData_v0(o, out):
    out += _S1p(o.error_code)
    write_nullable_string(out, o.error_message)
    value = o.entity
    write_array_len(out, value)
    for item in value:
        _e_EntityData_v0(item, out)


def _e_AlterClientQuotasResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.entries
    write_array_len(out, value)
    for item in value:
        _e_EntryData_v0(item, out)


def _e_EntityData_v1(o, out):
    write_compact_string(out, o.entity_type)
    write_compact_nullable_string(out, o.entity_name)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_EntryData_v1(o, out):
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    value = o.entity
    write_compact_array_len(out, value)
    for item in value:
        _e_EntityData_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AlterClientQuotasResponse_v1(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.entries
    write_compact_array_len(out, value)
    for item in value:
        _e_EntryData_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


AlterClientQuotasResponse._DECODERS = {
    0: _d_AlterClientQuotasResponse_v0,
    1: _d_AlterClientQuotasResponse_v1,
}
AlterClientQuotasResponse._ENCODERS = {
    0: _e_AlterClientQuotasResponse_v0,
    1: _e_AlterClientQuotasResponse_v1,
}
