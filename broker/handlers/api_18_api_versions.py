"""ApiVersions (key 18), v0-5.

Advertises exactly the handlers registered in :mod:`broker.handlers`, so what
we claim cannot drift from what we serve. v3+ carries the client's software
name and version, which Kafka validates (INVALID_REQUEST when malformed) and we
keep on the connection for logs. Features (:mod:`broker.metadata.features`): the
supported ranges of ``metadata.version``, ``group.version``, ``share.version``,
``streams.version`` and ``transaction.version``, and their finalized levels, which
start as a fresh Kafka 4.4 cluster has them (``share.version`` and
``transaction.version`` from their settings, 2 by default) and follow
UpdateFeatures; a feature at level 0 is not listed as finalized, as Kafka omits
features at level 0. An unknown ApiVersions version never
reaches this module: the connection layer answers it with a v0 response and
UNSUPPORTED_VERSION (KIP-511). v5 (KIP-1242) carries the cluster and node the
client expects to reach: when it names both and either is not this broker's, the
answer is REBOOTSTRAP_REQUIRED (the client was routed to the wrong broker).
During start-up, before the services exist, the finalized levels are the
settings' (what a new cluster finalizes).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from broker.config import SETTINGS_BY_KEY
from broker.handlers import HANDLERS, handler
from broker.handlers.context import RequestContext
from broker.metadata.features import FEATURES, initial_levels
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.api_versions_request import ApiVersionsRequest
from broker.protocol.messages.api_versions_response import (
    ApiVersion,
    ApiVersionsResponse,
    FinalizedFeatureKey,
    SupportedFeatureKey,
)

# Kafka's rule for ClientSoftwareName / ClientSoftwareVersion (KIP-511).
_SOFTWARE = re.compile(r"[a-zA-Z0-9](?:[a-zA-Z0-9\-.]*[a-zA-Z0-9])?")

# Produce v0-2 were removed in Kafka 4.0, yet 4.x brokers still advertise
# Produce from v0 because older librdkafka releases refuse to produce
# compressed batches to a broker that does not; requests below v3 are still
# refused (the connection is closed). We advertise the same.
_ADVERTISED_MIN = {0: 0}


def api_keys() -> list[ApiVersion]:
    return [
        ApiVersion(
            api_key=h.api_key, min_version=_ADVERTISED_MIN.get(h.api_key, h.min_version), max_version=h.max_version
        )
        for h in sorted(HANDLERS.values(), key=lambda h: h.api_key)
    ]


def _starting_setting(ctx: RequestContext, key: str) -> int:
    """A setting while the broker is starting (before the services exist): the
    connection's settings, or the settings table's default when it has none."""
    setting = ctx.connection.setting
    return int(setting(key) if setting is not None else SETTINGS_BY_KEY[key].default)


def _finalized(ctx: RequestContext) -> tuple[Mapping[str, int], int]:
    """The finalized levels and their epoch: the feature store's once the services
    exist, what a new cluster finalizes (from the settings) before."""
    features = ctx.services.features if ctx.services is not None else None
    if features is not None:
        return features.levels, features.epoch
    return initial_levels(lambda key: _starting_setting(ctx, key)), 1


@handler(18, min_version=0, max_version=5)
async def handle(ctx: RequestContext, req: ApiVersionsRequest) -> ApiVersionsResponse:
    if ctx.api_version >= 5 and req.cluster_id is not None and req.node_id >= 0:
        # The connection waits for the broker to be ready before such a request.
        services = ctx.services
        if req.cluster_id != services.cluster_id or req.node_id != services.node_id:
            return ApiVersionsResponse(error_code=ErrorCode.REBOOTSTRAP_REQUIRED, api_keys=api_keys())
    if ctx.api_version >= 3:
        name, version = req.client_software_name, req.client_software_version
        if not (_SOFTWARE.fullmatch(name) and _SOFTWARE.fullmatch(version)):
            return ApiVersionsResponse(error_code=ErrorCode.INVALID_REQUEST, api_keys=api_keys())
        ctx.connection.client_software_name = name
        ctx.connection.client_software_version = version
    levels, epoch = _finalized(ctx)
    return ApiVersionsResponse(
        error_code=0,
        api_keys=api_keys(),
        throttle_time_ms=0,
        supported_features=[
            SupportedFeatureKey(name=s.name, min_version=s.min_level, max_version=s.max_level)
            for s in FEATURES.values()
        ],
        finalized_features_epoch=epoch,
        finalized_features=[
            FinalizedFeatureKey(name=name, max_version_level=level, min_version_level=level)
            for name, level in levels.items()
            if level > 0
        ],
        zk_migration_ready=False,
    )
