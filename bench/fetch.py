"""Plain fetch throughput: one librdkafka Consumer drains a pre-filled topic (``bench.compare``).

The topic (1 partition) is filled with ``mib`` MiB of 1 KiB records by
``bench.produce.produce``; a Consumer with ``assign()`` (no group join, no
commits) then reads from the first offset to the last as fast as it can.
MB/s is counted from ``assign()`` to the last record received (librdkafka
prefetches in the background, so timing from the first record returned would
only measure the client's local queue); the consumer knows the partition's leader
before that (:func:`know_leader`). Bounded by the
record count and a deadline. The topic is deleted afterwards (best effort) so
that a 1 GiB run does not keep its data around while the broker goes on.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from bench import cores
from bench.produce import RECORD, produce


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (its threads included)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


# librdkafka consumer settings for a drain as fast as it goes (this row, the read_committed
# row of bench.txn, bench.tls). Large responses and a deep local queue, and
# fetch.queue.backoff.ms low: by default, once the local queue holds queued.min.messages
# (100,000 records: 100 MB here, filled in a quarter of a second) librdkafka waits a whole
# second (1000 ms) before it fetches again, whatever the broker. A drain of a few seconds
# then measured how many of those seconds fell in it: a 512 MiB drain took 1.77 s, one
# second of it this wait (strace of the broker: 34 requests answered 7 ms apart, one
# 1,004 ms apart), and runs of the same code moved by 15-40 %. A Java consumer fetches
# again as soon as its buffer has room; with 10 ms, so does this one.
DRAIN_CONSUMER = {
    "fetch.max.bytes": 64 * 1024 * 1024,
    "max.partition.fetch.bytes": 16 * 1024 * 1024,
    "queued.max.messages.kbytes": 256 * 1024,
    "fetch.queue.backoff.ms": 10,
}


def know_leader(consumer, topic: str) -> None:
    """Load ``topic``'s metadata into the consumer before a timed ``assign()``.

    A consumer assigned a partition whose leader it does not know yet (it has only just
    connected) sets a timer and queries the start offset about half a second later
    (librdkafka's debug log: "no current leader for partition: (re)starting offset query
    timer", then "timed offset query" 500 ms on), while the broker waits idle. That was
    a fifth of a 1 GiB drain, on every broker. With the metadata loaded first, the first
    record arrives within milliseconds of ``assign()``.
    """
    consumer.list_topics(topic, timeout=30)


def drain(consumer, records: int, deadline_s: float) -> tuple[int, int, float]:
    """Consume until ``records`` records have arrived or ``deadline_s`` has passed.

    Returns (records received, their value bytes, ``time.perf_counter()`` after the
    last one). Each ``consume()`` asks for no more than the records still to come:
    librdkafka returns a batch when it is full or its timeout has passed, so asking
    for 10,000 when fewer are left would wait out the whole timeout after the last
    record and count that idle half second as part of the drain.
    """
    got = nbytes = 0
    last = time.perf_counter()
    deadline = time.time() + deadline_s
    while got < records and time.time() < deadline:
        for m in consumer.consume(min(10_000, records - got), 0.5):
            if m.error() is None:
                got += 1
                nbytes += len(m.value() or b"")
        last = time.perf_counter()
    return got, nbytes, last


def fetch(bootstrap: str, create_topic, mib: int, deadline_s: float = 120.0, pid: int | None = None) -> dict:
    from confluent_kafka import OFFSET_BEGINNING, Consumer, TopicPartition

    topic = f"cmp-fetch-{time.time_ns()}"
    create_topic(bootstrap, topic)
    records = mib * 1024 * 1024 // len(RECORD)
    fill_s = produce(bootstrap, topic, 1, records)
    c = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"fetch-{time.time_ns()}",
            "enable.auto.commit": False,
            "log_level": 3,
            **DRAIN_CONSUMER,
        }
    )
    know_leader(c, topic)
    cpu_start = cpu_seconds(pid) if pid else 0.0
    client_start = time.process_time()  # this process: the Python loop and librdkafka's threads
    stretch = cores.Stretch()
    first = time.perf_counter()
    c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
    try:
        got, nbytes, last = drain(c, records, deadline_s)
        busy = stretch.end()
    finally:
        c.close()
    cpu = cpu_seconds(pid) - cpu_start if pid else None
    elapsed = max(last - first, 1e-9)
    client_cpu_pct = round(100 * (time.process_time() - client_start) / elapsed)
    extra = {} if cpu is None else {"broker_cpu_s": round(cpu, 2), "broker_cpu_s_per_gib": round(cpu * 1024 / mib, 2)}
    return {
        **extra,
        "mib": mib,
        "records": records,
        "received": got,
        "fill_seconds": round(fill_s, 1),
        "seconds": round(elapsed, 2),
        "mb_per_s": round(nbytes / 1e6 / elapsed, 1),
        # Near 100: the client's one core limits the row, not the broker.
        "client_cpu_pct": client_cpu_pct,
        "cores_pct": busy,
        "fetch_queue_backoff_ms": DRAIN_CONSUMER["fetch.queue.backoff.ms"],
        "leader_known_before_assign": True,
        "drain_ends_at_last_record": True,
        "topic_deleted": delete_topic(bootstrap, topic),
    }


def delete_topic(bootstrap: str, topic: str) -> bool | str:
    """Delete ``topic``: True, or why not (the broker's data dir goes with it on stop anyway)."""
    from confluent_kafka.admin import AdminClient

    admin = AdminClient({"bootstrap.servers": bootstrap, "log_level": 3})
    try:
        admin.delete_topics([topic], operation_timeout=60)[topic].result(90)
        return True
    except Exception as e:  # reported, not fatal: the figure is already taken
        return f"{type(e).__name__}: {e}"
