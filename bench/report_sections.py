"""The sections of docs/PERFORMANCE.md beside its main table.

The scale section comes from the page's own results file; the others from the newest
results file of their own target beside it (``make bench-cluster``,
``bench-replication``, ``bench-share-extensions``, and ``bench.compare --baseline-src``
runs), and are left out when there is none.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Callable
from functools import partial
from pathlib import Path

from bench.peers import ROOT
from bench.report_base import SHARE_MATRIX, fmt, grid, ratio, value


def _acquire_all(s: dict) -> float:
    m = s["many"]
    if "acquire_all_ms" in m:
        return m["acquire_all_ms"]
    # Older results files: the sum of the ShareFetch round trips, if they held every record.
    if m["in_flight"] < m["share_partitions"] * m["records_per_partition"]:
        raise ValueError("incomplete")
    return round(sum(m["share_fetch_ms"]), 1)


def _step_median(s: dict) -> float:
    return statistics.median(st["share_fetch_ms"] for st in s["growth"]["steps"])


def _batch(s: dict, n: int, key: str) -> float:
    return next(b[key] for b in s["batch"] if b["batch_records"] == n)


# (label, unit, extractor over a broker's "scale" dict, higher is better, ratio wanted)
_ScaleRow = tuple[str, str, Callable[[dict], float], bool, bool]


def _of(phase: str, key: str) -> Callable[[dict], float]:
    """The extractor of figure ``key`` of a scale phase ("many" or "growth")."""
    return lambda s: s[phase][key]


def _lower(label: str, unit: str, fn: Callable[[dict], float], ratio: bool = True) -> _ScaleRow:
    """A row where lower is better (every scale figure is a time, a count or a size)."""
    return (label, unit, fn, False, ratio)


def scale_rows(ref: dict) -> list[_ScaleRow]:
    """The rows of the scale table: see _ScaleRow."""
    return _many_rows(ref.get("many", {})) + _batch_rows(ref.get("batch", [])) + _growth_rows(ref.get("growth", {}))


def _many_rows(m: dict) -> list[_ScaleRow]:
    parts = m.get("share_partitions", 1000)
    records = parts * m.get("records_per_partition", 10)
    many = partial(_of, "many")
    return [
        _lower(f"Join: ShareGroupHeartbeat until all {parts:,} partitions are assigned", "ms", many("join_ms")),
        _lower(f"First ShareFetch over the {parts:,} share-partitions", "ms", lambda s: s["many"]["share_fetch_ms"][0]),
        _lower(f"ShareFetch requests until all {records:,} records are held", "requests", many("share_fetches")),
        _lower(f"Time until all {records:,} records are held", "ms", _acquire_all),
        _lower(f"One ShareAcknowledge accepting all {parts:,} share-partitions", "ms", many("ack_all_ms")),
        _lower(
            f"RSS growth per in-flight record ({parts:,} share-partitions)",
            "bytes",
            many("bytes_per_in_flight_record"),
        ),
        _lower("RSS growth per share-partition", "bytes", many("bytes_per_share_partition")),
        _lower(
            f"JVM live heap growth per in-flight record ({parts:,} share-partitions)",
            "bytes",
            many("heap_bytes_per_in_flight_record"),
            ratio=False,
        ),
    ]


def _batch_rows(batches: list[dict]) -> list[_ScaleRow]:
    rows: list[_ScaleRow] = []
    for b in batches:
        n = b["batch_records"]
        rows.append(
            _lower(
                f"Acquire one {n:,}-record batch (ShareFetch, median)",
                "ms",
                partial(_batch, n=n, key="acquire_ms_all_fetches"),
            )
        )
        rows.append(
            _lower(
                f"Accept one {n:,}-record range (ShareAcknowledge, median)", "ms", partial(_batch, n=n, key="ack_ms")
            )
        )
    return rows


def _growth_rows(g: dict) -> list[_ScaleRow]:
    step = g.get("step_records", 2000)
    end = g.get("in_flight_end", 0)
    growth = partial(_of, "growth")
    return [
        _lower(
            f"ShareFetch of a {step:,}-record batch, first step ({step:,} in flight)",
            "ms",
            lambda s: s["growth"]["steps"][0]["share_fetch_ms"],
        ),
        _lower(f"ShareFetch of a {step:,}-record batch, median over all steps", "ms", _step_median),
        _lower(
            f"ShareFetch of a {step:,}-record batch, last step ({end:,} in flight)",
            "ms",
            lambda s: s["growth"]["steps"][-1]["share_fetch_ms"],
        ),
        _lower("Accept 5 records with 5 in flight", "ms", growth("ack_5_records_ms_at_start")),
        _lower(f"Accept 5 records with {end:,} in flight", "ms", growth("ack_5_records_ms_at_end")),
        _lower(
            f"RSS growth per in-flight record (up to {end:,} in flight)", "bytes", growth("bytes_per_in_flight_record")
        ),
        _lower(
            f"JVM live heap growth per in-flight record (up to {end:,} in flight)",
            "bytes",
            growth("heap_bytes_per_in_flight_record"),
            ratio=False,
        ),
        _lower("Peak RSS over the scale scenarios", "MiB", lambda s: s["peak_rss_mib"]),
    ]


def _steps_line(name: str, g: dict) -> str:
    steps = g.get("steps") or []
    if not steps:
        return f"{name}: no steps"
    pick = steps[max(len(steps) // 10, 1) - 1 :: max(len(steps) // 10, 1)]
    return f"{name}: " + ", ".join(f"{s['in_flight'] / 1000:.0f}k: {s['share_fetch_ms']}" for s in pick)


def scale_section(results: dict) -> str:
    brokers = [b for b in results["brokers"] if b.get("scale")]
    if not brokers:
        return ""
    ref = brokers[0]["scale"]
    kafka = next((b for b in brokers if b["broker"] == "kafka"), None)
    others = [b for b in brokers if b["broker"] != "kafka"]
    header = [
        "Scale metric",
        "Unit",
        *(b["broker"] for b in brokers),
        *(f"{b['broker']} / kafka" for b in others if kafka),
    ]
    rows = []
    for label, unit, fn, higher, wanted in scale_rows(ref):
        vals = [value(b["scale"], fn) for b in brokers]
        if all(v is None for v in vals):
            continue
        kv = value(kafka["scale"], fn) if kafka else None
        arrow = "higher is better" if higher else "lower is better"
        ratios = [(ratio(value(b["scale"], fn), kv) if wanted else "-") for b in others] if kafka else []
        rows.append([label, f"{unit} ({arrow})", *(fmt(v) for v in vals), *ratios])
    m, g = ref.get("many", {}), ref.get("growth", {})
    # Older results files ran 5 rounds per batch size and did not say so.
    rounds = (ref.get("batch") or [{}])[0].get("rounds", 5)
    settings = ref.get("settings")
    limits = (
        f"Run with `{', '.join(f'{k}={v}' for k, v in settings.items())}`."
        if settings
        else """Both brokers run with their defaults, including at most
