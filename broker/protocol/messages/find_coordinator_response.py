# Generated from protocol/schemas/FindCoordinatorResponse.json by codegen; do not edit.
"""FindCoordinatorResponse: response, api key 10, versions 0-6."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.errors import UnsupportedFieldError
from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_nullable_string,
    read_string,
    read_unknown_tags,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_nullable_string,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "Coordinator",
    "FindCoordinatorResponse",
]
_S0 = Struct('>hi')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>i')
_S1u = _S1.unpack_from
_S1p = _S1.pack
_S2 = Struct('>ih')
_S2u = _S2.unpack_from
_S2p = _S2.pack


@dataclass(slots=True)
class Coordinator:
    """One entry per coordinator result in the response."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'key': (4, 6), 'node_id': (4, 6), 'host': (4, 6), 'port': (4, 6), 'error_code': (4, 6), 'error_message': (4, 6)}

    key: str = ''
    """Key identifying the coordinator."""

    node_id: int = 0
    """ID of the node."""

    host: str = ''
    """Hostname."""

    port: int = 0
    """Port number."""

    error_code: int = 0
    """Error code; 0 means success."""

    error_message: str | None = ''
    """Error message; null when no error occurred."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class FindCoordinatorResponse(Message):
    """FindCoordinatorResponse, api key 10."""

    API_KEY: ClassVar[int] = 10
    NAME: ClassVar[str] = 'FindCoordinatorResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 6
    FLEXIBLE_MIN: ClassVar[int | None] = 3
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (1, 6), 'error_code': (0, 3), 'error_message': (1, 3), 'node_id': (0, 3), 'host': (0, 3), 'port': (0, 3), 'coordinators': (4, 6)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    error_code: int = 0
    """Error code; 0 means success."""

    error_message: str | None = ''
    """Error message; null when no error occurred."""

    node_id: int = 0
    """ID of the node."""

    host: str = ''
    """Hostname."""

    port: int = 0
    """Port number."""

    coordinators: list[Coordinator] = field(default_factory=list)
    """One entry per coordinator result in the response."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_FindCoordinatorResponse_v0(buf, pos):
    f_error_code, f_node_id = _S0u(buf, pos)
    pos += 6
    f_host, pos = read_string(buf, pos)
    f_port = _S1u(buf, pos)[0]
    pos += 4
    return FindCoordinatorResponse(0, f_error_code, '', f_node_id, f_host, f_port, []), pos


def _d_FindCoordinatorResponse_v1(buf, pos):
    f_throttle_time_ms, f_error_code = _S2u(buf, pos)
    pos += 6
    f_error_message, pos = read_nullable_string(buf, pos)
    f_node_id = _S1u(buf, pos)[0]
    pos += 4
    f_host, pos = read_string(buf, pos)
    f_port = _S1u(buf, pos)[0]
    pos += 4
    return FindCoordinatorResponse(f_throttle_time_ms, f_error_code, f_error_message, f_node_id, f_host, f_port, []), pos


def _d_FindCoordinatorResponse_v3(buf, pos):
    f_throttle_time_ms, f_error_code = _S2u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    f_node_id = _S1u(buf, pos)[0]
    pos += 4
    f_host, pos = read_compact_string(buf, pos)
    f_port = _S1u(buf, pos)[0]
    pos += 4
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return FindCoordinatorResponse(f_throttle_time_ms, f_error_code, f_error_message, f_node_id, f_host, f_port, [], unknown), pos


def _d_Coordinator_v4(buf, pos):
    f_key, pos = read_compact_string(buf, pos)
    f_node_id = _S1u(buf, pos)[0]
    pos += 4
    f_host, pos = read_compact_string(buf, pos)
    f_port, f_error_code = _S2u(buf, pos)
    pos += 6
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return Coordinator(f_key, f_node_id, f_host, f_port, f_error_code, f_error_message, unknown), pos


