"""AddPartitionsToTxn (key 24), v0-5.

v0-3 come from transactional producers (one transaction per request): the
partitions join the producer's transaction, starting one if none is open. v4+
come from partition leaders and the group coordinator (KIP-890), a batch of
transactions each either only verified (VerifyOnly, part 1: is the partition
already in the transaction?) or added (transaction version 2, part 2: a
Produce v12+ or TxnOffsetCommit v5+ adds its partition implicitly).

Before a transaction is touched, every partition is checked
(:func:`broker.txn.requests.check_partitions`): one that does not exist fails
the transaction with UNKNOWN_TOPIC_OR_PARTITION and the others get
OPERATION_NOT_ATTEMPTED; a client (v0-3) naming an internal topic gets
TOPIC_AUTHORIZATION_FAILED, as Kafka's authorizer never lets it write one. A
transaction-wide error is answered for each of its partitions; clients below
v2 get INVALID_PRODUCER_EPOCH for PRODUCER_FENCED. Errors of routing
(NOT_COORDINATOR, COORDINATOR_LOAD_IN_PROGRESS) make the client look for the
coordinator again; CONCURRENT_TRANSACTIONS (the previous transaction is still
writing its markers) makes it retry.
"""

from __future__ import annotations

from collections.abc import Mapping

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.add_partitions_to_txn_request import AddPartitionsToTxnRequest
from broker.protocol.messages.add_partitions_to_txn_response import AddPartitionsToTxnResponse
from broker.txn.records import TopicPartition
from broker.txn.requests import AddPartitionsCall, add_partitions_calls, add_partitions_response, check_partitions


async def _one(ctx: RequestContext, call: AddPartitionsCall, version: int) -> Mapping[TopicPartition, ErrorCode]:
    image = ctx.services.metadata.image

    def exists(topic: str, partition: int) -> bool:
        return image.partition(topic, partition) is not None

    def is_internal(topic: str) -> bool:
        info = image.topic(topic)
        return (info is not None and info.internal) or topic.startswith("__")

    refused = check_partitions(call.partitions, version, exists, is_internal)
    if refused is not None:
        return refused
    coordinator = ctx.services.transactions
    if call.verify_only:
        return await coordinator.verify_partitions(
            call.transactional_id, call.producer_id, call.producer_epoch, call.partitions
        )
    code = await coordinator.add_partitions(
        call.transactional_id, call.producer_id, call.producer_epoch, call.partitions, call.transaction_version
    )
    return dict.fromkeys(call.partitions, code)


@handler(24, min_version=0, max_version=5)
async def handle(ctx: RequestContext, req: AddPartitionsToTxnRequest) -> AddPartitionsToTxnResponse:
    v = ctx.api_version
    results = [(call.transactional_id, await _one(ctx, call, v)) for call in add_partitions_calls(req, v)]
    return add_partitions_response(v, results)
