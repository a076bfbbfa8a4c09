# Generated from protocol/schemas/CreateTopicsResponse.json by codegen; do not edit.
"""CreateTopicsResponse: response, api key 19, versions 2-7."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
import uuid

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    read_array_len,
    read_compact_array_len,
    read_compact_nullable_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_tag_header,
    read_unknown_tags,
    read_uuid,
    read_uvarint,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "CreatableTopicConfigs",
    "CreatableTopicResult",
    "CreateTopicsResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>h')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>ih')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>?b?')
_S3u = _S3.unpack_from
_S3p = _S3.pack
_S4 = Struct('>BbB')
_S4u = _S4.unpack_from
_S4p = _S4.pack


@dataclass(slots=True)
class CreatableTopicConfigs:
    """Configuration entries of the topic."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (5, 7), 'value': (5, 7), 'read_only': (5, 7), 'config_source': (5, 7), 'is_sensitive': (5, 7)}

    name: str = ''
    """Name of the configuration."""

    value: str | None = ''
    """Value of the configuration."""

    read_only: bool = False
    """Whether the configuration is read-only."""

    config_source: int = -1
    """Source the configuration comes from."""

    is_sensitive: bool = False
    """Whether this configuration is sensitive."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class CreatableTopicResult:
    """Result for each topic creation attempt."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 7), 'topic_id': (7, 7), 'error_code': (0, 7), 'error_message': (1, 7), 'topic_config_error_code': (5, 7), 'num_partitions': (5, 7), 'replication_factor': (5, 7), 'configs': (5, 7)}

    name: str = ''
    """Name of the topic."""

    topic_id: uuid.UUID = UUID_ZERO
    """Unique identifier of the topic."""

    error_code: int = 0
    """Error code; 0 means success."""

    error_message: str | None = ''
    """Error message; null when no error occurred."""

    topic_config_error_code: int = 0
    """Optional error code for the topic configs, returned when the configs are not included in the response."""

    num_partitions: int = -1
    """Partition count of the topic."""

    replication_factor: int = -1
    """Replication factor used by the topic."""

    configs: list[CreatableTopicConfigs] | None = field(default_factory=list)
    """Configuration entries of the topic."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class CreateTopicsResponse(Message):
    """CreateTopicsResponse, api key 19."""

    API_KEY: ClassVar[int] = 19
    NAME: ClassVar[str] = 'CreateTopicsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 2
    MAX_VERSION: ClassVar[int] = 7
    FLEXIBLE_MIN: ClassVar[int | None] = 5
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (2, 7), 'topics': (0, 7)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    topics: list[CreatableTopicResult] = field(default_factory=list)
    """Result for each topic creation attempt."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_CreatableTopicResult_v2(buf, pos):
    f_name, pos = read_string(buf, pos)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_nullable_string(buf, pos)
    return CreatableTopicResult(f_name, UUID_ZERO, f_error_code, f_error_message, 0, -1, -1, []), pos


def _d_CreateTopicsResponse_v2(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_CreatableTopicResult_v2(buf, pos)
        append(item)
    return CreateTopicsResponse(f_throttle_time_ms, f_topics), pos


def _d_CreatableTopicConfigs_v5(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_value, pos = read_compact_nullable_string(buf, pos)
    f_read_only, f_config_source, f_is_sensitive = _S3u(buf, pos)
    pos += 3
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CreatableTopicConfigs(f_name, f_value, f_read_only, f_config_source, f_is_sensitive, unknown), pos


def _d_CreatableTopicResult_v5(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_num_partitions, f_replication_factor = _S2u(buf, pos)
    pos += 6
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_configs = None
    else:
        f_configs = []
        append = f_configs.append
        for _ in range(n):
            item, pos = _d_CreatableTopicConfigs_v5(buf, pos)
            append(item)
    f_topic_config_error_code = 0
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                f_topic_config_error_code = _S1u(buf, p)[0]
                p += 2
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return CreatableTopicResult(f_name, UUID_ZERO, f_error_code, f_error_message, f_topic_config_error_code, f_num_partitions, f_replication_factor, f_configs, unknown), pos


def _d_CreateTopicsResponse_v5(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_CreatableTopicResult_v5(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CreateTopicsResponse(f_throttle_time_ms, f_topics, unknown), pos


def _d_CreatableTopicResult_v7(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    f_topic_id, pos = read_uuid(buf, pos)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_num_partitions, f_replication_factor = _S2u(buf, pos)
    pos += 6
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_configs = None
    else:
        f_configs = []
        append = f_configs.append
        for _ in range(n):
            item, pos = _d_CreatableTopicConfigs_v5(buf, pos)
            append(item)
    f_topic_config_error_code = 0
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                f_topic_config_error_code = _S1u(buf, p)[0]
                p += 2
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return CreatableTopicResult(f_name, f_topic_id, f_error_code, f_error_message, f_topic_config_error_code, f_num_partitions, f_replication_factor, f_configs, unknown), pos


def _d_CreateTopicsResponse_v7(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_topics = []
    append = f_topics.append
    for _ in range(n):
        item, pos = _d_CreatableTopicResult_v7(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return CreateTopicsResponse(f_throttle_time_ms, f_topics, unknown), pos


def _e_CreatableTopicResult_v2(o, out):
    write_string(out, o.name)
    out += _S1p(o.error_code)
    write_nullable_string(out, o.error_message)


def _e_CreateTopicsResponse_v2(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.topics
    write_array_len(out, value)
    for item in value:
        _e_CreatableTopicResult_v2(item, out)


def _e_CreatableTopicConfigs_v5(o, out):
    write_compact_string(out, o.name)
    write_compact_nullable_string(out, o.value)
    out += _S4p(o.read_only, o.config_source, o.is_sensitive)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_CreatableTopicResult_v5(o, out):
    write_compact_string(out, o.name)
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    out += _S2p(o.num_partitions, o.replication_factor)
    value = o.configs
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_CreatableTopicConfigs_v5(item, out)
    tags = list(o._unknown_tagged_fields)
    if o.topic_config_error_code != 0:
        t = bytearray()
        t += _S1p(o.topic_config_error_code)
        tags.append((0, t))
    write_tagged_fields(out, tags)


def _e_CreateTopicsResponse_v5(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_CreatableTopicResult_v5(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_CreatableTopicResult_v7(o, out):
    write_compact_string(out, o.name)
    write_uuid(out, o.topic_id)
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    out += _S2p(o.num_partitions, o.replication_factor)
    value = o.configs
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_CreatableTopicConfigs_v5(item, out)
    tags = list(o._unknown_tagged_fields)
    if o.topic_config_error_code != 0:
        t = bytearray()
        t += _S1p(o.topic_config_error_code)
        tags.append((0, t))
    write_tagged_fields(out, tags)


def _e_CreateTopicsResponse_v7(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.topics
    write_compact_array_len(out, value)
    for item in value:
        _e_CreatableTopicResult_v7(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


CreateTopicsResponse._DECODERS = {
    2: _d_CreateTopicsResponse_v2,
    3: _d_CreateTopicsResponse_v2,
    4: _d_CreateTopicsResponse_v2,
    5: _d_CreateTopicsResponse_v5,
    6: _d_CreateTopicsResponse_v5,
    7: _d_CreateTopicsResponse_v7,
}
CreateTopicsResponse._ENCODERS = {
    2: _e_CreateTopicsResponse_v2,
    3: _e_CreateTopicsResponse_v2,
    4: _e_CreateTopicsResponse_v2,
    5: _e_CreateTopicsResponse_v5,
    6: _e_CreateTopicsResponse_v5,
    7: _e_CreateTopicsResponse_v7,
}
