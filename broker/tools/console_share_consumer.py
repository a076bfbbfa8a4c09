"""``sharebroker console-share-consumer``: print a topic's records as a share-group member.

    sharebroker console-share-consumer --bootstrap-server HOST:PORT --topic T --group G
        [--release | --reject] [--max-messages N] [--timeout-ms MS]
        [--property print.key=true ...]

Like ``kafka-console-share-consumer.sh``: a minimal share consumer over the wire.
It joins with ShareGroupHeartbeat (member id generated here: 22 characters of
base64 of a random UUID), heartbeats at the interval the coordinator returns,
and long-polls ShareFetch with share-session epochs 0, 1, 2, ... Records it
printed are acknowledged on the next fetch (Accept, or Release with
``--release``, Reject with ``--reject``); acquired offsets with no record behind
them (control batches, compacted gaps) are Gap-acknowledged and records
acquired beyond ``--max-messages`` are released. On exit the remaining
acknowledgements go out in a ShareAcknowledge with epoch -1, then the member
leaves with a heartbeat at epoch -1.

Formatter properties: print.key, print.offset, print.partition, print.delivery,
print.headers, print.timestamp, print.value, key.separator, line.separator,
headers.separator, null.literal.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where used, to keep the command's start-up short
    import uuid
    from types import FrameType

    from broker.admin.client import AdminClient, BrokerConnection
    from broker.protocol.messages.share_fetch_response import PartitionData
    from broker.protocol.messages.share_group_heartbeat_response import Assignment
    from broker.protocol.records import Record

from broker.tools._cli import add_tool_parser
from broker.tools._security import client_security

GAP, ACCEPT, RELEASE, REJECT = 0, 1, 2, 3
_CLIENT_ID = "sharebroker-console-share-consumer"

# Errors after which the member rejoins at epoch 0 with the same id.
_REJOIN_ERRORS = (25, 110)  # UNKNOWN_MEMBER_ID, FENCED_MEMBER_EPOCH
# Share-session errors after which the fetcher restarts at epoch 0 (dropping its acks).
_SESSION_ERRORS = (122, 123, 133)
# Coordinator not there yet / moved: retry.
_RETRY_ERRORS = (14, 15, 16)  # COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE, NOT_COORDINATOR


def register(subparsers: argparse._SubParsersAction) -> None:
    p = add_tool_parser(
        subparsers,
        "console-share-consumer",
        help="print records of a topic as a share-group member (like kafka-console-share-consumer.sh)",
        description="Consume a topic as a member of a share group and print its records.",
    )
    p.add_argument("--topic", required=True, metavar="T", help="topic to consume")
    p.add_argument("--group", default="console-share-consumer", metavar="G", help="share group id")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--release", action="store_true", help="release printed records (they are delivered again)")
    mode.add_argument("--reject", action="store_true", help="reject printed records (they are archived)")
    p.add_argument("--max-messages", type=int, default=None, metavar="N", help="exit after printing N records")
    p.add_argument(
        "--timeout-ms", type=int, default=None, metavar="MS", help="exit when no record arrives for MS milliseconds"
    )
    p.add_argument(
        "--property",
        action="append",
        default=[],
        metavar="K=V",
        help="formatter property: print.key, print.offset, print.partition, print.delivery, "
        "print.headers, print.timestamp, print.value, key.separator, line.separator",
    )
    p.add_argument("--max-wait-ms", type=int, default=500, help="ShareFetch MaxWaitMs (default 500)")
    p.add_argument("--max-records", type=int, default=500, help="ShareFetch MaxRecords (default 500)")
    p.set_defaults(func=run)


def _truthy(value: str | None) -> bool:
    return (value or "").strip().lower() == "true"


def _unescape(value: str) -> str:
    return value.encode("utf-8").decode("unicode_escape")


class Formatter:
    """Kafka's DefaultMessageFormatter layout."""

    def __init__(self, props: dict[str, str]) -> None:
        self.print_key = _truthy(props.get("print.key"))
        self.print_value = props.get("print.value", "true").lower() != "false"
        self.print_offset = _truthy(props.get("print.offset"))
        self.print_partition = _truthy(props.get("print.partition"))
        self.print_delivery = _truthy(props.get("print.delivery"))
        self.print_headers = _truthy(props.get("print.headers"))
        self.print_timestamp = _truthy(props.get("print.timestamp"))
        self.key_sep = _unescape(props.get("key.separator", "\t"))
        self.line_sep = _unescape(props.get("line.separator", "\n"))
        self.headers_sep = _unescape(props.get("headers.separator", ","))
        self.null = props.get("null.literal", "null")

    def _text(self, data: bytes | None) -> str:
        return self.null if data is None else bytes(data).decode("utf-8", errors="replace")

    def format(self, partition: int, record: Record, delivery_count: int, timestamp_type: int) -> str:
        parts = []
        if self.print_timestamp:
            if record.timestamp < 0:
                parts.append("NO_TIMESTAMP")
            else:
                kind = "LogAppendTime" if timestamp_type == 1 else "CreateTime"
                parts.append(f"{kind}:{record.timestamp}")
        if self.print_partition:
            parts.append(f"Partition:{partition}")
        if self.print_offset:
            parts.append(f"Offset:{record.offset}")
        if self.print_delivery:
            parts.append(f"DeliveryCount:{delivery_count}")
        if self.print_headers:
            if record.headers:
                parts.append(self.headers_sep.join(f"{k}:{self._text(v)}" for k, v in record.headers))
            else:
                parts.append("NO_HEADERS")
        if self.print_key:
            parts.append(self._text(record.key))
        if self.print_value:
            parts.append(self._text(record.value))
        return self.key_sep.join(parts) + self.line_sep


