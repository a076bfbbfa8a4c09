# Generated from protocol/schemas/GetTelemetrySubscriptionsResponse.json by codegen; do not edit.
"""GetTelemetrySubscriptionsResponse: response, api key 71, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct, pack, unpack_from
from typing import ClassVar
import uuid

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    check_count,
    read_compact_array_len,
    read_compact_string,
    read_unknown_tags,
    read_uuid,
    write_compact_array_len,
    write_compact_string,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "GetTelemetrySubscriptionsResponse",
]
_S0 = Struct('>ih')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>ii?')
_S2u = _S2.unpack_from
_S2p = _S2.pack
_S3 = Struct('>iiB')
_S3u = _S3.unpack_from
_S3p = _S3.pack


@dataclass(slots=True)
class GetTelemetrySubscriptionsResponse(Message):
    """GetTelemetrySubscriptionsResponse, api key 71."""

    API_KEY: ClassVar[int] = 71
    NAME: ClassVar[str] = 'GetTelemetrySubscriptionsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 0), 'error_code': (0, 0), 'client_instance_id': (0, 0), 'subscription_id': (0, 0), 'accepted_compression_types': (0, 0), 'push_interval_ms': (0, 0), 'telemetry_max_bytes': (0, 0), 'delta_temporality': (0, 0), 'requested_metrics': (0, 0)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code; 0 means success."""

    client_instance_id: uuid.UUID = UUID_ZERO
    """The id given to the client when it sent all zeros, else all zeros."""

    subscription_id: int = 0
    """Identifier of the subscriptions the client now has; it changes with them."""

    accepted_compression_types: list[int] = field(default_factory=list)
    """Compression codecs the broker takes in PushTelemetry."""

    push_interval_ms: int = 0
    """How often the client should push, in milliseconds: the shortest interval of its subscriptions."""

    telemetry_max_bytes: int = 0
    """Largest metrics payload the broker takes in PushTelemetry, in bytes."""

    delta_temporality: bool = False
    """Whether counters are to be pushed as deltas (true) or cumulative values."""

    requested_metrics: list[str] = field(default_factory=list)
    """Metric name prefixes to push: empty for none, one empty string for every metric."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_GetTelemetrySubscriptionsResponse_v0(buf, pos):
    f_throttle_time_ms, f_error_code = _S0u(buf, pos)
    pos += 6
    f_client_instance_id, pos = read_uuid(buf, pos)
    f_subscription_id = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    check_count(buf, pos, n, 1)
    f_accepted_compression_types = list(unpack_from('>%db' % n, buf, pos))
    pos += n * 1
    f_push_interval_ms, f_telemetry_max_bytes, f_delta_temporality = _S2u(buf, pos)
    pos += 9
    n, pos = read_compact_array_len(buf, pos)
    f_requested_metrics = []
    append = f_requested_metrics.append
    for _ in range(n):
        item, pos = read_compact_string(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return GetTelemetrySubscriptionsResponse(f_throttle_time_ms, f_error_code, f_client_instance_id, f_subscription_id, f_accepted_compression_types, f_push_interval_ms, f_telemetry_max_bytes, f_delta_temporality, f_requested_metrics, unknown), pos


def _e_GetTelemetrySubscriptionsResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms, o.error_code)
    write_uuid(out, o.client_instance_id)
    out += _S1p(o.subscription_id)
    value = o.accepted_compression_types
    write_compact_array_len(out, value)
    out += pack('>%db' % len(value), *value)
    out += _S3p(o.push_interval_ms, o.telemetry_max_bytes, o.delta_temporality)
    value = o.requested_metrics
    write_compact_array_len(out, value)
    for item in value:
        write_compact_string(out, item)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


GetTelemetrySubscriptionsResponse._DECODERS = {
    0: _d_GetTelemetrySubscriptionsResponse_v0,
}
GetTelemetrySubscriptionsResponse._ENCODERS = {
    0: _e_GetTelemetrySubscriptionsResponse_v0,
}
