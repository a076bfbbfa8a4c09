"""ListConfigResources (key 74), v0-1 (KIP-714, KIP-1142).

v0 (Kafka's ListClientMetricsResources) lists the client metrics subscriptions;
v1 lists the config resources of the types asked for, every supported type when
the list is empty: groups with config overrides (GROUP 32), client metrics
subscriptions (CLIENT_METRICS 16), the brokers (BROKER_LOGGER 8 and BROKER 4,
by node id) and the topics (TOPIC 2), in that order, as Kafka lists them. A type
outside those answers UNSUPPORTED_VERSION with nothing listed, as in Kafka.
DESCRIBE_CONFIGS on the cluster is checked by the dispatcher.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._configs import ResourceType
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.list_config_resources_request import ListConfigResourcesRequest
from broker.protocol.messages.list_config_resources_response import ConfigResource, ListConfigResourcesResponse

_V1_TYPES = (
    ResourceType.TOPIC,
    ResourceType.BROKER,
    ResourceType.BROKER_LOGGER,
    ResourceType.CLIENT_METRICS,
    ResourceType.GROUP,
)


@handler(74, min_version=0, max_version=1)
async def handle(ctx: RequestContext, req: ListConfigResourcesRequest) -> ListConfigResourcesResponse:
    supported = {int(ResourceType.CLIENT_METRICS)} if ctx.api_version == 0 else {int(t) for t in _V1_TYPES}
    wanted = set(req.resource_types) if ctx.api_version >= 1 and req.resource_types else supported
    if not wanted <= supported:
        return ListConfigResourcesResponse(throttle_time_ms=0, error_code=ErrorCode.UNSUPPORTED_VERSION)
    services = ctx.services
    found: list[tuple[str, int]] = []
    if ResourceType.GROUP in wanted:
        found += [(g, ResourceType.GROUP) for g in services.group_configs.groups()]
    if ResourceType.CLIENT_METRICS in wanted and services.client_metrics is not None:
        found += [(n, ResourceType.CLIENT_METRICS) for n in services.client_metrics.names()]
    brokers = sorted(services.metadata.image.brokers)
    for kind in (ResourceType.BROKER_LOGGER, ResourceType.BROKER):
        if kind in wanted:
            found += [(str(b), kind) for b in brokers]
    if ResourceType.TOPIC in wanted:
        found += [(t, ResourceType.TOPIC) for t in sorted(services.metadata.image.topics)]
    return ListConfigResourcesResponse(
        throttle_time_ms=0,
        error_code=ErrorCode.NONE,
        config_resources=[ConfigResource(resource_name=name, resource_type=int(kind)) for name, kind in found],
    )
