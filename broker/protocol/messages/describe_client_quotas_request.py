# Generated from protocol/schemas/DescribeClientQuotasRequest.json by codegen; do not edit.
"""DescribeClientQuotasRequest: request, api key 48, versions 0-1."""

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
    "ComponentData",
    "DescribeClientQuotasRequest",
]
_S0 = Struct('>b')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>?')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>B')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class ComponentData:
    """Conditions on the quota entities to describe; every one must hold."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'entity_type': (0, 1), 'match_type': (0, 1), 'match': (0, 1)}

    entity_type: str = ''
    """Entity type the condition is about (user, client-id, ip)."""

    match_type: int = 0
    """0: the name equals Match; 1: the entity is the type's default; 2: any named entity of the type."""

    match: str | None = ''
    """Name to compare with for match type 0, otherwise null."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeClientQuotasRequest(Message):
    """DescribeClientQuotasRequest, api key 48."""

    API_KEY: ClassVar[int] = 48
    NAME: ClassVar[str] = 'DescribeClientQuotasRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 1
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'components': (0, 1), 'strict': (0, 1)}

    components: list[ComponentData] = field(default_factory=list)
    """Conditions on the quota entities to describe; every one must hold."""

    strict: bool = False
    """Leave out entities that have entity types the conditions do not mention."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ComponentData_v0(buf, pos):
    f_entity_type, pos = read_string(buf, pos)
    f_match_type = _S0u(buf, pos)[0]
    pos += 1
    f_match, pos = read_nullable_string(buf, pos)
    return ComponentData(f_entity_type, f_match_type, f_match), pos


def _d_DescribeClientQuotasRequest_v0(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_components = []
    append = f_components.append
    for _ in range(n):
        item, pos = _d_ComponentData_v0(buf, pos)
        append(item)
    f_strict = _S1u(buf, pos)[0]
    pos += 1
    return DescribeClientQuotasRequest(f_components, f_strict), pos


def _d_ComponentData_v1(buf, pos):
    f_entity_type, pos = read_compact_string(buf, pos)
    f_match_type = _S0u(buf, pos)[0]
    pos += 1
    f_match, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ComponentData(f_entity_type, f_match_type, f_match, unknown), pos


def _d_DescribeClientQuotasRequest_v1(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_components = []
    append = f_components.append
    for _ in range(n):
        item, pos = _d_ComponentData_v1(buf, pos)
        append(item)
    f_strict = _S1u(buf, pos)[0]
    pos += 1
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeClientQuotasRequest(f_components, f_strict, unknown), pos


def _e_ComponentData_v0(o, out):
    write_string(out, o.entity_type)
    out += _S0p(o.match_type)
    write_nullable_string(out, o.match)


def _e_DescribeClientQuotasRequest_v0(o, out):
    value = o.components
    write_array_len(out, value)
    for item in value:
        _e_ComponentData_v0(item, out)
    out += _S2p(o.strict)


def _e_ComponentData_v1(o, out):
    write_compact_string(out, o.entity_type)
    out += _S0p(o.match_type)
    write_compact_nullable_string(out, o.match)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeClientQuotasRequest_v1(o, out):
    value = o.components
    write_compact_array_len(out, value)
    for item in value:
        _e_ComponentData_v1(item, out)
    out += _S2p(o.strict)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeClientQuotasRequest._DECODERS = {
    0: _d_DescribeClientQuotasRequest_v0,
    1: _d_DescribeClientQuotasRequest_v1,
}
DescribeClientQuotasRequest._ENCODERS = {
    0: _e_DescribeClientQuotasRequest_v0,
    1: _e_DescribeClientQuotasRequest_v1,
}
