"""Join -> first record (``python -m bench.share_join``): how long a consumer that joins a
busy group waits for its first record, on sharebroker, an earlier sharebroker
(``--baseline-src``) and Apache Kafka 4.4.0, in one run.

A producer writes to every partition of a 4-partition topic every 20 ms; a first member
(librdkafka) consumes; as soon as it has records, a second member joins (so it joins
within the assignment interval of the group's first target) and the time from its
subscribe to its first record is taken. Second members: a librdkafka ShareConsumer, the
Java 4.4 KafkaShareConsumer (``sharetool.jar --times``, timed inside its JVM so start-up
is not counted) and, for a consumer group (KIP-848, ``group.protocol=consumer``), a
librdkafka Consumer. Broker defaults on every broker: heartbeats every 5 s, targets at
most once a second (KIP-1263). Every wait is bounded; medians of ``--runs``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import threading
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

from bench.peers import ROOT, KafkaPeer, Sharebroker

PARTITIONS = 4
GIVE_UP_S = 30.0
SHARETOOL = ROOT / "peers" / ".cache" / "java" / "sharetool.jar"


class _Traffic:
    """Writes a record to every partition every 20 ms until stopped (at most 5 minutes)."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        from confluent_kafka import Producer

        self._stop = threading.Event()
        self._producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0, "log_level": 3})
        self._thread = threading.Thread(target=self._run, args=(topic,), daemon=True)
        self._thread.start()

    def _run(self, topic: str) -> None:
        deadline = time.monotonic() + 300
        while not self._stop.is_set() and time.monotonic() < deadline:
            for p in range(PARTITIONS):
                self._producer.produce(topic, b"busy", partition=p)
            self._producer.poll(0)
            time.sleep(0.02)
        self._producer.flush(10)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(20)


class _Busy:
    """The first member: polls in a thread of its own until stopped."""

    def __init__(self, consumer, poll: Callable[[], bool]) -> None:
        self.consumer = consumer
        self.got_first = threading.Event()
        self._stop = threading.Event()
        self._poll = poll
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        deadline = time.monotonic() + 300
        while not self._stop.is_set() and time.monotonic() < deadline:
            if self._poll():
                self.got_first.set()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(20)
        self.consumer.close()


def _topic(bootstrap: str, name: str) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap, "log_level": 3})
    admin.create_topics([NewTopic(name, PARTITIONS)])[name].result(30)


def _share(bootstrap: str, group: str):
    from confluent_kafka import ShareConsumer

    return ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group, "log_level": 3})


def _wait_first(poll: Callable[[], bool]) -> float:
    started = time.monotonic()
    while time.monotonic() - started < GIVE_UP_S:
        if poll():
            return time.monotonic() - started
    raise RuntimeError(f"no record within {GIVE_UP_S} s of joining")


def _java_second(bootstrap: str, topic: str, group: str) -> float:
    """The Java share consumer's subscribe -> first record, timed in its own JVM."""
    cmd = ["java", "-jar", str(SHARETOOL), "--times", "share-consume", "--bootstrap", bootstrap, "--topic", topic]
    cmd += ["--group", group, "--max", "1", "--timeout-ms", str(int(GIVE_UP_S * 1000))]
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=GIVE_UP_S + 30, check=False).stdout
    events = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    subscribed = next(e["atMs"] for e in events if e.get("subscribed"))
    first = next((e["atMs"] for e in events if e.get("firstRecord")), None)
    if first is None:
        raise RuntimeError(f"the Java consumer got no record: {out[-500:]}")
    return (first - subscribed) / 1000


