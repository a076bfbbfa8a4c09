"""sharebroker vs Apache Kafka 4.4.0 (and Tansu 0.6) in one run (``make bench-compare``).

For every broker, one after the other in the same run and on the same machine,
the scenarios chosen with ``--scenarios`` (default: all of them):

- startup: process start -> first answered ApiVersions, and -> first record
  received by a librdkafka ShareConsumer (the client creates the topic, sets
  share.auto.offset.reset=earliest, produces one record and polls; brokers with
  share groups only), fresh data dir each time, median of a few runs;
- memory: idle RSS of the broker process (1.5 s after start), and peak RSS (VmHWM)
  at the end; with produce or share also the peak during those scenarios (VmHWM,
  reset through /proc/PID/clear_refs just before them);
- produce: librdkafka, 1 KiB records, acks=all, 1 and 8 partitions (``bench.produce.produce``);
- fetch: one librdkafka Consumer (assign, no group) drains a pre-filled topic,
  1 GiB by default (``bench.fetch``); the topic is deleted afterwards;
- share: 1, 4 and 16 ShareConsumers on 1 and on 4 pre-filled partitions,
  implicit acks (``bench.share.throughput``; brokers with share groups only);
- latency: a fixed-rate producer to one ShareConsumer, p50/p99/p99.9 (``bench.share.latency``);
- scale: on a fresh broker, 1000 share-partitions with in-flight records through raw
  ShareFetch/ShareAcknowledge after a ShareGroupHeartbeat join (``bench.scale``;
  brokers with share groups only);
- txn: librdkafka transactional produce, 1 KiB records, 100 per transaction (every
  tenth aborted), then a read_committed Consumer drains the partition (``bench.txn``;
  brokers with transactions only).

The broker is pinned to CPU 0 (``taskset -c 0``) and this process, with every
client process it spawns, to CPU 1. Every loop is bounded by a count and a deadline.
Writes bench/results/compare-<date>.json (all scenarios) or
bench/results/<scenario>[-<scenario>...]-<date>.json (a subset). docs/PERFORMANCE.md,
docs/performance.png and docs/performance-scale.png are rewritten only when every scenario ran (and not
``--no-doc``); ``--render FILE`` re-renders them from any results file, missing
figures showing as n/a.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import shlex
import socket
import statistics
import struct
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import bench.share as share_bench
from bench import cores
from bench.fetch import cpu_seconds, fetch
from bench.peers import ROOT, KafkaPeer, Sharebroker, TansuPeer, baseline_broker, git_commit
from bench.produce import RECORD, produce, rss_kib
from bench.report import render, scale_section, table
from bench.report_base import KAFKA_PEER_VERSION, PRODUCE_KEYS, PRODUCE_PARTITIONS, SCENARIOS, SHARE_MATRIX
from bench.scale import run as scale_run
from bench.share import first_share_record, latency, throughput
from bench.startup import api_versions_frame
from bench.txn import run as txn_run

BROKER_CPU = "0"
CLIENT_CPU = 1
BROKERS = {"sharebroker": Sharebroker, "kafka": KafkaPeer, "tansu": TansuPeer}


def parse_scenarios(text: str) -> list[str]:
    """Comma list -> scenarios in canonical order ("all" or empty: every one)."""
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names or names == ["all"]:
        return list(SCENARIOS)
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown:
        raise ValueError(f"unknown scenario(s) {', '.join(unknown)}; choose from {', '.join(SCENARIOS)}")
    return [n for n in SCENARIOS if n in names]


def default_json_name(scenarios: list[str], date: str) -> str:
    if list(scenarios) == list(SCENARIOS):
        return f"compare-{date}.json"
    return f"{'-'.join(scenarios)}-{date}.json"


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


def measure_startup(cls, runs: int, share: bool = True) -> dict:
    """Median over ``runs`` fresh starts (fresh data dir each) of process start -> first
    answered ApiVersions and, for brokers with share groups, -> first record received
    by a ShareConsumer (``bench.share.first_share_record``: the client creates the
    topic, sets share.auto.offset.reset=earliest, produces one record and polls)."""
    share = share and cls.supports_share
    times, jvm, first, share_errors = [], [], [], []
    for i in range(runs + (1 if cls is Sharebroker else 0)):
        b = cls(BROKER_CPU)
        t0_wall, t0 = time.time(), time.perf_counter()
        b.launch()
        try:
            proc = getattr(b, "_proc", None)
            proc = getattr(proc, "process", proc)
            t1 = wait_api_versions(b.port, 120, alive=lambda proc=proc: proc is None or proc.poll() is None)
            t2 = None
            if share:
                try:
                    t2 = first_share_record(b.bootstrap, 120)
                except Exception as e:  # keep the ApiVersions figure of this run
                    share_errors.append(f"{type(e).__name__}: {e}")
                    traceback.print_exc()
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
        if t2 is not None:
            first.append(t2 - t0)
    out = {"runs_s": [round(t, 3) for t in times], "median_s": round(statistics.median(times), 3)}
    if jvm:
        out["after_format_median_s"] = round(statistics.median(jvm), 3)
    if first:
        out["first_share_runs_s"] = [round(t, 3) for t in first]
        out["first_share_median_s"] = round(statistics.median(first), 3)
    if share_errors:
        out["first_share_errors"] = share_errors
    return out


def create_topic(bootstrap: str, topic: str, partitions: int = 1) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    # Keep a reference to the client until the future resolves.
    admin = AdminClient({"bootstrap.servers": bootstrap, "log_level": 3})
    admin.create_topics([NewTopic(topic, partitions)])[topic].result(30)


def produce_run(bootstrap: str, partitions: int, records: int, pid: int | None = None) -> dict:
    """One produce run. Besides the rate: the CPU the client process used (this process,
    librdkafka's threads included) in percent of the run, near 100 when the client's one
    core is what limits the row, and with ``pid`` the broker's CPU per record."""
    topic = f"cmp-produce-{partitions}p-{time.time_ns()}"
    create_topic(bootstrap, topic, partitions)
    broker_cpu = cpu_seconds(pid) if pid else 0.0
    client_cpu = time.process_time()
    stretch = cores.Stretch()
    elapsed = produce(bootstrap, topic, partitions, records)
    busy = stretch.end()
    client_cpu = time.process_time() - client_cpu
    out = {
        "partitions": partitions,
        "records": records,
        "seconds": round(elapsed, 2),
        "mb_per_s": round(records * len(RECORD) / 1e6 / elapsed, 1),
        "records_per_s": round(records / elapsed),
        "client_cpu_pct": round(100 * client_cpu / elapsed),
        "cores_pct": busy,
    }
    if pid:
        broker_cpu = cpu_seconds(pid) - broker_cpu
        out["broker_cpu_pct"] = round(100 * broker_cpu / elapsed)
        out["broker_cpu_us_per_record"] = round(1e6 * broker_cpu / records, 2)
    return out


def median_run(runs: list[dict], field: str, rank: Callable[[dict], Any] | None = None) -> dict:
    """The median of ``runs`` by ``rank`` (default: ``field``; the upper one of an even
    count), with every run's ``field`` kept in ``runs_<field>``."""
    ranked = sorted(runs, key=rank or (lambda r: r[field]))
    out = dict(ranked[len(ranked) // 2])
    out[f"runs_{field}"] = [r[field] for r in runs]
    return out


def produce_median(bootstrap: str, partitions: int, args, pid: int | None = None) -> dict:
    """``--produce-runs`` runs (each into a new topic), the median run by MB/s."""
    runs = [
        produce_run(bootstrap, partitions, args.records, pid) for _ in range(max(getattr(args, "produce_runs", 1), 1))
    ]
    return median_run(runs, "mb_per_s")


def warm_up(bootstrap: str, args, scenarios: set[str]) -> dict:
    """Untimed work before the timed rows, the same on every broker: one produce run into
    a topic of 1 and of 8 partitions (``--records`` each) and, with the txn scenario, a
    tenth of ``--txn-records`` in transactions; the topics are deleted after.

    A JVM compiles its hot paths over the first seconds of load: Kafka's first produce
    run into a fresh broker measured 87.7 MB/s against 126-140 for the next two, so a
    produce row and a transaction row taken first measured the JIT's warm-up as much as
    the broker. A deployed broker has long passed it."""
    from bench.fetch import delete_topic
    from bench.txn import produce_transactions

    out: dict[str, Any] = {}
    if scenarios & {"produce", "fetch", "share", "latency", "txn"}:
        for parts in PRODUCE_PARTITIONS:
            topic = f"cmp-warm-{parts}p-{time.time_ns()}"
            create_topic(bootstrap, topic, parts)
            out[f"produce_{parts}p_mb_per_s"] = round(
                args.records * len(RECORD) / 1e6 / produce(bootstrap, topic, parts, args.records), 1
            )
            delete_topic(bootstrap, topic)
    if "txn" in scenarios and args.txn_records:
        produced, topic = produce_transactions(bootstrap, create_topic, max(args.txn_records // 10, 100))
        out["txn_records_per_s"] = produced["records_per_s"]
        delete_topic(bootstrap, topic)
    return out


def run_broker(cls, args, scenarios: set[str]) -> dict:
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

    if "startup" in scenarios:
        step("startup", lambda: measure_startup(cls, args.startup_runs))
    if scenarios & {"memory", "produce", "share", "latency", "fetch", "txn"}:
        b = cls(BROKER_CPU)
        peaks: list[int] = []  # VmHWM (KiB) of each stretch between resets

        def hwm_mib() -> float:
            return round(rss_kib(b.pid, "VmHWM") / 1024, 1)

        def reset() -> bool:
            peaks.append(rss_kib(b.pid, "VmHWM"))
            return reset_hwm(b.pid)

        try:
            b.start()
            time.sleep(1.5)
            res["idle_rss_mib"] = round(rss_kib(b.pid) / 1024, 1)
            if not args.no_warm_up:
                step("warm_up", lambda: warm_up(b.bootstrap, args, scenarios))
            if "produce" in scenarios:
                res["produce_hwm_reset"] = reset()
                for parts in PRODUCE_PARTITIONS:
                    step(PRODUCE_KEYS[parts], lambda p=parts: produce_median(b.bootstrap, p, args, b.pid))
                res["produce_peak_rss_mib"] = hwm_mib()
            if cls.supports_share and scenarios & {"share", "latency"}:
                res["share_hwm_reset"] = reset()
                if "share" in scenarios:
                    for consumers, parts in SHARE_MATRIX:
                        step(
                            f"share_{consumers}c{parts}p",
                            lambda c=consumers, p=parts: share_median(b.bootstrap, c, p, args),
                        )
                if "latency" in scenarios:
                    step("latency", lambda: latency(b.bootstrap, args.rate, args.seconds))
                res["share_peak_rss_mib"] = hwm_mib()
            if "fetch" in scenarios and args.fetch_mib:
                step("fetch", lambda: fetch(b.bootstrap, create_topic, args.fetch_mib, args.deadline * 2, pid=b.pid))
            if "txn" in scenarios and getattr(cls, "supports_transactions", True) and args.txn_records:
                step("txn", lambda: txn_run(b.bootstrap, create_topic, args.txn_records, args.txn_fetch_mib))
            # The peak over the broker's whole life: the largest of the stretches between resets.
            res["run_peak_rss_mib"] = round(max(peaks + [rss_kib(b.pid, "VmHWM")]) / 1024, 1)
        except Exception as e:
            res["errors"]["broker"] = f"{type(e).__name__}: {e}"
            traceback.print_exc()
        finally:
            b.stop()
    if "scale" in scenarios and cls.supports_share and args.scale_partitions:
        step("scale", lambda: scale_run(cls, BROKER_CPU, args.scale_partitions))
    return res


def share_median(bootstrap: str, consumers: int, partitions: int, args) -> dict:
    """``--share-runs`` drains (each on a new topic and group), the median run by records/s;
    every run's rate is kept in ``runs_records_per_s``. A drain that did not finish ranks last."""
    runs = [
        throughput(
            bootstrap,
            consumers,
            partitions,
            args.share_records,
            args.size,
            fill_batch=getattr(args, "share_fill_batch", 0),
        )
        for _ in range(max(getattr(args, "share_runs", 1), 1))
    ]
    return median_run(runs, "records_per_s", rank=lambda r: (r["received"] >= r["records"], r["records_per_s"]))


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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--scenarios",
        default="all",
        help=f"comma list from {','.join(SCENARIOS)} (default: all); memory is the idle RSS",
    )
    parser.add_argument("--brokers", default="sharebroker,kafka,tansu")
    parser.add_argument("--startup-runs", type=int, default=3)
    parser.add_argument("--records", type=int, default=300_000, help="produce: 1 KiB records per partition count")
    parser.add_argument("--share-records", type=int, default=1_000_000, help="share consume: pre-filled records")
    parser.add_argument("--size", type=int, default=100, help="share consume: record size")
    parser.add_argument("--share-runs", type=int, default=3, help="share consume: drains per row, median reported")
    parser.add_argument("--produce-runs", type=int, default=3, help="produce: runs per row, median reported")
    parser.add_argument(
        "--share-fill-batch",
        type=int,
        default=0,
        metavar="N",
        help="share consume: pre-fill in batches of exactly N records on every broker (default 0: "
        "librdkafka's default batching, whose batch sizes follow each broker's produce latency)",
    )
    parser.add_argument(
        "--baseline-src",
        metavar="DIR",
        help="also run the broker of this checkout (an earlier commit) as 'baseline' in the same run",
    )
    parser.add_argument(
        "--kafka-version",
        default=KAFKA_PEER_VERSION,
        help=f"the Kafka release to run (default {KAFKA_PEER_VERSION}; others need `make peer-kafka-old`)",
    )
    parser.add_argument("--rate", type=int, default=1000, help="latency: records per second")
    parser.add_argument("--seconds", type=float, default=10.0, help="latency: seconds of producing")
    parser.add_argument("--deadline", type=float, default=60.0, help="per share scenario (fetch: twice this)")
    parser.add_argument("--fetch-mib", type=int, default=1024, help="fetch: MiB of 1 KiB records to drain (0: skip)")
    parser.add_argument("--scale-partitions", type=int, default=1000, help="scale: share-partitions (0: skip)")
    parser.add_argument(
        "--txn-records", type=int, default=100_000, help="txn: 1 KiB records in transactions of 100 (0: skip)"
    )
    parser.add_argument(
        "--txn-fetch-mib",
        type=int,
        default=512,
        help="txn: MiB of transactional records the read_committed reader drains",
    )
    parser.add_argument(
        "--json", help="default bench/results/compare-<date>.json, or <scenarios>-<date>.json for a subset"
    )
    parser.add_argument(
        "--no-warm-up",
        action="store_true",
        help="skip the untimed produce and transactions each broker gets before the timed rows",
    )
    parser.add_argument("--no-doc", action="store_true", help="do not rewrite docs/PERFORMANCE.md and the plot")
    parser.add_argument(
        "--render", metavar="JSON", help="only rewrite docs/PERFORMANCE.md and the plot from a results file"
    )
    parser.add_argument("--doc-dir", type=Path, help="write PERFORMANCE.md and performance.png here instead of docs/")
    return parser


def _new_results(args: argparse.Namespace, scenarios: list[str], argv: list[str] | None) -> dict:
    """The results file before any broker ran: when, where, how, and with what."""
    import confluent_kafka

    date = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d")
    params = vars(args) | {"scenarios": scenarios, "doc_dir": None}
    return {
        "date": date,
        "kafka_version": args.kafka_version,
        "commit": git_commit(ROOT),
        "baseline_commit": git_commit(Path(args.baseline_src)) if args.baseline_src else None,
        "started_utc": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "command": shlex.join(
            [
                "taskset",
                "-c",
                str(CLIENT_CPU),
                "python",
                "-m",
                "bench.compare",
                *(sys.argv[1:] if argv is None else argv),
            ]
        ),
        "machine": {
            "platform": platform.platform(),
            "cpus": os.cpu_count(),
            "cpu_model": _cpu_model(),
            "python": platform.python_version(),
            "java": _java_version(),
        },
        "client": f"{confluent_kafka.__version__} (librdkafka {confluent_kafka.libversion()[0]})",
        "pinning": {"broker": f"taskset -c {BROKER_CPU}", "clients": f"taskset -c {CLIENT_CPU}"},
        "params": params,
        "loadavg_start": " ".join(Path("/proc/loadavg").read_text().split()[:3]),
        "brokers": [],
    }


def main(argv: list[str] | None = None) -> None:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.render:
        path = render(Path(args.render).resolve(), args.doc_dir)
        print(f"wrote {path}")
        print(table(json.loads(Path(args.render).read_text())))
        return
    try:
        scenarios = parse_scenarios(args.scenarios)
    except ValueError as e:
        parser.error(str(e))
    if args.baseline_src:
        BROKERS["baseline"] = baseline_broker(Path(args.baseline_src))
        if "baseline" not in args.brokers.split(","):
            args.brokers = "baseline," + args.brokers
    brokers = [n.strip() for n in args.brokers.split(",") if n.strip()]
    if unknown := [n for n in brokers if n not in BROKERS]:
        parser.error(f"unknown broker(s) {', '.join(unknown)}; choose from {', '.join(BROKERS)}")
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    share_bench.DEADLINE_S = args.deadline
    KafkaPeer.version = args.kafka_version
    # Clients (this process, librdkafka threads, consumer processes) on CPU 1.
    if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > 1:
        os.sched_setaffinity(0, {CLIENT_CPU})
    results = _new_results(args, scenarios, argv)
    for name in brokers:
        results["brokers"].append(run_broker(BROKERS[name], args, set(scenarios)))
    results["loadavg_end"] = " ".join(Path("/proc/loadavg").read_text().split()[:3])
    json_path = (
        Path(args.json) if args.json else ROOT / "bench" / "results" / default_json_name(scenarios, results["date"])
    )
    json_path = json_path.resolve()
    json_path.parent.mkdir(parents=True, exist_ok=True)
    json_path.write_text(json.dumps(results, indent=2))
    print(f"wrote {json_path}")
    print(table(results))
    print(scale_section(results))
    if args.no_doc:
        return
    if scenarios != list(SCENARIOS):
        print(
            f"docs/PERFORMANCE.md left as it is: only {', '.join(scenarios)} ran "
            f"(render this file with --render {json_path} if you mean it)"
        )
        return
    render(json_path, args.doc_dir)


if __name__ == "__main__":
    main()
