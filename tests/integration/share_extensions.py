"""Two share-group extensions driven by unmodified confluent-kafka share consumers; the
tests (tests/integration/test_share_extensions.py) and the benchmark
(bench/share_extensions.py) run these.

- :func:`backoff_run`: with ``share.redelivery.backoff.ms``, a consumer releases every
  record on its first delivery and accepts it on the second; per record, the time from
  the release being sent to the redelivery arriving, against the configured delay.
- :func:`ordering_run`: 8 consumers on 1 partition, 100 keys, random processing times,
  explicit acknowledgement; per key, whether records were accepted in offset order and
  never two in flight at once; throughput.
"""

from __future__ import annotations

import random
import statistics
import threading
import time
from typing import Any

from confluent_kafka import Producer

from tests.integration.clients import create_topic
from tests.integration.share_helpers import (
    ACCEPT,
    RELEASE,
    close_quietly,
    set_group_configs,
    share_consumer,
    unique,
)


def _produce(bootstrap: str, topic: str, n: int, keys: int | None = None, rate: float | None = None) -> None:
    """``n`` records into partition 0, in small batches (10 records), at ``rate`` records/s if given."""
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 2, "batch.num.messages": 10})
    start = time.monotonic()
    for i in range(n):
        key = None if keys is None else b"key-%d" % (i % keys)
        p.produce(topic, key=key, value=b"%d" % i, partition=0)
        p.poll(0)
        if rate is not None:
            ahead = start + (i + 1) / rate - time.monotonic()
            if ahead > 0:
                time.sleep(ahead)
    assert p.flush(30) == 0


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(q * (len(s) - 1))))]


def backoff_run(
    bootstrap: str, n: int, delay_ms: int | None, rate: float = 1000, timeout: float = 120
) -> dict[str, Any]:
    """Records arrive at ``rate``/s; each is released once, then accepted when it comes back.
    ``delay_ms`` None: no backoff configured (a Kafka broker refuses the extension's keys)."""
    topic = unique("bo")
    create_topic(bootstrap, topic)
    group = unique("bg")
    configs = {"share.auto.offset.reset": "earliest"}
    if delay_ms is not None:
        configs.update({"share.redelivery.backoff.ms": str(delay_ms), "share.redelivery.backoff.multiplier": "1"})
    set_group_configs(bootstrap, group, configs)
    sc = share_consumer(bootstrap, group, [topic], mode="explicit")
    producer = threading.Thread(target=_produce, args=(bootstrap, topic, n), kwargs={"rate": rate}, daemon=True)
    producer.start()
    sent_at: dict[int, float] = {}  # offset -> just before the release was handed to the client
    acked_at: dict[int, float] = {}  # offset -> the release answered
    back_at: dict[int, float] = {}
    releases_started = releases_ended = 0.0
    deadline = time.monotonic() + timeout
    try:
        while len(back_at) < n and time.monotonic() < deadline:
            batch = [m for m in sc.poll(0.1) if m.error() is None]
            now = time.monotonic()
            released = []
            for m in batch:
                offset = m.offset()
                assert offset is not None
                if m.delivery_count() == 1:
                    # librdkafka may send it with a background ShareFetch before commit_sync
                    sent_at[offset] = time.monotonic()
                    sc.acknowledge(m, RELEASE)
                    released.append(offset)
                else:
                    back_at.setdefault(offset, now)
                    sc.acknowledge(m, ACCEPT)
            if batch:
                t0 = time.monotonic()
                sc.commit_sync(10)
                t1 = time.monotonic()
                releases_started = releases_started or t0
                if released:
                    releases_ended = t1
                for o in released:
                    acked_at[o] = t1
    finally:
        close_quietly(sc)
        producer.join(60)
    delay_s = (delay_ms or 0) / 1000
    early_by = [(sent_at[o] + delay_s - back_at[o]) * 1000 for o in back_at if o in sent_at]
    early = [e for e in early_by if e > 0]
    # the broker released the record between sent_at and acked_at; measure from the answer
    errors_ms = [(back_at[o] - acked_at[o] - delay_s) * 1000 for o in back_at if o in acked_at]
    span = max(releases_ended - releases_started, 1e-9)
    return {
        "records": n,
        "released": len(sent_at),
        "redelivered": len(back_at),
        "early": len(early),
        "early_max_ms": round(max(early), 2) if early else 0.0,
        "releases_per_s": round(len(sent_at) / span, 1),
        "delay_ms": delay_ms,
        "error_p50_ms": round(percentile(errors_ms, 0.5), 2),
        "error_p99_ms": round(percentile(errors_ms, 0.99), 2),
        "error_max_ms": round(max(errors_ms), 2) if errors_ms else None,
    }


