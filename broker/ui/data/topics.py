"""Topics: the list, one topic's partitions and configs, the message browser, produce.

Requests per refresh of the list: Metadata (all topics), ListOffsets for the latest
offsets (one request per partition leader, every partition in it), and, where
ApiVersions lists DescribeLogDirs, one DescribeLogDirs per broker for every topic.
A topic page adds ListOffsets for the earliest offsets and one DescribeConfigs.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from broker.admin.client import (
    EARLIEST_TIMESTAMP,
    LATEST_TIMESTAMP,
    RESOURCE_TOPIC,
    AdminClient,
    AdminError,
    KafkaApiError,
    Node,
    check_error,
    sessionless_fetch,
)
from broker.protocol.api_keys import ApiKey
from broker.protocol.errors import ErrorCode
from broker.ui.data import NOT_READ, Unavailable

# The message browser reads at most this many records per page (a page of a browser,
# not an export) and at most FETCH_MAX_BYTES from the partition's leader per request.
MAX_BROWSE_RECORDS = 200
FETCH_MAX_BYTES = 4 << 20
# Largest record value the produce form sends: Kafka's default max.message.bytes is 1 MiB.
MAX_PRODUCE_BYTES = 1 << 20

# DescribeConfigs config_source codes, as Kafka names them.
CONFIG_SOURCES = {
    -1: "UNKNOWN",
    0: "UNKNOWN",
    1: "DYNAMIC_TOPIC_CONFIG",
    2: "DYNAMIC_BROKER_CONFIG",
    3: "DYNAMIC_DEFAULT_BROKER_CONFIG",
    4: "STATIC_BROKER_CONFIG",
    5: "DEFAULT_CONFIG",
    6: "DYNAMIC_BROKER_LOGGER_CONFIG",
    7: "CLIENT_METRICS_CONFIG",
    8: "GROUP_CONFIG",
}


@dataclass(slots=True)
class PartitionRow:
    partition: int
    leader: int
    replicas: list[int]
    isr: list[int]
    offline: list[int]
    earliest: int | Unavailable = NOT_READ
    latest: int | Unavailable = NOT_READ
    size: int | Unavailable = NOT_READ

    @property
    def messages(self) -> int | None:
        if isinstance(self.earliest, int) and isinstance(self.latest, int):
            return max(0, self.latest - self.earliest)
        return None


@dataclass(slots=True)
class TopicRow:
    name: str
    topic_id: uuid.UUID
    internal: bool
    partitions: list[PartitionRow]
    error: str | None = None
    size: int | Unavailable = NOT_READ

    @property
    def replication(self) -> int:
        return max((len(p.replicas) for p in self.partitions), default=0)

    @property
    def under_replicated(self) -> int:
        return sum(1 for p in self.partitions if len(p.isr) < len(p.replicas))

    @property
    def latest_total(self) -> int | None:
        if all(isinstance(p.latest, int) for p in self.partitions):
            return sum(p.latest for p in self.partitions if isinstance(p.latest, int))
        return None


@dataclass(slots=True)
class ConfigRow:
    name: str
    value: str | None
    source: str
    read_only: bool
    sensitive: bool


@dataclass(slots=True)
class Message:
    partition: int
    offset: int
    timestamp: int
    key: bytes | None
    value: bytes | None
    headers: list[tuple[str, bytes | None]]


@dataclass(slots=True)
class Browse:
    topic: str
    partition: int
    start: int
    earliest: int
    latest: int
    messages: list[Message] = field(default_factory=list)
    note: str | None = None


def _rows(meta: Any) -> tuple[dict[str, TopicRow], dict[int, Node]]:
    brokers = {b.node_id: Node(b.node_id, b.host, b.port) for b in meta.brokers}
    topics: dict[str, TopicRow] = {}
    for t in meta.topics:
        row = TopicRow(t.name, t.topic_id, t.is_internal, [])
        if t.error_code:
            row.error = KafkaApiError(t.error_code).code.name
        for p in sorted(t.partitions, key=lambda p: p.partition_index):
            row.partitions.append(
                PartitionRow(
                    p.partition_index, p.leader_id, list(p.replica_nodes), list(p.isr_nodes), list(p.offline_replicas)
                )
            )
        topics[t.name] = row
    return topics, brokers


def _offsets(
    admin: AdminClient, topics: Iterable[TopicRow], timestamp: int
) -> dict[tuple[str, int], int | Unavailable]:
    """ListOffsets for every partition of ``topics``: one request per leader (the admin client
    groups them); a leader that fails leaves its partitions unavailable, the rest still show."""
    wanted = {(t.name, p.partition): timestamp for t in topics if not t.error for p in t.partitions}
    if not wanted:
        return {}
    try:
        return dict(admin.list_offsets(wanted))
    except AdminError as exc:
        reason = Unavailable(f"ListOffsets: {exc}")
        return dict.fromkeys(wanted, reason)


def log_dir_sizes(admin: AdminClient, brokers: Iterable[Node]) -> dict[tuple[str, int], int] | Unavailable:
    """Bytes on disk per partition, all replicas added up: one DescribeLogDirs per broker.
    Unavailable where the cluster does not list the API (DescribeLogDirs, key 35)."""
    if ApiKey.DESCRIBE_LOG_DIRS not in admin.api_versions():
        return Unavailable("this cluster does not serve DescribeLogDirs (API 35)")
    from broker.protocol.messages.describe_log_dirs_request import DescribeLogDirsRequest

    sizes: dict[tuple[str, int], int] = {}
    for node in brokers:
        try:
            resp = admin.send(DescribeLogDirsRequest(topics=None), node=node)
        except AdminError as exc:
            return Unavailable(f"DescribeLogDirs on broker {node.node_id}: {exc}")
        if getattr(resp, "error_code", 0):
            return Unavailable(f"DescribeLogDirs on broker {node.node_id}: {KafkaApiError(resp.error_code)}")
        for d in resp.results:
            if d.error_code:
                continue
            for t in d.topics:
                for p in t.partitions:
                    if not p.is_future_key:
                        key = (t.name, p.partition_index)
                        sizes[key] = sizes.get(key, 0) + p.partition_size
    return sizes


def list_topics(admin: AdminClient) -> list[TopicRow]:
    topics, brokers = _rows(admin.metadata(None))
    latest = _offsets(admin, topics.values(), LATEST_TIMESTAMP)
    sizes = log_dir_sizes(admin, brokers.values())
    for t in topics.values():
        for p in t.partitions:
            p.latest = latest.get((t.name, p.partition), Unavailable("no leader"))
            p.size = sizes if isinstance(sizes, Unavailable) else sizes.get((t.name, p.partition), 0)
        t.size = (
            sizes if isinstance(sizes, Unavailable) else sum(p.size for p in t.partitions if isinstance(p.size, int))
        )
    return sorted(topics.values(), key=lambda t: (t.internal, t.name))


def topic_detail(admin: AdminClient, name: str) -> TopicRow:
    """One topic with earliest and latest offsets and sizes (UNKNOWN_TOPIC_OR_PARTITION raised)."""
    meta = admin.metadata([name])
    topics, brokers = _rows(meta)
    row = topics.get(name)
    if row is None or row.error:
        raise KafkaApiError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Topic '{name}' does not exist.", "Metadata")
    earliest = _offsets(admin, [row], EARLIEST_TIMESTAMP)
    latest = _offsets(admin, [row], LATEST_TIMESTAMP)
    hosting = {r for p in row.partitions for r in p.replicas}
    sizes = log_dir_sizes(admin, [n for i, n in brokers.items() if i in hosting])
    for p in row.partitions:
        p.earliest = earliest.get((name, p.partition), Unavailable("no leader"))
        p.latest = latest.get((name, p.partition), Unavailable("no leader"))
        p.size = sizes if isinstance(sizes, Unavailable) else sizes.get((name, p.partition), 0)
    row.size = (
        sizes if isinstance(sizes, Unavailable) else sum(p.size for p in row.partitions if isinstance(p.size, int))
    )
    return row


def describe_configs(admin: AdminClient, resource_type: int, name: str) -> list[ConfigRow]:
    entries = admin.describe_config_entries(resource_type, name)
    return sorted(
        (
            ConfigRow(
                c.name,
                None if c.is_sensitive else c.value,
                CONFIG_SOURCES.get(c.config_source, str(c.config_source)),
                c.read_only,
                c.is_sensitive,
            )
            for c in entries
        ),
        key=lambda c: c.name,
    )


def topic_configs(admin: AdminClient, name: str) -> list[ConfigRow]:
    return describe_configs(admin, RESOURCE_TOPIC, name)


def alter_config(admin: AdminClient, resource_type: int, name: str, key: str, value: str | None) -> None:
    """Set (or, value None, delete) one config; Kafka's validation error is raised as is."""
    admin.incremental_alter_configs(resource_type, name, {key: value})


