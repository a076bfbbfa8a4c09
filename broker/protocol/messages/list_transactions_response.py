# Generated from protocol/schemas/ListTransactionsResponse.json by codegen; do not edit.
"""ListTransactionsResponse: response, api key 66, versions 0-2."""

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
    "TransactionState",
    "ListTransactionsResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>q')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class TransactionState:
    """Transactions that passed the filters."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'transactional_id': (0, 2), 'producer_id': (0, 2), 'transaction_state': (0, 2)}

    transactional_id: str = ''
    """Transactional ID."""

    producer_id: int = 0
    """Producer ID the transactional ID maps to."""

    transaction_state: str = ''
    """State of the transaction as the coordinator names it."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class ListTransactionsResponse(Message):
    """ListTransactionsResponse, api key 66."""

    API_KEY: ClassVar[int] = 66
    NAME: ClassVar[str] = 'ListTransactionsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 2
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 2), 'error_code': (0, 2), 'unknown_state_filters': (0, 2), 'transaction_states': (0, 2)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code; 0 means success."""

    unknown_state_filters: list[str] = field(default_factory=list)
    """State filters from the request that the coordinator does not know."""

    transaction_states: list[TransactionState] = field(default_factory=list)
    """Transactions that passed the filters."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_TransactionState_v0(buf, pos):
    f_transactional_id, pos = read_compact_string(buf, pos)
    f_producer_id = _S1u(buf, pos)[0]
    pos += 8
    f_transaction_state, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return TransactionState(f_transactional_id, f_producer_id, f_transaction_state, unknown), pos


def _d_ListTransactionsResponse_v0(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    n, pos = read_compact_array_len(buf, pos)
    f_unknown_state_filters = []
    append = f_unknown_state_filters.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    n, pos = read_compact_array_len(buf, pos)
    f_transaction_states = []
    append = f_transaction_states.append
    for _ in range(n):
        item, pos = _d_TransactionState_v0(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ListTransactionsResponse(f_throttle_time_ms, f_error_code, f_unknown_state_filters, f_transaction_states, unknown), pos


def _e_TransactionState_v0(o, out):
    write_compact_string(out, o.transactional_id)
    out += _S1p(o.producer_id)
    write_compact_string(out, o.transaction_state)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ListTransactionsResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    value = o.unknown_state_filters
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    value = o.transaction_states
    write_compact_array_len(out, value)
    for item in value:
        _e_TransactionState_v0(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ListTransactionsResponse._DECODERS = {
    0: _d_ListTransactionsResponse_v0,
    1: _d_ListTransactionsResponse_v0,
    2: _d_ListTransactionsResponse_v0,
}
ListTransactionsResponse._ENCODERS = {
    0: _e_ListTransactionsResponse_v0,
    1: _e_ListTransactionsResponse_v0,
    2: _e_ListTransactionsResponse_v0,
}
