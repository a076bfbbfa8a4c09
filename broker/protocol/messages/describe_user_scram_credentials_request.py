# Generated from protocol/schemas/DescribeUserScramCredentialsRequest.json by codegen; do not edit.
"""DescribeUserScramCredentialsRequest: request, api key 50, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_nullable_array_len,
    read_compact_string,
    read_unknown_tags,
    write_compact_nullable_array_len,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "UserName",
    "DescribeUserScramCredentialsRequest",
]


@dataclass(slots=True)
class UserName:
    """Users to describe; null or empty describes every user."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'name': (0, 0)}

    name: str = ''
    """Name of the user."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DescribeUserScramCredentialsRequest(Message):
    """DescribeUserScramCredentialsRequest, api key 50."""

    API_KEY: ClassVar[int] = 50
    NAME: ClassVar[str] = 'DescribeUserScramCredentialsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'users': (0, 0)}

    users: list[UserName] | None = field(default_factory=list)
    """Users to describe; null or empty describes every user."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_UserName_v0(buf, pos):
    f_name, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return UserName(f_name, unknown), pos


def _d_DescribeUserScramCredentialsRequest_v0(buf, pos):
    n, pos = read_compact_nullable_array_len(buf, pos)
    if n < 0:
        f_users = None
    else:
        f_users = []
        append = f_users.append
        for _ in range(n):
            item, pos = _d_UserName_v0(buf, pos)
            append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeUserScramCredentialsRequest(f_users, unknown), pos


def _e_UserName_v0(o, out):
    write_compact_string(out, o.name)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DescribeUserScramCredentialsRequest_v0(o, out):
    value = o.users
    write_compact_nullable_array_len(out, value)
    if value is not None:
        for item in value:
            _e_UserName_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeUserScramCredentialsRequest._DECODERS = {
    0: _d_DescribeUserScramCredentialsRequest_v0,
}
DescribeUserScramCredentialsRequest._ENCODERS = {
    0: _e_DescribeUserScramCredentialsRequest_v0,
}
