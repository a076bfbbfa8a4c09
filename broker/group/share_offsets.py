"""Share-group offsets administration (KIP-932): the logic behind
DescribeShareGroupOffsets (90), AlterShareGroupOffsets (91) and
DeleteShareGroupOffsets (92), answering as Apache Kafka 4.2 does.

The group coordinator (``broker.share_groups``) knows which share-partitions a
group has initialised; the share coordinator holds
their durable state; the share-partition runtime (``broker.share``) caches
loaded share-partitions in memory. The three operations tie them together:

Describe (per group, never a group-level check: an unknown group, a consumer
group or an empty id reads as "nothing initialised")

* A null topic list means every share-partition the group has initialised; an
  empty list answers no topics.
* Each partition reports the start offset and leader epoch from the share
  state. A partition never initialised (or whose state cannot be read, such
  as one past the topic's partition count) reads start offset -1, leader epoch
  0, lag -1, with no error. An unknown topic is listed after the known ones
  with topic id zero and the same -1 rows.
* Lag (v1) is Kafka's ``high watermark - start offset - DeliveryCompleteCount``
  (it may be negative when the start offset lies past the end of the log); it
  is -1 when the start offset is -1. The DeliveryCompleteCount is the number
  of offsets at or after the start offset that are in a final state
  (acknowledged or archived), counted from the persisted state batches.
* Known topics come back as the share state answers: a topic named twice is
  one row, its partitions in order without repeats.
* A known topic listed with no partitions, or known topics with an empty group
  id, fail the whole group with UNKNOWN_SERVER_ERROR, as Kafka's persister
  rejects such a read.

Alter (the group must be Empty)

* Empty group id: INVALID_GROUP_ID. A consumer or classic group:
  GROUP_ID_NOT_FOUND ("... is not a share group."). Members present:
  NON_EMPTY_GROUP. A top-level error drops every per-topic row.
* Unknown topics answer UNKNOWN_TOPIC_OR_PARTITION on every partition (topic
  id zero) and come first; then the known topics in request order, where a
  partition past the partition count is UNKNOWN_TOPIC_OR_PARTITION. A topic
  named twice is one row; a partition named twice takes the last start offset.
* An unknown group id is created as an Empty share group when there is
  something to initialise, as Kafka does.
* Each share-partition is re-initialised with the requested start offset and
  a state epoch one above its current one (fencing any stale writer), then
  marked initialised in the group; the group's in-memory share-partitions are
  dropped so the next fetch loads the new state. A partition whose
  re-initialisation fails carries that error.

Delete (the group must be Empty)

* Empty group id: INVALID_GROUP_ID; unknown group: GROUP_ID_NOT_FOUND
  ("Group g not found."); consumer group: GROUP_ID_NOT_FOUND ("... is not a
  share group."); members present: NON_EMPTY_GROUP.
* Per topic: unknown -> UNKNOWN_TOPIC_OR_PARTITION (topic id zero); known but
  with no initialised partitions -> UNKNOWN_TOPIC_OR_PARTITION "There is no
  offset information to delete." (topic id zero); otherwise the state of every
  initialised partition is deleted and the topic leaves the group's
  initialised set. Rows: deleted topics first, then the refused ones, then
  topics whose state delete failed (with that error).
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import trio

from broker.group.coordinator import GroupCoordinator, GroupShard
from broker.group.share import records as rec
from broker.group.share.core import GroupState
from broker.metadata.image import TopicImage
from broker.metadata.source import MetadataSource
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.alter_share_group_offsets_request import AlterShareGroupOffsetsRequest
from broker.protocol.messages.alter_share_group_offsets_response import (
    AlterShareGroupOffsetsResponse,
    AlterShareGroupOffsetsResponsePartition,
    AlterShareGroupOffsetsResponseTopic,
)
from broker.protocol.messages.delete_share_group_offsets_request import DeleteShareGroupOffsetsRequest
from broker.protocol.messages.delete_share_group_offsets_response import (
    DeleteShareGroupOffsetsResponse,
    DeleteShareGroupOffsetsResponseTopic,
)
from broker.protocol.messages.describe_share_group_offsets_request import DescribeShareGroupOffsetsRequestGroup
from broker.protocol.messages.describe_share_group_offsets_response import (
    DescribeShareGroupOffsetsResponseGroup,
    DescribeShareGroupOffsetsResponsePartition,
    DescribeShareGroupOffsetsResponseTopic,
)
from broker.protocol.primitives import UUID_ZERO
from broker.replica.manager import ReplicaManager
from broker.share.manager import SharePartitionManager
from broker.share.remote import RoutedPersister
from broker.share.state_store import PartitionResult, ShareStateStore, SummaryResult
from broker.share.states import FINAL_STATES

__all__ = [
    "NO_OFFSETS_TO_DELETE",
    "alter_offsets",
    "delete_offsets",
    "delivery_complete_count",
    "describe_group",
    "share_partition_lag",
]

UNINITIALIZED_START_OFFSET = -1
UNINITIALIZED_LAG = -1
DEFAULT_LEADER_EPOCH = 0
NO_OFFSETS_TO_DELETE = "There is no offset information to delete."


class _GroupLock:
    def __init__(self, deps: ShareOffsetsDeps, group_id: str) -> None:
        self._table = deps.locks
        self._group_id = group_id
        self._lock = self._table.setdefault(group_id, trio.Lock())

    async def __aenter__(self) -> None:
        await self._lock.acquire()

    async def __aexit__(self, *exc: object) -> None:
        self._lock.release()
        if not self._lock.locked() and not self._lock.statistics().tasks_waiting:
            self._table.pop(self._group_id, None)  # nobody else holds or wants it


# ====================================================================== helpers


class TopicRow(NamedTuple):
    name: str
    topic_id: uuid.UUID
    partitions: int
    internal: bool


@dataclass(frozen=True, slots=True)
class ShareOffsetsDeps:
    """The services the three operations tie together."""

    groups: GroupCoordinator
    share_state: ShareStateStore | RoutedPersister
    share: SharePartitionManager
    metadata: MetadataSource
    replicas: ReplicaManager
    # Alter and delete of one group run one at a time (per broker).
    locks: dict[str, trio.Lock] = field(default_factory=dict)
    # In a cluster: the high watermark of a partition led by another broker (None: unknown).
    remote_high_watermark: Callable[[str, int], Awaitable[int | None]] | None = None


class ShareOffsetsEnv:
    """One group's view of the services: its shard's share-group core, topics, state."""

    def __init__(self, deps: ShareOffsetsDeps, group_id: str, shard: GroupShard) -> None:
        self.deps = deps
        self.group_id = group_id
        self.coordinator = shard.share
        self._classic = shard.classic
        self.share_state = deps.share_state

    @classmethod
    async def for_group(cls, deps: ShareOffsetsDeps, group_id: str) -> ShareOffsetsEnv:
        """Raises KafkaError (NOT_COORDINATOR, ...) when the group is not hosted here."""
        _, shard = await deps.groups.shard_for(group_id)
        return cls(deps, group_id, shard)

    def topic(self, name: str) -> TopicRow | None:
        return _row(self.deps.metadata.image.topic(name))

    def topic_by_id(self, topic_id: uuid.UUID) -> TopicRow | None:
        return _row(self.deps.metadata.image.topic_by_id(topic_id))

    def partition(self, topic: str, index: int) -> Any:
        return self.deps.replicas.partition(topic, index)

    def classic_type(self, group_id: str) -> str | None:
        return self._classic.group_type(group_id)

    async def write(self, group_id: str, records: Sequence[Any]) -> int:
        return await self.deps.groups.write(group_id, records)

    def forget_group(self, group_id: str) -> None:
        self.deps.share.forget_group(group_id)


def _row(t: TopicImage | None) -> TopicRow | None:
    return None if t is None else TopicRow(t.name, t.topic_id, len(t.partitions), t.internal)


def _topic(env: ShareOffsetsEnv, name: str) -> TopicRow | None:
    """The topic a client may name here (internal topics hold no share groups)."""
    info = env.topic(name)
    return None if info is None or info.internal else info


def _not_share_group(env: ShareOffsetsEnv, group_id: str) -> bool:
    """The id belongs to a consumer or classic group."""
    if env.classic_type(group_id) is not None:
        return True
    return env.coordinator.group_type(group_id) not in (None, "share")


def delivery_complete_count(state: Any, start_offset: int) -> int:
    """Offsets at or after ``start_offset`` in a final state (acknowledged or archived)."""
    count = 0
    for b in state.state_batches:
        if b.delivery_state in FINAL_STATES and b.last_offset >= start_offset:
            count += b.last_offset - max(b.first_offset, start_offset) + 1
    return count


def share_partition_lag(end_offset: int, start_offset: int, complete_count: int) -> int:
    """Kafka's lag: records from the start offset to the end not yet delivered to completion."""
    if start_offset == UNINITIALIZED_START_OFFSET or complete_count < 0:
        return UNINITIALIZED_LAG
    return end_offset - start_offset - complete_count


