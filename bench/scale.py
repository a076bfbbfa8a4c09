"""Share-partition scale through raw ShareFetch / ShareAcknowledge (``bench.compare``).

The same workload against sharebroker and Apache Kafka 4.2 (any broker with share
groups), each freshly started and pinned like the other scenarios. Every member
first joins its share group through ShareGroupHeartbeat (api key 76) with a
client-generated member id in Kafka's Uuid text form: Kafka serves ShareFetch only
to partitions whose share-group state it has initialised for an assignment, and
that initialisation is asynchronous, so the join waits (bounded) until the
member's assignment covers every partition of the topic, and fetches are retried
(bounded) until the records come. A background thread keeps heartbeating at the
interval the broker asks for, so no member expires during a phase.

- many: one topic of ``partitions`` partitions (1000 by default), ``per_partition``
  records each written as one batch; one member acquires them all (nothing
  acknowledged): broker RSS growth per in-flight record and per share-partition,
  the ShareFetch round trips and the time until every record is held, then one
  ShareAcknowledge accepting every partition.
- batch: one partition; for each size (10 .. 2,000 records) one stored batch is
  acquired (ShareFetch in record-limit mode, repeated until the batch is held) and
  accepted by one ShareAcknowledge of one offset range, ``rounds`` times: median
  acquire and ack round trips.
- growth: one member, one share session over ``partitions`` partitions (50) plus one
  holding a small range; a ``step``-record batch (2,000) is appended to the next
  partition and acquired by one ShareFetch, until ``partitions * step`` records
  (100,000) are in flight: the
  ShareFetch round trip at each step, and the cost of acknowledging 5 records with
  5 in flight vs with everything in flight.

Both brokers run with their defaults, including at most 2,000 in-flight records per
share-partition (``group.share.partition.max.record.locks``: Kafka 4.2 refuses to
change it at run time, so the batch and step sizes stay within it). For a JVM broker
the live heap (``jcmd GC.run`` then ``GC.heap_info``) is recorded next to RSS, since
the JVM's RSS mostly reflects the heap it has already reserved.

Every loop is bounded by a count and a deadline; each phase stays well inside the
30 s acquisition lock.
"""

from __future__ import annotations

import base64
import re
import statistics
import subprocess
import threading
import time
import uuid

from bench.produce import rss_kib
from broker.protocol.messages.find_coordinator_request import FindCoordinatorRequest
from broker.protocol.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from broker.protocol.messages.share_acknowledge_request import AcknowledgementBatch as AckBatch
from broker.protocol.messages.share_acknowledge_request import (
    AcknowledgePartition,
    AcknowledgeTopic,
    ShareAcknowledgeRequest,
)
from broker.protocol.messages.share_fetch_request import FetchPartition, FetchTopic, ShareFetchRequest
from broker.protocol.messages.share_group_heartbeat_request import ShareGroupHeartbeatRequest
from broker.protocol.records import build_batch
from tests.integration.wire import WireClient

ACCEPT = 1
RECORD_LIMIT = 1  # ShareFetch v2 share_acquire_mode: acquire at most max_records
# Coordinator not loaded / not yet elected / load in progress: retry the join.
RETRIABLE_GROUP = {14, 15, 16}
# Leadership or metadata not yet propagated after CreateTopics: retry the produce.
RETRIABLE_PRODUCE = {3, 5, 6, 7}
BATCH_SIZES = (10, 100, 1000, 2000)
# Acquire-and-accept rounds per batch size: a round trip of about a millisecond swings by
# a third from one to the next on a 2-core VM, so a median of 5 moved by 30-50 % between
# runs; a median of 25 is steady enough to compare two runs row by row.
BATCH_ROUNDS = 25


def _ms(t0: float) -> float:
    return (time.perf_counter() - t0) * 1000


def member_id() -> str:
    """A new member id in Kafka's Uuid text form (URL-safe base64, no padding)."""
    return base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")


