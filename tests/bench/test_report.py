"""bench.report without brokers: the page rendered from stored results files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from bench import report
from bench.share import spread_problem

ROOT = Path(__file__).resolve().parents[2]
# A results file from before the per-scenario layout (the first run of 2026-11-22, 05:15 UTC).
OLD_RESULTS = Path(__file__).parent / "data" / "compare-2026-11-22-0515.json"


def _rows(doc: str) -> dict[str, list[str]]:
    """Markdown table rows by their first cell (later rows with the same label win)."""
    out = {}
    for line in doc.splitlines():
        if line.startswith("| ") and not line.startswith("| Metric") and not line.startswith("| Scale metric"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            out[f"{cells[0]} [{cells[1].split(' ')[0]}]"] = cells[2:]
    return out


def test_render_results_from_before_scenarios(tmp_path):
    """The 2026-11-22 file has no --scenarios, no 8-partition produce, no first share record."""
    path = report.render(OLD_RESULTS, tmp_path)
    doc = path.read_text()
    rows = _rows(doc)
    assert rows["Startup to first ApiVersions (median) [ms]"][:3] == ["365", "6,200", "12.0"]
    assert rows["Startup to first share record, fresh data dir (median) [ms]"][:3] == ["n/a"] * 3
    assert rows["Produce 1 KiB, acks=all, 8 partitions [MB/s]"][:3] == ["n/a"] * 3
    assert rows["Produce 1 KiB, acks=all, 1 partition [MB/s]"][:3] == ["66.5", "43.8", "108"]
    assert rows["Share latency p99.9 at 1000/s [ms]"][:2] == ["5.49", "432"]
    assert rows["Fetch 256 MiB, 1 Consumer, 1 partition [MB/s]"][:3] == ["167", "160", "166"]
    # Its hand-written observations belong to that run and come with it.
    assert "## Observations (run of 2026-11-22" in doc
    # Scale: sharebroker only, from before the heartbeat join.
    assert "## Scale: share-partitions and in-flight records (sharebroker)" in doc
    assert rows["Accept one 10,000-record range (ShareAcknowledge, median) [ms]"] == ["1.94"]
    assert "Scale was not measured on Kafka in this run" in doc
    assert path == tmp_path / "PERFORMANCE.md"


def _scale(ms: float, heap: bool) -> dict:
    many = {
        "share_partitions": 10,
        "records_per_partition": 10,
        "in_flight": 100,
        "join_ms": ms,
        "share_fetches": 1,
        "share_fetch_ms": [ms],
        "acquire_all_ms": ms,
        "ack_all_ms": ms,
        "bytes_per_in_flight_record": 100.0,
        "bytes_per_share_partition": 1000.0,
    }
    growth = {
        "step_records": 2000,
        "in_flight_end": 4005,
        "ack_5_records_ms_at_start": ms,
        "ack_5_records_ms_at_end": ms,
        "bytes_per_in_flight_record": 0.0,
        "steps": [
            {"in_flight": 2005, "share_fetch_ms": ms, "fetches": 1},
            {"in_flight": 4005, "share_fetch_ms": ms, "fetches": 1},
        ],
    }
    if heap:
        many["heap_bytes_per_in_flight_record"] = 50.0
        growth["heap_bytes_per_in_flight_record"] = 1.0
    return {
        "many": many,
        "growth": growth,
        "peak_rss_mib": 40.0,
        "batch": [{"batch_records": 10, "acquire_ms_all_fetches": ms, "ack_ms": ms}],
    }


def test_render_subset_with_scale_on_both(tmp_path):
    results = {
        "date": "2026-01-02",
        "started_utc": "2026-01-02T00:00:00+00:00",
        "command": "taskset -c 1 python -m bench.compare --scenarios produce,scale",
        "machine": {"platform": "Linux", "cpus": 2, "cpu_model": "cpu", "python": "3.11", "java": "java"},
        "client": "2.16.1",
        "params": {"scenarios": ["produce", "scale"], "records": 1000},
        "brokers": [
            {
                "broker": "sharebroker",
                "errors": {},
                "idle_rss_mib": 40.0,
                "produce_peak_rss_mib": 50.0,
                "run_peak_rss_mib": 50.0,
                "produce": {"mb_per_s": 100.0, "records_per_s": 97656},
                "produce_8p": {"mb_per_s": 120.0, "records_per_s": 117187},
                "scale": _scale(1.0, False),
            },
            {
                "broker": "kafka",
                "errors": {},
                "idle_rss_mib": 300.0,
                "produce_peak_rss_mib": 400.0,
                "run_peak_rss_mib": 400.0,
                "produce": {"mb_per_s": 50.0, "records_per_s": 48828},
                "produce_8p": {"mb_per_s": 60.0, "records_per_s": 58593},
                "scale": _scale(4.0, True),
            },
            {"broker": "tansu", "skipped": "not installed", "errors": {}},
        ],
    }
    json_path = tmp_path / "produce-scale-2026-01-02.json"
    json_path.write_text(json.dumps(results))
    doc = report.render(json_path, tmp_path).read_text()
    rows = _rows(doc)
    assert rows["Produce 1 KiB, acks=all, 8 partitions [records/s]"] == ["117,187", "58,593", "2.00x"]
    assert rows["Peak RSS during produce [MiB]"] == ["50.0", "400", "0.12x"]
    # Only the scenarios that ran get rows.
    assert not any(label.startswith(("Share consume", "Share latency", "Fetch", "Startup")) for label in rows)
    assert rows["Join: ShareGroupHeartbeat until all 10 partitions are assigned [ms]"] == ["1", "4", "0.25x"]
    # The JVM heap has no sharebroker counterpart: no ratio.
    assert rows["JVM live heap growth per in-flight record (10 share-partitions) [bytes]"] == ["n/a", "50.0", "-"]
    assert "## Scale: share-partitions and in-flight records (sharebroker and kafka)" in doc
    assert "Command: `taskset -c 1 python -m bench.compare --scenarios produce,scale`" in doc
    assert "- tansu: skipped (not installed)" in doc
    assert "Not run in this results file: startup, fetch, share, latency, txn." in doc
    assert "## Observations" not in doc


def test_the_scale_section_says_how_many_rounds_each_batch_median_took():
    results = {"brokers": [{"broker": "sharebroker", "scale": _scale(1.0, False)}]}
    results["brokers"][0]["scale"]["batch"] = [{"batch_records": 10, "acquire_ms_all_fetches": 1.0, "ack_ms": 2.0}]
    # A file from before the count was recorded ran 5 rounds.
    assert "accepted as one offset range, median of 5." in report.scale_section(results)
    results["brokers"][0]["scale"]["batch"][0]["rounds"] = 25
    assert "accepted as one offset range, median of 25." in report.scale_section(results)


def test_a_bench_txn_file_beside_the_results_gets_its_section(tmp_path):
    """A page whose results file did not run txn shows the newest bench-txn file beside it."""
    results = json.loads(OLD_RESULTS.read_text())
    (tmp_path / "compare-2026-11-22.json").write_text(json.dumps(results))
    figures = {
        "sharebroker": ({"records_per_s": 6000, "transactions_per_s": 60.0}, [150.0, 140.0, 160.0]),
        "kafka": ({"records_per_s": 2000, "transactions_per_s": 20.0}, [100.0, 120.0, 110.0]),
    }
    txn = {
        "date": "2026-11-24",
        "started_utc": "2026-11-24T03:00:00+00:00",
        "params": {"scenarios": ["txn"], "txn_records": 100_000, "txn_fetch_mib": 512},
        "brokers": [
            {
                "broker": name,
                "txn": {
                    "produce": produce,
                    "fetch": {"mb_per_s": sorted(runs)[1], "runs_mb_per_s": runs, "records": 1, "received": 1},
                },
            }
            for name, (produce, runs) in figures.items()
        ],
    }
    (tmp_path / "txn-2026-11-23.json").write_text(json.dumps(txn | {"date": "2026-11-23"}))
    (tmp_path / "txn-2026-11-24.json").write_text(json.dumps(txn))
    doc = report.render(tmp_path / "compare-2026-11-22.json", tmp_path / "docs").read_text()
    section = doc.split("## Transactions (`make bench-txn`)", 1)[1]
    assert section.startswith("\n\ntxn-2026-11-24.json, started 2026-11-24T03:00:00+00:00")
    rows = _rows(section)
    assert rows["Transactional produce 1 KiB, 100 records per transaction [records/s]"] == ["6,000", "2,000", "3.00x"]
    assert rows["Fetch read_committed 512 MiB, 1 Consumer, 1 partition [MB/s]"] == ["150", "110", "1.36x"]
    assert "sharebroker [150.0, 140.0, 160.0], kafka [100.0, 120.0, 110.0]" in section
    assert "txn: see Transactions below" in doc
    # That page's Kafka was 4.2.2; the txn run's 4.4.0.
    assert doc.startswith("# Performance: sharebroker vs Apache Kafka 4.2.2")
    assert "and Apache Kafka 4.4.0 one after the other" in section
    # Without a bench-txn file there is no section.
    for f in tmp_path.glob("txn-*.json"):
        f.unlink()
    assert "## Transactions" not in report.render(tmp_path / "compare-2026-11-22.json", tmp_path / "docs").read_text()


def test_baseline_section_keeps_the_newest_run_per_kafka_release_and_share_fill(tmp_path):
    def result(name: str, fill: int | None, rate: int) -> None:
        params = {"share_runs": 3} if fill is None else {"share_runs": 3, "share_fill_batch": fill}
        brokers = [
            {"broker": b, "share_1c1p": {"records_per_s": rate * k}}
            for b, k in (("sharebroker", 2), ("baseline", 1), ("kafka", 1))
        ]
        (tmp_path / name).write_text(json.dumps({"params": params, "brokers": brokers}))

    result("baseline-kafka-4.4.0-2026-11-23.json", None, 1_000)
    result("baseline-kafka-4.4.0-2026-11-24.json", None, 2_000)
    result("baseline-kafka-4.4.0-2026-11-24-fill1000.json", 1000, 3_000)
    doc = report.baseline_section({}, tmp_path)
    assert "2026-11-23.json" not in doc  # superseded by the newer default-fill run
    assert "baseline-kafka-4.4.0-2026-11-24.json" in doc and "with librdkafka's default batching" in doc
    assert "baseline-kafka-4.4.0-2026-11-24-fill1000.json" in doc and "in batches of exactly 1000 records" in doc
    assert "| 4,000 | 2,000 | 2,000 | 2.00x |" in doc and "| 6,000 | 3,000 | 3,000 | 2.00x |" in doc


def _drain_row(spread: list[int], *, work_ms: float = 2.0, seconds: float = 5.0) -> dict:
    total = sum(spread)
    row: dict[str, Any] = {
        "consumers": len(spread),
        "partitions": 4,
        "records": total,
        "received": total,
        "seconds": seconds,
        "records_per_s": round(total / seconds),
        "spread": spread,
        "work_ms": work_ms,
    }
    if work_ms:
        ideal = round(len(spread) * 1000 / work_ms)
        row["ideal_per_s"] = ideal
        row["of_ideal"] = round(total / seconds / ideal, 3)
    row["problem"] = spread_problem(row)
    return row


def test_a_row_drained_by_one_member_is_not_a_figure_for_many():
    lone = _drain_row([40_000] + [0] * 15)
    assert spread_problem(lone) == "drained by 1 of 16 members"
    assert report.value(lone, report._full) is None  # bench.compare shows it as n/a
    short = {**_drain_row([10, 10]), "received": 15}
    assert spread_problem(short) == "only 15 of 20 records were received"
    shared = _drain_row([2600, 2500, 2450, 2450])
    assert spread_problem(shared) is None
    assert report.value(shared, report._full) == shared["records_per_s"]


def test_the_fetch_method_says_how_soon_the_client_fetched_again(tmp_path):
    """Runs from before the drain settings say a full local queue cost a second; later
    runs name the backoff they used."""
    old = report.render(OLD_RESULTS, tmp_path).read_text()
    assert "default fetch.queue.backoff.ms of 1000" in old
    results = json.loads(OLD_RESULTS.read_text())
    for b in results["brokers"]:
        if isinstance(b.get("fetch"), dict):
            b["fetch"]["fetch_queue_backoff_ms"] = 10
    path = tmp_path / "new.json"
    path.write_text(json.dumps(results))
    new = report.render(path, tmp_path / "new").read_text()
    assert "fetch.queue.backoff.ms 10: the client fetches again" in new
    assert "default fetch.queue.backoff.ms of 1000" not in new
    assert "queried the start offset on a timer" in new
    for b in results["brokers"]:
        if isinstance(b.get("fetch"), dict):
            b["fetch"]["leader_known_before_assign"] = True
    path.write_text(json.dumps(results))
    newest = report.render(path, tmp_path / "newest").read_text()
    assert "has the partition's leader from Metadata before it" in newest


def test_the_drain_methods_say_whether_the_last_consume_waited_out_its_timeout(tmp_path):
    """Fetch and read_committed drains from before bench.fetch.drain counted the half second
    their last consume() waited after the last record: a page rendered from them says so;
    drains that asked only for what was left do not."""
    results = json.loads((ROOT / "bench" / "results" / "compare-2026-12-01.json").read_text())
    path = tmp_path / "old.json"
    path.write_text(json.dumps(results))
    old = report.render(path, tmp_path / "old").read_text()
    tail = "plus the half second the consumer's last `consume()` waited after it"
    fetch_line = next(line for line in old.splitlines() if "(`bench.fetch.fetch`)" in line)
    assert tail in fetch_line
    assert old.count(tail) == 2  # the plain fetch and the read_committed drains
    for b in results["brokers"]:
        for drain in (b.get("fetch"), (b.get("txn") or {}).get("fetch")):
            if isinstance(drain, dict):
                drain["drain_ends_at_last_record"] = True
    path.write_text(json.dumps(results))
    new = report.render(path, tmp_path / "new").read_text()
    assert tail not in new
    assert "to the last record received (`bench.fetch.fetch`); the topic is" in new


def test_the_produce_method_says_whether_the_brokers_were_warmed_up(tmp_path):
    """Runs from before the warm-up timed a cold JVM first and say nothing of one; a run in
    which every broker took it says so, and one broker without it is enough to say nothing."""
    old = report.render(OLD_RESULTS, tmp_path).read_text()
    assert "bench.compare.warm_up" not in old
    results = json.loads(OLD_RESULTS.read_text())
    ran = [b for b in results["brokers"] if not b.get("skipped")]
    assert len(ran) >= 2
    for b in ran:
        b["warm_up"] = {"produce_1p_mb_per_s": 100.0}
    path = tmp_path / "warm.json"
    path.write_text(json.dumps(results))
    assert "bench.compare.warm_up" in report.render(path, tmp_path / "warm").read_text()
    del ran[-1]["warm_up"]
    path.write_text(json.dumps(results))
    assert "bench.compare.warm_up" not in report.render(path, tmp_path / "part").read_text()


def test_the_page_says_how_busy_each_core_was_over_each_row(tmp_path):
    """A run that recorded the cores gets a table of them, the broker's core and the
    clients' core per broker; a run from before gets no such section."""
    old = report.render(OLD_RESULTS, tmp_path).read_text()
    assert "## What set the pace of each row" not in old
    results = json.loads(OLD_RESULTS.read_text())
    results["pinning"] = {"broker": "taskset -c 0", "clients": "taskset -c 1"}
    first, second = [b for b in results["brokers"] if not b.get("skipped")][:2]
    first["produce"]["cores_pct"] = {"0": {"busy": 31, "steal": 0}, "1": {"busy": 97, "steal": 2}}
    second["produce"]["cores_pct"] = {"0": {"busy": 70, "steal": 0}, "1": {"busy": 81, "steal": 0}}
    path = tmp_path / "cores.json"
    path.write_text(json.dumps(results))
    doc = report.render(path, tmp_path / "cores").read_text()
    section = doc.split("## What set the pace of each row", 1)[1].split("\n## ", 1)[0]
    assert "broker's core (core 0) and the clients' core (core 1)" in section
    assert f"| Row | {first['broker']}: broker core | {first['broker']}: client core | {second['broker']}" in section
    assert "| Produce 1 KiB, acks=all, 1 partition | 31 % | 97 % (steal 2 %) | 70 % | 81 % |" in section
    # Rows without figures on any broker are left out rather than shown as n/a.
    assert "Fetch" not in section
