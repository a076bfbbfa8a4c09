"""Produce throughput and broker memory (``python -m bench.produce``, sharebroker alone).

Starts ``sharebroker serve`` on a fresh data directory, records its idle RSS,
then drives a librdkafka (confluent-kafka) producer with 1 KiB records and
acks=all into a topic of 1 and of 8 partitions, and reports MB/s, records/s
and the broker's peak RSS (VmHWM). Every run is bounded by a record count.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import tempfile
import time
from pathlib import Path

from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

from broker.testing import BrokerProcess

RECORD = b"x" * 1024


def rss_kib(pid: int, field: str = "VmRSS") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"{field} not found")


def produce(bootstrap: str, topic: str, partitions: int, count: int) -> float:
    p = Producer(
        {
            "bootstrap.servers": bootstrap,
            "acks": "all",
            "linger.ms": 5,
            "batch.size": 1_000_000,
            "queue.buffering.max.messages": 200_000,
            "enable.idempotence": True,
        }
    )
    errors = []

    def on_delivery(err, _msg):
        if err:
            errors.append(err)

    start = time.perf_counter()
    for i in range(count):
        while True:
            try:
                p.produce(topic, RECORD, partition=i % partitions, on_delivery=on_delivery)
                break
            except BufferError:
                p.poll(0.01)
        if i % 1000 == 0:
            p.poll(0)
    left = p.flush(120)
    elapsed = time.perf_counter() - start
    del p  # close the client before the broker stops
    if left or errors:
        raise RuntimeError(f"{left} undelivered, {len(errors)} errors: {errors[:3]}")
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=200_000, help="records per scenario (1 KiB each)")
    parser.add_argument("--json", help="also write the results here")
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    results: dict = {"machine": platform.platform(), "cpus": os.cpu_count(), "records": args.records}
    with tempfile.TemporaryDirectory() as tmp:
        broker = BrokerProcess(Path(tmp) / "data").start()
        try:
            assert broker.process is not None  # start() launched it
            pid = broker.process.pid
            time.sleep(1.0)
            results["idle_rss_mib"] = round(rss_kib(pid) / 1024, 1)
            admin = AdminClient({"bootstrap.servers": broker.bootstrap})
            for parts in (1, 8):
                topic = f"bench-{parts}"
                admin.create_topics([NewTopic(topic, parts)])[topic].result(30)
                elapsed = produce(broker.bootstrap, topic, parts, args.records)
                mb = args.records * len(RECORD) / 1e6
                results[f"produce_{parts}p"] = {
                    "seconds": round(elapsed, 2),
                    "mb_per_s": round(mb / elapsed, 1),
                    "records_per_s": round(args.records / elapsed),
                }
            results["peak_rss_mib"] = round(rss_kib(pid, "VmHWM") / 1024, 1)
        finally:
            broker.stop()
    print(f"idle RSS {results['idle_rss_mib']} MiB, peak RSS {results['peak_rss_mib']} MiB")
    for parts in (1, 8):
        r = results[f"produce_{parts}p"]
        print(f"produce 1 KiB acks=all, {parts} partition(s): {r['mb_per_s']} MB/s, {r['records_per_s']} records/s")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
