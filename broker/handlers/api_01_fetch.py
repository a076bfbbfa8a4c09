"""Fetch (key 1), v4-18: consumer fetches, long polls and fetch sessions.

Topics are named by name before v13 and by topic id from v13 (KIP-516); an
unknown id is UNKNOWN_TOPIC_ID, an unknown name or partition
UNKNOWN_TOPIC_OR_PARTITION. Stored batches are returned as they are on disk.

Limits (KIP-74): each partition returns at most ``partition_max_bytes`` and the
whole response at most ``max_bytes`` (capped by the broker's
``fetch.max.bytes``), except that the first partition with data always
returns at least one whole batch, however large, so a consumer can never get
stuck behind a big batch. Partitions are read in request (or session) order.

Isolation: read_uncommitted (0) reads up to the high watermark and sends
``aborted_transactions`` null; read_committed (1) reads up to the last stable
offset and lists the aborted transactions overlapping the returned range.
Every partition carries high watermark, last stable offset and log start
offset; ``preferred_read_replica`` is -1 (one broker, no follower fetching).

Leader epochs come from the metadata image. A ``current_leader_epoch`` above
the partition's is UNKNOWN_LEADER_EPOCH, one below FENCED_LEADER_EPOCH; -1
(absent) is not checked. ``last_fetched_epoch`` (v12+) is checked the way
Kafka checks it against the leader epoch cache: an epoch whose end cannot be
told, or ends below the log start, is OFFSET_OUT_OF_RANGE; one that ends
before the fetch offset (or is not known, so an older one answers) gives a
diverging epoch and no records.

In a cluster, a partition placed on another broker answers NOT_LEADER_OR_FOLLOWER,
with the current leader and its endpoint from v16 (KIP-951); so does the
leader of a broker paused past its lease, until it learns it was replaced.

Replicas: a request with ``replica_id`` >= 0 (``replica_state`` from v15, with
the follower's broker epoch, KIP-903) is a follower's. It reads up to the log
end offset (not the high watermark); its fetch offset tells the leader how far
the follower's log reaches, which moves the high watermark and may bring the
follower back into the ISR (:meth:`broker.replica.manager.ReplicaManager.follower_fetched`,
once per request, not when the fetch diverges). A replica that is not one of
the partition's replicas gets UNKNOWN_LEADER_EPOCH when it named a leader epoch,
NOT_LEADER_OR_FOLLOWER otherwise (as Kafka answers, so it refreshes its metadata).

Long poll: while fewer than ``min_bytes`` are available and ``max_wait_ms`` has
not passed, the request parks until a partition it reads changes (no polling),
then reads again; a read error, a diverging epoch or broker shutdown answer at
once.

Fetch sessions (KIP-227, :mod:`broker.replica.fetch_sessions`): incremental
fetches list only what changed; responses echo topics by name or id as the
request named them. An incremental fetch reads only the partitions its request
lists and those of its session that changed since they were last read with
nothing to return, and parks on its session: a follower's fetch over thousands
of idle partitions costs the same as over one. Partitions refused before reading (unknown topic, id or
partition) come after the partitions read, with an empty aborted-transaction
list, as Kafka sends them; an isolation level other than 0/1 fails the whole
request with UNKNOWN_SERVER_ERROR (on every partition too before v13).

Checked against Apache Kafka 4.2.2 with raw requests: partition order and
shapes, session errors, epochs, follower refusals, byte limits. One known
difference: where the byte limit cuts a partition short Kafka may send a
truncated trailing batch, we send whole batches only.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

import trio

from broker.config.services import HandlerSettings
from broker.handlers import handler
from broker.handlers._leaders import node_endpoints
from broker.handlers.context import RequestContext
from broker.metadata.image import MetadataImage
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.fetch_request import FetchRequest
from broker.protocol.messages.fetch_response import (
    AbortedTransaction,
    EpochEndOffset,
    FetchableTopicResponse,
    FetchResponse,
    LeaderIdAndEpoch,
    NodeEndpoint,
    PartitionData,
)
from broker.protocol.primitives import UUID_ZERO
from broker.replica.fetch_sessions import CachedPartition, FetchContext, Item, SessionKey
from broker.replica.manager import ReplicaManager

READ_COMMITTED = 1

_EMPTY = b""


# --- partition responses ----------------------------------------------------------------


def _unknown(code: int) -> PartitionData:
    """A partition refused before any read (Kafka's ``partitionResponse``)."""
    return PartitionData(
        error_code=code,
        high_watermark=-1,
        last_stable_offset=-1,
        log_start_offset=-1,
        aborted_transactions=[],
        records=_EMPTY,
    )


def _read_error(code: int) -> PartitionData:
    """A partition whose read failed: offsets unknown as for one refused, but no
    aborted-transaction list."""
    answer = _unknown(code)
    answer.aborted_transactions = None
    return answer


# A partition to read: its session key, its topic's name (resolved) and its parameters.
_Target = tuple[SessionKey, str, CachedPartition]


class _Read:
    """One request's partitions to read, and how (the part of a fetch that is retried)."""

    __slots__ = (
        "broker_epoch",
        "by_id",
        "fetch_max",
        "follower",
        "idle",
        "isolation",
        "recorded",
        "replicas",
        "targets",
    )

    def __init__(
        self,
        replicas: ReplicaManager,
        targets: list[_Target],
        fetch_max: int,
        isolation: int,
        follower: int,
        by_id: bool,
        broker_epoch: int = -1,
    ) -> None:
        self.replicas = replicas
        self.targets = targets
        self.fetch_max = fetch_max
        self.isolation = isolation
        self.follower = follower  # the fetching replica's id, -1 for a consumer
        self.by_id = by_id
        self.broker_epoch = broker_epoch
        self.recorded: set[tuple[str | None, int]] = set()  # follower positions taken
        # Keys whose last read had nothing to return: the reader is at the end of what it may read.
        self.idle: set[SessionKey] = set()

    def all(self) -> tuple[dict[SessionKey, PartitionData], int, bool]:
        """Read every partition; returns (results, bytes, answer-now)."""
        limit = self.fetch_max
        min_one = True
        results: dict[SessionKey, PartitionData] = {}
        total = 0
        urgent = False
        self.idle = set()
        for key, topic, cp in self.targets:
            pd = self.one(topic, cp, limit, min_one, key)
            n = len(pd.records) if pd.records is not None else 0
            if n:
                min_one = False  # only the first partition with data may exceed the limits
                limit = max(0, limit - n)
                total += n
            if pd.error_code or pd.diverging_epoch.epoch >= 0:
                urgent = True
            results[key] = pd
        return results, total, urgent

    def one(self, topic: str, cp: CachedPartition, limit: int, min_one: bool, key: SessionKey) -> PartitionData:
        partition = self.replicas.partition(topic, cp.partition)
        if partition is None:
            if self.replicas.in_cluster(topic, cp.partition):
                return _read_error(ErrorCode.NOT_LEADER_OR_FOLLOWER)  # placed on another broker
            return _read_error(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)  # deleted while the request waited
        if self.by_id and partition.topic_id != cp.topic_id:
            return _read_error(ErrorCode.INCONSISTENT_TOPIC_ID)
        epoch = cp.current_leader_epoch
        leader_epoch = partition.leader_epoch
        # A negative epoch means "not given".
        if epoch > leader_epoch:
            return _read_error(ErrorCode.UNKNOWN_LEADER_EPOCH)
        if 0 <= epoch < leader_epoch:
            return _read_error(ErrorCode.FENCED_LEADER_EPOCH)
        if not partition.is_leader:
            return _read_error(ErrorCode.NOT_LEADER_OR_FOLLOWER)
        log = partition.log
        offset = cp.fetch_offset
        follower = self.follower >= 0
        if follower and self.follower not in partition.followers:
            # Kafka's answer to a replica outside the assignment: refresh your metadata.
            return _read_error(ErrorCode.UNKNOWN_LEADER_EPOCH if epoch >= 0 else ErrorCode.NOT_LEADER_OR_FOLLOWER)
        if cp.last_fetched_epoch >= 0:
            try:
                diverging = partition.diverging_epoch(cp.last_fetched_epoch, offset)
            except KafkaError as exc:
                return _read_error(exc.code)
            if diverging is not None:
                return PartitionData(
                    high_watermark=partition.high_watermark,
                    last_stable_offset=partition.last_stable_offset,
                    log_start_offset=partition.log_start_offset,
                    diverging_epoch=EpochEndOffset(epoch=diverging[0], end_offset=diverging[1]),
                    aborted_transactions=None,
                    records=_EMPTY,
                )
        if follower and (cp.topic, cp.partition) not in self.recorded:
            if offset > log.log_end_offset or offset < log.log_start_offset:
                return _read_error(ErrorCode.OFFSET_OUT_OF_RANGE)
            try:
                self.replicas.follower_fetched(
                    partition, self.follower, offset, cp.fetcher_log_start_offset, self.broker_epoch
                )
            except KafkaError as exc:
                return _read_error(exc.code)
            self.recorded.add((cp.topic, cp.partition))
        # Offsets as they were before the read (an append during it must not show).
        hw = partition.high_watermark
        lso = partition.last_stable_offset
        start = partition.log_start_offset
        committed = self.isolation == READ_COMMITTED and not follower
        if follower:
            upper = None  # a follower copies everything the leader has
        else:
            upper = lso if committed else hw
        try:
            # File ranges, not bytes: the connection sends them from the page cache.
            found, _ = log.read_slice(offset, min(cp.max_bytes, limit), max_offset=upper, min_one=min_one)
        except KafkaError as exc:
            return _read_error(exc.code)
        records: Any = _EMPTY if found is None else found
        if found is None and offset >= (log.log_end_offset if upper is None else upper):
            self.idle.add(key)
        aborted = None
        if committed:
            aborted = []
            if found is not None:
                aborted = [
                    AbortedTransaction(producer_id=pid, first_offset=first)
                    for pid, first in log.aborted_transactions(offset, found.next_offset)
                ]
        return PartitionData(
            high_watermark=hw,
            last_stable_offset=lso,
            log_start_offset=start,
            aborted_transactions=aborted,
            preferred_read_replica=-1,
            records=records,
        )


async def _wait_either(first: trio.Event, second: trio.Event) -> None:
    """Return once either event is set."""
    if first.is_set() or second.is_set():
        return
    async with trio.open_nursery() as nursery:

        async def wait(event: trio.Event) -> None:
            await event.wait()
            nursery.cancel_scope.cancel()

        nursery.start_soon(wait, first)
        nursery.start_soon(wait, second)


def _error_response(req: FetchRequest, version: int, code: int) -> FetchResponse:
    """Kafka's whole-request error: top-level code; before v13 also on every partition."""
    responses = []
    if version < 13:
        for t in req.topics:
            responses.append(
                FetchableTopicResponse(
                    topic=t.topic,
                    topic_id=t.topic_id,
                    partitions=[_with_index(_unknown(code), p.partition) for p in t.partitions],
                )
            )
    return FetchResponse(throttle_time_ms=0, error_code=code, session_id=req.session_id, responses=responses)


def _with_index(pd: PartitionData, index: int) -> PartitionData:
    pd.partition_index = index
    return pd


def _fetch_data(req: FetchRequest, image: MetadataImage, by_id: bool) -> dict[SessionKey, CachedPartition]:
    """The request's partitions, keyed the way the session keys them."""
    fetch_data: dict[SessionKey, CachedPartition] = {}
    key_topic: str | uuid.UUID
    for t in req.topics:
        if by_id:
            info = image.topic_by_id(t.topic_id)
            name, topic_id, key_topic = (info.name if info is not None else None), t.topic_id, t.topic_id
        else:
            name, topic_id, key_topic = t.topic, UUID_ZERO, t.topic
        for p in t.partitions:
            # A partition named twice keeps its first place and its last parameters.
            fetch_data[(key_topic, p.partition)] = CachedPartition(
                topic=name,
                topic_id=topic_id,
                partition=p.partition,
                fetch_offset=p.fetch_offset,
                max_bytes=p.partition_max_bytes,
                current_leader_epoch=p.current_leader_epoch,
                last_fetched_epoch=p.last_fetched_epoch,
                fetcher_log_start_offset=p.log_start_offset,
            )
    return fetch_data


async def _wait_for_bytes(
    ctx: RequestContext,
    fctx: FetchContext,
    reader: _Read,
    take: Callable[[], list[_Target]],
    max_wait_ms: int,
    min_bytes: int,
) -> tuple[dict[SessionKey, PartitionData], int, bool]:
    """Wait up to ``max_wait_ms`` for ``min_bytes`` (or an urgent answer): read again each
    time a partition read (or, for an incremental session, the session) changes; the
    last read's results, bytes and urgency."""
    services = ctx.services
    incremental = fctx.kind == "incremental"
    fresh = False
    try:
        with trio.move_on_after(max_wait_ms / 1000):
            while True:
                # Registered right after a read with no await in between: no change is missed.
                changed = trio.Event()
                if incremental:
                    fctx.set_waiter(changed.set)
                    unwatch = None
                else:
                    keys = [(topic, cp.partition) for _, topic, cp in reader.targets]
                    unwatch = services.replicas.watch(keys, changed.set)
                fresh = False
                try:
                    await _wait_either(changed, services.lifecycle.stopped)
                finally:
                    if unwatch is not None:
                        unwatch()
                reader.targets = take()
                results, total, urgent = reader.all()
                fresh = True
                if total >= min_bytes or urgent or services.lifecycle.stopping:
                    break
    finally:
        fctx.set_waiter(None)
    if not fresh:  # the wait ran out: answer with what is there now
        reader.targets = take()
        results, total, urgent = reader.all()
    return results, total, urgent


def _responses(items: list[Item], image: MetadataImage, v: int) -> tuple[list[FetchableTopicResponse], set[int], int]:
    """The response's topics from the session's answer (KIP-951 leader hints added):
    the topics, the leaders hinted, and the record bytes sent."""
    responses: list[FetchableTopicResponse] = []
    hinted: set[int] = set()
    last_topic: object = object()
    sent = 0
    for key, cp, pd in items:
        pd.partition_index = cp.partition
        if pd.error_code == ErrorCode.KAFKA_STORAGE_ERROR and v <= 5:
            pd.error_code = ErrorCode.NOT_LEADER_OR_FOLLOWER  # older clients would not retry
        if v >= 16 and pd.error_code in (ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.FENCED_LEADER_EPOCH):
            # KIP-951: name the current leader.
            state = image.partition(cp.topic, cp.partition) if cp.topic is not None else None
            if state is not None:
                pd.current_leader = LeaderIdAndEpoch(leader_id=state.leader, leader_epoch=state.leader_epoch)
                if state.leader >= 0:
                    hinted.add(state.leader)
        sent += len(pd.records)
        if key[0] == last_topic:
            responses[-1].partitions.append(pd)
        else:
            responses.append(FetchableTopicResponse(topic=cp.topic or "", topic_id=cp.topic_id, partitions=[pd]))
            last_topic = key[0]
    return responses, hinted, sent


@handler(1, min_version=4, max_version=18)
async def handle(ctx: RequestContext, req: FetchRequest) -> FetchResponse:
    services = ctx.services
    v = ctx.api_version
    image = services.metadata.image
    if req.isolation_level not in (0, 1):
        return _error_response(req, v, ErrorCode.UNKNOWN_SERVER_ERROR)
    replica_id = req.replica_state.replica_id if v >= 15 else req.replica_id
    broker_epoch = req.replica_state.replica_epoch if v >= 15 else -1
    follower = replica_id >= 0
    by_id = v >= 13

    fetch_data = _fetch_data(req, image, by_id)
    forgotten = [
        ((f.topic_id if by_id else f.topic), index) for f in req.forgotten_topics_data for index in f.partitions
    ]

    def resolve(topic_id: uuid.UUID) -> str | None:
        info = services.metadata.image.topic_by_id(topic_id)
        return info.name if info is not None else None

    fctx = services.fetch_sessions.new_context(
        version=v,
        session_id=req.session_id,
        epoch=req.session_epoch,
        is_follower=follower,
        fetch_data=fetch_data,
        forgotten=forgotten,
        now_ms=services.now_ms(),
        resolve_topic=resolve,
    )

    # Partitions refused up front go after the ones read, as in Kafka.
    reading: dict[SessionKey, _Target] = {}
    refused: dict[SessionKey, PartitionData] = {}

    def take() -> list[_Target]:
        """Add what the context says to read now; the partitions to read, in order."""
        current = services.metadata.image
        for key, cp in fctx.to_read():
            if cp.topic is None:
                refused[key] = _unknown(ErrorCode.UNKNOWN_TOPIC_ID)
            elif current.partition(cp.topic, cp.partition) is None:
                refused[key] = _unknown(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
            else:
                refused.pop(key, None)
                reading[key] = (key, cp.topic, cp)
        return sorted(reading.values(), key=lambda t: t[2].order)

    fetch_max = min(req.max_bytes, services.config.settings(HandlerSettings).fetch_max_bytes)
    min_bytes = min(req.min_bytes, fetch_max)
    reader = _Read(
        services.replicas, take(), fetch_max, req.isolation_level, replica_id if follower else -1, by_id, broker_epoch
    )
    if follower:
        services.replicas.follower_request(replica_id, broker_epoch)
    results, total, urgent = reader.all() if reader.targets else ({}, 0, False)

    incremental = fctx.kind == "incremental"
    if (
        (reader.targets or incremental)
        and req.max_wait_ms > 0
        and total < min_bytes
        and not urgent
        and not services.lifecycle.stopping
    ):
        results, total, urgent = await _wait_for_bytes(ctx, fctx, reader, take, req.max_wait_ms, min_bytes)

    results.update(refused)
    error, session_id, items = fctx.respond(results, services.now_ms(), reader.idle)

    responses, hinted, sent = _responses(items, image, v)
    services.metrics.bytes_out += sent
    return FetchResponse(
        throttle_time_ms=0,
        error_code=error,
        session_id=session_id,
        responses=responses,
        node_endpoints=node_endpoints(image, hinted, ctx.connection.listener, NodeEndpoint),
    )
