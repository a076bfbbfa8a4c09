"""The share benchmarks' own checks, without brokers: a row drained by fewer members than
it names is no figure for them, and the share-work report says so."""

from __future__ import annotations

import json

from bench import share_work
from bench.share import spread_problem
from tests.bench.test_report import _drain_row as _row


def test_the_target_spread():
    assert share_work.spread_ok(_row([2600, 2500, 2450, 2450]))
    assert not share_work.spread_ok(_row([5000, 2000, 1500, 1500]))  # one member took over half the work
    assert not share_work.spread_ok(_row([5000, 0]))


def test_the_share_work_report(tmp_path):
    rows = {
        "sharebroker": [_row([2500] * 16, seconds=5.5), _row([100_000], work_ms=0, seconds=0.5)],
        "kafka": [_row([2500] * 16, seconds=11.0), _row([100_000], work_ms=0, seconds=1)],
    }
    rows["kafka"][0]["spread"] = [10_000, 9570, 9570, 9570, 958, 430, 430, 430] + [0] * 8
    rows["kafka"][0]["problem"] = spread_problem(rows["kafka"][0])
    out = tmp_path / "share-work.json"

    def runner(brokers, grid, cpus, no_work):
        assert brokers == ["sharebroker", "kafka"] and grid == [(16, 4, 2.0), (1, 4, 0.0)]
        return {"date": "2026-11-29", "brokers": rows}

    share_work.main(["--rows", "16x4x2,1x4x0", "--json", str(out)], runner=runner)
    table = share_work.table(json.loads(out.read_text()))
    lines = {line.split("|")[1].strip(): line for line in table.splitlines()[2:]}
    assert "7,273 (91%), members 2,500-2,500" in lines["16 on 4, 2 ms"]
    assert "not a 16-member figure: drained by 8 of 16 members" in lines["16 on 4, 2 ms"]
    assert lines["16 on 4, 2 ms"].rstrip(" |").endswith("-")  # no ratio against a row that is no figure
    assert "200,000, members 100,000-100,000" in lines["1 on 4, 0 ms"] and "2.00x" in lines["1 on 4, 0 ms"]


def test_rows_per_work():
    assert share_work.records_for(16, 2) == 40_000  # 16 x 500/s for 5 s
    assert share_work.records_for(8, 2) == 20_000
    assert share_work.records_for(4, 0, no_work=1234) == 1234
    assert share_work.parse_rows("16x4x2,8x1x0.5") == [(16, 4, 2.0), (8, 1, 0.5)]
    assert (16, 4, 2) in share_work.GRID and (8, 1, 2) in share_work.GRID


def test_the_join_report():
    from bench import share_join

    results = {
        "brokers": {
            "before": {"librdkafka": {"median_s": 5.07}, "consumer": {"median_s": 5.02}},
            "sharebroker": {"librdkafka": {"median_s": 0.7}, "consumer": {"median_s": 1.13}, "java": {"median_s": 1.5}},
        }
    }
    lines = share_join.table(results).splitlines()
    assert lines[0] == "| second member | before | sharebroker |"
    assert lines[2] == "| librdkafka ShareConsumer | 5.07 s | 0.7 s |"
    assert lines[4] == "| Java KafkaShareConsumer 4.4 | - | 1.5 s |"


def test_the_sections_of_performance_md(tmp_path):
    from bench import share_join

    assert share_work.section(tmp_path) == "" and share_join.section(tmp_path) == ""
    work = {
        "date": "2026-11-29",
        "machine": "Linux-test",
        "cpus": 2,
        "method": "the method",
        "brokers": {"sharebroker": [_row([2500] * 16, seconds=5.5)], "kafka": [_row([5000] * 8 + [0] * 8, seconds=20)]},
    }
    (tmp_path / "share-work-2026-11-28.json").write_text(json.dumps({**work, "date": "old"}))
    (tmp_path / "share-work-2026-11-29.json").write_text(json.dumps(work))
    text = share_work.section(tmp_path)
    assert "2026-11-29" in text and "bench/results/share-work-2026-11-29.json" in text
    assert "| 16 on 4, 2 ms | 8,000 | 7,273 (91%), members 2,500-2,500 | not a 16-member figure" in text
    join = {
        "date": "2026-11-29",
        "machine": "Linux-test",
        "runs": 3,
        "brokers": {"sharebroker": {"java": {"median_s": 1.5}}},
    }
    (tmp_path / "share-join-2026-11-29.json").write_text(json.dumps(join))
    assert "| Java KafkaShareConsumer 4.4 | 1.5 s |" in share_join.section(tmp_path)
