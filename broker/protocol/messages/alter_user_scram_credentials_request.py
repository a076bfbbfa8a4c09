# Generated from protocol/schemas/AlterUserScramCredentialsRequest.json by codegen; do not edit.
"""AlterUserScramCredentialsRequest: request, api key 51, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_array_len,
    read_compact_bytes,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_bytes,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "ScramCredentialDeletion",
    "ScramCredentialUpsertion",
    "AlterUserScramCredentialsRequest",
]
_S0 = Struct('>b')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>bi')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class ScramCredentialDeletion:
    """Credentials to delete."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 0), 'mechanism': (0, 0)}

    name: str = ''
    """Name of the user."""

    mechanism: int = 0
    """SCRAM mechanism of the credential: 1 SCRAM-SHA-256, 2 SCRAM-SHA-512."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ScramCredentialUpsertion:
    """Credentials to create or replace."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 0), 'mechanism': (0, 0), 'iterations': (0, 0), 'salt': (0, 0), 'salted_password': (0, 0)}

    name: str = ''
    """Name of the user."""

    mechanism: int = 0
    """SCRAM mechanism of the credential: 1 SCRAM-SHA-256, 2 SCRAM-SHA-512."""

    iterations: int = 0
    """Iteration count the salted password was computed with."""

    salt: bytes = b''
    """Random salt chosen by the client."""

    salted_password: bytes = b''
    """Password salted and hashed by the client (SCRAM SaltedPassword)."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AlterUserScramCredentialsRequest(Message):
    """AlterUserScramCredentialsRequest, api key 51."""

    API_KEY: ClassVar[int] = 51
    NAME: ClassVar[str] = 'AlterUserScramCredentialsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'deletions': (0, 0), 'upsertions': (0, 0)}

    deletions: list[ScramCredentialDeletion] = field(default_factory=list)
    """Credentials to delete."""

    upsertions: list[ScramCredentialUpsertion] = field(default_factory=list)
    """Credentials to create or replace."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ScramCredentialDeletion_v0(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_mechanism = _S0u(buf, pos)[0]
    pos += 1
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ScramCredentialDeletion(f_name, f_mechanism, unknown), pos


def _d_ScramCredentialUpsertion_v0(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_mechanism, f_iterations = _S1u(buf, pos)
    pos += 5
    f_salt, pos = read_compact_bytes(buf, pos)
    f_salted_password, pos = read_compact_bytes(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ScramCredentialUpsertion(f_name, f_mechanism, f_iterations, f_salt, f_salted_password, unknown), pos


def _d_AlterUserScramCredentialsRequest_v0(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_deletions = []
    append = f_deletions.append
    for _ in range(n):
        item, pos = _d_ScramCredentialDeletion_v0(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_upsertions = []
    append = f_upsertions.append
    for _ in range(n):
        item, pos = _d_ScramCredentialUpsertion_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterUserScramCredentialsRequest(f_deletions, f_upsertions, unknown), pos


def _e_ScramCredentialDeletion_v0(o, out):
    write_compact_string(out, o.name)
    out += _S0p(o.mechanism)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ScramCredentialUpsertion_v0(o, out):
    write_compact_string(out, o.name)
    out += _S1p(o.mechanism, o.iterations)
    write_compact_bytes(out, o.salt)
    write_compact_bytes(out, o.salted_password)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AlterUserScramCredentialsRequest_v0(o, out):
    value = o.deletions
    write_compact_array_len(out, value)
    for item in value:
        _e_ScramCredentialDeletion_v0(item, out)
    value = o.upsertions
    write_compact_array_len(out, value)
    for item in value:
        _e_ScramCredentialUpsertion_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


AlterUserScramCredentialsRequest._DECODERS = {
    0: _d_AlterUserScramCredentialsRequest_v0,
}
AlterUserScramCredentialsRequest._ENCODERS = {
    0: _e_AlterUserScramCredentialsRequest_v0,
}