async def _gather(calls: Sequence[Any]) -> list[Any]:
    """Await every zero-argument coroutine function at once (their fsyncs share rounds)."""
    out: list[Any] = [None] * len(calls)

    async def one(i: int) -> None:
        out[i] = await calls[i]()

    async with trio.open_nursery() as nursery:
        for i in range(len(calls)):
            nursery.start_soon(one, i)
    return out


# ====================================================================== describe


async def _describe_partition(
    env: ShareOffsetsEnv, group_id: str, info: TopicRow, partition: int
) -> DescribeShareGroupOffsetsResponsePartition:
    summary = await env.share_state.read_summary(group_id, info.topic_id, partition)
    if not summary.ok:
        # Kafka treats a failed read as absence of data, not as an error.
        return DescribeShareGroupOffsetsResponsePartition(
            partition_index=partition,
            start_offset=UNINITIALIZED_START_OFFSET,
            leader_epoch=DEFAULT_LEADER_EPOCH,
            lag=UNINITIALIZED_LAG,
        )
    start = summary.start_offset
    row = DescribeShareGroupOffsetsResponsePartition(
        partition_index=partition, start_offset=start, leader_epoch=summary.leader_epoch, lag=UNINITIALIZED_LAG
    )
    if start == UNINITIALIZED_START_OFFSET:
        return row
    state = env.share_state.state(group_id, info.topic_id, partition)
    complete = summary.delivery_complete_count if state is None else delivery_complete_count(state, start)
    if complete < 0:
        return row
    plog = env.partition(info.name, partition)
    if plog is None and env.deps.remote_high_watermark is not None:
        # In a cluster the partition may be led by another broker: ask it.
        hw = await env.deps.remote_high_watermark(info.name, partition)
        if hw is not None:
            row.lag = share_partition_lag(hw, start, complete)
            return row
    if plog is None:
        code = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        return DescribeShareGroupOffsetsResponsePartition(
            partition_index=partition, error_code=int(code), error_message=code.message
        )
    row.lag = share_partition_lag(plog.high_watermark, start, complete)
    return row


