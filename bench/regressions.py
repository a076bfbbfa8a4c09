"""Rows of one ``bench.compare`` run where this broker did worse than an earlier commit.

``python -m bench.compare --baseline-src <checkout of the earlier commit>`` runs that
commit's broker as ``baseline`` in the same run as this one (same pinning, same clients,
minutes apart), so the two can be compared row by row without another day's noise.
This module reads such a results file and lists every row of ``bench.report.METRICS``
and of the page's scale table (``bench.report_sections.scale_rows``) where
``sharebroker`` is more than ``--tolerance`` percent worse than ``baseline`` (slower
for rates, higher for times and memory), and exits 1 if there is one:

    python -m bench.regressions bench/results/compare-<date>.json --tolerance 5

Several results files are several rounds of the same comparison: each row is then judged
on the median of its rounds on each side, which a single drain's noise on a small VM does
not move as much as one run (a row of a 2 s drain can swing by 10-40 % between runs).

``make bench-regressions BASE=<rev> [ROUNDS=3]`` checks out BASE into a temporary worktree,
runs the comparison ROUNDS times, the two brokers' order swapped each round, and then this
check over all the rounds.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

from bench.report import METRICS, _label
from bench.report_base import value
from bench.report_sections import scale_rows

DEFAULT_TOLERANCE_PCT = 5.0


@dataclass(frozen=True)
class Row:
    key: str
    label: str
    unit: str
    ours: float
    baseline: float
    higher_is_better: bool
    # With several rounds: each round's (ours, baseline); ours/baseline are their medians.
    rounds: tuple[tuple[float, float], ...] = field(default=())

    @property
    def worse_pct(self) -> float:
        """How much worse this broker is than the baseline, in percent (negative: better).
        Against a baseline of 0 (a scale row's memory growth): 0 if equal or better, else
        infinitely worse."""
        if self.baseline == 0:
            better_or_equal = self.ours >= 0 if self.higher_is_better else self.ours <= 0
            return 0.0 if better_or_equal else math.inf
        if self.higher_is_better:
            return (self.baseline - self.ours) / self.baseline * 100
        return (self.ours - self.baseline) / self.baseline * 100


def compared_rows(results: dict) -> tuple[list[Row], list[str]]:
    """Every metric both brokers have a figure for, and the labels of those one of them lacks."""
    by = {b["broker"]: b for b in results.get("brokers", []) if "skipped" not in b}
    if "sharebroker" not in by or "baseline" not in by:
        raise ValueError("the run has no 'baseline' broker: run bench.compare with --baseline-src")
    rows: list[Row] = []
    missing: list[str] = []
    for key, _scenario, label, unit, extract, higher in METRICS:
        values: list[float | None] = []
        for name in ("sharebroker", "baseline"):
            try:
                values.append(float(extract(by[name])))
            except (KeyError, TypeError, ValueError, ZeroDivisionError):
                values.append(None)
        ours, base = values
        if ours is None and base is None:
            continue  # a scenario this run did not include
        text = _label(label, results)
        if ours is None or base is None or base == 0:
            missing.append(text)
            continue
        rows.append(Row(key, text, unit, ours, base, higher))
    _scale(by["sharebroker"].get("scale"), by["baseline"].get("scale"), rows, missing)
    return rows, missing


def _scale(ours: dict | None, base: dict | None, rows: list[Row], missing: list[str]) -> None:
    """The rows of the scale table (``bench.scale``), where either side ran it. A figure of
    0 on the baseline is compared (memory growth per record is 0 on a good run)."""
    if not ours and not base:
        return
    for label, unit, fn, higher, _ratio in scale_rows(ours or base or {}):
        mine, theirs = value(ours, fn), value(base, fn)
        if mine is None and theirs is None:
            continue  # a figure only Kafka has (its heap), or one older files lack
        text = f"Scale: {label}"
        if mine is None or theirs is None:
            missing.append(text)
            continue
        rows.append(Row(f"scale:{label}", text, unit, float(mine), float(theirs), higher))


def median_rows(runs: list[dict]) -> tuple[list[Row], list[str]]:
    """Rows of several rounds, each side the median of its rounds.

    A row counts only where every round has both figures; one that a round lacks is missing,
    as it is in a single run."""
    per_run = [compared_rows(results) for results in runs]
    missing = sorted({text for _rows, lacking in per_run for text in lacking})
    by_key: dict[str, list[Row]] = {}
    for rows, _lacking in per_run:
        for row in rows:
            by_key.setdefault(row.key, []).append(row)
    merged: list[Row] = []
    for key, rows in by_key.items():
        first = rows[0]
        if len(rows) < len(runs):
            missing.append(f"{first.label} (in {len(rows)} of {len(runs)} rounds)")
            continue
        merged.append(
            Row(
                key,
                first.label,
                first.unit,
                statistics.median(r.ours for r in rows),
                statistics.median(r.baseline for r in rows),
                first.higher_is_better,
                tuple((r.ours, r.baseline) for r in rows),
            )
        )
    return merged, missing


def regressions(results: dict, tolerance_pct: float = DEFAULT_TOLERANCE_PCT) -> list[Row]:
    rows, _ = compared_rows(results)
    return [r for r in rows if r.worse_pct > tolerance_pct]


def report(results: dict | list[dict], tolerance_pct: float = DEFAULT_TOLERANCE_PCT) -> str:
    runs = results if isinstance(results, list) else [results]
    rows, missing = median_rows(runs)
    first = runs[0]
    lines = [
        f"baseline commit {first.get('baseline_commit') or '?'}, this broker at commit "
        f"{first.get('commit') or '?'}, {len(runs)} round(s) started "
        + ", ".join(str(r.get("started_utc", "?")) for r in runs),
        "",
        "| row | sharebroker | baseline | worse by | within tolerance | rounds (sharebroker / baseline) |",
        "|---|---|---|---|---|---|",
    ]
    for r in rows:
        ok = "yes" if r.worse_pct <= tolerance_pct else f"**no** (> {tolerance_pct:g} %)"
        each = ", ".join(f"{o:g} / {b:g}" for o, b in r.rounds) if len(r.rounds) > 1 else ""
        lines.append(f"| {r.label} ({r.unit}) | {r.ours:g} | {r.baseline:g} | {r.worse_pct:+.1f} % | {ok} | {each} |")
    for text in missing:
        lines.append(f"| {text} | - | - | one side has no figure | **no** | |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "results", type=Path, nargs="+", help="bench.compare results files with a 'baseline' broker (one per round)"
    )
    parser.add_argument("--tolerance", type=float, default=DEFAULT_TOLERANCE_PCT, help="percent (default 5)")
    args = parser.parse_args(argv)
    runs: list[dict] = []
    for path in args.results:
        try:
            runs.append(json.loads(path.read_text()))
            compared_rows(runs[-1])
        except (OSError, ValueError) as exc:
            print(f"bench.regressions: {path}: {exc}", file=sys.stderr)
            return 2
    print(report(runs, args.tolerance))
    rows, missing = median_rows(runs)
    worse = [r for r in rows if r.worse_pct > args.tolerance]
    print()
    print(
        f"{len(rows)} rows compared, {len(worse)} more than {args.tolerance:g} % worse, {len(missing)} without a pair"
    )
    return 1 if worse or missing else 0


if __name__ == "__main__":
    sys.exit(main())
