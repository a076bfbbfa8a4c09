"""One fault run: a cluster in namespaces, the workload, faults one after another, the checker.

    python -m tests.faults.run --system sharebroker --seed 7 --faults 24 --time-limit 330

(``make test-faults``, ``make soak-faults``, ``make faults-kafka``.) Needs root (it
makes network namespaces and tmpfs mounts). Prints the seed first, so a failing run can
be replayed with the same schedule (``SEED=<seed> make test-faults``): the seed fixes
which faults, on which nodes, for how long; the timing of the clients around them
differs from run to run, as it would on any machine.

The run: namespaces and the cluster (:mod:`tests.faults.cluster`); the workload in the
client namespace (:mod:`tests.faults.workload`); once it is ready and the probe goes
round, faults (:mod:`tests.faults.nemesis`), each held for a few seconds, healed, then
the run waits for the probe to go round again (at most the recovery bound) and a
short pause; after the last, the workload drains and reads everything back, and the
history is checked (:mod:`tests.faults.checker`). ``<out>/report.json`` holds the
figures and violations; the exit status is 1 if there is any violation.

Everything is torn down at the end (processes by pid, mounts, namespaces), also on
Ctrl-C or an error.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

from tests.faults.checker import RECOVERY_BOUND_S, check
from tests.faults.cluster import ROOT, KafkaSystem, SharebrokerSystem, System
from tests.faults.history import History, Tail, read_events
from tests.faults.nemesis import ALL_KINDS, KAFKA_KINDS, Nemesis
from tests.faults.net import NS_PREFIX, Network, leftover_namespaces

READY_TIMEOUT_S = 420.0
DRAIN_TIMEOUT_S = 900.0
# Quiet time between a fault's recovery and the next fault.
PAUSE_S = (2.0, 5.0)


class Probe:
    """Follows the probe in the workload's history: has produce-and-consume worked since ``t``?"""

    def __init__(self, directory: Path) -> None:
        self.tails = [Tail(directory / name) for name in ("history.jsonl", "history-probe.jsonl", "history-meta.jsonl")]
        self.sent: dict[tuple[int, int], float] = {}
        self.back: dict[int, list[tuple[float, float]]] = {0: [], 1: [], 2: []}
        self.leaders: dict[str, int] = {}
        self.events: list[dict[str, Any]] = []

    def poll(self) -> None:
        for e in (e for tail in self.tails for e in tail.new()):
            k = e["k"]
            if k == "probe-ack" and e["ok"]:
                self.sent[(e["n"], e["p"])] = e["t0"]
            elif k == "probe-read":
                t0 = self.sent.get((e["n"], e["p"]))
                if t0 is not None:
                    self.back[e["p"]].append((t0, e["t"]))
            elif k == "meta":
                self.leaders = e["leaders"]
            elif k in ("ready", "done", "worker-failed"):
                self.events.append(e)

    def recovered_since(self, t: float) -> float | None:
        self.poll()
        latest = 0.0
        for rows in self.back.values():
            times = [read for sent, read in rows if sent >= t]
            if not times:
                return None
            latest = max(latest, min(times))
        return latest

    def wait_recovered(self, t: float, timeout: float) -> float | None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            got = self.recovered_since(t)
            if got is not None:
                return got
            time.sleep(0.2)
        return None

    def seen(self, kind: str) -> bool:
        self.poll()
        return any(e["k"] == kind for e in self.events)


def namespaces_unavailable() -> str | None:
    """Why this machine cannot give the test network namespaces (None: it can). One is
    made and removed at once: not root, no CAP_SYS_ADMIN (an unprivileged container), or
    no ``ip`` command."""
    if shutil.which("ip") is None:
        return "the ip command (iproute2) is not on PATH"
    name = f"{NS_PREFIX}probe{os.getpid()}"
    done = subprocess.run(["ip", "netns", "add", name], capture_output=True, text=True)
    if done.returncode != 0:
        return f"ip netns add failed: {done.stderr.strip() or done.returncode}"
    subprocess.run(["ip", "netns", "del", name], capture_output=True)
    return None


def preflight(system: str) -> None:
    why = namespaces_unavailable()
    if why is not None:
        # The one case that skips: nothing here can run without namespaces.
        print(f"test-faults: SKIPPED: cannot create network namespaces ({why})", flush=True)
        raise SystemExit(0)
    if os.geteuid() != 0:
        raise SystemExit("tests.faults: needs root (network namespaces, iptables inside them, tmpfs mounts)")
    for tool in ("ip", "iptables", "curl", "fallocate"):
        if shutil.which(tool) is None:
            raise SystemExit(f"tests.faults: {tool} is not on PATH")
    if system == "sharebroker" and shutil.which("etcd") is None:
        raise SystemExit("tests.faults: etcd is not on PATH (apt-get install etcd-server)")
    if system == "kafka" and shutil.which("java") is None:
        raise SystemExit("tests.faults: java is not on PATH")


