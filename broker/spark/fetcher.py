"""Executor side of the ``kafka-share`` source: read acquired offset ranges with plain Fetch.

The driver's share-group member acquires offset ranges; a Spark task gets the
ranges of one topic-partition and reads them here from the partition leader with
ordinary Fetch requests (no share session, no group: any broker serving Fetch
works). Only offsets inside the acquired ranges become rows; control batches and
records outside the ranges (the rest of a log batch, aborted data the broker did
not hand out) are skipped.

Connections are cached per Python worker process (Spark reuses its workers), so a
stream of micro-batches does not reconnect for every task. A broker that is down
(restarting) is retried with backoff for ``retry_timeout`` seconds before the task
fails.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from broker.admin.client import AdminClient, AdminError, BrokerConnection, KafkaApiError, sessionless_fetch
from broker.protocol.messages.fetch_request import FetchRequest
from broker.protocol.records import BatchHeader, iter_batches

log = logging.getLogger("broker.spark")

# Per partition and request: large enough to carry a few stored batches, small enough
# that a task's memory stays bounded (Kafka's consumer default is 1 MiB; records are
# decoded as they arrive, so 8 MiB trades a little memory for fewer round trips).
FETCH_PARTITION_MAX_BYTES = 8 << 20
OFFSET_OUT_OF_RANGE = 1
_STALE_LEADER = (3, 6, 74, 100)
_RETRIABLE = (5, 6, 7, 14, 15, 16, 74)  # leader changes, timeouts, coordinator moves

_connections: dict[tuple[str, int], BrokerConnection] = {}


@dataclass(frozen=True, slots=True)
class RangeTask:
    """What one Spark task reads: acquired ranges of one topic-partition."""

    bootstrap_servers: str
    topic: str
    topic_id: str
    partition: int
    leader: tuple[str, int] | None
    # (first offset, last offset, delivery count), sorted, not overlapping
    ranges: tuple[tuple[int, int, int], ...]
    client_id: str = "sharebroker-spark"
    retry_timeout: float = 120.0

    @property
    def count(self) -> int:
        return sum(b - a + 1 for a, b, _ in self.ranges)


def _connection(host: str, port: int, client_id: str) -> BrokerConnection:
    conn = _connections.get((host, port))
    if conn is None:
        conn = _connections[(host, port)] = BrokerConnection(host, port, client_id=client_id, timeout=30)
    return conn


def _drop(host: str, port: int) -> None:
    conn = _connections.pop((host, port), None)
    if conn is not None:
        conn.close()


def _find_leader(task: RangeTask) -> tuple[str, int]:
    with AdminClient(task.bootstrap_servers, timeout=30, client_id=task.client_id) as admin:
        meta = admin.metadata([task.topic])
        brokers = {b.node_id: (b.host, b.port) for b in meta.brokers}
        for t in meta.topics:
            for p in t.partitions:
                if p.partition_index == task.partition and p.leader_id in brokers:
                    return brokers[p.leader_id]
    raise KafkaApiError(5, None, f"no leader for {task.topic}-{task.partition}")  # LEADER_NOT_AVAILABLE


def _fetch_request(task: RangeTask, topic_id: uuid.UUID, position: int) -> FetchRequest:
    """A sessionless Fetch of the task's partition from ``position`` (no wait)."""
    return sessionless_fetch(
        task.topic,
        topic_id,
        [(task.partition, position)],
        max_bytes=FETCH_PARTITION_MAX_BYTES,
        partition_max_bytes=FETCH_PARTITION_MAX_BYTES,
    )


def _nothing_at(task: RangeTask, position: int, end: int, high_watermark: int) -> None:
    """A fetch at ``position`` returned no whole batch: past the high watermark the rest is
    skipped (logged); below it, KafkaApiError."""
    if high_watermark <= position:
        # Acquired offsets past the end of the log: only a new leader that lost
        # them (unclean election) can cause this.
        log.warning(
            "%s-%d: acquired offsets %d..%d are past the high watermark %d",
            task.topic,
            task.partition,
            position,
            end,
            high_watermark,
        )
        return
    raise KafkaApiError(10, None, f"no whole batch at {task.topic}-{task.partition}@{position}")


