"""WriteTxnMarkers (key 27), v1-2: write COMMIT/ABORT markers to partitions this broker leads.

Sent by a transaction coordinator to partition leaders, and by admin tools to
end a hanging transaction (``sharebroker transactions abort``, Kafka's
``kafka-transactions.sh abort``). Each marker goes to every partition named,
through :class:`broker.txn.markers.MarkerWriter`: appended as the coordinator,
checked against the partition's producer state (INVALID_PRODUCER_EPOCH for a
stale producer epoch, TRANSACTION_COORDINATOR_FENCED for an older coordinator
epoch), answered once durable. ``__consumer_offsets`` partitions go to the
group coordinator, which also applies the marker to the transactional offsets
it holds. v2 carries the transaction version (KIP-1228): at 2 the marker's
epoch must be above the producer's (the coordinator bumped it). An unknown
partition is UNKNOWN_TOPIC_OR_PARTITION, one led elsewhere
NOT_LEADER_OR_FOLLOWER.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.messages.write_txn_markers_request import WriteTxnMarkersRequest
from broker.protocol.messages.write_txn_markers_response import (
    WritableTxnMarkerPartitionResult,
    WritableTxnMarkerResult,
    WritableTxnMarkerTopicResult,
    WriteTxnMarkersResponse,
)
from broker.txn.records import TopicPartition


@handler(27, min_version=1, max_version=2)
async def handle(ctx: RequestContext, req: WriteTxnMarkersRequest) -> WriteTxnMarkersResponse:
    writer = ctx.services.transactions.local_markers
    out: list[WritableTxnMarkerResult] = []
    for marker in req.markers:
        partitions = [TopicPartition(t.name, p) for t in marker.topics for p in t.partition_indexes]
        results = await writer.write(
            marker.producer_id,
            marker.producer_epoch,
            marker.coordinator_epoch,
            marker.transaction_result,
            marker.transaction_version if ctx.api_version >= 2 else 0,
            partitions,
        )
        by_topic: dict[str, list[WritableTxnMarkerPartitionResult]] = {}
        for tp in partitions:
            by_topic.setdefault(tp.topic, []).append(
                WritableTxnMarkerPartitionResult(partition_index=tp.partition, error_code=results[tp])
            )
        out.append(
            WritableTxnMarkerResult(
                producer_id=marker.producer_id,
                topics=[WritableTxnMarkerTopicResult(name=name, partitions=parts) for name, parts in by_topic.items()],
            )
        )
    return WriteTxnMarkersResponse(markers=out)