2,000 in-flight records per share-partition (`group.share.partition.max.record.locks`:
Kafka 4.2 does not allow changing it at run time), so every batch fits within it."""
    )
    who = " and ".join(b["broker"] for b in brokers)
    steps = "\n".join(f"  - {_steps_line(b['broker'], b['scale'].get('growth', {}))}" for b in brokers)
    if "join_ms" in m:
        join = """Each
member first joins its share group with ShareGroupHeartbeat (a client-generated member id,
then heartbeats at the interval the broker asks for); Kafka initialises share-group
state for the assigned partitions asynchronously, so the join waits until the
assignment covers every partition and fetches repeat (bounded) until the records
come."""
        growth = f"""one member, one share session; a
  {g.get("step_records", 0):,}-record batch is appended to the next partition and acquired, nothing
  acked, up to {g.get("in_flight_end", 0):,} records in flight; 5 records of another partition
  are accepted at the start and at the end."""
    else:  # results files from before the heartbeat join
        join = """Members
sent ShareFetch without joining through ShareGroupHeartbeat (which Kafka requires, so
only sharebroker was measured)."""
        growth = f"""{g.get("step_records", 0):,}-record batches, one per
  partition, each acquired by one ShareFetch of a new member, nothing acked, up to
  {g.get("in_flight_end", 0):,} records in flight; 5 records are accepted at the start and at the end."""
    return f"""## Scale: share-partitions and in-flight records ({who})

