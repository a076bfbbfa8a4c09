# Generated from protocol/schemas/ApiVersionsRequest.json by codegen; do not edit.
"""ApiVersionsRequest: request, api key 18, versions 0-5."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_nullable_string,
    read_compact_string,
    read_unknown_tags,
    write_compact_nullable_string,
    write_compact_string,
    write_tagged_fields,
)

__all__ = [
    "ApiVersionsRequest",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack


@dataclass(slots=True)
class ApiVersionsRequest(Message):
    """ApiVersionsRequest, api key 18."""

    API_KEY: ClassVar[int] = 18
    NAME: ClassVar[str] = 'ApiVersionsRequest'
    TYPE: ClassVar[str] = 'request'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 5
    FLEXIBLE_MIN: ClassVar[int | None] = 3
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'client_software_name': (3, 5), 'client_software_version': (3, 5), 'cluster_id': (5, 5), 'node_id': (5, 5)}

    client_software_name: str = ''
    """Name of the client software."""

    client_software_version: str = ''
    """Version of the client software."""

    cluster_id: str | None = None
    """Cluster the client expects to reach (KIP-1242); the broker checks it when NodeId is set too. Null when the client does not know it."""

    node_id: int = -1
    """Node the client expects to reach (KIP-1242), checked together with ClusterId; -1 when the client does not know it."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_ApiVersionsRequest_v0(buf, pos):
    return ApiVersionsRequest('', '', None, -1), pos


def _d_ApiVersionsRequest_v3(buf, pos):
    f_client_software_name, pos = read_compact_string(buf, pos)
    f_client_software_version, pos = read_compact_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ApiVersionsRequest(f_client_software_name, f_client_software_version, None, -1, unknown), pos


def _d_ApiVersionsRequest_v5(buf, pos):
    f_client_software_name, pos = read_compact_string(buf, pos)
    f_client_software_version, pos = read_compact_string(buf, pos)
    f_cluster_id, pos = read_compact_nullable_string(buf, pos)
    f_node_id = _S0u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return ApiVersionsRequest(f_client_software_name, f_client_software_version, f_cluster_id, f_node_id, unknown), pos


def _e_ApiVersionsRequest_v0(o, out):
    pass


def _e_ApiVersionsRequest_v3(o, out):
    write_compact_string(out, o.client_software_name)
    write_compact_string(out, o.client_software_version)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_ApiVersionsRequest_v5(o, out):
    write_compact_string(out, o.client_software_name)
    write_compact_string(out, o.client_software_version)
    write_compact_nullable_string(out, o.cluster_id)
    out += _S0p(o.node_id)
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
    5: _d_ApiVersionsRequest_v5,
}
ApiVersionsRequest._ENCODERS = {
    0: _e_ApiVersionsRequest_v0,
    1: _e_ApiVersionsRequest_v0,
    2: _e_ApiVersionsRequest_v0,
    3: _e_ApiVersionsRequest_v3,
    4: _e_ApiVersionsRequest_v3,
    5: _e_ApiVersionsRequest_v5,
}