def run(args: argparse.Namespace) -> int:
    from broker.admin.client import AdminError

    props: dict[str, str] = {}
    for item in args.property:
        key, sep, value = item.partition("=")
        if not sep:
            print(f"error: --property expects key=value, got {item!r}", file=sys.stderr)
            return 2
        props[key.strip()] = value
    import signal

    consumer = _ShareConsumer(args, Formatter(props))

    def _stop(signum: int, frame: FrameType | None) -> None:
        # Only a flag: an exception raised here could land between printing a
        # record and noting its ack, or in the middle of a request. The loop
        # checks the flag at least once per fetch (--max-wait-ms).
        consumer.stopping = True

    # Ctrl-C and SIGTERM both end the run cleanly: acks sent, group left.
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    try:
        consumer.run()
    except (AdminError, ValueError) as exc:
        print(f"Error: {exc}", file=sys.stderr)
        consumer.close()
        return 1
    except KeyboardInterrupt:
        pass
    consumer.close()
    print(f"Processed a total of {consumer.printed} messages", file=sys.stderr)
    return 0


def _acknowledgement_failed(partition: int, error_code: int) -> None:
    from broker.admin.client import error_name

    print(f"Acknowledgement on partition {partition} failed: {error_name(error_code)}", file=sys.stderr)


class _Fetcher:
    """The share session with one leader: its connection, next epoch and partitions."""

    __slots__ = ("client", "epoch", "partitions")

    def __init__(self, client: BrokerConnection) -> None:
        self.client = client
        self.epoch = 0
        self.partitions: set[int] = set()


