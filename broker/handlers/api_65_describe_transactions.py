"""DescribeTransactions (key 65), v0: the state of transactional ids.

Each id is answered by its coordinator (this broker when it leads the id's
``__transaction_state`` partition, else NOT_COORDINATOR): state name as Kafka
prints it (Empty, Ongoing, PrepareCommit, ...), timeout, start time (-1 when
none), producer id and epoch, and the partitions of the transaction (for one
preparing to end, only those still waiting for their marker). An unknown id is
TRANSACTIONAL_ID_NOT_FOUND, an empty one INVALID_REQUEST.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.messages.describe_transactions_request import DescribeTransactionsRequest
from broker.protocol.messages.describe_transactions_response import (
    DescribeTransactionsResponse,
    TopicData,
    TransactionState,
)


@handler(65, min_version=0, max_version=0)
async def handle(ctx: RequestContext, req: DescribeTransactionsRequest) -> DescribeTransactionsResponse:
    states: list[TransactionState] = []
    for transactional_id in req.transactional_ids:
        d = await ctx.services.transactions.describe(transactional_id)
        by_topic: dict[str, list[int]] = {}
        for tp in sorted(d.partitions):
            by_topic.setdefault(tp.topic, []).append(tp.partition)
        states.append(
            TransactionState(
                error_code=d.error,
                transactional_id=transactional_id,
                transaction_state=d.state,
                transaction_timeout_ms=d.timeout_ms,
                transaction_start_time_ms=d.start_ms,
                producer_id=d.producer_id,
                producer_epoch=d.producer_epoch,
                topics=[TopicData(topic=topic, partitions=parts) for topic, parts in by_topic.items()],
            )
        )
    return DescribeTransactionsResponse(throttle_time_ms=0, transaction_states=states)
