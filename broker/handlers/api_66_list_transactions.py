"""ListTransactions (key 66), v0-2: the transactional ids this broker coordinates.

Filters: states (names as DescribeTransactions prints them; unknown names are
echoed in ``UnknownStateFilters`` and match nothing), producer ids, v1+ a
minimum duration (transactions running longer than that many milliseconds,
KIP-994) and v2+ a transactional id regular expression (KIP-1152; an invalid
one is INVALID_REGULAR_EXPRESSION). Every filter given must match. While a
shard is still loading, COORDINATOR_LOAD_IN_PROGRESS and no rows (as Kafka). Regular expressions are
Python's where Kafka uses RE2/J; they agree on the common syntax.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.list_transactions_request import ListTransactionsRequest
from broker.protocol.messages.list_transactions_response import ListTransactionsResponse, TransactionState
from broker.txn.shard import list_filter


@handler(66, min_version=0, max_version=2)
async def handle(ctx: RequestContext, req: ListTransactionsRequest) -> ListTransactionsResponse:
    v = ctx.api_version
    filters = list_filter(
        req.state_filters,
        req.producer_id_filters,
        req.duration_filter if v >= 1 else -1,
        req.transactional_id_pattern if v >= 2 else None,
    )
    if filters.error:
        return ListTransactionsResponse(throttle_time_ms=0, error_code=filters.error)
    coordinator = ctx.services.transactions
    if coordinator.runtime.loading():
        return ListTransactionsResponse(throttle_time_ms=0, error_code=ErrorCode.COORDINATOR_LOAD_IN_PROGRESS)
    rows = coordinator.list_transactions(filters)
    return ListTransactionsResponse(
        throttle_time_ms=0,
        error_code=ErrorCode.NONE,
        unknown_state_filters=list(filters.unknown_states),
        transaction_states=[
            TransactionState(transactional_id=r.transactional_id, producer_id=r.producer_id, transaction_state=r.state)
            for r in rows
        ],
    )
