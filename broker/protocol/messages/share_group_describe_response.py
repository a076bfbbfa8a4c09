# Generated from protocol/schemas/ShareGroupDescribeResponse.json by codegen; do not edit.
"""ShareGroupDescribeResponse: response, api key 77, versions 1-1."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar
import uuid

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    check_count,
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "TopicPartitions",
    "Assignment",
    "Member",
    "DescribedGroup",
    "ShareGroupDescribeResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>h')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>ii')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class TopicPartitions:
    """Common structure TopicPartitions."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_id': (0, 1), 'topic_name': (0, 1), 'partitions': (0, 1)}

    topic_id: uuid.UUID = UUID_ZERO
    """ID of the topic."""

    topic_name: str = ''
    """Name of the topic."""

    partitions: list[int] = field(default_factory=list)
    """List of partitions."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class Assignment:
    """Common structure Assignment."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_partitions': (0, 1)}

    topic_partitions: list[TopicPartitions] = field(default_factory=list)
    """Topic-partitions assigned to the member."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class Member:
    """Members of the group."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'member_id': (0, 1), 'rack_id': (0, 1), 'member_epoch': (0, 1), 'client_id': (0, 1), 'client_host': (0, 1), 'subscribed_topic_names': (0, 1), 'assignment': (0, 1)}

    member_id: str = ''
    """ID of the member."""

    rack_id: str | None = None
    """Rack ID of the member."""

    member_epoch: int = 0
    """Epoch the member currently has."""

    client_id: str = ''
    """ID of the client."""

    client_host: str = ''
    """Host of the client."""

    subscribed_topic_names: list[str] = field(default_factory=list)
    """Names of the topics the member subscribes to."""

    assignment: Assignment = field(default_factory=Assignment)
    """Assignment the member currently holds."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribedGroup:
    """Descriptions of the requested groups."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'error_code': (0, 1), 'error_message': (0, 1), 'group_id': (0, 1), 'group_state': (0, 1), 'group_epoch': (0, 1), 'assignment_epoch': (0, 1), 'assignor_name': (0, 1), 'members': (0, 1), 'authorized_operations': (0, 1)}

    error_code: int = 0
    """Error code from describing the group; 0 means success."""

    error_message: str | None = None
    """Error message for the whole response; null when no error occurred."""

    group_id: str = ''
    """Group ID as a string."""

    group_state: str = ''
    """State of the group as a string, or an empty string."""

    group_epoch: int = 0
    """Epoch of the group."""

    assignment_epoch: int = 0
    """Epoch of the assignment."""

    assignor_name: str = ''
    """Name of the assignor that was chosen."""

    members: list[Member] = field(default_factory=list)
    """Members of the group."""

    authorized_operations: int = -2147483648
    """Bitfield of 32 bits encoding the operations authorized on this group."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ShareGroupDescribeResponse(Message):
    """ShareGroupDescribeResponse, api key 77."""

    API_KEY: ClassVar[int] = 77
    NAME: ClassVar[str] = 'ShareGroupDescribeResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 1
    FLEXIBLE_MIN: ClassVar[int | None] = 1
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 1), 'groups': (0, 1)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    groups: list[DescribedGroup] = field(default_factory=list)
    """Descriptions of the requested groups."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_TopicPartitions_v1(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    f_topic_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopicPartitions(f_topic_id, f_topic_name, f_partitions, unknown), pos


def _d_Assignment_v1(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_topic_partitions = []
    append = f_topic_partitions.append
    for _ in range(n):
        item, pos = _d_TopicPartitions_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return Assignment(f_topic_partitions, unknown), pos


def _d_Member_v1(buf, pos):
    f_member_id, pos = read_compact_string(buf, pos)
    f_rack_id, pos = read_compact_nullable_string(buf, pos)
    f_member_epoch = _S0u(buf, pos)[0]
    pos += 4
    f_client_id, pos = read_compact_string(buf, pos)
    f_client_host, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_subscribed_topic_names = []
    append = f_subscribed_topic_names.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    f_assignment, pos = _d_Assignment_v1(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return Member(f_member_id, f_rack_id, f_member_epoch, f_client_id, f_client_host, f_subscribed_topic_names, f_assignment, unknown), pos


def _d_DescribedGroup_v1(buf, pos):
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_group_id, pos = read_compact_string(buf, pos)
    f_group_state, pos = read_compact_string(buf, pos)
    f_group_epoch, f_assignment_epoch = _S2u(buf, pos)
    pos += 8
    f_assignor_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_members = []
    append = f_members.append
    for _ in range(n):
        item, pos = _d_Member_v1(buf, pos)
        append(item)
    f_authorized_operations = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribedGroup(f_error_code, f_error_message, f_group_id, f_group_state, f_group_epoch, f_assignment_epoch, f_assignor_name, f_members, f_authorized_operations, unknown), pos


def _d_ShareGroupDescribeResponse_v1(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_DescribedGroup_v1(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ShareGroupDescribeResponse(f_throttle_time_ms, f_groups, unknown), pos


def _e_TopicPartitions_v1(o, out):
    write_uuid(out, o.topic_id)
    write_compact_string(out, o.topic_name)
    value = o.partitions
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_Assignment_v1(o, out):
    value = o.topic_partitions
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicPartitions_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_Member_v1(o, out):
    write_compact_string(out, o.member_id)
    write_compact_nullable_string(out, o.rack_id)
    out += _S0p(o.member_epoch)
    write_compact_string(out, o.client_id)
    write_compact_string(out, o.client_host)
    value = o.subscribed_topic_names
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    _e_Assignment_v1(o.assignment, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribedGroup_v1(o, out):
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    write_compact_string(out, o.group_id)
    write_compact_string(out, o.group_state)
    out += _S2p(o.group_epoch, o.assignment_epoch)
    write_compact_string(out, o.assignor_name)
    value = o.members
    write_compact_array_len(out, value)
    for item in value:
        _e_Member_v1(item, out)
    out += _S0p(o.authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ShareGroupDescribeResponse_v1(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.groups
    write_compact_array_len(out, value)
    for item in value:
        _e_DescribedGroup_v1(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ShareGroupDescribeResponse._DECODERS = {
    1: _d_ShareGroupDescribeResponse_v1,
}
ShareGroupDescribeResponse._ENCODERS = {
    1: _e_ShareGroupDescribeResponse_v1,
}
