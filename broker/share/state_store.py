"""Share-partition state on disk: the ``__share_group_state`` topic (KIP-932 persistence).

:class:`ShareStateStore` is the share coordinator of this broker. It owns one
:class:`~broker.share.coordinator.ShareCoordinatorShard` per partition of
``__share_group_state`` and is the :class:`Persister` the share-partition
leader calls in-process. Its five operations mirror the broker-internal RPCs
83-87 (InitializeShareGroupState, ReadShareGroupState, WriteShareGroupState,
DeleteShareGroupState, ReadShareGroupStateSummary) key by key, so a remote
persister for a multi-broker cluster can send the same operations over the
wire; the handlers of those RPCs call this store.

Every operation that changes state appends its records as one batch, applies
them to memory, and answers only after a group-commit fsync has covered them
(:meth:`GroupCommitter.wait_durable`). Operations on one share-partition run
one at a time (a lock per key), so an operation never builds on state that
may still be rolled back; different keys share fsync rounds.

Failure: if the append, the fsync or the wait (``WRITE_TIMEOUT_MS``) fails,
the keys' in-memory state is rolled back and the error is answered, mapped as
Kafka's coordinator runtime maps it (KAFKA_STORAGE_ERROR and
NOT_LEADER_OR_FOLLOWER -> NOT_COORDINATOR; REQUEST_TIMED_OUT ->
COORDINATOR_NOT_AVAILABLE). The failed records are still in the log (a log
cannot be truncated) and may become durable later, so the store at once
appends a snapshot of the rolled-back state after them; a replay then ends
where memory is. Until that snapshot is known durable, the key's next
operation first writes it again, durably.

Loading: the first operation (or :meth:`ShareStateStore.load`, which the
broker may call at start-up) replays every partition of the topic from its
log start offset. The topic is created on first write with
``share.coordinator.state.topic.num.partitions`` partitions; an existing topic
keeps its partition count.

Pruning: after a snapshot is durable, the partition's log start offset moves
up to the oldest durable snapshot any live key still needs
(``delete_records``). A key whose snapshot lags more than the prune window
behind the log end (a share-partition nobody writes to) first gets a fresh
snapshot of its state, so one idle key cannot pin the whole partition; Kafka
does the same for "cold" share-partitions on a timer.
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import structlog
import trio

from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.records import build_batch, iter_batches, iter_records
from broker.share.coordinator import (
    DEFAULT_SNAPSHOT_EVERY,
    ShareCoordinatorShard,
    ShareKey,
    ShareState,
    StateBatch,
    StateRecord,
    decode_record,
    encode_record,
    partition_for,
)

__all__ = [
    "TOPIC",
    "PartitionResult",
    "Persister",
    "ReadResult",
    "ShareStateStore",
    "SummaryResult",
    "gather_partitions",
    "is_empty_request",
    "persister_for",
]

log = structlog.get_logger("sharebroker.share")

TOPIC = "__share_group_state"
# Kafka's defaults for the topic: 50 partitions; segments of 100 MiB
# (share.coordinator.state.topic.segment.bytes), small enough that pruning
# frees disk space soon after the log start offset moves.
DEFAULT_NUM_PARTITIONS = 50
DEFAULT_SEGMENT_BYTES = 100 * 1024 * 1024
# Kafka's share.coordinator.write.timeout.ms: a write not durable by then is
# answered COORDINATOR_NOT_AVAILABLE (and rolled back), so a stuck disk cannot
# hold the share-partition leader forever.
WRITE_TIMEOUT_MS = 5000
# A key whose latest durable snapshot lies more than this many records behind the
# log end gets a fresh snapshot when the partition is pruned. The window grows with
# twice the snapshot cadence (a busy key snapshots on its own by then) plus two
# records per key (so rewriting idle keys costs at most one record in two).
PRUNE_WINDOW_MIN = 1000
# Bytes read per step when replaying a partition at load.
_LOAD_READ_BYTES = 1 << 20


# ====================================================================== results


@dataclass(frozen=True, slots=True)
class PartitionResult:
    """Outcome of initialize, write and delete for one share-partition."""

    error_code: int = ErrorCode.NONE
    error_message: str | None = None

    @property
    def ok(self) -> bool:
        return self.error_code == ErrorCode.NONE


@dataclass(frozen=True, slots=True)
class ReadResult:
    """Outcome of read: the state when ``error_code`` is 0 (the wire defaults otherwise)."""

    error_code: int = ErrorCode.NONE
    error_message: str | None = None
    state_epoch: int = 0
    start_offset: int = 0
    delivery_complete_count: int = -1
    state_batches: tuple[StateBatch, ...] = ()

    @property
    def ok(self) -> bool:
        return self.error_code == ErrorCode.NONE


@dataclass(frozen=True, slots=True)
class SummaryResult:
    """Outcome of read_summary; a share-partition never initialised reads start offset -1."""

    error_code: int = ErrorCode.NONE
    error_message: str | None = None
    state_epoch: int = 0
    leader_epoch: int = 0
    start_offset: int = 0
    delivery_complete_count: int = -1

    @property
    def ok(self) -> bool:
        return self.error_code == ErrorCode.NONE


class Persister(Protocol):
    """What a share-partition leader needs of the share coordinator (RPCs 83-87, per key).

    Errors come back in the results (per-partition error codes, as on the wire),
    never as exceptions. ``state_batches`` items need ``first_offset``,
    ``last_offset``, ``delivery_state`` and ``delivery_count``.
    """

    async def initialize(
        self, group_id: str, topic_id: uuid.UUID, partition: int, *, state_epoch: int, start_offset: int
    ) -> PartitionResult: ...

    async def read(self, group_id: str, topic_id: uuid.UUID, partition: int, *, leader_epoch: int) -> ReadResult: ...

    async def write(
        self,
        group_id: str,
        topic_id: uuid.UUID,
        partition: int,
        *,
        state_epoch: int,
        leader_epoch: int,
        start_offset: int,
        state_batches: Sequence[Any] = (),
        delivery_complete_count: int = -1,
    ) -> PartitionResult: ...

    async def delete(self, group_id: str, topic_id: uuid.UUID, partition: int) -> PartitionResult: ...

    async def read_summary(
        self, group_id: str, topic_id: uuid.UUID, partition: int, *, leader_epoch: int = -1
    ) -> SummaryResult: ...


# ====================================================================== helpers


def _coordinator_error(exc: KafkaError) -> tuple[int, str]:
    """Kafka's CoordinatorOperationExceptionHelper mapping of a failed append/commit."""
    code = exc.code
    if code in (ErrorCode.KAFKA_STORAGE_ERROR, ErrorCode.NOT_LEADER_OR_FOLLOWER):
        mapped = ErrorCode.NOT_COORDINATOR
    elif code in (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.NOT_ENOUGH_REPLICAS, ErrorCode.REQUEST_TIMED_OUT):
        mapped = ErrorCode.COORDINATOR_NOT_AVAILABLE
    elif code in (ErrorCode.MESSAGE_TOO_LARGE, ErrorCode.RECORD_LIST_TOO_LARGE):
        mapped = ErrorCode.UNKNOWN_SERVER_ERROR
    else:
        mapped = ErrorCode.for_code(code)
    return int(mapped), f"Unable to write share group state: {exc.detail}"


