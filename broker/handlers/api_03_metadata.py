"""Metadata (key 3), v0-13.

Lists the live brokers (with their endpoints on the listener the client came
in on), a controller (this broker: it passes controller requests on), and every topic asked for (or all, when the topic list
is null, or empty before v1) with its partitions' leaders, epochs, replicas and
in-sync replicas, all from the metadata image. v10+ carries topic ids and
v12+ lets clients ask by id alone (the share consumer does: KIP-516); an
unknown id gets UNKNOWN_TOPIC_ID. Topics are auto-created with
``num.partitions`` when the client allows it (always before v4) and
``auto.create.topics.enable`` is on; internal topics are never auto-created.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._topics import CLUSTER_OPERATIONS, OPERATIONS_OMITTED, TOPIC_OPERATIONS, auto_create
from broker.handlers.context import RequestContext
from broker.metadata.image import MetadataImage, TopicImage
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.metadata_request import MetadataRequest
from broker.protocol.messages.metadata_response import (
    MetadataResponse,
    MetadataResponseBroker,
    MetadataResponsePartition,
    MetadataResponseTopic,
)
from broker.protocol.primitives import UUID_ZERO


def topic_entry(topic: TopicImage, include_ops: bool) -> MetadataResponseTopic:
    return MetadataResponseTopic(
        error_code=ErrorCode.NONE,
        name=topic.name,
        topic_id=topic.topic_id,
        is_internal=topic.internal,
        partitions=[
            MetadataResponsePartition(
                error_code=ErrorCode.NONE,
                partition_index=index,
                leader_id=state.leader,
                leader_epoch=state.leader_epoch,
                replica_nodes=list(state.replicas),
                isr_nodes=list(state.isr),
                offline_replicas=list(state.offline_replicas),
            )
            for index, state in enumerate(topic.partitions)
        ],
        topic_authorized_operations=TOPIC_OPERATIONS if include_ops else OPERATIONS_OMITTED,
    )


def brokers_for(image: MetadataImage, listener: str | None) -> list[MetadataResponseBroker]:
    """Every live broker with its endpoint on the client's listener."""
    out = []
    for b in image.live_brokers():
        endpoint = b.endpoint(listener) or b.endpoint()
        if endpoint is not None:
            out.append(MetadataResponseBroker(node_id=b.node_id, host=endpoint.host, port=endpoint.port, rack=b.rack))
    return out


@handler(3, min_version=0, max_version=13)
async def handle(ctx: RequestContext, req: MetadataRequest) -> MetadataResponse:
    services = ctx.services
    image = services.metadata.image
    v = ctx.api_version
    include_ops = req.include_topic_authorized_operations
    topics: list[MetadataResponseTopic] = []
    all_topics = req.topics is None or (v == 0 and not req.topics)
    if all_topics:
        topics.extend(topic_entry(t, include_ops) for t in image.topics.values())
    else:
        allow_create = req.allow_auto_topic_creation if v >= 4 else True
        for t in req.topics:
            if t.name is None:
                info = image.topic_by_id(t.topic_id)
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
                info = image.topic(t.name)
                if info is None:
                    error = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                    if allow_create and not t.name.startswith("__"):
                        error, info = await auto_create(services, t.name)
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
            topics.append(topic_entry(info, include_ops))
        image = services.metadata.image
    return MetadataResponse(
        throttle_time_ms=0,
        brokers=brokers_for(image, ctx.connection.listener),
        cluster_id=image.cluster_id,
        # Every broker takes CreateTopics, DeleteTopics and the other "controller" requests
        # and passes them on to the controller (as KRaft brokers forward them, KIP-590), so
        # the answering broker names itself: a client never waits on a controller that just
        # died. DescribeCluster names the elected controller.
        controller_id=services.node_id,
        topics=topics,
        cluster_authorized_operations=(
            CLUSTER_OPERATIONS if req.include_cluster_authorized_operations else OPERATIONS_OMITTED
        ),
        error_code=ErrorCode.NONE,
    )
