# Generated from protocol/schemas/AlterReplicaLogDirsRequest.json by codegen; do not edit.
"""AlterReplicaLogDirsRequest: request, api key 34, versions 1-2."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
    read_array_len,
    read_compact_array_len,
    read_compact_string,
    read_string,
    read_unknown_tags,
    write_array_len,
    write_compact_array_len,
    write_compact_string,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "AlterReplicaLogDirTopic",
    "AlterReplicaLogDir",
    "AlterReplicaLogDirsRequest",
]


@dataclass(slots=True)
class AlterReplicaLogDirTopic:
    """Topics with replicas to move into the directory."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 2), 'partitions': (0, 2)}

    name: str = ''
    """Name of the topic."""

    partitions: list[int] = field(default_factory=list)
    """Partitions of the topic to move."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AlterReplicaLogDir:
    """Target directories, each with the replicas to move into it."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'path': (0, 2), 'topics': (0, 2)}

    path: str = ''
    """Absolute path of the target directory."""

    topics: list[AlterReplicaLogDirTopic] = field(default_factory=list)
    """Topics with replicas to move into the directory."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class AlterReplicaLogDirsRequest(Message):
    """AlterReplicaLogDirsRequest, api key 34."""

    API_KEY: ClassVar[int] = 34
    NAME: ClassVar[str] = 'AlterReplicaLogDirsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 1
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'dirs': (0, 2)}

    dirs: list[AlterReplicaLogDir] = field(default_factory=list)
    """Target directories, each with the replicas to move into it."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_AlterReplicaLogDirTopic_v1(buf, pos):
    f_name, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    return AlterReplicaLogDirTopic(f_name, f_partitions), pos


def _d_AlterReplicaLogDir_v1(buf, pos):
    f_path, pos = read_string(buf, pos)
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_AlterReplicaLogDirTopic_v1(buf, pos)
        append(item)
    return AlterReplicaLogDir(f_path, f_topics), pos


def _d_AlterReplicaLogDirsRequest_v1(buf, pos):
    n, pos = read_array_len(buf, pos)
    f_dirs = []
    append = f_dirs.append
    for _ in range(n):
        item, pos = _d_AlterReplicaLogDir_v1(buf, pos)
        append(item)
    return AlterReplicaLogDirsRequest(f_dirs), pos


def _d_AlterReplicaLogDirTopic_v2(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 4)
    f_partitions = list(unpack_from('>%di' % n, buf, pos))
    pos += n * 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterReplicaLogDirTopic(f_name, f_partitions, unknown), pos


def _d_AlterReplicaLogDir_v2(buf, pos):
    f_path, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_AlterReplicaLogDirTopic_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterReplicaLogDir(f_path, f_topics, unknown), pos


def _d_AlterReplicaLogDirsRequest_v2(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_dirs = []
    append = f_dirs.append
    for _ in range(n):
        item, pos = _d_AlterReplicaLogDir_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return AlterReplicaLogDirsRequest(f_dirs, unknown), pos


def _e_AlterReplicaLogDirTopic_v1(o, out):
    write_string(out, o.name)
    value = o.partitions
    write_array_len(out, value)
    out += pack('>%di' % len(value), *value)


def _e_AlterReplicaLogDir_v1(o, out):
    write_string(out, o.path)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_AlterReplicaLogDirTopic_v1(item, out)


def _e_AlterReplicaLogDirsRequest_v1(o, out):
    value = o.dirs
    write_array_len(out, value)
    for item in value:
        _e_AlterReplicaLogDir_v1(item, out)


def _e_AlterReplicaLogDirTopic_v2(o, out):
    write_compact_string(out, o.name)
    value = o.partitions
    write_compact_array_len(out, value)
    out += pack('>%di' % len(value), *value)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AlterReplicaLogDir_v2(o, out):
    write_compact_string(out, o.path)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_AlterReplicaLogDirTopic_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_AlterReplicaLogDirsRequest_v2(o, out):
    value = o.dirs
    write_compact_array_len(out, value)
    for item in value:
        _e_AlterReplicaLogDir_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


AlterReplicaLogDirsRequest._DECODERS = {
    1: _d_AlterReplicaLogDirsRequest_v1,
    2: _d_AlterReplicaLogDirsRequest_v2,
}
AlterReplicaLogDirsRequest._ENCODERS = {
    1: _e_AlterReplicaLogDirsRequest_v1,
    2: _e_AlterReplicaLogDirsRequest_v2,
}
