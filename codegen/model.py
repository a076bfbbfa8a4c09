"""A typed model of Kafka-format message schemas.

Reads ``protocol/schemas/*.json`` (JSON with ``//`` line comments) into plain
dataclasses and answers the questions the code generator asks: is field F
present / nullable / tagged in version V, what is its default, which structs
does a message define.
"""

from __future__ import annotations

import json
import keyword
import re
from dataclasses import dataclass, field
from pathlib import Path

PRIMITIVES = frozenset(
    {"bool", "int8", "int16", "uint16", "int32", "uint32", "int64", "float64", "string", "bytes", "records", "uuid"}
)

_COMMENT = re.compile(r"^\s*//.*$", re.M)


@dataclass(frozen=True)
class Versions:
    """An inclusive version range; ``none`` is represented by lo > hi."""

    lo: int
    hi: int

    @classmethod
    def parse(cls, text: str | None, default: Versions | None = None) -> Versions:
        if text is None:
            if default is None:
                raise ValueError("missing versions")
            return default
        text = text.strip()
        if text == "none":
            return cls(1, 0)
        if text.endswith("+"):
            return cls(int(text[:-1]), 0x7FFF)
        if "-" in text:
            lo, hi = text.split("-")
            return cls(int(lo), int(hi))
        return cls(int(text), int(text))

    def __contains__(self, v: int) -> bool:
        return self.lo <= v <= self.hi

    @property
    def empty(self) -> bool:
        return self.lo > self.hi


def snake_case(name: str) -> str:
    s = re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name)
    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\1_\2", s)
    s = s.lower()
    if keyword.iskeyword(s):
        s += "_"
    return s


@dataclass
class Field:
    name: str
    type: str
    versions: Versions
    nullable: Versions
    tagged: Versions
    tag: int | None
    default: str | None
    ignorable: bool
    flexible_override: Versions | None
    about: str
    fields: list[Field] | None  # inline struct definition, if any

    @property
    def py_name(self) -> str:
        return snake_case(self.name)

    @property
    def is_array(self) -> bool:
        return self.type.startswith("[]")

    @property
    def element_type(self) -> str:
        return self.type[2:] if self.is_array else self.type

    @property
    def is_struct(self) -> bool:
        """The field (or its array elements) is a struct."""
        return self.element_type not in PRIMITIVES

    def present_in(self, v: int) -> bool:
        return v in self.versions

    def tagged_in(self, v: int) -> bool:
        return self.tag_in(v) is not None

    def tag_in(self, v: int) -> int | None:
        """The field's tag in version ``v``; None where it is not a tagged field."""
        return self.tag if v in self.tagged else None

    def nullable_in(self, v: int) -> bool:
        return v in self.nullable


@dataclass
class Struct:
    name: str
    fields: list[Field]
    versions: Versions  # the versions in which this struct can appear


@dataclass
class Message:
    name: str
    type: str
    api_key: int | None
    valid: Versions
    flexible: Versions
    latest_unstable: bool
    fields: list[Field]
    common_structs: list[Struct]
    source: str
    structs: dict[str, Struct] = field(default_factory=dict)

    @property
    def module_name(self) -> str:
        return snake_case(self.name)

    def versions(self) -> range:
        return range(self.valid.lo, self.valid.hi + 1)

    def is_flexible(self, v: int) -> bool:
        return v in self.flexible


def _parse_field(raw: dict, parent_versions: Versions) -> Field:
    tagged = Versions.parse(raw.get("taggedVersions"), Versions(1, 0))
    # Kafka lets a tagged-only field leave out "versions": it exists exactly where it is tagged
    # (TransactionLogValue's PreviousProducerId, for one).
    versions = Versions.parse(raw.get("versions"), tagged if "taggedVersions" in raw else None)
    flex = raw.get("flexibleVersions")
    sub = raw.get("fields")
    default = raw.get("default")
    if isinstance(default, bool):  # JSON true/false -> the schema's string form
        default = "true" if default else "false"
    elif default is not None:
        default = str(default)
    return Field(
        name=raw["name"],
        type=raw["type"],
        versions=versions,
        nullable=Versions.parse(raw.get("nullableVersions"), Versions(1, 0)),
        tagged=tagged,
        tag=raw.get("tag"),
        default=default,
        ignorable=bool(raw.get("ignorable", False)),
        flexible_override=Versions.parse(flex) if flex is not None else None,
        about=raw.get("about", ""),
        fields=[_parse_field(f, versions) for f in sub] if sub is not None else None,
    )


def load_message(path: Path) -> Message:
    text = _COMMENT.sub("", path.read_text())
    raw = json.loads(text)
    valid = Versions.parse(raw["validVersions"])
    msg = Message(
        name=raw["name"],
        type=raw["type"],
        api_key=raw.get("apiKey"),
        valid=valid,
        flexible=Versions.parse(raw.get("flexibleVersions", "none")),
        latest_unstable=bool(raw.get("latestVersionUnstable", False)),
        fields=[_parse_field(f, valid) for f in raw["fields"]],
        common_structs=[
            Struct(s["name"], [_parse_field(f, valid) for f in s["fields"]], Versions.parse(s.get("versions"), valid))
            for s in raw.get("commonStructs", [])
        ],
        source=path.name,
    )
    _collect_structs(msg)
    return msg


def _collect_structs(msg: Message) -> None:
    for s in msg.common_structs:
        msg.structs[s.name] = s

    def walk(fields: list[Field]) -> None:
        for f in fields:
            if f.fields is not None:
                name = f.element_type
                if name in msg.structs:
                    raise ValueError(f"{msg.source}: struct {name} defined twice")
                msg.structs[name] = Struct(name, f.fields, f.versions)
                walk(f.fields)
            elif (
                f.is_struct
                and f.element_type not in msg.structs
                and not any(s.name == f.element_type for s in msg.common_structs)
            ):
                raise ValueError(f"{msg.source}: field {f.name} refers to unknown struct {f.element_type}")

    for s in msg.common_structs:
        walk(s.fields)
    walk(msg.fields)
    if msg.name in msg.structs:
        raise ValueError(f"{msg.source}: struct name clashes with the message name")


def load_all(schema_dir: Path) -> list[Message]:
    return [load_message(p) for p in sorted(schema_dir.glob("*.json"))]