def reset_positions(admin: AdminClient, topic: str, to: str, value: str | None) -> dict[tuple[str, int], int]:
    """Where a group's reset moves each partition of ``topic``: ``to`` is earliest, latest,
    timestamp (``value``, ms since the epoch; past the last record: the end) or offset (``value``)."""
    tps = [(topic, p) for p in admin.topic_partitions([topic])[topic]]
    if to == "offset":
        return dict.fromkeys(tps, int(value or ""))
    ts = {"earliest": EARLIEST_TIMESTAMP, "latest": LATEST_TIMESTAMP}.get(to)
    if ts is None and to != "timestamp":
        raise ValueError(f"unknown reset target {to!r}")
    found = admin.list_offsets(dict.fromkeys(tps, int(value or "") if ts is None else ts))
    latest = admin.list_offsets(dict.fromkeys(tps, LATEST_TIMESTAMP)) if ts is None else found
    return {tp: (off if off >= 0 else latest[tp]) for tp, off in found.items()}


# -- the message browser -----------------------------------------------------------------------


def _leader(admin: AdminClient, topic: str, partition: int) -> tuple[Node, uuid.UUID]:
    meta = admin.metadata([topic])
    brokers = {b.node_id: Node(b.node_id, b.host, b.port) for b in meta.brokers}
    for t in meta.topics:
        if t.name != topic:
            continue
        check_error(t.error_code, f"Topic '{topic}' does not exist." if t.error_code == 3 else None, "Metadata")
        for p in t.partitions:
            if p.partition_index == partition:
                node = brokers.get(p.leader_id)
                if node is None:
                    raise KafkaApiError(ErrorCode.LEADER_NOT_AVAILABLE, None, f"{topic}-{partition}")
                return node, t.topic_id
        raise KafkaApiError(
            ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Topic '{topic}' has no partition {partition}.", "Metadata"
        )
    raise KafkaApiError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Topic '{topic}' does not exist.", "Metadata")


