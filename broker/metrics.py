"""What the broker counts as it runs: request counts and latency, bytes in and out,
share acknowledgements, rebalances, share-partition load times.

Plain integers bumped on the hot path; :mod:`broker.server.metrics_http` turns them
(and gauges computed from the live objects) into the Prometheus text format.
"""

from __future__ import annotations

import bisect
import math
import struct
from collections import defaultdict
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

__all__ = [
    "ACK_TYPES",
    "DURABLE_BUCKETS",
    "LOAD_BUCKETS",
    "REQUEST_BUCKETS",
    "SHARE_GROUP_STATES",
    "Histogram",
    "Metrics",
]

REQUEST_BUCKETS: tuple[float, ...] = (
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
    2.5,
    5.0,
    10.0,
    30.0,
)
# Durable writes: an fsync round takes a few hundred microseconds on an SSD, so these
# start below REQUEST_BUCKETS.
DURABLE_BUCKETS: tuple[float, ...] = (0.0001, 0.00025, *REQUEST_BUCKETS[:-2])  # 0.1 ms to 5 s
LOAD_BUCKETS: tuple[float, ...] = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

# ShareAcknowledge / ShareFetch acknowledge types, by their wire number.
ACK_TYPES: tuple[str, ...] = ("gap", "accept", "release", "reject", "renew")
SHARE_GROUP_STATES: tuple[str, ...] = ("Empty", "Stable", "Dead")

# Coordinator record key type of ShareGroupTargetAssignmentMetadata: one such
# (non-tombstone) record is written per new target assignment, i.e. per rebalance.
_TARGET_ASSIGNMENT_METADATA = 12
_REBALANCE_KEY_PREFIX = struct.pack(">h", _TARGET_ASSIGNMENT_METADATA)


class Histogram:
    """Counts per bucket (not cumulative; the text output accumulates), sum and count."""

    __slots__ = ("bounds", "count", "counts", "sum")

    def __init__(self, bounds: Sequence[float]) -> None:
        self.bounds = tuple(bounds)
        self.counts = [0] * (len(self.bounds) + 1)  # the last one is +Inf
        self.sum = 0.0
        self.count = 0

    def observe(self, value: float) -> None:
        self.counts[bisect.bisect_left(self.bounds, value)] += 1
        self.sum += value
        self.count += 1

    def cumulative(self) -> Iterator[tuple[float, int]]:
        total = 0
        for bound, n in zip((*self.bounds, math.inf), self.counts):
            total += n
            yield bound, total


class Metrics:
    """What the broker counts as it runs; read by :func:`collect` at scrape time."""

    def __init__(self) -> None:
        self.requests: dict[str, int] = defaultdict(int)
        self.request_seconds: dict[str, float] = defaultdict(float)
        self.request_latency: dict[str, Histogram] = {}
        self.bytes_in = 0
        self.bytes_out = 0
        self.share_rebalances = 0
        self.consumer_rebalances = 0
        self.streams_rebalances = 0
        self.ack_requests = [0] * len(ACK_TYPES)
        self.ack_records = [0] * len(ACK_TYPES)
        self.partition_load = Histogram(LOAD_BUCKETS)
        # Group-commit fsync rounds (Kafka's LogFlushRateAndTimeMs) and the logs they synced.
        self.log_flush = Histogram(DURABLE_BUCKETS)
        self.log_flush_logs = 0
        # Share-state writes: a share-partition's change (acknowledgements, releases, lock
        # expiries) until it is durable in __share_group_state (Kafka's share coordinator
        # write latency).
        self.share_state_write = Histogram(DURABLE_BUCKETS)
        # Per share group: records handed out again (delivery count > 1), and records copied
        # to the group's dead-letter topic (KIP-1191).
        self.share_redelivered: dict[str, int] = defaultdict(int)
        self.share_dead_lettered: dict[str, int] = defaultdict(int)

    def observe_request(self, api: str, seconds: float) -> None:
        self.requests[api] += 1
        self.request_seconds[api] += seconds
        h = self.request_latency.get(api)
        if h is None:
            h = self.request_latency[api] = Histogram(REQUEST_BUCKETS)
        h.observe(seconds)

    def acknowledged(self, batches: Iterable[tuple[int, int, Sequence[int]]]) -> None:
        """One partition's acknowledgement took effect: count it once per type it
        used, and its records per type (a batch has one type, or one per offset)."""
        seen = 0
        for first, last, types in batches:
            if len(types) == 1:
                t = types[0]
                if 0 <= t < len(ACK_TYPES):
                    self.ack_records[t] += last - first + 1
                    seen |= 1 << t
                continue
            for t in types:
                if 0 <= t < len(ACK_TYPES):
                    self.ack_records[t] += 1
                    seen |= 1 << t
        for t in range(len(ACK_TYPES)):
            if seen >> t & 1:
                self.ack_requests[t] += 1

    def rebalanced(self, records: Iterable[Any]) -> None:
        """Count the new target assignments among coordinator records written."""
        for r in records:
            if r.value is not None and r.key[:2] == _REBALANCE_KEY_PREFIX:
                self.share_rebalances += 1

    def consumer_rebalanced(self, count: int) -> None:
        """New target assignments of consumer groups (KIP-848 rebalances)."""
        self.consumer_rebalances += count

    def streams_rebalanced(self, count: int) -> None:
        """New target assignments of streams groups (KIP-1071 rebalances)."""
        self.streams_rebalances += count

    def redelivered(self, group_id: str, records: int) -> None:
        self.share_redelivered[group_id] += records

    def dead_lettered(self, group_id: str, records: int) -> None:
        self.share_dead_lettered[group_id] += records

    def observe_partition_load(self, seconds: float) -> None:
        self.partition_load.observe(seconds)

    def observe_log_flush(self, logs: int, seconds: float) -> None:
        """One group-commit round fsynced ``logs`` logs in ``seconds``."""
        self.log_flush.observe(seconds)
        self.log_flush_logs += logs

    def observe_share_state_write(self, seconds: float) -> None:
        self.share_state_write.observe(seconds)
