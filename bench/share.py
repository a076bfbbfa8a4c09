"""Share-group consumption: throughput and end-to-end latency (``python -m bench.share``, sharebroker alone).

- throughput: a topic pre-filled with N records is drained by K librdkafka
  ShareConsumers (separate processes, implicit acknowledgement) in one share
  group, all started together once every one holds its assignment; records/s
  from the start to the last record, and the records each member took.
- latency: a producer sends at a fixed rate (default 1000 records/s), each
  record carrying its send time; one ShareConsumer reports p50/p99/p99.9 of
  receive time minus send time.

Every loop is bounded by a record count and a deadline.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import multiprocessing as mp
import os
import platform
import statistics
import struct
import tempfile
import time
from pathlib import Path

from bench import cores
from broker.testing import BrokerProcess

# Give up on a scenario after this long (a healthy run takes a fraction).
DEADLINE_S = 180.0
# Give up waiting for every member of a drain to hold its assignment after this long (Kafka
# assigns share groups on the heartbeat after the topics are initialised: about 5 s).
ASSIGNED_WITHIN_S = 60.0
# With a fixed fill batch, the producer waits this long for a batch to fill (it fills
# in a few ms; the last, partial batch of each partition goes out at flush()).
FIXED_BATCH_LINGER_MS = 1000


def _admin_setup(bootstrap: str, topic: str, partitions: int, group: str, reset: str) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap, "log_level": 3})
    admin.create_topics([NewTopic(topic, partitions)])[topic].result(30)
    _admin_setup_group(bootstrap, group, reset, admin)


def _admin_setup_group(bootstrap: str, group: str, reset: str, admin=None) -> None:
    from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType

    admin = admin or AdminClient({"bootstrap.servers": bootstrap, "log_level": 3})
    res = ConfigResource(
        ResourceType.GROUP,
        group,
        incremental_configs=[
            ConfigEntry("share.auto.offset.reset", reset, incremental_operation=AlterConfigOpType.SET)
        ],
    )
    for f in admin.incremental_alter_configs([res]).values():
        f.result(30)


def first_share_record(bootstrap: str, deadline_s: float = 120.0) -> float:
    """On a broker that has just started: create a topic, set share.auto.offset.reset=earliest
    for a new share group, produce one record and poll a ShareConsumer until it arrives.
    Returns time.perf_counter() at its arrival (``bench.compare`` startup scenario)."""
    from confluent_kafka import KafkaError, KafkaException, Producer, ShareConsumer

    tag = f"first-{os.getpid()}-{time.time_ns()}"
    topic = group = f"share-bench-{tag}"
    deadline = time.time() + deadline_s
    while True:  # a broker that answers ApiVersions may still refuse CreateTopics for a moment
        try:
            _admin_setup(bootstrap, topic, 1, group, "earliest")
            break
        except KafkaException as e:
            if e.args[0].code() == KafkaError.TOPIC_ALREADY_EXISTS:
                _admin_setup_group(bootstrap, group, "earliest")
                break
            if time.time() > deadline:
                raise
            time.sleep(0.05)
    p = Producer({"bootstrap.servers": bootstrap, "log_level": 3})
    p.produce(topic, b"first")
    if p.flush(max(1.0, deadline - time.time())):
        raise RuntimeError("the first record was not delivered")
    del p
    c = ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group, "log_level": 3})
    c.subscribe([topic])
    try:
        while time.time() < deadline:
            if any(m.error() is None for m in c.poll(0.05)):
                return time.perf_counter()
    finally:
        c.close()
    raise RuntimeError(f"no share record within {deadline_s} s")


def _fill(bootstrap: str, topic: str, partitions: int, count: int, size: int, batch: int = 0) -> None:
    """``count`` records round-robin over the partitions. ``batch`` 0: librdkafka's default
    batching (batch.size 1 MB, linger 5 ms), as an application would produce; the
    batches then follow how fast the broker answers Produce. ``batch`` N: every batch
    holds N records (linger long enough to fill it), the same on every broker."""
    from confluent_kafka import Producer

    conf: dict[str, object] = {"bootstrap.servers": bootstrap, "queue.buffering.max.messages": 500_000}
    if batch > 0:
        conf.update({"batch.num.messages": batch, "linger.ms": FIXED_BATCH_LINGER_MS})
    p = Producer(conf)
    payload = b"x" * size
    for i in range(count):
        while True:
            try:
                p.produce(topic, payload, partition=i % partitions)
                break
            except BufferError:
                p.poll(0.01)
    assert p.flush(120) == 0


# Members start from a clean interpreter (forkserver), as an application's consumers do,
# not forked from this process, which has run librdkafka clients by then (librdkafka is
# not fork-safe). Forked members received records 40-45 ms late at about one handover
# in five from the second drain of a run on (from the broker's send to the application's
# poll), so every drain but the first was up to 2x slower than a fresh process's.
_MEMBERS = mp.get_context("forkserver")


def _member(bootstrap, topic, group, index, counts, last_at, go, stop, work_ms, deadline) -> None:
    """One member: joins at once (librdkafka heartbeats without being polled), polls only
    once ``go`` is set, and spends ``work_ms`` per record (paced against a deadline, so
    however long each sleep overshoots the average stays ``work_ms``)."""
    from confluent_kafka import ShareConsumer

    # The forkserver imports the runner's main module into every member (bench.compare:
    # ~37,000 objects against ~17,000 for a process that imports only the client). Frozen,
    # they are not walked by the member's collections: otherwise its first full collection
    # stops it for 20-30 ms in the middle of the drain, once per member, so a 16-member
    # row paid it 16 times and a 1-member row once.
    gc.freeze()
    c = ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group, "log_level": 3})
    c.subscribe([topic])
    try:
        go.wait(max(0.0, deadline - time.time()))
        work_s = work_ms / 1000
        due = 0.0
        done = 0
        while not stop.is_set() and time.time() < deadline:
            msgs = [m for m in c.poll(0.2) if m.error() is None]
            if not msgs:
                continue
            if work_s > 0:
                for _ in msgs:
                    now = time.perf_counter()
                    due = (due if due > now else now) + work_s
                    time.sleep(due - now)
            done += len(msgs)
            counts[index] = done
            last_at[index] = time.time()
    finally:
        c.close()


def _all_assigned(bootstrap: str, group: str, members: int) -> bool:
    """Whether ShareGroupDescribe shows ``members`` members, each holding partitions."""
    from broker.admin.client import AdminClient, KafkaApiError

    with AdminClient(bootstrap) as admin:
        try:
            described = admin.describe_share_group(group)
        except KafkaApiError:
            return False  # no member has joined yet
    held = [sum(len(tp.partitions) for tp in m.assignment.topic_partitions) for m in described.members]
    return len(held) == members and all(held)


def drain_together(bootstrap: str, topic: str, group: str, members: int, records: int, work_ms: float = 0.0) -> dict:
    """Drain ``topic`` with ``members`` ShareConsumer processes that start together.

    Every member joins first; once ShareGroupDescribe shows each holding its
    assignment, all start polling at once, so no member drains the topic alone
    before the others are assigned (on any broker: Kafka assigns a share group on the
    heartbeat after its topics are initialized, about 5 s). Timed from that start
    to the last record processed. ``spread``: records per member, largest first.
    """
    ctx = _MEMBERS
    counts = ctx.Array("q", members)
    last_at = ctx.Array("d", members)
    go, stop = ctx.Event(), ctx.Event()
    deadline = time.time() + DEADLINE_S + ASSIGNED_WITHIN_S
    procs = [
        ctx.Process(target=_member, args=(bootstrap, topic, group, i, counts, last_at, go, stop, work_ms, deadline))
        for i in range(members)
    ]
    for p in procs:
        p.start()
    try:
        joined_by = time.time() + ASSIGNED_WITHIN_S
        while not _all_assigned(bootstrap, group, members):
            if time.time() > joined_by:
                raise RuntimeError(f"{members} members did not all hold an assignment within {ASSIGNED_WITHIN_S} s")
            time.sleep(0.2)
        started = time.time()
        stretch = cores.Stretch()
        go.set()
        while sum(counts[:]) < records and time.time() < deadline:
            time.sleep(0.02)
        busy = stretch.end()
        received = sum(counts[:])
        seconds = max(max(last_at[:]) - started, 1e-9)
    finally:
        go.set()
        stop.set()
        for p in procs:
            p.join(30)
            if p.is_alive():
                p.kill()
    return {
        "received": received,
        "seconds": round(seconds, 3),
        "records_per_s": round(received / seconds),
        "spread": sorted(counts[:], reverse=True),
        "cores_pct": busy,
    }


def throughput(
    bootstrap: str,
    consumers: int,
    partitions: int,
    records: int,
    size: int,
    around_drain=contextlib.nullcontext,
    fill_batch: int = 0,
    work_ms: float = 0.0,
) -> dict:
    """Pre-fill (``fill_batch``: see :func:`_fill`), then drain with every member started
    together (:func:`drain_together`); ``around_drain()`` wraps only the drain (e.g. a
    profiler)."""
    tag = f"{consumers}c{partitions}p-{os.getpid()}-{time.time_ns()}"
    topic, group = f"share-bench-{tag}", f"share-bench-{tag}"
    _admin_setup(bootstrap, topic, partitions, group, "earliest")
    _fill(bootstrap, topic, partitions, records, size, fill_batch)
    with around_drain():
        drained = drain_together(bootstrap, topic, group, consumers, records, work_ms)
    return {"consumers": consumers, "partitions": partitions, "records": records, **drained}


def spread_problem(row: dict) -> str | None:
    """Why a drain does not measure what its name says, or None.

    A row named for N consumers where some consumer received nothing was drained by
    fewer: it is no figure for N consumers.
    """
    if row["received"] < row["records"]:
        return f"only {row['received']:,} of {row['records']:,} records were received"
    spread = row.get("spread")
    if spread is None:
        return None  # a run from before the counts were kept: nothing to judge by
    working = sum(1 for n in spread if n > 0)
    if working < row["consumers"]:
        return f"drained by {working} of {row['consumers']} members"
    return None


def latency(bootstrap: str, rate: int, seconds: float) -> dict:
    from confluent_kafka import Producer, ShareConsumer

    tag = f"lat-{os.getpid()}-{time.time_ns()}"
    topic, group = f"share-bench-{tag}", f"share-bench-{tag}"
    _admin_setup(bootstrap, topic, 1, group, "latest")
    c = ShareConsumer({"bootstrap.servers": bootstrap, "group.id": group, "log_level": 3})
    c.subscribe([topic])
    # Wait until the consumer holds its assignment (first empty polls), so the
    # measurement starts with a warm consumer.
    warm_until = time.time() + 5
    while time.time() < warm_until:
        c.poll(0.2)
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 0, "acks": "1"})
    count = int(rate * seconds)
    lat: list[float] = []
    interval = 1.0 / rate
    next_send = time.perf_counter()
    sent = 0
    deadline = time.time() + seconds + 30
    while (sent < count or len(lat) < count) and time.time() < deadline:
        now = time.perf_counter()
        while sent < count and now >= next_send:
            p.produce(topic, struct.pack(">d", time.time()))
            sent += 1
            next_send += interval
        p.poll(0)
        for m in c.poll(0.001):
            sent_at = m.value()  # every record sent above carries its send time
            if m.error() is None and sent_at is not None:
                lat.append(time.time() - struct.unpack(">d", sent_at)[0])
    p.flush(10)
    c.close()
    lat.sort()

    def q(x: float) -> float:
        return round(lat[min(len(lat) - 1, int(x * len(lat)))] * 1000, 2) if lat else float("nan")

    return {
        "rate": rate,
        "sent": sent,
        "received": len(lat),
        "p50_ms": q(0.50),
        "p99_ms": q(0.99),
        "p999_ms": q(0.999),
        "mean_ms": round(statistics.fmean(lat) * 1000, 2) if lat else float("nan"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=200_000)
    parser.add_argument("--size", type=int, default=100, help="record value size in bytes")
    parser.add_argument("--rate", type=int, default=1000, help="latency scenario: records per second")
    parser.add_argument("--seconds", type=float, default=10.0, help="latency scenario length")
    parser.add_argument("--bootstrap", help="measure an already running broker instead of starting one")
    parser.add_argument("--json")
    args = parser.parse_args()
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    results: dict = {"machine": platform.platform(), "cpus": os.cpu_count(), "throughput": [], "latency": None}
    with tempfile.TemporaryDirectory() as tmp:
        broker = None
        bootstrap = args.bootstrap
        if bootstrap is None:
            broker = BrokerProcess(Path(tmp) / "data").start()
            bootstrap = broker.bootstrap
        try:
            for consumers, partitions in ((1, 1), (4, 1)):
                r = throughput(bootstrap, consumers, partitions, args.records, args.size)
                results["throughput"].append(r)
                print(
                    f"share consume: {consumers} consumer(s), {partitions} partition(s): "
                    f"{r['records_per_s']} records/s ({r['received']}/{r['records']} in {r['seconds']} s)"
                )
            results["latency"] = r = latency(bootstrap, args.rate, args.seconds)
            print(
                f"latency at {r['rate']} records/s: p50 {r['p50_ms']} ms, p99 {r['p99_ms']} ms, "
                f"p99.9 {r['p999_ms']} ms ({r['received']}/{r['sent']} received)"
            )
        finally:
            if broker is not None:
                broker.stop()
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
