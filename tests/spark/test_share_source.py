"""The kafka-share source (broker.spark) against the real broker: what a micro-batch
holds, when records are acknowledged, what happens to them when a sink fails or a query
stops, lock renewal, failed-record marking, restarts from a checkpoint, and the same
drain against Apache Kafka."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from broker.admin.client import AdminClient
from tests.spark.conftest import produce, share_group


def share_stream(spark: Any, bootstrap: str, topic: str, group: str, fmt: str = "kafka-share", **options: str) -> Any:
    reader = (
        spark.readStream.format(fmt)
        .option("kafka.bootstrap.servers", bootstrap)
        .option("subscribe", topic)
        .option("group.id", group)
    )
    for k, v in options.items():
        reader = reader.option(k, v)
    return reader.load()


class Collector:
    """A foreachBatch sink that keeps every row it was given, per micro-batch."""

    def __init__(self, on_batch: Callable[[int, list[Any]], None] | None = None) -> None:
        self.batches: dict[int, list[Any]] = {}
        self.lock = threading.Lock()
        self.on_batch = on_batch

    def __call__(self, df: Any, batch_id: int) -> None:
        rows = df.collect()
        if self.on_batch is not None:
            self.on_batch(batch_id, rows)
        with self.lock:
            self.batches[batch_id] = rows

    @property
    def rows(self) -> list[Any]:
        with self.lock:
            return [r for rows in self.batches.values() for r in rows]


def drain(df: Any, sink: Collector, checkpoint: Path, timeout: float = 120) -> Any:
    query = (
        df.writeStream.foreachBatch(sink)
        .option("checkpointLocation", str(checkpoint))
        .trigger(availableNow=True)
        .start()
    )
    assert query.awaitTermination(timeout), "the availableNow query did not finish"
    assert query.exception() is None
    return query


def start_offsets(admin: AdminClient, group: str, topic: str) -> dict[int, int]:
    g = admin.describe_share_group_offsets(group, {topic: list(range(16))})
    return {p.partition_index: p.start_offset for t in g.topics for p in t.partitions if p.start_offset >= 0}


def members(admin: AdminClient, group: str) -> int:
    return len(admin.describe_share_group(group).members)


def wait_for(check: Callable[[], bool], timeout: float, what: str, state: Callable[[], Any] | None = None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    seen = f"; then: {state()}" if state is not None else ""
    raise AssertionError(f"timed out after {timeout} s waiting for {what}{seen}")


def test_drain_schema_and_exactly_once_delivery(
    spark: Any, bootstrap: str, admin: AdminClient, topic_factory: Any, tmp_path: Path
) -> None:
    topic = topic_factory(partitions=3)
    group = share_group(admin)
    produce(bootstrap, topic, 3000, partitions=3, headers=[("h", b"1")])
    df = share_stream(spark, bootstrap, topic, group, includeHeaders="true")
    assert df.schema.simpleString() == (
        "struct<key:binary,value:binary,topic:string,partition:int,offset:bigint,timestamp:timestamp,"
        "timestampType:int,headers:array<struct<key:string,value:binary>>,deliveryCount:int>"
    )
    sink = Collector()
    drain(df, sink, tmp_path / "checkpoint")
    rows = sink.rows
    assert len(rows) == 3000
    assert len({(r.partition, r.offset) for r in rows}) == 3000
    for r in rows:
        i = int(bytes(r.key)[1:])
        assert bytes(r.value) == f"v{i}".encode()
        assert r.partition == i % 3 and r.topic == topic
        assert r.deliveryCount == 1
        assert [(h.key, bytes(h.value)) for h in r.headers] == [("h", b"1")]
        assert r.timestampType == 0 and r.timestamp is not None
    # Everything was acknowledged and the member left when the query ended.
    wait_for(lambda: start_offsets(admin, group, topic) == {0: 1000, 1: 1000, 2: 1000}, 20, "acks of every record")
    wait_for(lambda: members(admin, group) == 0, 20, "the member to leave")


def test_options_are_checked(spark: Any, bootstrap: str) -> None:
    from py4j.protocol import Py4JJavaError
    from pyspark.errors import PySparkException

    cases = [
        ({"subscribe": "t", "group.id": "g"}, "kafka.bootstrap.servers is required"),
        ({"kafka.bootstrap.servers": bootstrap, "group.id": "g"}, "subscribe is required"),
        ({"kafka.bootstrap.servers": bootstrap, "subscribe": "t"}, "group.id is required"),
        (
            {"kafka.bootstrap.servers": bootstrap, "subscribe": "t", "group.id": "g", "maxRecordsPerTrigger": "x"},
            "expected an integer",
        ),
        (
            {"kafka.bootstrap.servers": bootstrap, "subscribe": "t", "group.id": "g", "failedRecords": "drop"},
            "release or reject",
        ),
        ({"kafka.bootstrap.servers": bootstrap, "subscribePattern": "t.*", "group.id": "g"}, "subscribe is required"),
        (
            {"kafka.bootstrap.servers": bootstrap, "subscribe": "t", "group.id": "g", "bogus": "1"},
            "unknown option(s) for kafka-share: bogus",
        ),
    ]
    for options, message in cases:
        reader = spark.readStream.format("kafka-share")
        for k, v in options.items():
            reader = reader.option(k, v)
        with pytest.raises((PySparkException, Py4JJavaError, ValueError)) as info:
            reader.load()
        assert message in str(info.value), (options, str(info.value)[:2000])


def test_max_records_per_trigger(
    spark: Any, bootstrap: str, admin: AdminClient, topic_factory: Any, tmp_path: Path
) -> None:
    topic = topic_factory(partitions=2)
    group = share_group(admin)
    produce(bootstrap, topic, 1000, partitions=2)
    sink = Collector()
    query = drain(share_stream(spark, bootstrap, topic, group, maxRecordsPerTrigger="120"), sink, tmp_path / "ck")
    sizes = [p["numInputRows"] for p in query.recentProgress if p["numInputRows"]]
    assert sum(sizes) == 1000 and len(sink.rows) == 1000
    assert max(sizes) <= 120
    assert len({(r.partition, r.offset) for r in sink.rows}) == 1000


def test_a_failed_sink_acknowledges_nothing_and_the_records_come_back(
    spark: Any, bootstrap: str, admin: AdminClient, topic_factory: Any, tmp_path: Path
) -> None:
    topic = topic_factory(partitions=2)
    group = share_group(admin)
    produce(bootstrap, topic, 400, partitions=2)

    def explode(batch_id: int, rows: list[Any]) -> None:
        if rows:
            raise RuntimeError("the sink is down")

    failing = Collector(explode)
    df = share_stream(spark, bootstrap, topic, group)
    query = (
        df.writeStream.foreachBatch(failing)
        .option("checkpointLocation", str(tmp_path / "ck1"))
        .trigger(availableNow=True)
        .start()
    )
    with pytest.raises(Exception, match="the sink is down"):
        query.awaitTermination(120)
    # Nothing was accepted: the group still starts at 0 on both partitions.
    assert start_offsets(admin, group, topic) in ({}, {0: 0, 1: 0})

    # A new query gets every record; those of the failed batch come with delivery count 2.
    sink = Collector()
    drain(share_stream(spark, bootstrap, topic, group), sink, tmp_path / "ck2")
    rows = sink.rows
    assert sorted(int(bytes(r.key)[1:]) for r in rows) == list(range(400))
    assert {r.deliveryCount for r in rows} <= {1, 2}
    assert any(r.deliveryCount == 2 for r in rows)
    wait_for(lambda: start_offsets(admin, group, topic) == {0: 200, 1: 200}, 20, "acks of every record")


def test_last_batch_is_acknowledged_without_waiting_for_more_data(
    spark: Any, bootstrap: str, admin: AdminClient, topic_factory: Any, tmp_path: Path
) -> None:
    """Spark calls commit(end) one micro-batch late, only when a later batch has data. The
    source acknowledges at the next planning round instead: a running query with no new
    data still acknowledges its last batch at once."""
    topic = topic_factory(partitions=1)
    group = share_group(admin)
    produce(bootstrap, topic, 50)
    sink = Collector()
    query = (
        share_stream(spark, bootstrap, topic, group)
        .writeStream.foreachBatch(sink)
        .option("checkpointLocation", str(tmp_path / "ck"))
        .trigger(processingTime="500 milliseconds")
        .start()
    )
    try:
        wait_for(lambda: len(sink.rows) == 50, 60, "the batch")
        wait_for(lambda: start_offsets(admin, group, topic) == {0: 50}, 10, "the acknowledgement")
        produce(bootstrap, topic, 25, start=50)
        wait_for(lambda: len(sink.rows) == 75, 30, "the second batch")
        wait_for(lambda: start_offsets(admin, group, topic) == {0: 75}, 10, "the second acknowledgement")
        assert members(admin, group) == 1
    finally:
        query.stop()
    wait_for(lambda: members(admin, group) == 0, 20, "the member to leave after stop()")


def test_stopping_a_query_mid_batch_releases_its_records_and_leaves(
    spark: Any, bootstrap: str, admin: AdminClient, topic_factory: Any, tmp_path: Path
) -> None:
    topic = topic_factory(partitions=1)
    group = share_group(admin)  # default lock duration: 30 s
    produce(bootstrap, topic, 100)
    started, interrupted = threading.Event(), threading.Event()

    def slow(batch_id: int, rows: list[Any]) -> None:
        if rows:
            started.set()
            # A long sink write that the stop interrupts (a Python foreachBatch cannot be
            # interrupted from the JVM, so the test does it).
            if interrupted.wait(120):
                raise RuntimeError("interrupted by the query stop")

    query = (
        share_stream(spark, bootstrap, topic, group)
        .writeStream.foreachBatch(Collector(slow))
        .option("checkpointLocation", str(tmp_path / "ck"))
        .start()
    )
    assert started.wait(90), "the first batch did not start"
    assert members(admin, group) == 1
    t0 = time.monotonic()
    interrupted.set()
    query.stop()
    wait_for(lambda: members(admin, group) == 0, 20, "the member to leave")
    # The records are available again long before their 30 s locks would expire.
    sink = Collector()
    drain(share_stream(spark, bootstrap, topic, group), sink, tmp_path / "ck2")
    assert time.monotonic() - t0 < 30
    assert sorted(int(bytes(r.key)[1:]) for r in sink.rows) == list(range(100))
    assert {r.deliveryCount for r in sink.rows} == {2}


def test_locks_of_a_slow_batch_are_renewed(
    spark: Any, bootstrap: str, admin: AdminClient, topic_factory: Any, tmp_path: Path
) -> None:
    """A batch that runs three times longer than the lock duration keeps its records: no
    other member gets them meanwhile and none is delivered twice."""
    from confluent_kafka import Message, ShareConsumer

    topic = topic_factory(partitions=1)
    group = share_group(admin, {"share.record.lock.duration.ms": "2000"})
    produce(bootstrap, topic, 100)
    started = threading.Event()

    def slow(batch_id: int, rows: list[Any]) -> None:
        if rows:
            started.set()
            time.sleep(6)

    sink = Collector(slow)
    query = (
        share_stream(spark, bootstrap, topic, group)
        .writeStream.foreachBatch(sink)
        .option("checkpointLocation", str(tmp_path / "ck"))
        .trigger(availableNow=True)
        .start()
    )
    assert started.wait(90)
    other = ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group})
    other.subscribe([topic])
    stolen: list[Message] = []
    try:
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            stolen.extend(m for m in other.poll(0.5) if m.error() is None)
    finally:
        other.close()
    assert query.awaitTermination(120) and query.exception() is None
    assert stolen == []
    assert len(sink.rows) == 100 and {r.deliveryCount for r in sink.rows} == {1}


def test_failed_records_are_released_or_rejected(
    spark: Any, bootstrap: str, admin: AdminClient, topic_factory: Any, tmp_path: Path
) -> None:
    from broker.spark import register

    topic = topic_factory(partitions=2)
    group = share_group(admin, {"share.delivery.count.limit": "3"})
    produce(bootstrap, topic, 200, partitions=2)

    def verdict(row: Any) -> Any:
        i = int(bytes(row.key)[1:])
        if i % 10 == 3:
            return "reject"  # poison: archived at once
        if i % 10 == 7 and row.deliveryCount == 1:
            return True  # transient: released (the option's default), fine the second time
        if i % 10 == 9:
            return True  # always fails: archived after share.delivery.count.limit deliveries
        return False

    register(spark, failed=verdict, name="kafka-share-checked")
    sink = Collector()
    drain(
        share_stream(spark, bootstrap, topic, group, fmt="kafka-share-checked", failedRecords="release"),
        sink,
        tmp_path / "ck",
    )
    got = {int(bytes(r.key)[1:]): r.deliveryCount for r in sink.rows}
    expected = {i for i in range(200) if i % 10 not in (3, 9)}
    assert set(got) == expected
    assert {got[i] for i in expected if i % 10 == 7} == {2}
    assert {got[i] for i in expected if i % 10 != 7} == {1}
    # Rejected, archived-after-3-deliveries and accepted records are all final: the group is done.
    wait_for(lambda: start_offsets(admin, group, topic) == {0: 100, 1: 100}, 20, "every record to be final")


def test_restart_from_checkpoint_reads_only_new_records(
    spark: Any, bootstrap: str, admin: AdminClient, topic_factory: Any, tmp_path: Path
) -> None:
    topic = topic_factory(partitions=2)
    group = share_group(admin)
    produce(bootstrap, topic, 300, partitions=2)
    first, second = Collector(), Collector()
    drain(share_stream(spark, bootstrap, topic, group), first, tmp_path / "ck")
    produce(bootstrap, topic, 100, partitions=2, start=300)
    drain(share_stream(spark, bootstrap, topic, group), second, tmp_path / "ck")
    assert sorted(int(bytes(r.key)[1:]) for r in first.rows) == list(range(300))
    assert sorted(int(bytes(r.key)[1:]) for r in second.rows) == list(range(300, 400))


def test_two_queries_share_the_work(
    spark: Any, bootstrap: str, admin: AdminClient, topic_factory: Any, tmp_path: Path
) -> None:
    """Two queries in one share group split the records between them, whatever the partition
    count; together they see every record once."""
    topic = topic_factory(partitions=1)
    group = share_group(admin)
    produce(bootstrap, topic, 20000)
    a, b = Collector(), Collector()
    qa = (
        share_stream(spark, bootstrap, topic, group, maxRecordsPerTrigger="500")
        .writeStream.foreachBatch(a)
        .option("checkpointLocation", str(tmp_path / "a"))
        .start()
    )
    qb = (
        share_stream(spark, bootstrap, topic, group, maxRecordsPerTrigger="500")
        .writeStream.foreachBatch(b)
        .option("checkpointLocation", str(tmp_path / "b"))
        .start()
    )
    try:
        wait_for(
            lambda: len(a.rows) + len(b.rows) >= 20000,
            180,
            "every record",
            lambda: f"query a {len(a.rows)} rows in {len(a.batches)} batches, b {len(b.rows)} in {len(b.batches)}",
        )
    finally:
        qa.stop()
        qb.stop()
    keys = [int(bytes(r.key)[1:]) for r in a.rows + b.rows]
    assert sorted(set(keys)) == list(range(20000))
    assert a.rows and b.rows


def test_against_apache_kafka(spark: Any, tmp_path: Path) -> None:
    """The source speaks only the Kafka protocol: the same drain against Apache Kafka."""
    from bench.peers import KafkaPeer

    why = KafkaPeer.available()
    if why:
        pytest.skip(f"Kafka peer unavailable: {why} (make peer-kafka)")
    peer = KafkaPeer()
    try:
        peer.start()
        with AdminClient(peer.bootstrap) as admin:
            topic = "spark-share"
            admin.create_topics({topic: 2}, replication_factor=1)
            group = share_group(admin)
            produce(peer.bootstrap, topic, 2000, partitions=2)
            sink = Collector()
            drain(
                share_stream(spark, peer.bootstrap, topic, group, maxRecordsPerTrigger="700"),
                sink,
                tmp_path / "ck",
                timeout=180,
            )
            rows = sink.rows
            assert sorted(int(bytes(r.key)[1:]) for r in rows) == list(range(2000))
            assert {r.deliveryCount for r in rows} == {1}
            wait_for(lambda: members(admin, group) == 0, 30, "the member to leave")
    finally:
        peer.stop()
        peer._tmp.cleanup()
