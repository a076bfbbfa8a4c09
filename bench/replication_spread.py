"""One acks=all record to each of 5,000 new partitions: 3 brokers RF 3 against one broker RF 1 (``make bench-replication-spread``).

What a replicated cluster costs when the work is spread thin: every partition gets one
record, so each acks=all answer waits for a follower fetch of that one partition, and a
broker's first write to a partition makes its directory and files. The step is
:mod:`bench.scale_cluster`'s first produce, alone: ``--partitions`` new partitions in
topics of 100 (CreateTopics sent together), 5 s for a cluster's brokers to open their
new logs, then one librdkafka producer (acks=all, linger.ms 20) sends one 100-byte
record to each partition; the figure is from the first send to the last delivery
report. Each round starts fresh brokers with fresh data directories: one broker (RF 1),
then three brokers and etcd (RF 3); the ratio is that of the round, its median the
figure. sharebroker runs ``--rounds`` rounds, Kafka 4.4.0 (KRaft, default settings, as
:mod:`bench.scale_cluster` starts it) ``--kafka-rounds``.

Before each round the file system is probed: making a directory with two empty files
in it, 500 times (``fs_ms``: milliseconds each). It is most of what a first record to a
new partition costs a broker here, it is kernel CPU, and it varies several times over
on this VM, so it is written beside each round.

``python -m bench.replication_spread --markdown FILE`` prints the table of a results
file (:mod:`bench.spread_report`, which also renders it into docs/PERFORMANCE.md).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bench import scale_cluster as sc
from bench.peers import KafkaPeer, git_commit
from bench.spread_report import markdown
from broker import localcluster

SETTLE_S = 5.0
FS_PROBE_DIRS = 500


def fs_probe_ms(count: int = FS_PROBE_DIRS) -> float:
    """Milliseconds to make one directory holding two new empty files (mean of ``count``)."""
    base = Path(tempfile.mkdtemp(prefix="fs-probe-"))
    try:
        started = time.perf_counter()
        for i in range(count):
            d = base / f"d{i}"
            d.mkdir()
            for name in ("a", "b"):
                os.close(os.open(d / name, os.O_CREAT | os.O_WRONLY, 0o644))
        return round((time.perf_counter() - started) / count * 1000, 3)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def one(make: Callable[[], sc.Layout], partitions: int, timeout: float) -> dict[str, Any]:
    """Fresh brokers of one layout: CreateTopics, then the first record to each partition."""
    layout = make()
    try:
        topics = sc.topic_names(0, partitions // sc.PER_TOPIC)
        create_s, ready_s = sc.create(layout.bootstrap, topics, layout.rf, timeout)
        time.sleep(SETTLE_S)
        produce_s = sc.produce_each(layout.bootstrap, topics, timeout)
        return {"create_s": round(create_s, 2), "ready_s": round(ready_s, 2), "produce_s": round(produce_s, 2)}
    except Exception as exc:  # a step that fails is written down; the run goes on
        return {"error": f"{type(exc).__name__}: {exc}"[:300]}
    finally:
        layout.stop()


def run(broker: str, rounds: int, partitions: int, timeout: float) -> list[dict[str, Any]]:
    single, cluster = {
        "sharebroker": (sc.SharebrokerSingle, sc.SharebrokerCluster),
        "kafka": (sc.KafkaSingle, sc.KafkaCluster),
    }[broker]
    out = []
    for i in range(rounds):
        fs_ms = fs_probe_ms()
        row: dict[str, Any] = {"fs_ms": fs_ms, "single": one(single, partitions, timeout)}
        row["cluster"] = one(cluster, partitions, timeout)
        a, b = row["single"].get("produce_s"), row["cluster"].get("produce_s")
        row["ratio"] = round(b / a, 2) if a and b else None
        print(f"{broker} round {i + 1}: fs {fs_ms} ms, single {a} s, cluster {b} s, ratio {row['ratio']}", flush=True)
        out.append(row)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--partitions", type=int, default=5_000, help="new partitions, a multiple of 100")
    parser.add_argument("--rounds", type=int, default=3, help="rounds for sharebroker")
    parser.add_argument("--kafka-rounds", type=int, default=1, help="rounds for Kafka 4.4.0 (0: not run)")
    parser.add_argument("--timeout", type=float, default=300.0, help="bound of every step, seconds")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument("--markdown", type=Path, default=None, help="print the table of this results file, run nothing")
    args = parser.parse_args()
    if args.markdown is not None:
        print(markdown(json.loads(args.markdown.read_text())))
        return
    if args.partitions <= 0 or args.partitions % sc.PER_TOPIC:
        raise SystemExit(f"--partitions must be a positive multiple of {sc.PER_TOPIC}")
    if shutil.which("etcd") is None:
        raise SystemExit("etcd is not on PATH: apt-get install etcd-server")
    if args.kafka_rounds and (why := KafkaPeer.available()) is not None:
        raise SystemExit(why)
    localcluster.START_TIMEOUT_S = max(localcluster.START_TIMEOUT_S, args.timeout)
    localcluster.STOP_TIMEOUT_S = max(localcluster.STOP_TIMEOUT_S, args.timeout)
    results: dict[str, Any] = {
        "partitions": args.partitions,
        "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "command": " ".join(["python -m bench.replication_spread", *sys.argv[1:]]),
        "machine": f"{os.cpu_count()} CPUs, nothing pinned",
        "commit": git_commit(),
    }
    out = args.json or Path("bench/results") / f"replication-spread-{time.strftime('%Y-%m-%d')}.json"
    for broker, rounds in (("sharebroker", args.rounds), ("kafka", args.kafka_rounds)):
        if rounds:
            results[broker] = run(broker, rounds, args.partitions, args.timeout)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(results, indent=1) + "\n")  # kept if the run stops half-way
    print(markdown(results))
    print(f"written to {out}")


if __name__ == "__main__":
    main()
