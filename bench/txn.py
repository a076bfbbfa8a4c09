"""Transactions: transactional produce and read_committed fetch (``bench.compare``, scenario ``txn``).

- Transactional produce: one librdkafka producer with a ``transactional.id``
  (transaction version 1, as librdkafka speaks it: AddPartitionsToTxn, Produce
  v10 verified by the broker, EndTxn) writes 1 KiB records into one partition,
  ``per_txn`` records per transaction, committing each, for ``records`` records;
  every ``abort_every``-th transaction is aborted instead (its records stay in
  the log, so the reader below must skip them). Records/s and MB/s of committed
  records, from the first ``begin_transaction`` to the last commit, and
  transactions per second.
- read_committed fetch: a partition is filled with ``fetch_mib`` MiB of 1 KiB
  records in transactions of 1000 (every tenth aborted; the fill is not timed),
  then one librdkafka Consumer with ``isolation.level=read_committed``
  (``assign()``, no group) drains it from the first offset; MB/s of the records
  it returns (the aborted ones are filtered out by the client from the broker's
  aborted-transaction list), from ``assign()`` to the last record; the median of
  three drains. The consumer has the partition's leader before ``assign()`` and
  each ``consume()`` asks for no more records than are still to come
  (:func:`bench.fetch.drain`), as in the plain fetch scenario.

Both bounded by the record count and a deadline.
"""

from __future__ import annotations

import time

from bench import cores
from bench.fetch import DRAIN_CONSUMER, drain, know_leader
from bench.produce import RECORD


def produce_transactions(
    bootstrap: str, create_topic, records: int, per_txn: int = 100, abort_every: int = 10, deadline_s: float = 300.0
) -> tuple[dict, str]:
    """Returns (figures, topic)."""
    from confluent_kafka import Producer

    topic = f"cmp-txn-{time.time_ns()}"
    create_topic(bootstrap, topic)
    p = Producer(
        {
            "bootstrap.servers": bootstrap,
            "transactional.id": f"bench-{time.time_ns()}",
            "linger.ms": 5,
            "batch.size": 1_000_000,
            "queue.buffering.max.messages": 200_000,
            "log_level": 3,
        }
    )
    p.init_transactions(60)
    transactions = committed = aborted = 0
    deadline = time.time() + deadline_s
    stretch = cores.Stretch()
    start = time.perf_counter()
    while transactions * per_txn < records and time.time() < deadline:
        p.begin_transaction()
        for _ in range(per_txn):
            while True:
                try:
                    p.produce(topic, RECORD, partition=0)
                    break
                except BufferError:
                    p.poll(0.01)
        transactions += 1
        if abort_every and transactions % abort_every == 0:
            p.flush(60)
            p.abort_transaction(60)
            aborted += 1
        else:
            p.commit_transaction(60)
            committed += 1
    elapsed = max(time.perf_counter() - start, 1e-9)
    busy = stretch.end()
    p.flush(10)
    good = committed * per_txn
    return {
        "records_per_txn": per_txn,
        "transactions": transactions,
        "committed": committed,
        "aborted": aborted,
        "seconds": round(elapsed, 2),
        "records_per_s": round(good / elapsed),
        "mb_per_s": round(good * len(RECORD) / 1e6 / elapsed, 1),
        "transactions_per_s": round(transactions / elapsed, 1),
        "cores_pct": busy,
    }, topic


def fetch_committed(bootstrap: str, topic: str, expected: int, deadline_s: float = 120.0) -> dict:
    from confluent_kafka import OFFSET_BEGINNING, Consumer, TopicPartition

    c = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": f"txn-fetch-{time.time_ns()}",
            "isolation.level": "read_committed",
            "enable.auto.commit": False,
            "log_level": 3,
            **DRAIN_CONSUMER,
        }
    )
    know_leader(c, topic)
    stretch = cores.Stretch()
    first = time.perf_counter()
    c.assign([TopicPartition(topic, 0, OFFSET_BEGINNING)])
    try:
        got, nbytes, last = drain(c, expected, deadline_s)
        busy = stretch.end()
    finally:
        c.close()
    elapsed = max(last - first, 1e-9)
    return {
        "records": expected,
        "received": got,
        "seconds": round(elapsed, 2),
        "mb_per_s": round(nbytes / 1e6 / elapsed, 1),
        "cores_pct": busy,
        "drain_ends_at_last_record": True,
    }


FILL_PER_TXN = 1000


def run(
    bootstrap: str, create_topic, records: int, fetch_mib: int = 512, per_txn: int = 100, fetch_runs: int = 3
) -> dict:
    produced, _ = produce_transactions(bootstrap, create_topic, records, per_txn)
    fill_records = fetch_mib * 1024 * 1024 // len(RECORD)
    filled, topic = produce_transactions(bootstrap, create_topic, fill_records, FILL_PER_TXN, deadline_s=600)
    # Several drains of the same partition, the median one reported (a JVM peer warms up
    # over the first; a shared machine makes single drains noisy).
    drains = [fetch_committed(bootstrap, topic, filled["committed"] * FILL_PER_TXN) for _ in range(fetch_runs)]
    fetched = dict(sorted(drains, key=lambda d: d["mb_per_s"])[len(drains) // 2])
    fetched["runs_mb_per_s"] = [d["mb_per_s"] for d in drains]
    fetched["mib"] = fetch_mib
    fetched["fill_seconds"] = filled["seconds"]
    from bench.fetch import delete_topic

    fetched["topic_deleted"] = delete_topic(bootstrap, topic)
    return {"produce": produced, "fetch": fetched}
