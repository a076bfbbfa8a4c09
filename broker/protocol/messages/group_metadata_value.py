# Generated from protocol/schemas/GroupMetadataValue.json by codegen; do not edit.
"""GroupMetadataValue: coordinator-value, api key 2, versions 0-4."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

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
    "MemberMetadata",
    "GroupMetadataValue",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>ii')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>q')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class MemberMetadata:
    """Common structure MemberMetadata."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'member_id': (0, 4), 'group_instance_id': (3, 4), 'client_id': (0, 4), 'client_host': (0, 4), 'rebalance_timeout': (1, 4), 'session_timeout': (0, 4), 'subscription': (0, 4), 'assignment': (0, 4)}

    member_id: str = ''
    """ID of the member."""

    group_instance_id: str | None = None
    """Instance ID of the group member."""

    client_id: str = ''
    """ID of the client."""

    client_host: str = ''
    """Host of the client."""

    rebalance_timeout: int = -1
    """Timeout applied to rebalances."""

    session_timeout: int = 0
    """Timeout applied to the session."""

    subscription: bytes = b''
    """Subscription of the member."""

    assignment: bytes = b''
    """Assignment of the member."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class GroupMetadataValue(Message):
    """GroupMetadataValue, api key 2."""

    API_KEY: ClassVar[int] = 2
    NAME: ClassVar[str] = 'GroupMetadataValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 4
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'protocol_type': (0, 4), 'generation': (0, 4), 'protocol': (0, 4), 'leader': (0, 4), 'current_state_timestamp': (2, 4), 'members': (0, 4)}

    protocol_type: str = ''
    """Type of the protocol."""

    generation: int = 0
    """ID of the generation."""

    protocol: str | None = ''
    """Name of the protocol."""

    leader: str | None = ''
    """ID of the leader."""

    current_state_timestamp: int = -1
    """Time at which the state last changed."""

    members: list[MemberMetadata] = field(default_factory=list)
    """Members belonging to the group."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_MemberMetadata_v0(buf, pos):
    f_member_id, pos = read_string(buf, pos)
    f_client_id, pos = read_string(buf, pos)
    f_client_host, pos = read_string(buf, pos)
    f_session_timeout = _S0u(buf, pos)[0]
    pos += 4
    f_subscription, pos = read_bytes(buf, pos)
    f_assignment, pos = read_bytes(buf, pos)
    return MemberMetadata(f_member_id, None, f_client_id, f_client_host, -1, f_session_timeout, f_subscription, f_assignment), pos


def _d_GroupMetadataValue_v0(buf, pos):
    f_protocol_type, pos = read_string(buf, pos)
    f_generation = _S0u(buf, pos)[0]
    pos += 4
    f_protocol, pos = read_nullable_string(buf, pos)
    f_leader, pos = read_nullable_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_MemberMetadata_v0(buf, pos)
        append(item)
    return GroupMetadataValue(f_protocol_type, f_generation, f_protocol, f_leader, -1, f_members), pos


def _d_MemberMetadata_v1(buf, pos):
    f_member_id, pos = read_string(buf, pos)
    f_client_id, pos = read_string(buf, pos)
    f_client_host, pos = read_string(buf, pos)
    f_rebalance_timeout, f_session_timeout = _S1u(buf, pos)
    pos += 8
    f_subscription, pos = read_bytes(buf, pos)
    f_assignment, pos = read_bytes(buf, pos)
    return MemberMetadata(f_member_id, None, f_client_id, f_client_host, f_rebalance_timeout, f_session_timeout, f_subscription, f_assignment), pos


def _d_GroupMetadataValue_v1(buf, pos):
    f_protocol_type, pos = read_string(buf, pos)
    f_generation = _S0u(buf, pos)[0]
    pos += 4
    f_protocol, pos = read_nullable_string(buf, pos)
    f_leader, pos = read_nullable_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_MemberMetadata_v1(buf, pos)
        append(item)
    return GroupMetadataValue(f_protocol_type, f_generation, f_protocol, f_leader, -1, f_members), pos


def _d_GroupMetadataValue_v2(buf, pos):
    f_protocol_type, pos = read_string(buf, pos)
    f_generation = _S0u(buf, pos)[0]
    pos += 4
    f_protocol, pos = read_nullable_string(buf, pos)
    f_leader, pos = read_nullable_string(buf, pos)
    f_current_state_timestamp = _S2u(buf, pos)[0]
    pos += 8
    n, pos = read_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_MemberMetadata_v1(buf, pos)
        append(item)
    return GroupMetadataValue(f_protocol_type, f_generation, f_protocol, f_leader, f_current_state_timestamp, f_members), pos


def _d_MemberMetadata_v3(buf, pos):
    f_member_id, pos = read_string(buf, pos)
    f_group_instance_id, pos = read_nullable_string(buf, pos)
    f_client_id, pos = read_string(buf, pos)
    f_client_host, pos = read_string(buf, pos)
    f_rebalance_timeout, f_session_timeout = _S1u(buf, pos)
    pos += 8
    f_subscription, pos = read_bytes(buf, pos)
    f_assignment, pos = read_bytes(buf, pos)
    return MemberMetadata(f_member_id, f_group_instance_id, f_client_id, f_client_host, f_rebalance_timeout, f_session_timeout, f_subscription, f_assignment), pos


