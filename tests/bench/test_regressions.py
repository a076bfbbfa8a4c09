"""bench.regressions without brokers: a stored run with a 'baseline' broker made from it."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from bench import regressions

RESULTS = Path(__file__).resolve().parents[2] / "bench" / "results" / "compare-2026-11-22.json"


def _run_with_baseline() -> dict:
    """The stored run, with its sharebroker figures copied as an earlier commit's."""
    results = json.loads(RESULTS.read_text())
    ours = next(b for b in results["brokers"] if b["broker"] == "sharebroker")
    base = copy.deepcopy(ours)
    base["broker"] = "baseline"
    results["brokers"].append(base)
    return results


def _ours(results: dict) -> dict:
    return next(b for b in results["brokers"] if b["broker"] == "sharebroker")


def test_identical_figures_are_no_regression(tmp_path):
    results = _run_with_baseline()
    rows, missing = regressions.compared_rows(results)
    assert len(rows) > 10 and not missing
    assert regressions.regressions(results) == []
    assert regressions.main([str(_write(results, tmp_path))]) == 0


def test_a_slower_rate_and_a_longer_startup_are_named(tmp_path):
    results = _run_with_baseline()
    ours = _ours(results)
    ours["produce_8p"]["records_per_s"] *= 0.90  # higher is better: 10 % worse
    ours["produce"]["records_per_s"] *= 0.97  # 3 %: within 5 %
    ours["startup"]["median_s"] *= 1.20  # lower is better: 20 % worse
    worse = {r.key: round(r.worse_pct, 1) for r in regressions.regressions(results, 5)}
    assert worse == {"produce_8p_records_per_s": 10.0, "startup": 20.0}
    assert {r.key for r in regressions.regressions(results, 25)} == set()
    assert regressions.main([str(_write(results, tmp_path)), "--tolerance", "5"]) == 1


def test_a_row_only_one_side_has_fails_the_check(tmp_path):
    results = _run_with_baseline()
    del _ours(results)["produce_8p"]
    _rows, missing = regressions.compared_rows(results)
    assert any("8 partitions" in m for m in missing), missing
    assert regressions.main([str(_write(results, tmp_path))]) == 1


def test_a_run_without_baseline_is_refused(tmp_path, capsys):
    results = json.loads(RESULTS.read_text())
    with pytest.raises(ValueError, match="--baseline-src"):
        regressions.compared_rows(results)
    assert regressions.main([str(_write(results, tmp_path))]) == 2
    assert "--baseline-src" in capsys.readouterr().err


def test_rounds_are_judged_on_their_medians(tmp_path):
    rounds = [_run_with_baseline() for _ in range(3)]
    _ours(rounds[0])["produce_8p"]["records_per_s"] *= 0.70  # one noisy round: 30 % worse
    paths = [_write(r, tmp_path, f"round{i}.json") for i, r in enumerate(rounds)]
    rows, missing = regressions.median_rows(rounds)
    assert not missing
    row = next(r for r in rows if r.key == "produce_8p_records_per_s")
    assert len(row.rounds) == 3 and row.worse_pct == 0
    assert regressions.main([str(p) for p in paths]) == 0
    _ours(rounds[1])["produce_8p"]["records_per_s"] *= 0.80  # a second round worse: the median is
    paths[1] = _write(rounds[1], tmp_path, "round1.json")
    assert regressions.main([str(p) for p in paths]) == 1
    worse = [r.key for r in regressions.median_rows(rounds)[0] if r.worse_pct > 5]
    assert worse == ["produce_8p_records_per_s"]


def test_a_row_one_round_lacks_fails_the_check(tmp_path):
    rounds = [_run_with_baseline() for _ in range(2)]
    del _ours(rounds[1])["produce_8p"]
    _rows, missing = regressions.median_rows(rounds)
    assert any("8 partitions" in m for m in missing), missing
    assert regressions.main([str(_write(r, tmp_path, f"r{i}.json")) for i, r in enumerate(rounds)]) == 1


def test_the_scale_table_rows_are_compared(tmp_path):
    results = _run_with_baseline()
    rows, missing = regressions.compared_rows(results)
    scale = {r.key: r for r in rows if r.key.startswith("scale:")}
    assert not missing
    # Every row of the page's scale table that this broker has a figure for.
    assert len(scale) >= 15, sorted(scale)
    ours = _ours(results)["scale"]
    ours["batch"][0]["ack_ms"] *= 1.5  # lower is better: 50 % worse
    ours["growth"]["steps"][-1]["share_fetch_ms"] *= 0.5  # better: not named
    worse = {r.label: round(r.worse_pct) for r in regressions.regressions(results, 5)}
    assert worse == {
        f"Scale: Accept one {ours['batch'][0]['batch_records']:,}-record range (ShareAcknowledge, median)": 50
    }
    assert regressions.main([str(_write(results, tmp_path))]) == 1


def test_a_scale_figure_of_zero_on_both_sides_is_no_regression():
    results = _run_with_baseline()
    for b in results["brokers"]:
        if b["broker"] in ("sharebroker", "baseline"):
            b["scale"]["growth"]["bytes_per_in_flight_record"] = 0.0
    row = next(r for r in regressions.compared_rows(results)[0] if "up to" in r.label and "RSS" in r.label)
    assert row.worse_pct == 0
    _ours(results)["scale"]["growth"]["bytes_per_in_flight_record"] = 12.0
    row = next(r for r in regressions.compared_rows(results)[0] if r.key == row.key)
    assert row.worse_pct == float("inf")
    assert row in regressions.regressions(results, 5)


def test_a_scale_row_only_one_side_has_fails_the_check():
    results = _run_with_baseline()
    del _ours(results)["scale"]["many"]["ack_all_ms"]
    _rows, missing = regressions.compared_rows(results)
    assert any(m.startswith("Scale: One ShareAcknowledge") for m in missing), missing


def _write(results: dict, where: Path, name: str = "run.json") -> Path:
    path = where / name
    path.write_text(json.dumps(results))
    return path
