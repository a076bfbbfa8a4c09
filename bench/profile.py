"""Where sharebroker spends its CPU under load (``make bench-profile``).

For each scenario a fresh ``sharebroker serve`` runs pinned to CPU 0 and
``py-spy record`` samples it (attached by pid, so start-up is excluded) while
the load runs on CPU 1 (``--cpu-only RUNS``: no sampler, broker CPU time per MB or
per record, median of RUNS runs; ``--broker-src DIR``: the broker of another checkout):

- produce: librdkafka producer, 1 KiB records, acks=all, 1 partition
  (``bench.produce.produce``);
- share: a pre-filled topic (1 partition, or ``--partitions``; filled before sampling starts) drained
  by 4 librdkafka ShareConsumers with implicit acknowledgement;
- txn: one librdkafka transactional producer, 1 KiB records into one partition, 100 a
  transaction, every tenth aborted (``bench.txn.produce_transactions``, as bench.compare
  times it); ``--records`` is the records sent, so 10,000 make 100 transactions.

Writes, per scenario, the raw collapsed stacks (``profile-<scenario>.folded``,
readable by any flame-graph tool) and a summary of the functions with the most
samples, self and inclusive (``profile-<scenario>.txt``), under ``--out``
(default bench/results/profile), and prints the throughput of the profiled run
(the sampler slows the broker down, so it is not a benchmark figure).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import bench.share as share_bench
from bench.compare import create_topic
from bench.peers import ROOT, Sharebroker
from bench.produce import RECORD, produce
from bench.txn import produce_transactions

BROKER_CPU = "0"
CLIENT_CPU = 1


def py_spy() -> str:
    found = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(found).exists():
        raise SystemExit("py-spy is not installed: pip install -e '.[bench]'")
    return found


class Sampler:
    """``py-spy record --pid`` for the duration of a ``with`` block."""

    def __init__(self, pid: int, out: Path, rate: int) -> None:
        self.cmd = [py_spy(), "record", "--pid", str(pid), "--format", "raw", "--rate", str(rate), "--output", str(out)]
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> Sampler:
        self.proc = subprocess.Popen(self.cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(0.5)  # attached before the load starts
        if self.proc.poll() is not None:
            assert self.proc.stderr is not None  # stderr=PIPE
            raise SystemExit(f"py-spy failed: {self.proc.stderr.read().decode().strip()}")
        return self

    def __exit__(self, *exc) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGINT)  # py-spy writes its output on SIGINT
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def summarise(folded: Path, top: int) -> str:
    """Top functions by samples from py-spy's collapsed stacks.

    The event loop thread (stacks rooted in the ``sharebroker`` entry point)
    is what bounds throughput on one core, so it gets its own self and
    inclusive tables; worker threads (fsync, pread in ``trio.to_thread``) are
    summarised apart. Samples of threads parked in a wait are left out.
    """
    loop_self: collections.Counter[str] = collections.Counter()
    loop_incl: collections.Counter[str] = collections.Counter()
    worker_self: collections.Counter[str] = collections.Counter()
    loop = workers = waiting = 0
    for line in folded.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack:
            continue
        n = int(count)
        raw = stack.split(";")
        frames = [_frame(f) for f in raw]
        if frames[-1] in WAITS:
            waiting += n  # a thread parked in a wait, not spending CPU
            continue
        if "_run_module_as_main" in raw[0]:
            loop += n
            loop_self[frames[-1]] += n
            for f in set(frames):
                loop_incl[f] += n
        else:
            workers += n
            worker_self[frames[-1]] += n
    out = [
        f"event loop thread: {loop} samples on CPU; worker threads: {workers}; parked in a wait (left out): {waiting}",
        "",
        f"event loop, self (top {top}):",
    ]
    out += [f"{n / max(loop, 1):7.1%}  {f}" for f, n in loop_self.most_common(top)]
    out += ["", f"event loop, inclusive (top {top}, without the event loop's own frames):"]
    out += [
        f"{n / max(loop, 1):7.1%}  {f}"
        for f, n in [(f, n) for f, n in loop_incl.most_common() if not _plumbing(f)][:top]
    ]
    out += ["", f"worker threads, self (top {min(top, 10)}; mostly time in fsync/pread system calls):"]
    out += [f"{n / max(workers, 1):7.1%}  {f}" for f, n in worker_self.most_common(min(top, 10))]
    return "\n".join(out) + "\n"


# Leaf frames where a thread sleeps: the worker-thread pool waiting for a job, epoll waiting for I/O.
WAITS = {"WorkerThread._work (_thread_cache.py)", "EpollIOManager.get_events (_io_epoll.py)"}


def _frame(f: str) -> str:
    # "func (path/to/module.py:123)" -> "func (module.py)": line numbers would split one function.
    name, _, where = f.partition(" (")
    path = where.rstrip(")").rsplit(":", 1)[0]
    parts = Path(path).parts
    short = "/".join(parts[parts.index("broker") :]) if "broker" in parts else Path(path).name
    return f"{name} ({short})"


def _plumbing(frame: str) -> bool:
    """Frames every stack of the event loop thread passes through."""
    return any(
        s in frame
        for s in (
            "(trio/",
            "_run.py",
            "<module>",
            "<frozen runpy>",
            "(broker/cli.py)",
            "serve.<locals>.handle",
            "run (broker/server/__init__.py)",
        )
    )


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (/proc/PID/stat)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Meter:
    """Broker CPU seconds over a ``with`` block, optionally under the sampler."""

    def __init__(self, pid: int, sampler: Sampler | None) -> None:
        self.pid, self.sampler, self.cpu_s = pid, sampler, 0.0

    def __enter__(self) -> Meter:
        if self.sampler is not None:
            self.sampler.__enter__()
        self._t0 = cpu_seconds(self.pid)
        return self

    def __exit__(self, *exc) -> None:
        self.cpu_s = cpu_seconds(self.pid) - self._t0
        if self.sampler is not None:
            self.sampler.__exit__(*exc)


def scenario_produce(broker: Sharebroker, records: int, meter: Meter) -> dict:
    topic = f"profile-produce-{time.time_ns()}"
    share_bench._admin_setup(broker.bootstrap, topic, 1, f"g-{topic}", "earliest")
    with meter:
        elapsed = produce(broker.bootstrap, topic, 1, records)
    mb = records * len(RECORD) / 1e6
    return {
        "what": f"produce {records:,} x 1 KiB, acks=all, 1 partition",
        "mb_per_s": round(mb / elapsed, 1),
        "broker_cpu_s": round(meter.cpu_s, 2),
        "broker_cpu_ms_per_mb": round(meter.cpu_s * 1000 / mb, 2),
    }


def scenario_share(
    broker: Sharebroker, records: int, meter: Meter, consumers: int = 4, partitions: int = 1, size: int = 100
) -> dict:
    r = share_bench.throughput(broker.bootstrap, consumers, partitions, records, size, around_drain=lambda: meter)
    got = r["received"]
    return {
        "what": f"share consume {records:,} x {size} B, {consumers} ShareConsumers, {partitions} partition(s)",
        "received": got,
        "records_per_s": r["records_per_s"],
        "broker_cpu_s": round(meter.cpu_s, 2),
        "broker_cpu_us_per_record": round(meter.cpu_s * 1e6 / max(got, 1), 2),
    }


def scenario_txn(broker: Sharebroker, records: int, meter: Meter) -> dict:
    with meter:
        r, _ = produce_transactions(broker.bootstrap, create_topic, records)
    return {
        "what": f"transactional produce {records:,} x 1 KiB, {r['records_per_txn']} a transaction, 1 partition",
        "records_per_s": r["records_per_s"],
        "transactions": r["transactions"],
        "broker_cpu_s": round(meter.cpu_s, 2),
        "broker_cpu_ms_per_txn": round(meter.cpu_s * 1000 / max(r["transactions"], 1), 2),
    }


SCENARIOS = {"produce": scenario_produce, "share": scenario_share, "txn": scenario_txn}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", default="produce,share")
    parser.add_argument("--records", type=int, default=1_000_000, help="records per scenario")
    parser.add_argument("--rate", type=int, default=200, help="py-spy samples per second")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--consumers", type=int, default=4, help="share: ShareConsumer processes")
    parser.add_argument("--partitions", type=int, default=1, help="share: partitions of the drained topic")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "profile"))
    parser.add_argument(
        "--cpu-only",
        type=int,
        metavar="RUNS",
        default=0,
        help="no sampler: run each scenario RUNS times and print the medians as JSON",
    )
    parser.add_argument(
        "--broker-src", metavar="DIR", help="run the broker from this checkout (before/after comparisons of a change)"
    )
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > 1:
        os.sched_setaffinity(0, {CLIENT_CPU})
    if args.broker_src:
        # `python -m broker` finds the package in its working directory first.
        os.chdir(args.broker_src)
    out = Path(args.out)
    for name in args.scenarios.split(","):
        if name not in SCENARIOS:
            raise SystemExit(f"unknown scenario {name!r}; choose from {', '.join(SCENARIOS)}")
    summary: dict = {}
    for name in args.scenarios.split(","):
        runs = []
        for _ in range(max(args.cpu_only, 1)):
            folded = out / f"profile-{name}.folded"
            broker = Sharebroker(BROKER_CPU).start()
            try:
                time.sleep(1.0)
                sampler = None
                if not args.cpu_only:
                    out.mkdir(parents=True, exist_ok=True)
                    sampler = Sampler(broker.pid, folded, args.rate)
                extra = {"consumers": args.consumers, "partitions": args.partitions} if name == "share" else {}
                runs.append(SCENARIOS[name](broker, args.records, Meter(broker.pid, sampler), **extra))
            finally:
                broker.stop()
            print(json.dumps(runs[-1]), flush=True)
        if args.cpu_only:
            summary[name] = {
                k: (statistics.median(r[k] for r in runs) if isinstance(v, (int, float)) else v)
                for k, v in runs[0].items()
            }
            summary[name]["runs"] = len(runs)
            continue
        r = runs[0]
        head = ", ".join(f"{k} {v}" for k, v in r.items() if k != "what")
        report = f"{r['what']} (under the sampler): {head}\n\n" + summarise(folded, args.top)
        (out / f"profile-{name}.txt").write_text(report)
        print(f"== {name}: {folded}\n{report}", flush=True)
    if args.cpu_only:
        print(json.dumps({"broker_src": args.broker_src or str(ROOT), **summary}, indent=2))


if __name__ == "__main__":
    main()
