# Generated from protocol/schemas/MetadataRequest.json by codegen; do not edit.
"""MetadataRequest: request, api key 3, versions 0-13."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
import uuid

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    read_array_len,
    read_compact_nullable_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_array_len,
    read_string,
    read_unknown_tags,
    read_uuid,
    write_array_len,
    write_compact_nullable_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_array_len,
    write_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "MetadataRequestTopic",
    "MetadataRequest",
]
_S0 = Struct('>?')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>???')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>??')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>B')
_S3u = _S3.unpack_from
_S3p = _S3.pack
_S4 = Struct('>BBB')
_S4u = _S4.unpack_from
_S4p = _S4.pack


@dataclass(slots=True)
class MetadataRequestTopic:
    """Topics whose metadata is being requested."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_id': (10, 13), 'name': (0, 13)}

    topic_id: uuid.UUID = UUID_ZERO
    """ID of the topic."""

    name: str | None = ''
    """Name of the topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class MetadataRequest(Message):
    """MetadataRequest, api key 3."""

    API_KEY: ClassVar[int] = 3
    NAME: ClassVar[str] = 'MetadataRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 13
    FLEXIBLE_MIN: ClassVar[int | None] = 9
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topics': (0, 13), 'allow_auto_topic_creation': (4, 13), 'include_cluster_authorized_operations': (8, 10), 'include_topic_authorized_operations': (8, 13)}

    topics: list[MetadataRequestTopic] | None = field(default_factory=list)
    """Topics whose metadata is being requested."""

    allow_auto_topic_creation: bool = True
    """When true, the broker may create requested topics that do not exist yet, provided its configuration permits auto-creation."""

    include_cluster_authorized_operations: bool = False
    """Set to true to have the cluster's authorized operations returned."""

    include_topic_authorized_operations: bool = False
    """Whether the authorized operations for each topic should be included in the response."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_MetadataRequestTopic_v0(buf, pos):
    f_name, pos = read_string(buf, pos)
    return MetadataRequestTopic(UUID_ZERO, f_name), pos


def _d_MetadataRequest_v0(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_MetadataRequestTopic_v0(buf, pos)
        append(item)
    return MetadataRequest(f_topics, True, False, False), pos


def _d_MetadataRequest_v1(buf, pos):
    n, pos = read_nullable_array_len(buf, pos)
    if n < 0:
        f_topics = None
    else:
        f_topics = []
        append = f_topics.append
        for _ in range(n):
            item, pos = _d_MetadataRequestTopic_v0(buf, pos)
            append(item)
    return MetadataRequest(f_topics, True, False, False), pos


def _d_MetadataRequest_v4(buf, pos):
    n, pos = read_nullable_array_len(buf, pos)
    if n < 0:
        f_topics = None
    else:
        f_topics = []
        append = f_topics.append
        for _ in range(n):
            item, pos = _d_MetadataRequestTopic_v0(buf, pos)
            append(item)
    f_allow_auto_topic_creation = _S0u(buf, pos)[0]
    pos += 1
    return MetadataRequest(f_topics, f_allow_auto_topic_creation, False, False), pos


def _d_MetadataRequest_v8(buf, pos):
    n, pos = read_nullable_array_len(buf, pos)
    if n < 0:
        f_topics = None
    else:
        f_topics = []
        append = f_topics.append
        for _ in range(n):
            item, pos = _d_MetadataRequestTopic_v0(buf, pos)
            append(item)
    f_allow_auto_topic_creation, f_include_cluster_authorized_operations, f_include_topic_authorized_operations = _S1u(buf, pos)
    pos += 3
    return MetadataRequest(f_topics, f_allow_auto_topic_creation, f_include_cluster_authorized_operations, f_include_topic_authorized_operations), pos


def _d_MetadataRequestTopic_v9(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return MetadataRequestTopic(UUID_ZERO, f_name, unknown), pos


def _d_MetadataRequest_v9(buf, pos):
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_topics = None
    else:
        f_topics = []
        append = f_topics.append
        for _ in range(n):
            item, pos = _d_MetadataRequestTopic_v9(buf, pos)
            append(item)
    f_allow_auto_topic_creation, f_include_cluster_authorized_operations, f_include_topic_authorized_operations = _S1u(buf, pos)
    pos += 3
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return MetadataRequest(f_topics, f_allow_auto_topic_creation, f_include_cluster_authorized_operations, f_include_topic_authorized_operations, unknown), pos


def _d_MetadataRequestTopic_v10(buf, pos):
    f_topic_id, pos = read_uuid(buf, pos)
    f_name, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return MetadataRequestTopic(f_topic_id, f_name, unknown), pos


def _d_MetadataRequest_v10(buf, pos):
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_topics = None
    else:
        f_topics = []
        append = f_topics.append
        for _ in range(n):
            item, pos = _d_MetadataRequestTopic_v10(buf, pos)
            append(item)
    f_allow_auto_topic_creation, f_include_cluster_authorized_operations, f_include_topic_authorized_operations = _S1u(buf, pos)
    pos += 3
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return MetadataRequest(f_topics, f_allow_auto_topic_creation, f_include_cluster_authorized_operations, f_include_topic_authorized_operations, unknown), pos


def _d_MetadataRequest_v11(buf, pos):
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_topics = None
    else:
        f_topics = []
        append = f_topics.append
        for _ in range(n):
            item, pos = _d_MetadataRequestTopic_v10(buf, pos)
            append(item)
    f_allow_auto_topic_creation, f_include_topic_authorized_operations = _S2u(buf, pos)
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return MetadataRequest(f_topics, f_allow_auto_topic_creation, False, f_include_topic_authorized_operations, unknown), pos


def _e_MetadataRequestTopic_v0(o, out):
    write_string(out, o.name)


def _e_MetadataRequest_v0(o, out):
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_MetadataRequestTopic_v0(item, out)
    if not o.allow_auto_topic_creation:
        raise UnsupportedFieldError('MetadataRequest v0 cannot carry a non-default AllowAutoTopicCreation')
    if o.include_cluster_authorized_operations:
        raise UnsupportedFieldError('MetadataRequest v0 cannot carry a non-default IncludeClusterAuthorizedOperations')
    if o.include_topic_authorized_operations:
        raise UnsupportedFieldError('MetadataRequest v0 cannot carry a non-default IncludeTopicAuthorizedOperations')


def _e_MetadataRequest_v1(o, out):
    value = o.topics
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_MetadataRequestTopic_v0(item, out)
    if not o.allow_auto_topic_creation:
        raise UnsupportedFieldError('MetadataRequest v1 cannot carry a non-default AllowAutoTopicCreation')
    if o.include_cluster_authorized_operations:
        raise UnsupportedFieldError('MetadataRequest v1 cannot carry a non-default IncludeClusterAuthorizedOperations')
    if o.include_topic_authorized_operations:
        raise UnsupportedFieldError('MetadataRequest v1 cannot carry a non-default IncludeTopicAuthorizedOperations')


def _e_MetadataRequest_v2(o, out):
    value = o.topics
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_MetadataRequestTopic_v0(item, out)
    if not o.allow_auto_topic_creation:
        raise UnsupportedFieldError('MetadataRequest v2 cannot carry a non-default AllowAutoTopicCreation')
    if o.include_cluster_authorized_operations:
        raise UnsupportedFieldError('MetadataRequest v2 cannot carry a non-default IncludeClusterAuthorizedOperations')
    if o.include_topic_authorized_operations:
        raise UnsupportedFieldError('MetadataRequest v2 cannot carry a non-default IncludeTopicAuthorizedOperations')


def _e_MetadataRequest_v3(o, out):
    value = o.topics
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_MetadataRequestTopic_v0(item, out)
    if not o.allow_auto_topic_creation:
        raise UnsupportedFieldError('MetadataRequest v3 cannot carry a non-default AllowAutoTopicCreation')
    if o.include_cluster_authorized_operations:
        raise UnsupportedFieldError('MetadataRequest v3 cannot carry a non-default IncludeClusterAuthorizedOperations')
    if o.include_topic_authorized_operations:
        raise UnsupportedFieldError('MetadataRequest v3 cannot carry a non-default IncludeTopicAuthorizedOperations')


def _e_MetadataRequest_v4(o, out):
    value = o.topics
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_MetadataRequestTopic_v0(item, out)
    out += _S3p(o.allow_auto_topic_creation)
    if o.include_cluster_authorized_operations:
        raise UnsupportedFieldError('MetadataRequest v4 cannot carry a non-default IncludeClusterAuthorizedOperations')
    if o.include_topic_authorized_operations:
        raise UnsupportedFieldError('MetadataRequest v4 cannot carry a non-default IncludeTopicAuthorizedOperations')


def _e_MetadataRequest_v5(o, out):
    value = o.topics
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_MetadataRequestTopic_v0(item, out)
    out += _S3p(o.allow_auto_topic_creation)
    if o.include_cluster_authorized_operations:
        raise UnsupportedFieldError('MetadataRequest v5 cannot carry a non-default IncludeClusterAuthorizedOperations')
    if o.include_topic_authorized_operations:
        raise UnsupportedFieldError('MetadataRequest v5 cannot carry a non-default IncludeTopicAuthorizedOperations')


def _e_MetadataRequest_v6(o, out):
    value = o.topics
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_MetadataRequestTopic_v0(item, out)
    out += _S3p(o.allow_auto_topic_creation)
    if o.include_cluster_authorized_operations:
        raise UnsupportedFieldError('MetadataRequest v6 cannot carry a non-default IncludeClusterAuthorizedOperations')
    if o.include_topic_authorized_operations:
        raise UnsupportedFieldError('MetadataRequest v6 cannot carry a non-default IncludeTopicAuthorizedOperations')


def _e_MetadataRequest_v7(o, out):
    value = o.topics
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_MetadataRequestTopic_v0(item, out)
    out += _S3p(o.allow_auto_topic_creation)
    if o.include_cluster_authorized_operations:
        raise UnsupportedFieldError('MetadataRequest v7 cannot carry a non-default IncludeClusterAuthorizedOperations')
    if o.include_topic_authorized_operations:
        raise UnsupportedFieldError('MetadataRequest v7 cannot carry a non-default IncludeTopicAuthorizedOperations')


def _e_MetadataRequest_v8(o, out):
    value = o.topics
    write_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_MetadataRequestTopic_v0(item, out)
    out += _S4p(o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations)


def _e_MetadataRequestTopic_v9(o, out):
    write_compact_string(out, o.name)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_MetadataRequest_v9(o, out):
    value = o.topics
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_MetadataRequestTopic_v9(item, out)
    out += _S4p(o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_MetadataRequestTopic_v10(o, out):
    write_uuid(out, o.topic_id)
    write_compact_nullable_string(out, o.name)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_MetadataRequest_v10(o, out):
    value = o.topics
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_MetadataRequestTopic_v10(item, out)
    out += _S4p(o.allow_auto_topic_creation, o.include_cluster_authorized_operations, o.include_topic_authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_MetadataRequest_v11(o, out):
    value = o.topics
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_MetadataRequestTopic_v10(item, out)
    out += _S3p(o.allow_auto_topic_creation)
    if o.include_cluster_authorized_operations:
        raise UnsupportedFieldError('MetadataRequest v11 cannot carry a non-default IncludeClusterAuthorizedOperations')
    out += _S3p(o.include_topic_authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_MetadataRequest_v12(o, out):
    value = o.topics
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_MetadataRequestTopic_v10(item, out)
    out += _S3p(o.allow_auto_topic_creation)
    if o.include_cluster_authorized_operations:
        raise UnsupportedFieldError('MetadataRequest v12 cannot carry a non-default IncludeClusterAuthorizedOperations')
    out += _S3p(o.include_topic_authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_MetadataRequest_v13(o, out):
    value = o.topics
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_MetadataRequestTopic_v10(item, out)
    out += _S3p(o.allow_auto_topic_creation)
    if o.include_cluster_authorized_operations:
        raise UnsupportedFieldError('MetadataRequest v13 cannot carry a non-default IncludeClusterAuthorizedOperations')
    out += _S3p(o.include_topic_authorized_operations)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


MetadataRequest._DECODERS = {
    0: _d_MetadataRequest_v0,
    1: _d_MetadataRequest_v1,
    2: _d_MetadataRequest_v1,
    3: _d_MetadataRequest_v1,
    4: _d_MetadataRequest_v4,
    5: _d_MetadataRequest_v4,
    6: _d_MetadataRequest_v4,
    7: _d_MetadataRequest_v4,
    8: _d_MetadataRequest_v8,
    9: _d_MetadataRequest_v9,
    10: _d_MetadataRequest_v10,
    11: _d_MetadataRequest_v11,
    12: _d_MetadataRequest_v11,
    13: _d_MetadataRequest_v11,
}
MetadataRequest._ENCODERS = {
    0: _e_MetadataRequest_v0,
    1: _e_MetadataRequest_v1,
    2: _e_MetadataRequest_v2,
    3: _e_MetadataRequest_v3,
    4: _e_MetadataRequest_v4,
    5: _e_MetadataRequest_v5,
    6: _e_MetadataRequest_v6,
    7: _e_MetadataRequest_v7,
    8: _e_MetadataRequest_v8,
    9: _e_MetadataRequest_v9,
    10: _e_MetadataRequest_v10,
    11: _e_MetadataRequest_v11,
    12: _e_MetadataRequest_v12,
    13: _e_MetadataRequest_v13,
}
