# Generated from protocol/schemas/TransactionLogKey.json by codegen; do not edit.
"""TransactionLogKey: coordinator-key, api key 0, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_string,
    write_string,
)

__all__ = [
    "TransactionLogKey",
]


@dataclass(slots=True)
class TransactionLogKey(Message):
    """TransactionLogKey, api key 0."""

    API_KEY: ClassVar[int] = 0
    NAME: ClassVar[str] = 'TransactionLogKey'
    TYPE: ClassVar[str] = 'coordinator-key'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = None
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'transactional_id': (0, 0)}

    transactional_id: str = ''
    """Transactional ID the record is about."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_TransactionLogKey_v0(buf, pos):
    f_transactional_id, pos = read_string(buf, pos)
    return TransactionLogKey(f_transactional_id), pos


def _e_TransactionLogKey_v0(o, out):
    write_string(out, o.transactional_id)


TransactionLogKey._DECODERS = {
    0: _d_TransactionLogKey_v0,
}
TransactionLogKey._ENCODERS = {
    0: _e_TransactionLogKey_v0,
}