def jvm_heap_used_kib(pid: int) -> int | None:
    """Live heap of a JVM after a full GC (jcmd), or None if jcmd is unavailable."""
    try:
        subprocess.run(["jcmd", str(pid), "GC.run"], capture_output=True, timeout=60, check=True)
        out = subprocess.run(
            ["jcmd", str(pid), "GC.heap_info"], capture_output=True, text=True, timeout=60, check=True
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"heap\s+total \d+K, used (\d+)K", out)
    return int(m.group(1)) if m else None


class ShareMember:
    """One share-group member: joins with ShareGroupHeartbeat, then heartbeats from a thread."""

    def __init__(self, bootstrap: str, group: str, topic: str) -> None:
        self.bootstrap, self.group, self.topic = bootstrap, group, topic
        self.member_id = member_id()
        self.epoch = 0
        self.interval_s = 5.0
        self.errors: list[int] = []
        self._w = WireClient(bootstrap, timeout=60)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _beat(self, epoch: int, topics: list[str] | None = None):
        return self._w.request(
            ShareGroupHeartbeatRequest(
                group_id=self.group, member_id=self.member_id, member_epoch=epoch, subscribed_topic_names=topics
            ),
            1,
        )

    def join(self, partitions: int, timeout_s: float = 60.0) -> float:
        """Join, and heartbeat until the assignment covers ``partitions`` partitions; ms taken."""
        t0 = time.perf_counter()
        deadline = time.time() + timeout_s
        while True:  # the group coordinator may still be loading (Kafka: right after start)
            fc = self._w.request(FindCoordinatorRequest(key_type=0, coordinator_keys=[self.group]), 4)
            if fc.coordinators and fc.coordinators[0].error_code == 0:
                break
            if time.time() > deadline:
                raise RuntimeError(f"FindCoordinator: {fc.coordinators[0].error_code if fc.coordinators else '?'}")
            time.sleep(0.05)
        while True:
            r = self._beat(0, [self.topic])
            if r.error_code == 0:
                break
            if r.error_code not in RETRIABLE_GROUP or time.time() > deadline:
                raise RuntimeError(f"ShareGroupHeartbeat join: error {r.error_code} {r.error_message}")
            time.sleep(0.05)
        assigned = 0
        while True:
            self.epoch = r.member_epoch
            self.interval_s = max(r.heartbeat_interval_ms, 100) / 1000
            if r.assignment is not None:
                assigned = sum(len(tp.partitions) for tp in r.assignment.topic_partitions)
            if assigned >= partitions:
                break
            if time.time() > deadline:
                raise RuntimeError(f"assignment covers {assigned}/{partitions} partitions after {timeout_s} s")
            time.sleep(0.05)
            r = self._beat(self.epoch)
            if r.error_code:
                raise RuntimeError(f"ShareGroupHeartbeat: error {r.error_code} {r.error_message}")
        ms = _ms(t0)
        self._thread = threading.Thread(target=self._loop, name="share-heartbeat", daemon=True)
        self._thread.start()
        return ms

    def _loop(self) -> None:
        while not self._stop.wait(self.interval_s):
            try:
                r = self._beat(self.epoch)
            except OSError:
                return
            if r.error_code:
                self.errors.append(r.error_code)
            else:
                self.epoch = r.member_epoch

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
        try:
            self._beat(-1)  # leave
        except OSError:
            pass
        self._w.close()

    def __enter__(self) -> ShareMember:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _topic(bootstrap: str, topic: str, partitions: int, group: str) -> None:
    from bench.share import _admin_setup

    _admin_setup(bootstrap, topic, partitions, group, "earliest")


def _topic_id(w: WireClient, topic: str, timeout_s: float = 30.0) -> uuid.UUID:
    deadline = time.time() + timeout_s
    while True:
        md = w.request(MetadataRequest(topics=[MetadataRequestTopic(name=topic)], allow_auto_topic_creation=False), 12)
        t = md.topics[0]
        if t.error_code == 0 and t.topic_id.int:
            return t.topic_id
        if time.time() > deadline:
            raise RuntimeError(f"no metadata for {topic}: error {t.error_code}")
        time.sleep(0.05)


