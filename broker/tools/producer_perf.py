"""``sharebroker producer-perf``: produce load and report latency, like ``kafka-producer-perf-test.sh``.

    sharebroker producer-perf --bootstrap-server HOST:PORT --topic T --num-records N
        --record-size B --throughput R [--payload-monotonic] [--acks 1|all|0]

Records are packed into magic-2 batches (``build_batch``) and sent as Produce
requests to each partition's leader, with at most ``--max-in-flight``
outstanding per broker connection. A batch refused with a retriable error
(leadership moved, too few in-sync replicas, a timeout) is sent again to the
leader the refreshed metadata names, up to ``RETRIES`` times, as Kafka's
producer retries.
``--throughput`` is records per second (fractional allowed, -1 unthrottled).
Every five seconds a progress line is printed, then Kafka's summary line:
records sent, records/sec, MB/sec, average and maximum latency and the 50th,
95th, 99th and 99.9th latency percentiles.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from broker.tools._cli import add_tool_parser, run_with_admin

if TYPE_CHECKING:
    from broker.admin.client import AdminClient, BrokerConnection
    from broker.protocol.connection import Response

REPORT_INTERVAL_S = 5.0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = add_tool_parser(
        subparsers,
        "producer-perf",
        help="produce test load and report throughput and latency (like kafka-producer-perf-test.sh)",
        description="Produce --num-records records of --record-size bytes at --throughput records/sec "
        "and report throughput and latency as kafka-producer-perf-test.sh does.",
    )
    p.add_argument("--topic", required=True, metavar="T", help="topic to produce to")
    p.add_argument("--num-records", type=int, required=True, metavar="N", help="records to send")
    p.add_argument("--record-size", type=int, default=100, metavar="B", help="record value size in bytes (default 100)")
    p.add_argument(
        "--throughput",
        type=float,
        required=True,
        metavar="R",
        help="records/sec to aim for (fractional allowed; -1 = unthrottled)",
    )
    p.add_argument(
        "--payload-monotonic",
        action="store_true",
        help="payload is the record number as text (--record-size is ignored)",
    )
    p.add_argument("--acks", choices=("0", "1", "all", "-1"), default="all", help="acks for Produce (default all)")
    p.add_argument(
        "--batch-size",
        type=int,
        default=16384,
        metavar="BYTES",
        help="bytes of payload per record batch (default 16384)",
    )
    p.add_argument("--max-in-flight", type=int, default=5, metavar="K", help="Produce requests in flight (default 5)")
    p.add_argument("--timeout-ms", type=int, default=30000, help="Produce timeout (default 30000)")
    p.add_argument(
        "--partition",
        type=int,
        default=None,
        help="produce to this partition only (default: rotate over all partitions)",
    )
    p.set_defaults(func=run)


class _Stats:
    """Per-record latencies: a window for progress lines plus totals."""

    def __init__(self, now: float) -> None:
        self.start = now
        self.count = 0
        self.bytes = 0
        self.total_latency = 0.0
        self.max_latency = 0.0
        self.latencies: list[int] = []
        self.window_start = now
        self.window_count = 0
        self.window_bytes = 0
        self.window_total = 0.0
        self.window_max = 0.0

    def record(self, latency_ms: float, size: int) -> None:
        self.count += 1
        self.bytes += size
        self.total_latency += latency_ms
        self.max_latency = max(self.max_latency, latency_ms)
        self.latencies.append(int(latency_ms))
        self.window_count += 1
        self.window_bytes += size
        self.window_total += latency_ms
        self.window_max = max(self.window_max, latency_ms)

    def maybe_report(self, now: float) -> None:
        if now - self.window_start >= REPORT_INTERVAL_S:
            elapsed = now - self.window_start
            n = self.window_count
            print(
                f"{n} records sent, {n / elapsed:.1f} records/sec "
                f"({self.window_bytes / elapsed / 1024 / 1024:.2f} MB/sec), "
                f"{(self.window_total / n) if n else 0.0:.1f} ms avg latency, "
                f"{self.window_max:.1f} ms max latency.",
                flush=True,
            )
            self.window_start = now
            self.window_count = self.window_bytes = 0
            self.window_total = self.window_max = 0.0

    def summary(self, now: float) -> str:
        elapsed = max(now - self.start, 1e-9)
        n = self.count
        lat = sorted(self.latencies)

        def pct(q: float) -> int:
            if not lat:
                return 0
            return lat[min(len(lat) - 1, int(q * len(lat)))]

        return (
            f"{n} records sent, {n / elapsed:.1f} records/sec ({self.bytes / elapsed / 1024 / 1024:.2f} MB/sec), "
            f"{(self.total_latency / n) if n else 0.0:.2f} ms avg latency, {self.max_latency:.2f} ms max latency, "
            f"{pct(0.5)} ms 50th, {pct(0.95)} ms 95th, {pct(0.99)} ms 99th, {pct(0.999)} ms 99.9th."
        )


def run(args: argparse.Namespace) -> int:
    if args.num_records < 0 or args.record_size < 0 or args.max_in_flight < 1:
        print("error: --num-records and --record-size must be >= 0, --max-in-flight >= 1", file=sys.stderr)
        return 2
    if args.throughput == 0:
        print("error: --throughput must be positive or -1 (unthrottled)", file=sys.stderr)
        return 2
    return run_with_admin(
        args,
        lambda admin: _run(admin, args),
        client_id="sharebroker-producer-perf",
        timeout_s=args.timeout_ms / 1000 + 10,
    )


# Sends of one batch before it counts as failed.
RETRIES = 10


def _leaders(admin: AdminClient, topic: str, wait_s: float = 10.0) -> dict[int, BrokerConnection]:
    """{partition: connection to its leader} (waits for the topic and its leaders)."""
    import time

    from broker.admin.client import KafkaApiError, Node
    from broker.protocol.errors import ErrorCode
    from broker.protocol.messages.metadata_request import MetadataRequest, MetadataRequestTopic

    retry = (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.LEADER_NOT_AVAILABLE)
    deadline = time.monotonic() + wait_s
    while True:
        meta = admin.send(MetadataRequest(topics=[MetadataRequestTopic(name=topic)], allow_auto_topic_creation=True))
        t = meta.topics[0]
        brokers = {b.node_id: Node(b.node_id, b.host, b.port) for b in meta.brokers}
        if t.error_code == 0 and t.partitions and all(p.leader_id in brokers for p in t.partitions):
            return {p.partition_index: admin.connect(brokers[p.leader_id]) for p in t.partitions}
        if time.monotonic() > deadline or t.error_code not in (0, *retry):
            raise KafkaApiError(t.error_code or ErrorCode.LEADER_NOT_AVAILABLE, None, f"topic {topic}")
        time.sleep(0.2)


def _run(admin: AdminClient, args: argparse.Namespace) -> int:
    import random
    import socket
    import time

    sender = _Sender(admin, args)
    clock = sender.clock
    start = clock()
    interval = None if args.throughput < 0 else 1.0 / args.throughput
    for i in range(args.num_records):
        if interval is not None:
            due = start + i * interval
            if clock() < due:
                sender.flush()
                sender.drain()
                delay = due - clock()
                if delay > 0:
                    time.sleep(delay)
        if args.payload_monotonic:
            value = str(i).encode()
        else:
            off = random.randrange(0, len(sender.pool) - args.record_size + 1) if args.record_size else 0
            value = sender.pool[off : off + args.record_size]
        sender.add(value)
    sender.flush()
    sender.drain()
    if sender.acks == 0:
        # Nothing comes back for acks=0; make sure the bytes left the socket buffer.
        for conn in sender.conns.values():
            conn.sock.shutdown(socket.SHUT_WR)
    print(sender.stats.summary(clock()), flush=True)
    if sender.errors:
        print(f"{sender.errors} records failed", file=sys.stderr)
        return 1
    return 0


class _Sender:
    """The produce pipeline of one run: batches of records to the partitions in turn, at
    most ``--max-in-flight`` requests per leader connection, retriable errors sent again
    (up to ``RETRIES``), each record's latency counted when its batch is acknowledged."""

    def __init__(self, admin: AdminClient, args: argparse.Namespace) -> None:
        import random
        import time

        from broker.protocol.errors import ErrorCode

        self.retriable = {
            ErrorCode.NOT_LEADER_OR_FOLLOWER,
            ErrorCode.LEADER_NOT_AVAILABLE,
            ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
            ErrorCode.NOT_ENOUGH_REPLICAS,
            ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
            ErrorCode.REQUEST_TIMED_OUT,
            ErrorCode.FENCED_LEADER_EPOCH,
            ErrorCode.UNKNOWN_LEADER_EPOCH,
        }
        self.admin = admin
        self.args = args
        self.acks = -1 if args.acks in ("all", "-1") else int(args.acks)
        self.leaders = _leaders(admin, args.topic)
        self.partitions = [args.partition] if args.partition is not None else sorted(self.leaders)
        # Kafka's perf test draws payloads from random uppercase letters.
        self.pool = bytes(random.choice(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ") for _ in range(max(args.record_size, 1) * 4))
        self.clock = time.monotonic
        self.stats = _Stats(self.clock())
        # (connection, correlation id) -> (partition, records, tries, [(enqueue time, bytes) per record])
        self.pending: dict[tuple[int, int], tuple[int, bytes, int, list[tuple[float, int]]]] = {}
        self.conns: dict[int, BrokerConnection] = {}
        self.batch: list[tuple[None, bytes]] = []
        self.batch_times: list[float] = []
        self.batch_bytes = 0
        self.next_partition = 0
        self.errors = 0

    def add(self, value: bytes) -> None:
        """One record into the open batch; the batch goes once it reaches ``--batch-size``."""
        self.batch.append((None, value))
        self.batch_times.append(self.clock())
        self.batch_bytes += len(value) + 20
        if self.batch_bytes >= self.args.batch_size:
            self.flush()

    def send(self, partition: int, records: bytes, tries: int, times: list[tuple[float, int]]) -> None:
        from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData

        args = self.args
        conn = self.leaders[partition]
        self.conns[id(conn)] = conn
        while conn.in_flight >= args.max_in_flight:
            self.handle(conn, conn.receive())
        request = ProduceRequest(
            transactional_id=None,
            acks=self.acks,
            timeout_ms=args.timeout_ms,
            topic_data=[
                TopicProduceData(
                    name=args.topic, partition_data=[PartitionProduceData(index=partition, records=records)]
                )
            ],
        )
        if self.acks == 0:
            conn.send(request, 9, expect_response=False)
            now = self.clock()
            for t0, size in times:
                self.stats.record((now - t0) * 1000, size)
            self.stats.maybe_report(now)
        else:
            self.pending[(id(conn), conn.send(request, 9))] = (partition, records, tries, times)

    def handle(self, conn: BrokerConnection, response: Response) -> None:
        import time

        from broker.admin.client import error_name
        from broker.protocol.messages.produce_response import ProduceResponse

        partition, records, tries, times = self.pending.pop((id(conn), response.correlation_id))
        now = self.clock()
        body = response.body
        assert isinstance(body, ProduceResponse)
        bad = [p.error_code for t in body.responses for p in t.partition_responses if p.error_code]
        if bad and bad[0] in self.retriable and tries < RETRIES:
            time.sleep(0.1 * tries)
            self.leaders = _leaders(self.admin, self.args.topic)
            self.send(partition, records, tries + 1, times)
            return
        if bad:
            self.errors += len(times)
            print(f"Produce failed: {error_name(bad[0])}", file=sys.stderr)
            return
        for t0, size in times:
            self.stats.record((now - t0) * 1000, size)
        self.stats.maybe_report(now)

    def flush(self) -> None:
        import time

        from broker.protocol.records import build_batch

        if not self.batch:
            return
        partition = self.partitions[self.next_partition % len(self.partitions)]
        self.next_partition += 1
        records = build_batch(self.batch, base_timestamp=int(time.time() * 1000))
        self.send(partition, records, 1, list(zip(self.batch_times, (len(v) for _, v in self.batch))))
        self.batch, self.batch_times, self.batch_bytes = [], [], 0

    def drain(self) -> None:
        while self.pending:
            for conn in list(self.conns.values()):
                while conn.in_flight:
                    self.handle(conn, conn.receive())
