"""CreateTopics (key 19), v2-7.

Creates topics on this node as Kafka's KRaft controller does
(ControllerApis.createTopics, ReplicationControlManager.createTopics), with
its error codes and messages, checked in its order for each topic:

- a name given twice: INVALID_REQUEST "Duplicate topic name." (once, after the
  other results); ``__cluster_metadata``: INVALID_REQUEST;
- an illegal name, or one that collides with an existing topic on '.' versus
  '_': INVALID_TOPIC_EXCEPTION; an existing topic: TOPIC_ALREADY_EXISTS;
- a null config value, an unknown config or a bad value: INVALID_CONFIG;
- explicit assignments: only with NumPartitions and ReplicationFactor -1
  (else INVALID_REQUEST), partitions numbered 0..n-1, each on registered
  brokers, all with as many replicas (else INVALID_REPLICA_ASSIGNMENT);
- otherwise NumPartitions -1 means ``num.partitions`` and 0 or below -1 is
  INVALID_PARTITIONS; ReplicationFactor -1 means ``default.replication.factor``,
  0 or below -1 is INVALID_REPLICATION_FACTOR, and more than the registered
  brokers cannot be placed (INVALID_REPLICATION_FACTOR with Kafka's message).

``validate_only`` runs every check and creates nothing, answering as if it
had. Successful results carry the topic id (v7+, KIP-516) and, from v5
(KIP-525), the partition count, replication factor 1 and every effective topic
config with its source. Failed results carry -1 counts and no configs.
``__consumer_offsets``, ``__transaction_state`` and ``__share_group_state``
are created as internal topics, as Kafka marks them by name.
"""

from __future__ import annotations

from collections import Counter

from broker.config.services import HandlerSettings
from broker.handlers import handler
from broker.handlers._configs import broker_settings
from broker.handlers._topic_configs import effective_topic_configs
from broker.handlers._topics import (
    CLUSTER_METADATA_TOPIC,
    INTERNAL_TOPICS,
    colliding_topic,
    manual_assignment_error,
    validate_topic_name,
)
from broker.handlers.context import RequestContext
from broker.log.config import validate_topic_configs
from broker.metadata.image import TopicImage
from broker.metadata.source import NewTopic
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.create_topics_request import CreatableTopic, CreateTopicsRequest
from broker.protocol.messages.create_topics_response import (
    CreatableTopicConfigs,
    CreatableTopicResult,
    CreateTopicsResponse,
)


def _check_layout(ctx: RequestContext, topic: CreatableTopic) -> tuple[int, int]:
    """Check assignments, partition count and replication factor; return both."""
    image = ctx.services.metadata.image
    registered = [b.node_id for b in image.live_brokers()]
    if topic.assignments:
        if topic.replication_factor != -1:
            raise KafkaError(
                ErrorCode.INVALID_REQUEST,
                "A manual partition assignment was specified, but replication factor was not set to -1.",
            )
        if topic.num_partitions != -1:
            raise KafkaError(
                ErrorCode.INVALID_REQUEST,
                "A manual partition assignment was specified, but numPartitions was not set to -1.",
            )
        seen: set[int] = set()
        replicas: int | None = None
        for assignment in topic.assignments:
            if assignment.partition_index in seen:
                raise KafkaError(
                    ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                    f"Found multiple manual partition assignments for partition {assignment.partition_index}",
                )
            problem = manual_assignment_error(assignment.broker_ids, registered, replicas)
            if problem is not None:
                raise KafkaError(ErrorCode.INVALID_REPLICA_ASSIGNMENT, problem)
            seen.add(assignment.partition_index)
            replicas = len(assignment.broker_ids)
        if seen != set(range(len(seen))):
            raise KafkaError(
                ErrorCode.INVALID_REPLICA_ASSIGNMENT, "partitions should be a consecutive 0-based integer sequence"
            )
        return len(seen), -1
    if topic.replication_factor < -1 or topic.replication_factor == 0:
        raise KafkaError(
            ErrorCode.INVALID_REPLICATION_FACTOR,
            "Replication factor must be larger than 0, or -1 to use the default value.",
        )
    if topic.num_partitions < -1 or topic.num_partitions == 0:
        raise KafkaError(ErrorCode.INVALID_PARTITIONS, "Number of partitions was set to an invalid non-positive value.")
    factor = topic.replication_factor
    if factor == -1:
        factor = broker_settings(ctx.services, HandlerSettings).default_replication_factor
    if factor > len(registered):
        raise KafkaError(
            ErrorCode.INVALID_REPLICATION_FACTOR,
            f"Unable to replicate the partition {factor} time(s): The target replication factor of {factor} "
            f"cannot be reached because only {len(registered)} broker(s) are registered.",
        )
    return topic.num_partitions, factor


