"""A PySpark job the crash tests run (and kill) in its own process group:

    python -m tests.spark.share_job --bootstrap B --topic T --group G --checkpoint DIR --db FILE

It consumes T through share group G with the kafka-share source (Trigger.AvailableNow)
and writes every micro-batch to two sinks in one SQLite file:

- ``appended``: every row as it comes (an at-least-once sink: redelivered records
  appear again);
- ``idempotent``: keyed on (topic, partition, offset) with INSERT OR IGNORE, the
  README's recipe for exactly-once results on top of at-least-once delivery.

Each batch writes half its rows, touches ``<db>.batch-<id>`` and sleeps
``--batch-sleep`` seconds, then writes the rest: a kill during the sleep lands in the
middle of a batch whose sink write has begun but which Spark has not committed.
"""

from __future__ import annotations

import argparse
import sqlite3
import time
from pathlib import Path
from typing import Any


def open_db(path: str) -> sqlite3.Connection:
    con = sqlite3.connect(path, timeout=30)
    con.execute("CREATE TABLE IF NOT EXISTS appended (batch INTEGER, topic TEXT, part INTEGER, off INTEGER, key TEXT)")
    con.execute(
        "CREATE TABLE IF NOT EXISTS idempotent (topic TEXT, part INTEGER, off INTEGER, key TEXT, "
        "PRIMARY KEY (topic, part, off))"
    )
    con.commit()
    return con


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--bootstrap", required=True)
    ap.add_argument("--topic", required=True)
    ap.add_argument("--group", required=True)
    ap.add_argument("--checkpoint", required=True)
    ap.add_argument("--db", required=True)
    ap.add_argument("--max-records", default="300")
    ap.add_argument("--batch-sleep", type=float, default=0.0)
    args = ap.parse_args()

    from broker.spark import register
    from tests.spark.session import build_session

    spark = build_session("share-crash-job")
    register(spark)
    open_db(args.db).close()
    marker = Path(args.db)

    def sink(df: Any, batch_id: int) -> None:
        rows = [
            (r.topic, r.partition, r.offset, r.key)
            for r in df.selectExpr("topic", "partition", "offset", "CAST(key AS STRING) AS key").collect()
        ]
        if not rows:
            return
        con = open_db(args.db)
        half = len(rows) // 2

        def write(chunk: list[tuple[Any, ...]]) -> None:
            con.executemany("INSERT INTO appended VALUES (?, ?, ?, ?, ?)", [(batch_id, *r) for r in chunk])
            con.executemany("INSERT OR IGNORE INTO idempotent VALUES (?, ?, ?, ?)", chunk)
            con.commit()

        write(rows[:half])
        (marker.parent / f"{marker.name}.batch-{batch_id}").touch()
        time.sleep(args.batch_sleep)
        write(rows[half:])
        con.close()

    df = (
        spark.readStream.format("kafka-share")
        .option("kafka.bootstrap.servers", args.bootstrap)
        .option("subscribe", args.topic)
        .option("group.id", args.group)
        .option("maxRecordsPerTrigger", args.max_records)
        .option("availableNowIdleMs", "30000")
        .load()
    )
    query = (
        df.writeStream.foreachBatch(sink)
        .option("checkpointLocation", args.checkpoint)
        .trigger(availableNow=True)
        .start()
    )
    query.awaitTermination()
    spark.stop()


if __name__ == "__main__":
    main()
