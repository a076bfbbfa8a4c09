# Generated from protocol/schemas/OffsetFetchRequest.json by codegen; do not edit.
"""OffsetFetchRequest: request, api key 9, versions 1-10."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar
import uuid

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    check_count,
    read_array_len,
    read_compact_array_len,
    read_compact_nullable_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_array_len,
    read_string,
    read_unknown_tags,
    read_uuid,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_array_len,
    write_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "OffsetFetchRequestTopic",
    "OffsetFetchRequestTopics",
    "OffsetFetchRequestGroup",
    "OffsetFetchRequest",
]
_S0 = Struct('>?')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>B')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class OffsetFetchRequestTopic:
    """Topics to fetch offsets for, or null to fetch offsets for every topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 7), 'partition_indexes': (0, 7)}

    name: str = ''
    """Name of the topic."""

    partition_indexes: list[int] = field(default_factory=list)
    """Indexes of the partitions whose offsets are being fetched."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetFetchRequestTopics:
    """Topics to fetch offsets for, or null to fetch offsets for every topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (8, 9), 'topic_id': (10, 10), 'partition_indexes': (8, 10)}

    name: str = ''
    """Name of the topic."""

    topic_id: uuid.UUID = UUID_ZERO
    """ID of the topic."""

    partition_indexes: list[int] = field(default_factory=list)
    """Indexes of the partitions whose offsets are being fetched."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetFetchRequestGroup:
    """One entry for every group whose offsets are being fetched."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (8, 10), 'member_id': (9, 10), 'member_epoch': (9, 10), 'topics': (8, 10)}

    group_id: str = ''
    """Identifier of the group."""

    member_id: str | None = None
    """ID of the member."""

    member_epoch: int = -1
    """Member epoch, used when the group runs the new consumer protocol (KIP-848)."""

    topics: list[OffsetFetchRequestTopics] | None = field(default_factory=list)
    """Topics to fetch offsets for, or null to fetch offsets for every topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class OffsetFetchRequest(Message):
    """OffsetFetchRequest, api key 9."""

    API_KEY: ClassVar[int] = 9
    NAME: ClassVar[str] = 'OffsetFetchRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 10
    FLEXIBLE_MIN: ClassVar[int | None] = 6
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 7), 'topics': (0, 7), 'groups': (8, 10), 'require_stable': (7, 10)}

    group_id: str = ''
    """Group whose offsets are being fetched."""

    topics: list[OffsetFetchRequestTopic] | None = field(default_factory=list)
    """Topics to fetch offsets for, or null to fetch offsets for every topic."""

    groups: list[OffsetFetchRequestGroup] = field(default_factory=list)
    """One entry for every group whose offsets are being fetched."""

    require_stable: bool = False
    """Whether the broker should withhold unstable offsets and instead return a retriable error code for those partitions."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_OffsetFetchRequestTopic_v1(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partition_indexes = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    return OffsetFetchRequestTopic(f_name, f_partition_indexes), pos


