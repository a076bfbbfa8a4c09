"""Metadata (key 3), v0-13.

Lists this node as the only broker and the controller, and every topic asked
for (or all, when the topic list is null, or empty before v1) with its
partitions, all led by this node at leader epoch 0. v10+ carries topic ids and
v12+ lets clients ask by id alone (the share consumer does: KIP-516); an
unknown id gets UNKNOWN_TOPIC_ID. Topics are auto-created with
``num.partitions`` when the client allows it (always before v4) and
``auto.create.topics.enable`` is on; internal topics are never auto-created.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.metadata_request import MetadataRequest
from broker.protocol.messages.metadata_response import (
    MetadataResponse,
    MetadataResponseBroker,
    MetadataResponsePartition,
    MetadataResponseTopic,
)
from broker.protocol.primitives import UUID_ZERO
from broker.server.context import RequestContext
from broker.server.topics import CLUSTER_OPERATIONS, OPERATIONS_OMITTED, TOPIC_OPERATIONS, auto_create

LEADER_EPOCH = 0


def topic_entry(ctx: RequestContext, info, include_ops: bool) -> MetadataResponseTopic:
    node = ctx.broker.node_id
    return MetadataResponseTopic(
        error_code=ErrorCode.NONE,
        name=info.name,
        topic_id=info.topic_id,
        is_internal=info.internal,
        partitions=[
            MetadataResponsePartition(
                error_code=ErrorCode.NONE,
                partition_index=p,
                leader_id=node,
                leader_epoch=LEADER_EPOCH,
                replica_nodes=[node],
                isr_nodes=[node],
                offline_replicas=[],
            )
            for p in range(info.partitions)
        ],
        topic_authorized_operations=TOPIC_OPERATIONS if include_ops else OPERATIONS_OMITTED,
    )


@handler(3, min_version=0, max_version=13)
async def handle(ctx: RequestContext, req: MetadataRequest) -> MetadataResponse:
    broker = ctx.broker
    v = ctx.api_version
    include_ops = req.include_topic_authorized_operations
    topics: list[MetadataResponseTopic] = []
    all_topics = req.topics is None or (v == 0 and not req.topics)
    if all_topics:
        for info in list(broker.logs.topics.values()):
            topics.append(topic_entry(ctx, info, include_ops))
    else:
        allow_create = req.allow_auto_topic_creation if v >= 4 else True
        for t in req.topics:
            if t.name is None:
                info = broker.logs.topic_by_id(t.topic_id)
                if info is None:
                    topics.append(
                        MetadataResponseTopic(
                            error_code=ErrorCode.UNKNOWN_TOPIC_ID,
                            name=None,
                            topic_id=t.topic_id,
                            topic_authorized_operations=OPERATIONS_OMITTED,
                        )
                    )
                    continue
            else:
                info = broker.logs.topics.get(t.name)
                if info is None:
                    error = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                    if allow_create and not t.name.startswith("__"):
                        error, info = auto_create(broker, t.name)
                    if info is None:
                        topics.append(
                            MetadataResponseTopic(
                                error_code=error,
                                name=t.name,
                                topic_id=UUID_ZERO,
                                topic_authorized_operations=OPERATIONS_OMITTED,
                            )
                        )
                        continue
            topics.append(topic_entry(ctx, info, include_ops))
    return MetadataResponse(
        throttle_time_ms=0,
        brokers=[
            MetadataResponseBroker(
                node_id=broker.node_id, host=broker.advertised_host, port=broker.advertised_port, rack=None
            )
        ],
        cluster_id=broker.cluster_id,
        controller_id=broker.node_id,
        topics=topics,
        cluster_authorized_operations=(
            CLUSTER_OPERATIONS if req.include_cluster_authorized_operations else OPERATIONS_OMITTED
        ),
        error_code=ErrorCode.NONE,
    )
