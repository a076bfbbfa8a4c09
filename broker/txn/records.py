"""``__transaction_state`` records: the exact bytes Kafka writes, both ways.

One record per transactional id, keyed by the id; the newest record wins
(the topic is compacted) and a tombstone (no value) deletes the id::

    key   = int16 record type 0 (TransactionLogKey) + TransactionLogKey v0
    value = int16 value version + TransactionLogValue at that version

Value versions: 0 is the original layout; 1 (flexible) adds the tagged fields
PreviousProducerId (tag 0), NextProducerId (1), ClientTransactionVersion (2)
and NextProducerEpoch (3), written only when they differ from their defaults.
Kafka picks the version from the finalized ``transaction.version`` feature:
0 at level 0, 1 from level 1 on (:func:`value_version`). Kafka 4.4 never sets
NextProducerEpoch (two-phase commit keeps it -1); we read it and carry it along.

Partitions are written only for states other than Empty (Empty: a null array),
grouped by topic; we sort topics and partition ids so that the same state is
always the same bytes. An Empty record's partitions are ignored when read, as
Kafka does.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable
from dataclasses import dataclass
from typing import NamedTuple

from broker.protocol.errors import ProtocolError
from broker.protocol.messages.transaction_log_key import TransactionLogKey
from broker.protocol.messages.transaction_log_value import PartitionsSchema, TransactionLogValue
from broker.txn.states import TxnState

__all__ = [
    "NO_PRODUCER_EPOCH",
    "NO_PRODUCER_ID",
    "RECORD_TYPE",
    "TopicPartition",
    "TxnMetadata",
    "UnknownRecord",
    "decode",
    "decode_key",
    "encode_key",
    "encode_value",
    "value_version",
]

_INT16 = struct.Struct(">h")

# The key's int16 prefix: Kafka's CoordinatorRecordType.TRANSACTION_LOG.
RECORD_TYPE = 0

NO_PRODUCER_ID = -1
NO_PRODUCER_EPOCH = -1


class TopicPartition(NamedTuple):
    topic: str
    partition: int


@dataclass(frozen=True, slots=True)
class TxnMetadata:
    """Everything a ``__transaction_state`` record says about one transactional id."""

    transactional_id: str
    producer_id: int
    producer_epoch: int
    state: TxnState
    timeout_ms: int
    partitions: frozenset[TopicPartition]
    last_update_ms: int
    start_ms: int  # -1 while no transaction has started
    previous_producer_id: int = NO_PRODUCER_ID
    next_producer_id: int = NO_PRODUCER_ID
    next_producer_epoch: int = NO_PRODUCER_EPOCH
    client_version: int = 0  # ClientTransactionVersion: the transaction version of the last end or add


class UnknownRecord(ProtocolError):
    """A record this coordinator does not understand (another key type or a newer
    value version). Kafka skips such records when loading; so does the shard."""


def value_version(transaction_version: int) -> int:
    """The TransactionLogValue version Kafka writes at a ``transaction.version`` level."""
    return 1 if transaction_version >= 1 else 0


def encode_key(transactional_id: str) -> bytes:
    return _INT16.pack(RECORD_TYPE) + TransactionLogKey(transactional_id).encode(0)


def encode_value(meta: TxnMetadata, version: int) -> bytes:
    """The value bytes of ``meta`` at value ``version`` (0 or 1)."""
    if meta.state in (TxnState.DEAD, TxnState.PREPARE_EPOCH_FENCE):
        raise ValueError(f"{meta.state.label} is never written to the transaction log")
    if meta.state is TxnState.EMPTY and meta.partitions:
        raise ValueError(f"transactional id {meta.transactional_id!r} is Empty but has partitions")
    partitions: list[PartitionsSchema] | None = None
    if meta.state is not TxnState.EMPTY:
        partitions = [PartitionsSchema(topic, ids) for topic, ids in sorted(_group_by_topic(meta.partitions).items())]
    flexible = version >= 1
    value = TransactionLogValue(
        producer_id=meta.producer_id,
        previous_producer_id=meta.previous_producer_id if flexible else NO_PRODUCER_ID,
        next_producer_id=meta.next_producer_id if flexible else NO_PRODUCER_ID,
        producer_epoch=meta.producer_epoch,
        next_producer_epoch=meta.next_producer_epoch if flexible else NO_PRODUCER_EPOCH,
        transaction_timeout_ms=meta.timeout_ms,
        transaction_status=meta.state.id,
        transaction_partitions=partitions,
        transaction_last_update_timestamp_ms=meta.last_update_ms,
        transaction_start_timestamp_ms=meta.start_ms,
        client_transaction_version=meta.client_version if flexible else 0,
    )
    return _INT16.pack(version) + value.encode(version)


def _group_by_topic(partitions: Iterable[TopicPartition]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for tp in partitions:
        out.setdefault(tp.topic, []).append(tp.partition)
    for ids in out.values():
        ids.sort()
    return out


def decode_key(key: bytes | bytearray | memoryview) -> str:
    """The transactional id a record key names; UnknownRecord for another key type."""
    if len(key) < _INT16.size:
        raise ProtocolError(f"transaction log key of {len(key)} bytes is too short")
    (record_type,) = _INT16.unpack_from(key)
    if record_type != RECORD_TYPE:
        raise UnknownRecord(f"unknown transaction log key type {record_type}")
    return TransactionLogKey.decode(memoryview(key)[_INT16.size :], 0).transactional_id


def decode(
    key: bytes | bytearray | memoryview, value: bytes | bytearray | memoryview | None
) -> tuple[str, TxnMetadata | None]:
    """(transactional id, its metadata or None for a tombstone).

    Raises UnknownRecord for a key type or value version we do not know and
    ProtocolError for bytes that do not parse.
    """
    transactional_id = decode_key(key)
    if value is None:
        return transactional_id, None
    if len(value) < _INT16.size:
        raise ProtocolError(f"transaction log value of {len(value)} bytes is too short")
    (version,) = _INT16.unpack_from(value)
    if not TransactionLogValue.MIN_VERSION <= version <= TransactionLogValue.MAX_VERSION:
        raise UnknownRecord(f"unknown transaction log value version {version}")
    v = TransactionLogValue.decode(memoryview(value)[_INT16.size :], version)
    try:
        state = TxnState.from_id(v.transaction_status)
    except ValueError as exc:
        raise ProtocolError(f"transactional id {transactional_id!r}: {exc}") from None
    partitions: frozenset[TopicPartition] = frozenset()
    if state is not TxnState.EMPTY and v.transaction_partitions:
        partitions = frozenset(
            TopicPartition(p.topic, pid) for p in v.transaction_partitions for pid in p.partition_ids
        )
    return transactional_id, TxnMetadata(
        transactional_id=transactional_id,
        producer_id=v.producer_id,
        producer_epoch=v.producer_epoch,
        state=state,
        timeout_ms=v.transaction_timeout_ms,
        partitions=partitions,
        last_update_ms=v.transaction_last_update_timestamp_ms,
        start_ms=v.transaction_start_timestamp_ms,
        previous_producer_id=v.previous_producer_id,
        next_producer_id=v.next_producer_id,
        next_producer_epoch=v.next_producer_epoch,
        client_version=v.client_transaction_version,
    )
