# Generated from protocol/schemas/StreamsGroupTopologyValue.json by codegen; do not edit.
"""StreamsGroupTopologyValue: coordinator-value, api key 23, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
    read_compact_array_len,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "TopicConfig",
    "TopicInfo",
    "CopartitionGroup",
    "Subtopology",
    "StreamsGroupTopologyValue",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>ih')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class TopicConfig:
    """Common structure TopicConfig."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'key': (0, 0), 'value': (0, 0)}

    key: str = ''
    """Name of the topic config."""

    value: str = ''
    """Value of the topic config."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class TopicInfo:
    """Common structure TopicInfo."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 0), 'partitions': (0, 0), 'replication_factor': (0, 0), 'topic_configs': (0, 0)}

    name: str = ''
    """Name of the topic."""

    partitions: int = 0
    """Partition count the topic must have, or 0 when any count will do; always 0 for changelog topics."""

    replication_factor: int = 0
    """Replication factor for the topic, or 0 for the broker default."""

    topic_configs: list[TopicConfig] = field(default_factory=list)
    """Topic-level configs to create the topic with."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class CopartitionGroup:
    """Groups of source topics that must have the same partition count."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'source_topics': (0, 0), 'source_topic_regex': (0, 0), 'repartition_source_topics': (0, 0)}

    source_topics: list[int] = field(default_factory=list)
    """Members of the group, as indexes into the subtopology's SourceTopics."""

    source_topic_regex: list[int] = field(default_factory=list)
    """Members of the group, as indexes into the subtopology's SourceTopicRegex."""

    repartition_source_topics: list[int] = field(default_factory=list)
    """Members of the group, as indexes into the subtopology's RepartitionSourceTopics."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class Subtopology:
    """Subtopologies of the application."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'subtopology_id': (0, 0), 'source_topics': (0, 0), 'source_topic_regex': (0, 0), 'state_changelog_topics': (0, 0), 'repartition_sink_topics': (0, 0), 'repartition_source_topics': (0, 0), 'copartition_groups': (0, 0)}

    subtopology_id: str = ''
    """ID of the subtopology."""

    source_topics: list[str] = field(default_factory=list)
    """Topics the subtopology reads."""

    source_topic_regex: list[str] = field(default_factory=list)
    """Regular expressions naming further topics the subtopology reads."""

    state_changelog_topics: list[TopicInfo] = field(default_factory=list)
    """Changelog topics of the subtopology's state stores."""

    repartition_sink_topics: list[str] = field(default_factory=list)
    """Repartition topics the subtopology writes."""

    repartition_source_topics: list[TopicInfo] = field(default_factory=list)
    """Source topics of the subtopology that are internal repartition topics."""

    copartition_groups: list[CopartitionGroup] = field(default_factory=list)
    """Groups of source topics that must have the same partition count."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class StreamsGroupTopologyValue(Message):
    """StreamsGroupTopologyValue, api key 23."""

    API_KEY: ClassVar[int] = 23
    NAME: ClassVar[str] = 'StreamsGroupTopologyValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'epoch': (0, 0), 'subtopologies': (0, 0)}

    epoch: int = 0
    """Epoch of the topology."""

    subtopologies: list[Subtopology] = field(default_factory=list)
    """Subtopologies of the application."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_TopicConfig_v0(buf, pos):
    f_key, pos = read_compact_string(buf, pos)
    f_value, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopicConfig(f_key, f_value, unknown), pos


def _d_TopicInfo_v0(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_partitions, f_replication_factor = _S1u(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos)
    f_topic_configs = []
    append = f_topic_configs.append
    for _ in range(n):
        item, pos = _d_TopicConfig_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TopicInfo(f_name, f_partitions, f_replication_factor, f_topic_configs, unknown), pos


def _d_CopartitionGroup_v0(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 2)
    f_source_topics = list(unpack_from('>%dh' % n, buf, pos))
    pos += n * 2
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 2)
    f_source_topic_regex = list(unpack_from('>%dh' % n, buf, pos))
    pos += n * 2
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 2)
    f_repartition_source_topics = list(unpack_from('>%dh' % n, buf, pos))
    pos += n * 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CopartitionGroup(f_source_topics, f_source_topic_regex, f_repartition_source_topics, unknown), pos


def _d_Subtopology_v0(buf, pos):
    f_subtopology_id, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_source_topics = []
    append = f_source_topics.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_source_topic_regex = []
    append = f_source_topic_regex.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_state_changelog_topics = []
    append = f_state_changelog_topics.append
    for _ in range(n):
        item, pos = _d_TopicInfo_v0(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_repartition_sink_topics = []
    append = f_repartition_sink_topics.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_repartition_source_topics = []
    append = f_repartition_source_topics.append
    for _ in range(n):
        item, pos = _d_TopicInfo_v0(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_copartition_groups = []
    append = f_copartition_groups.append
    for _ in range(n):
        item, pos = _d_CopartitionGroup_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return Subtopology(f_subtopology_id, f_source_topics, f_source_topic_regex, f_state_changelog_topics, f_repartition_sink_topics, f_repartition_source_topics, f_copartition_groups, unknown), pos


def _d_StreamsGroupTopologyValue_v0(buf, pos):
    f_epoch = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_subtopologies = []
    append = f_subtopologies.append
    for _ in range(n):
        item, pos = _d_Subtopology_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return StreamsGroupTopologyValue(f_epoch, f_subtopologies, unknown), pos


def _e_TopicConfig_v0(o, out):
    write_compact_string(out, o.key)
    write_compact_string(out, o.value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_TopicInfo_v0(o, out):
    write_compact_string(out, o.name)
    out += _S1p(o.partitions, o.replication_factor)
    value = o.topic_configs
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicConfig_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_CopartitionGroup_v0(o, out):
    value = o.source_topics
    write_compact_array_len(out, value)
    out += pack('>%dh' % len(value), *value)
    value = o.source_topic_regex
    write_compact_array_len(out, value)
    out += pack('>%dh' % len(value), *value)
    value = o.repartition_source_topics
    write_compact_array_len(out, value)
    out += pack('>%dh' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_Subtopology_v0(o, out):
    write_compact_string(out, o.subtopology_id)
    value = o.source_topics
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    value = o.source_topic_regex
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    value = o.state_changelog_topics
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicInfo_v0(item, out)
    value = o.repartition_sink_topics
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    value = o.repartition_source_topics
    write_compact_array_len(out, value)
    for item in value:
        _e_TopicInfo_v0(item, out)
    value = o.copartition_groups
    write_compact_array_len(out, value)
    for item in value:
        _e_CopartitionGroup_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_StreamsGroupTopologyValue_v0(o, out):
    out += _S0p(o.epoch)
    value = o.subtopologies
    write_compact_array_len(out, value)
    for item in value:
        _e_Subtopology_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


StreamsGroupTopologyValue._DECODERS = {
    0: _d_StreamsGroupTopologyValue_v0,
}
StreamsGroupTopologyValue._ENCODERS = {
    0: _e_StreamsGroupTopologyValue_v0,
}
