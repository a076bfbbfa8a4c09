"""Small schema-driven decoder for captured Kafka frames (a test tool).

Reads the message definitions in ``protocol/schemas/*.json`` and decodes a
request or response frame (header + body, no size prefix) into plain dicts.
It is deliberately independent of the broker's generated code, so the golden
frames can be used to cross-check it.
"""

from __future__ import annotations

import functools
import json
import os
import re
import struct
import uuid
from typing import Any

SCHEMA_DIR = os.path.join(os.path.dirname(__file__), "..", "..", "protocol", "schemas")


def _strip_comments(text: str) -> str:
    return "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("//"))


@functools.cache
def schemas() -> dict[tuple[int, str], dict]:
    out = {}
    for name in os.listdir(SCHEMA_DIR):
        if not name.endswith(".json"):
            continue
        with open(os.path.join(SCHEMA_DIR, name)) as f:
            spec = json.loads(_strip_comments(f.read()))
        if spec.get("type") in ("request", "response") and "apiKey" in spec:
            out[(spec["apiKey"], spec["type"])] = spec
    return out


def api_name(key: int) -> str:
    spec = schemas().get((key, "request"))
    return spec["name"][: -len("Request")] if spec else f"Api{key}"


def _in(vers: str | None, v: int) -> bool:
    if vers is None or vers == "none":
        return False
    m = re.fullmatch(r"(\d+)(\+|-(\d+))?", vers)
    if m is None:
        raise ValueError(f"not a version range: {vers!r}")
    lo = int(m.group(1))
    if m.group(2) is None:
        return v == lo
    if m.group(2) == "+":
        return v >= lo
    return lo <= v <= int(m.group(3))


class Reader:
    def __init__(self, buf: bytes, pos: int = 0):
        self.buf, self.pos = buf, pos

    def take(self, n: int) -> bytes:
        if n < 0 or self.pos + n > len(self.buf):
            raise ValueError(f"short buffer at {self.pos} (+{n})")
        b = self.buf[self.pos : self.pos + n]
        self.pos += n
        return b

    def fmt(self, f: str):
        (x,) = struct.unpack_from(f, self.buf, self.pos)
        self.pos += struct.calcsize(f)
        return x

    def uvarint(self) -> int:
        shift = x = 0
        while True:
            b = self.take(1)[0]
            x |= (b & 0x7F) << shift
            if not b & 0x80:
                return x
            shift += 7

    def tagged(self) -> dict[int, bytes]:
        out = {}
        for _ in range(self.uvarint()):
            tag = self.uvarint()
            out[tag] = self.take(self.uvarint())
        return out


_PRIM = {"int8": ">b", "int16": ">h", "uint16": ">H", "int32": ">i", "uint32": ">I", "int64": ">q", "float64": ">d"}


def _len(r: Reader, flexible: bool, int32: bool) -> int:
    if flexible:
        return r.uvarint() - 1
    return r.fmt(">i" if int32 else ">h")


def _scalar(r: Reader, typ: str, flexible: bool):
    if typ in _PRIM:
        return r.fmt(_PRIM[typ])
    if typ == "bool":
        return r.take(1) != b"\x00"
    if typ == "uuid":
        return str(uuid.UUID(bytes=r.take(16)))
    if typ == "string":
        n = _len(r, flexible, False)
        return None if n < 0 else r.take(n).decode("utf-8", "replace")
    if typ in ("bytes", "records"):
        n = _len(r, flexible, True)
        return None if n < 0 else r.take(n)
    raise ValueError(f"unknown type {typ}")


def _struct(r: Reader, fields: list, v: int, flexible: bool, common: dict) -> dict:
    out: dict[str, Any] = {}
    tagged_fields = []
    for fd in fields:
        if not _in(fd.get("versions"), v):
            continue
        if "tag" in fd and _in(fd.get("taggedVersions"), v):
            tagged_fields.append(fd)
            continue
        out[fd["name"]] = _field(r, fd, v, flexible, common)
    if flexible:
        raw = r.tagged()
        for fd in tagged_fields:
            if fd["tag"] in raw:
                out[fd["name"]] = _field(Reader(raw[fd["tag"]]), fd, v, flexible, common)
        unknown = set(raw) - {fd["tag"] for fd in tagged_fields}
        if unknown:
            out["_unknown_tags"] = sorted(unknown)
    return out


def _field(r: Reader, fd: dict, v: int, flexible: bool, common: dict):
    typ = fd["type"]
    if typ.startswith("[]"):
        n = _len(r, flexible, True)
        if n < 0:
            return None
        inner = typ[2:]
        if inner in _PRIM or inner in ("bool", "uuid", "string", "bytes", "records"):
            return [_scalar(r, inner, flexible) for _ in range(n)]
        sub = fd.get("fields") or common[inner]
        return [_struct(r, sub, v, flexible, common) for _ in range(n)]
    if typ in _PRIM or typ in ("bool", "uuid", "string", "bytes", "records"):
        return _scalar(r, typ, flexible)
    sub = fd.get("fields") or common[typ]
    # A nullable struct is prefixed by an int8 presence marker.
    if _in(fd.get("nullableVersions"), v) and r.fmt(">b") < 0:
        return None
    return _struct(r, sub, v, flexible, common)


def _spec(key: int, kind: str) -> tuple[dict, dict]:
    spec = schemas()[(key, kind)]
    common = {c["name"]: c["fields"] for c in spec.get("commonStructs", [])}
    return spec, common


def decode_request(frame: bytes) -> dict:
    r = Reader(frame)
    key, ver, corr = r.fmt(">h"), r.fmt(">h"), r.fmt(">i")
    spec, common = _spec(key, "request")
    flexible = _in(spec.get("flexibleVersions"), ver)
    client_id = _scalar(r, "string", False)
    header = {"api_key": key, "api_version": ver, "correlation_id": corr, "client_id": client_id}
    if flexible:
        header["tags"] = r.tagged()
    body = _struct(r, spec["fields"], ver, flexible, common)
    return {"header": header, "body": body, "trailing": len(frame) - r.pos}


def decode_response(frame: bytes, key: int, ver: int) -> dict:
    r = Reader(frame)
    corr = r.fmt(">i")
    spec, common = _spec(key, "response")
    flexible = _in(spec.get("flexibleVersions"), ver)
    header = {"correlation_id": corr}
    if flexible and key != 18:  # ApiVersions responses always use header v0
        header["tags"] = r.tagged()
    body = _struct(r, spec["fields"], ver, flexible, common)
    return {"header": header, "body": body, "trailing": len(frame) - r.pos}
