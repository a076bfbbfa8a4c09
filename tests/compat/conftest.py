"""Compatibility tests against the Apache Kafka Java clients (4.4.0).

They drive ``peers/java`` (ShareTool, built by ``make compat-java``) against the
real sharebroker process. Without Java or the built jar every test here is
skipped, so the default ``make test`` needs no JVM.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JAR = ROOT / "peers" / ".cache" / "java" / "sharetool.jar"
RUN_TIMEOUT_S = 120


def _skip_reason() -> str | None:
    if shutil.which("java") is None:
        return "java is not installed"
    if not JAR.exists():
        return f"{JAR.relative_to(ROOT)} not built (make compat-java)"
    return None


def pytest_collection_modifyitems(config, items):
    reason = _skip_reason()
    for item in items:
        if "tests/compat/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.compat)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


@dataclass
class ToolRun:
    returncode: int
    lines: list[dict]
    stderr: str
    records: list[dict] = field(default_factory=list)
    summary: dict | None = None


def run_tool(*args: str, wire_log: bool = False, timeout: float = RUN_TIMEOUT_S) -> ToolRun:
    """Run ShareTool; stdout is one JSON object per line."""
    cmd = ["java", "-jar", str(JAR)] + (["--wire-log"] if wire_log else []) + list(args)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    run = ToolRun(proc.returncode, lines, proc.stderr)
    run.records = [line for line in lines if "offset" in line]
    run.summary = next((line for line in lines if line.get("summary")), None)
    return run


def check(run: ToolRun, broker=None) -> ToolRun:
    if run.returncode != 0:
        tail = broker.log_tail() if broker is not None else ""
        raise AssertionError(
            f"ShareTool exited {run.returncode}\nstdout: {run.lines}\nstderr: {run.stderr[-4000:]}\nbroker log:\n{tail}"
        )
    return run


@pytest.fixture
def names() -> tuple[str, str]:
    tag = uuid.uuid4().hex[:10]
    return f"jt-{tag}", f"jg-{tag}"
