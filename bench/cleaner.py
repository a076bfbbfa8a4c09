"""Produce latency with and without the log cleaner at work, and the cleaner's throughput
(``python -m bench.cleaner``, sharebroker alone; ``make bench-cleaner``).

One broker, one run:

1. **Load.** Topic ``cmp`` (cleanup.policy=compact, 1 MiB segments, held back with
   min.cleanable.dirty.ratio=1.0) gets ``--mb`` MB of records over ``--keys`` keys,
   and the page cache is written back (``sync``).
2. **Baseline.** A librdkafka producer sends 1,000 records/s (100 bytes, acks=all,
   linger.ms=0) to partition 0 of topic ``lat`` for ``--seconds``; every record's
   latency is the time from ``produce()`` to its delivery report.
3. **Cleaning.** ``cmp``'s ratio is lowered to 0.01 (IncrementalAlterConfigs): the
   cleaner starts on it while the same 1,000 records/s go to ``lat`` again. Only
   records sent while a clean was running (between the broker's
   ``log_clean_started`` and ``log_cleaned`` events) count for this phase.

Reports p50/p99/p99.9/max for both phases, their p99 ratio, and the cleaner's
MB/s (bytes of log read per second of clean, from the ``log_cleaned`` events).
Every loop is bounded by time and count.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from datetime import datetime
from pathlib import Path

from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, NewTopic, ResourceType

from broker.testing import BrokerProcess

RATE = 1000
VALUE = b"v" * 100


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    return sorted_values[min(len(sorted_values) - 1, int(q * len(sorted_values)))]


def summary(latencies_ms: list[float]) -> dict:
    v = sorted(latencies_ms)
    return {
        "records": len(v),
        "p50_ms": round(percentile(v, 0.50), 3),
        "p99_ms": round(percentile(v, 0.99), 3),
        "p999_ms": round(percentile(v, 0.999), 3),
        "max_ms": round(v[-1], 3) if v else None,
    }


def paced_produce(bootstrap: str, topic: str, seconds: float) -> list[tuple[float, float]]:
    """(wall-clock send time, latency ms) of each record sent at RATE/s for ``seconds``."""
    producer = Producer({"bootstrap.servers": bootstrap, "acks": "all", "linger.ms": 0, "enable.idempotence": True})
    out: list[tuple[float, float]] = []
    errors: list = []

    def done(sent_wall: float, sent: float):
        def cb(err, _msg):
            if err:
                errors.append(err)
            else:
                out.append((sent_wall, (time.perf_counter() - sent) * 1000))

        return cb

    start = time.perf_counter()
    count = int(seconds * RATE)
    for i in range(count):
        target = start + i / RATE
        while True:
            now = time.perf_counter()
            if now >= target:
                break
            producer.poll(min(target - now, 0.001))
        producer.produce(topic, VALUE, key=b"%d" % (i % 100), partition=0, on_delivery=done(time.time(), now))
        producer.poll(0)
    producer.flush(60)
    if errors:
        raise RuntimeError(f"{len(errors)} produce errors, first {errors[0]}")
    return out


def load(bootstrap: str, topic: str, mb: int, keys: int) -> None:
    producer = Producer(
        {
            "bootstrap.servers": bootstrap,
            "acks": "1",
            "linger.ms": 20,
            "batch.size": 1_000_000,
            "compression.type": "none",
        }
    )
    value = b"x" * 1000
    for i in range(mb * 1000):
        while True:
            try:
                producer.produce(topic, value, key=b"key-%d" % (i % keys), partition=0)
                break
            except BufferError:
                producer.poll(0.01)
        if i % 1000 == 0:
            producer.poll(0)
    producer.flush(120)


def events(log_path: Path, name: str) -> list[dict]:
    out = []
    for line in log_path.read_text(errors="replace").splitlines():
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if isinstance(event, dict) and event.get("event") == name:
            out.append(event)
    return out


def wall(event: dict) -> float:
    return datetime.fromisoformat(event["timestamp"].replace("Z", "+00:00")).timestamp()


def run(seconds: float, mb: int, keys: int) -> dict:
    with tempfile.TemporaryDirectory(prefix="bench-cleaner-") as tmp:
        broker = BrokerProcess(Path(tmp) / "broker", {"log.cleaner.backoff.ms": "500"}).start()
        try:
            bs = broker.bootstrap
            admin = AdminClient({"bootstrap.servers": bs})
            topics = [
                NewTopic("lat", 1, 1),
                NewTopic(
                    "cmp",
                    1,
                    1,
                    config={
                        "cleanup.policy": "compact",
                        "segment.bytes": "1048576",
                        "min.cleanable.dirty.ratio": "1.0",
                    },
                ),
            ]
            for f in admin.create_topics(topics).values():
                f.result(30)
            paced_produce(bs, "lat", 2)  # warm-up (connections)
            load(bs, "cmp", mb, keys)
            # The load's dirty pages are written back before measuring, or every fsync
            # of the latency phases would queue behind them.
            os.sync()
            time.sleep(2)
            baseline = [lat for _, lat in paced_produce(bs, "lat", seconds)]
            resource = ConfigResource(
                ResourceType.TOPIC,
                "cmp",
                incremental_configs=[
                    ConfigEntry("min.cleanable.dirty.ratio", "0.01", incremental_operation=AlterConfigOpType.SET)
                ],
            )
            for f in admin.incremental_alter_configs([resource]).values():
                f.result(30)
            during = paced_produce(bs, "lat", seconds)
            deadline = time.monotonic() + 600
            while not events(broker.log_path, "log_cleaned") and time.monotonic() < deadline:
                time.sleep(0.5)
        finally:
            broker.stop()
        started = [wall(e) for e in events(broker.log_path, "log_clean_started") if e.get("topic") == "cmp"]
        cleaned = [e for e in events(broker.log_path, "log_cleaned") if e.get("topic") == "cmp"]
        windows = [(s, wall(c)) for s, c in zip(started, cleaned)]
        while_cleaning = [lat for sent, lat in during if any(a <= sent <= b for a, b in windows)]
        read = sum(e["bytes_read"] for e in cleaned)
        secs = sum(e["seconds"] for e in cleaned)
        base, busy = summary(baseline), summary(while_cleaning)
        return {
            "scenario": "cleaner",
            "rate_per_s": RATE,
            "seconds_per_phase": seconds,
            "loaded_mb": mb,
            "keys": keys,
            "cpus": os.cpu_count(),
            "without_cleaner": base,
            "while_cleaning": busy,
            "p99_ratio": round(busy["p99_ms"] / base["p99_ms"], 2) if busy["records"] else None,
            "cleans": len(cleaned),
            "cleaned_mb": round(read / 1e6, 1),
            "clean_seconds": round(secs, 2),
            "cleaner_mb_per_s": round(read / 1e6 / secs, 1) if secs else None,
            "bytes_after": sum(e["bytes_written"] for e in cleaned),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0, help="length of each latency phase")
    parser.add_argument("--mb", type=int, default=200, help="MB loaded into the compacted topic")
    parser.add_argument("--keys", type=int, default=10_000)
    parser.add_argument("--json", help="write the result here as JSON")
    args = parser.parse_args()
    result = run(args.seconds, args.mb, args.keys)
    print(json.dumps(result, indent=2))
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