def _setting(config: Any, key: str, default: Any) -> Any:
    try:
        value = config.get(key)
    except (KeyError, AttributeError):
        return default
    return default if value is None else value


class _KeyLocks:
    """One trio.Lock per share-partition key, dropped again when nobody holds or waits."""

    def __init__(self) -> None:
        self._locks: dict[ShareKey, trio.Lock] = {}

    def get(self, key: ShareKey) -> trio.Lock:
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = trio.Lock()
        return lock

    def tidy(self, key: ShareKey, lock: trio.Lock) -> None:
        if not lock.locked() and lock.statistics().tasks_waiting == 0 and self._locks.get(key) is lock:
            del self._locks[key]

    @asynccontextmanager
    async def hold(self, key: ShareKey) -> Any:
        lock = self.get(key)
        try:
            async with lock:
                yield
        finally:
            self.tidy(key, lock)

    def __len__(self) -> int:
        return len(self._locks)


# ====================================================================== the store


class ShareStateStore:
    """The share coordinator's log-backed state (a :class:`Persister`)."""

    def __init__(
        self,
        logs: Any,
        committer: Any,
        *,
        num_partitions: int = DEFAULT_NUM_PARTITIONS,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
        segment_bytes: int = DEFAULT_SEGMENT_BYTES,
        write_timeout_ms: int = WRITE_TIMEOUT_MS,
        now_ms: Callable[[], int] | None = None,
        check_topics: bool = True,
    ) -> None:
        self._logs = logs
        self._committer = committer
        self._num_partitions = num_partitions
        self._snapshot_every = snapshot_every
        self._segment_bytes = segment_bytes
        self._write_timeout_s = write_timeout_ms / 1000
        self._now_ms = now_ms if now_ms is not None else logs.now_ms
        self._check_topics = check_topics
        self._shards: list[ShareCoordinatorShard] = []
        # Per partition: key -> offset of its latest snapshot known to be durable.
        self._durable: list[dict[ShareKey, int]] = []
        # Per partition: keys whose log may hold rolled-back records, with the
        # offset of the override snapshot appended after them (None: not appended).
        self._unsafe: list[dict[ShareKey, int | None]] = []
        self._locks = _KeyLocks()
        self._load_lock = trio.Lock()
        self._loaded = False

    @classmethod
    def from_broker(cls, broker: Any) -> ShareStateStore:
        config = broker.config
        return cls(
            broker.logs,
            broker.committer,
            num_partitions=int(
                _setting(config, "share.coordinator.state.topic.num.partitions", DEFAULT_NUM_PARTITIONS)
            ),
            snapshot_every=int(
                _setting(config, "share.coordinator.snapshot.update.records.per.snapshot", DEFAULT_SNAPSHOT_EVERY)
            ),
            segment_bytes=int(_setting(config, "share.coordinator.state.topic.segment.bytes", DEFAULT_SEGMENT_BYTES)),
            write_timeout_ms=int(_setting(config, "share.coordinator.write.timeout.ms", WRITE_TIMEOUT_MS)),
            now_ms=broker.now_ms,
        )

    # ------------------------------------------------------------------ inspection

    @property
    def num_partitions(self) -> int:
        return self._num_partitions

    def partition_for(self, group_id: str, topic_id: uuid.UUID, partition: int) -> int:
        """The ``__share_group_state`` partition holding this share-partition's state."""
        return partition_for(ShareKey(group_id, topic_id, partition), self._num_partitions)

    def state(self, group_id: str, topic_id: uuid.UUID, partition: int) -> ShareState | None:
        """The in-memory state of a share-partition (after :meth:`load`)."""
        key = ShareKey(group_id, topic_id, partition)
        if not self._shards:
            return None
        return self._shards[partition_for(key, self._num_partitions)].get(key)

    def states(self) -> Iterator[tuple[ShareKey, ShareState]]:
        for shard in self._shards:
            yield from shard.states.items()

    # ------------------------------------------------------------------ loading

    async def load(self) -> None:
        """Replay ``__share_group_state`` into memory (once; later calls return at once).

        Raises KafkaError(COORDINATOR_LOAD_IN_PROGRESS) if the topic cannot be
        read; the next call tries again.
        """
        if self._loaded:
            return
        async with self._load_lock:
            if self._loaded:
                return
            try:
                shards, records = await trio.to_thread.run_sync(self._load_sync)
            except (KafkaError, OSError) as exc:
                log.error("share_state_load_failed", error=str(exc))
                raise KafkaError(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, f"cannot load {TOPIC}: {exc}") from exc
            self._shards = shards
            self._durable = [{k: st.snapshot_offset for k, st in shard.states.items()} for shard in shards]
            self._unsafe = [{} for _ in shards]
            self._loaded = True
            log.info(
                "share_state_loaded",
                partitions=len(shards),
                share_partitions=sum(len(s) for s in shards),
                records=records,
            )

    def _new_shard(self) -> ShareCoordinatorShard:
        known = self._known_partition if self._check_topics else None
        return ShareCoordinatorShard(snapshot_every=self._snapshot_every, known_partition=known)

    def _load_sync(self) -> tuple[list[ShareCoordinatorShard], int]:
        info = self._logs.topics.get(TOPIC)
        if info is not None:
            self._num_partitions = info.partitions
        shards = [self._new_shard() for _ in range(self._num_partitions)]
        count = 0
        if info is None:
            return shards, count
        for pid, shard in enumerate(shards):
            part_log = self._logs.partition(TOPIC, pid)
            if part_log is None:
                continue
            count += _replay_log(part_log, shard)
        return shards, count

    def _known_partition(self, topic_id: uuid.UUID, partition: int) -> bool:
        info = self._logs.topic_by_id(topic_id)
        return info is not None and 0 <= partition < info.partitions

    def _state_log(self, pid: int) -> Any:
        part_log = self._logs.partition(TOPIC, pid)
        if part_log is not None:
            return part_log
        if TOPIC not in self._logs.topics:
            configs = {
                "cleanup.policy": "delete",
                # Pruning decides what goes: time- or size-based retention would delete
                # the only snapshot of a share-partition nobody has written to lately.
                "retention.ms": "-1",
                "retention.bytes": "-1",
                "segment.bytes": str(self._segment_bytes),
            }
            try:
                self._logs.create_topic(TOPIC, self._num_partitions, configs, internal=True)
            except KafkaError as exc:
                raise KafkaError(ErrorCode.COORDINATOR_NOT_AVAILABLE, f"cannot create {TOPIC}: {exc}") from exc
            log.info("share_state_topic_created", partitions=self._num_partitions)
        part_log = self._logs.partition(TOPIC, pid)
        if part_log is None:
            raise KafkaError(ErrorCode.COORDINATOR_NOT_AVAILABLE, f"{TOPIC}-{pid} is not available")
        return part_log

    # ------------------------------------------------------------------ Persister

    async def initialize(
        self, group_id: str, topic_id: uuid.UUID, partition: int, *, state_epoch: int, start_offset: int
    ) -> PartitionResult:
        key = ShareKey(group_id, topic_id, partition)
        try:
            await self._operate(
                key, lambda shard, now: (None, shard.initialize(key, state_epoch, start_offset, now_ms=now))
            )
        except KafkaError as exc:
            return PartitionResult(exc.code, exc.detail)
        return PartitionResult()

    async def read(self, group_id: str, topic_id: uuid.UUID, partition: int, *, leader_epoch: int) -> ReadResult:
        key = ShareKey(group_id, topic_id, partition)
        try:
            state = await self._operate(key, lambda shard, now: shard.read(key, leader_epoch, now_ms=now))
        except KafkaError as exc:
            return ReadResult(exc.code, exc.detail)
        return ReadResult(
            state_epoch=state.state_epoch,
            start_offset=state.start_offset,
            delivery_complete_count=state.delivery_complete_count,
            state_batches=state.state_batches,
        )

    async def write(
        self,
        group_id: str,
        topic_id: uuid.UUID,
        partition: int,
        *,
        state_epoch: int,
        leader_epoch: int,
        start_offset: int,
        state_batches: Sequence[Any] = (),
        delivery_complete_count: int = -1,
    ) -> PartitionResult:
        key = ShareKey(group_id, topic_id, partition)

        def op(shard: ShareCoordinatorShard, now: int) -> tuple[None, list[StateRecord]]:
            records = shard.write(
                key,
                state_epoch=state_epoch,
                leader_epoch=leader_epoch,
                start_offset=start_offset,
                state_batches=state_batches,
                delivery_complete_count=delivery_complete_count,
                now_ms=now,
            )
            return None, records

        try:
            await self._operate(key, op)
        except KafkaError as exc:
            return PartitionResult(exc.code, exc.detail)
        return PartitionResult()

    async def delete(self, group_id: str, topic_id: uuid.UUID, partition: int) -> PartitionResult:
        key = ShareKey(group_id, topic_id, partition)
        try:
            await self._operate(key, lambda shard, now: (None, shard.delete(key)))
        except KafkaError as exc:
            return PartitionResult(exc.code, exc.detail)
        return PartitionResult()

    async def read_summary(
        self, group_id: str, topic_id: uuid.UUID, partition: int, *, leader_epoch: int = -1
    ) -> SummaryResult:
        """The leader epoch is accepted for symmetry with the RPC; like Kafka, it fences nothing."""
        key = ShareKey(group_id, topic_id, partition)
        try:
            summary = await self._operate(key, lambda shard, now: (shard.read_summary(key), []))
        except KafkaError as exc:
            return SummaryResult(exc.code, exc.detail)
        return SummaryResult(
            state_epoch=summary.state_epoch,
            leader_epoch=summary.leader_epoch,
            start_offset=summary.start_offset,
            delivery_complete_count=summary.delivery_complete_count,
        )

    # ------------------------------------------------------------------ the write path

    async def _operate(
        self, key: ShareKey, op: Callable[[ShareCoordinatorShard, int], tuple[Any, list[StateRecord]]]
    ) -> Any:
        """Run ``op`` on the key's shard under the key's lock; commit its records durably."""
        await self.load()
        pid = partition_for(key, self._num_partitions)
        shard = self._shards[pid]
        async with self._locks.hold(key):
            await self._make_safe(pid, key)
            result, records = op(shard, self._now_ms())
            if records:
                await self._commit(pid, records)
            return result

    async def _make_safe(self, pid: int, key: ShareKey) -> None:
        """Before building on ``key``'s state, make sure no rolled-back record can outlive it."""
        unsafe = self._unsafe[pid]
        if key not in unsafe:
            return
        fix_offset = unsafe[key]
        part_log = self._logs.partition(TOPIC, pid)
        if fix_offset is not None and part_log is not None and part_log.recovery_point > fix_offset:
            del unsafe[key]  # the override snapshot is durable already
            return
        await self._commit(pid, [self._shards[pid].snapshot_record(key, now_ms=self._now_ms())], prune=False)
        unsafe.pop(key, None)

    async def _commit(self, pid: int, records: list[StateRecord], *, prune: bool = True) -> None:
        """Append ``records`` as one batch, apply them, and wait until they are durable.

        On failure the keys' state is rolled back and KafkaError raised.
        """
        shard = self._shards[pid]
        part_log = self._state_log(pid)
        saved = {r.key: shard.get(r.key) for r in records}
        try:
            info = part_log.append(self._batch(records))
        except KafkaError as exc:
            code, message = _coordinator_error(exc)
            log.error("share_state_append_failed", partition=pid, error=str(exc))
            raise KafkaError(code, message) from exc
        for i, record in enumerate(records):
            shard.replay(record, info.base_offset + i)
        failure: KafkaError | None = None
        with trio.move_on_after(self._write_timeout_s) as scope:
            try:
                await self._committer.wait_durable(part_log)
            except KafkaError as exc:
                failure = exc
        if scope.cancelled_caught:
            failure = KafkaError(
                ErrorCode.REQUEST_TIMED_OUT, f"not durable within {self._write_timeout_s * 1000:.0f} ms"
            )
        if failure is not None:
            for key, state in saved.items():
                shard.restore(key, state)
            self._override(pid, part_log, list(saved))
            code, message = _coordinator_error(failure)
            log.error("share_state_write_failed", partition=pid, error=str(failure), keys=len(saved))
            raise KafkaError(code, message) from failure
        durable = self._durable[pid]
        wrote_snapshot = False
        for i, record in enumerate(records):
            if record.is_tombstone:
                durable.pop(record.key, None)
            elif record.is_snapshot:
                durable[record.key] = info.base_offset + i
                wrote_snapshot = True
        if wrote_snapshot and prune:
            await self._prune(pid, part_log)

    def _override(self, pid: int, part_log: Any, keys: list[ShareKey]) -> None:
        """After a rollback: append (without waiting) a snapshot of each key's restored
        state, so a replay that includes the failed records still ends at memory."""
        shard = self._shards[pid]
        unsafe = self._unsafe[pid]
        fixes = [shard.snapshot_record(key, now_ms=self._now_ms()) for key in keys]
        try:
            info = part_log.append(self._batch(fixes))
        except KafkaError as exc:
            log.warning("share_state_override_deferred", partition=pid, error=str(exc))
            for key in keys:
                unsafe[key] = None
            return
        for i, record in enumerate(fixes):
            shard.replay(record, info.base_offset + i)
            unsafe[record.key] = info.base_offset + i

    def _batch(self, records: Iterable[StateRecord]) -> bytes:
        now = self._now_ms()
        return build_batch([(*encode_record(r), (), now) for r in records], base_timestamp=now)

    # ------------------------------------------------------------------ pruning

    def prune_window(self, pid: int) -> int:
        return max(PRUNE_WINDOW_MIN, 2 * self._snapshot_every) + 2 * len(self._shards[pid])

    async def _prune(self, pid: int, part_log: Any) -> None:
        """Re-snapshot keys far behind the log end, then move the log start offset up
        to the oldest durable snapshot still needed."""
        shard = self._shards[pid]
        durable = self._durable[pid]
        threshold = part_log.log_end_offset - self.prune_window(pid)
        grabbed: list[tuple[ShareKey, trio.Lock]] = []
        for key, offset in list(durable.items()):
            if offset >= threshold or key in self._unsafe[pid]:
                continue
            lock = self._locks.get(key)
            if lock.locked():
                continue  # an operation on it is under way and will write soon enough
            lock.acquire_nowait()
            grabbed.append((key, lock))
        try:
            if grabbed:
                now = self._now_ms()
                try:
                    await self._commit(pid, [shard.snapshot_record(k, now_ms=now) for k, _ in grabbed], prune=False)
                except KafkaError:
                    return  # try again after the next snapshot
        finally:
            for key, lock in grabbed:
                lock.release()
                self._locks.tidy(key, lock)
        floor = min(min(durable.values(), default=math.inf), part_log.recovery_point)
        if floor <= part_log.log_start_offset:
            return
        try:
            part_log.delete_records(int(floor))
        except KafkaError as exc:
            log.warning("share_state_prune_failed", partition=pid, error=str(exc))
            return
        log.debug("share_state_pruned", partition=pid, log_start_offset=int(floor))


