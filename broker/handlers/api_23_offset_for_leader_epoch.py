"""OffsetForLeaderEpoch (key 23), v2-4: where a leader epoch ends in the leader's log.

Followers ask it after a leader change to find where their log diverges from
the new leader's (:mod:`broker.replica.fetcher`); consumers ask it to validate
their position after a leader change (KIP-320). For each partition the answer is
the largest epoch at or below the requested ``leader_epoch`` that the leader
epoch cache knows, and its end offset: the log end offset for the latest epoch,
the start of the next known epoch otherwise (Kafka's
``LeaderEpochFileCache.endOffsetFor``); -1/-1 when it cannot be told.

Only the leader answers (``replica_id`` -2, "debugging", the default before v3,
may ask any replica, as in Kafka): NOT_LEADER_OR_FOLLOWER elsewhere, with
``current_leader_epoch`` checked the usual way (above ours
UNKNOWN_LEADER_EPOCH, below FENCED_LEADER_EPOCH, -1 not checked). An unknown
topic or partition is UNKNOWN_TOPIC_OR_PARTITION.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.offset_for_leader_epoch_request import OffsetForLeaderEpochRequest
from broker.protocol.messages.offset_for_leader_epoch_response import (
    EpochEndOffset,
    OffsetForLeaderEpochResponse,
    OffsetForLeaderTopicResult,
)

DEBUGGING_REPLICA_ID = -2


@handler(23, min_version=2, max_version=4)
async def handle(ctx: RequestContext, req: OffsetForLeaderEpochRequest) -> OffsetForLeaderEpochResponse:
    replicas = ctx.services.replicas
    only_leader = req.replica_id != DEBUGGING_REPLICA_ID
    topics = []
    for t in req.topics:
        results = []
        for p in t.partitions:
            answer = EpochEndOffset(partition=p.partition)
            results.append(answer)
            partition = replicas.partition(t.topic, p.partition)
            if partition is None:
                answer.error_code = (
                    ErrorCode.NOT_LEADER_OR_FOLLOWER
                    if replicas.in_cluster(t.topic, p.partition)
                    else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                )
                continue
            try:
                if only_leader:
                    partition.check_leader(p.current_leader_epoch)
                else:
                    partition.check_epoch(p.current_leader_epoch)
            except KafkaError as exc:
                answer.error_code = exc.code
                continue
            answer.leader_epoch, answer.end_offset = partition.end_offset_for_epoch(p.leader_epoch)
        topics.append(OffsetForLeaderTopicResult(topic=t.topic, partitions=results))
    return OffsetForLeaderEpochResponse(throttle_time_ms=0, topics=topics)
