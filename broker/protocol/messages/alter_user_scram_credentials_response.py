# Generated from protocol/schemas/AlterUserScramCredentialsResponse.json by codegen; do not edit.
"""AlterUserScramCredentialsResponse: response, api key 51, versions 0-0."""

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
    "AlterUserScramCredentialsResult",
    "AlterUserScramCredentialsResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>h')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class AlterUserScramCredentialsResult:
    """One result per user touched by a deletion or an upsertion."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'user': (0, 0), 'error_code': (0, 0), 'error_message': (0, 0)}

    user: str = ''
    """Name of the user."""

    error_code: int = 0
    """Error for this user; 0 means success."""

    error_message: str | None = ''
    """Message for this user's error, or null."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AlterUserScramCredentialsResponse(Message):
    """AlterUserScramCredentialsResponse, api key 51."""

    API_KEY: ClassVar[int] = 51
    NAME: ClassVar[str] = 'AlterUserScramCredentialsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 0), 'results': (0, 0)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    results: list[AlterUserScramCredentialsResult] = field(default_factory=list)
    """One result per user touched by a deletion or an upsertion."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_AlterUserScramCredentialsResult_v0(buf, pos):
    f_user, pos = read_compact_string(buf, pos)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterUserScramCredentialsResult(f_user, f_error_code, f_error_message, unknown), pos


def _d_AlterUserScramCredentialsResponse_v0(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_AlterUserScramCredentialsResult_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterUserScramCredentialsResponse(f_throttle_time_ms, f_results, unknown), pos


def _e_AlterUserScramCredentialsResult_v0(o, out):
    write_compact_string(out, o.user)
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AlterUserScramCredentialsResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.results
    write_compact_array_len(out, value)
    for item in value:
        _e_AlterUserScramCredentialsResult_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


AlterUserScramCredentialsResponse._DECODERS = {
    0: _d_AlterUserScramCredentialsResponse_v0,
}
AlterUserScramCredentialsResponse._ENCODERS = {
    0: _e_AlterUserScramCredentialsResponse_v0,
}
