# Generated from protocol/schemas/DescribeDelegationTokenRequest.json by codegen; do not edit.
"""DescribeDelegationTokenRequest: request, api key 41, versions 1-3."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_nullable_array_len,
    read_compact_string,
    read_nullable_array_len,
    read_string,
    read_unknown_tags,
    write_compact_nullable_array_len,
    write_compact_string,
    write_nullable_array_len,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "DescribeDelegationTokenOwner",
    "DescribeDelegationTokenRequest",
]


@dataclass(slots=True)
class DescribeDelegationTokenOwner:
    """Owners whose tokens to describe, or null for every token the caller may see."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'principal_type': (0, 3), 'principal_name': (0, 3)}

    principal_type: str = ''
    """Principal type of the owner."""

    principal_name: str = ''
    """Principal name of the owner."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeDelegationTokenRequest(Message):
    """DescribeDelegationTokenRequest, api key 41."""

    API_KEY: ClassVar[int] = 41
    NAME: ClassVar[str] = 'DescribeDelegationTokenRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'owners': (0, 3)}

    owners: list[DescribeDelegationTokenOwner] | None = field(default_factory=list)
    """Owners whose tokens to describe, or null for every token the caller may see."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DescribeDelegationTokenOwner_v1(buf, pos):
    f_principal_type, pos = read_string(buf, pos)
    f_principal_name, pos = read_string(buf, pos)
    return DescribeDelegationTokenOwner(f_principal_type, f_principal_name), pos


def _d_DescribeDelegationTokenRequest_v1(buf, pos):
    n, pos = read_nullable_array_len(buf, pos)
    if n < 0:
        f_owners = None
    else:
        f_owners = []
        append = f_owners.append
        for _ in range(n):
            item, pos = _d_DescribeDelegationTokenOwner_v1(buf, pos)
            append(item)
    return DescribeDelegationTokenRequest(f_owners), pos


def _d_DescribeDelegationTokenOwner_v2(buf, pos):
    f_principal_type, pos = read_compact_string(buf, pos)
    f_principal_name, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeDelegationTokenOwner(f_principal_type, f_principal_name, unknown), pos


def _d_DescribeDelegationTokenRequest_v2(buf, pos):
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_owners = None
    else:
        f_owners = []
        append = f_owners.append
        for _ in range(n):
            item, pos = _d_DescribeDelegationTokenOwner_v2(buf, pos)
            append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeDelegationTokenRequest(f_owners, unknown), pos


def _e_DescribeDelegationTokenOwner_v1(o, out):
    write_string(out, o.principal_type)
    write_string(out, o.principal_name)


def _e_DescribeDelegationTokenRequest_v1(o, out):
    value = o.owners
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_DescribeDelegationTokenOwner_v1(item, out)


def _e_DescribeDelegationTokenOwner_v2(o, out):
    write_compact_string(out, o.principal_type)
    write_compact_string(out, o.principal_name)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeDelegationTokenRequest_v2(o, out):
    value = o.owners
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_DescribeDelegationTokenOwner_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeDelegationTokenRequest._DECODERS = {
    1: _d_DescribeDelegationTokenRequest_v1,
    2: _d_DescribeDelegationTokenRequest_v2,
    3: _d_DescribeDelegationTokenRequest_v2,
}
DescribeDelegationTokenRequest._ENCODERS = {
    1: _e_DescribeDelegationTokenRequest_v1,
    2: _e_DescribeDelegationTokenRequest_v2,
    3: _e_DescribeDelegationTokenRequest_v2,
}
