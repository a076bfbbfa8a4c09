"""GetTelemetrySubscriptions (key 71), v0 (KIP-714).

Tells a client instance which metrics to push and how often: the client metrics
subscriptions (``kafka-client-metrics.sh``) whose ``match`` selectors all match it
(client id, software name and version, source address and port, instance id),
combined as in Kafka: every metric prefix they name (one empty prefix for ``*``),
at the shortest of their intervals (5 minutes, and no metrics, when none
matches). An all-zero ``ClientInstanceId`` is given a new one. Accepted codecs
are zstd, lz4, gzip and snappy; counters go as deltas; pushes up to
``telemetry.max.bytes``. Asking again sooner than the push interval (with the
subscription unchanged) is THROTTLING_QUOTA_EXCEEDED. Differs from Kafka 4.4:
Kafka serves this API only with a client telemetry plugin configured; here the
pushed metrics always have a place to go (``/metrics``, :mod:`broker.telemetry`).
"""

from __future__ import annotations

import uuid

from broker.handlers import handler
from broker.handlers._telemetry_client import client_attributes
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.get_telemetry_subscriptions_request import GetTelemetrySubscriptionsRequest
from broker.protocol.messages.get_telemetry_subscriptions_response import GetTelemetrySubscriptionsResponse
from broker.telemetry import ACCEPTED_COMPRESSION


@handler(71, min_version=0, max_version=0)
async def handle(ctx: RequestContext, req: GetTelemetrySubscriptionsRequest) -> GetTelemetrySubscriptionsResponse:
    telemetry = ctx.services.telemetry
    assert telemetry is not None
    try:
        instance_id, sub = telemetry.get_subscription(
            req.client_instance_id, client_attributes(ctx), ctx.services.now_ms()
        )
    except KafkaError as exc:
        return GetTelemetrySubscriptionsResponse(error_code=exc.code, client_instance_id=uuid.UUID(int=0))
    return GetTelemetrySubscriptionsResponse(
        throttle_time_ms=0,
        error_code=ErrorCode.NONE,
        client_instance_id=instance_id if req.client_instance_id.int == 0 else uuid.UUID(int=0),
        subscription_id=sub.subscription_id,
        accepted_compression_types=list(ACCEPTED_COMPRESSION),
        push_interval_ms=sub.interval_ms,
        telemetry_max_bytes=telemetry.max_bytes,
        delta_temporality=True,
        requested_metrics=list(sub.metrics),
    )
