# Generated from protocol/schemas/GetTelemetrySubscriptionsRequest.json by codegen; do not edit.
"""GetTelemetrySubscriptionsRequest: request, api key 71, versions 0-0."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar
import uuid

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    UUID_ZERO,
    read_unknown_tags,
    read_uuid,
    write_tagged_fields,
    write_uuid,
)

__all__ = [
    "GetTelemetrySubscriptionsRequest",
]


@dataclass(slots=True)
class GetTelemetrySubscriptionsRequest(Message):
    """GetTelemetrySubscriptionsRequest, api key 71."""

    API_KEY: ClassVar[int] = 71
    NAME: ClassVar[str] = 'GetTelemetrySubscriptionsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 0
    FLEXIBLE_MIN: ClassVar[int | None] = 0
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'client_instance_id': (0, 0)}

    client_instance_id: uuid.UUID = UUID_ZERO
    """The client instance's id; all zeros on its first request, to be given one."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_GetTelemetrySubscriptionsRequest_v0(buf, pos):
    f_client_instance_id, pos = read_uuid(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return GetTelemetrySubscriptionsRequest(f_client_instance_id, unknown), pos


def _e_GetTelemetrySubscriptionsRequest_v0(o, out):
    write_uuid(out, o.client_instance_id)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


GetTelemetrySubscriptionsRequest._DECODERS = {
    0: _d_GetTelemetrySubscriptionsRequest_v0,
}
GetTelemetrySubscriptionsRequest._ENCODERS = {
    0: _e_GetTelemetrySubscriptionsRequest_v0,
}
