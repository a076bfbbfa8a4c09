# Generated from protocol/schemas/FindCoordinatorRequest.json by codegen; do not edit.
"""FindCoordinatorRequest: request, api key 10, versions 0-6."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_array_len,
    read_compact_string,
    read_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_string,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "FindCoordinatorRequest",
]
_S0 = Struct('>b')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class FindCoordinatorRequest(Message):
    """FindCoordinatorRequest, api key 10."""

    API_KEY: ClassVar[int] = 10
    NAME: ClassVar[str] = 'FindCoordinatorRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 6
    FLEXIBLE_MIN: ClassVar[int | None] = 3
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'key': (0, 3), 'key_type': (1, 6), 'coordinator_keys': (4, 6)}

    key: str = ''
    """Key identifying the coordinator."""

    key_type: int = 0
    """Type of the coordinator key (group, transaction, share)."""

    coordinator_keys: list[str] = field(default_factory=list)
    """Keys identifying the coordinators."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_FindCoordinatorRequest_v0(buf, pos):
    f_key, pos = read_string(buf, pos)
    return FindCoordinatorRequest(f_key, 0, []), pos


def _d_FindCoordinatorRequest_v1(buf, pos):
    f_key, pos = read_string(buf, pos)
    f_key_type = _S0u(buf, pos)[0]
    pos += 1
    return FindCoordinatorRequest(f_key, f_key_type, []), pos


def _d_FindCoordinatorRequest_v3(buf, pos):
    f_key, pos = read_compact_string(buf, pos)
    f_key_type = _S0u(buf, pos)[0]
    pos += 1
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return FindCoordinatorRequest(f_key, f_key_type, [], unknown), pos


def _d_FindCoordinatorRequest_v4(buf, pos):
    f_key_type = _S0u(buf, pos)[0]
    pos += 1
    n, pos = read_compact_array_len(buf, pos)
    f_coordinator_keys = []
    append = f_coordinator_keys.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return FindCoordinatorRequest('', f_key_type, f_coordinator_keys, unknown), pos


def _e_FindCoordinatorRequest_v0(o, out):
    write_string(out, o.key)
    if o.key_type != 0:
        raise UnsupportedFieldError('FindCoordinatorRequest v0 cannot carry a non-default KeyType')
    if o.coordinator_keys:
        raise UnsupportedFieldError('FindCoordinatorRequest v0 cannot carry a non-default CoordinatorKeys')


def _e_FindCoordinatorRequest_v1(o, out):
    write_string(out, o.key)
    out += _S0p(o.key_type)
    if o.coordinator_keys:
        raise UnsupportedFieldError('FindCoordinatorRequest v1 cannot carry a non-default CoordinatorKeys')


def _e_FindCoordinatorRequest_v2(o, out):
    write_string(out, o.key)
    out += _S0p(o.key_type)
    if o.coordinator_keys:
        raise UnsupportedFieldError('FindCoordinatorRequest v2 cannot carry a non-default CoordinatorKeys')


def _e_FindCoordinatorRequest_v3(o, out):
    write_compact_string(out, o.key)
    out += _S0p(o.key_type)
    if o.coordinator_keys:
        raise UnsupportedFieldError('FindCoordinatorRequest v3 cannot carry a non-default CoordinatorKeys')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FindCoordinatorRequest_v4(o, out):
    if o.key != '':
        raise UnsupportedFieldError('FindCoordinatorRequest v4 cannot carry a non-default Key')
    out += _S0p(o.key_type)
    value = o.coordinator_keys
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FindCoordinatorRequest_v5(o, out):
    if o.key != '':
        raise UnsupportedFieldError('FindCoordinatorRequest v5 cannot carry a non-default Key')
    out += _S0p(o.key_type)
    value = o.coordinator_keys
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FindCoordinatorRequest_v6(o, out):
    if o.key != '':
        raise UnsupportedFieldError('FindCoordinatorRequest v6 cannot carry a non-default Key')
    out += _S0p(o.key_type)
    value = o.coordinator_keys
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


FindCoordinatorRequest._DECODERS = {
    0: _d_FindCoordinatorRequest_v0,
    1: _d_FindCoordinatorRequest_v1,
    2: _d_FindCoordinatorRequest_v1,
    3: _d_FindCoordinatorRequest_v3,
    4: _d_FindCoordinatorRequest_v4,
    5: _d_FindCoordinatorRequest_v4,
    6: _d_FindCoordinatorRequest_v4,
}
FindCoordinatorRequest._ENCODERS = {
    0: _e_FindCoordinatorRequest_v0,
    1: _e_FindCoordinatorRequest_v1,
    2: _e_FindCoordinatorRequest_v2,
    3: _e_FindCoordinatorRequest_v3,
    4: _e_FindCoordinatorRequest_v4,
    5: _e_FindCoordinatorRequest_v5,
    6: _e_FindCoordinatorRequest_v6,
}