def browse(
    admin: AdminClient,
    topic: str,
    partition: int,
    *,
    offset: int | None = None,
    timestamp_ms: int | None = None,
    limit: int = 20,
) -> Browse:
    """Records of one partition from ``offset`` (or the first at or after ``timestamp_ms``;
    neither: the newest ``limit``). An offset outside the log is answered with a note,
    the way Kafka's OFFSET_OUT_OF_RANGE would be, and the nearest records are shown."""
    limit = max(1, min(limit, MAX_BROWSE_RECORDS))
    node, topic_id = _leader(admin, topic, partition)
    ends = admin.list_offsets({(topic, partition): EARLIEST_TIMESTAMP})
    earliest = ends[(topic, partition)]
    latest = admin.list_offsets({(topic, partition): LATEST_TIMESTAMP})[(topic, partition)]
    note = None
    if timestamp_ms is not None:
        found = admin.list_offsets({(topic, partition): timestamp_ms})[(topic, partition)]
        if found < 0:
            note = f"No record has a timestamp at or after {timestamp_ms}; showing the end of the log."
            found = latest
        start = found
    elif offset is None:
        start = max(earliest, latest - limit)
    else:
        start = offset
        if offset < earliest or offset > latest:
            note = (
                f"Offset {offset} is out of range: partition {partition} holds offsets {earliest} to {latest - 1}"
                if latest > earliest
                else f"Offset {offset} is out of range: partition {partition} is empty (next offset {latest})"
            )
            start = earliest if offset < earliest else latest
    view = Browse(topic, partition, start, earliest, latest, note=note)
    if start < latest:
        view.messages = _fetch(admin, node, topic, topic_id, partition, start, limit)
    return view


def _fetch_request(topic: str, topic_id: uuid.UUID, partitions: list[tuple[int, int]], max_bytes: int) -> Any:
    """The console's Fetch: at most FETCH_MAX_BYTES, ``max_bytes`` from each partition."""
    return sessionless_fetch(
        topic, topic_id, partitions, max_bytes=FETCH_MAX_BYTES, partition_max_bytes=max_bytes, min_bytes=0
    )


def _decode(data: bytes, partition: int, start: int, limit: int, out: list[Message]) -> int | None:
    """Append the records at or after ``start`` (at most ``limit`` in ``out``); returns the
    offset after the last whole batch read, or None when ``data`` held none."""
    from broker.protocol.records import iter_batches, iter_records

    position = None
    for bv in iter_batches(data, allow_partial=True):
        header = bv.header
        if header.last_offset < start:
            continue
        if not header.is_control:
            for r in iter_records(bv.view):
                if r.offset >= start and len(out) < limit:
                    out.append(Message(partition, r.offset, r.timestamp, r.key, r.value, list(r.headers)))
        position = header.next_offset
        if len(out) >= limit:
            break
    return position


