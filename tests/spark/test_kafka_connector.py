"""Spark's own Kafka connector (spark-sql-kafka-0-10 4.2.0, kafka-clients 3.9.2) against
sharebroker: batch reads and writes, Structured Streaming with checkpoints, the
options people use. Nothing here knows it talks to sharebroker."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from broker.admin.client import AdminClient
from tests.spark.conftest import produce


def kafka_read(spark: Any, bootstrap: str, **options: str) -> Any:
    reader = spark.read.format("kafka").option("kafka.bootstrap.servers", bootstrap)
    for k, v in options.items():
        reader = reader.option(k, v)
    return reader.load()


def kafka_stream(spark: Any, bootstrap: str, **options: str) -> Any:
    reader = spark.readStream.format("kafka").option("kafka.bootstrap.servers", bootstrap)
    for k, v in options.items():
        reader = reader.option(k, v)
    return reader.load()


def run_available_now(df: Any, out: Path, checkpoint: Path) -> Any:
    query = (
        df.selectExpr("CAST(key AS STRING) AS key", "CAST(value AS STRING) AS value", "partition", "offset")
        .writeStream.format("parquet")
        .option("path", str(out))
        .option("checkpointLocation", str(checkpoint))
        .trigger(availableNow=True)
        .start()
    )
    assert query.awaitTermination(120), "the availableNow query did not finish"
    assert query.exception() is None
    return query


def test_batch_write_then_read_keys_headers_partitions(spark: Any, bootstrap: str, topic_factory: Any) -> None:
    topic = topic_factory(partitions=3)
    rows = [(f"k{i}", f"v{i}", i % 3) for i in range(300)]
    df = spark.createDataFrame(rows, "key string, value string, partition int").selectExpr(
        "key",
        "value",
        "partition",
        "array(named_struct('key', 'source', 'value', CAST(concat('row-', key) AS BINARY))) AS headers",
    )
    df.write.format("kafka").option("kafka.bootstrap.servers", bootstrap).option("topic", topic).save()

    back = kafka_read(spark, bootstrap, subscribe=topic, includeHeaders="true").selectExpr(
        "CAST(key AS STRING) AS key", "CAST(value AS STRING) AS value", "partition", "offset", "headers", "topic"
    )
    got = back.collect()
    assert len(got) == 300
    assert {r.topic for r in got} == {topic}
    by_key = {r.key: r for r in got}
    assert set(by_key) == {f"k{i}" for i in range(300)}
    for i in range(300):
        r = by_key[f"k{i}"]
        assert r.value == f"v{i}"
        assert r.partition == i % 3
        assert [(h.key, bytes(h.value)) for h in r.headers] == [("source", f"row-k{i}".encode())]
    counts = {r.partition: r["count"] for r in back.groupBy("partition").count().collect()}
    assert counts == {0: 100, 1: 100, 2: 100}
    # Offsets of each partition are dense from 0.
    for p in range(3):
        offsets = sorted(r.offset for r in got if r.partition == p)
        assert offsets == list(range(100))


def test_starting_timestamp(spark: Any, bootstrap: str, topic_factory: Any) -> None:
    topic = topic_factory(partitions=2)
    t1 = int(time.time() * 1000) - 600_000
    t2 = t1 + 300_000
    produce(bootstrap, topic, 40, partitions=2, timestamp=t1)
    produce(bootstrap, topic, 60, partitions=2, start=40, timestamp=t2)

    late = kafka_read(spark, bootstrap, subscribe=topic, startingTimestamp=str(t2))
    keys = sorted(int(r.key[1:]) for r in late.selectExpr("CAST(key AS STRING) AS key").collect())
    assert keys == list(range(40, 100))

    by_partition = json.dumps({topic: {"0": t2, "1": t1}})
    mixed = kafka_read(spark, bootstrap, subscribe=topic, startingOffsetsByTimestamp=by_partition)
    counts = {r.partition: r["count"] for r in mixed.groupBy("partition").count().collect()}
    assert counts == {0: 30, 1: 50}


def test_assign_with_offset_ranges(spark: Any, bootstrap: str, topic_factory: Any) -> None:
    topic = topic_factory(partitions=2)
    produce(bootstrap, topic, 200, partitions=2)  # 100 per partition
    df = kafka_read(
        spark,
        bootstrap,
        assign=json.dumps({topic: [0, 1]}),
        startingOffsets=json.dumps({topic: {"0": 10, "1": -2}}),
        endingOffsets=json.dumps({topic: {"0": 20, "1": 5}}),
    )
    got = sorted((r.partition, r.offset) for r in df.select("partition", "offset").collect())
    assert got == [(0, o) for o in range(10, 20)] + [(1, o) for o in range(5)]
    # assign with only one partition reads only that one.
    only = kafka_read(spark, bootstrap, assign=json.dumps({topic: [1]}))
    assert {r.partition for r in only.select("partition").collect()} == {1}
    assert only.count() == 100


def test_stream_available_now_restart_reads_exactly_new_records(
    spark: Any, bootstrap: str, topic_factory: Any, tmp_path: Path
) -> None:
    topic = topic_factory(partitions=3)
    produce(bootstrap, topic, 500, partitions=3)
    out, checkpoint = tmp_path / "out", tmp_path / "checkpoint"
    stream = kafka_stream(spark, bootstrap, subscribe=topic, startingOffsets="earliest")

    first = run_available_now(stream, out, checkpoint)
    assert sum(p["numInputRows"] for p in first.recentProgress) == 500
    assert spark.read.parquet(str(out)).count() == 500

    produce(bootstrap, topic, 250, partitions=3, start=500)
    second = run_available_now(stream, out, checkpoint)
    # The restarted query read exactly the new records, none of the old ones again.
    assert sum(p["numInputRows"] for p in second.recentProgress) == 250
    result = spark.read.parquet(str(out))
    assert result.count() == 750
    assert result.select("partition", "offset").distinct().count() == 750
    assert {r.key for r in result.select("key").collect()} == {f"k{i}" for i in range(750)}

    # Nothing new: a third run reads nothing.
    third = run_available_now(stream, out, checkpoint)
    assert sum(p["numInputRows"] for p in third.recentProgress) == 0


def test_stream_max_offsets_per_trigger(spark: Any, bootstrap: str, topic_factory: Any, tmp_path: Path) -> None:
    topic = topic_factory(partitions=2)
    produce(bootstrap, topic, 1000, partitions=2)
    stream = kafka_stream(spark, bootstrap, subscribe=topic, startingOffsets="earliest", maxOffsetsPerTrigger="150")
    query = run_available_now(stream, tmp_path / "out", tmp_path / "checkpoint")
    sizes = [p["numInputRows"] for p in query.recentProgress if p["numInputRows"]]
    assert sum(sizes) == 1000
    assert max(sizes) <= 150
    assert len(sizes) >= 7


def test_subscribe_pattern(spark: Any, bootstrap: str, admin: AdminClient, tmp_path: Path) -> None:
    prefix = f"pat{int(time.time() * 1000) % 1_000_000}"
    admin.create_topics({f"{prefix}-a": 1, f"{prefix}-b": 2, f"other{prefix}": 1})
    produce(bootstrap, f"{prefix}-a", 10)
    produce(bootstrap, f"{prefix}-b", 20, partitions=2)
    produce(bootstrap, f"other{prefix}", 30)
    stream = kafka_stream(spark, bootstrap, subscribePattern=f"{prefix}-.*", startingOffsets="earliest")
    query = (
        stream.selectExpr("topic")
        .writeStream.format("memory")
        .queryName(f"pattern_{prefix}")
        .trigger(availableNow=True)
        .option("checkpointLocation", str(tmp_path / "checkpoint"))
        .start()
    )
    assert query.awaitTermination(120)
    counts = {
        r.topic: r["count"]
        for r in spark.sql(f"SELECT topic, count(*) AS count FROM pattern_{prefix} GROUP BY topic").collect()
    }
    assert counts == {f"{prefix}-a": 10, f"{prefix}-b": 20}


def test_read_committed_sees_committed_data(spark: Any, bootstrap: str, topic_factory: Any, tmp_path: Path) -> None:
    topic = topic_factory(partitions=2)
    produce(bootstrap, topic, 120, partitions=2)
    batch = kafka_read(spark, bootstrap, subscribe=topic, **{"kafka.isolation.level": "read_committed"})
    assert batch.count() == 120
    stream = kafka_stream(
        spark, bootstrap, subscribe=topic, startingOffsets="earliest", **{"kafka.isolation.level": "read_committed"}
    )
    query = run_available_now(stream, tmp_path / "out", tmp_path / "checkpoint")
    assert sum(p["numInputRows"] for p in query.recentProgress) == 120


def test_read_committed_skips_aborted_data(spark: Any, bootstrap: str, topic_factory: Any) -> None:
    """Committed and aborted transactions interleaved: read_committed returns the
    committed records only, read_uncommitted all of them."""
    from confluent_kafka import Producer

    topic = topic_factory(partitions=1)
    p = Producer({"bootstrap.servers": bootstrap, "transactional.id": f"tx-{topic}"})
    p.init_transactions()
    for i in range(4):
        p.begin_transaction()
        for j in range(10):
            p.produce(topic, key=f"t{i}-{j}".encode(), value=b"x")
        if i % 2:
            p.flush()  # written before the abort (which drops what is still queued)
            p.abort_transaction()
        else:
            p.commit_transaction()
    committed = kafka_read(spark, bootstrap, subscribe=topic, **{"kafka.isolation.level": "read_committed"})
    keys = {r.key for r in committed.selectExpr("CAST(key AS STRING) AS key").collect()}
    assert keys == {f"t{i}-{j}" for i in (0, 2) for j in range(10)}
    everything = kafka_read(spark, bootstrap, subscribe=topic, **{"kafka.isolation.level": "read_uncommitted"})
    assert everything.count() == 40
