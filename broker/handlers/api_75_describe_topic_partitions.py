"""DescribeTopicPartitions (key 75), v0 (KIP-966).

Describes the topics asked for, or every topic when the list is empty, sorted
by name, with their partitions: led by this node at the leader epoch Metadata
reports, replicas and ISR just this node, empty eligible-leader-replica lists
and no offline replicas. Paging follows Kafka: at most
min(ResponsePartitionLimit, ``max.request.partition.size.limit``) partitions
(at least 1) per response; when more remain, NextCursor names the topic and
partition to ask from next. Topics before the cursor's topic are skipped; a
cursor whose topic is not in an explicit topic list, or whose partition is
negative, fails the request with INVALID_REQUEST for every topic asked for.
An unknown topic asked for by name gets UNKNOWN_TOPIC_OR_PARTITION (or
INVALID_TOPIC_EXCEPTION when the name is not a legal topic name).
"""

from __future__ import annotations

from broker.config.services import HandlerSettings
from broker.handlers import handler
from broker.handlers._configs import broker_settings
from broker.handlers._operations import TOPIC_OPERATIONS
from broker.handlers._topics import INTERNAL_TOPICS, topic_name_error
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.describe_topic_partitions_request import DescribeTopicPartitionsRequest
from broker.protocol.messages.describe_topic_partitions_response import (
    Cursor,
    DescribeTopicPartitionsResponse,
    DescribeTopicPartitionsResponsePartition,
    DescribeTopicPartitionsResponseTopic,
)
from broker.protocol.primitives import UUID_ZERO


def _failed(req: DescribeTopicPartitionsRequest) -> DescribeTopicPartitionsResponse:
    return DescribeTopicPartitionsResponse(
        throttle_time_ms=0,
        topics=[
            DescribeTopicPartitionsResponseTopic(
                error_code=ErrorCode.INVALID_REQUEST, name=t.name, is_internal=False, partitions=[]
            )
            for t in req.topics
        ],
    )


@handler(75, min_version=0, max_version=0)
async def handle(ctx: RequestContext, req: DescribeTopicPartitionsRequest) -> DescribeTopicPartitionsResponse:
    services = ctx.services
    known = services.metadata.image.topics
    cursor = req.cursor
    start_topic = cursor.topic_name if cursor is not None else ""
    everything = not req.topics
    names = sorted({n for n in (known if everything else (t.name for t in req.topics)) if n >= start_topic})
    if cursor is not None and ((not everything and cursor.topic_name not in names) or cursor.partition_index < 0):
        return _failed(req)

    server_limit = broker_settings(services, HandlerSettings).max_request_partition_size_limit
    limit = max(min(server_limit, req.response_partition_limit), 1)
    remaining = limit
    topics: list[DescribeTopicPartitionsResponseTopic] = []
    next_cursor = None
    for name in names:
        if remaining == 0:
            # The previous topics filled the response exactly: go on from this one.
            next_cursor = Cursor(topic_name=name, partition_index=0)
            break
        info = known.get(name)
        if info is None:
            if not everything:
                invalid = topic_name_error(name) is not None
                topics.append(
                    DescribeTopicPartitionsResponseTopic(
                        error_code=(
                            ErrorCode.INVALID_TOPIC_EXCEPTION if invalid else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                        ),
                        name=name,
                        topic_id=UUID_ZERO,
                        is_internal=name in INTERNAL_TOPICS,
                        partitions=[],
                        topic_authorized_operations=TOPIC_OPERATIONS,
                    )
                )
            continue
        first = cursor.partition_index if cursor is not None and name == cursor.topic_name else 0
        upper = min(len(info.partitions), first + remaining)
        topics.append(
            DescribeTopicPartitionsResponseTopic(
                error_code=ErrorCode.NONE,
                name=name,
                topic_id=info.topic_id,
                is_internal=info.internal,
                partitions=[
                    DescribeTopicPartitionsResponsePartition(
                        error_code=ErrorCode.NONE,
                        partition_index=p,
                        leader_id=info.partitions[p].leader,
                        leader_epoch=info.partitions[p].leader_epoch,
                        replica_nodes=list(info.partitions[p].replicas),
                        isr_nodes=list(info.partitions[p].isr),
                        eligible_leader_replicas=[],
                        last_known_elr=[],
                        offline_replicas=list(info.partitions[p].offline_replicas),
                    )
                    for p in range(first, upper)
                ],
                topic_authorized_operations=TOPIC_OPERATIONS,
            )
        )
        if upper < len(info.partitions):
            next_cursor = Cursor(topic_name=name, partition_index=upper)
            break
        remaining -= max(upper - first, 0)
    return DescribeTopicPartitionsResponse(throttle_time_ms=0, topics=topics, next_cursor=next_cursor)
