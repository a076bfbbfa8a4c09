# Generated from protocol/schemas/ListTransactionsRequest.json by codegen; do not edit.
"""ListTransactionsRequest: request, api key 66, versions 0-2."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    check_count,
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
    "ListTransactionsRequest",
]
_S0 = Struct('>q')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class ListTransactionsRequest(Message):
    """ListTransactionsRequest, api key 66."""

    API_KEY: ClassVar[int] = 66
    NAME: ClassVar[str] = 'ListTransactionsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'state_filters': (0, 2), 'producer_id_filters': (0, 2), 'duration_filter': (1, 2), 'transactional_id_pattern': (2, 2)}

    state_filters: list[str] = field(default_factory=list)
    """Keep only transactions in one of these states; empty keeps every state."""

    producer_id_filters: list[int] = field(default_factory=list)
    """Keep only transactions of these producer IDs; empty keeps every producer."""

    duration_filter: int = -1
    """Keep only transactions that have been running for longer than this many milliseconds; a negative value keeps all."""

    transactional_id_pattern: str | None = None
    """Keep only transactional IDs that match this regular expression; null or empty keeps all."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ListTransactionsRequest_v0(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_state_filters = []
    append = f_state_filters.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 8)
    f_producer_id_filters = list(unpack_from('>%dq' % n, buf, pos))
    pos += n * 8
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListTransactionsRequest(f_state_filters, f_producer_id_filters, -1, None, unknown), pos


def _d_ListTransactionsRequest_v1(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_state_filters = []
    append = f_state_filters.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 8)
    f_producer_id_filters = list(unpack_from('>%dq' % n, buf, pos))
    pos += n * 8
    f_duration_filter = _S0u(buf, pos)[0]
    pos += 8
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListTransactionsRequest(f_state_filters, f_producer_id_filters, f_duration_filter, None, unknown), pos


def _d_ListTransactionsRequest_v2(buf, pos):
    n, pos = read_compact_array_len(buf, pos)
    f_state_filters = []
    append = f_state_filters.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 8)
    f_producer_id_filters = list(unpack_from('>%dq' % n, buf, pos))
    pos += n * 8
    f_duration_filter = _S0u(buf, pos)[0]
    pos += 8
    f_transactional_id_pattern, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListTransactionsRequest(f_state_filters, f_producer_id_filters, f_duration_filter, f_transactional_id_pattern, unknown), pos


def _e_ListTransactionsRequest_v0(o, out):
    value = o.state_filters
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    value = o.producer_id_filters
    write_compact_array_len(out, value)
    out += pack('>%dq' % len(value), *value)
    if o.duration_filter != -1:
        raise UnsupportedFieldError('ListTransactionsRequest v0 cannot carry a non-default DurationFilter')
    if o.transactional_id_pattern is not None:
        raise UnsupportedFieldError('ListTransactionsRequest v0 cannot carry a non-default TransactionalIdPattern')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListTransactionsRequest_v1(o, out):
    value = o.state_filters
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    value = o.producer_id_filters
    write_compact_array_len(out, value)
    out += pack('>%dq' % len(value), *value)
    out += _S0p(o.duration_filter)
    if o.transactional_id_pattern is not None:
        raise UnsupportedFieldError('ListTransactionsRequest v1 cannot carry a non-default TransactionalIdPattern')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListTransactionsRequest_v2(o, out):
    value = o.state_filters
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    value = o.producer_id_filters
    write_compact_array_len(out, value)
    out += pack('>%dq' % len(value), *value)
    out += _S0p(o.duration_filter)
    write_compact_nullable_string(out, o.transactional_id_pattern)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ListTransactionsRequest._DECODERS = {
    0: _d_ListTransactionsRequest_v0,
    1: _d_ListTransactionsRequest_v1,
    2: _d_ListTransactionsRequest_v2,
}
ListTransactionsRequest._ENCODERS = {
    0: _e_ListTransactionsRequest_v0,
    1: _e_ListTransactionsRequest_v1,
    2: _e_ListTransactionsRequest_v2,
}
