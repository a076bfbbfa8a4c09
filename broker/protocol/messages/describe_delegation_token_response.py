# Generated from protocol/schemas/DescribeDelegationTokenResponse.json by codegen; do not edit.
"""DescribeDelegationTokenResponse: response, api key 41, versions 1-3."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_array_len,
    read_bytes,
    read_compact_array_len,
    read_compact_bytes,
    read_compact_string,
    read_string,
    read_unknown_tags,
    write_array_len,
    write_bytes,
    write_compact_array_len,
    write_compact_bytes,
    write_compact_string,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "DescribedDelegationTokenRenewer",
    "DescribedDelegationToken",
    "DescribeDelegationTokenResponse",
]
_S0 = Struct('>h')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>qqq')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>i')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class DescribedDelegationTokenRenewer:
    """Principals allowed to renew the token."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'principal_type': (0, 3), 'principal_name': (0, 3)}

    principal_type: str = ''
    """Principal type of the renewer."""

    principal_name: str = ''
    """Principal name of the renewer."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribedDelegationToken:
    """The tokens described."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'principal_type': (0, 3), 'principal_name': (0, 3), 'token_requester_principal_type': (3, 3), 'token_requester_principal_name': (3, 3), 'issue_timestamp': (0, 3), 'expiry_timestamp': (0, 3), 'max_timestamp': (0, 3), 'token_id': (0, 3), 'hmac': (0, 3), 'renewers': (0, 3)}

    principal_type: str = ''
    """Principal type of the token's owner."""

    principal_name: str = ''
    """Principal name of the token's owner."""

    token_requester_principal_type: str = ''
    """Principal type of who asked for the token."""

    token_requester_principal_name: str = ''
    """Principal name of who asked for the token."""

    issue_timestamp: int = 0
    """When the token was issued (ms since the epoch)."""

    expiry_timestamp: int = 0
    """When the token expires unless renewed (ms since the epoch)."""

    max_timestamp: int = 0
    """Latest time the token can be renewed to (ms since the epoch)."""

    token_id: str = ''
    """Identifier of the token."""

    hmac: bytes = b''
    """HMAC of the token."""

    renewers: list[DescribedDelegationTokenRenewer] = field(default_factory=list)
    """Principals allowed to renew the token."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeDelegationTokenResponse(Message):
    """DescribeDelegationTokenResponse, api key 41."""

    API_KEY: ClassVar[int] = 41
    NAME: ClassVar[str] = 'DescribeDelegationTokenResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 3), 'tokens': (0, 3), 'throttle_time_ms': (0, 3)}

    error_code: int = 0
    """Error code; 0 means success."""

    tokens: list[DescribedDelegationToken] = field(default_factory=list)
    """The tokens described."""

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DescribedDelegationTokenRenewer_v1(buf, pos):
    f_principal_type, pos = read_string(buf, pos)
    f_principal_name, pos = read_string(buf, pos)
    return DescribedDelegationTokenRenewer(f_principal_type, f_principal_name), pos


def _d_DescribedDelegationToken_v1(buf, pos):
    f_principal_type, pos = read_string(buf, pos)
    f_principal_name, pos = read_string(buf, pos)
    f_issue_timestamp, f_expiry_timestamp, f_max_timestamp = _S1u(buf, pos)
    pos += 24
    f_token_id, pos = read_string(buf, pos)
    f_hmac, pos = read_bytes(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_renewers = []
    append = f_renewers.append
    for _ in range(n):
        item, pos = _d_DescribedDelegationTokenRenewer_v1(buf, pos)
        append(item)
    return DescribedDelegationToken(f_principal_type, f_principal_name, '', '', f_issue_timestamp, f_expiry_timestamp, f_max_timestamp, f_token_id, f_hmac, f_renewers), pos


def _d_DescribeDelegationTokenResponse_v1(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    n, pos = read_array_len(buf, pos)
    f_tokens = []
    append = f_tokens.append
    for _ in range(n):
        item, pos = _d_DescribedDelegationToken_v1(buf, pos)
        append(item)
    f_throttle_time_ms = _S2u(buf, pos)[0]
    pos += 4
    return DescribeDelegationTokenResponse(f_error_code, f_tokens, f_throttle_time_ms), pos


def _d_DescribedDelegationTokenRenewer_v2(buf, pos):
    f_principal_type, pos = read_compact_string(buf, pos)
    f_principal_name, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribedDelegationTokenRenewer(f_principal_type, f_principal_name, unknown), pos


def _d_DescribedDelegationToken_v2(buf, pos):
    f_principal_type, pos = read_compact_string(buf, pos)
    f_principal_name, pos = read_compact_string(buf, pos)
    f_issue_timestamp, f_expiry_timestamp, f_max_timestamp = _S1u(buf, pos)
    pos += 24
    f_token_id, pos = read_compact_string(buf, pos)
    f_hmac, pos = read_compact_bytes(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_renewers = []
    append = f_renewers.append
    for _ in range(n):
        item, pos = _d_DescribedDelegationTokenRenewer_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribedDelegationToken(f_principal_type, f_principal_name, '', '', f_issue_timestamp, f_expiry_timestamp, f_max_timestamp, f_token_id, f_hmac, f_renewers, unknown), pos


def _d_DescribeDelegationTokenResponse_v2(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    n, pos = read_compact_array_len(buf, pos)
    f_tokens = []
    append = f_tokens.append
    for _ in range(n):
        item, pos = _d_DescribedDelegationToken_v2(buf, pos)
        append(item)
    f_throttle_time_ms = _S2u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeDelegationTokenResponse(f_error_code, f_tokens, f_throttle_time_ms, unknown), pos


def _d_DescribedDelegationToken_v3(buf, pos):
    f_principal_type, pos = read_compact_string(buf, pos)
    f_principal_name, pos = read_compact_string(buf, pos)
    f_token_requester_principal_type, pos = read_compact_string(buf, pos)
    f_token_requester_principal_name, pos = read_compact_string(buf, pos)
    f_issue_timestamp, f_expiry_timestamp, f_max_timestamp = _S1u(buf, pos)
    pos += 24
    f_token_id, pos = read_compact_string(buf, pos)
    f_hmac, pos = read_compact_bytes(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_renewers = []
    append = f_renewers.append
    for _ in range(n):
        item, pos = _d_DescribedDelegationTokenRenewer_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribedDelegationToken(f_principal_type, f_principal_name, f_token_requester_principal_type, f_token_requester_principal_name, f_issue_timestamp, f_expiry_timestamp, f_max_timestamp, f_token_id, f_hmac, f_renewers, unknown), pos


def _d_DescribeDelegationTokenResponse_v3(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    n, pos = read_compact_array_len(buf, pos)
    f_tokens = []
    append = f_tokens.append
    for _ in range(n):
        item, pos = _d_DescribedDelegationToken_v3(buf, pos)
        append(item)
    f_throttle_time_ms = _S2u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeDelegationTokenResponse(f_error_code, f_tokens, f_throttle_time_ms, unknown), pos


def _e_DescribedDelegationTokenRenewer_v1(o, out):
    write_string(out, o.principal_type)
    write_string(out, o.principal_name)


def _e_DescribedDelegationToken_v1(o, out):
    write_string(out, o.principal_type)
    write_string(out, o.principal_name)
    if o.token_requester_principal_type != '':
        raise UnsupportedFieldError('DescribeDelegationTokenResponse v1 cannot carry a non-default TokenRequesterPrincipalType')
    if o.token_requester_principal_name != '':
        raise UnsupportedFieldError('DescribeDelegationTokenResponse v1 cannot carry a non-default TokenRequesterPrincipalName')
    out += _S1p(o.issue_timestamp, o.expiry_timestamp, o.max_timestamp)
    write_string(out, o.token_id)
    write_bytes(out, o.hmac)
    value = o.renewers
    write_array_len(out, value)
    for item in value:
        _e_DescribedDelegationTokenRenewer_v1(item, out)


def _e_DescribeDelegationTokenResponse_v1(o, out):
    out += _S0p(o.error_code)
    value = o.tokens
    write_array_len(out, value)
    for item in value:
        _e_DescribedDelegationToken_v1(item, out)
    out += _S2p(o.throttle_time_ms)


def _e_DescribedDelegationTokenRenewer_v2(o, out):
    write_compact_string(out, o.principal_type)
    write_compact_string(out, o.principal_name)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribedDelegationToken_v2(o, out):
    write_compact_string(out, o.principal_type)
    write_compact_string(out, o.principal_name)
    if o.token_requester_principal_type != '':
        raise UnsupportedFieldError('DescribeDelegationTokenResponse v2 cannot carry a non-default TokenRequesterPrincipalType')
    if o.token_requester_principal_name != '':
        raise UnsupportedFieldError('DescribeDelegationTokenResponse v2 cannot carry a non-default TokenRequesterPrincipalName')
    out += _S1p(o.issue_timestamp, o.expiry_timestamp, o.max_timestamp)
    write_compact_string(out, o.token_id)
    write_compact_bytes(out, o.hmac)
    value = o.renewers
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribedDelegationTokenRenewer_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeDelegationTokenResponse_v2(o, out):
    out += _S0p(o.error_code)
    value = o.tokens
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribedDelegationToken_v2(item, out)
    out += _S2p(o.throttle_time_ms)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribedDelegationToken_v3(o, out):
    write_compact_string(out, o.principal_type)
    write_compact_string(out, o.principal_name)
    write_compact_string(out, o.token_requester_principal_type)
    write_compact_string(out, o.token_requester_principal_name)
    out += _S1p(o.issue_timestamp, o.expiry_timestamp, o.max_timestamp)
    write_compact_string(out, o.token_id)
    write_compact_bytes(out, o.hmac)
    value = o.renewers
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribedDelegationTokenRenewer_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeDelegationTokenResponse_v3(o, out):
    out += _S0p(o.error_code)
    value = o.tokens
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribedDelegationToken_v3(item, out)
    out += _S2p(o.throttle_time_ms)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeDelegationTokenResponse._DECODERS = {
    1: _d_DescribeDelegationTokenResponse_v1,
    2: _d_DescribeDelegationTokenResponse_v2,
    3: _d_DescribeDelegationTokenResponse_v3,
}
DescribeDelegationTokenResponse._ENCODERS = {
    1: _e_DescribeDelegationTokenResponse_v1,
    2: _e_DescribeDelegationTokenResponse_v2,
    3: _e_DescribeDelegationTokenResponse_v3,
}
