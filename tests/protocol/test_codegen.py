"""The code generator: its output is current and deterministic, and its schema model is right."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from broker.protocol.messages import SCHEMA_MODULES
from codegen.__main__ import OUT, ROOT, SCHEMAS, generate, main
from codegen.model import Versions, load_all, load_message, snake_case
from tests.protocol.strategies import message_class, schemas

# --- the checked-in code -----------------------------------------------------------------


def test_checked_in_code_matches_the_generator() -> None:
    files = generate()
    stale = sorted(p.name for p in OUT.glob("*.py") if p not in files)
    assert not stale, f"generated modules without a schema: {stale}"
    differ = sorted(p.name for p, text in files.items() if not p.exists() or p.read_text() != text)
    assert not differ, f"out of date (run `python -m codegen`): {differ}"


def test_check_mode_reports_current(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--check"]) == 0
    assert capsys.readouterr().err == ""


def test_one_module_per_schema() -> None:
    files = generate()
    modules = {p.stem for p in files} - {"__init__"}
    assert modules == set(SCHEMA_MODULES) == {m.module_name for m in load_all(SCHEMAS)}
    assert all(p.parent == OUT for p in files)


def _digest(files: dict[Path, str]) -> str:
    h = hashlib.sha256()
    for p in sorted(files):
        h.update(str(p.relative_to(ROOT)).encode() + b"\0" + files[p].encode() + b"\0")
    return h.hexdigest()


def test_generator_is_deterministic_across_runs_and_hash_seeds() -> None:
    here = _digest(generate())
    assert _digest(generate()) == here
    script = (
        "import hashlib, sys\n"
        "from codegen.__main__ import ROOT, generate\n"
        "files = generate()\n"
        "h = hashlib.sha256()\n"
        "for p in sorted(files):\n"
        "    h.update(str(p.relative_to(ROOT)).encode() + b'\\0' + files[p].encode() + b'\\0')\n"
        "print(h.hexdigest())\n"
    )
    for seed in ("1", "12345"):
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)}
        out = subprocess.run(
            [sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True, check=True
        )
        assert out.stdout.strip() == here, f"output differs under PYTHONHASHSEED={seed}"


# --- generated classes agree with the schemas ---------------------------------------------


@pytest.mark.parametrize("name", sorted(SCHEMA_MODULES.values()))
def test_generated_class_matches_schema(name: str) -> None:
    schema = schemas()[name]
    cls = message_class(name)
    assert cls.NAME == schema.name
    assert (cls.MIN_VERSION, cls.MAX_VERSION) == (schema.valid.lo, schema.valid.hi)
    assert cls.API_KEY == (schema.api_key if schema.api_key is not None else -1)
    flexible = [v for v in schema.versions() if schema.is_flexible(v)]
    assert cls.FLEXIBLE_MIN == (flexible[0] if flexible else None)
    assert all(cls.is_flexible(v) == schema.is_flexible(v) for v in schema.versions())
    assert sorted(cls._DECODERS) == sorted(cls._ENCODERS) == list(schema.versions())
    assert dataclasses.is_dataclass(cls)
    names = [f.name for f in dataclasses.fields(cls)]
    assert names == [f.py_name for f in schema.fields] + ["_unknown_tagged_fields"]
    cls().encode(schema.valid.hi)  # every default instance is encodable at the latest version


# --- the schema model ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "lo", "hi"),
    [("0+", 0, 0x7FFF), ("1-3", 1, 3), ("2", 2, 2), (" 4+ ", 4, 0x7FFF), ("0-0", 0, 0)],
)
def test_versions_parse(text: str, lo: int, hi: int) -> None:
    v = Versions.parse(text)
    assert (v.lo, v.hi) == (lo, hi)
    assert not v.empty
    assert lo in v and hi in v and lo - 1 not in v and hi + 1 not in v


def test_versions_none_is_empty() -> None:
    v = Versions.parse("none")
    assert v.empty
    assert not any(i in v for i in range(-1, 100))


def test_versions_default() -> None:
    d = Versions(3, 5)
    assert Versions.parse(None, d) is d
    with pytest.raises(ValueError):
        Versions.parse(None)


@pytest.mark.parametrize(
    ("name", "snake"),
    [
        ("ThrottleTimeMs", "throttle_time_ms"),
        ("ISRNodes", "isr_nodes"),
        ("TopicID", "topic_id"),
        ("validateOnly", "validate_only"),
        ("Enable2Pc", "enable2_pc"),
        ("KRaftVersion", "k_raft_version"),
        ("ApiVersionsRequest", "api_versions_request"),
        ("Committed", "committed"),
        ("From", "from_"),
        ("Class", "class_"),
    ],
)
def test_snake_case(name: str, snake: str) -> None:
    assert snake_case(name) == snake


_SCHEMA = """// Licensed to nobody; a test schema.
// Comments on their own lines are stripped.
{
  "apiKey": 999,
  "type": "request",
  "name": "WidgetRequest",
  "validVersions": "0-3",
  "flexibleVersions": "2+",
  "fields": [
    {"name": "GroupId", "type": "string", "versions": "0+", "nullableVersions": "1+", "about": "g"},
    {"name": "Timeout", "type": "int32", "versions": "1+", "default": "-1", "ignorable": true, "about": "t"},
    {"name": "Extra", "type": "bool", "versions": "3+", "taggedVersions": "3+", "tag": 0, "default": true},
    {"name": "Parts", "type": "[]Part", "versions": "0+", "about": "p", "fields": [
      {"name": "Index", "type": "int32", "versions": "0+"},
      {"name": "Owner", "type": "Owner", "versions": "2+"}
    ]}
  ],
  "commonStructs": [
    {"name": "Owner", "versions": "0+", "fields": [{"name": "Id", "type": "uuid", "versions": "0+"}]}
  ]
}
"""


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "WidgetRequest.json"
    p.write_text(text)
    return p


def test_load_message(tmp_path: Path) -> None:
    m = load_message(_write(tmp_path, _SCHEMA))
    assert (m.name, m.type, m.api_key, m.module_name) == ("WidgetRequest", "request", 999, "widget_request")
    assert list(m.versions()) == [0, 1, 2, 3]
    assert [m.is_flexible(v) for v in range(4)] == [False, False, True, True]
    group, timeout, extra, parts = m.fields
    assert group.py_name == "group_id" and not group.nullable_in(0) and group.nullable_in(1)
    assert not timeout.present_in(0) and timeout.present_in(3) and timeout.ignorable and timeout.default == "-1"
    assert extra.tagged_in(3) and not extra.tagged_in(2) and extra.tag == 0 and extra.default == "true"
    assert parts.is_array and parts.is_struct and parts.element_type == "Part"
    assert not group.is_struct and not group.is_array
    assert set(m.structs) == {"Part", "Owner"}
    assert [f.name for f in m.structs["Part"].fields] == ["Index", "Owner"]
    assert m.structs["Part"].fields[1].is_struct


def test_tagged_field_without_versions_exists_where_it_is_tagged(tmp_path: Path) -> None:
    raw = json.loads("\n".join(x for x in _SCHEMA.splitlines() if not x.startswith("//")))
    raw["fields"].append({"name": "Hint", "type": "int64", "taggedVersions": "2+", "tag": 1, "default": -1})
    hint = load_message(_write(tmp_path, json.dumps(raw))).fields[-1]
    assert (hint.versions.lo, hint.versions.hi) == (2, 0x7FFF)
    assert not hint.present_in(1) and hint.present_in(2) and hint.tagged_in(3) and hint.default == "-1"


def test_field_without_versions_or_tag_is_refused(tmp_path: Path) -> None:
    raw = json.loads("\n".join(x for x in _SCHEMA.splitlines() if not x.startswith("//")))
    raw["fields"].append({"name": "Loose", "type": "int8"})
    with pytest.raises(ValueError, match="missing versions"):
        load_message(_write(tmp_path, json.dumps(raw)))


def test_struct_defined_twice_is_refused(tmp_path: Path) -> None:
    raw = json.loads("\n".join(x for x in _SCHEMA.splitlines() if not x.startswith("//")))
    raw["fields"].append(
        {
            "name": "More",
            "type": "[]Part",
            "versions": "0+",
            "fields": [{"name": "X", "type": "int8", "versions": "0+"}],
        }
    )
    with pytest.raises(ValueError, match="defined twice"):
        load_message(_write(tmp_path, json.dumps(raw)))


def test_unknown_struct_is_refused(tmp_path: Path) -> None:
    raw = json.loads("\n".join(x for x in _SCHEMA.splitlines() if not x.startswith("//")))
    raw["fields"].append({"name": "Bad", "type": "Nowhere", "versions": "0+"})
    with pytest.raises(ValueError, match="unknown struct"):
        load_message(_write(tmp_path, json.dumps(raw)))


def test_every_schema_loads_and_names_are_unique() -> None:
    messages = load_all(SCHEMAS)
    assert len(messages) == len({m.name for m in messages}) == len({m.module_name for m in messages})
    for m in messages:
        assert m.source == f"{m.name}.json"
        assert not m.valid.empty
        for s in [m.name, *m.structs]:
            fields = m.fields if s == m.name else m.structs[s].fields
            py = [f.py_name for f in fields]
            assert len(py) == len(set(py)), f"{m.name}.{s}: duplicate field names {py}"
            assert "_unknown_tagged_fields" not in py
            tags = [f.tag for f in fields if f.tag is not None]
            assert len(tags) == len(set(tags)), f"{m.name}.{s}: duplicate tags"
