# Generated from protocol/schemas/JoinGroupRequest.json by codegen; do not edit.
"""JoinGroupRequest: request, api key 11, versions 0-9."""

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
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_unknown_tags,
    write_array_len,
    write_bytes,
    write_compact_array_len,
    write_compact_bytes,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "JoinGroupRequestProtocol",
    "JoinGroupRequest",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>ii')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class JoinGroupRequestProtocol:
    """Protocols this member is able to support, listed in order of preference."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 9), 'metadata': (0, 9)}

    name: str = ''
    """Name of the protocol."""

    metadata: bytes = b''
    """Opaque metadata the member supplies for this protocol."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class JoinGroupRequest(Message):
    """JoinGroupRequest, api key 11."""

    API_KEY: ClassVar[int] = 11
    NAME: ClassVar[str] = 'JoinGroupRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 9
    FLEXIBLE_MIN: ClassVar[int | None] = 6
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 9), 'session_timeout_ms': (0, 9), 'rebalance_timeout_ms': (1, 9), 'member_id': (0, 9), 'group_instance_id': (5, 9), 'protocol_type': (0, 9), 'protocols': (0, 9), 'reason': (8, 9)}

    group_id: str = ''
    """Identifier of the group."""

    session_timeout_ms: int = 0
    """Timeout in milliseconds after which the coordinator treats the consumer as dead if no heartbeat has arrived."""

    rebalance_timeout_ms: int = -1
    """Longest time in milliseconds the coordinator waits for each member to rejoin during a group rebalance."""

    member_id: str = ''
    """Member ID that the group coordinator assigned."""

    group_instance_id: str | None = None
    """Consumer instance identifier supplied by the end user."""

    protocol_type: str = ''
    """Name identifying the category of protocols (for example 'consumer') that the joining group implements."""

    protocols: list[JoinGroupRequestProtocol] = field(default_factory=list)
    """Protocols this member is able to support, listed in order of preference."""

    reason: str | None = None
    """Reason given by the member for joining or rejoining the group."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_JoinGroupRequestProtocol_v0(buf, pos):
    f_name, pos = read_string(buf, pos)
    f_metadata, pos = read_bytes(buf, pos)
    return JoinGroupRequestProtocol(f_name, f_metadata), pos


def _d_JoinGroupRequest_v0(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    f_session_timeout_ms = _S0u(buf, pos)[0]
    pos += 4
    f_member_id, pos = read_string(buf, pos)
    f_protocol_type, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_protocols = []
    append = f_protocols.append
    for _ in range(n):
        item, pos = _d_JoinGroupRequestProtocol_v0(buf, pos)
        append(item)
    return JoinGroupRequest(f_group_id, f_session_timeout_ms, -1, f_member_id, None, f_protocol_type, f_protocols, None), pos


def _d_JoinGroupRequest_v1(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    f_session_timeout_ms, f_rebalance_timeout_ms = _S1u(buf, pos)
    pos += 8
    f_member_id, pos = read_string(buf, pos)
    f_protocol_type, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_protocols = []
    append = f_protocols.append
    for _ in range(n):
        item, pos = _d_JoinGroupRequestProtocol_v0(buf, pos)
        append(item)
    return JoinGroupRequest(f_group_id, f_session_timeout_ms, f_rebalance_timeout_ms, f_member_id, None, f_protocol_type, f_protocols, None), pos


def _d_JoinGroupRequest_v5(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    f_session_timeout_ms, f_rebalance_timeout_ms = _S1u(buf, pos)
    pos += 8
    f_member_id, pos = read_string(buf, pos)
    f_group_instance_id, pos = read_nullable_string(buf, pos)
    f_protocol_type, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_protocols = []
    append = f_protocols.append
    for _ in range(n):
        item, pos = _d_JoinGroupRequestProtocol_v0(buf, pos)
        append(item)
    return JoinGroupRequest(f_group_id, f_session_timeout_ms, f_rebalance_timeout_ms, f_member_id, f_group_instance_id, f_protocol_type, f_protocols, None), pos


def _d_JoinGroupRequestProtocol_v6(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_metadata, pos = read_compact_bytes(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return JoinGroupRequestProtocol(f_name, f_metadata, unknown), pos


def _d_JoinGroupRequest_v6(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    f_session_timeout_ms, f_rebalance_timeout_ms = _S1u(buf, pos)
    pos += 8
    f_member_id, pos = read_compact_string(buf, pos)
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_protocol_type, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_protocols = []
    append = f_protocols.append
    for _ in range(n):
        item, pos = _d_JoinGroupRequestProtocol_v6(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return JoinGroupRequest(f_group_id, f_session_timeout_ms, f_rebalance_timeout_ms, f_member_id, f_group_instance_id, f_protocol_type, f_protocols, None, unknown), pos


def _d_JoinGroupRequest_v8(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    f_session_timeout_ms, f_rebalance_timeout_ms = _S1u(buf, pos)
    pos += 8
    f_member_id, pos = read_compact_string(buf, pos)
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_protocol_type, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_protocols = []
    append = f_protocols.append
    for _ in range(n):
        item, pos = _d_JoinGroupRequestProtocol_v6(buf, pos)
        append(item)
    f_reason, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return JoinGroupRequest(f_group_id, f_session_timeout_ms, f_rebalance_timeout_ms, f_member_id, f_group_instance_id, f_protocol_type, f_protocols, f_reason, unknown), pos


def _e_JoinGroupRequestProtocol_v0(o, out):
    write_string(out, o.name)
    write_bytes(out, o.metadata)


def _e_JoinGroupRequest_v0(o, out):
    write_string(out, o.group_id)
    out += _S0p(o.session_timeout_ms)
    write_string(out, o.member_id)
    if o.group_instance_id is not None:
        raise UnsupportedFieldError('JoinGroupRequest v0 cannot carry a non-default GroupInstanceId')
    write_string(out, o.protocol_type)
    value = o.protocols
    write_array_len(out, value)
    for item in value:
        _e_JoinGroupRequestProtocol_v0(item, out)


def _e_JoinGroupRequest_v1(o, out):
    write_string(out, o.group_id)
    out += _S1p(o.session_timeout_ms, o.rebalance_timeout_ms)
    write_string(out, o.member_id)
    if o.group_instance_id is not None:
        raise UnsupportedFieldError('JoinGroupRequest v1 cannot carry a non-default GroupInstanceId')
    write_string(out, o.protocol_type)
    value = o.protocols
    write_array_len(out, value)
    for item in value:
        _e_JoinGroupRequestProtocol_v0(item, out)


def _e_JoinGroupRequest_v2(o, out):
    write_string(out, o.group_id)
    out += _S1p(o.session_timeout_ms, o.rebalance_timeout_ms)
    write_string(out, o.member_id)
    if o.group_instance_id is not None:
        raise UnsupportedFieldError('JoinGroupRequest v2 cannot carry a non-default GroupInstanceId')
    write_string(out, o.protocol_type)
    value = o.protocols
    write_array_len(out, value)
    for item in value:
        _e_JoinGroupRequestProtocol_v0(item, out)


def _e_JoinGroupRequest_v3(o, out):
    write_string(out, o.group_id)
    out += _S1p(o.session_timeout_ms, o.rebalance_timeout_ms)
    write_string(out, o.member_id)
    if o.group_instance_id is not None:
        raise UnsupportedFieldError('JoinGroupRequest v3 cannot carry a non-default GroupInstanceId')
    write_string(out, o.protocol_type)
    value = o.protocols
    write_array_len(out, value)
    for item in value:
        _e_JoinGroupRequestProtocol_v0(item, out)


def _e_JoinGroupRequest_v4(o, out):
    write_string(out, o.group_id)
    out += _S1p(o.session_timeout_ms, o.rebalance_timeout_ms)
    write_string(out, o.member_id)
    if o.group_instance_id is not None:
        raise UnsupportedFieldError('JoinGroupRequest v4 cannot carry a non-default GroupInstanceId')
    write_string(out, o.protocol_type)
    value = o.protocols
    write_array_len(out, value)
    for item in value:
        _e_JoinGroupRequestProtocol_v0(item, out)


def _e_JoinGroupRequest_v5(o, out):
    write_string(out, o.group_id)
    out += _S1p(o.session_timeout_ms, o.rebalance_timeout_ms)
    write_string(out, o.member_id)
    write_nullable_string(out, o.group_instance_id)
    write_string(out, o.protocol_type)
    value = o.protocols
    write_array_len(out, value)
    for item in value:
        _e_JoinGroupRequestProtocol_v0(item, out)


def _e_JoinGroupRequestProtocol_v6(o, out):
    write_compact_string(out, o.name)
    write_compact_bytes(out, o.metadata)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_JoinGroupRequest_v6(o, out):
    write_compact_string(out, o.group_id)
    out += _S1p(o.session_timeout_ms, o.rebalance_timeout_ms)
    write_compact_string(out, o.member_id)
    write_compact_nullable_string(out, o.group_instance_id)
    write_compact_string(out, o.protocol_type)
    value = o.protocols
    write_compact_array_len(out, value)
    for item in value:
        _e_JoinGroupRequestProtocol_v6(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_JoinGroupRequest_v8(o, out):
    write_compact_string(out, o.group_id)
    out += _S1p(o.session_timeout_ms, o.rebalance_timeout_ms)
    write_compact_string(out, o.member_id)
    write_compact_nullable_string(out, o.group_instance_id)
    write_compact_string(out, o.protocol_type)
    value = o.protocols
    write_compact_array_len(out, value)
    for item in value:
        _e_JoinGroupRequestProtocol_v6(item, out)
    write_compact_nullable_string(out, o.reason)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


JoinGroupRequest._DECODERS = {
    0: _d_JoinGroupRequest_v0,
    1: _d_JoinGroupRequest_v1,
    2: _d_JoinGroupRequest_v1,
    3: _d_JoinGroupRequest_v1,
    4: _d_JoinGroupRequest_v1,
    5: _d_JoinGroupRequest_v5,
    6: _d_JoinGroupRequest_v6,
    7: _d_JoinGroupRequest_v6,
    8: _d_JoinGroupRequest_v8,
    9: _d_JoinGroupRequest_v8,
}
JoinGroupRequest._ENCODERS = {
    0: _e_JoinGroupRequest_v0,
    1: _e_JoinGroupRequest_v1,
    2: _e_JoinGroupRequest_v2,
    3: _e_JoinGroupRequest_v3,
    4: _e_JoinGroupRequest_v4,
    5: _e_JoinGroupRequest_v5,
    6: _e_JoinGroupRequest_v6,
    7: _e_JoinGroupRequest_v6,
    8: _e_JoinGroupRequest_v8,
    9: _e_JoinGroupRequest_v8,
}
