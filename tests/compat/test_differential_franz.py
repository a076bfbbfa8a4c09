"""Differential tests with franz-go (v1.22.2) as the share consumer: Kafka 4.4.0 vs sharebroker.

``peers/franz/sharecli`` (``make franz-tool``) is a small kgo share-group consumer printing one
JSON line per delivered record. The peer start/stop fixtures, ``compare`` and the scenario
helpers come from ``tests/compat/test_differential.py`` and ``differential.py``. Skipped without
Go, the built tool, or the Kafka peer. Differences: docs/COMPAT.md ("franz-go in the differential tests").
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.compat import differential as d
from tests.compat.test_differential import compare, kafka, sb  # noqa: F401 - fixtures
from tests.integration.clients import produce
from tests.integration.wire import WireClient

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "peers" / ".cache" / "franz" / "sharecli"

pytestmark = [
    pytest.mark.compat,
    pytest.mark.skipif(shutil.which("go") is None, reason="go is not installed"),
    pytest.mark.skipif(not TOOL.exists(), reason="peers/.cache/franz/sharecli not built (make franz-tool)"),
]


def franz(bootstrap: str, topic: str, group: str, n: int, *extra: str, timeout_ms: int = 30000) -> tuple[list, dict]:
    proc = subprocess.run(
        [
            str(TOOL),
            "consume",
            "--seeds",
            bootstrap,
            "--topic",
            topic,
            "--group",
            group,
            "--max",
            str(n),
            "--timeout-ms",
            str(timeout_ms),
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=timeout_ms / 1000 + 30,
    )
    lines = [json.loads(x) for x in proc.stdout.splitlines() if x.startswith("{")]
    assert proc.returncode == 0, (proc.returncode, lines, proc.stderr[-3000:])
    summary = next(x for x in lines if x.get("summary"))
    return [x for x in lines if "offset" in x], summary


def sc_franz_consume_all(bootstrap: str) -> dict:
    """Implicit acks: 20 records, each delivered once with count 1; nothing comes back afterwards."""
    topic, group = d.new_topic_and_group(bootstrap)
    produce(bootstrap, topic, [b"v-%d" % i for i in range(20)])
    recs, summary = franz(bootstrap, topic, group, 20)
    more, _ = franz(bootstrap, topic, group, 1, timeout_ms=3000)
    with WireClient(bootstrap) as w:
        state = d.wait_state(w, group, "Empty")
    return {
        "records": sorted((r["offset"], r["deliveryCount"], r["value"]) for r in recs),
        "timed_out": summary["timedOut"],
        "error": summary.get("error") or summary.get("flushError"),
        "redelivered_after_accept": len(more),
        "state_after_close": state,
    }


def sc_franz_release_redelivery(bootstrap: str) -> dict:
    """Release the first 3 of 10; they come back with delivery count 2 and are accepted."""
    topic, group = d.new_topic_and_group(bootstrap)
    produce(bootstrap, topic, [b"v-%d" % i for i in range(10)])
    recs, summary = franz(bootstrap, topic, group, 13, "--release-first", "3")
    more, _ = franz(bootstrap, topic, group, 1, timeout_ms=3000)
    return {
        "records": sorted((r["offset"], r["deliveryCount"], r["ack"]) for r in recs),
        "timed_out": summary["timedOut"],
        "error": summary.get("error") or summary.get("flushError"),
        "redelivered_after_accept": len(more),
    }


def test_franz_consume_all(kafka, sb):  # noqa: F811
    k, _ = compare("franz_consume_all", sc_franz_consume_all, kafka, sb)
    assert k["records"] == sorted((i, 1, f"v-{i}") for i in range(20))
    assert k["redelivered_after_accept"] == 0


def test_franz_release_redelivery(kafka, sb):  # noqa: F811
    k, _ = compare("franz_release_redelivery", sc_franz_release_redelivery, kafka, sb)
    assert [r for r in k["records"] if r[1] == 2] == [(i, 2, "accept") for i in range(3)]
    assert len(k["records"]) == 13