def one(bootstrap: str, second: str) -> float:
    """One run: a busy group, then ``second`` joins; seconds to its first record."""
    tag = f"{second}-{os.getpid()}-{time.time_ns()}"
    topic = group = f"join-{tag}"
    _topic(bootstrap, topic)
    traffic = _Traffic(bootstrap, topic)
    try:
        if second == "consumer":
            from confluent_kafka import Consumer

            conf = {"bootstrap.servers": bootstrap, "group.id": group, "group.protocol": "consumer", "log_level": 3}

            def make():
                c = Consumer(conf)
                c.subscribe([topic])
                return c

            first_c = make()
            busy = _Busy(first_c, lambda: (m := first_c.poll(0.05)) is not None and m.error() is None)
        else:
            first_s = _share(bootstrap, group)
            first_s.subscribe([topic])
            busy = _Busy(first_s, lambda: any(m.error() is None for m in first_s.poll(0.05)))
        try:
            if not busy.got_first.wait(GIVE_UP_S):
                raise RuntimeError("the first member got no record")
            if second == "java":
                return _java_second(bootstrap, topic, group)
            if second == "consumer":
                c = make()
                try:
                    return _wait_first(lambda: (m := c.poll(0.05)) is not None and m.error() is None)
                finally:
                    c.close()
            s = _share(bootstrap, group)
            s.subscribe([topic])
            try:
                return _wait_first(lambda: any(m.error() is None for m in s.poll(0.05)))
            finally:
                s.close()
        finally:
            busy.stop()
    finally:
        traffic.stop()


def run(brokers: dict[str, object], seconds: list[str], runs: int) -> dict:
    results: dict = {
        "date": date.today().isoformat(),
        "machine": platform.platform(),
        "runs": runs,
        "brokers": {},
    }
    for name, broker in brokers.items():
        b = broker.start()  # type: ignore[attr-defined]
        try:
            row = results["brokers"][name] = {}
            for second in seconds:
                waits = [one(b.bootstrap, second) for _ in range(runs)]
                row[second] = {"median_s": round(statistics.median(waits), 2), "runs_s": [round(w, 2) for w in waits]}
                print(f"{name} {second}: {row[second]}", flush=True)
        finally:
            b.stop()
    return results


def table(results: dict) -> str:
    names = list(results["brokers"])
    seconds = list(dict.fromkeys(k for row in results["brokers"].values() for k in row))
    label = {
        "librdkafka": "librdkafka ShareConsumer",
        "java": "Java KafkaShareConsumer 4.4",
        "consumer": "librdkafka Consumer, consumer group",
    }
    lines = ["| second member | " + " | ".join(names) + " |", "|---|" + "---|" * len(names)]
    for s in seconds:
        cells = [f"{results['brokers'][n][s]['median_s']} s" if s in results["brokers"][n] else "-" for n in names]
        lines.append(f"| {label.get(s, s)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def section(results_dir: Path) -> str:
    """The PERFORMANCE.md section, from the newest bench/results/share-join-<date>.json."""
    found = sorted(results_dir.glob("share-join-*.json"))
    if not found:
        return ""
    path = found[-1]
    r = json.loads(path.read_text())
    return f"""
## A consumer joining a busy group: join -> first record

`make bench-share-join` (`bench/share_join.py`), {r["date"]}, {r["machine"]}; medians of
{r["runs"]} runs, raw figures in `bench/results/{path.name}`. A producer writes to 4
partitions every 20 ms and a first member consumes; a second member joins as soon as the
first has records (within the interval of the group's first target) and the time from its
subscribe to its first record is taken (the Java client's inside its JVM). Broker
defaults: heartbeats every 5 s, targets at most once a second. "before" is sharebroker
before the heartbeat changes (see SHARE_GROUPS.md).

{table(r)}
"""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline-src", help="an earlier checkout, run as 'before'")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json")
    args = parser.parse_args(argv)
    brokers: dict[str, object] = {"sharebroker": Sharebroker(cpus="0")}
    if args.baseline_src:
        before = Sharebroker(cpus="0")
        before.src = Path(args.baseline_src).resolve()
        brokers = {"before": before, **brokers}
    if KafkaPeer.available() is None:
        brokers["kafka"] = KafkaPeer(cpus="0")
    seconds = ["librdkafka", "consumer"] + (["java"] if SHARETOOL.exists() else [])
    results = run(brokers, seconds, args.runs)
    print(table(results))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