async def _describe_topics(
    env: ShareOffsetsEnv, group_id: str, topics: Sequence[tuple[TopicRow, Sequence[int]]]
) -> list[DescribeShareGroupOffsetsResponseTopic]:
    calls = [
        (lambda info=info, p=p: _describe_partition(env, group_id, info, p))
        for info, partitions in topics
        for p in partitions
    ]
    rows = iter(await _gather(calls))
    return [
        DescribeShareGroupOffsetsResponseTopic(
            topic_name=info.name, topic_id=info.topic_id, partitions=[next(rows) for _ in partitions]
        )
        for info, partitions in topics
    ]


async def describe_group(
    env: ShareOffsetsEnv, group: DescribeShareGroupOffsetsRequestGroup
) -> DescribeShareGroupOffsetsResponseGroup:
    """One group of a DescribeShareGroupOffsets request."""
    group_id = group.group_id
    if group.topics is None:
        initialized: list[tuple[TopicRow, Sequence[int]]] = []
        for topic_id, partitions in env.coordinator.initialized_partitions(group_id).items():
            info = env.topic_by_id(topic_id)
            if info is not None and partitions:
                initialized.append((info, sorted(partitions)))
        return DescribeShareGroupOffsetsResponseGroup(
            group_id=group_id, topics=await _describe_topics(env, group_id, initialized)
        )
    # Known topics are read from the share state: one row per topic (named twice:
    # merged), partitions in order without repeats, as Kafka's persister answers.
    known: dict[uuid.UUID, tuple[TopicRow, set[int]]] = {}
    unknown = []
    empty = False
    for t in group.topics:
        info = _topic(env, t.topic_name)
        if info is None:
            unknown.append(
                DescribeShareGroupOffsetsResponseTopic(
                    topic_name=t.topic_name,
                    topic_id=UUID_ZERO,
                    partitions=[
                        DescribeShareGroupOffsetsResponsePartition(
                            partition_index=p,
                            start_offset=UNINITIALIZED_START_OFFSET,
                            leader_epoch=DEFAULT_LEADER_EPOCH,
                            lag=UNINITIALIZED_LAG,
                        )
                        for p in t.partitions
                    ],
                )
            )
        else:
            known.setdefault(info.topic_id, (info, set()))[1].update(t.partitions)
            empty = empty or not t.partitions
    if known and (empty or not group_id):
        # Kafka's persister refuses to read for an empty group id or a topic without partitions.
        code = ErrorCode.UNKNOWN_SERVER_ERROR
        return DescribeShareGroupOffsetsResponseGroup(
            group_id=group_id, topics=[], error_code=int(code), error_message=code.message
        )
    topics = await _describe_topics(env, group_id, [(info, sorted(ps)) for info, ps in known.values()])
    return DescribeShareGroupOffsetsResponseGroup(group_id=group_id, topics=topics + unknown)


