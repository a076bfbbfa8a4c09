"""Where sharebroker spends its CPU under load (``make bench-profile``).

For each scenario a fresh ``sharebroker serve`` runs pinned to CPU 0 and
``py-spy record`` samples it (attached by pid, so start-up is excluded) while
the load runs on CPU 1:

- produce: librdkafka producer, 1 KiB records, acks=all, 1 partition
  (``bench.produce.produce``);
- share: a pre-filled 1-partition topic (filled before sampling starts) drained
  by 4 librdkafka ShareConsumers with implicit acknowledgement.

Writes, per scenario, the raw collapsed stacks (``profile-<scenario>.folded``,
readable by any flame-graph tool) and a summary of the functions with the most
samples, self and inclusive (``profile-<scenario>.txt``), under ``--out``
(default bench/results/profile), and prints the throughput of the profiled run
(the sampler slows the broker down, so it is not a benchmark figure).
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing as mp
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import bench.share as share_bench
from bench.peers import ROOT, Sharebroker
from bench.produce import RECORD, produce

BROKER_CPU = "0"
CLIENT_CPU = 1
DEADLINE_S = 120.0


def py_spy() -> str:
    found = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(found).exists():
        raise SystemExit("py-spy is not installed: pip install -e '.[bench]'")
    return found


class Sampler:
    """``py-spy record --pid`` for the duration of a ``with`` block."""

    def __init__(self, pid: int, out: Path, rate: int) -> None:
        self.cmd = [py_spy(), "record", "--pid", str(pid), "--format", "raw", "--rate", str(rate),
                    "--output", str(out)]
        self.proc: subprocess.Popen | None = None

    def __enter__(self) -> "Sampler":
        self.proc = subprocess.Popen(self.cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(0.5)  # attached before the load starts
        if self.proc.poll() is not None:
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
    out = [f"event loop thread: {loop} samples on CPU; worker threads: {workers}; "
           f"parked in a wait (left out): {waiting}", "", f"event loop, self (top {top}):"]
    out += [f"{n / max(loop, 1):7.1%}  {f}" for f, n in loop_self.most_common(top)]
    out += ["", f"event loop, inclusive (top {top}, without the event loop's own frames):"]
    out += [f"{n / max(loop, 1):7.1%}  {f}" for f, n in
            [(f, n) for f, n in loop_incl.most_common() if not _plumbing(f)][:top]]
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
    short = "/".join(parts[parts.index("broker"):]) if "broker" in parts else Path(path).name
    return f"{name} ({short})"


def _plumbing(frame: str) -> bool:
    """Frames every stack of the event loop thread passes through."""
    return any(s in frame for s in ("(trio/", "_run.py", "<module>", "<frozen runpy>", "(broker/cli.py)",
                                    "serve.<locals>.handle", "run (broker/server/__init__.py)"))


def scenario_produce(broker: Sharebroker, records: int, sample) -> str:
    topic = f"profile-produce-{time.time_ns()}"
    share_bench._admin_setup(broker.bootstrap, topic, 1, f"g-{topic}", "earliest")
    with sample():
        elapsed = produce(broker.bootstrap, topic, 1, records)
    mb = records * len(RECORD) / 1e6
    return f"produce {records} x 1 KiB, acks=all, 1 partition: {mb / elapsed:.1f} MB/s under the sampler"


def scenario_share(broker: Sharebroker, records: int, sample, consumers: int = 4, size: int = 100) -> str:
    topic = group = f"profile-share-{time.time_ns()}"
    share_bench._admin_setup(broker.bootstrap, topic, 1, group, "earliest")
    share_bench._fill(broker.bootstrap, topic, 1, records, size)
    total, started, done_at = mp.Value("q", 0), mp.Value("d", 0.0), mp.Value("d", 0.0)
    deadline = time.time() + DEADLINE_S
    with sample():
        procs = [mp.Process(target=share_bench._consumer,
                            args=(broker.bootstrap, topic, group, total, started, done_at, deadline))
                 for _ in range(consumers)]
        for p in procs:
            p.start()
        while total.value < records and time.time() < deadline:
            time.sleep(0.05)
        for p in procs:
            p.terminate()
        for p in procs:
            p.join(10)
    rate = total.value / max(done_at.value - started.value, 1e-9)
    return f"share consume {total.value}/{records} records, {consumers} consumers, 1 partition: {rate:,.0f} records/s under the sampler"


SCENARIOS = {"produce": scenario_produce, "share": scenario_share}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenarios", default="produce,share")
    parser.add_argument("--records", type=int, default=200_000, help="records per scenario")
    parser.add_argument("--rate", type=int, default=250, help="py-spy samples per second")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "profile"))
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    if hasattr(os, "sched_setaffinity") and (os.cpu_count() or 1) > 1:
        os.sched_setaffinity(0, {CLIENT_CPU})
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for name in args.scenarios.split(","):
        if name not in SCENARIOS:
            raise SystemExit(f"unknown scenario {name!r}; choose from {', '.join(SCENARIOS)}")
        folded = out / f"profile-{name}.folded"
        broker = Sharebroker(BROKER_CPU).start()
        try:
            time.sleep(1.0)
            line = SCENARIOS[name](broker, args.records, lambda: Sampler(broker.pid, folded, args.rate))
        finally:
            broker.stop()
        report = f"{line}\n\n" + summarise(folded, args.top)
        (out / f"profile-{name}.txt").write_text(report)
        print(f"== {name}: {folded}\n{report}", flush=True)


if __name__ == "__main__":
    main()
