"""Rows of one ``bench.compare`` run where this broker did worse than an earlier commit.

``python -m bench.compare --baseline-src <checkout of the earlier commit>`` runs that
commit's broker as ``baseline`` in the same run as this one (same pinning, same clients,
minutes apart), so the two can be compared row by row without another day's noise.
This module reads such a results file and lists every row of ``bench.report.METRICS``
where ``sharebroker`` is more than ``--tolerance`` percent worse than ``baseline``
(slower for rates, higher for times and memory), and exits 1 if there is one:

    python -m bench.regressions bench/results/compare-<date>.json --tolerance 5

``make bench-regressions BASE=<rev>`` checks out BASE into a temporary worktree, runs
the comparison and then this check.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

from bench.report import METRICS, _label

DEFAULT_TOLERANCE_PCT = 5.0


@dataclass(frozen=True)
class Row:
    key: str
    label: str
    unit: str
    ours: float
    baseline: float
    higher_is_better: bool

    @property
    def worse_pct(self) -> float:
        """How much worse this broker is than the baseline, in percent (negative: better)."""
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
    return rows, missing


def regressions(results: dict, tolerance_pct: float = DEFAULT_TOLERANCE_PCT) -> list[Row]:
    rows, _ = compared_rows(results)
    return [r for r in rows if r.worse_pct > tolerance_pct]


def report(results: dict, tolerance_pct: float = DEFAULT_TOLERANCE_PCT) -> str:
    rows, missing = compared_rows(results)
    lines = [
        f"baseline commit {results.get('baseline_commit') or '?'}, this broker at commit "
        f"{results.get('commit') or '?'}, started {results.get('started_utc', '?')}",
        "",
        "| row | sharebroker | baseline | worse by | within tolerance |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        ok = "yes" if r.worse_pct <= tolerance_pct else f"**no** (> {tolerance_pct:g} %)"
        lines.append(f"| {r.label} ({r.unit}) | {r.ours:g} | {r.baseline:g} | {r.worse_pct:+.1f} % | {ok} |")
    for text in missing:
        lines.append(f"| {text} | - | - | one side has no figure | **no** |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("results", type=Path, help="a bench.compare results file with a 'baseline' broker")
    parser.add_argument("--tolerance", type=float, default=DEFAULT_TOLERANCE_PCT, help="percent (default 5)")
    args = parser.parse_args(argv)
    try:
        results = json.loads(args.results.read_text())
        print(report(results, args.tolerance))
        rows, missing = compared_rows(results)
    except (OSError, ValueError) as exc:
        print(f"bench.regressions: {args.results}: {exc}", file=sys.stderr)
        return 2
    worse = [r for r in rows if r.worse_pct > args.tolerance]
    print()
    print(
        f"{len(rows)} rows compared, {len(worse)} more than {args.tolerance:g} % worse, {len(missing)} without a pair"
    )
    return 1 if worse or missing else 0


if __name__ == "__main__":
    sys.exit(main())
