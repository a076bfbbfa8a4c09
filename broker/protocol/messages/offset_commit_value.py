# Generated from protocol/schemas/OffsetCommitValue.json by codegen; do not edit.
"""OffsetCommitValue: coordinator-value, api key 1, versions 0-4."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
import uuid

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    read_compact_string,
    read_string,
    read_tag_header,
    read_uuid,
    read_uvarint,
    write_compact_string,
    write_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "OffsetCommitValue",
]
_S0 = Struct('>q')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>qq')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>qi')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class OffsetCommitValue(Message):
    """OffsetCommitValue, api key 1."""

    API_KEY: ClassVar[int] = 1
    NAME: ClassVar[str] = 'OffsetCommitValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 4
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'offset': (0, 4), 'leader_epoch': (3, 4), 'metadata': (0, 4), 'commit_timestamp': (0, 4), 'expire_timestamp': (1, 1), 'topic_id': (4, 4)}

    offset: int = 0
    """Offset the consumer wishes to store for this partition."""

    leader_epoch: int = -1
    """Leader epoch of the most recently consumed record."""

    metadata: str = ''
    """Optional client-supplied metadata to store with the offset."""

    commit_timestamp: int = 0
    """Time when the commit was appended to the log."""

    expire_timestamp: int = -1
    """Time when the committed offset expires."""

    topic_id: uuid.UUID = UUID_ZERO
    """ID of the topic to which the committed offset belongs."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_OffsetCommitValue_v0(buf, pos):
    f_offset = _S0u(buf, pos)[0]
    pos += 8
    f_metadata, pos = read_string(buf, pos)
    f_commit_timestamp = _S0u(buf, pos)[0]
    pos += 8
    return OffsetCommitValue(f_offset, -1, f_metadata, f_commit_timestamp, -1, UUID_ZERO), pos


def _d_OffsetCommitValue_v1(buf, pos):
    f_offset = _S0u(buf, pos)[0]
    pos += 8
    f_metadata, pos = read_string(buf, pos)
    f_commit_timestamp, f_expire_timestamp = _S1u(buf, pos)
    pos += 16
    return OffsetCommitValue(f_offset, -1, f_metadata, f_commit_timestamp, f_expire_timestamp, UUID_ZERO), pos


def _d_OffsetCommitValue_v3(buf, pos):
    f_offset, f_leader_epoch = _S2u(buf, pos)
    pos += 12
    f_metadata, pos = read_string(buf, pos)
    f_commit_timestamp = _S0u(buf, pos)[0]
    pos += 8
    return OffsetCommitValue(f_offset, f_leader_epoch, f_metadata, f_commit_timestamp, -1, UUID_ZERO), pos


def _d_OffsetCommitValue_v4(buf, pos):
    f_offset, f_leader_epoch = _S2u(buf, pos)
    pos += 12
    f_metadata, pos = read_compact_string(buf, pos)
    f_commit_timestamp = _S0u(buf, pos)[0]
    pos += 8
    f_topic_id = UUID_ZERO
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                f_topic_id, p = read_uuid(buf, p)
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return OffsetCommitValue(f_offset, f_leader_epoch, f_metadata, f_commit_timestamp, -1, f_topic_id, unknown), pos


def _e_OffsetCommitValue_v0(o, out):
    out += _S0p(o.offset)
    write_string(out, o.metadata)
    out += _S0p(o.commit_timestamp)


def _e_OffsetCommitValue_v1(o, out):
    out += _S0p(o.offset)
    write_string(out, o.metadata)
    out += _S1p(o.commit_timestamp, o.expire_timestamp)


def _e_OffsetCommitValue_v3(o, out):
    out += _S2p(o.offset, o.leader_epoch)
    write_string(out, o.metadata)
    out += _S0p(o.commit_timestamp)


def _e_OffsetCommitValue_v4(o, out):
    out += _S2p(o.offset, o.leader_epoch)
    write_compact_string(out, o.metadata)
    out += _S0p(o.commit_timestamp)
    tags = list(o._unknown_tagged_fields)
    if o.topic_id != UUID_ZERO:
        t = bytearray()
        write_uuid(t, o.topic_id)
        tags.append((0, t))
    write_tagged_fields(out, tags)


OffsetCommitValue._DECODERS = {
    0: _d_OffsetCommitValue_v0,
    1: _d_OffsetCommitValue_v1,
    2: _d_OffsetCommitValue_v0,
    3: _d_OffsetCommitValue_v3,
    4: _d_OffsetCommitValue_v4,
}
OffsetCommitValue._ENCODERS = {
    0: _e_OffsetCommitValue_v0,
    1: _e_OffsetCommitValue_v1,
    2: _e_OffsetCommitValue_v0,
    3: _e_OffsetCommitValue_v3,
    4: _e_OffsetCommitValue_v4,
}
