"""ConsumerGroupHeartbeat (key 68), v0-1 (KIP-848), as Kafka 4.4 serves it.

Joins (member epoch 0), heartbeats, leaves (-1) and static leaves (-2) a
consumer group whose assignment the broker computes (``uniform`` or ``range``,
chosen by the client's ServerAssignor or ``group.consumer.assignors``). v1
requires the client to generate its member id; v0 may leave it empty on join
and gets one. Subscriptions are topic names or an RE2 regular expression the
broker resolves (``SubscribedTopicRegex``, v1). Members reconcile in steps:
partitions are revoked before new ones are given, and a partition moves only
once its previous owner released it. New targets are computed at most once
per ``consumer.assignment.interval.ms`` (KIP-1263; the group shows Assigning
meanwhile). Every change is durable in ``__consumer_offsets`` before the
answer. The rules live in :mod:`broker.group.consumer`; a group id held by a
group of another type is answered GROUP_ID_NOT_FOUND, as Kafka does.
"""

from __future__ import annotations

from broker.group.coordinator import client_host
from broker.handlers import handler
from broker.handlers._group_protocols import protocol_disabled
from broker.handlers.context import RequestContext
from broker.protocol.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from broker.protocol.messages.consumer_group_heartbeat_response import ConsumerGroupHeartbeatResponse


@handler(68, min_version=0, max_version=1)
async def handle(ctx: RequestContext, req: ConsumerGroupHeartbeatRequest) -> ConsumerGroupHeartbeatResponse:
    enabled = ctx.services.config.get("group.coordinator.rebalance.protocols")
    refused = protocol_disabled("consumer", enabled, ConsumerGroupHeartbeatResponse)
    if refused is not None:
        return refused
    return await ctx.services.groups.consumer_heartbeat(
        req,
        api_version=ctx.api_version,
        client_id=ctx.client_id or "",
        client_host=client_host(ctx.connection.peer),
    )
