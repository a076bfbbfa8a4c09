# Generated from protocol/schemas/CreateDelegationTokenRequest.json by codegen; do not edit.
"""CreateDelegationTokenRequest: request, api key 38, versions 1-3."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_array_len,
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_string,
    read_unknown_tags,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "CreatableRenewers",
    "CreateDelegationTokenRequest",
]
_S0 = Struct('>q')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class CreatableRenewers:
    """Principals allowed to renew the token before it expires."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'principal_type': (0, 3), 'principal_name': (0, 3)}

    principal_type: str = ''
    """Principal type of the renewer."""

    principal_name: str = ''
    """Principal name of the renewer."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class CreateDelegationTokenRequest(Message):
    """CreateDelegationTokenRequest, api key 38."""

    API_KEY: ClassVar[int] = 38
    NAME: ClassVar[str] = 'CreateDelegationTokenRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'owner_principal_type': (3, 3), 'owner_principal_name': (3, 3), 'renewers': (0, 3), 'max_lifetime_ms': (0, 3)}

    owner_principal_type: str | None = ''
    """Principal type of the token's owner; null: the principal making the request."""

    owner_principal_name: str | None = ''
    """Principal name of the token's owner; null: the principal making the request."""

    renewers: list[CreatableRenewers] = field(default_factory=list)
    """Principals allowed to renew the token before it expires."""

    max_lifetime_ms: int = 0
    """Longest life of the token in milliseconds; -1 for the broker's delegation.token.max.lifetime.ms."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_CreatableRenewers_v1(buf, pos):
    f_principal_type, pos = read_string(buf, pos)
    f_principal_name, pos = read_string(buf, pos)
    return CreatableRenewers(f_principal_type, f_principal_name), pos


def _d_CreateDelegationTokenRequest_v1(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_renewers = []
    append = f_renewers.append
    for _ in range(n):
        item, pos = _d_CreatableRenewers_v1(buf, pos)
        append(item)
    f_max_lifetime_ms = _S0u(buf, pos)[0]
    pos += 8
    return CreateDelegationTokenRequest('', '', f_renewers, f_max_lifetime_ms), pos


def _d_CreatableRenewers_v2(buf, pos):
    f_principal_type, pos = read_compact_string(buf, pos)
    f_principal_name, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CreatableRenewers(f_principal_type, f_principal_name, unknown), pos


def _d_CreateDelegationTokenRequest_v2(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_renewers = []
    append = f_renewers.append
    for _ in range(n):
        item, pos = _d_CreatableRenewers_v2(buf, pos)
        append(item)
    f_max_lifetime_ms = _S0u(buf, pos)[0]
    pos += 8
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CreateDelegationTokenRequest('', '', f_renewers, f_max_lifetime_ms, unknown), pos


def _d_CreateDelegationTokenRequest_v3(buf, pos):
    f_owner_principal_type, pos = read_compact_nullable_string(buf, pos)
    f_owner_principal_name, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_renewers = []
    append = f_renewers.append
    for _ in range(n):
        item, pos = _d_CreatableRenewers_v2(buf, pos)
        append(item)
    f_max_lifetime_ms = _S0u(buf, pos)[0]
    pos += 8
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CreateDelegationTokenRequest(f_owner_principal_type, f_owner_principal_name, f_renewers, f_max_lifetime_ms, unknown), pos


def _e_CreatableRenewers_v1(o, out):
    write_string(out, o.principal_type)
    write_string(out, o.principal_name)


def _e_CreateDelegationTokenRequest_v1(o, out):
    if o.owner_principal_type != '':
        raise UnsupportedFieldError('CreateDelegationTokenRequest v1 cannot carry a non-default OwnerPrincipalType')
    if o.owner_principal_name != '':
        raise UnsupportedFieldError('CreateDelegationTokenRequest v1 cannot carry a non-default OwnerPrincipalName')
    value = o.renewers
    write_array_len(out, value)
    for item in value:
        _e_CreatableRenewers_v1(item, out)
    out += _S0p(o.max_lifetime_ms)


def _e_CreatableRenewers_v2(o, out):
    write_compact_string(out, o.principal_type)
    write_compact_string(out, o.principal_name)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_CreateDelegationTokenRequest_v2(o, out):
    if o.owner_principal_type != '':
        raise UnsupportedFieldError('CreateDelegationTokenRequest v2 cannot carry a non-default OwnerPrincipalType')
    if o.owner_principal_name != '':
        raise UnsupportedFieldError('CreateDelegationTokenRequest v2 cannot carry a non-default OwnerPrincipalName')
    value = o.renewers
    write_compact_array_len(out, value)
    for item in value:
        _e_CreatableRenewers_v2(item, out)
    out += _S0p(o.max_lifetime_ms)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_CreateDelegationTokenRequest_v3(o, out):
    write_compact_nullable_string(out, o.owner_principal_type)
    write_compact_nullable_string(out, o.owner_principal_name)
    value = o.renewers
    write_compact_array_len(out, value)
    for item in value:
        _e_CreatableRenewers_v2(item, out)
    out += _S0p(o.max_lifetime_ms)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


CreateDelegationTokenRequest._DECODERS = {
    1: _d_CreateDelegationTokenRequest_v1,
    2: _d_CreateDelegationTokenRequest_v2,
    3: _d_CreateDelegationTokenRequest_v3,
}
CreateDelegationTokenRequest._ENCODERS = {
    1: _e_CreateDelegationTokenRequest_v1,
    2: _e_CreateDelegationTokenRequest_v2,
    3: _e_CreateDelegationTokenRequest_v3,
}
