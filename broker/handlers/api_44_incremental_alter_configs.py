"""IncrementalAlterConfigs (key 44), v0-1 (KIP-339).

Changes single keys of a config resource: SET (0), DELETE (1), and for LIST
configs APPEND (2, adds items not present yet) and SUBTRACT (3, removes
items), both starting from the resource's own value or else the config's
default. Resources go through the registry in :mod:`broker.handlers._config_resources`:
TOPIC, BROKER, CLIENT_METRICS and GROUP (32, which the share consumer uses for
``share.auto.offset.reset``). As in
Kafka (ConfigAdminManager, ConfigurationControlManager):

- a resource named twice, duplicate keys, a null value for anything but
  DELETE, or an unknown resource type: INVALID_REQUEST;
- TOPIC: an unknown key or a bad value INVALID_CONFIG naming the key
  (APPEND/SUBTRACT on a non-list key too), an illegal name
  INVALID_TOPIC_EXCEPTION, "" INVALID_REQUEST, a missing topic
  UNKNOWN_TOPIC_OR_PARTITION;
- BROKER "<node id>" or "" (cluster default): settings that are not dynamic
  and bad values get INVALID_REQUEST (Kafka's KAFKA-13609 behaviour), unknown
  keys INVALID_CONFIG, an unknown operation INVALID_REQUEST;
- DELETE of a key the resource does not set succeeds and changes nothing.

All changes to one resource apply together or not at all; ``validate_only``
checks everything and changes nothing. Dynamic broker settings live in
memory: they are lost when the broker restarts. BROKER_LOGGER (8) is not
served (INVALID_REQUEST).
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._config_resources import config_resource
from broker.handlers._configs import AlterOp, ResourceType, alter_resources, apply_alter, incremental_changes
from broker.handlers.context import RequestContext
from broker.protocol.messages.incremental_alter_configs_request import (
    AlterConfigsResource,
    IncrementalAlterConfigsRequest,
)
from broker.protocol.messages.incremental_alter_configs_response import (
    AlterConfigsResourceResponse,
    IncrementalAlterConfigsResponse,
)

_TYPES = frozenset(int(t) for t in ResourceType)


async def _alter(ctx: RequestContext, res: AlterConfigsResource, validate_only: bool) -> None:
    impl = config_resource(res.resource_type)
    ops = [(c.name, c.config_operation, c.value) for c in res.configs]
    set_, delete = incremental_changes(impl, ctx.services, res.resource_name, ops)
    await apply_alter(impl, ctx.services, res.resource_name, set_, delete, validate_only)


@handler(44, min_version=0, max_version=1)
async def handle(ctx: RequestContext, req: IncrementalAlterConfigsRequest) -> IncrementalAlterConfigsResponse:
    responses = await alter_resources(
        req.resources,
        null_ok=lambda c: c.config_operation == AlterOp.DELETE,
        known_types=_TYPES,
        alter=lambda res: _alter(ctx, res, req.validate_only),
        answer=AlterConfigsResourceResponse,
    )
    return IncrementalAlterConfigsResponse(throttle_time_ms=0, responses=responses)
