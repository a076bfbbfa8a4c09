"""AddOffsetsToTxn (key 25), v0-4.

The ``__consumer_offsets`` partition of the group joins the producer's
transaction, so the offsets it then commits with TxnOffsetCommit get the
transaction's marker. Clients below v2 get INVALID_PRODUCER_EPOCH for
PRODUCER_FENCED. (Transaction-version-2 producers skip this call: their
TxnOffsetCommit v5+ adds the partition itself.)
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.messages.add_offsets_to_txn_request import AddOffsetsToTxnRequest
from broker.protocol.messages.add_offsets_to_txn_response import AddOffsetsToTxnResponse
from broker.txn.requests import ADD_OFFSETS_TO_TXN, client_error


@handler(25, min_version=0, max_version=4)
async def handle(ctx: RequestContext, req: AddOffsetsToTxnRequest) -> AddOffsetsToTxnResponse:
    code = await ctx.services.transactions.add_offsets(
        req.transactional_id, req.producer_id, req.producer_epoch, req.group_id
    )
    return AddOffsetsToTxnResponse(
        throttle_time_ms=0, error_code=client_error(ADD_OFFSETS_TO_TXN, ctx.api_version, code)
    )
