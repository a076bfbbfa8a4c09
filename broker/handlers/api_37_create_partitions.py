"""CreatePartitions (key 37), v0-3.

Raises a topic's partition count, as Kafka's KRaft controller does
(ReplicationControlManager.createPartitions): a topic named twice gets
INVALID_REQUEST "Duplicate topic name.", an unknown topic
UNKNOWN_TOPIC_OR_PARTITION, a count that is not an increase INVALID_PARTITIONS
with Kafka's message. Explicit assignments must give one replica list per new
partition, naming registered brokers, as many as the topic's replication
factor (else INVALID_REPLICA_ASSIGNMENT). ``validate_only`` runs every check and
changes nothing. Internal topics may grow, as in Kafka.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._topics import manual_assignment_error
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.create_partitions_request import CreatePartitionsRequest, CreatePartitionsTopic
from broker.protocol.messages.create_partitions_response import (
    CreatePartitionsResponse,
    CreatePartitionsTopicResult,
)


async def _grow(ctx: RequestContext, topic: CreatePartitionsTopic, validate_only: bool) -> None:
    metadata = ctx.services.metadata
    image = metadata.image
    info = image.topic(topic.name)
    if info is None:
        raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
    current = len(info.partitions)
    factor = len(info.partitions[0].replicas) if info.partitions else 1
    if topic.count == current:
        raise KafkaError(ErrorCode.INVALID_PARTITIONS, f"Topic already has {current} partition(s).")
    if topic.count < current:
        raise KafkaError(
            ErrorCode.INVALID_PARTITIONS,
            f"The topic {topic.name} currently has {current} partition(s); {topic.count} would not be an increase.",
        )
    additional = topic.count - current
    if topic.assignments is not None:
        if len(topic.assignments) != additional:
            raise KafkaError(
                ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                f"Attempted to add {additional} additional partition(s), but only "
                f"{len(topic.assignments)} assignment(s) were specified.",
            )
        registered = [b.node_id for b in image.live_brokers()]
        for assignment in topic.assignments:
            problem = manual_assignment_error(assignment.broker_ids, registered, factor)
            if problem is not None:
                raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, problem)
    assignments = [a.broker_ids for a in topic.assignments] if topic.assignments is not None else None
    try:
        await metadata.create_partitions(topic.name, topic.count, assignments=assignments, validate_only=validate_only)
    except KafkaError as exc:
        raise KafkaError(exc.code, exc.detail) from None


@handler(37, min_version=0, max_version=3)
async def handle(ctx: RequestContext, req: CreatePartitionsRequest) -> CreatePartitionsResponse:
    counts: dict[str, int] = {}
    for topic in req.topics:
        counts[topic.name] = counts.get(topic.name, 0) + 1
    results = [
        CreatePartitionsTopicResult(
            name=name, error_code=ErrorCode.INVALID_REQUEST, error_message="Duplicate topic name."
        )
        for name, n in counts.items()
        if n > 1
    ]
    for topic in req.topics:
        if counts[topic.name] > 1:
            continue
        try:
            await _grow(ctx, topic, req.validate_only)
        except KafkaError as exc:
            results.append(CreatePartitionsTopicResult(name=topic.name, error_code=exc.code, error_message=exc.message))
        else:
            results.append(CreatePartitionsTopicResult(name=topic.name, error_code=ErrorCode.NONE, error_message=None))
    return CreatePartitionsResponse(throttle_time_ms=0, results=results)
