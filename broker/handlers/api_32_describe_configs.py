"""DescribeConfigs (key 32), v1-4.

Describes config resources through the registry in :mod:`broker.handlers._config_resources`:
TOPIC (2), BROKER (4), CLIENT_METRICS (16) and GROUP (32); BROKER_LOGGER (8) gets
INVALID_REQUEST per resource. As in Kafka (ConfigHelper):

- TOPIC: every topic config with its effective value and source
  (DYNAMIC_TOPIC_CONFIG 1, DYNAMIC_BROKER_CONFIG 2, DYNAMIC_DEFAULT_BROKER_CONFIG 3,
  STATIC_BROKER_CONFIG 4, DEFAULT_CONFIG 5); an illegal name gets
  INVALID_TOPIC_EXCEPTION, an unknown topic UNKNOWN_TOPIC_OR_PARTITION.
- BROKER "<this node id>": every broker setting, read-only unless it can be
  changed dynamically, sensitive values null; BROKER "": only the
  cluster-wide dynamic defaults; another id or a non-number: INVALID_REQUEST.
- ``configuration_keys`` null or empty means every key; unknown keys are
  skipped. ``include_synonyms`` (v1+) lists the values the config would fall
  back to, most specific first; ``include_documentation`` (v3+) adds the
  documentation text where we have one; ConfigType is sent from v3.
- A resource type Kafka does not know fails the whole request: every
  resource gets INVALID_REQUEST.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._config_resources import config_resource
from broker.handlers._configs import ResourceType
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.describe_configs_request import DescribeConfigsRequest, DescribeConfigsResource
from broker.protocol.messages.describe_configs_response import (
    DescribeConfigsResourceResult,
    DescribeConfigsResponse,
    DescribeConfigsResult,
    DescribeConfigsSynonym,
)

_KNOWN_TYPES = frozenset(int(t) for t in ResourceType)


def _failed(res: DescribeConfigsResource, code: int, message: str) -> DescribeConfigsResult:
    """A resource not described: its error and no configs."""
    return DescribeConfigsResult(
        error_code=code,
        error_message=message,
        resource_type=res.resource_type,
        resource_name=res.resource_name,
        configs=[],
    )


def _describe(ctx: RequestContext, req: DescribeConfigsRequest, res: DescribeConfigsResource) -> DescribeConfigsResult:
    synonyms = req.include_synonyms
    documentation = ctx.api_version >= 3 and req.include_documentation
    try:
        rows = config_resource(res.resource_type).describe(
            ctx.services, res.resource_name, res.configuration_keys or None, synonyms, documentation
        )
    except KafkaError as exc:
        return _failed(res, exc.code, exc.message if exc.message is not None else "")
    return DescribeConfigsResult(
        error_code=ErrorCode.NONE,
        resource_type=res.resource_type,
        resource_name=res.resource_name,
        configs=[
            DescribeConfigsResourceResult(
                name=row.name,
                value=None if row.sensitive else row.value,
                read_only=row.read_only,
                config_source=int(row.source),
                is_sensitive=row.sensitive,
                synonyms=[
                    DescribeConfigsSynonym(name=s.name, value=None if row.sensitive else s.value, source=int(s.source))
                    for s in row.synonyms
                ]
                if synonyms
                else [],
                config_type=int(row.type),
                documentation=row.documentation if documentation else None,
            )
            for row in rows
        ],
    )


@handler(32, min_version=1, max_version=4)
async def handle(ctx: RequestContext, req: DescribeConfigsRequest) -> DescribeConfigsResponse:
    if any(res.resource_type not in _KNOWN_TYPES for res in req.resources):
        invalid = ErrorCode.INVALID_REQUEST
        return DescribeConfigsResponse(
            throttle_time_ms=0, results=[_failed(res, invalid, invalid.message) for res in req.resources]
        )
    return DescribeConfigsResponse(throttle_time_ms=0, results=[_describe(ctx, req, res) for res in req.resources])
