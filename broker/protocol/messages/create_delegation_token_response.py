# Generated from protocol/schemas/CreateDelegationTokenResponse.json by codegen; do not edit.
"""CreateDelegationTokenResponse: response, api key 38, versions 1-3."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_bytes,
    read_compact_bytes,
    read_compact_string,
    read_string,
    read_unknown_tags,
    write_bytes,
    write_compact_bytes,
    write_compact_string,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "CreateDelegationTokenResponse",
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
class CreateDelegationTokenResponse(Message):
    """CreateDelegationTokenResponse, api key 38."""

    API_KEY: ClassVar[int] = 38
    NAME: ClassVar[str] = 'CreateDelegationTokenResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 3), 'principal_type': (0, 3), 'principal_name': (0, 3), 'token_requester_principal_type': (3, 3), 'token_requester_principal_name': (3, 3), 'issue_timestamp_ms': (0, 3), 'expiry_timestamp_ms': (0, 3), 'max_timestamp_ms': (0, 3), 'token_id': (0, 3), 'hmac': (0, 3), 'throttle_time_ms': (0, 3)}

    error_code: int = 0
    """Error for the request; 0 means success."""

    principal_type: str = ''
    """Principal type of the token's owner."""

    principal_name: str = ''
    """Principal name of the token's owner."""

    token_requester_principal_type: str = ''
    """Principal type of who asked for the token."""

    token_requester_principal_name: str = ''
    """Principal name of who asked for the token."""

    issue_timestamp_ms: int = 0
    """When the token was issued (ms since the epoch)."""

    expiry_timestamp_ms: int = 0
    """When the token expires unless renewed (ms since the epoch)."""

    max_timestamp_ms: int = 0
    """Latest time the token can be renewed to (ms since the epoch)."""

    token_id: str = ''
    """Identifier of the token."""

    hmac: bytes = b''
    """HMAC of the token: its password."""

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_CreateDelegationTokenResponse_v1(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    f_principal_type, pos = read_string(buf, pos)
    f_principal_name, pos = read_string(buf, pos)
    f_issue_timestamp_ms, f_expiry_timestamp_ms, f_max_timestamp_ms = _S1u(buf, pos)
    pos += 24
    f_token_id, pos = read_string(buf, pos)
    f_hmac, pos = read_bytes(buf, pos)
    f_throttle_time_ms = _S2u(buf, pos)[0]
    pos += 4
    return CreateDelegationTokenResponse(f_error_code, f_principal_type, f_principal_name, '', '', f_issue_timestamp_ms, f_expiry_timestamp_ms, f_max_timestamp_ms, f_token_id, f_hmac, f_throttle_time_ms), pos


def _d_CreateDelegationTokenResponse_v2(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    f_principal_type, pos = read_compact_string(buf, pos)
    f_principal_name, pos = read_compact_string(buf, pos)
    f_issue_timestamp_ms, f_expiry_timestamp_ms, f_max_timestamp_ms = _S1u(buf, pos)
    pos += 24
    f_token_id, pos = read_compact_string(buf, pos)
    f_hmac, pos = read_compact_bytes(buf, pos)
    f_throttle_time_ms = _S2u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CreateDelegationTokenResponse(f_error_code, f_principal_type, f_principal_name, '', '', f_issue_timestamp_ms, f_expiry_timestamp_ms, f_max_timestamp_ms, f_token_id, f_hmac, f_throttle_time_ms, unknown), pos


def _d_CreateDelegationTokenResponse_v3(buf, pos):
    f_error_code = _S0u(buf, pos)[0]
    pos += 2
    f_principal_type, pos = read_compact_string(buf, pos)
    f_principal_name, pos = read_compact_string(buf, pos)
    f_token_requester_principal_type, pos = read_compact_string(buf, pos)
    f_token_requester_principal_name, pos = read_compact_string(buf, pos)
    f_issue_timestamp_ms, f_expiry_timestamp_ms, f_max_timestamp_ms = _S1u(buf, pos)
    pos += 24
    f_token_id, pos = read_compact_string(buf, pos)
    f_hmac, pos = read_compact_bytes(buf, pos)
    f_throttle_time_ms = _S2u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CreateDelegationTokenResponse(f_error_code, f_principal_type, f_principal_name, f_token_requester_principal_type, f_token_requester_principal_name, f_issue_timestamp_ms, f_expiry_timestamp_ms, f_max_timestamp_ms, f_token_id, f_hmac, f_throttle_time_ms, unknown), pos


def _e_CreateDelegationTokenResponse_v1(o, out):
    out += _S0p(o.error_code)
    write_string(out, o.principal_type)
    write_string(out, o.principal_name)
    if o.token_requester_principal_type != '':
        raise UnsupportedFieldError('CreateDelegationTokenResponse v1 cannot carry a non-default TokenRequesterPrincipalType')
    if o.token_requester_principal_name != '':
        raise UnsupportedFieldError('CreateDelegationTokenResponse v1 cannot carry a non-default TokenRequesterPrincipalName')
    out += _S1p(o.issue_timestamp_ms, o.expiry_timestamp_ms, o.max_timestamp_ms)
    write_string(out, o.token_id)
    write_bytes(out, o.hmac)
    out += _S2p(o.throttle_time_ms)


def _e_CreateDelegationTokenResponse_v2(o, out):
    out += _S0p(o.error_code)
    write_compact_string(out, o.principal_type)
    write_compact_string(out, o.principal_name)
    if o.token_requester_principal_type != '':
        raise UnsupportedFieldError('CreateDelegationTokenResponse v2 cannot carry a non-default TokenRequesterPrincipalType')
    if o.token_requester_principal_name != '':
        raise UnsupportedFieldError('CreateDelegationTokenResponse v2 cannot carry a non-default TokenRequesterPrincipalName')
    out += _S1p(o.issue_timestamp_ms, o.expiry_timestamp_ms, o.max_timestamp_ms)
    write_compact_string(out, o.token_id)
    write_compact_bytes(out, o.hmac)
    out += _S2p(o.throttle_time_ms)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_CreateDelegationTokenResponse_v3(o, out):
    out += _S0p(o.error_code)
    write_compact_string(out, o.principal_type)
    write_compact_string(out, o.principal_name)
    write_compact_string(out, o.token_requester_principal_type)
    write_compact_string(out, o.token_requester_principal_name)
    out += _S1p(o.issue_timestamp_ms, o.expiry_timestamp_ms, o.max_timestamp_ms)
    write_compact_string(out, o.token_id)
    write_compact_bytes(out, o.hmac)
    out += _S2p(o.throttle_time_ms)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


CreateDelegationTokenResponse._DECODERS = {
    1: _d_CreateDelegationTokenResponse_v1,
    2: _d_CreateDelegationTokenResponse_v2,
    3: _d_CreateDelegationTokenResponse_v3,
}
CreateDelegationTokenResponse._ENCODERS = {
    1: _e_CreateDelegationTokenResponse_v1,
    2: _e_CreateDelegationTokenResponse_v2,
    3: _e_CreateDelegationTokenResponse_v3,
}
