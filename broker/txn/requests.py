"""Between the transaction APIs on the wire and the shard: the request-level rules
Kafka 4.4 applies in ``KafkaApis`` before and after its transaction coordinator.

Pure functions over generated messages; the handlers (and the routing of each
transactional id to its shard) call them.

* Transaction versions by API version: EndTxn v5+ and AddPartitionsToTxn v4+
  are transaction version 2, everything older 0 (Kafka's
  ``TransactionVersion.transactionVersionFor*``).
* Old clients do not know PRODUCER_FENCED (90): InitProducerId below v4 and
  AddPartitionsToTxn, AddOffsetsToTxn and EndTxn below v2 get
  INVALID_PRODUCER_EPOCH (47) instead (:func:`client_error`).
* AddPartitionsToTxn v0-3 is a client's request for one transaction; v4+ is a
  partition leader's (or the group coordinator's) batch of transactions, each
  either added (transaction version 2, KIP-890 part 2) or only verified
  (VerifyOnly, KIP-890 part 1). Before anything is added every partition is
  checked: one that does not exist fails the transaction's request with
  UNKNOWN_TOPIC_OR_PARTITION and the others get OPERATION_NOT_ATTEMPTED; a
  client (v0-3) may not name an internal topic (TOPIC_AUTHORIZATION_FAILED, as
  Kafka's authorizer never grants those to it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import NamedTuple

from broker.protocol.errors import ErrorCode
from broker.protocol.messages.add_partitions_to_txn_request import AddPartitionsToTxnRequest, AddPartitionsToTxnTopic
from broker.protocol.messages.add_partitions_to_txn_response import (
    AddPartitionsToTxnPartitionResult,
    AddPartitionsToTxnResponse,
    AddPartitionsToTxnResult,
    AddPartitionsToTxnTopicResult,
)
from broker.txn.records import TopicPartition

__all__ = [
    "AddPartitionsCall",
    "add_partitions_calls",
    "add_partitions_response",
    "check_partitions",
    "client_error",
    "end_txn_transaction_version",
]

INIT_PRODUCER_ID, ADD_PARTITIONS_TO_TXN, ADD_OFFSETS_TO_TXN, END_TXN = 22, 24, 25, 26

# The first version of each API whose clients understand PRODUCER_FENCED.
_PRODUCER_FENCED_SINCE = {INIT_PRODUCER_ID: 4, ADD_PARTITIONS_TO_TXN: 2, ADD_OFFSETS_TO_TXN: 2, END_TXN: 2}


def client_error(api_key: int, version: int, code: ErrorCode) -> ErrorCode:
    """The error code as a client of ``version`` must get it."""
    if code == ErrorCode.PRODUCER_FENCED and version < _PRODUCER_FENCED_SINCE.get(api_key, 0):
        return ErrorCode.INVALID_PRODUCER_EPOCH
    return code


def end_txn_transaction_version(version: int) -> int:
    """EndTxn v5+ is transaction version 2 (the epoch is bumped at every end)."""
    return 2 if version > 4 else 0


class AddPartitionsCall(NamedTuple):
    """One transaction of an AddPartitionsToTxn request, for its shard."""

    transactional_id: str
    producer_id: int
    producer_epoch: int
    verify_only: bool
    partitions: tuple[TopicPartition, ...]  # as named, duplicates removed, in request order
    transaction_version: int


def _partitions(topics: Iterable[AddPartitionsToTxnTopic]) -> tuple[TopicPartition, ...]:
    return tuple(dict.fromkeys(TopicPartition(t.name, p) for t in topics for p in t.partitions))


def add_partitions_calls(req: AddPartitionsToTxnRequest, version: int) -> list[AddPartitionsCall]:
    """The transactions of a request: one for v0-3, each of ``transactions`` for v4+."""
    if version <= 3:
        return [
            AddPartitionsCall(
                req.v3_and_below_transactional_id,
                req.v3_and_below_producer_id,
                req.v3_and_below_producer_epoch,
                False,
                _partitions(req.v3_and_below_topics),
                0,
            )
        ]
    return [
        AddPartitionsCall(t.transactional_id, t.producer_id, t.producer_epoch, t.verify_only, _partitions(t.topics), 2)
        for t in req.transactions
    ]


def check_partitions(
    partitions: Iterable[TopicPartition],
    version: int,
    exists: Callable[[str, int], bool],
    is_internal: Callable[[str], bool],
) -> dict[TopicPartition, ErrorCode] | None:
    """Kafka's checks before a transaction is touched: None when every partition may
    go on, else the answer for each partition of the call."""
    answer: dict[TopicPartition, ErrorCode] = {}
    failed = False
    for tp in partitions:
        if version <= 3 and is_internal(tp.topic):
            answer[tp] = ErrorCode.TOPIC_AUTHORIZATION_FAILED
            failed = True
        elif not exists(tp.topic, tp.partition):
            answer[tp] = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            failed = True
        else:
            answer[tp] = ErrorCode.OPERATION_NOT_ATTEMPTED
    return answer if failed else None


def _topic_results(errors: Mapping[TopicPartition, ErrorCode], version: int) -> list[AddPartitionsToTxnTopicResult]:
    by_topic: dict[str, list[AddPartitionsToTxnPartitionResult]] = {}
    for tp, code in errors.items():
        by_topic.setdefault(tp.topic, []).append(
            AddPartitionsToTxnPartitionResult(tp.partition, client_error(ADD_PARTITIONS_TO_TXN, version, code))
        )
    return [AddPartitionsToTxnTopicResult(topic, results) for topic, results in by_topic.items()]


def add_partitions_response(
    version: int,
    results: Iterable[tuple[str, Mapping[TopicPartition, ErrorCode]]],
    error: ErrorCode = ErrorCode.NONE,
) -> AddPartitionsToTxnResponse:
    """The response from each transaction's per-partition answers (a whole-transaction
    error is that error for every partition of it). v0-3 carry the only transaction's
    topics; v4+ every transaction, and a top-level error."""
    results = list(results)
    if version <= 3:
        errors = results[0][1] if results else {}
        return AddPartitionsToTxnResponse(results_by_topic_v3_and_below=_topic_results(errors, version))
    return AddPartitionsToTxnResponse(
        error_code=error,
        results_by_transaction=[
            AddPartitionsToTxnResult(transactional_id, _topic_results(errors, version))
            for transactional_id, errors in results
        ],
    )
