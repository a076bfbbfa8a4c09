# Generated from protocol/schemas/DeleteShareGroupOffsetsRequest.json by codegen; do not edit.
"""DeleteShareGroupOffsetsRequest: request, api key 92, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_array_len,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "DeleteShareGroupOffsetsRequestTopic",
    "DeleteShareGroupOffsetsRequest",
]


@dataclass(slots=True)
class DeleteShareGroupOffsetsRequestTopic:
    """Topics whose offsets should be deleted."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'topic_name': (0, 0)}

    topic_name: str = ''
    """Name of the topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DeleteShareGroupOffsetsRequest(Message):
    """DeleteShareGroupOffsetsRequest, api key 92."""

    API_KEY: ClassVar[int] = 92
    NAME: ClassVar[str] = 'DeleteShareGroupOffsetsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 0), 'topics': (0, 0)}

    group_id: str = ''
    """Identifier of the group."""

    topics: list[DeleteShareGroupOffsetsRequestTopic] = field(default_factory=list)
    """Topics whose offsets should be deleted."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DeleteShareGroupOffsetsRequestTopic_v0(buf, pos):
    f_topic_name, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteShareGroupOffsetsRequestTopic(f_topic_name, unknown), pos


def _d_DeleteShareGroupOffsetsRequest_v0(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_DeleteShareGroupOffsetsRequestTopic_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteShareGroupOffsetsRequest(f_group_id, f_topics, unknown), pos


def _e_DeleteShareGroupOffsetsRequestTopic_v0(o, out):
    write_compact_string(out, o.topic_name)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeleteShareGroupOffsetsRequest_v0(o, out):
    write_compact_string(out, o.group_id)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_DeleteShareGroupOffsetsRequestTopic_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DeleteShareGroupOffsetsRequest._DECODERS = {
    0: _d_DeleteShareGroupOffsetsRequest_v0,
}
DeleteShareGroupOffsetsRequest._ENCODERS = {
    0: _e_DeleteShareGroupOffsetsRequest_v0,
}
