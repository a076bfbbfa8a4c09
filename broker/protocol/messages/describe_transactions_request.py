# Generated from protocol/schemas/DescribeTransactionsRequest.json by codegen; do not edit.
"""DescribeTransactionsRequest: request, api key 65, versions 0-0."""

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
    "DescribeTransactionsRequest",
]


@dataclass(slots=True)
class DescribeTransactionsRequest(Message):
    """DescribeTransactionsRequest, api key 65."""

    API_KEY: ClassVar[int] = 65
    NAME: ClassVar[str] = 'DescribeTransactionsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'transactional_ids': (0, 0)}

    transactional_ids: list[str] = field(default_factory=list)
    """Transactional IDs to describe."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DescribeTransactionsRequest_v0(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_transactional_ids = []
    append = f_transactional_ids.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DescribeTransactionsRequest(f_transactional_ids, unknown), pos


def _e_DescribeTransactionsRequest_v0(o, out):
    value = o.transactional_ids
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DescribeTransactionsRequest._DECODERS = {
    0: _d_DescribeTransactionsRequest_v0,
}
DescribeTransactionsRequest._ENCODERS = {
    0: _e_DescribeTransactionsRequest_v0,
}