def run_once(args: argparse.Namespace, out: Path) -> dict[str, Any]:
    rng = random.Random(args.seed)
    tag = f"{args.seed % 1000:03d}{random.randrange(1000):03d}"
    net = Network(tag)
    system: System = (SharebrokerSystem if args.system == "sharebroker" else KafkaSystem)(net, out)
    nemesis_log = History(out / "nemesis.jsonl")
    workload: subprocess.Popen[bytes] | None = None
    started = time.monotonic()
    try:
        net.create()
        clients = net.add("c", 100)
        system.start()
        print(
            f"faults: {system.name} up in {time.monotonic() - started:.0f} s (bootstrap {system.bootstrap})", flush=True
        )
        history_path = out / "history.jsonl"
        with open(out / "workload.log", "ab") as wlog:
            workload = subprocess.Popen(
                clients.exec_prefix()
                + [sys.executable, "-m", "tests.faults.workload", "--bootstrap", system.bootstrap]
                + ["--history", str(history_path), "--seed", str(args.seed), "--rate", str(args.rate)],
                stdin=subprocess.PIPE,
                stdout=wlog,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
            )
        probe = Probe(out)
        deadline = time.monotonic() + READY_TIMEOUT_S
        while not probe.seen("ready"):
            if workload.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the workload did not get ready; see {out / 'workload.log'}")
            time.sleep(0.5)
        if probe.wait_recovered(time.monotonic(), 120) is None:
            raise RuntimeError("the probe never went round before the faults")
        time.sleep(5)  # groups settle
        print(f"faults: workload ready after {time.monotonic() - started:.0f} s", flush=True)
        kinds = tuple(args.kinds) if args.kinds else (ALL_KINDS if system.has_etcd else KAFKA_KINDS)
        nemesis = Nemesis(system, rng, lambda: probe.leaders)
        schedule = nemesis.kinds(kinds)
        faults_started = time.monotonic()
        done = 0
        for kind in schedule:
            if done >= args.faults or time.monotonic() - faults_started > args.time_limit:
                break
            fault = nemesis.start(kind)
            t_start = time.monotonic()
            nemesis_log.add("fault-start", kind=kind, targets=fault.targets, detail=fault.detail)
            time.sleep(fault.hold)
            # Recovery counts from the start of the heal: a restart's start-up time is in it.
            t_heal = time.monotonic()
            try:
                healed = fault.heal()
            except Exception as exc:  # a restart that failed: carry on, the checker sees it
                healed = {"heal_error": str(exc)}
                nemesis_log.add("heal-failed", kind=kind, targets=fault.targets, err=str(exc))
            t_heal_end = time.monotonic()
            crashed = _restart_crashed(system, kind, fault.targets, nemesis_log)
            recovered = probe.wait_recovered(t_heal, RECOVERY_BOUND_S + 30)
            took = None if recovered is None else round(recovered - t_heal, 2)
            nemesis_log.add(
                "fault",
                kind=kind,
                targets=fault.targets,
                detail={**fault.detail, **healed},
                t_start=t_start,
                t_heal=t_heal,
                heal_took_s=round(t_heal_end - t_heal, 2),
                crashed=crashed,
                live_recovery_s=took,
            )
            nemesis_log.flush()
            done += 1
            print(
                f"faults: {done:3d} {kind:22s} {','.join(fault.targets):8s} held {fault.hold:4.1f} s, "
                f"recovered in {took if took is not None else 'NO RECOVERY'} s",
                flush=True,
            )
            time.sleep(rng.uniform(*PAUSE_S))
        net.heal()
        system.set_delays({})
        for name, p in system.brokers.items():
            if not p.alive:
                nemesis_log.add("crash", node=name, during="end")
                p.kill()
                p.start()
        print(f"faults: {done} faults in {time.monotonic() - faults_started:.0f} s; draining", flush=True)
        assert workload.stdin is not None
        workload.stdin.write(b"drain\n")
        workload.stdin.close()
        try:
            workload.wait(DRAIN_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            nemesis_log.add("drain-timeout", what="the workload did not finish", seconds=DRAIN_TIMEOUT_S)
            workload.kill()
            workload.wait()
        nemesis_log.close()
    finally:
        if workload is not None and workload.poll() is None:
            workload.kill()
            workload.wait()
        nemesis_log.close()
        try:
            system.stop()
        except Exception:
            traceback.print_exc()
            system.kill_all()
        net.destroy()
    events = read_events(*sorted(out.glob("history*.jsonl")), out / "nemesis.jsonl")
    report = check(events)
    result = {
        "system": args.system,
        "seed": args.seed,
        "faults": done,
        "kinds": list(kinds),
        "seconds": round(time.monotonic() - started, 1),
        "violations": report.violations,
        "violation_counts": report.counts(),
        "figures": report.figures,
    }
    (out / "report.json").write_text(json.dumps(result, indent=1, default=str) + "\n")
    return result


def _restart_crashed(system: System, kind: str, targets: list[str], log: History) -> list[str]:
    """Brokers that exited on their own during the fault: recorded (a violation) and started."""
    crashed = []
    for name, p in system.brokers.items():
        if p.process is not None and not p.alive:
            crashed.append(name)
            log.add("crash", node=name, during=kind, targets=targets)
            try:
                p.start()
            except RuntimeError as exc:
                log.add("heal-failed", kind="restart after crash", targets=[name], err=str(exc))
    for name, e in system.etcd.items():
        if e.process is not None and not e.alive:
            crashed.append(name)
            log.add("crash", node=name, during=kind, targets=targets)
            e.start()
    return crashed


def summary(result: dict[str, Any]) -> str:
    f = result["figures"]
    lines = [
        f"faults: {result['system']} seed {result['seed']}: {result['faults']} faults, "
        f"{f['operations_total']} operations, {len(result['violations'])} violations in {result['seconds']} s",
    ]
    for kind, k in f.get("faults", {}).items():
        lines.append(
            f"  {kind:22s} x{k['count']:<3d} recovery p50 {k['recovery_p50_s']} s, p99 {k['recovery_p99_s']} s, "
            f"max {k['recovery_max_s']} s"
        )
    lines.append(f"  recovery overall: {f['recovery']}")
    lines.append(f"  operations: {f['operations']}")
    lines.append(f"  writers: {f['writers']}")
    lines.append(f"  transactions: {f['transactions']}")
    lines.append(f"  groups: {f['groups']}")
    lines.append(f"  share: {f['share']}")
    for check_name, n in sorted(result["violation_counts"].items()):
        lines.append(f"  VIOLATION {check_name}: {n}")
    for v in result["violations"][:20]:
        lines.append(f"    {json.dumps(v, default=str)[:400]}")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system", choices=("sharebroker", "kafka"), default="sharebroker")
    parser.add_argument("--seed", type=int, default=None, help="default: a random one, printed")
    parser.add_argument("--seeds", type=int, default=1, help="runs one after another (seed, seed+1, ...)")
    parser.add_argument("--faults", type=int, default=24, help="faults per run at most")
    parser.add_argument("--time-limit", type=float, default=330.0, help="seconds of faults per run at most")
    parser.add_argument("--kinds", type=lambda s: s.split(","), default=None, help="comma-separated fault kinds")
    parser.add_argument("--rate", type=float, default=30.0, help="records/s of each writer")
    parser.add_argument("--out", type=Path, default=None, help="where histories and reports go")
    parser.add_argument("--keep", action="store_true", help="keep the run directory of a passing run")
    parser.add_argument("--cleanup", action="store_true", help="remove namespaces left by a killed run, then exit")
    args = parser.parse_args()
    if args.cleanup:
        for ns in leftover_namespaces():
            subprocess.run(["ip", "netns", "del", ns], check=False)
        return
    preflight(args.system)
    if args.kinds:
        unknown = set(args.kinds) - set(ALL_KINDS)
        if unknown:
            raise SystemExit(f"tests.faults: unknown fault kinds: {', '.join(sorted(unknown))}")
    first = args.seed if args.seed is not None else random.SystemRandom().randrange(1, 1_000_000)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    failed = 0
    results = []
    for i in range(args.seeds):
        args.seed = first + i
        print(f"faults: {args.system} seed {args.seed} (replay: SEED={args.seed} make test-faults)", flush=True)
        out = args.out / f"{args.system}-{args.seed}" if args.out else Path(tempfile.mkdtemp(prefix="faults-"))
        out.mkdir(parents=True, exist_ok=True)
        result = run_once(args, out)
        results.append(result)
        print(summary(result), flush=True)
        if result["violations"]:
            failed += 1
            print(f"faults: the run's files are in {out}", flush=True)
        elif not args.keep and args.out is None:
            shutil.rmtree(out, ignore_errors=True)
    if args.seeds > 1:
        total = sum(r["faults"] for r in results)
        print(f"faults: {len(results)} runs, {total} faults, {failed} runs with violations", flush=True)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
