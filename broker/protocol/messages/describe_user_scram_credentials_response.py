# Generated from protocol/schemas/DescribeUserScramCredentialsResponse.json by codegen; do not edit.
"""DescribeUserScramCredentialsResponse: response, api key 50, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "CredentialInfo",
    "DescribeUserScramCredentialsResult",
    "DescribeUserScramCredentialsResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>h')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>bi')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class CredentialInfo:
    """SCRAM credentials the user has, one per mechanism."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'mechanism': (0, 0), 'iterations': (0, 0)}

    mechanism: int = 0
    """SCRAM mechanism: 1 SCRAM-SHA-256, 2 SCRAM-SHA-512."""

    iterations: int = 0
    """Iteration count of the credential."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeUserScramCredentialsResult:
    """One result per user."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'user': (0, 0), 'error_code': (0, 0), 'error_message': (0, 0), 'credential_infos': (0, 0)}

    user: str = ''
    """Name of the user."""

    error_code: int = 0
    """Error for this user; 0 means success."""

    error_message: str | None = ''
    """Message for this user's error, or null."""

    credential_infos: list[CredentialInfo] = field(default_factory=list)
    """SCRAM credentials the user has, one per mechanism."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeUserScramCredentialsResponse(Message):
    """DescribeUserScramCredentialsResponse, api key 50."""

    API_KEY: ClassVar[int] = 50
    NAME: ClassVar[str] = 'DescribeUserScramCredentialsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 0), 'error_code': (0, 0), 'error_message': (0, 0), 'results': (0, 0)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error for the whole request (authorization or an infrastructure problem); 0 otherwise."""

    error_message: str | None = ''
    """Message for the whole-request error, or null."""

    results: list[DescribeUserScramCredentialsResult] = field(default_factory=list)
    """One result per user."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_CredentialInfo_v0(buf, pos):
    f_mechanism, f_iterations = _S2u(buf, pos)
    pos += 5
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CredentialInfo(f_mechanism, f_iterations, unknown), pos


def _d_DescribeUserScramCredentialsResult_v0(buf, pos):
    f_user, pos = read_compact_string(buf, pos)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_credential_infos = []
    append = f_credential_infos.append
    for _ in range(n):
        item, pos = _d_CredentialInfo_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeUserScramCredentialsResult(f_user, f_error_code, f_error_message, f_credential_infos, unknown), pos


def _d_DescribeUserScramCredentialsResponse_v0(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_DescribeUserScramCredentialsResult_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeUserScramCredentialsResponse(f_throttle_time_ms, f_error_code, f_error_message, f_results, unknown), pos


def _e_CredentialInfo_v0(o, out):
    out += _S2p(o.mechanism, o.iterations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeUserScramCredentialsResult_v0(o, out):
    write_compact_string(out, o.user)
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    value = o.credential_infos
    write_compact_array_len(out, value)
    for item in value:
        _e_CredentialInfo_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeUserScramCredentialsResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    value = o.results
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribeUserScramCredentialsResult_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeUserScramCredentialsResponse._DECODERS = {
    0: _d_DescribeUserScramCredentialsResponse_v0,
}
DescribeUserScramCredentialsResponse._ENCODERS = {
    0: _e_DescribeUserScramCredentialsResponse_v0,
}