def _d_OffsetFetchRequest_v1(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_OffsetFetchRequestTopic_v1(buf, pos)
        append(item)
    return OffsetFetchRequest(f_group_id, f_topics, [], False), pos


def _d_OffsetFetchRequest_v2(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    n, pos = read_nullable_array_len(buf, pos)
    if n < 0:
        f_topics = None
    else:
        f_topics = []
        append = f_topics.append
        for _ in range(n):
            item, pos = _d_OffsetFetchRequestTopic_v1(buf, pos)
            append(item)
    return OffsetFetchRequest(f_group_id, f_topics, [], False), pos


def _d_OffsetFetchRequestTopic_v6(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partition_indexes = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchRequestTopic(f_name, f_partition_indexes, unknown), pos


def _d_OffsetFetchRequest_v6(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_topics = None
    else:
        f_topics = []
        append = f_topics.append
        for _ in range(n):
            item, pos = _d_OffsetFetchRequestTopic_v6(buf, pos)
            append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchRequest(f_group_id, f_topics, [], False, unknown), pos


def _d_OffsetFetchRequest_v7(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_topics = None
    else:
        f_topics = []
        append = f_topics.append
        for _ in range(n):
            item, pos = _d_OffsetFetchRequestTopic_v6(buf, pos)
            append(item)
    f_require_stable = _S0u(buf, pos)[0]
    pos += 1
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchRequest(f_group_id, f_topics, [], f_require_stable, unknown), pos


def _d_OffsetFetchRequestTopics_v8(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partition_indexes = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchRequestTopics(f_name, UUID_ZERO, f_partition_indexes, unknown), pos


def _d_OffsetFetchRequestGroup_v8(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_topics = None
    else:
        f_topics = []
        append = f_topics.append
        for _ in range(n):
            item, pos = _d_OffsetFetchRequestTopics_v8(buf, pos)
            append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchRequestGroup(f_group_id, None, -1, f_topics, unknown), pos


def _d_OffsetFetchRequest_v8(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_OffsetFetchRequestGroup_v8(buf, pos)
        append(item)
    f_require_stable = _S0u(buf, pos)[0]
    pos += 1
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchRequest('', [], f_groups, f_require_stable, unknown), pos


def _d_OffsetFetchRequestGroup_v9(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    f_member_id, pos = read_compact_nullable_string(buf, pos)
    f_member_epoch = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_topics = None
    else:
        f_topics = []
        append = f_topics.append
        for _ in range(n):
            item, pos = _d_OffsetFetchRequestTopics_v8(buf, pos)
            append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchRequestGroup(f_group_id, f_member_id, f_member_epoch, f_topics, unknown), pos


def _d_OffsetFetchRequest_v9(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_OffsetFetchRequestGroup_v9(buf, pos)
        append(item)
    f_require_stable = _S0u(buf, pos)[0]
    pos += 1
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchRequest('', [], f_groups, f_require_stable, unknown), pos


def _d_OffsetFetchRequestTopics_v10(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partition_indexes = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchRequestTopics('', f_topic_id, f_partition_indexes, unknown), pos


def _d_OffsetFetchRequestGroup_v10(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    f_member_id, pos = read_compact_nullable_string(buf, pos)
    f_member_epoch = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_topics = None
    else:
        f_topics = []
        append = f_topics.append
        for _ in range(n):
            item, pos = _d_OffsetFetchRequestTopics_v10(buf, pos)
            append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchRequestGroup(f_group_id, f_member_id, f_member_epoch, f_topics, unknown), pos


def _d_OffsetFetchRequest_v10(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_groups = []
    append = f_groups.append
    for _ in range(n):
        item, pos = _d_OffsetFetchRequestGroup_v10(buf, pos)
        append(item)
    f_require_stable = _S0u(buf, pos)[0]
    pos += 1
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return OffsetFetchRequest('', [], f_groups, f_require_stable, unknown), pos


def _e_OffsetFetchRequestTopic_v1(o, out):
    write_string(out, o.name)
    value = o.partition_indexes
    write_array_len(out, value)
    out += pack('>%di' % len(value), *value)


def _e_OffsetFetchRequest_v1(o, out):
    write_string(out, o.group_id)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_OffsetFetchRequestTopic_v1(item, out)
    if o.groups:
        raise UnsupportedFieldError('OffsetFetchRequest v1 cannot carry a non-default Groups')
    if o.require_stable:
        raise UnsupportedFieldError('OffsetFetchRequest v1 cannot carry a non-default RequireStable')


def _e_OffsetFetchRequest_v2(o, out):
    write_string(out, o.group_id)
    value = o.topics
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_OffsetFetchRequestTopic_v1(item, out)
    if o.groups:
        raise UnsupportedFieldError('OffsetFetchRequest v2 cannot carry a non-default Groups')
    if o.require_stable:
        raise UnsupportedFieldError('OffsetFetchRequest v2 cannot carry a non-default RequireStable')


def _e_OffsetFetchRequest_v3(o, out):
    write_string(out, o.group_id)
    value = o.topics
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_OffsetFetchRequestTopic_v1(item, out)
    if o.groups:
        raise UnsupportedFieldError('OffsetFetchRequest v3 cannot carry a non-default Groups')
    if o.require_stable:
        raise UnsupportedFieldError('OffsetFetchRequest v3 cannot carry a non-default RequireStable')


def _e_OffsetFetchRequest_v4(o, out):
    write_string(out, o.group_id)
    value = o.topics
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_OffsetFetchRequestTopic_v1(item, out)
    if o.groups:
        raise UnsupportedFieldError('OffsetFetchRequest v4 cannot carry a non-default Groups')
    if o.require_stable:
        raise UnsupportedFieldError('OffsetFetchRequest v4 cannot carry a non-default RequireStable')


def _e_OffsetFetchRequest_v5(o, out):
    write_string(out, o.group_id)
    value = o.topics
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_OffsetFetchRequestTopic_v1(item, out)
    if o.groups:
        raise UnsupportedFieldError('OffsetFetchRequest v5 cannot carry a non-default Groups')
    if o.require_stable:
        raise UnsupportedFieldError('OffsetFetchRequest v5 cannot carry a non-default RequireStable')


def _e_OffsetFetchRequestTopic_v6(o, out):
    write_compact_string(out, o.name)
    value = o.partition_indexes
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchRequest_v6(o, out):
    write_compact_string(out, o.group_id)
    value = o.topics
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_OffsetFetchRequestTopic_v6(item, out)
    if o.groups:
        raise UnsupportedFieldError('OffsetFetchRequest v6 cannot carry a non-default Groups')
    if o.require_stable:
        raise UnsupportedFieldError('OffsetFetchRequest v6 cannot carry a non-default RequireStable')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchRequest_v7(o, out):
    write_compact_string(out, o.group_id)
    value = o.topics
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_OffsetFetchRequestTopic_v6(item, out)
    if o.groups:
        raise UnsupportedFieldError('OffsetFetchRequest v7 cannot carry a non-default Groups')
    out += _S2p(o.require_stable)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchRequestTopics_v8(o, out):
    write_compact_string(out, o.name)
    value = o.partition_indexes
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchRequestGroup_v8(o, out):
    write_compact_string(out, o.group_id)
    value = o.topics
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_OffsetFetchRequestTopics_v8(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchRequest_v8(o, out):
    if o.group_id != '':
        raise UnsupportedFieldError('OffsetFetchRequest v8 cannot carry a non-default GroupId')
    if o.topics:
        raise UnsupportedFieldError('OffsetFetchRequest v8 cannot carry a non-default Topics')
    value = o.groups
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetFetchRequestGroup_v8(item, out)
    out += _S2p(o.require_stable)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchRequestGroup_v9(o, out):
    write_compact_string(out, o.group_id)
    write_compact_nullable_string(out, o.member_id)
    out += _S1p(o.member_epoch)
    value = o.topics
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_OffsetFetchRequestTopics_v8(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchRequest_v9(o, out):
    if o.group_id != '':
        raise UnsupportedFieldError('OffsetFetchRequest v9 cannot carry a non-default GroupId')
    if o.topics:
        raise UnsupportedFieldError('OffsetFetchRequest v9 cannot carry a non-default Topics')
    value = o.groups
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetFetchRequestGroup_v9(item, out)
    out += _S2p(o.require_stable)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchRequestTopics_v10(o, out):
    write_uuid(out, o.topic_id)
    value = o.partition_indexes
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchRequestGroup_v10(o, out):
    write_compact_string(out, o.group_id)
    write_compact_nullable_string(out, o.member_id)
    out += _S1p(o.member_epoch)
    value = o.topics
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_OffsetFetchRequestTopics_v10(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_OffsetFetchRequest_v10(o, out):
    if o.group_id != '':
        raise UnsupportedFieldError('OffsetFetchRequest v10 cannot carry a non-default GroupId')
    if o.topics:
        raise UnsupportedFieldError('OffsetFetchRequest v10 cannot carry a non-default Topics')
    value = o.groups
    write_compact_array_len(out, value)
    for item in value:
        _e_OffsetFetchRequestGroup_v10(item, out)
    out += _S2p(o.require_stable)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


OffsetFetchRequest._DECODERS = {
    1: _d_OffsetFetchRequest_v1,
    2: _d_OffsetFetchRequest_v2,
    3: _d_OffsetFetchRequest_v2,
    4: _d_OffsetFetchRequest_v2,
    5: _d_OffsetFetchRequest_v2,
    6: _d_OffsetFetchRequest_v6,
    7: _d_OffsetFetchRequest_v7,
    8: _d_OffsetFetchRequest_v8,
    9: _d_OffsetFetchRequest_v9,
    10: _d_OffsetFetchRequest_v10,
}
OffsetFetchRequest._ENCODERS = {
    1: _e_OffsetFetchRequest_v1,
    2: _e_OffsetFetchRequest_v2,
    3: _e_OffsetFetchRequest_v3,
    4: _e_OffsetFetchRequest_v4,
    5: _e_OffsetFetchRequest_v5,
    6: _e_OffsetFetchRequest_v6,
    7: _e_OffsetFetchRequest_v7,
    8: _e_OffsetFetchRequest_v8,
    9: _e_OffsetFetchRequest_v9,
    10: _e_OffsetFetchRequest_v10,
}