def fetch_batches(task: RangeTask) -> Iterator[tuple[BatchHeader, memoryview]]:
    """Yield the stored batches (header, view) holding the task's ranges, in offset order.

    Control batches are skipped; a batch may also hold offsets outside the ranges
    (the caller keeps only those inside)."""
    if not task.ranges:
        return
    ranges = task.ranges
    leader = task.leader
    topic_id = uuid.UUID(task.topic_id)
    position = ranges[0][0]
    end = ranges[-1][1]
    idx = 0  # index of the range holding or following ``position``
    deadline = time.monotonic() + task.retry_timeout
    backoff = 0.1
    while position <= end:
        try:
            if leader is None:
                leader = _find_leader(task)
            conn = _connection(leader[0], leader[1], task.client_id)
            req = _fetch_request(task, topic_id, position)
            resp = conn.call(req)
        except (AdminError, OSError) as exc:
            if leader is not None:
                _drop(*leader)
            leader = None
            if time.monotonic() > deadline:
                raise
            log.warning("fetch %s-%d at %d failed (%s); retrying", task.topic, task.partition, position, exc)
            time.sleep(backoff)
            backoff = min(backoff * 2, 2.0)
            continue
        if resp.error_code:
            raise KafkaApiError(resp.error_code, None, f"Fetch {task.topic}-{task.partition}")
        pd = resp.responses[0].partitions[0]
        if pd.error_code:
            if pd.error_code == OFFSET_OUT_OF_RANGE:
                # Deleted by retention (or DeleteRecords) since it was acquired: nothing to read.
                log.warning("%s-%d: offset %d is out of range; skipped", task.topic, task.partition, position)
                if pd.log_start_offset > position:
                    position = pd.log_start_offset
                    continue
                return
            if pd.error_code in _RETRIABLE or pd.error_code in _STALE_LEADER:
                leader = None
                if time.monotonic() > deadline:
                    raise KafkaApiError(pd.error_code, None, f"Fetch {task.topic}-{task.partition}")
                time.sleep(backoff)
                backoff = min(backoff * 2, 2.0)
                continue
            raise KafkaApiError(pd.error_code, None, f"Fetch {task.topic}-{task.partition}")
        backoff = 0.1
        deadline = time.monotonic() + task.retry_timeout
        progressed = False
        for bv in iter_batches(pd.records or b"", allow_partial=True):
            header = bv.header
            last = header.base_offset + header.last_offset_delta
            if last < position:
                continue
            progressed = True
            if not header.is_control and last >= ranges[idx][0]:
                yield header, bv.view
            position = last + 1
            while idx < len(ranges) and position > ranges[idx][1]:
                idx += 1
            if idx >= len(ranges):
                return
            position = max(position, ranges[idx][0])
        if not progressed:
            _nothing_at(task, position, end, pd.high_watermark)
            return


def split_ranges(ranges: Sequence[tuple[int, int, int]], max_records: int) -> list[tuple[tuple[int, int, int], ...]]:
    """Cut sorted ranges into pieces of at most ``max_records`` offsets (for parallel tasks)."""
    pieces: list[tuple[tuple[int, int, int], ...]] = []
    current: list[tuple[int, int, int]] = []
    size = 0
    for first, last, dc in ranges:
        a = first
        while a <= last:
            take = min(last - a + 1, max_records - size)
            current.append((a, a + take - 1, dc))
            size += take
            a += take
            if size >= max_records:
                pieces.append(tuple(current))
                current, size = [], 0
    if current:
        pieces.append(tuple(current))
    return pieces


def pack_tasks(tasks: Sequence[RangeTask], bins: int | None) -> list[tuple[RangeTask, ...]]:
    """Group ``tasks`` into at most ``bins`` Spark tasks of about equal record counts
    (largest first, each into the lightest group); one per task when ``bins`` is None.

    Spark pays a fixed cost per task (about 0.1 s for a Python data source on local[2]
    here), so a micro-batch of many small partitions runs faster as one task per core.
    """
    if bins is None or bins <= 0 or len(tasks) <= bins:
        return [(t,) for t in tasks]
    groups: list[list[RangeTask]] = [[] for _ in range(bins)]
    loads = [0] * bins
    for t in sorted(tasks, key=lambda t: (-t.count, t.topic, t.partition)):
        i = loads.index(min(loads))
        groups[i].append(t)
        loads[i] += t.count
    return [tuple(sorted(g, key=lambda t: (t.topic, t.partition, t.ranges))) for g in groups if g]
