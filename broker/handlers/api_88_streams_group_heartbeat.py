"""StreamsGroupHeartbeat (key 88), v0-1 (KIP-1071), as Kafka 4.4 serves it.

Kafka Streams clients (``group.protocol=streams``) join (member epoch 0, with
their topology), heartbeat, and leave (-1; -2 for a static member). The broker
initialises the group's topology, checks it against the topics (statuses
MISSING_SOURCE_TOPICS, MISSING_INTERNAL_TOPICS, INCORRECTLY_PARTITIONED_TOPICS,
STALE_TOPOLOGY), creates the missing repartition and changelog topics, waits
``group.streams.initial.rebalance.delay.ms`` for a new group (ASSIGNMENT_DELAYED),
assigns active and standby tasks with the sticky assignor, at most once per
``streams.assignment.interval.ms`` (KIP-1263; ASSIGNMENT_DELAYED meanwhile), and reconciles each
member (revoke before assign). Interactive-query endpoints are answered with
every member's partitions. v1 adds the int64 AcceptableRecoveryLag and
TopologyDescriptionRequired: set for a member (epoch >= 0) of a group with no
topology description stored for its current topology epoch (KIP-1331), at most
once per 30 s per group; the member then sends StreamsGroupTopologyDescriptionUpdate.
Rules: :mod:`broker.group.streams`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from broker.group.coordinator import client_host
from broker.group.streams.topology import Status
from broker.handlers import handler
from broker.handlers._group_protocols import protocol_disabled
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.streams_group_heartbeat_request import StreamsGroupHeartbeatRequest
from broker.protocol.messages.streams_group_heartbeat_response import StreamsGroupHeartbeatResponse
from broker.security.authorizer import CLUSTER_NAME, AclOperation, ResourceType


@handler(88, min_version=0, max_version=1)
async def handle(ctx: RequestContext, req: StreamsGroupHeartbeatRequest) -> StreamsGroupHeartbeatResponse:
    enabled = ctx.services.config.get("group.coordinator.rebalance.protocols")
    refused = protocol_disabled("streams", enabled, StreamsGroupHeartbeatResponse)
    if refused is not None:
        return refused
    response = await ctx.services.groups.streams_heartbeat(
        req,
        api_version=ctx.api_version,
        client_id=ctx.client_id or "",
        client_host=client_host(ctx.connection.peer),
        may_not_create=_create_check(ctx),
    )
    store = ctx.services.streams_topologies
    if (
        ctx.api_version >= 1
        and store is not None
        and req.member_epoch >= 0
        and response.error_code == ErrorCode.NONE
        and not any(s.status_code == Status.STALE_TOPOLOGY for s in response.status or ())
    ):
        try:
            epoch = await ctx.services.groups.streams_topology_epoch(req.group_id)
        except KafkaError:
            return response
        response.topology_description_required = store.should_ask(req.group_id, epoch, ctx.services.now_ms())
    return response


def _create_check(ctx: RequestContext) -> Callable[[Sequence[str]], list[str]] | None:
    """Which internal topics the member may not create: as Kafka, CREATE on the cluster
    covers them all, else CREATE on each topic (None: no authorizer)."""
    security = ctx.services.security
    if security is None or security.authorizer is None:
        return None
    principal, host = ctx.connection.principal, ctx.connection.host

    def denied(names: Sequence[str]) -> list[str]:
        if security.authorized(principal, host, AclOperation.CREATE, ResourceType.CLUSTER, CLUSTER_NAME):
            return []
        return [
            n for n in names if not security.authorized(principal, host, AclOperation.CREATE, ResourceType.TOPIC, n)
        ]

    return denied
