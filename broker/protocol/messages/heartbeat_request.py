# Generated from protocol/schemas/HeartbeatRequest.json by codegen; do not edit.
"""HeartbeatRequest: request, api key 12, versions 0-4."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_unknown_tags,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "HeartbeatRequest",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class HeartbeatRequest(Message):
    """HeartbeatRequest, api key 12."""

    API_KEY: ClassVar[int] = 12
    NAME: ClassVar[str] = 'HeartbeatRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 4
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 4), 'generation_id': (0, 4), 'member_id': (0, 4), 'group_instance_id': (3, 4)}

    group_id: str = ''
    """ID of the group."""

    generation_id: int = 0
    """Generation number of the group."""

    member_id: str = ''
    """ID of the member."""

    group_instance_id: str | None = None
    """Consumer instance identifier supplied by the end user."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_HeartbeatRequest_v0(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    f_generation_id = _S0u(buf, pos)[0]
    pos += 4
    f_member_id, pos = read_string(buf, pos)
    return HeartbeatRequest(f_group_id, f_generation_id, f_member_id, None), pos


def _d_HeartbeatRequest_v3(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    f_generation_id = _S0u(buf, pos)[0]
    pos += 4
    f_member_id, pos = read_string(buf, pos)
    f_group_instance_id, pos = read_nullable_string(buf, pos)
    return HeartbeatRequest(f_group_id, f_generation_id, f_member_id, f_group_instance_id), pos


def _d_HeartbeatRequest_v4(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    f_generation_id = _S0u(buf, pos)[0]
    pos += 4
    f_member_id, pos = read_compact_string(buf, pos)
    f_group_instance_id, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return HeartbeatRequest(f_group_id, f_generation_id, f_member_id, f_group_instance_id, unknown), pos


def _e_HeartbeatRequest_v0(o, out):
    write_string(out, o.group_id)
    out += _S0p(o.generation_id)
    write_string(out, o.member_id)
    if o.group_instance_id is not None:
        raise UnsupportedFieldError('HeartbeatRequest v0 cannot carry a non-default GroupInstanceId')


def _e_HeartbeatRequest_v1(o, out):
    write_string(out, o.group_id)
    out += _S0p(o.generation_id)
    write_string(out, o.member_id)
    if o.group_instance_id is not None:
        raise UnsupportedFieldError('HeartbeatRequest v1 cannot carry a non-default GroupInstanceId')


def _e_HeartbeatRequest_v2(o, out):
    write_string(out, o.group_id)
    out += _S0p(o.generation_id)
    write_string(out, o.member_id)
    if o.group_instance_id is not None:
        raise UnsupportedFieldError('HeartbeatRequest v2 cannot carry a non-default GroupInstanceId')


def _e_HeartbeatRequest_v3(o, out):
    write_string(out, o.group_id)
    out += _S0p(o.generation_id)
    write_string(out, o.member_id)
    write_nullable_string(out, o.group_instance_id)


def _e_HeartbeatRequest_v4(o, out):
    write_compact_string(out, o.group_id)
    out += _S0p(o.generation_id)
    write_compact_string(out, o.member_id)
    write_compact_nullable_string(out, o.group_instance_id)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


HeartbeatRequest._DECODERS = {
    0: _d_HeartbeatRequest_v0,
    1: _d_HeartbeatRequest_v0,
    2: _d_HeartbeatRequest_v0,
    3: _d_HeartbeatRequest_v3,
    4: _d_HeartbeatRequest_v4,
}
HeartbeatRequest._ENCODERS = {
    0: _e_HeartbeatRequest_v0,
    1: _e_HeartbeatRequest_v1,
    2: _e_HeartbeatRequest_v2,
    3: _e_HeartbeatRequest_v3,
    4: _e_HeartbeatRequest_v4,
}