class _OrderedWorker(threading.Thread):
    def __init__(self, bootstrap: str, group: str, topic: str, log: list, lock: threading.Lock, seed: int):
        super().__init__(daemon=True)
        # At most 10 records a poll, so the 8 consumers share the partition.
        self.sc = share_consumer(bootstrap, group, [topic], mode="explicit", **{"max.poll.records": 10})
        self.log, self.lock = log, lock
        self.rng = random.Random(seed)
        self.halt = threading.Event()
        self.failure: BaseException | None = None

    def run(self) -> None:
        try:
            while not self.halt.is_set():
                batch = [m for m in self.sc.poll(0.1) if m.error() is None]
                if not batch:
                    continue
                got = time.monotonic()
                for m in batch:
                    time.sleep(self.rng.uniform(0, 0.004))  # the work: 0-4 ms a record
                    self.sc.acknowledge(m, ACCEPT)
                sent = time.monotonic()
                self.sc.commit_sync(10)
                with self.lock:
                    for m in batch:
                        self.log.append((m.key(), m.offset(), got, sent))
        except BaseException as e:
            self.failure = e
        finally:
            close_quietly(self.sc)


def ordering_run(
    bootstrap: str, n: int, *, ordered: bool, consumers: int = 8, keys: int = 100, timeout: float = 120
) -> dict[str, Any]:
    topic = unique("ko")
    create_topic(bootstrap, topic)
    group = unique("kg")
    # All consumers share the partition from the start: no KIP-1263 batching of their joins.
    configs = {"share.auto.offset.reset": "earliest", "share.assignment.interval.ms": "0"}
    if ordered:
        configs["share.key.ordering.enable"] = "true"
    set_group_configs(bootstrap, group, configs)
    _produce(bootstrap, topic, n, keys=keys)
    log: list[tuple[bytes, int, float, float]] = []
    lock = threading.Lock()
    workers = [_OrderedWorker(bootstrap, group, topic, log, lock, seed) for seed in range(consumers)]
    started = time.monotonic()
    for w in workers:
        w.start()
    deadline = started + timeout
    while time.monotonic() < deadline:
        with lock:
            done = len({o for _, o, _, _ in log}) >= n
        if done:
            break
        time.sleep(0.05)
    elapsed = time.monotonic() - started
    for w in workers:
        w.halt.set()
    for w in workers:
        w.join(20)
    failures = [repr(w.failure) for w in workers if w.failure is not None]
    by_key: dict[bytes, list[tuple[int, float, float]]] = {}
    for key, offset, got, sent in log:
        by_key.setdefault(key, []).append((offset, got, sent))
    out_of_order = overlapping = 0
    for recs in by_key.values():
        recs.sort(key=lambda r: r[2])  # by when the accept was sent
        offsets = [r[0] for r in recs]
        out_of_order += sum(1 for a, b in zip(offsets, offsets[1:]) if b < a)
        recs.sort()
        # a record of the key handed out before the previous one's accept was sent: two in flight
        overlapping += sum(1 for a, b in zip(recs, recs[1:]) if b[1] < a[2])
    delivered = len({o for _, o, _, _ in log})
    return {
        "ordered": ordered,
        "records": n,
        "delivered": delivered,
        "deliveries": len(log),
        "keys": len(by_key),
        "consumers": consumers,
        "out_of_order": out_of_order,
        "overlapping_in_flight": overlapping,
        "seconds": round(elapsed, 2),
        "records_per_s": round(delivered / elapsed, 1),
        "failures": failures,
        "median_batch_gap_ms": round(statistics.median([s - g for _, _, g, s in log]) * 1000, 2) if log else None,
    }
