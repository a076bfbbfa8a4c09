"""The table of ``make bench-replication-spread`` (:mod:`bench.replication_spread`) from a
results file, for docs/PERFORMANCE.md; pure, tested without brokers."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

__all__ = ["markdown", "newest", "summary"]


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    ratios = [r["ratio"] for r in rows if r.get("ratio") is not None]
    return {
        "median_ratio": round(statistics.median(ratios), 2) if ratios else None,
        "ratios": ratios,
        "rounds": len(rows),
        "failed_rounds": len(rows) - len(ratios),
    }


def _cell(side: dict[str, Any]) -> str:
    if "produce_s" in side:
        return f"{side['produce_s']:.2f}"
    return "failed"


def markdown(results: dict[str, Any]) -> str:
    """The table and its summary line, for docs/PERFORMANCE.md."""
    n = results["partitions"]
    lines = [
        f"One acks=all record to each of {n:,} new partitions ({results['when']}"
        + (f", commit {results['commit']}" if results.get("commit") else "")
        + f", `{results['command']}`)",
        "",
        "| broker, round | file system: directory + 2 files (ms) | 1 broker, RF 1 (s) | 3 brokers, RF 3 (s) | 3 brokers / 1 |",
        "|---|---|---|---|---|",
    ]
    tail = []
    for broker in ("sharebroker", "kafka"):
        rows = results.get(broker)
        if not rows:
            continue
        for i, r in enumerate(rows, 1):
            ratio = f"{r['ratio']:.2f}x" if r.get("ratio") is not None else "-"
            lines.append(
                f"| {broker} {i} | {r['fs_ms']:.2f} | {_cell(r['single'])} | {_cell(r['cluster'])} | {ratio} |"
            )
        s = summary(rows)
        median = f"{s['median_ratio']:.2f}x" if s["median_ratio"] is not None else "none measured"
        tail.append(f"{broker}: median {median} over {s['rounds'] - s['failed_rounds']} of {s['rounds']} rounds")
    return "\n".join(lines) + "\n\n" + "; ".join(tail) + ".\n"


def newest(results_dir: Path) -> Path | None:
    found = sorted(results_dir.glob("replication-spread-*.json"))
    return found[-1] if found else None
