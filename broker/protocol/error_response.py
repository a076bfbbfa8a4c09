"""The error response of any API, built from its request (Kafka's ``getErrorResponse``).

When a handler fails with a :class:`~broker.protocol.errors.KafkaError`, every
entity the request named gets that error, the way each of Kafka's request
classes builds its own error response: a top-level ``error_code`` (and
``error_message``) where the response has one, and one entry per requested
topic, partition, group or resource, carrying the request's identifying fields
(name, topic id, partition index, group id, ...) and the code.

The mapping is structural, over the generated dataclasses: a response array is
paired with the request array whose elements share the most identifying field
names (``partition``, ``partition_index`` and ``index`` name the same thing),
and an array of plain names or indexes in the request fills the first field of
that type in the response entry. Handlers whose API needs something else build
their own error response instead.
"""

from __future__ import annotations

import dataclasses
import types
import typing
import uuid
from functools import cache
from typing import Any

from broker.protocol.errors import ErrorCode

__all__ = ["error_response"]

# Fields that identify an entity, copied from the request entry to its response entry.
_PARTITION_ALIASES = ("partition_index", "partition", "index", "partition_id")
_IDENTITY = frozenset(
    {
        "name",
        "topic",
        "topic_name",
        "topic_id",
        "group_id",
        "group",
        "member_id",
        "group_instance_id",
        "resource_type",
        "resource_name",
        "transactional_id",
        "key",
        "key_type",
        *_PARTITION_ALIASES,
    }
)


class _Shape(typing.NamedTuple):
    scalars: dict[str, type]  # identity field -> its type
    arrays: dict[str, type | None]  # array field -> element dataclass (None for plain values)
    plain: dict[str, type]  # array field of plain values -> the value type
    has_error: bool
    has_message: bool


@cache
def _shape(cls: type) -> _Shape:
    hints = typing.get_type_hints(cls)
    scalars: dict[str, type] = {}
    arrays: dict[str, type | None] = {}
    plain: dict[str, type] = {}
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        if typing.get_origin(hint) in (typing.Union, types.UnionType):  # nullable: X | None
            hint = next(a for a in typing.get_args(hint) if a is not type(None))
        origin = typing.get_origin(hint)
        if origin is list:
            (elem,) = typing.get_args(hint)
            if isinstance(elem, type) and dataclasses.is_dataclass(elem):
                arrays[f.name] = elem
            else:
                arrays[f.name] = None
                plain[f.name] = elem
        elif f.name in _IDENTITY:
            args = [a for a in typing.get_args(hint) if a is not type(None)] if origin is not None else [hint]
            scalars[f.name] = args[0] if args else str
    names = {f.name for f in dataclasses.fields(cls)}
    return _Shape(scalars, arrays, plain, "error_code" in names, "error_message" in names)


@cache
def _carries_error(cls: type) -> bool:
    """Whether entries of ``cls`` (or entries nested in them) have an error code."""
    shape = _shape(cls)
    return shape.has_error or any(elem is not None and _carries_error(elem) for elem in shape.arrays.values())


def _partition_field(names: typing.Iterable[str]) -> str | None:
    return next((alias for alias in _PARTITION_ALIASES if alias in names), None)


def _overlap(resp_elem: type, req_elem: type | None, req_value: type | None) -> int:
    rs = _shape(resp_elem).scalars
    if req_elem is None:
        # A plain list (names, indexes): matches a response entry with a field of that type.
        return 1 if req_value is not None and any(t is req_value for t in rs.values()) else 0
    qs = _shape(req_elem).scalars
    score = len(set(rs) & set(qs))
    if _partition_field(rs) and _partition_field(qs) and _partition_field(rs) != _partition_field(qs):
        score += 1
    return score


def _copy_identity(target: Any, source: Any, version: int) -> None:
    # Classes annotated ``type``: mypy does not see ``type[X]`` as Hashable, which @cache asks for.
    target_cls: type = type(target)
    ts = {k: v for k, v in _shape(target_cls).scalars.items() if _present(target_cls, k, version)}
    if dataclasses.is_dataclass(source):
        source_cls: type = type(source)
        ss = _shape(source_cls).scalars
        for name in ts:
            if name in ss:
                setattr(target, name, getattr(source, name))
        tp, sp = _partition_field(ts), _partition_field(ss)
        if tp and sp and tp != sp:
            setattr(target, tp, getattr(source, sp))
        return
    # A plain value from a list of names or indexes: the first field of its type.
    for name, kind in ts.items():
        if (
            kind is type(source)
            or (kind is str and isinstance(source, str))
            or (kind is uuid.UUID and isinstance(source, uuid.UUID))
        ):
            setattr(target, name, source)
            return


def _present(cls: type, name: str, version: int) -> bool:
    lo, hi = cls.FIELD_VERSIONS.get(name, (0, -1))  # type: ignore[attr-defined]
    return lo <= version <= hi


def _fill(resp: Any, req: Any, code: int, message: str | None, version: int) -> None:
    cls: type = type(resp)
    shape = _shape(cls)
    if shape.has_error and _present(cls, "error_code", version):
        resp.error_code = code
    if shape.has_message and message is not None and _present(cls, "error_message", version):
        resp.error_message = message
    if not dataclasses.is_dataclass(req):
        return
    req_cls: type = type(req)
    req_shape = _shape(req_cls)
    used: set[str] = set()
    for name, elem in shape.arrays.items():
        if elem is None or not _carries_error(elem) or not _present(cls, name, version):
            continue
        best, best_score = None, 0
        for req_name, req_elem in req_shape.arrays.items():
            if req_name in used:
                continue
            score = _overlap(elem, req_elem, req_shape.plain.get(req_name))
            if score > best_score:
                best, best_score = req_name, score
        if best is None:
            continue
        used.add(best)
        entries = []
        for item in getattr(req, best) or ():
            entry = elem()
            _copy_identity(entry, item, version)
            _fill(entry, item, code, message, version)
            entries.append(entry)
        setattr(resp, name, entries)


def error_response(
    request: Any, response_cls: type, version: int, code: ErrorCode | int, message: str | None = None
) -> Any:
    """``response_cls`` at ``version`` answering every entity of ``request`` with ``code``.

    Only fields that exist at ``version`` are set, so the response encodes there.
    """
    response = response_cls()
    _fill(response, request, int(code), message, version)
    return response
