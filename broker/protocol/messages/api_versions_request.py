# Generated from protocol/schemas/ApiVersionsRequest.json by codegen; do not edit.
"""ApiVersionsRequest: request, api key 18, versions 0-4."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_string,
    read_unknown_tags,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "ApiVersionsRequest",
]


@dataclass(slots=True)
class ApiVersionsRequest(Message):
    """ApiVersionsRequest, api key 18."""

    API_KEY: ClassVar[int] = 18
    NAME: ClassVar[str] = 'ApiVersionsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 4
    FLEXIBLE_MIN: ClassVar[int | None] = 3
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'client_software_name': (3, 4), 'client_software_version': (3, 4)}

    client_software_name: str = ''
    """Name of the client software."""

    client_software_version: str = ''
    """Version of the client software."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ApiVersionsRequest_v0(buf, pos):
    return ApiVersionsRequest('', ''), pos


def _d_ApiVersionsRequest_v3(buf, pos):
    f_client_software_name, pos = read_compact_string(buf, pos)
    f_client_software_version, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ApiVersionsRequest(f_client_software_name, f_client_software_version, unknown), pos


def _e_ApiVersionsRequest_v0(o, out):
    pass


def _e_ApiVersionsRequest_v3(o, out):
    write_compact_string(out, o.client_software_name)
    write_compact_string(out, o.client_software_version)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


ApiVersionsRequest._DECODERS = {
    0: _d_ApiVersionsRequest_v0,
    1: _d_ApiVersionsRequest_v0,
    2: _d_ApiVersionsRequest_v0,
    3: _d_ApiVersionsRequest_v3,
    4: _d_ApiVersionsRequest_v3,
}
ApiVersionsRequest._ENCODERS = {
    0: _e_ApiVersionsRequest_v0,
    1: _e_ApiVersionsRequest_v0,
    2: _e_ApiVersionsRequest_v0,
    3: _e_ApiVersionsRequest_v3,
    4: _e_ApiVersionsRequest_v3,
}
