"""Hypothesis strategies for every generated message, built from the schema model.

``message_strategy(name, version)`` draws a valid instance of the message class
generated for schema ``name`` at ``version``: every field the version carries
gets an arbitrary value of its wire type (within range, ``None`` only where the
version allows null), every field it does not carry keeps its default, so the
instance round-trips exactly. Sizes are kept small so that hundreds of
message-versions can be exercised in seconds.

``overrides`` lets a caller replace the strategy for individual primitive
fields (the kio cross-check needs error codes from a known table, for example).
"""

from __future__ import annotations

import dataclasses
import importlib
import uuid
from collections.abc import Callable
from functools import cache
from typing import Any

from hypothesis import strategies as st

from broker.protocol.message_base import Message
from codegen.__main__ import SCHEMAS
from codegen.model import Field, load_all
from codegen.model import Message as Schema

MAX_ARRAY = 3
MAX_STRING = 8
MAX_BYTES = 16
UUID_ZERO = uuid.UUID(int=0)

INT_RANGES = {
    "int8": (-(2**7), 2**7 - 1),
    "int16": (-(2**15), 2**15 - 1),
    "uint16": (0, 2**16 - 1),
    "int32": (-(2**31), 2**31 - 1),
    "uint32": (0, 2**32 - 1),
    "int64": (-(2**63), 2**63 - 1),
}

# (schema, struct name, field, version) -> a strategy for the field's (element) value, or None
Override = Callable[[Schema, str, Field, int], "st.SearchStrategy[Any] | None"]


@cache
def schemas() -> dict[str, Schema]:
    """Schema name (e.g. ``FetchRequest``) -> parsed schema."""
    return {m.name: m for m in load_all(SCHEMAS)}


def message_versions() -> list[tuple[str, int]]:
    """Every (schema name, version) pair the registry defines."""
    return [(s.name, v) for s in schemas().values() for v in s.versions()]


def module_of(name: str):
    return importlib.import_module(f"broker.protocol.messages.{schemas()[name].module_name}")


def message_class(name: str) -> type[Message]:
    return getattr(module_of(name), name)


def struct_fields(schema: Schema, struct: str) -> list[Field]:
    return schema.fields if struct == schema.name else schema.structs[struct].fields


def known_tags(fields: list[Field]) -> set[int]:
    return {f.tag for f in fields if f.tag is not None}


def primitive(type_name: str) -> st.SearchStrategy[Any]:
    if type_name in INT_RANGES:
        lo, hi = INT_RANGES[type_name]
        return st.integers(lo, hi)
    if type_name == "bool":
        return st.booleans()
    if type_name == "float64":
        return st.floats(allow_nan=False, allow_infinity=False)
    if type_name == "string":
        return st.text(st.characters(codec="utf-8"), max_size=MAX_STRING)
    if type_name in ("bytes", "records"):
        return st.binary(max_size=MAX_BYTES)
    if type_name == "uuid":
        return st.one_of(st.just(UUID_ZERO), st.uuids())
    raise ValueError(f"no strategy for {type_name}")


def unknown_tagged_fields(fields: list[Field]) -> st.SearchStrategy[list[tuple[int, bytes]]]:
    """Tagged fields no version of this struct defines, sorted as the wire orders them."""
    taken = known_tags(fields)
    tag = st.integers(0, 300).filter(lambda t: t not in taken)
    return st.lists(st.tuples(tag, st.binary(max_size=4)), max_size=2, unique_by=lambda t: t[0]).map(sorted)


class _Builder:
    def __init__(self, schema: Schema, version: int, overrides: Override | None, unknown_tags: bool) -> None:
        self.schema = schema
        self.version = version
        self.overrides = overrides
        self.unknown_tags = unknown_tags and schema.is_flexible(version)
        self.module = module_of(schema.name)
        self._memo: dict[str, st.SearchStrategy[Any]] = {}

    def element(self, struct: str, f: Field) -> st.SearchStrategy[Any]:
        if f.is_struct:
            return self.struct(f.element_type)
        if self.overrides is not None:
            s = self.overrides(self.schema, struct, f, self.version)
            if s is not None:
                return s
        return primitive(f.element_type)

    def value(self, struct: str, f: Field) -> st.SearchStrategy[Any]:
        s = self.element(struct, f)
        if f.is_array:
            s = st.lists(s, max_size=MAX_ARRAY)
        if f.nullable_in(self.version):
            s = st.one_of(st.none(), s)
        return s

    def struct(self, name: str) -> st.SearchStrategy[Any]:
        if name not in self._memo:
            v = self.version
            fields = struct_fields(self.schema, name)
            kwargs = {f.py_name: self.value(name, f) for f in fields if f.present_in(v)}
            if self.unknown_tags:
                kwargs["_unknown_tagged_fields"] = unknown_tagged_fields(fields)
            self._memo[name] = st.builds(getattr(self.module, name), **kwargs)
        return self._memo[name]


def message_strategy(
    name: str, version: int, *, overrides: Override | None = None, unknown_tags: bool = False
) -> st.SearchStrategy[Message]:
    """Instances of schema ``name`` valid at ``version``.

    With ``unknown_tags`` every struct of a flexible version may also carry
    tagged fields the schema does not know (kept in ``_unknown_tagged_fields``).
    """
    schema = schemas()[name]
    if version not in schema.valid:
        raise ValueError(f"{name} has no version {version}")
    return _Builder(schema, version, overrides, unknown_tags).struct(name)


def normalise(value: Any) -> Any:
    """A plain, comparable form of a decoded or generated value.

    Dataclasses become ``(class name, {field: value})`` including unknown tagged
    fields (which the dataclasses themselves leave out of ``==``); records
    (memoryviews) become bytes; lists become lists.
    """
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out = {}
        for f in dataclasses.fields(value):
            v = getattr(value, f.name)
            out[f.name] = [(t, bytes(p)) for t, p in v] if f.name == "_unknown_tagged_fields" else normalise(v)
        return type(value).__name__, out
    if isinstance(value, (list, tuple)):
        return [normalise(x) for x in value]
    if isinstance(value, (memoryview, bytearray)):
        return bytes(value)
    return value


__all__ = [
    "INT_RANGES",
    "MAX_ARRAY",
    "UUID_ZERO",
    "Override",
    "known_tags",
    "message_class",
    "message_strategy",
    "message_versions",
    "module_of",
    "normalise",
    "primitive",
    "schemas",
    "struct_fields",
]