def _d_GroupMetadataValue_v3(buf, pos):
    f_protocol_type, pos = read_string(buf, pos)
    f_generation = _S0u(buf, pos)[0]
    pos += 4
    f_protocol, pos = read_nullable_string(buf, pos)
    f_leader, pos = read_nullable_string(buf, pos)
    f_current_state_timestamp = _S2u(buf, pos)[0]
    pos += 8
    n, pos = read_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_MemberMetadata_v3(buf, pos)
        append(item)
    return GroupMetadataValue(f_protocol_type, f_generation, f_protocol, f_leader, f_current_state_timestamp, f_members), pos


def _d_MemberMetadata_v4(buf, pos):
    f_member_id, pos = read_compact_string(buf, pos)
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    f_client_id, pos = read_compact_string(buf, pos)
    f_client_host, pos = read_compact_string(buf, pos)
    f_rebalance_timeout, f_session_timeout = _S1u(buf, pos)
    pos += 8
    f_subscription, pos = read_compact_bytes(buf, pos)
    f_assignment, pos = read_compact_bytes(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return MemberMetadata(f_member_id, f_group_instance_id, f_client_id, f_client_host, f_rebalance_timeout, f_session_timeout, f_subscription, f_assignment, unknown), pos


def _d_GroupMetadataValue_v4(buf, pos):
    f_protocol_type, pos = read_compact_string(buf, pos)
    f_generation = _S0u(buf, pos)[0]
    pos += 4
    f_protocol, pos = read_compact_nullable_string(buf, pos)
    f_leader, pos = read_compact_nullable_string(buf, pos)
    f_current_state_timestamp = _S2u(buf, pos)[0]
    pos += 8
    n, pos = read_compact_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_MemberMetadata_v4(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return GroupMetadataValue(f_protocol_type, f_generation, f_protocol, f_leader, f_current_state_timestamp, f_members, unknown), pos


def _e_MemberMetadata_v0(o, out):
    write_string(out, o.member_id)
    write_string(out, o.client_id)
    write_string(out, o.client_host)
    out += _S0p(o.session_timeout)
    write_bytes(out, o.subscription)
    write_bytes(out, o.assignment)


def _e_GroupMetadataValue_v0(o, out):
    write_string(out, o.protocol_type)
    out += _S0p(o.generation)
    write_nullable_string(out, o.protocol)
    write_nullable_string(out, o.leader)
    value = o.members
    write_array_len(out, value)
    for item in value:
        _e_MemberMetadata_v0(item, out)


def _e_MemberMetadata_v1(o, out):
    write_string(out, o.member_id)
    write_string(out, o.client_id)
    write_string(out, o.client_host)
    out += _S1p(o.rebalance_timeout, o.session_timeout)
    write_bytes(out, o.subscription)
    write_bytes(out, o.assignment)


def _e_GroupMetadataValue_v1(o, out):
    write_string(out, o.protocol_type)
    out += _S0p(o.generation)
    write_nullable_string(out, o.protocol)
    write_nullable_string(out, o.leader)
    value = o.members
    write_array_len(out, value)
    for item in value:
        _e_MemberMetadata_v1(item, out)


def _e_GroupMetadataValue_v2(o, out):
    write_string(out, o.protocol_type)
    out += _S0p(o.generation)
    write_nullable_string(out, o.protocol)
    write_nullable_string(out, o.leader)
    out += _S2p(o.current_state_timestamp)
    value = o.members
    write_array_len(out, value)
    for item in value:
        _e_MemberMetadata_v1(item, out)


def _e_MemberMetadata_v3(o, out):
    write_string(out, o.member_id)
    write_nullable_string(out, o.group_instance_id)
    write_string(out, o.client_id)
    write_string(out, o.client_host)
    out += _S1p(o.rebalance_timeout, o.session_timeout)
    write_bytes(out, o.subscription)
    write_bytes(out, o.assignment)


def _e_GroupMetadataValue_v3(o, out):
    write_string(out, o.protocol_type)
    out += _S0p(o.generation)
    write_nullable_string(out, o.protocol)
    write_nullable_string(out, o.leader)
    out += _S2p(o.current_state_timestamp)
    value = o.members
    write_array_len(out, value)
    for item in value:
        _e_MemberMetadata_v3(item, out)


def _e_MemberMetadata_v4(o, out):
    write_compact_string(out, o.member_id)
    write_compact_nullable_string(out, o.group_instance_id)
    write_compact_string(out, o.client_id)
    write_compact_string(out, o.client_host)
    out += _S1p(o.rebalance_timeout, o.session_timeout)
    write_compact_bytes(out, o.subscription)
    write_compact_bytes(out, o.assignment)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_GroupMetadataValue_v4(o, out):
    write_compact_string(out, o.protocol_type)
    out += _S0p(o.generation)
    write_compact_nullable_string(out, o.protocol)
    write_compact_nullable_string(out, o.leader)
    out += _S2p(o.current_state_timestamp)
    value = o.members
    write_compact_array_len(out, value)
    for item in value:
        _e_MemberMetadata_v4(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


GroupMetadataValue._DECODERS = {
    0: _d_GroupMetadataValue_v0,
    1: _d_GroupMetadataValue_v1,
    2: _d_GroupMetadataValue_v2,
    3: _d_GroupMetadataValue_v3,
    4: _d_GroupMetadataValue_v4,
}
GroupMetadataValue._ENCODERS = {
    0: _e_GroupMetadataValue_v0,
    1: _e_GroupMetadataValue_v1,
    2: _e_GroupMetadataValue_v2,
    3: _e_GroupMetadataValue_v3,
    4: _e_GroupMetadataValue_v4,
}