def _produce(w: WireClient, topic: str, batches: dict[int, bytes], timeout_s: float = 30.0) -> None:
    """Append one batch per partition (acks=all), retrying partitions whose leader is not known yet."""
    deadline = time.time() + timeout_s
    left = dict(batches)
    while left:
        resp = w.request(
            ProduceRequest(
                acks=-1,
                timeout_ms=30000,
                topic_data=[
                    TopicProduceData(
                        name=topic, partition_data=[PartitionProduceData(index=p, records=b) for p, b in left.items()]
                    )
                ],
            ),
            9,
        )
        failed = {}
        for t in resp.responses:
            for p in t.partition_responses:
                if p.error_code == 0:
                    left.pop(p.index, None)
                else:
                    failed[p.index] = p.error_code
        if not left:
            return
        if set(failed.values()) - RETRIABLE_PRODUCE or time.time() > deadline:
            raise RuntimeError(f"Produce errors: {sorted(failed.items())[:5]}")
        time.sleep(0.05)


def _batch(n: int, size: int = 100) -> bytes:
    return build_batch([(None, b"v" * size, [], None) for _ in range(n)])


def _fetch(w, group, member, epoch, tid, *, partitions=(), max_records=500, wait_ms=0, mode=RECORD_LIMIT):
    """One ShareFetch v2; ``partitions`` are added to the session (all of them at epoch 0)."""
    topics = (
        [FetchTopic(topic_id=tid, partitions=[FetchPartition(partition_index=p) for p in partitions])]
        if partitions
        else []
    )
    req = ShareFetchRequest(
        group_id=group,
        member_id=member,
        share_session_epoch=epoch,
        max_wait_ms=wait_ms,
        min_bytes=1,
        max_bytes=64 << 20,
        max_records=max_records,
        batch_size=max_records,
        topics=topics,
        forgotten_topics_data=[],
    )
    req.share_acquire_mode = mode
    resp = w.request(req, 2)
    if resp.error_code:
        raise RuntimeError(f"ShareFetch error {resp.error_code} {resp.error_message}")
    return resp


def _acquired(resp) -> dict[int, list[tuple[int, int]]]:
    out: dict[int, list[tuple[int, int]]] = {}
    for t in resp.responses:
        for p in t.partitions:
            for a in p.acquired_records:
                out.setdefault(p.partition_index, []).append((a.first_offset, a.last_offset))
    return out


def _count(ranges: dict[int, list[tuple[int, int]]]) -> int:
    return sum(b - a + 1 for rs in ranges.values() for a, b in rs)


def _ack(w, group, member, epoch, tid, ranges: dict[int, list[tuple[int, int]]]) -> float:
    req = ShareAcknowledgeRequest(
        group_id=group,
        member_id=member,
        share_session_epoch=epoch,
        topics=[
            AcknowledgeTopic(
                topic_id=tid,
                partitions=[
                    AcknowledgePartition(
                        partition_index=p,
                        acknowledgement_batches=[
                            AckBatch(first_offset=a, last_offset=b, acknowledge_types=[ACCEPT]) for a, b in rs
                        ],
                    )
                    for p, rs in ranges.items()
                ],
            )
        ],
    )
    t0 = time.perf_counter()
    resp = w.request(req, 2)
    ms = _ms(t0)
    bad = [p.error_code for t in resp.responses for p in t.partitions if p.error_code]
    if resp.error_code or bad:
        raise RuntimeError(f"ShareAcknowledge errors: {resp.error_code} {bad[:5]}")
    return ms


class _Session:
    """One share session of one member on one topic: epochs counted here."""

    def __init__(self, w: WireClient, group: str, member: str, tid: uuid.UUID, partitions) -> None:
        self.w, self.group, self.member, self.tid = w, group, member, tid
        self.partitions = list(partitions)
        self.epoch = 0

    def fetch(self, max_records: int, wait_ms: int = 0):
        r = _fetch(
            self.w,
            self.group,
            self.member,
            self.epoch,
            self.tid,
            partitions=self.partitions if self.epoch == 0 else (),
            max_records=max_records,
            wait_ms=wait_ms,
        )
        self.epoch += 1
        return r

    def acquire(self, want: int, timeout_s: float, wait_ms: int = 100) -> tuple[dict, list[float]]:
        """Fetch until ``want`` records are held (or the deadline): the ranges and each round trip in ms."""
        got: dict[int, list[tuple[int, int]]] = {}
        times: list[float] = []
        deadline = time.time() + timeout_s
        while _count(got) < want and time.time() < deadline:
            t0 = time.perf_counter()
            r = self.fetch(want - _count(got), wait_ms)
            times.append(_ms(t0))
            for p, rs in _acquired(r).items():
                got.setdefault(p, []).extend(rs)
        return got, times

    def ack(self, ranges) -> float:
        ms = _ack(self.w, self.group, self.member, self.epoch, self.tid, ranges)
        self.epoch += 1
        return ms


