"""ApiVersions (key 18), v0-5.

Advertises exactly the handlers registered in :mod:`broker.handlers`, so what
we claim cannot drift from what we serve. v3+ carries the client's software
name and version, which Kafka validates (INVALID_REQUEST when malformed) and we
keep on the connection for logs. Features: ``share.version`` is supported up to
2 and finalized at the broker's ``share.version`` setting (2 by default, as a
fresh Kafka 4.4 cluster has it: share groups with KIP-1191 dead-letter queues; 1
is share groups as in 4.2); ``transaction.version`` 0-2 is supported and
finalized at the ``transaction.version`` setting (2 by default, as a new Kafka
4.4 cluster: clients then use EndTxn v5 and Produce v12 with implicit partition
adds, KIP-890 part 2); a feature at level 0 is not listed as finalized, as Kafka
omits features at level 0; ``metadata.version`` is reported the way a KRaft
broker of the 4.2 line does. An unknown ApiVersions version never
reaches this module: the connection layer answers it with a v0 response and
UNSUPPORTED_VERSION (KIP-511). v5 (KIP-1242) carries the cluster and node the
client expects to reach: when it names both and either is not this broker's, the
answer is REBOOTSTRAP_REQUIRED (the client was routed to the wrong broker).
During start-up, before the services exist, the finalized ``transaction.version``
comes from the setting itself.
"""

from __future__ import annotations

import re

from broker.config import SETTINGS_BY_KEY
from broker.handlers import HANDLERS, handler
from broker.handlers.context import RequestContext
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

# (name, min, max) supported, and the finalized level, per feature.
METADATA_VERSION = 29
FEATURES = (("metadata.version", 7, METADATA_VERSION, METADATA_VERSION),)
FINALIZED_FEATURES_EPOCH = 1


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


def _share_version(ctx: RequestContext) -> int:
    """The finalized share.version: the broker's setting."""
    if ctx.services is not None:
        return int(ctx.services.config.get("share.version"))
    return _starting_setting(ctx, "share.version")


def _transaction_version(ctx: RequestContext) -> int:
    """The finalized transaction.version: the coordinator's once it exists, the setting
    before (not the coordinator's TxnConfig: that would import the transaction
    coordinator onto the path of the first answer)."""
    if ctx.services is not None:
        return ctx.services.transactions.transaction_version
    return _starting_setting(ctx, "transaction.version")


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
    features = (
        *FEATURES,
        ("share.version", 0, 2, _share_version(ctx)),
        ("transaction.version", 0, 2, _transaction_version(ctx)),
    )
    return ApiVersionsResponse(
        error_code=0,
        api_keys=api_keys(),
        throttle_time_ms=0,
        supported_features=[SupportedFeatureKey(name=n, min_version=lo, max_version=hi) for n, lo, hi, _ in features],
        finalized_features_epoch=FINALIZED_FEATURES_EPOCH,
        finalized_features=[
            FinalizedFeatureKey(name=n, max_version_level=level, min_version_level=level)
            for n, _, _, level in features
            if level > 0
        ],
        zk_migration_ready=False,
    )
