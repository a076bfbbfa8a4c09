"""EndTxn (key 26), v0-5: commit or abort the producer's transaction.

The answer comes once PrepareCommit/PrepareAbort is durable in
``__transaction_state`` and the markers are written (at most 5 s later: past
that, a partition being unavailable, the markers go on in the background and
the transactional id answers CONCURRENT_TRANSACTIONS until they are all
written, as Kafka does after answering at once). v5 is transaction version 2 (KIP-890 part
2): the epoch is bumped at every end and the answer carries the producer id
and epoch to use next (a new producer id once the epoch is spent); a retry with
the epoch before the bump succeeds; an abort with no transaction open is
allowed. v0-4 keep the epoch. Clients below v2 get INVALID_PRODUCER_EPOCH for
PRODUCER_FENCED.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.messages.end_txn_request import EndTxnRequest
from broker.protocol.messages.end_txn_response import EndTxnResponse
from broker.txn.requests import END_TXN, client_error, end_txn_transaction_version


@handler(26, min_version=0, max_version=5)
async def handle(ctx: RequestContext, req: EndTxnRequest) -> EndTxnResponse:
    v = ctx.api_version
    result = await ctx.services.transactions.end_txn(
        req.transactional_id, req.producer_id, req.producer_epoch, req.committed, end_txn_transaction_version(v)
    )
    return EndTxnResponse(
        throttle_time_ms=0,
        error_code=client_error(END_TXN, v, result.error),
        producer_id=result.producer_id,
        producer_epoch=result.producer_epoch,
    )