def _memory(pid: int, jvm: bool) -> tuple[int, int | None]:
    return rss_kib(pid), (jvm_heap_used_kib(pid) if jvm else None)


def _per(delta_kib: int | None, n: int) -> float | None:
    return None if delta_kib is None else round(delta_kib * 1024 / max(n, 1), 1)


def many(bootstrap: str, pid: int, partitions: int = 1000, per_partition: int = 10, jvm: bool = False) -> dict:
    tag = time.time_ns()
    topic = group = f"scale-many-{tag}"
    _topic(bootstrap, topic, partitions, group)
    with ShareMember(bootstrap, group, topic) as m, WireClient(bootstrap, timeout=60) as w:
        join_ms = m.join(partitions)
        tid = _topic_id(w, topic)
        batch = _batch(per_partition)
        _produce(w, topic, dict.fromkeys(range(partitions), batch))
        time.sleep(0.5)
        rss0, heap0 = _memory(pid, jvm)
        total = partitions * per_partition
        s = _Session(w, group, m.member_id, tid, range(partitions))
        t0 = time.perf_counter()
        got, times = s.acquire(total, 20)  # well inside the 30 s acquisition lock
        acquire_all = _ms(t0)
        n = _count(got)
        rss1, heap1 = _memory(pid, jvm)
        ack_ms = s.ack(got) if got else None
        hb_errors = list(m.errors)
    delta = rss1 - rss0
    out: dict[str, object] = {  # a results-file entry (JSON)
        "share_partitions": partitions,
        "records_per_partition": per_partition,
        "in_flight": n,
        "join_ms": round(join_ms, 1),
        "rss_before_mib": round(rss0 / 1024, 1),
        "rss_after_mib": round(rss1 / 1024, 1),
        "bytes_per_in_flight_record": _per(delta, n),
        "bytes_per_share_partition": _per(delta, partitions),
        "share_fetches": len(times),
        "share_fetch_ms": [round(t, 1) for t in times],
        "acquire_all_ms": round(acquire_all, 1) if n == total else None,
        "ack_all_ms": None if ack_ms is None else round(ack_ms, 1),
    }
    if jvm:
        hd = None if heap0 is None or heap1 is None else heap1 - heap0
        out.update(
            {
                "heap_before_mib": heap0 and round(heap0 / 1024, 1),
                "heap_after_mib": heap1 and round(heap1 / 1024, 1),
                "heap_bytes_per_in_flight_record": _per(hd, n),
            }
        )
    if hb_errors:
        out["heartbeat_errors"] = hb_errors
    return out


def batch_sizes(bootstrap: str, sizes=BATCH_SIZES, rounds: int = BATCH_ROUNDS) -> list[dict]:
    out = []
    for n in sizes:
        tag = time.time_ns()
        topic, group = f"scale-batch-{n}-{tag}", f"scale-batch-{tag}"
        _topic(bootstrap, topic, 1, group)
        acq, ack = [], []
        with ShareMember(bootstrap, group, topic) as m, WireClient(bootstrap, timeout=60) as w:
            m.join(1)
            tid = _topic_id(w, topic)
            s = _Session(w, group, m.member_id, tid, [0])
            s.fetch(1)  # open the session (and load the share-partition) before timing
            for _ in range(rounds):
                _produce(w, topic, {0: _batch(n)})
            for _ in range(rounds):
                t0 = time.perf_counter()
                got, _times = s.acquire(n, 10)
                acq.append(_ms(t0))
                if _count(got) != n:
                    raise RuntimeError(f"acquired {got} for a {n}-record batch")
                rs = got[0]
                ack.append(s.ack({0: [(min(a for a, _ in rs), max(b for _, b in rs))]}))
        out.append(
            {
                "batch_records": n,
                "acquire_ms_all_fetches": round(statistics.median(acq), 2),
                "ack_ms": round(statistics.median(ack), 2),
                "rounds": rounds,
            }
        )
    return out


