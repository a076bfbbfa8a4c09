# Generated from protocol/schemas/DescribeClientQuotasResponse.json by codegen; do not edit.
"""DescribeClientQuotasResponse: response, api key 48, versions 0-1."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_array_len,
    read_compact_array_len,
    read_compact_nullable_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_array_len,
    read_nullable_string,
    read_string,
    read_unknown_tags,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_array_len,
    write_nullable_string,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "EntityData",
    "ValueData",
    "EntryData",
    "DescribeClientQuotasResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>d')
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
class ValueData:
    """The entity's quotas."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'key': (0, 1), 'value': (0, 1)}

    key: str = ''
    """Quota key (producer_byte_rate, consumer_byte_rate, ...)."""

    value: float = 0.0
    """Quota value."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class EntryData:
    """One entry per quota entity that matched."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'entity': (0, 1), 'values': (0, 1)}

    entity: list[EntityData] = field(default_factory=list)
    """The parts naming the entity."""

    values: list[ValueData] = field(default_factory=list)
    """The entity's quotas."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeClientQuotasResponse(Message):
    """DescribeClientQuotasResponse, api key 48."""

    API_KEY: ClassVar[int] = 48
    NAME: ClassVar[str] = 'DescribeClientQuotasResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 1
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 1), 'error_code': (0, 1), 'error_message': (0, 1), 'entries': (0, 1)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error for the whole request; 0 means success."""

    error_message: str | None = ''
    """Message for the error, or null."""

    entries: list[EntryData] | None = field(default_factory=list)
    """One entry per quota entity that matched."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_EntityData_v0(buf, pos):
    f_entity_type, pos = read_string(buf, pos)
    f_entity_name, pos = read_nullable_string(buf, pos)
    return EntityData(f_entity_type, f_entity_name), pos


def _d_ValueData_v0(buf, pos):
    f_key, pos = read_string(buf, pos)
    f_value = _S1u(buf, pos)[0]
    pos += 8
    return ValueData(f_key, f_value), pos


def _d_EntryData_v0(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_entity = []
    append = f_entity.append
    for _ in range(n):
        item, pos = _d_EntityData_v0(buf, pos)
        append(item)
    n, pos = read_array_len(buf, pos)
    f_values = []
    append = f_values.append
    for _ in range(n):
        item, pos = _d_ValueData_v0(buf, pos)
        append(item)
    return EntryData(f_entity, f_values), pos


def _d_DescribeClientQuotasResponse_v0(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_nullable_string(buf, pos)
    n, pos = read_nullable_array_len(buf, pos)
    if n < 0:
        f_entries = None
    else:
        f_entries = []
        append = f_entries.append
        for _ in range(n):
            item, pos = _d_EntryData_v0(buf, pos)
            append(item)
    return DescribeClientQuotasResponse(f_throttle_time_ms, f_error_code, f_error_message, f_entries), pos


def _d_EntityData_v1(buf, pos):
    f_entity_type, pos = read_compact_string(buf, pos)
    f_entity_name, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return EntityData(f_entity_type, f_entity_name, unknown), pos


def _d_ValueData_v1(buf, pos):
    f_key, pos = read_compact_string(buf, pos)
    f_value = _S1u(buf, pos)[0]
    pos += 8
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ValueData(f_key, f_value, unknown), pos


def _d_EntryData_v1(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_entity = []
    append = f_entity.append
    for _ in range(n):
        item, pos = _d_EntityData_v1(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_values = []
    append = f_values.append
    for _ in range(n):
        item, pos = _d_ValueData_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return EntryData(f_entity, f_values, unknown), pos


def _d_DescribeClientQuotasResponse_v1(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_entries = None
    else:
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
    return DescribeClientQuotasResponse(f_throttle_time_ms, f_error_code, f_error_message, f_entries, unknown), pos


def _e_EntityData_v0(o, out):
    write_string(out, o.entity_type)
    write_nullable_string(out, o.entity_name)


def _e_ValueData_v0(o, out):
    write_string(out, o.key)
    out += _S1p(o.value)


def _e_EntryData_v0(o, out):
    value = o.entity
    write_array_len(out, value)
    for item in value:
        _e_EntityData_v0(item, out)
    value = o.values
    write_array_len(out, value)
    for item in value:
        _e_ValueData_v0(item, out)


def _e_DescribeClientQuotasResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_nullable_string(out, o.error_message)
    value = o.entries
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_EntryData_v0(item, out)


def _e_EntityData_v1(o, out):
    write_compact_string(out, o.entity_type)
    write_compact_nullable_string(out, o.entity_name)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ValueData_v1(o, out):
    write_compact_string(out, o.key)
    out += _S1p(o.value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_EntryData_v1(o, out):
    value = o.entity
    write_compact_array_len(out, value)
    for item in value:
        _e_EntityData_v1(item, out)
    value = o.values
    write_compact_array_len(out, value)
    for item in value:
        _e_ValueData_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeClientQuotasResponse_v1(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    value = o.entries
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_EntryData_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeClientQuotasResponse._DECODERS = {
    0: _d_DescribeClientQuotasResponse_v0,
    1: _d_DescribeClientQuotasResponse_v1,
}
DescribeClientQuotasResponse._ENCODERS = {
    0: _e_DescribeClientQuotasResponse_v0,
    1: _e_DescribeClientQuotasResponse_v1,
}
