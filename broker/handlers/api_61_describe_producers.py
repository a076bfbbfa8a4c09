"""DescribeProducers (key 61), v0: the producers a partition leader keeps state for.

Per partition: every producer id with its epoch, the sequence of its last
record, the timestamp of its last batch, the epoch of the coordinator that
wrote its last marker and the first offset of its open transaction (-1 when
none is open), from the partition's producer state (which forgets idle
producers after ``producer.id.expiration.ms``). ``kafka-transactions.sh
describe-producers`` and ``find-hanging`` read this. An unknown topic or
partition is UNKNOWN_TOPIC_OR_PARTITION, one led elsewhere
NOT_LEADER_OR_FOLLOWER.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.describe_producers_request import DescribeProducersRequest
from broker.protocol.messages.describe_producers_response import (
    DescribeProducersResponse,
    PartitionResponse,
    ProducerState,
    TopicResponse,
)


def _partition(ctx: RequestContext, topic: str, index: int) -> PartitionResponse:
    try:
        partition = ctx.services.replicas.leader(topic, index)
    except KafkaError as exc:
        return PartitionResponse(partition_index=index, error_code=exc.code, error_message=exc.message)
    producers = [
        ProducerState(
            producer_id=entry.producer_id,
            producer_epoch=entry.epoch,
            last_sequence=entry.last_seq,
            last_timestamp=entry.last_timestamp,
            coordinator_epoch=entry.coordinator_epoch,
            current_txn_start_offset=-1 if entry.txn_first_offset is None else entry.txn_first_offset,
        )
        for entry in partition.log.producer_state.producers.values()
    ]
    return PartitionResponse(partition_index=index, error_code=ErrorCode.NONE, active_producers=producers)


@handler(61, min_version=0, max_version=0)
async def handle(ctx: RequestContext, req: DescribeProducersRequest) -> DescribeProducersResponse:
    return DescribeProducersResponse(
        throttle_time_ms=0,
        topics=[
            TopicResponse(name=t.name, partitions=[_partition(ctx, t.name, p) for p in t.partition_indexes])
            for t in req.topics
        ],
    )
