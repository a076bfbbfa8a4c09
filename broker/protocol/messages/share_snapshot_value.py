# Generated from protocol/schemas/ShareSnapshotValue.json by codegen; do not edit.
"""ShareSnapshotValue: coordinator-value, api key 0, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_array_len,
    read_tag_header,
    read_unknown_tags,
    read_uvarint,
    write_compact_array_len,
    write_tagged_fields,
)

__all__ = [
    "StateBatch",
    "ShareSnapshotValue",
]
_S0 = Struct('>iiiqqq')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>qqbh')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>i')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class StateBatch:
    """Batches of state."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'first_offset': (0, 0), 'last_offset': (0, 0), 'delivery_state': (0, 0), 'delivery_count': (0, 0)}

    first_offset: int = 0
    """Offset at which this state batch begins."""

    last_offset: int = 0
    """Offset at which this state batch ends."""

    delivery_state: int = 0
    """Delivery state of the records, one of 0:Available,2:Acked,4:Archived."""

    delivery_count: int = 0
    """Number of times the records have been delivered."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ShareSnapshotValue(Message):
    """ShareSnapshotValue, api key 0."""

    API_KEY: ClassVar[int] = 0
    NAME: ClassVar[str] = 'ShareSnapshotValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'snapshot_epoch': (0, 0), 'state_epoch': (0, 0), 'leader_epoch': (0, 0), 'start_offset': (0, 0), 'delivery_complete_count': (0, 0), 'create_timestamp': (0, 0), 'write_timestamp': (0, 0), 'state_batches': (0, 0)}

    snapshot_epoch: int = 0
    """Epoch of the snapshot."""

    state_epoch: int = 0
    """Epoch of the state of this share-partition."""

    leader_epoch: int = 0
    """Leader epoch of the share-partition."""

    start_offset: int = 0
    """Start offset of the share-partition."""

    delivery_complete_count: int = -1
    """Count of offsets at or beyond the share-partition start offset whose delivery has finished."""

    create_timestamp: int = 0
    """Time when the state was first created."""

    write_timestamp: int = 0
    """Time when the state was last written or rewritten."""

    state_batches: list[StateBatch] = field(default_factory=list)
    """Batches of state."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_StateBatch_v0(buf, pos):
    f_first_offset, f_last_offset, f_delivery_state, f_delivery_count = _S1u(buf, pos)
    pos += 19
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return StateBatch(f_first_offset, f_last_offset, f_delivery_state, f_delivery_count, unknown), pos


def _d_ShareSnapshotValue_v0(buf, pos):
    f_snapshot_epoch, f_state_epoch, f_leader_epoch, f_start_offset, f_create_timestamp, f_write_timestamp = _S0u(buf, pos)
    pos += 36
    n, pos = read_compact_array_len(buf, pos)
    f_state_batches = []
    append = f_state_batches.append
    for _ in range(n):
        item, pos = _d_StateBatch_v0(buf, pos)
        append(item)
    f_delivery_complete_count = -1
    unknown = ()
    if buf[pos]:
        n_tags, pos = read_uvarint(buf, pos)
        for _ in range(n_tags):
            tag, p, pos = read_tag_header(buf, pos)
            if tag == 0:
                f_delivery_complete_count = _S2u(buf, p)[0]
                p += 4
            else:
                if not unknown:
                    unknown = []
                unknown.append((tag, bytes(buf[p:pos])))
    else:
        pos += 1
    return ShareSnapshotValue(f_snapshot_epoch, f_state_epoch, f_leader_epoch, f_start_offset, f_delivery_complete_count, f_create_timestamp, f_write_timestamp, f_state_batches, unknown), pos


def _e_StateBatch_v0(o, out):
    out += _S1p(o.first_offset, o.last_offset, o.delivery_state, o.delivery_count)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ShareSnapshotValue_v0(o, out):
    out += _S0p(o.snapshot_epoch, o.state_epoch, o.leader_epoch, o.start_offset, o.create_timestamp, o.write_timestamp)
    value = o.state_batches
    write_compact_array_len(out, value)
    for item in value:
        _e_StateBatch_v0(item, out)
    tags = list(o._unknown_tagged_fields)
    if o.delivery_complete_count != -1:
        t = bytearray()
        t += _S2p(o.delivery_complete_count)
        tags.append((0, t))
    write_tagged_fields(out, tags)


ShareSnapshotValue._DECODERS = {
    0: _d_ShareSnapshotValue_v0,
}
ShareSnapshotValue._ENCODERS = {
    0: _e_ShareSnapshotValue_v0,
}
