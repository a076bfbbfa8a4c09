# Generated from protocol/schemas/RenewDelegationTokenRequest.json by codegen; do not edit.
"""RenewDelegationTokenRequest: request, api key 39, versions 1-2."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_bytes,
    read_compact_bytes,
    read_unknown_tags,
    write_bytes,
    write_compact_bytes,
    write_tagged_fields,
)

__all__ = [
    "RenewDelegationTokenRequest",
]
_S0 = Struct('>q')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class RenewDelegationTokenRequest(Message):
    """RenewDelegationTokenRequest, api key 39."""

    API_KEY: ClassVar[int] = 39
    NAME: ClassVar[str] = 'RenewDelegationTokenRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'hmac': (0, 2), 'renew_period_ms': (0, 2)}

    hmac: bytes = b''
    """HMAC of the token to renew."""

    renew_period_ms: int = 0
    """How long from now the token should live, in milliseconds; -1 for delegation.token.expiry.time.ms."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_RenewDelegationTokenRequest_v1(buf, pos):
    f_hmac, pos = read_bytes(buf, pos)
    f_renew_period_ms = _S0u(buf, pos)[0]
    pos += 8
    return RenewDelegationTokenRequest(f_hmac, f_renew_period_ms), pos


def _d_RenewDelegationTokenRequest_v2(buf, pos):
    f_hmac, pos = read_compact_bytes(buf, pos)
    f_renew_period_ms = _S0u(buf, pos)[0]
    pos += 8
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return RenewDelegationTokenRequest(f_hmac, f_renew_period_ms, unknown), pos


def _e_RenewDelegationTokenRequest_v1(o, out):
    write_bytes(out, o.hmac)
    out += _S0p(o.renew_period_ms)


def _e_RenewDelegationTokenRequest_v2(o, out):
    write_compact_bytes(out, o.hmac)
    out += _S0p(o.renew_period_ms)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


RenewDelegationTokenRequest._DECODERS = {
    1: _d_RenewDelegationTokenRequest_v1,
    2: _d_RenewDelegationTokenRequest_v2,
}
RenewDelegationTokenRequest._ENCODERS = {
    1: _e_RenewDelegationTokenRequest_v1,
    2: _e_RenewDelegationTokenRequest_v2,
}
