"""PushTelemetry (key 72), v0 (KIP-714).

Takes a client instance's metrics (OpenTelemetry ``MetricsData``, compressed with
an accepted codec or not) and keeps the latest value of each data point for
``/metrics`` (:mod:`broker.telemetry`), with Kafka's checks: INVALID_REQUEST for
an all-zero instance id or a push after a terminating one,
UNKNOWN_SUBSCRIPTION_ID for a subscription that changed (the client asks again),
THROTTLING_QUOTA_EXCEEDED for a push sooner than the interval,
TELEMETRY_TOO_LARGE over ``telemetry.max.bytes``, UNSUPPORTED_COMPRESSION_TYPE,
and INVALID_RECORD for a payload that does not decode.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._telemetry_client import client_attributes
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.push_telemetry_request import PushTelemetryRequest
from broker.protocol.messages.push_telemetry_response import PushTelemetryResponse


@handler(72, min_version=0, max_version=0)
async def handle(ctx: RequestContext, req: PushTelemetryRequest) -> PushTelemetryResponse:
    telemetry = ctx.services.telemetry
    assert telemetry is not None
    try:
        telemetry.push(
            req.client_instance_id,
            req.subscription_id,
            req.terminating,
            req.compression_type,
            bytes(req.metrics),
            client_attributes(ctx),
            ctx.services.now_ms(),
        )
    except KafkaError as exc:
        return PushTelemetryResponse(throttle_time_ms=0, error_code=exc.code)
    return PushTelemetryResponse(throttle_time_ms=0, error_code=ErrorCode.NONE)
