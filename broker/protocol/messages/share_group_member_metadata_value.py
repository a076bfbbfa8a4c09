# Generated from protocol/schemas/ShareGroupMemberMetadataValue.json by codegen; do not edit.
"""ShareGroupMemberMetadataValue: coordinator-value, api key 10, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "ShareGroupMemberMetadataValue",
]


@dataclass(slots=True)
class ShareGroupMemberMetadataValue(Message):
    """ShareGroupMemberMetadataValue, api key 10."""

    API_KEY: ClassVar[int] = 10
    NAME: ClassVar[str] = 'ShareGroupMemberMetadataValue'
    TYPE: ClassVar[str] = 'coordinator-value'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'rack_id': (0, 0), 'client_id': (0, 0), 'client_host': (0, 0), 'subscribed_topic_names': (0, 0)}

    rack_id: str | None = ''
    """Optional rack ID of the member."""

    client_id: str = ''
    """ID of the client."""

    client_host: str = ''
    """Host of the client."""

    subscribed_topic_names: list[str] = field(default_factory=list)
    """Names of the topics the member subscribes to."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ShareGroupMemberMetadataValue_v0(buf, pos):
    f_rack_id, pos = read_compact_nullable_string(buf, pos)
    f_client_id, pos = read_compact_string(buf, pos)
    f_client_host, pos = read_compact_string(buf, pos)
    n, pos = read_compact_array_len(buf, pos)
    f_subscribed_topic_names = []
    append = f_subscribed_topic_names.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ShareGroupMemberMetadataValue(f_rack_id, f_client_id, f_client_host, f_subscribed_topic_names, unknown), pos


def _e_ShareGroupMemberMetadataValue_v0(o, out):
    write_compact_nullable_string(out, o.rack_id)
    write_compact_string(out, o.client_id)
    write_compact_string(out, o.client_host)
    value = o.subscribed_topic_names
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ShareGroupMemberMetadataValue._DECODERS = {
    0: _d_ShareGroupMemberMetadataValue_v0,
}
ShareGroupMemberMetadataValue._ENCODERS = {
    0: _e_ShareGroupMemberMetadataValue_v0,
}
