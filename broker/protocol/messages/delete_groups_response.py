# Generated from protocol/schemas/DeleteGroupsResponse.json by codegen; do not edit.
"""DeleteGroupsResponse: response, api key 42, versions 0-3."""

from __future__ import annotations

from dataclasses import dataclass, field
from struct import Struct
from typing import ClassVar

from broker.protocol.message_base import Message
from broker.protocol.primitives import (
    read_array_len,
    read_compact_array_len,
    read_compact_nullable_string,
    read_compact_string,
    read_string,
    read_unknown_tags,
    write_array_len,
    write_compact_array_len,
    write_compact_nullable_string,
    write_compact_string,
    write_string,
    write_tagged_fields,
)

__all__ = [
    "DeletableGroupResult",
    "DeleteGroupsResponse",
]
_S0 = Struct('>i')
_S0u = _S0.unpack_from
_S0p = _S0.pack
_S1 = Struct('>h')
_S1u = _S1.unpack_from
_S1p = _S1.pack


@dataclass(slots=True)
class DeletableGroupResult:
    """Results of the deletions."""

    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'group_id': (0, 3), 'error_code': (0, 3), 'error_message': (3, 3)}

    group_id: str = ''
    """ID of the group."""

    error_code: int = 0
    """Error from the deletion; 0 when it succeeded."""

    error_message: str | None = None
    """Why the deletion failed, or null when it succeeded or there is nothing to add."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


@dataclass(slots=True)
class DeleteGroupsResponse(Message):
    """DeleteGroupsResponse, api key 42."""

    API_KEY: ClassVar[int] = 42
    NAME: ClassVar[str] = 'DeleteGroupsResponse'
    TYPE: ClassVar[str] = 'response'
    MIN_VERSION: ClassVar[int] = 0
    MAX_VERSION: ClassVar[int] = 3
    FLEXIBLE_MIN: ClassVar[int | None] = 2
    LATEST_VERSION_UNSTABLE: ClassVar[bool] = False
    FIELD_VERSIONS: ClassVar[dict[str, tuple[int, int]]] = {'throttle_time_ms': (0, 3), 'results': (0, 3)}

    throttle_time_ms: int = 0
    """Time in milliseconds the request was held back because a quota was exceeded; zero when no quota was violated."""

    results: list[DeletableGroupResult] = field(default_factory=list)
    """Results of the deletions."""

    _unknown_tagged_fields: tuple[tuple[int, bytes], ...] | list[tuple[int, bytes]] = field(
        default=(), compare=False, repr=False
    )


def _d_DeletableGroupResult_v0(buf, pos):
    f_group_id, pos = read_string(buf, pos)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    return DeletableGroupResult(f_group_id, f_error_code, None), pos


def _d_DeleteGroupsResponse_v0(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_DeletableGroupResult_v0(buf, pos)
        append(item)
    return DeleteGroupsResponse(f_throttle_time_ms, f_results), pos


def _d_DeletableGroupResult_v2(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeletableGroupResult(f_group_id, f_error_code, None, unknown), pos


def _d_DeleteGroupsResponse_v2(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_DeletableGroupResult_v2(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteGroupsResponse(f_throttle_time_ms, f_results, unknown), pos


def _d_DeletableGroupResult_v3(buf, pos):
    f_group_id, pos = read_compact_string(buf, pos)
    f_error_code = _S1u(buf, pos)[0]
    pos += 2
    f_error_message, pos = read_compact_nullable_string(buf, pos)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeletableGroupResult(f_group_id, f_error_code, f_error_message, unknown), pos


def _d_DeleteGroupsResponse_v3(buf, pos):
    f_throttle_time_ms = _S0u(buf, pos)[0]
    pos += 4
    n, pos = read_compact_array_len(buf, pos)
    f_results = []
    append = f_results.append
    for _ in range(n):
        item, pos = _d_DeletableGroupResult_v3(buf, pos)
        append(item)
    if buf[pos]:
        unknown, pos = read_unknown_tags(buf, pos)
    else:
        unknown = ()
        pos += 1
    return DeleteGroupsResponse(f_throttle_time_ms, f_results, unknown), pos


def _e_DeletableGroupResult_v0(o, out):
    write_string(out, o.group_id)
    out += _S1p(o.error_code)


def _e_DeleteGroupsResponse_v0(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.results
    write_array_len(out, value)
    for item in value:
        _e_DeletableGroupResult_v0(item, out)


def _e_DeletableGroupResult_v2(o, out):
    write_compact_string(out, o.group_id)
    out += _S1p(o.error_code)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeleteGroupsResponse_v2(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.results
    write_compact_array_len(out, value)
    for item in value:
        _e_DeletableGroupResult_v2(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeletableGroupResult_v3(o, out):
    write_compact_string(out, o.group_id)
    out += _S1p(o.error_code)
    write_compact_nullable_string(out, o.error_message)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


def _e_DeleteGroupsResponse_v3(o, out):
    out += _S0p(o.throttle_time_ms)
    value = o.results
    write_compact_array_len(out, value)
    for item in value:
        _e_DeletableGroupResult_v3(item, out)
    if o._unknown_tagged_fields:
        write_tagged_fields(out, list(o._unknown_tagged_fields))
    else:
        out.append(0)


DeleteGroupsResponse._DECODERS = {
    0: _d_DeleteGroupsResponse_v0,
    1: _d_DeleteGroupsResponse_v0,
    2: _d_DeleteGroupsResponse_v2,
    3: _d_DeleteGroupsResponse_v3,
}
DeleteGroupsResponse._ENCODERS = {
    0: _e_DeleteGroupsResponse_v0,
    1: _e_DeleteGroupsResponse_v0,
    2: _e_DeleteGroupsResponse_v2,
    3: _e_DeleteGroupsResponse_v3,
}