`bench/scale.py`: raw ShareFetch / ShareAcknowledge requests (the integration tests'
wire client) against a freshly started broker on CPU 0. {limits} {join}
Single runs, times in ms, each phase inside the 30 s acquisition lock.

- **Many share-partitions**: 1 topic of {m.get("share_partitions", 0):,} partitions,
  {m.get("records_per_partition", "n/a")} records each written as one batch; one member acquires every
  record and acknowledges nothing until one ShareAcknowledge accepts them all.
- **Batch-level ranges**: one stored batch of N records acquired (record-limit mode,
  repeated until held) and accepted as one offset range, median of {rounds}.
- **Growing in-flight count**: {growth}
- RSS growth is measured at page granularity. For Kafka the JVM's RSS mostly tracks
  the heap it has already reserved, so the live heap after a full GC (`jcmd GC.run`,
  `GC.heap_info`) is recorded as well; there is no sharebroker counterpart to it,
  hence no ratio.

{grid(header, rows)}

ShareFetch ms per step of the growth phase, by records in flight:
{steps}
"""


def cluster_section(results_dir: Path | None = None) -> str:
    """The cluster-scaling section, from the newest ``make bench-cluster`` results
    (bench/results/cluster-scale-<date>.json); empty when there are none."""
    found = sorted((results_dir or ROOT / "bench" / "results").glob("cluster-scale-*.json"))
    if not found:
        return ""
    r = json.loads(found[-1].read_text())
    one, same, each = r["1-broker"], r["2-broker-same-core"], r["2-broker-core-each"]
    return f"""
## Cluster: produce with 2 brokers against 1 (`make bench-cluster`)

{found[-1].name}: one librdkafka producer, {r["records"]:,} records of 1 KiB, acks=all,
{r["partitions"]} partitions (leaders spread: 4 per broker with 2 brokers), etcd on
loopback; the client pinned to CPU 1 as in bench-compare, etcd on CPU 1; median of
{r["runs"]} runs (all runs in brackets). Measured in one run on this 2-core machine.

| layout | MB/s | vs 1 broker |
|---|---|---|
| 1 broker (CPU 0) | {one["mb_per_s"]} {one["all"]} | 1.00x |
| 2 brokers, both on CPU 0 | {same["mb_per_s"]} {same["all"]} | {r["ratio-same-core"]:.2f}x |
| 2 brokers, one per core (CPU 0; CPU 1 beside the client) | {each["mb_per_s"]} {each["all"]} | {r["ratio-core-each"]:.2f}x |