def growth(bootstrap: str, pid: int, step: int = 2000, partitions: int = 50, jvm: bool = False) -> dict:
    """In flight grows by ``step`` records (one stored batch in the next partition) per ShareFetch."""
    tag = time.time_ns()
    topic = group = f"scale-growth-{tag}"
    _topic(bootstrap, topic, partitions + 1, group)  # partition 0: the small range only
    with ShareMember(bootstrap, group, topic) as m, WireClient(bootstrap, timeout=60) as w:
        m.join(partitions + 1)
        tid = _topic_id(w, topic)
        s = _Session(w, group, m.member_id, tid, range(partitions + 1))
        s.fetch(1)  # open the session over every partition (nothing to acquire yet)
        _produce(w, topic, {0: _batch(10)})  # offsets 0-9: the small range acked at the start and the end
        first, _ = s.acquire(10, 10)
        if first != {0: [(0, 9)]}:
            raise RuntimeError(f"expected offsets 0-9 of partition 0, acquired {first}")
        ack_start = s.ack({0: [(0, 4)]})  # 5-9 stay in flight
        rss0, heap0 = _memory(pid, jvm)
        steps = []
        inflight = 5
        deadline = time.time() + 20  # inside the 30 s acquisition lock
        for p in range(1, partitions + 1):
            if time.time() > deadline:
                break
            _produce(w, topic, {p: _batch(step, 10)})
            got, times = s.acquire(step, 5)
            inflight += _count(got)
            steps.append({"in_flight": inflight, "share_fetch_ms": round(sum(times), 2), "fetches": len(times)})
        rss1, heap1 = _memory(pid, jvm)
        ack_end = s.ack({0: [(5, 9)]})
        hb_errors = list(m.errors)
    out = {
        "step_records": step,
        "steps": steps,
        "ack_5_records_ms_at_start": round(ack_start, 2),
        "ack_5_records_ms_at_end": round(ack_end, 2),
        "in_flight_end": inflight,
        "rss_growth_kib": rss1 - rss0,
        "bytes_per_in_flight_record": _per(rss1 - rss0, inflight - 5),
    }
    if jvm:
        hd = None if heap0 is None or heap1 is None else heap1 - heap0
        out.update({"heap_growth_kib": hd, "heap_bytes_per_in_flight_record": _per(hd, inflight - 5)})
    if hb_errors:
        out["heartbeat_errors"] = hb_errors
    return out


def scale(bootstrap: str, pid: int, partitions: int = 1000, jvm: bool = False) -> dict:
    return {
        "many": many(bootstrap, pid, partitions, jvm=jvm),
        "batch": batch_sizes(bootstrap),
        "growth": growth(bootstrap, pid, jvm=jvm),
    }


def run(cls, cpus: str | None, partitions: int = 1000) -> dict:
    """Start a fresh broker of ``cls`` (a ``bench.peers`` class, pinned to ``cpus``) and measure."""
    b = cls(cpus)
    b.start()
    try:
        out = scale(b.bootstrap, b.pid, partitions, jvm=cls.name == "kafka")
        out["peak_rss_mib"] = round(rss_kib(b.pid, "VmHWM") / 1024, 1)
        return out
    finally:
        b.stop()


if __name__ == "__main__":
    import json
    import sys

    from bench.peers import KafkaPeer, Sharebroker

    broker = {"sharebroker": Sharebroker, "kafka": KafkaPeer}[sys.argv[1] if len(sys.argv) > 1 else "sharebroker"]
    print(json.dumps(run(broker, "0", int(sys.argv[2]) if len(sys.argv) > 2 else 1000), indent=1))
