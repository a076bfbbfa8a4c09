"""Share-partition scale, raw ShareFetch/ShareAcknowledge (sharebroker only; ``bench.compare``).

Against a running broker (``bootstrap``, its ``pid`` for /proc):

- many: one topic of ``partitions`` partitions (1000 by default), ``per_partition``
  records each written as one batch; one member acquires them all with raw
  ShareFetch requests (nothing acknowledged): broker RSS growth per in-flight
  record and per share-partition, the ShareFetch round trips, then one
  ShareAcknowledge accepting every partition.
- batch: one partition; for each size (10 .. 10,000 records) one stored batch is
  acquired by one ShareFetch and accepted by one ShareAcknowledge of one offset
  range, ``rounds`` times: median acquire and ack round trips. The ack cost should
  not grow with the records in the range (batch-level state).
- growth: on one partition, acquire 10,000-record batches without acking until
  ``max_inflight`` records are in flight; the ShareFetch round trip at each step,
  and the cost of acking one 10-record range at the end vs at the start.

The raw requests are the integration tests' (``tests/integration``). The
acquisition lock (30 s by default) bounds each phase; every loop is bounded.
"""

from __future__ import annotations

import statistics
import time

from bench.produce import rss_kib
from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from broker.protocol.messages.share_acknowledge_request import (
    AcknowledgePartition,
    AcknowledgeTopic,
    ShareAcknowledgeRequest,
)
from broker.protocol.messages.share_acknowledge_request import AcknowledgementBatch as AckBatch
from broker.protocol.records import build_batch
from tests.integration.test_share_fetch_wire import _acquired, _earliest, _fetch, _produce_batch, _topic_id
from tests.integration.wire import WireClient

ACCEPT = 1


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000


def _topic(bootstrap: str, topic: str, partitions: int, group: str) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, partitions)])[topic].result(60)
    _earliest(bootstrap, group)


def _ack(w, group, member, epoch, tid, ranges: dict[int, list[tuple[int, int]]]):
    req = ShareAcknowledgeRequest(group_id=group, member_id=member, share_session_epoch=epoch, topics=[
        AcknowledgeTopic(topic_id=tid, partitions=[AcknowledgePartition(partition_index=p, acknowledgement_batches=[
            AckBatch(first_offset=a, last_offset=b, acknowledge_types=[ACCEPT]) for a, b in rs])
            for p, rs in ranges.items()])])
    t0 = time.perf_counter()
    resp = w.request(req, 2)
    ms = _ms(t0)
    bad = [p.error_code for t in resp.responses for p in t.partitions if p.error_code]
    if resp.error_code or bad:
        raise RuntimeError(f"ShareAcknowledge errors: {resp.error_code} {bad[:5]}")
    return ms


def many(bootstrap: str, pid: int, partitions: int = 1000, per_partition: int = 10) -> dict:
    tag = time.time_ns()
    topic, group, member = f"scale-many-{tag}", f"scale-many-{tag}", f"m-{tag}"
    _topic(bootstrap, topic, partitions, group)
    with WireClient(bootstrap, timeout=60) as w:
        tid = _topic_id(w, topic)
        batch = build_batch([(None, b"v" * 100, [], None) for _ in range(per_partition)])
        resp = w.request(ProduceRequest(acks=-1, timeout_ms=30000, topic_data=[TopicProduceData(name=topic, partition_data=[
            PartitionProduceData(index=p, records=batch) for p in range(partitions)])]), 9)
        assert all(p.error_code == 0 for t in resp.responses for p in t.partition_responses)
        time.sleep(0.5)
        rss0 = rss_kib(pid)
        total = partitions * per_partition
        got, epoch, fetches, times = 0, 0, 0, []
        ranges: dict[int, list[tuple[int, int]]] = {}
        deadline = time.time() + 20  # well inside the 30 s acquisition lock
        while got < total and time.time() < deadline:
            t0 = time.perf_counter()
            r = _fetch(w, group, member, epoch, tid, partitions=range(partitions) if epoch == 0 else (),
                       max_records=total, wait_ms=100)
            times.append(_ms(t0))
            epoch += 1
            fetches += 1
            for t in r.responses:
                for p in t.partitions:
                    for a in p.acquired_records:
                        ranges.setdefault(p.partition_index, []).append((a.first_offset, a.last_offset))
                        got += a.last_offset - a.first_offset + 1
        rss1 = rss_kib(pid)
        ack_ms = _ack(w, group, member, epoch, tid, ranges)
    delta = (rss1 - rss0) * 1024
    return {"share_partitions": partitions, "records_per_partition": per_partition, "in_flight": got,
            "rss_before_mib": round(rss0 / 1024, 1), "rss_after_mib": round(rss1 / 1024, 1),
            "bytes_per_in_flight_record": round(delta / max(got, 1), 1),
            "bytes_per_share_partition": round(delta / partitions),
            "share_fetches": fetches, "share_fetch_ms": [round(t, 1) for t in times],
            "ack_all_ms": round(ack_ms, 1)}