Two brokers on one core split that core, so the first 2-broker row is what running as
a cluster costs; the second gives each broker a core (the second shared with the
client), as far as a 2-core machine can show what a second machine would bring.
""" + (f"\n{r['note']}\n" if r.get("note") else "")


def replication_section(results_dir: Path | None = None) -> str:
    """The replication section, from the newest ``make bench-replication`` results
    (bench/results/replication-<date>.json, not ``make bench-replication-spread``'s);
    empty when there are none."""
    found = sorted((results_dir or ROOT / "bench" / "results").glob("replication-[0-9]*.json"))
    if not found:
        return ""
    r = json.loads(found[-1].read_text())
    sb, k = r["sharebroker"], r["kafka"]
    return f"""
## Replication: 3 brokers, replication factor 3, against Kafka (`make bench-replication`)

{found[-1].name}: three sharebroker brokers with etcd against three Apache Kafka 4.4.0
KRaft nodes (broker and controller each), one after the other in the same run, on
loopback. Topics of {r["partitions"]} partitions, replication factor {r["replication_factor"]},
min.insync.replicas {r["min_insync_replicas"]}; both clusters with broker.session.timeout.ms
{r["session"]["broker.session.timeout.ms"]} and broker.heartbeat.interval.ms
{r["session"]["broker.heartbeat.interval.ms"]}. Nothing pinned: brokers and client share the
{r["cpus"]} cores.

| figure | sharebroker | Kafka 4.4.0 | sharebroker / Kafka |
|---|---|---|---|
| produce, librdkafka idempotent, acks=all, 1 KiB ({r["records"]:,} records; median, all runs in brackets) | {sb["produce_mb_per_s"]} MB/s {sb["produce_all"]} | {k["produce_mb_per_s"]} MB/s {k["produce_all"]} | {r["ratio_produce"]:.2f}x |
| kill -9 of a partition leader to the first acknowledged produce to it (median; max; all rounds) | {sb["failover_median_s"]} s; {sb["failover_max_s"]} s {sb["failover_all"]} | {k["failover_median_s"]} s; {k["failover_max_s"]} s {k["failover_all"]} | {r["ratio_failover_median"]:.2f}x (lower is better) |

sharebroker's followers fsync what they fetched before their next fetch reports it, so
acks=all there means on disk on every in-sync replica; Kafka's followers do not fsync.
Both notice a killed broker when its session ends (3 s here): most of either failover
time is that wait.
""" + (f"\n{r['note']}\n" if r.get("note") else "")


def share_extensions_section(results_dir: Path | None = None) -> str:
    """Redelivery backoff and per-key ordering against Kafka, from
    bench/results/share_extensions.json (``make bench-share-extensions``)."""
    path = (results_dir or ROOT / "bench" / "results") / "share_extensions.json"
    if not path.exists():
        return ""
    r = json.loads(path.read_text())
    kafka = f"Kafka {r.get('kafka', '4.4.0')}"

    def who(row: dict) -> str:
        return kafka if row["broker"] == "kafka" else row["broker"]

    def ms(v: float) -> str:
        return f"{v:.1f} ms" if v < 10 else f"{v:.0f} ms"

    backoff = []
    for row in r["backoff"]:
        delay = f"{row['delay_ms']} ms" if row["delay_ms"] else "none"
        if row["broker"] == "kafka":
            delay = "none (not configurable)"
        backoff.append(
            f"| {who(row)} | {delay} | {row['releases_per_s']:,.0f} | {row['early']} | {ms(row['error_p50_ms'])} "
            f"| {ms(row['error_p99_ms'])} | {ms(row['error_max_ms'])} |"
        )
    ordering = []
    plain = next(
        (row["records_per_s"] for row in r["ordering"] if row["broker"] != "kafka" and not row["ordered"]), None
    )
    for row in r["ordering"]:
        mode = "(not available)" if row["broker"] == "kafka" else ("on" if row["ordered"] else "off")
        rate = f"{row['records_per_s']:,.0f}"
        if row["broker"] != "kafka" and row["ordered"] and plain:
            rate += f" ({(row['records_per_s'] / plain - 1) * 100:+.0f} %)"
        redeliveries = row["deliveries"] - row["delivered"]
        ordering.append(
            f"| {who(row)} | {mode} | {rate} | {row['out_of_order']} | {row['overlapping_in_flight']} | {redeliveries} |"
        )
    first = r["ordering"][0]
    nl = "\n"
    return f"""
## Share-group extensions

`make bench-share-extensions` (`bench/share_extensions.py`): sharebroker and Apache
{kafka} in the same run, brokers on CPU 0, clients on CPU 1, confluent-kafka share
consumers. Results in `bench/results/share_extensions.json`, run started {r.get("started", "?")}.{
        (" " + r["note"]) if r.get("note") else ""
    }

**Redelivery backoff** (`share.redelivery.backoff.ms`, multiplier 1): {r["records"]:,} records arrive
at 1,000/s; each is released on its first delivery and accepted when it comes back.
*early*: redelivered before the configured delay had passed since the release was
handed to the client (must be 0). *error*: time from the release's answer to the
redelivery, minus the delay. Kafka has no backoff: its row is the redelivery latency a
consumer sees there.

| broker | delay | releases/s | early | error p50 | error p99 | max |
|---|---|---|---|---|---|---|
{nl.join(backoff)}

**Per-key ordering** (`share.key.ordering.enable`): {first["consumers"]} consumers on 1 partition, {first["keys"]}
keys, {first["records"]:,} records, 0-4 ms of work per record, at most 10 records a poll, explicit
acknowledgement. *overlapping*: a record handed out while an earlier record of its key
was not yet accepted (two in flight at once).

| broker | ordering | records/s | out of order | overlapping | redeliveries |
|---|---|---|---|---|---|
{nl.join(ordering)}

The cost of ordering is the wait for the previous record of a key to be durably
accepted before the next one goes out. Kafka's rate here is its share-fetch path with
{first["consumers"]} consumers contending for one partition (records are not spread over them as
finely), not an ordering guarantee: nothing stops it handing out two records of a key
at once.
"""


BASELINE_ROWS = [
    ("Produce 1 KiB, acks=all, 1 partition (MB/s)", "produce", "mb_per_s"),
    ("Produce 1 KiB, acks=all, 8 partitions (MB/s)", "produce_8p", "mb_per_s"),
    *(
        (
            f"Share consume, {c} consumer{'s' if c > 1 else ''}, {p} partition{'s' if p > 1 else ''} (records/s)",
            f"share_{c}c{p}p",
            "records_per_s",
        )
        for c, p in SHARE_MATRIX
    ),
]


def fill_phrase(fill_batch: int) -> str:
    """How the share rows were pre-filled (``--share-fill-batch``), as the page says it."""
    return f"in batches of exactly {fill_batch} records" if fill_batch > 0 else "with librdkafka's default batching"


def baseline_section(page: dict, results_dir: Path | None = None) -> str:
    """Same-run ratios of this broker and of an earlier checkout (``--baseline-src``)
    to Kafka, beside the ratios of the page's own run, from the newest
    bench/results/baseline-kafka-<version>-<date>[-<tag>].json of each Kafka release and
    share pre-fill (``--share-fill-batch``)."""
    newest: dict[tuple[str, int], tuple[Path, dict]] = {}
    for path in sorted((results_dir or ROOT / "bench" / "results").glob("baseline-kafka-*.json")):
        r = json.loads(path.read_text())
        newest[(path.name.split("-")[2], int(r.get("params", {}).get("share_fill_batch", 0)))] = (path, r)
    if not newest:
        return ""
    page_brokers = {b["broker"]: b for b in page.get("brokers", [])}

    def rate(b: dict | None, key: str, field: str) -> float | None:
        row = (b or {}).get(key)
        return row.get(field) if isinstance(row, dict) else None

    def times(a: float | None, b: float | None) -> str:
        return f"{a / b:.2f}x" if a and b else "n/a"

    parts = [
        """
## Same-run comparison with an earlier commit (`bench.compare --baseline-src`)

The table above comes from one run on one day; a figure taken on another day (another
VM host, another moment) moves by more than most changes do. These runs put the broker
of an earlier commit ('baseline') in the same run as this one and as Kafka (same
pinning, same clients), produce and share scenarios only. "page" is the ratio in the
table above."""
    ]
    for (version, fill), (path, r) in sorted(newest.items()):
        by = {b["broker"]: b for b in r["brokers"]}
        sb, base, k = by.get("sharebroker"), by.get("baseline"), by.get("kafka")
        params = r.get("params", {})
        parts.append(
            f"""
{path.name}: Kafka {version}, baseline commit {r.get("baseline_commit") or "?"}, this broker at
commit {r.get("commit") or "?"}, started {r.get("started_utc", "?")} (load average at start
{r.get("loadavg_start", "?")}); each row the median of {params.get("produce_runs", 1)} produce runs or
{params.get("share_runs", 1)} share drains; share rows pre-filled {fill_phrase(fill)}.

| row | sharebroker | baseline | Kafka {version} | sharebroker / Kafka | baseline / Kafka | page | sharebroker / baseline |
|---|---|---|---|---|---|---|---|"""
        )
        for label, key, field in BASELINE_ROWS:
            a, b, kv = rate(sb, key, field), rate(base, key, field), rate(k, key, field)
            page_ratio = times(
                rate(page_brokers.get("sharebroker"), key, field), rate(page_brokers.get("kafka"), key, field)
            )
            parts.append(
                f"| {label} | {fmt(a)} | {fmt(b)} | {fmt(kv)} | {times(a, kv)} | {times(b, kv)} | {page_ratio} | {times(a, b)} |"
            )
        if r.get("note"):
            parts.append(f"\n{r['note']}")
    return "\n".join(parts) + "\n"
