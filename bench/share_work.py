"""Share groups that share the work (``make bench-share-work``): sharebroker and Apache Kafka
4.4.0 in one run.

A share group exists so that many consumers can work through few partitions. Each row
drains a pre-filled topic with N librdkafka ShareConsumers (separate processes, implicit
acknowledgement) that spend ``work_ms`` on each record, and reports how fast the group
went against the ideal (N x 1000 / work_ms records/s) and how the records were spread over
the members.

Method, the same for every broker:

- a fresh topic (P partitions) is filled first with 100-byte records, librdkafka's default
  batching (as an application produces: stored batches of hundreds to thousands of records);
- the N consumer processes (each a clean interpreter, not forked from the benchmark
  process, which has run librdkafka clients; the objects it starts with are frozen out of
  its garbage collector: ``bench.share._member``) subscribe and join the group in the background (librdkafka
  heartbeats without being polled) but do not poll until told to: once ShareGroupDescribe
  shows every member holding its assignment, all of them start together. So no member
  drains the topic alone before the others are assigned, on either broker;
- a member's work is a sleep paced against a deadline (``work_ms`` per record on average
  however long each sleep overshoots), so one member does at most 1000 / work_ms records/s;
- the drain is timed from the start signal to the last record processed; rows without
  work are the median of three drains.

A row where some member received nothing is not a figure for N consumers; the report says
so (:func:`bench.share.spread_problem`). Every wait is bounded.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path

from bench.fetch import cpu_seconds
from bench.share import spread_problem, throughput

# Rows: (members, partitions, work ms). The grid the issue of record asks for (0, 1 and 5 ms;
# 1, 4 and 16 members; 1 and 4 partitions) and its two 2 ms rows.
GRID = [(m, p, w) for w in (0, 1, 5) for p in (1, 4) for m in (1, 4, 16)] + [(16, 4, 2), (8, 1, 2)]
# A row with work drains for about this long at the ideal rate.
DRAIN_TARGET_S = 5.0
# Records for the rows without work (a drain of a second or two).
RECORDS_NO_WORK = 300_000
# Record value size (bytes).
RECORD_SIZE = 100
# Rows without work drain in a second or two, and move by tens of percent from one drain
# to the next on this machine: each is the median of this many drains (a new topic each).
RUNS_NO_WORK = 3
# A member of a row with work does at least this share of the busiest member's records
# (the target: every member busy).
MIN_SPREAD = 0.5


def records_for(members: int, work_ms: float, no_work: int = RECORDS_NO_WORK) -> int:
    """How many records a row drains: about DRAIN_TARGET_S at the ideal rate."""
    if work_ms <= 0:
        return no_work
    return int(members * 1000 / work_ms * DRAIN_TARGET_S)


def run_row(
    bootstrap: str, members: int, partitions: int, work_ms: float, records: int, pid: int | None = None
) -> dict:
    """One row on one broker: fill, join, start together, drain; the figures and the spread
    (rows without work: the median of :data:`RUNS_NO_WORK` drains, every rate kept). With
    the broker's ``pid``, each run also gives the broker's CPU per record received over
    the drain (the members' join included): what a record costs the broker however many
    members share it."""
    runs = [
        _run(bootstrap, members, partitions, work_ms, records, pid) for _ in range(1 if work_ms > 0 else RUNS_NO_WORK)
    ]
    runs.sort(key=lambda r: (r["received"] >= r["records"], r["records_per_s"]))
    row = runs[len(runs) // 2]
    if len(runs) > 1:
        row["runs_records_per_s"] = [r["records_per_s"] for r in runs]
    row["work_ms"] = work_ms
    if work_ms > 0:
        ideal = members * 1000 / work_ms
        row["ideal_per_s"] = round(ideal)
        row["of_ideal"] = round(row["received"] / row["seconds"] / ideal, 3)
    row["problem"] = spread_problem(row)
    return row


def _run(bootstrap: str, members: int, partitions: int, work_ms: float, records: int, pid: int | None) -> dict:
    spent: list[float] = []

    @contextmanager
    def broker_cpu() -> Iterator[None]:
        start = cpu_seconds(pid) if pid else 0.0
        try:
            yield
        finally:
            if pid:
                spent.append(cpu_seconds(pid) - start)

    run = throughput(bootstrap, members, partitions, records, RECORD_SIZE, around_drain=broker_cpu, work_ms=work_ms)
    if spent:
        run["broker_cpu_us_per_record"] = round(1e6 * spent[0] / max(run["received"], 1), 2)
    return run


def spread_ok(row: dict) -> bool:
    """The target for rows with work: every member did at least half the busiest member's work."""
    spread = row["spread"]
    return spread_problem(row) is None and min(spread) >= MIN_SPREAD * max(spread)


# Another checkout's broker, run as "baseline" beside this one (``--baseline-src``).
BASELINE_SRC: Path | None = None


@contextmanager
def _broker(name: str, cpus: str | None) -> Iterator:
    from bench.peers import KafkaPeer, Sharebroker, baseline_broker

    if name == "baseline":
        if BASELINE_SRC is None:
            raise SystemExit("the 'baseline' broker needs --baseline-src")
        cls: type = baseline_broker(BASELINE_SRC)
    else:
        cls = {"sharebroker": Sharebroker, "kafka": KafkaPeer}[name]
    b = cls(cpus=cpus).start()
    try:
        yield b
    finally:
        b.stop()


def run(brokers: list[str], rows: list[tuple[int, int, float]], cpus: str | None, no_work: int) -> dict:
    results: dict = {
        "date": date.today().isoformat(),
        "machine": platform.platform(),
        "cpus": os.cpu_count(),
        "method": __doc__.split("Method, the same for every broker:")[1].split("A row where")[0].strip(),
        "brokers": {},
    }
    for name in brokers:
        out = results["brokers"][name] = []
        with _broker(name, cpus) as b:
            for members, partitions, work_ms in rows:
                row = run_row(b.bootstrap, members, partitions, work_ms, records_for(members, work_ms, no_work), b.pid)
                out.append(row)
                print(f"{name}: {describe(row)}", flush=True)
    return results


def describe(row: dict) -> str:
    name = f"{row['consumers']} on {row['partitions']}, {row['work_ms']:g} ms"
    got = f"{row['records_per_s']:,} rec/s"
    if "ideal_per_s" in row:
        got += f" ({row['of_ideal']:.0%} of {row['ideal_per_s']:,})"
    spread = row["spread"]
    text = f"{name}: {got}, members {min(spread):,}-{max(spread):,}"
    return text + (f" [{row['problem']}]" if row.get("problem") else "")


def _cell(row: dict | None) -> str:
    if row is None:
        return "-"
    if row.get("problem"):
        return f"not a {row['consumers']}-member figure: {row['problem']}"
    got = f"{row['records_per_s']:,}"
    if "of_ideal" in row:
        got += f" ({row['of_ideal']:.0%})"
    spread = row["spread"]
    return f"{got}, members {min(spread):,}-{max(spread):,}"


def _ratio(ours: dict | None, theirs: dict | None) -> str:
    if not ours or not theirs or ours.get("problem") or theirs.get("problem"):
        return "-"
    return f"{ours['records_per_s'] / theirs['records_per_s']:.2f}x"


def table(results: dict) -> str:
    """The markdown table of a run: one line per row, both brokers side by side."""
    by: dict[str, dict[tuple, dict]] = {
        name: {(r["consumers"], r["partitions"], r["work_ms"]): r for r in rows}
        for name, rows in results["brokers"].items()
    }
    ours, kafka = by.get("sharebroker", {}), by.get("kafka", {})
    keys = list(dict.fromkeys([*ours, *kafka]))
    lines = [
        "| members on partitions, work per record | ideal rec/s | sharebroker rec/s (of ideal), records per member "
        "| Kafka 4.4.0 | sharebroker / Kafka |",
        "|---|---|---|---|---|",
    ]
    for key in keys:
        m, p, w = key
        ideal = f"{round(m * 1000 / w):,}" if w > 0 else "-"
        lines.append(
            f"| {m} on {p}, {w:g} ms | {ideal} | {_cell(ours.get(key))} | {_cell(kafka.get(key))} "
            f"| {_ratio(ours.get(key), kafka.get(key))} |"
        )
    return "\n".join(lines)


def section(results_dir: Path) -> str:
    """The PERFORMANCE.md section, from the newest bench/results/share-work-<date>.json."""
    found = sorted(results_dir.glob("share-work-*.json"))
    if not found:
        return ""
    path = found[-1]
    r = json.loads(path.read_text())
    return f"""
## Share groups that share the work

`make bench-share-work` (`bench/share_work.py`), {r["date"]}, {r["machine"]}, {r["cpus"]} CPUs;
brokers on CPU 0, clients on CPU 1; raw figures in `bench/results/{path.name}`. Each row
drains a pre-filled topic (100-byte records, librdkafka's default batching) with N
librdkafka ShareConsumers (separate processes, implicit acknowledgement) that spend the
given time on each record; the ideal is N x 1000 / work ms records/s. The method:

{r["method"]}

{table(r)}

"records per member" is the fewest-most records one member processed; a row where some
member got nothing is no figure for that many members and is named so.
"""


def parse_rows(text: str) -> list[tuple[int, int, float]]:
    """``16x4x2,8x1x2``: members x partitions x work ms; ``grid``: :data:`GRID`."""
    if text == "grid":
        return list(GRID)
    out = []
    for item in text.split(","):
        m, p, w = item.split("x")
        out.append((int(m), int(p), float(w)))
    return out


def main(argv: list[str] | None = None, *, runner: Callable[..., dict] = run) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--brokers", default="sharebroker,kafka")
    parser.add_argument("--rows", default="grid", help="grid, or e.g. 16x4x2,8x1x2 (members x partitions x work ms)")
    parser.add_argument("--broker-cpus", default="0", help="taskset CPU list for the brokers ('' for none)")
    parser.add_argument("--records-no-work", type=int, default=RECORDS_NO_WORK)
    parser.add_argument("--json", help="write the results here")
    parser.add_argument(
        "--baseline-src",
        help="also run the broker of this checkout (an earlier commit) as 'baseline', before the others",
    )
    args = parser.parse_args(argv)
    global BASELINE_SRC
    if args.baseline_src:
        BASELINE_SRC = Path(args.baseline_src).resolve()
        if "baseline" not in args.brokers.split(","):
            args.brokers = "baseline," + args.brokers
    results = runner(
        [b for b in args.brokers.split(",") if b], parse_rows(args.rows), args.broker_cpus or None, args.records_no_work
    )
    print(table(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return results


if __name__ == "__main__":
    main()