# ====================================================================== alter


def _alter_error(code: ErrorCode, message: str | None = None) -> AlterShareGroupOffsetsResponse:
    return AlterShareGroupOffsetsResponse(error_code=int(code), error_message=message or code.message, responses=[])


def _ensure_share_group(env: ShareOffsetsEnv, group_id: str) -> list[Any]:
    """Create ``group_id`` as an Empty share group (epoch 0) unless it exists; return its records."""
    coordinator = env.coordinator
    if coordinator.group_type(group_id) == "share":
        return []
    record = rec.encode(rec.group_metadata(group_id, 0, 0))
    coordinator.replay(record.key, record.value)
    return [record]


async def alter_offsets(env: ShareOffsetsEnv, req: AlterShareGroupOffsetsRequest) -> AlterShareGroupOffsetsResponse:
    group_id = req.group_id
    if not group_id:
        return _alter_error(ErrorCode.INVALID_GROUP_ID)
    async with _GroupLock(env.deps, group_id):
        return await _alter_locked(env, group_id, req.topics)


async def _alter_locked(env: ShareOffsetsEnv, group_id: str, topics: Sequence[Any]) -> AlterShareGroupOffsetsResponse:
    coordinator = env.coordinator
    if _not_share_group(env, group_id):
        return _alter_error(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a share group.")
    if coordinator.group_state(group_id) is GroupState.STABLE:
        return _alter_error(ErrorCode.NON_EMPTY_GROUP)

    unknown_code = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    # One row per topic name (a topic named twice is merged), unknown topics first.
    unknown_rows: dict[str, AlterShareGroupOffsetsResponseTopic] = {}
    known_rows: dict[str, AlterShareGroupOffsetsResponseTopic] = {}
    # topic id -> (topic, partition -> start offset)
    targets: dict[uuid.UUID, tuple[TopicRow, dict[int, int]]] = {}
    for t in topics:
        info = _topic(env, t.topic_name)
        if info is None:
            row = unknown_rows.setdefault(
                t.topic_name, AlterShareGroupOffsetsResponseTopic(topic_name=t.topic_name, topic_id=UUID_ZERO)
            )
            row.partitions += [
                AlterShareGroupOffsetsResponsePartition(
                    partition_index=p.partition_index,
                    error_code=int(unknown_code),
                    error_message=unknown_code.message,
                )
                for p in t.partitions
            ]
            continue
        wanted = targets.setdefault(info.topic_id, (info, {}))[1]
        rows = known_rows.setdefault(
            info.name, AlterShareGroupOffsetsResponseTopic(topic_name=info.name, topic_id=info.topic_id)
        ).partitions
        for p in t.partitions:
            if 0 <= p.partition_index < info.partitions:
                wanted[p.partition_index] = p.start_offset
                rows.append(AlterShareGroupOffsetsResponsePartition(partition_index=p.partition_index))
            else:
                rows.append(
                    AlterShareGroupOffsetsResponsePartition(
                        partition_index=p.partition_index,
                        error_code=int(unknown_code),
                        error_message=unknown_code.message,
                    )
                )

    work = [(info, p, offset) for info, wanted in targets.values() for p, offset in wanted.items()]
    if work:
        records = _ensure_share_group(env, group_id)
        results = await _gather(
            [
                (lambda info=info, p=p, offset=offset: _reinitialize(env, group_id, info, p, offset))
                for info, p, offset in work
            ]
        )
        failed: dict[tuple[uuid.UUID, int], Any] = {}
        done: dict[uuid.UUID, list[int]] = {}
        for (info, p, _), result in zip(work, results):
            if result.ok:
                done.setdefault(info.topic_id, []).append(p)
            else:
                failed[info.topic_id, p] = result
        for topic_id, partitions in done.items():
            records += coordinator.mark_initialized(group_id, topic_id, partitions)
        code = await env.write(group_id, records)
        env.forget_group(group_id)
        if code:
            return _alter_error(ErrorCode(code))
        for row in known_rows.values():
            for part in row.partitions:
                result = failed.get((row.topic_id, part.partition_index))
                if result is not None and part.error_code == ErrorCode.NONE:
                    part.error_code = int(result.error_code)
                    part.error_message = result.error_message
    return AlterShareGroupOffsetsResponse(responses=[*unknown_rows.values(), *known_rows.values()])


async def _reinitialize(
    env: ShareOffsetsEnv, group_id: str, info: TopicRow, partition: int, start_offset: int
) -> PartitionResult | SummaryResult:
    """Write a fresh state for the share-partition: ``start_offset``, the next state epoch."""
    store = env.share_state
    summary = await store.read_summary(group_id, info.topic_id, partition)
    if not summary.ok:
        return summary
    return await store.initialize(
        group_id, info.topic_id, partition, state_epoch=summary.state_epoch + 1, start_offset=start_offset
    )


# ====================================================================== delete


def _delete_error(code: ErrorCode, message: str | None = None) -> DeleteShareGroupOffsetsResponse:
    return DeleteShareGroupOffsetsResponse(error_code=int(code), error_message=message or code.message, responses=[])


async def delete_offsets(env: ShareOffsetsEnv, req: DeleteShareGroupOffsetsRequest) -> DeleteShareGroupOffsetsResponse:
    group_id = req.group_id
    if not group_id:
        return _delete_error(ErrorCode.INVALID_GROUP_ID)
    async with _GroupLock(env.deps, group_id):
        return await _delete_locked(env, group_id, [t.topic_name for t in req.topics])


async def _delete_locked(env: ShareOffsetsEnv, group_id: str, names: Iterable[str]) -> DeleteShareGroupOffsetsResponse:
    coordinator = env.coordinator
    if _not_share_group(env, group_id):
        return _delete_error(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a share group.")
    if coordinator.group_type(group_id) != "share":
        return _delete_error(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} not found.")
    if coordinator.group_state(group_id) is GroupState.STABLE:
        return _delete_error(ErrorCode.NON_EMPTY_GROUP)

    initialized = coordinator.initialized_partitions(group_id)
    unknown_code = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    refused: list[DeleteShareGroupOffsetsResponseTopic] = []
    chosen: dict[uuid.UUID, tuple[TopicRow, list[int]]] = {}
    for name in names:
        info = _topic(env, name)
        if info is None:
            refused.append(
                DeleteShareGroupOffsetsResponseTopic(
                    topic_name=name,
                    topic_id=UUID_ZERO,
                    error_code=int(unknown_code),
                    error_message=unknown_code.message,
                )
            )
        elif info.topic_id in chosen:
            continue  # named twice: deleted once
        elif initialized.get(info.topic_id):
            chosen[info.topic_id] = (info, sorted(initialized[info.topic_id]))
        else:
            refused.append(
                DeleteShareGroupOffsetsResponseTopic(
                    topic_name=name,
                    topic_id=UUID_ZERO,
                    error_code=int(unknown_code),
                    error_message=NO_OFFSETS_TO_DELETE,
                )
            )
    if not chosen:
        return DeleteShareGroupOffsetsResponse(responses=refused)

    work = [(info, p) for info, partitions in chosen.values() for p in partitions]
    results = await _gather(
        [(lambda info=info, p=p: env.share_state.delete(group_id, info.topic_id, p)) for info, p in work]
    )
    errors: dict[uuid.UUID, Any] = {}
    for (info, _), result in zip(work, results):
        if not result.ok:
            errors.setdefault(info.topic_id, result)
    deleted = [info for topic_id, (info, _) in chosen.items() if topic_id not in errors]
    failed = [
        DeleteShareGroupOffsetsResponseTopic(
            topic_name=chosen[topic_id][0].name,
            topic_id=topic_id,
            error_code=int(result.error_code),
            error_message=ErrorCode.for_code(result.error_code).message,
        )
        for topic_id, result in errors.items()
    ]
    records = coordinator.forget_initialized(group_id, [info.topic_id for info in deleted])
    code = await env.write(group_id, records)
    env.forget_group(group_id)
    if code:
        return _delete_error(ErrorCode(code))
    ok = [DeleteShareGroupOffsetsResponseTopic(topic_name=info.name, topic_id=info.topic_id) for info in deleted]
    return DeleteShareGroupOffsetsResponse(responses=ok + refused + failed)