def _replay_log(part_log: Any, shard: ShareCoordinatorShard) -> int:
    """Feed every record of ``part_log`` from its log start offset to ``shard``."""
    count = 0
    position = part_log.log_start_offset
    end = part_log.log_end_offset
    while position < end:
        result = part_log.read(position, _LOAD_READ_BYTES)
        if not result.records:
            break
        for header, view in iter_batches(result.records):
            if not header.is_control:
                for record in iter_records(view):
                    if record.offset < position:
                        continue  # below the log start offset, inside the first batch
                    state_record = decode_record(record.key, record.value)
                    if state_record is not None:
                        shard.replay(state_record, record.offset)
                        count += 1
            position = max(position, header.next_offset)
    return count


def persister_for(broker: Any) -> ShareStateStore:
    """The broker's share coordinator store, created on first use (``broker.share_state``)."""
    store = getattr(broker, "share_state", None)
    if store is None:
        store = ShareStateStore.from_broker(broker)
        broker.share_state = store
    return store


async def gather_partitions(topics: Sequence[Any], call: Callable[[Any, Any], Any]) -> list[list[Any]]:
    """Run ``await call(topic, partition)`` for every partition of every topic at once
    (so their fsyncs share rounds); the results come back in request order."""
    out: list[list[Any]] = [[None] * len(topic.partitions) for topic in topics]

    async def one(i: int, j: int, topic: Any, partition: Any) -> None:
        out[i][j] = await call(topic, partition)

    async with trio.open_nursery() as nursery:
        for i, topic in enumerate(topics):
            for j, partition in enumerate(topic.partitions):
                nursery.start_soon(one, i, j, topic, partition)
    return out


def is_empty_request(group_id: str, topics: Sequence[Any]) -> bool:
    """Kafka's share coordinator answers an empty response (no results at all) when the
    group id is empty, there are no topics, or any topic lists no partitions."""
    return not group_id or not topics or any(not topic.partitions for topic in topics)