def _partition_data(resp: Any, topic: str) -> dict[int, bytes]:
    check_error(resp.error_code, None, "Fetch")
    out: dict[int, bytes] = {}
    for t in resp.responses:
        for p in t.partitions:
            check_error(p.error_code, None, f"Fetch {topic}-{p.partition_index}")
            out[p.partition_index] = bytes(p.records or b"")
    return out


def _fetch(
    admin: AdminClient, node: Node, topic: str, topic_id: uuid.UUID, partition: int, start: int, limit: int
) -> list[Message]:
    out: list[Message] = []
    position = start
    # A few rounds at most: a round returns at least one whole batch (Kafka's rule), and
    # records before ``start`` in the first batch are skipped.
    for _ in range(8):
        resp = admin.send(_fetch_request(topic, topic_id, [(partition, position)], FETCH_MAX_BYTES), node=node)
        data = _partition_data(resp, topic).get(partition, b"")
        after = _decode(data, partition, position, limit, out) if data else None
        if after is None or len(out) >= limit:
            break
        position = after
    return out


def newest_records(admin: AdminClient, topic: str, per_partition: int) -> list[Message]:
    """The newest ``per_partition`` records of every partition of ``topic``: ListOffsets and
    one Fetch per partition leader for all its partitions (one round: a partition whose
    newest records exceed its share of FETCH_MAX_BYTES shows fewer)."""
    meta = admin.metadata([topic])
    brokers = {b.node_id: Node(b.node_id, b.host, b.port) for b in meta.brokers}
    found = next((t for t in meta.topics if t.name == topic), None)
    if found is None or found.error_code:
        raise KafkaApiError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"Topic '{topic}' does not exist.", "Metadata")
    keys = [(topic, p.partition_index) for p in found.partitions]
    earliest = admin.list_offsets(dict.fromkeys(keys, EARLIEST_TIMESTAMP))
    latest = admin.list_offsets(dict.fromkeys(keys, LATEST_TIMESTAMP))
    by_leader: dict[int, list[tuple[int, int]]] = {}
    for p in found.partitions:
        key = (topic, p.partition_index)
        start = max(earliest[key], latest[key] - per_partition)
        if start < latest[key]:
            by_leader.setdefault(p.leader_id, []).append((p.partition_index, start))
    out: list[Message] = []
    for leader, wanted in by_leader.items():
        node = brokers.get(leader)
        if node is None:
            continue
        share = max(FETCH_MAX_BYTES // len(wanted), 64 << 10)
        data = _partition_data(admin.send(_fetch_request(topic, found.topic_id, wanted, share), node=node), topic)
        for partition, start in wanted:
            got: list[Message] = []
            _decode(data.get(partition, b""), partition, start, per_partition, got)
            out.extend(got)
    return out


def produce(
    admin: AdminClient,
    topic: str,
    partition: int,
    key: bytes | None,
    value: bytes | None,
    headers: list[tuple[str, bytes | None]],
) -> int:
    """Append one record (acks=all) to ``partition``; returns its offset. Kafka's error is raised."""
    from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
    from broker.protocol.records import build_batch

    if len(value or b"") + len(key or b"") > MAX_PRODUCE_BYTES:
        raise KafkaApiError(
            ErrorCode.RECORD_LIST_TOO_LARGE, f"the console sends records up to {MAX_PRODUCE_BYTES} bytes"
        )
    node, topic_id = _leader(admin, topic, partition)
    batch = build_batch([(key, value, headers, int(time.time() * 1000))])
    req = ProduceRequest(
        transactional_id=None,
        acks=-1,
        timeout_ms=10_000,
        topic_data=[
            TopicProduceData(
                name=topic, topic_id=topic_id, partition_data=[PartitionProduceData(index=partition, records=batch)]
            )
        ],
    )
    resp = admin.send(req, node=node)
    for t in resp.responses:
        for p in t.partition_responses:
            if p.index == partition:
                check_error(p.error_code, p.error_message, f"Produce {topic}-{partition}")
                return int(p.base_offset)
    raise KafkaApiError(ErrorCode.UNKNOWN_SERVER_ERROR, "the broker's answer did not name the partition", "Produce")