def batch_sizes(bootstrap: str, sizes=(10, 100, 1000, 10_000), rounds: int = 5) -> list[dict]:
    out = []
    for n in sizes:
        tag = time.time_ns()
        topic, group, member = f"scale-batch-{n}-{tag}", f"scale-batch-{tag}", f"m-{tag}"
        _topic(bootstrap, topic, 1, group)
        acq, ack = [], []
        with WireClient(bootstrap, timeout=60) as w:
            tid = _topic_id(w, topic)
            for _ in range(rounds):
                _produce_batch(w, topic, n)
            epoch = 0
            for _ in range(rounds):
                # The broker may cap one answer (2,000 records here): fetch until the batch is held.
                t0 = time.perf_counter()
                got: list = []
                while sum(b - a + 1 for a, b, _ in got) < n and _ms(t0) < 10_000:
                    got += _acquired(_fetch(w, group, member, epoch, tid, max_records=n, mode=1))
                    epoch += 1
                acq.append(_ms(t0))
                if sum(b - a + 1 for a, b, _ in got) != n:
                    raise RuntimeError(f"acquired {got} for a {n}-record batch")
                ack.append(_ack(w, group, member, epoch, tid, {0: [(min(a for a, _, _ in got), max(b for _, b, _ in got))]}))
                epoch += 1
        out.append({"batch_records": n, "acquire_ms_all_fetches": round(statistics.median(acq), 2),
                    "ack_ms": round(statistics.median(ack), 2)})
    return out


def growth(bootstrap: str, pid: int, step: int = 10_000, partitions: int = 10) -> dict:
    """In flight grows by ``step`` records (one stored batch) per ShareFetch, one partition each."""
    tag = time.time_ns()
    topic, group = f"scale-growth-{tag}", f"scale-growth-{tag}"
    _topic(bootstrap, topic, partitions, group)
    with WireClient(bootstrap, timeout=60) as w:
        tid = _topic_id(w, topic)
        _produce_batch(w, topic, 10)  # partition 0, offsets 0-9: the small range acked at the start and the end
        for p in range(partitions):
            _produce_batch(w, topic, step, partition=p)
        first = _acquired(_fetch(w, group, "m-small", 0, tid, max_records=10, mode=1))
        assert first == [(0, 9, 1)], first
        ack_start = _ack(w, group, "m-small", 1, tid, {0: [(0, 4)]})  # 5-9 stay in flight
        rss0 = rss_kib(pid)
        steps = []
        inflight = 5
        deadline = time.time() + 20  # inside the 30 s acquisition lock
        for p in range(partitions):
            if time.time() > deadline:
                break
            t0 = time.perf_counter()
            r = _fetch(w, group, f"m-{p}", 0, tid, partitions=(p,), max_records=step, mode=1)
            ms = _ms(t0)
            inflight += sum(b - a + 1 for a, b, _ in _acquired(r))
            steps.append({"in_flight": inflight, "share_fetch_ms": round(ms, 2)})
        rss1 = rss_kib(pid)
        ack_end = _ack(w, group, "m-small", 2, tid, {0: [(5, 9)]})
    return {"step_records": step, "steps": steps, "ack_5_records_ms_at_start": round(ack_start, 2),
            "ack_5_records_ms_at_end": round(ack_end, 2), "in_flight_end": inflight,
            "rss_growth_kib": rss1 - rss0,
            "bytes_per_in_flight_record": round((rss1 - rss0) * 1024 / max(inflight - 5, 1), 2)}


def scale(bootstrap: str, pid: int, partitions: int = 1000) -> dict:
    return {"many": many(bootstrap, pid, partitions), "batch": batch_sizes(bootstrap), "growth": growth(bootstrap, pid)}


# Kafka's default of 2,000 in-flight records per share-partition would cap the
# 10,000-record batches; its allowed maximum is 10,000.
SETTINGS = {"group.share.partition.max.record.locks": "10000"}


def run(cpus: str | None, partitions: int = 1000) -> dict:
    """Start a fresh sharebroker (pinned to ``cpus``, SETTINGS) and measure."""
    import tempfile
    from pathlib import Path

    from bench.peers import _PinnedBrokerProcess

    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
        proc = _PinnedBrokerProcess(Path(tmp) / "data", cpus)
        proc.settings = dict(SETTINGS)
        proc.start()
        try:
            out = scale(proc.bootstrap, proc.process.pid, partitions)
            out["settings"] = SETTINGS
            out["peak_rss_mib"] = round(rss_kib(proc.process.pid, "VmHWM") / 1024, 1)
            return out
        finally:
            proc.stop()


if __name__ == "__main__":
    import json
    import sys

    print(json.dumps(run("0", int(sys.argv[1]) if len(sys.argv) > 1 else 1000), indent=1))
