"""InitProducerId (key 22), v0-5 (v6, two-phase commit, is unstable in Kafka 4.4 and not served).

Idempotent producers (no transactional id) always get a fresh producer id at
epoch 0, whatever id/epoch they send (as Kafka does, KIP-98/KIP-360); ids are
unique across restarts (:mod:`broker.metadata.producer_ids`).

With a transactional id the transaction coordinator answers
(:meth:`broker.txn.coordinator.TransactionCoordinator.init_producer_id`): the
producer id and a bumped epoch, which fences any older producer of the same id;
an open transaction is aborted first (CONCURRENT_TRANSACTIONS, the client
retries); v3+ may name the producer id and epoch the client holds (KIP-360), and
a producer id and epoch must be given together (INVALID_REQUEST). A timeout
outside 1..``transaction.max.timeout.ms`` is INVALID_TRANSACTION_TIMEOUT.
Clients below v4 get INVALID_PRODUCER_EPOCH where newer ones get
PRODUCER_FENCED.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.init_producer_id_request import InitProducerIdRequest
from broker.protocol.messages.init_producer_id_response import InitProducerIdResponse
from broker.txn.requests import INIT_PRODUCER_ID, client_error


@handler(22, min_version=0, max_version=5)
async def handle(ctx: RequestContext, req: InitProducerIdRequest) -> InitProducerIdResponse:
    if req.transactional_id is None:
        pid = ctx.services.producer_ids.allocate()
        return InitProducerIdResponse(throttle_time_ms=0, error_code=ErrorCode.NONE, producer_id=pid, producer_epoch=0)
    result = await ctx.services.transactions.init_producer_id(
        req.transactional_id,
        req.transaction_timeout_ms,
        req.producer_id,
        req.producer_epoch,
        enable_2pc=req.enable2_pc,
        keep_prepared_txn=req.keep_prepared_txn,
    )
    return InitProducerIdResponse(
        throttle_time_ms=0,
        error_code=client_error(INIT_PRODUCER_ID, ctx.api_version, result.error),
        producer_id=result.producer_id,
        producer_epoch=result.producer_epoch,
    )
