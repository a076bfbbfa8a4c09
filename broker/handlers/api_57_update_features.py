"""UpdateFeatures (key 57), v0-2 (KIP-584, ``kafka-features.sh upgrade/downgrade/disable``).

Changes the finalized feature levels (:mod:`broker.metadata.features`), checked as
Kafka's controller checks them: a feature this broker does not support or a level
outside its range, a downgrade sent as an upgrade (v1+ ``UpgradeType``; v0's
``AllowDowngrade`` means a safe downgrade), an upgrade sent as a downgrade, or a
downgrade of ``metadata.version`` is INVALID_UPDATE_VERSION with Kafka's message,
and one bad update fails them all (the top-level error says which; no per-feature
results then, as Kafka answers). ``ValidateOnly`` (v1+) only checks. Applied
levels are durable (``features.json``, or etcd in a cluster, where every broker
follows them) before the answer. On success v0-1 list every feature with NONE
(and the message "NONE", as Kafka sends it); v2 has no per-feature results. ALTER on the cluster is checked by the
dispatcher (``broker.server.authz``).
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.metadata.features import SAFE_DOWNGRADE, UPGRADE, validate
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.update_features_request import UpdateFeaturesRequest
from broker.protocol.messages.update_features_response import UpdatableFeatureResult, UpdateFeaturesResponse


@handler(57, min_version=0, max_version=2)
async def handle(ctx: RequestContext, req: UpdateFeaturesRequest) -> UpdateFeaturesResponse:
    store = ctx.services.features
    assert store is not None
    updates = [
        (
            u.feature,
            u.max_version_level,
            (SAFE_DOWNGRADE if u.allow_downgrade else UPGRADE) if ctx.api_version == 0 else u.upgrade_type,
        )
        for u in req.feature_updates
    ]
    levels, error = validate(store.levels, updates, ctx.services.node_id)
    if error is None and not req.validate_only:
        try:
            await store.update(levels)
        except KafkaError as exc:
            error = exc
    if error is not None:
        message = f"The update failed for all features since the following feature had an error: {error.message}"
        return UpdateFeaturesResponse(throttle_time_ms=0, error_code=error.code, error_message=message, results=[])
    results = []
    if ctx.api_version < 2:
        results = [
            UpdatableFeatureResult(feature=name, error_code=ErrorCode.NONE, error_message="NONE")
            for name in dict.fromkeys(u.feature for u in req.feature_updates)
        ]
    return UpdateFeaturesResponse(throttle_time_ms=0, error_code=ErrorCode.NONE, error_message=None, results=results)
