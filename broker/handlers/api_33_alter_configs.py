"""AlterConfigs (key 33), v0-2: the legacy, whole-resource form.

The configs given become the resource's complete set of overrides: every
override not named is removed (KIP-133; IncrementalAlterConfigs is the
race-free alternative). Resources go through the registry in
:mod:`broker.handlers._config_resources` (TOPIC, BROKER, CLIENT_METRICS, GROUP). As in
Kafka (ConfigAdminManager, ControllerApis): a resource named twice, duplicate
keys, a null value or an unknown resource type (BROKER_LOGGER included) get
INVALID_REQUEST; TOPIC answers INVALID_TOPIC_EXCEPTION for an illegal name,
INVALID_REQUEST for "", INVALID_CONFIG for unknown keys and bad values and
UNKNOWN_TOPIC_OR_PARTITION for a missing topic. BROKER "<node id>" or ""
(cluster default) takes only dynamic settings: others get INVALID_REQUEST,
as bad values do (Kafka's KAFKA-13609 behaviour), unknown keys INVALID_CONFIG.
``validate_only`` checks everything and changes nothing. Dynamic broker
settings live in memory: they are lost when the broker restarts.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._config_resources import config_resource
from broker.handlers._configs import ResourceType, alter_resources, apply_alter
from broker.handlers.context import RequestContext
from broker.protocol.messages.alter_configs_request import AlterConfigsRequest, AlterConfigsResource
from broker.protocol.messages.alter_configs_response import AlterConfigsResourceResponse, AlterConfigsResponse

# Legacy AlterConfigs never served BROKER_LOGGER.
_TYPES = frozenset({ResourceType.TOPIC, ResourceType.BROKER, ResourceType.CLIENT_METRICS, ResourceType.GROUP})


async def _alter(ctx: RequestContext, res: AlterConfigsResource, validate_only: bool) -> None:
    impl = config_resource(res.resource_type)
    set_ = {c.name: c.value for c in res.configs}
    delete = [key for key in impl.current(ctx.services, res.resource_name) if key not in set_]
    await apply_alter(impl, ctx.services, res.resource_name, set_, delete, validate_only)  # type: ignore[arg-type]


@handler(33, min_version=0, max_version=2)
async def handle(ctx: RequestContext, req: AlterConfigsRequest) -> AlterConfigsResponse:
    responses = await alter_resources(
        req.resources,
        null_ok=lambda c: False,
        known_types=_TYPES,
        alter=lambda res: _alter(ctx, res, req.validate_only),
        answer=AlterConfigsResourceResponse,
    )
    return AlterConfigsResponse(throttle_time_ms=0, responses=responses)