class _ShareConsumer:
    def __init__(self, args: argparse.Namespace, formatter: Formatter) -> None:
        import base64
        import uuid

        self.args = args
        self.formatter = formatter
        self.member_id = base64.b64encode(uuid.uuid4().bytes).decode("ascii")[:22]
        self.member_epoch = 0
        self.heartbeat_interval = 5.0
        self.next_heartbeat = 0.0
        self.ack_type = RELEASE if args.release else REJECT if args.reject else ACCEPT
        self.printed = 0
        self.stopping = False
        self.topic_id: uuid.UUID | None = None  # known after the first metadata refresh
        self.assigned: set[int] = set()
        self.leaders: dict[int, int] = {}  # partition -> leader node
        self.brokers: dict[int, tuple[str, int]] = {}
        self.coordinator: BrokerConnection | None = None  # to the group coordinator
        self.bootstrap: AdminClient | None = None  # FindCoordinator and Metadata
        # per leader node: its share session
        self.fetchers: dict[int, _Fetcher] = {}
        # partition -> {offset: ack type} waiting to be sent
        self.pending: dict[int, dict[int, int]] = {}
        self.joined = False

    # --- membership --------------------------------------------------------

    def _connect(self, host: str, port: int) -> BrokerConnection:
        # Its own socket per role (coordinator, each leader), as a share consumer keeps them.
        from broker.admin.client import BrokerConnection

        return BrokerConnection(host, port, timeout=30, client_id=_CLIENT_ID, security=client_security(self.args))

    def _find_coordinator(self) -> None:
        import time

        from broker.admin.client import AdminClient, KafkaApiError

        self.bootstrap = bootstrap = AdminClient(
            self.args.bootstrap_server, timeout=30, client_id=_CLIENT_ID, security=client_security(self.args)
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                node = bootstrap.find_coordinator(self.args.group)
            except KafkaApiError as exc:
                if exc.error_code not in _RETRY_ERRORS or time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
                continue
            self.coordinator = self._connect(node.host, node.port)
            return

    def _heartbeat(self, leave: bool = False) -> None:
        import time

        from broker.admin.client import KafkaApiError
        from broker.protocol.messages.share_group_heartbeat_request import ShareGroupHeartbeatRequest

        assert self.coordinator is not None, "the coordinator is found before the first heartbeat"
        epoch = -1 if leave else self.member_epoch
        req = ShareGroupHeartbeatRequest(
            group_id=self.args.group,
            member_id=self.member_id,
            member_epoch=epoch,
            rack_id=None,
            subscribed_topic_names=[self.args.topic] if epoch == 0 else None,
        )
        resp = self.coordinator.call(req, 1)
        now = time.monotonic()
        if leave:
            return
        if resp.error_code in _REJOIN_ERRORS:
            self.member_epoch = 0
            self.next_heartbeat = now
            return
        if resp.error_code in _RETRY_ERRORS:
            self.next_heartbeat = now + 0.5
            return
        if resp.error_code:
            raise KafkaApiError(resp.error_code, resp.error_message, "ShareGroupHeartbeat")
        self.joined = True
        self.member_epoch = resp.member_epoch
        if resp.heartbeat_interval_ms > 0:
            self.heartbeat_interval = resp.heartbeat_interval_ms / 1000
        self.next_heartbeat = now + self.heartbeat_interval
        if resp.assignment is not None:
            self._assign(resp.assignment)

    def _assign(self, assignment: Assignment) -> None:
        partitions: set[int] = set()
        for tp in assignment.topic_partitions:
            if self.topic_id is None or tp.topic_id != self.topic_id:
                self._refresh_metadata()
            if tp.topic_id == self.topic_id:
                partitions.update(tp.partitions)
        self.assigned = partitions
        if partitions - set(self.leaders):
            self._refresh_metadata()

    def _refresh_metadata(self) -> None:
        from broker.admin.client import check_error

        assert self.bootstrap is not None, "the bootstrap client is opened before any metadata request"
        meta = self.bootstrap.metadata([self.args.topic])
        self.brokers = {b.node_id: (b.host, b.port) for b in meta.brokers}
        t = meta.topics[0]
        check_error(t.error_code, None, f"topic {self.args.topic}")
        self.topic_id = t.topic_id
        self.leaders = {p.partition_index: p.leader_id for p in t.partitions}

    # --- fetching ------------------------------------------------------------

    def _fetch_from(self, node: int, partitions: set[int], wait_ms: int) -> list[tuple[int, Record, int, int]]:
        """One ShareFetch to ``node``; returns (partition, record, delivery count, timestamp type) to print."""
        from broker.admin.client import KafkaApiError, coalesce_acks
        from broker.protocol.messages.share_fetch_request import (
            AcknowledgementBatch,
            FetchPartition,
            FetchTopic,
            ForgottenTopic,
            ShareFetchRequest,
        )

        topic_id = self.topic_id
        assert topic_id is not None, "metadata is refreshed before the first fetch"
        f = self.fetchers.get(node)
        if f is None:
            host, port = self.brokers[node]
            f = self.fetchers[node] = _Fetcher(self._connect(host, port))
        epoch = f.epoch
        if epoch == 0:
            # A new session: acks cannot ride on epoch 0, and the broker released the old ones.
            for p in partitions | f.partitions:
                self.pending.pop(p, None)
        send_parts = set(partitions) if epoch == 0 else (partitions - f.partitions)
        acked = {p for p in f.partitions | partitions if self.pending.get(p)} if epoch else set()
        forgotten = f.partitions - partitions if epoch else set()
        fetch_parts = []
        for p in sorted(send_parts | acked):
            batches = (
                [
                    AcknowledgementBatch(first_offset=a, last_offset=b, acknowledge_types=[k])
                    for a, b, k in coalesce_acks(self.pending.get(p, {}))
                ]
                if epoch
                else []
            )
            fetch_parts.append(FetchPartition(partition_index=p, acknowledgement_batches=batches))
        # Past the message budget we only deliver acks: ask for nothing new.
        budget_left = self.args.max_messages is None or self.printed < self.args.max_messages
        req = ShareFetchRequest(
            group_id=self.args.group,
            member_id=self.member_id,
            share_session_epoch=epoch,
            max_wait_ms=wait_ms if budget_left else 0,
            min_bytes=1,
            max_bytes=52428800,
            max_records=self.args.max_records if budget_left else 1,
            batch_size=self.args.max_records,
            topics=[FetchTopic(topic_id=topic_id, partitions=fetch_parts)] if fetch_parts else [],
            forgotten_topics_data=[ForgottenTopic(topic_id=topic_id, partitions=sorted(forgotten))]
            if forgotten
            else [],
        )
        resp = f.client.call(req, 1, timeout=wait_ms / 1000 + 30)
        for p in acked:
            self.pending.pop(p, None)
        if resp.error_code in _SESSION_ERRORS:
            f.epoch, f.partitions = 0, set()
            return []
        if resp.error_code:
            raise KafkaApiError(resp.error_code, resp.error_message, "ShareFetch")
        f.epoch = 1 if epoch == 2**31 - 1 else epoch + 1
        f.partitions = set(partitions)
        out: list[tuple[int, Record, int, int]] = []
        for topic in resp.responses:
            if topic.topic_id != topic_id:
                continue
            for pd in topic.partitions:
                if pd.acknowledge_error_code:
                    _acknowledgement_failed(pd.partition_index, pd.acknowledge_error_code)
                if pd.error_code:
                    if pd.error_code in (6, 74, 3):  # NOT_LEADER, FENCED_LEADER_EPOCH, UNKNOWN_TOPIC
                        self._refresh_metadata()
                    continue
                out.extend(self._records(pd))
        return out

    def _records(self, pd: PartitionData) -> list[tuple[int, Record, int, int]]:
        from broker.protocol.records import iter_batches, iter_records

        partition = pd.partition_index
        acquired: dict[int, int] = {}
        for ar in pd.acquired_records:
            for off in range(ar.first_offset, ar.last_offset + 1):
                acquired[off] = ar.delivery_count
        if not acquired:
            return []
        acks = self.pending.setdefault(partition, {})
        out: list[tuple[int, Record, int, int]] = []
        seen: set[int] = set()
        for bv in iter_batches(pd.records or b"", allow_partial=True):
            header = bv.header
            if header.is_control:
                continue  # its offsets stay unseen and are Gap-acked below
            timestamp_type = 1 if header.attributes & 0x08 else 0
            for record in iter_records(bv.view):
                count = acquired.get(record.offset)
                if count is None:
                    continue
                seen.add(record.offset)
                if self.args.max_messages is not None and self.printed + len(out) >= self.args.max_messages:
                    acks[record.offset] = RELEASE  # acquired past the budget: give it back
                    continue
                out.append((partition, record, count, timestamp_type))
        for off in acquired:
            if off not in seen:
                acks[off] = GAP
        return out

    # --- main loop -----------------------------------------------------------

    def run(self) -> None:
        import time

        from broker.admin.client import AdminError

        self._find_coordinator()
        self._refresh_metadata()
        timeout = None if self.args.timeout_ms is None else self.args.timeout_ms / 1000
        last_record = time.monotonic()
        out = sys.stdout
        while not self.stopping:
            now = time.monotonic()
            if now >= self.next_heartbeat:
                self._heartbeat()
            if self.args.max_messages is not None and self.printed >= self.args.max_messages:
                return
            if timeout is not None and time.monotonic() - last_record >= timeout:
                return
            if not self.assigned:
                wait = min(0.1, max(0.0, self.next_heartbeat - time.monotonic()))
                time.sleep(wait if self.joined else 0.05)
                continue
            by_leader: dict[int, set[int]] = {}
            for p in self.assigned:
                if p in self.leaders and self.leaders[p] >= 0:
                    by_leader.setdefault(self.leaders[p], set()).add(p)
            # Leaders we fetched from before but no longer hold partitions of us.
            for node in list(self.fetchers):
                by_leader.setdefault(node, set())
            wait_ms = self.args.max_wait_ms
            wait_ms = int(max(0, min(wait_ms, (self.next_heartbeat - time.monotonic()) * 1000)))
            if timeout is not None:
                wait_ms = int(max(0, min(wait_ms, (timeout - (time.monotonic() - last_record)) * 1000)))
            got = 0
            for node, parts in by_leader.items():
                try:
                    records = self._fetch_from(node, parts, wait_ms)
                except AdminError:
                    f = self.fetchers.pop(node, None)
                    if f:
                        f.client.close()
                    raise
                for partition, record, count, ts_type in records:
                    out.write(self.formatter.format(partition, record, count, ts_type))
                    self.pending.setdefault(partition, {})[record.offset] = self.ack_type
                    self.printed += 1
                    got += 1
            if got:
                out.flush()
                last_record = time.monotonic()

    def close(self) -> None:
        """Send outstanding acks with ShareAcknowledge epoch -1, then leave the group."""
        from broker.admin.client import coalesce_acks
        from broker.protocol.messages.share_acknowledge_request import (
            AcknowledgementBatch,
            AcknowledgePartition,
            AcknowledgeTopic,
            ShareAcknowledgeRequest,
        )

        for _node, f in list(self.fetchers.items()):
            try:
                if f.epoch > 0:
                    assert self.topic_id is not None, "a session with epoch > 0 fetched the topic"
                    parts = []
                    for p in sorted(f.partitions):
                        runs = coalesce_acks(self.pending.pop(p, {}))
                        if runs:
                            parts.append(
                                AcknowledgePartition(
                                    partition_index=p,
                                    acknowledgement_batches=[
                                        AcknowledgementBatch(first_offset=a, last_offset=b, acknowledge_types=[k])
                                        for a, b, k in runs
                                    ],
                                )
                            )
                    req = ShareAcknowledgeRequest(
                        group_id=self.args.group,
                        member_id=self.member_id,
                        share_session_epoch=-1,
                        topics=[AcknowledgeTopic(topic_id=self.topic_id, partitions=parts)] if parts else [],
                    )
                    resp = f.client.call(req, 1, timeout=10)
                    for t in resp.responses:
                        for pd in t.partitions:
                            if pd.error_code:
                                _acknowledgement_failed(pd.partition_index, pd.error_code)
            except Exception as exc:
                print(f"Closing the share session failed: {exc}", file=sys.stderr)
            finally:
                f.client.close()
        self.fetchers.clear()
        if self.coordinator is not None:
            try:
                if self.joined:
                    self._heartbeat(leave=True)
            except Exception as exc:
                print(f"Leaving the group failed: {exc}", file=sys.stderr)
            finally:
                self.coordinator.close()
                self.coordinator = None
        if self.bootstrap is not None:
            self.bootstrap.close()
            self.bootstrap = None
