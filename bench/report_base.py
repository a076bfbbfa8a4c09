"""What a bench.compare results file holds, and how its figures are written.

The scenario names and matrices the runner (:mod:`bench.compare`) measures and the
report (:mod:`bench.report`) renders, and the small formatting rules both use.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

SCENARIOS = ("startup", "memory", "produce", "fetch", "share", "latency", "scale", "txn")
SHARE_MATRIX = ((1, 1), (4, 1), (16, 1), (1, 4), (4, 4), (16, 4))  # (consumers, partitions)
PRODUCE_PARTITIONS = (1, 8)
PRODUCE_KEYS = {1: "produce", 8: "produce_8p"}  # "produce" (1 partition) as in earlier results files
# Scenarios that start the broker and so also measure its idle RSS.
STARTED_SCENARIOS = frozenset({"produce", "share", "latency", "fetch"})


# A share-consume drain shorter than this (first to last record, rounded to 10 ms) is
# one or two polls: too short to give a rate.
MIN_TIMED_S = 0.05


# The Apache Kafka release bench.peers runs; results files name the one they measured.
KAFKA_PEER_VERSION = "4.4.0"


def kafka_version(results: dict) -> str:
    """The Kafka release a results file measured: files from before the field was
    written were taken with 4.2.2 up to 2026-11-22 and with 4.4.0 after."""
    return results.get("kafka_version") or ("4.2.2" if results.get("date", "") <= "2026-11-22" else "4.4.0")


def ran(results: dict) -> list[str]:
    """The scenarios a results file covers (files before --scenarios covered all of them,
    which were all but txn)."""
    return list(results.get("params", {}).get("scenarios") or [s for s in SCENARIOS if s != "txn"])


def value(r: dict | None, fn: Callable[[dict], Any]) -> Any:
    """``fn(r)``, or None when ``r`` lacks the figure (an older file, a failed run)."""
    if r is None:
        return None
    try:
        return fn(r)
    except (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError):
        return None


def fmt(v: float | None) -> str:
    if v is None:
        return "n/a"
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}" if abs(v) < 10 else f"{v:.1f}"


def size_label(mib: int) -> str:
    return f"{mib // 1024} GiB" if mib and mib % 1024 == 0 else f"{mib} MiB"


def ratio(v: float | None, kv: float | None) -> str:
    if v is None or not kv or kv < 0 or v < 0:
        return "n/a"
    r = v / kv
    return f"{r:.2f}x" if r >= 0.1 else f"{r:.3f}x"


def grid(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return "\n".join([*lines, *("| " + " | ".join(r) + " |" for r in rows)])
