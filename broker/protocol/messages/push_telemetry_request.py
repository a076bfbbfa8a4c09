# Generated from protocol/schemas/PushTelemetryRequest.json by codegen; do not edit.
"""PushTelemetryRequest: request, api key 72, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
import uuid

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    read_compact_bytes,
    read_unknown_tags,
    read_uuid,
    write_compact_bytes,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "PushTelemetryRequest",
]
_S0 = Struct('>i?b')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>iBb')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class PushTelemetryRequest(Message):
    """PushTelemetryRequest, api key 72."""

    API_KEY: ClassVar[int] = 72
    NAME: ClassVar[str] = 'PushTelemetryRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'client_instance_id': (0, 0), 'subscription_id': (0, 0), 'terminating': (0, 0), 'compression_type': (0, 0), 'metrics': (0, 0)}

    client_instance_id: uuid.UUID = UUID_ZERO
    """The client instance's id."""

    subscription_id: int = 0
    """Identifier of the subscriptions the metrics answer."""

    terminating: bool = False
    """Whether this is the client's last push before it closes."""

    compression_type: int = 0
    """Codec the metrics are compressed with (0 none)."""

    metrics: bytes = b''
    """The metrics, an OpenTelemetry MetricsData v1 protobuf message."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_PushTelemetryRequest_v0(buf, pos):
    f_client_instance_id, pos = read_uuid(buf, pos)
    f_subscription_id, f_terminating, f_compression_type = _S0u(buf, pos)
    pos += 6
    f_metrics, pos = read_compact_bytes(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return PushTelemetryRequest(f_client_instance_id, f_subscription_id, f_terminating, f_compression_type, f_metrics, unknown), pos


def _e_PushTelemetryRequest_v0(o, out):
    write_uuid(out, o.client_instance_id)
    out += _S1p(o.subscription_id, o.terminating, o.compression_type)
    write_compact_bytes(out, o.metrics)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


PushTelemetryRequest._DECODERS = {
    0: _d_PushTelemetryRequest_v0,
}
PushTelemetryRequest._ENCODERS = {
    0: _e_PushTelemetryRequest_v0,
}
