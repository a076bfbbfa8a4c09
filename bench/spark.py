"""bench-spark: the kafka-share source against Spark's own Kafka source, one topic, one run.

    python -m bench.spark [--records 1000000] [--partitions 4] [--json FILE]

A fresh sharebroker (metrics on) gets one topic of ``--records`` 100-byte records
(librdkafka, default batching). One SparkSession (local[2], UI off, loopback) then
drains it twice with Trigger.AvailableNow into the noop sink:

- Spark's Kafka source (spark-sql-kafka-0-10 4.2.0, kafka-clients 3.9.2), from
  the earliest offsets;
- the kafka-share source (broker.spark) through a new share group.

Both first drain a small warm-up topic, so neither pays for starting the JVM's
code paths or the Python workers. Reported: records/s of each, measured from
query start to termination, and their ratio (target: kafka-share at 0.5 of Spark's
Kafka source or better). The broker runs with ``group.share.partition.max.record.locks
= 10000`` (Kafka's maximum, with its bound ``group.share.max.partition.max.record.locks``
raised to match; the default 2000 caps each share-partition's part of a micro-batch,
see the README's Spark section).

ListOffsets: Spark's Kafka readers send ListOffsets after their polls. The broker's
own counters (``sharebroker_requests_total`` and ``..._request_duration_seconds``)
give how many ListOffsets and Fetch requests the Kafka-source drain caused and the
broker time they took.
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import re
import socket
import sys
import tempfile
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
JARS = ROOT / "peers" / ".cache" / "spark" / "jars"
RECORD = b"x" * 100
BROKER_SETTINGS = {
    "group.share.max.partition.max.record.locks": "10000",
    "group.share.partition.max.record.locks": "10000",
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def produce(bootstrap: str, topic: str, records: int, partitions: int) -> float:
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 20, "queue.buffering.max.messages": 2_000_000})
    t0 = time.perf_counter()
    for i in range(records):
        p.produce(topic, RECORD, partition=i % partitions)
        if i % 100_000 == 0:
            p.poll(0)
    if p.flush(120):
        raise RuntimeError("produce did not finish")
    return time.perf_counter() - t0


def scrape(metrics_url: str) -> dict[tuple[str, str], float]:
    """(family, api) -> value for the request counters."""
    text = urllib.request.urlopen(metrics_url, timeout=10).read().decode()
    out: dict[tuple[str, str], float] = {}
    for line in text.splitlines():
        m = re.match(
            r'^(sharebroker_requests_total|sharebroker_request_duration_seconds_sum)\{api="([^"]+)"\} (\S+)$', line
        )
        if m:
            out[(m.group(1), m.group(2))] = float(m.group(3))
    return out


def session() -> Any:
    from pyspark.sql import SparkSession

    os.environ.update({"SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_PYTHON": sys.executable})
    jars = sorted(glob.glob(str(JARS / "*.jar")))
    if not jars:
        raise SystemExit(f"Spark's Kafka connector jars are missing in {JARS}: run make spark-jars")
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("bench-spark")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.jars", ",".join(jars))
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def drain(
    spark: Any, fmt: str, options: dict[str, str], checkpoint: str, timeout: float
) -> tuple[int, float, int, dict[str, int]]:
    reader = spark.readStream.format(fmt)
    for k, v in options.items():
        reader = reader.option(k, v)
    t0 = time.perf_counter()
    query = (
        reader.load()
        .writeStream.format("noop")
        .option("checkpointLocation", checkpoint)
        .trigger(availableNow=True)
        .start()
    )
    if not query.awaitTermination(timeout):
        query.stop()
        raise RuntimeError(f"{fmt}: the drain did not finish within {timeout} s")
    elapsed = time.perf_counter() - t0
    if query.exception() is not None:
        raise RuntimeError(f"{fmt}: {query.exception()}")
    progress = query.recentProgress
    rows = sum(p["numInputRows"] for p in progress)
    # Where the micro-batches spent their time (Spark's durationMs phases, summed).
    phases: dict[str, int] = {}
    for p in progress:
        for phase, ms in (p.get("durationMs") or {}).items():
            phases[phase] = phases.get(phase, 0) + int(ms)
    return rows, elapsed, len(progress), phases


def run(records: int, partitions: int, timeout: float, share_extra: dict[str, str] | None = None) -> dict[str, Any]:
    from broker.admin.client import AdminClient
    from broker.spark import register
    from broker.testing import BrokerProcess

    with tempfile.TemporaryDirectory(prefix="bench-spark-") as tmp:
        metrics_port = free_port()
        settings = {**BROKER_SETTINGS, "metrics.listen": f"127.0.0.1:{metrics_port}"}
        broker = BrokerProcess(Path(tmp) / "broker", settings).start()
        metrics_url = f"http://127.0.0.1:{metrics_port}/metrics"
        try:
            bootstrap = broker.bootstrap
            tag = uuid.uuid4().hex[:6]
            topic, warm = f"bench-{tag}", f"warm-{tag}"
            with AdminClient(bootstrap) as admin:
                admin.create_topics({topic: partitions, warm: partitions})
                for g in (f"warm-{tag}", f"share-{tag}"):
                    admin.set_group_configs(g, {"share.auto.offset.reset": "earliest"})
            produce(bootstrap, warm, 20_000, partitions)
            fill_s = produce(bootstrap, topic, records, partitions)
            print(f"produced {records} records to {partitions} partitions in {fill_s:.1f} s", flush=True)

            spark = session()
            register(spark)
            kafka_opts = {"kafka.bootstrap.servers": bootstrap, "startingOffsets": "earliest"}
            share_opts = {"kafka.bootstrap.servers": bootstrap, **(share_extra or {})}
            drain(spark, "kafka", {**kafka_opts, "subscribe": warm}, f"{tmp}/ck-wk", timeout)
            drain(
                spark,
                "kafka-share",
                {**share_opts, "subscribe": warm, "group.id": f"warm-{tag}"},
                f"{tmp}/ck-ws",
                timeout,
            )

            before = scrape(metrics_url)
            k_rows, k_s, k_batches, k_phases = drain(
                spark, "kafka", {**kafka_opts, "subscribe": topic}, f"{tmp}/ck-k", timeout
            )
            after = scrape(metrics_url)
            s_rows, s_s, s_batches, s_phases = drain(
                spark,
                "kafka-share",
                {**share_opts, "subscribe": topic, "group.id": f"share-{tag}"},
                f"{tmp}/ck-s",
                timeout,
            )
            spark.stop()

            def delta(family: str, api: str) -> float:
                return after.get((family, api), 0.0) - before.get((family, api), 0.0)

            lo_n = delta("sharebroker_requests_total", "ListOffsets")
            lo_s = delta("sharebroker_request_duration_seconds_sum", "ListOffsets")
            fetch_n = delta("sharebroker_requests_total", "Fetch")
            fetch_s = delta("sharebroker_request_duration_seconds_sum", "Fetch")
            result = {
                "records": records,
                "partitions": partitions,
                "share_options": share_extra or {},
                "kafka_source": {
                    "rows": k_rows,
                    "seconds": k_s,
                    "records_per_s": k_rows / k_s,
                    "micro_batches": k_batches,
                    "phase_ms": k_phases,
                },
                "kafka_share": {
                    "rows": s_rows,
                    "seconds": s_s,
                    "records_per_s": s_rows / s_s,
                    "micro_batches": s_batches,
                    "phase_ms": s_phases,
                },
                "ratio": (s_rows / s_s) / (k_rows / k_s),
                "list_offsets_during_kafka_drain": {
                    "requests": lo_n,
                    "broker_seconds": lo_s,
                    "mean_us": lo_s / lo_n * 1e6 if lo_n else None,
                    "fetch_requests": fetch_n,
                    "fetch_broker_seconds": fetch_s,
                },
            }
        finally:
            broker.stop()
    return result


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=int, default=1_000_000)
    ap.add_argument("--partitions", type=int, default=8)
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds allowed for one drain")
    ap.add_argument("--json", metavar="FILE", help="write the result as JSON")
    ap.add_argument(
        "--share-option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="an option of the kafka-share source (e.g. maxTasksPerBatch=8); repeatable",
    )
    args = ap.parse_args(argv)
    extra = dict(o.split("=", 1) for o in args.share_option)
    r = run(args.records, args.partitions, args.timeout, extra)
    k, s, lo = r["kafka_source"], r["kafka_share"], r["list_offsets_during_kafka_drain"]
    print(
        f"Spark Kafka source : {k['records_per_s']:>10,.0f} records/s ({k['rows']} rows, {k['seconds']:.1f} s, {k['micro_batches']} micro-batch(es))"
    )
    print(
        f"kafka-share source : {s['records_per_s']:>10,.0f} records/s ({s['rows']} rows, {s['seconds']:.1f} s, {s['micro_batches']} micro-batches)"
    )
    print(f"ratio kafka-share / Kafka source: {r['ratio']:.2f} (target >= 0.5)")
    mean = f"{lo['mean_us']:.0f} us" if lo["mean_us"] is not None else "n/a"
    print(
        f"ListOffsets during the Kafka-source drain: {lo['requests']:.0f} requests, {lo['broker_seconds'] * 1000:.0f} ms of broker time "
        f"(mean {mean}); Fetch: {lo['fetch_requests']:.0f} requests, {lo['fetch_broker_seconds'] * 1000:.0f} ms"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(r, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