def _d_FindCoordinatorResponse_v4(buf, pos):
    f_throttle_time_ms = _S1u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_coordinators = []
    append = f_coordinators.append
    for _ in range(n):
        item, pos = _d_Coordinator_v4(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return FindCoordinatorResponse(f_throttle_time_ms, 0, '', 0, '', 0, f_coordinators, unknown), pos


def _e_FindCoordinatorResponse_v0(o, out):
    out += _S0p(o.error_code, o.node_id)
    write_string(out, o.host)
    out += _S1p(o.port)
    if o.coordinators:
        raise UnsupportedFieldError('FindCoordinatorResponse v0 cannot carry a non-default Coordinators')


def _e_FindCoordinatorResponse_v1(o, out):
    out += _S2p(o.throttle_time_ms, o.error_code)
    write_nullable_string(out, o.error_message)
    out += _S1p(o.node_id)
    write_string(out, o.host)
    out += _S1p(o.port)
    if o.coordinators:
        raise UnsupportedFieldError('FindCoordinatorResponse v1 cannot carry a non-default Coordinators')


def _e_FindCoordinatorResponse_v2(o, out):
    out += _S2p(o.throttle_time_ms, o.error_code)
    write_nullable_string(out, o.error_message)
    out += _S1p(o.node_id)
    write_string(out, o.host)
    out += _S1p(o.port)
    if o.coordinators:
        raise UnsupportedFieldError('FindCoordinatorResponse v2 cannot carry a non-default Coordinators')


def _e_FindCoordinatorResponse_v3(o, out):
    out += _S2p(o.throttle_time_ms, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    out += _S1p(o.node_id)
    write_compact_string(out, o.host)
    out += _S1p(o.port)
    if o.coordinators:
        raise UnsupportedFieldError('FindCoordinatorResponse v3 cannot carry a non-default Coordinators')
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_Coordinator_v4(o, out):
    write_compact_string(out, o.key)
    out += _S1p(o.node_id)
    write_compact_string(out, o.host)
    out += _S2p(o.port, o.error_code)
    write_compact_nullable_string(out, o.error_message)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FindCoordinatorResponse_v4(o, out):
    out += _S1p(o.throttle_time_ms)
    if o.error_code != 0:
        raise UnsupportedFieldError('FindCoordinatorResponse v4 cannot carry a non-default ErrorCode')
    if o.node_id != 0:
        raise UnsupportedFieldError('FindCoordinatorResponse v4 cannot carry a non-default NodeId')
    if o.host != '':
        raise UnsupportedFieldError('FindCoordinatorResponse v4 cannot carry a non-default Host')
    if o.port != 0:
        raise UnsupportedFieldError('FindCoordinatorResponse v4 cannot carry a non-default Port')
    value = o.coordinators
    write_compact_array_len(out, value)
    for item in value:
        _e_Coordinator_v4(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FindCoordinatorResponse_v5(o, out):
    out += _S1p(o.throttle_time_ms)
    if o.error_code != 0:
        raise UnsupportedFieldError('FindCoordinatorResponse v5 cannot carry a non-default ErrorCode')
    if o.node_id != 0:
        raise UnsupportedFieldError('FindCoordinatorResponse v5 cannot carry a non-default NodeId')
    if o.host != '':
        raise UnsupportedFieldError('FindCoordinatorResponse v5 cannot carry a non-default Host')
    if o.port != 0:
        raise UnsupportedFieldError('FindCoordinatorResponse v5 cannot carry a non-default Port')
    value = o.coordinators
    write_compact_array_len(out, value)
    for item in value:
        _e_Coordinator_v4(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_FindCoordinatorResponse_v6(o, out):
    out += _S1p(o.throttle_time_ms)
    if o.error_code != 0:
        raise UnsupportedFieldError('FindCoordinatorResponse v6 cannot carry a non-default ErrorCode')
    if o.node_id != 0:
        raise UnsupportedFieldError('FindCoordinatorResponse v6 cannot carry a non-default NodeId')
    if o.host != '':
        raise UnsupportedFieldError('FindCoordinatorResponse v6 cannot carry a non-default Host')
    if o.port != 0:
        raise UnsupportedFieldError('FindCoordinatorResponse v6 cannot carry a non-default Port')
    value = o.coordinators
    write_compact_array_len(out, value)
    for item in value:
        _e_Coordinator_v4(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


FindCoordinatorResponse._DECODERS = {
    0: _d_FindCoordinatorResponse_v0,
    1: _d_FindCoordinatorResponse_v1,
    2: _d_FindCoordinatorResponse_v1,
    3: _d_FindCoordinatorResponse_v3,
    4: _d_FindCoordinatorResponse_v4,
    5: _d_FindCoordinatorResponse_v4,
    6: _d_FindCoordinatorResponse_v4,
}
FindCoordinatorResponse._ENCODERS = {
    0: _e_FindCoordinatorResponse_v0,
    1: _e_FindCoordinatorResponse_v1,
    2: _e_FindCoordinatorResponse_v2,
    3: _e_FindCoordinatorResponse_v3,
    4: _e_FindCoordinatorResponse_v4,
    5: _e_FindCoordinatorResponse_v5,
    6: _e_FindCoordinatorResponse_v6,
}