def _prepare(ctx: RequestContext, topic: CreatableTopic) -> NewTopic:
    """The checks made here, in Kafka's order; the topic to ask the metadata for."""
    services = ctx.services
    existing = services.metadata.image.topics
    name = topic.name
    validate_topic_name(name)
    if name in existing:
        raise KafkaError(ErrorCode.TOPIC_ALREADY_EXISTS, f"Topic '{name}' already exists.")
    other = colliding_topic(name, existing)
    if other is not None:
        raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, f"Topic '{name}' collides with existing topic: {other}")
    nulls = [c.name for c in topic.configs if c.value is None]
    if nulls:
        raise KafkaError(ErrorCode.INVALID_CONFIG, f"Null value not supported for topic configs: {','.join(nulls)}")
    configs = {c.name: c.value for c in topic.configs}
    validate_topic_configs(configs)
    partitions, factor = _check_layout(ctx, topic)
    assignments = (
        [a.broker_ids for a in sorted(topic.assignments, key=lambda a: a.partition_index)]
        if topic.assignments
        else None
    )
    return NewTopic(name, partitions, factor, configs, assignments, internal=name in INTERNAL_TOPICS)


def _created(ctx: RequestContext, name: str, info: TopicImage, validate_only: bool) -> CreatableTopicResult:
    effective = effective_topic_configs(ctx.services.logs, name, dict(info.configs) if validate_only else None)
    return CreatableTopicResult(
        name=name,
        topic_id=info.topic_id,
        error_code=ErrorCode.NONE,
        error_message=None,
        topic_config_error_code=ErrorCode.NONE,
        num_partitions=len(info.partitions),
        replication_factor=len(info.partitions[0].replicas) if info.partitions else -1,
        configs=[
            CreatableTopicConfigs(name=key, value=value, read_only=False, config_source=source, is_sensitive=False)
            for key, (value, source) in sorted(effective.items())
        ],
    )


def _failed(name: str, code: int, message: str | None) -> CreatableTopicResult:
    return CreatableTopicResult(
        name=name, error_code=code, error_message=message, num_partitions=-1, replication_factor=-1, configs=[]
    )


@handler(19, min_version=2, max_version=7)
async def handle(ctx: RequestContext, req: CreateTopicsRequest) -> CreateTopicsResponse:
    counts = Counter(t.name for t in req.topics)
    results: list[CreatableTopicResult | None] = []
    wanted: list[tuple[int, NewTopic]] = []
    for topic in req.topics:
        if counts[topic.name] > 1 or topic.name == CLUSTER_METADATA_TOPIC:
            continue
        try:
            wanted.append((len(results), _prepare(ctx, topic)))
            results.append(None)
        except KafkaError as exc:
            results.append(_failed(topic.name, exc.code, exc.message))
    # Every topic that passed the checks in one go: one catalog write on a single node,
    # one request to the controller in a cluster (which writes them in few transactions).
    outcomes = await ctx.services.metadata.create_topics([t for _, t in wanted], validate_only=req.validate_only)
    for (slot, t), outcome in zip(wanted, outcomes, strict=True):
        if isinstance(outcome, KafkaError):
            results[slot] = _failed(t.name, outcome.code, outcome.message)
        else:
            results[slot] = _created(ctx, t.name, outcome, req.validate_only)
    done = [r for r in results if r is not None]
    for name, count in counts.items():
        if count > 1:
            done.append(_failed(name, ErrorCode.INVALID_REQUEST, "Duplicate topic name."))
        elif name == CLUSTER_METADATA_TOPIC:
            message = f"Creation of internal topic {CLUSTER_METADATA_TOPIC} is prohibited."
            done.append(_failed(name, ErrorCode.INVALID_REQUEST, message))
    return CreateTopicsResponse(throttle_time_ms=0, topics=done)
