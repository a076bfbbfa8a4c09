"""Share-partition state on disk: the ``__share_group_state`` topic (KIP-932 persistence).

:class:`ShareStateStore` is the share coordinator of this broker. On the shared
coordinator runtime (:mod:`broker.coordinator.runtime`) it hosts one
:class:`~broker.share.coordinator.ShareCoordinatorShard` per partition of
``__share_group_state`` it leads, and is the :class:`Persister` the share-partition
leader calls in-process. Its five operations mirror the broker-internal RPCs
83-87 (InitializeShareGroupState, ReadShareGroupState, WriteShareGroupState,
DeleteShareGroupState, ReadShareGroupStateSummary) key by key, so a remote
persister for a multi-broker cluster can send the same operations over the
wire; the handlers of those RPCs call this store.

Every operation that changes state appends its records as one batch, applies
them to memory, and answers only after a group-commit fsync has covered them
(:meth:`GroupCommitter.wait_durable`). Operations on one share-partition wait
for its lock; whoever takes it runs every operation queued by then, in order,
each on the state the one before left, and answers them all after one fsync
round. If that round fails they are all rolled back together, so no operation
is answered on state that is rolled back later. Different keys share fsync
rounds too.

Failure: if the append, the fsync or the wait (``WRITE_TIMEOUT_MS``) fails,
the keys' in-memory state is rolled back and the error is answered, mapped as
Kafka's coordinator runtime maps it (KAFKA_STORAGE_ERROR and
NOT_LEADER_OR_FOLLOWER -> NOT_COORDINATOR; REQUEST_TIMED_OUT ->
COORDINATOR_NOT_AVAILABLE). The failed records are still in the log (a log
cannot be truncated) and may become durable later, so the store at once
appends a snapshot of the rolled-back state after them; a replay then ends
where memory is. Until that snapshot is known durable, the key's next
operation first writes it again, durably.

Loading: :meth:`ShareStateStore.load` (at start-up) replays every partition
of the topic this broker leads from its log start offset; a partition not
loaded yet is loaded by its first operation. The topic is created on first write with
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
from collections.abc import Callable, Iterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import structlog
import trio

from broker.config.services import ShareStateSettings
from broker.coordinator.result import CoordinatorResult
from broker.coordinator.runtime import CoordinatorRuntime, CoordinatorSpec
from broker.coordinator.timer import CoordinatorTimer
from broker.metadata.source import MetadataSource
from broker.protocol.errors import ErrorCode, KafkaError
from broker.replica.manager import ReplicaManager
from broker.share.coordinator import (
    DEFAULT_SNAPSHOT_EVERY,
    ShareCoordinatorShard,
    ShareKey,
    ShareState,
    StateBatch,
    StateRecord,
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
    """Outcome of initialize, write and delete for one share-partition (and what the
    outcomes of read and read_summary add their state to)."""

    error_code: int = ErrorCode.NONE
    error_message: str | None = None

    @property
    def ok(self) -> bool:
        return self.error_code == ErrorCode.NONE


@dataclass(frozen=True, slots=True)
class ReadResult(PartitionResult):
    """Outcome of read: the state when ``error_code`` is 0 (the wire defaults otherwise)."""

    state_epoch: int = 0
    start_offset: int = 0
    delivery_complete_count: int = -1
    state_batches: tuple[StateBatch, ...] = ()


@dataclass(frozen=True, slots=True)
class SummaryResult(PartitionResult):
    """Outcome of read_summary; a share-partition never initialised reads start offset -1."""

    state_epoch: int = 0
    leader_epoch: int = 0
    start_offset: int = 0
    delivery_complete_count: int = -1


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
    elif code in (
        ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
        ErrorCode.NOT_ENOUGH_REPLICAS,
        ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
        ErrorCode.REQUEST_TIMED_OUT,
    ):
        mapped = ErrorCode.COORDINATOR_NOT_AVAILABLE
    elif code in (ErrorCode.MESSAGE_TOO_LARGE, ErrorCode.RECORD_LIST_TOO_LARGE):
        mapped = ErrorCode.UNKNOWN_SERVER_ERROR
    else:
        mapped = ErrorCode.for_code(code)
    return int(mapped), f"Unable to write share group state: {exc.detail}"


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


class _Queued:
    """An operation waiting for its key's lock, and its answer once someone has run it."""

    __slots__ = ("error", "op", "response", "taken")

    def __init__(self, op: Callable[[ShareCoordinatorShard, int], CoordinatorResult[Any]]) -> None:
        self.op = op
        self.taken = False
        self.response: Any = _UNANSWERED
        self.error: KafkaError | None = None

    def fail(self, exc: KafkaError) -> None:
        self.error = exc

    def answer(self) -> Any:
        if self.error is not None:
            raise KafkaError(self.error.code, self.error.detail)
        if self.response is _UNANSWERED:  # the run that took it stopped on an unexpected error
            raise KafkaError(ErrorCode.UNKNOWN_SERVER_ERROR, "the share-state operation was not completed")
        return self.response


_UNANSWERED = object()


# ====================================================================== the store


class ShareStateStore:
    """The share coordinator's log-backed state (a :class:`Persister`), on the coordinator runtime."""

    def __init__(
        self,
        metadata: MetadataSource,
        replicas: ReplicaManager,
        *,
        num_partitions: int = DEFAULT_NUM_PARTITIONS,
        snapshot_every: int = DEFAULT_SNAPSHOT_EVERY,
        segment_bytes: int = DEFAULT_SEGMENT_BYTES,
        write_timeout_ms: int = WRITE_TIMEOUT_MS,
        now_ms: Callable[[], int],
        check_topics: bool = True,
        replication_factor: int = -1,
        min_isr: int = 1,
    ) -> None:
        self._metadata = metadata
        self._snapshot_every = snapshot_every
        self._now_ms = now_ms
        self._check_topics = check_topics
        spec = CoordinatorSpec(
            name="share",
            topic=TOPIC,
            num_partitions=num_partitions,
            topic_configs={
                "cleanup.policy": "delete",
                # Pruning decides what goes: time- or size-based retention would delete
                # the only snapshot of a share-partition nobody has written to lately.
                "retention.ms": "-1",
                "retention.bytes": "-1",
                "segment.bytes": str(segment_bytes),
                "min.insync.replicas": str(min_isr),
            },
            write_timeout_ms=write_timeout_ms,
            replication_factor=replication_factor,
            # Pruned by per-key snapshots below, not by rewriting the live records.
            compacted=False,
        )
        self.runtime: CoordinatorRuntime[ShareCoordinatorShard] = CoordinatorRuntime(
            spec, new_shard=self._new_shard, metadata=metadata, replicas=replicas, clock=now_ms
        )
        # Per partition: key -> offset of its latest snapshot known to be durable.
        self._durable: dict[int, dict[ShareKey, int]] = {}
        # Per partition: keys whose log may hold rolled-back records, with the
        # offset of the override snapshot appended after them (None: not appended).
        self._unsafe: dict[int, dict[ShareKey, int | None]] = {}
        self._locks = _KeyLocks()
        # Per key: operations waiting for its lock, run together by whoever takes it next.
        self._queued: dict[ShareKey, list[_Queued]] = {}

    @classmethod
    def from_settings(
        cls,
        settings: ShareStateSettings,
        metadata: MetadataSource,
        replicas: ReplicaManager,
        now_ms: Callable[[], int],
    ) -> ShareStateStore:
        return cls(
            metadata,
            replicas,
            num_partitions=settings.num_partitions,
            snapshot_every=settings.snapshot_every,
            segment_bytes=settings.segment_bytes,
            write_timeout_ms=settings.write_timeout_ms,
            now_ms=now_ms,
            replication_factor=settings.replication_factor,
            min_isr=settings.min_isr,
        )

    # ------------------------------------------------------------------ inspection

    @property
    def num_partitions(self) -> int:
        return self.runtime.num_partitions

    def partition_for(self, group_id: str, topic_id: uuid.UUID, partition: int) -> int:
        """The ``__share_group_state`` partition holding this share-partition's state."""
        return partition_for(ShareKey(group_id, topic_id, partition), self.num_partitions)

    def state(self, group_id: str, topic_id: uuid.UUID, partition: int) -> ShareState | None:
        """The in-memory state of a share-partition (after :meth:`load`)."""
        key = ShareKey(group_id, topic_id, partition)
        pid = partition_for(key, self.num_partitions)
        if not self.runtime.is_loaded(pid):
            return None
        return self.runtime.shard(pid).get(key)

    def states(self) -> Iterator[tuple[ShareKey, ShareState]]:
        for _, shard in self.runtime.loaded():
            yield from shard.states.items()

    # ------------------------------------------------------------------ loading

    async def load(self) -> None:
        """Replay every partition of ``__share_group_state`` this broker leads.

        Raises KafkaError(COORDINATOR_LOAD_IN_PROGRESS) if the topic cannot be read;
        the next call tries again.
        """
        try:
            await self.runtime.load_led()
        except (KafkaError, OSError) as exc:
            log.error("share_state_load_failed", error=str(exc))
            raise KafkaError(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, f"cannot load {TOPIC}: {exc}") from exc

    def _new_shard(self, pid: int, timer: CoordinatorTimer) -> ShareCoordinatorShard:
        known = self._known_partition if self._check_topics else None
        self._unsafe[pid] = {}
        self._durable.pop(pid, None)
        return ShareCoordinatorShard(snapshot_every=self._snapshot_every, known_partition=known)

    def _durable_of(self, pid: int, shard: ShareCoordinatorShard) -> dict[ShareKey, int]:
        durable = self._durable.get(pid)
        if durable is None:
            durable = self._durable[pid] = {k: st.snapshot_offset for k, st in shard.states.items()}
        return durable

    def _known_partition(self, topic_id: uuid.UUID, partition: int) -> bool:
        t = self._metadata.image.topic_by_id(topic_id)
        return t is not None and 0 <= partition < len(t.partitions)

    async def _shard(self, pid: int) -> ShareCoordinatorShard:
        try:
            return await self.runtime.get_shard(pid, create=False)
        except KafkaError as exc:
            if exc.code in (ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS):
                raise
            raise KafkaError(
                ErrorCode.COORDINATOR_NOT_AVAILABLE, f"{TOPIC}-{pid} is not available: {exc.detail}"
            ) from exc

    # ------------------------------------------------------------------ Persister

    async def initialize(
        self, group_id: str, topic_id: uuid.UUID, partition: int, *, state_epoch: int, start_offset: int
    ) -> PartitionResult:
        key = ShareKey(group_id, topic_id, partition)
        return await self._change(key, lambda shard, now: shard.initialize(key, state_epoch, start_offset, now_ms=now))

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

        def op(shard: ShareCoordinatorShard, now: int) -> CoordinatorResult[None]:
            return shard.write(
                key,
                state_epoch=state_epoch,
                leader_epoch=leader_epoch,
                start_offset=start_offset,
                state_batches=state_batches,
                delivery_complete_count=delivery_complete_count,
                now_ms=now,
            )

        return await self._change(key, op)

    async def delete(self, group_id: str, topic_id: uuid.UUID, partition: int) -> PartitionResult:
        key = ShareKey(group_id, topic_id, partition)
        return await self._change(key, lambda shard, now: shard.delete(key))

    async def read_summary(
        self, group_id: str, topic_id: uuid.UUID, partition: int, *, leader_epoch: int = -1
    ) -> SummaryResult:
        """The leader epoch is accepted for symmetry with the RPC; like Kafka, it fences nothing."""
        key = ShareKey(group_id, topic_id, partition)
        try:
            summary = await self._operate(key, lambda shard, now: CoordinatorResult([], shard.read_summary(key)))
        except KafkaError as exc:
            return SummaryResult(exc.code, exc.detail)
        return SummaryResult(
            state_epoch=summary.state_epoch,
            leader_epoch=summary.leader_epoch,
            start_offset=summary.start_offset,
            delivery_complete_count=summary.delivery_complete_count,
        )

    # ------------------------------------------------------------------ the write path

    async def _change(
        self, key: ShareKey, op: Callable[[ShareCoordinatorShard, int], CoordinatorResult[None]]
    ) -> PartitionResult:
        """Run an operation that answers nothing but its outcome (initialize, write,
        delete) as :meth:`_operate` does; its error, if any, in the result."""
        try:
            await self._operate(key, op)
        except KafkaError as exc:
            return PartitionResult(exc.code, exc.detail)
        return PartitionResult()

    async def _operate(self, key: ShareKey, op: Callable[[ShareCoordinatorShard, int], CoordinatorResult[Any]]) -> Any:
        """Run ``op`` on the key's shard under the key's lock; commit its records durably;
        the operation's answer.

        Operations that arrive while the key's lock is held queue up; whoever takes the lock
        next runs all of them in their order and waits for one fsync round for the lot
        (:meth:`_run_queued`), rather than one round after another.
        """
        pid = partition_for(key, self.num_partitions)
        shard = await self._shard(pid)
        mine = _Queued(op)
        self._queued.setdefault(key, []).append(mine)
        try:
            async with self._locks.hold(key):
                if not mine.taken:  # nobody has run it yet: run it and all queued behind it
                    await self._run_queued(pid, shard, key, self._queued.pop(key))
        finally:
            if not mine.taken:  # cancelled before anyone ran it
                queue = self._queued.get(key)
                if queue is not None and mine in queue:
                    queue.remove(mine)
                    if not queue:
                        del self._queued[key]
        return mine.answer()

    async def _run_queued(self, pid: int, shard: ShareCoordinatorShard, key: ShareKey, queue: list[_Queued]) -> None:
        """Run the queued operations on ``key`` one after another, each on the state the ones
        before it left, then wait until all their records are durable.

        An operation that fails on its own (the core refuses it, its append fails) answers
        its error; the others go on. If the wait fails, every operation of the queue answers
        the error and the key's state is rolled back to what it was before the first.
        """
        for q in queue:
            q.taken = True
        try:
            await self._make_safe(pid, shard, key)
        except KafkaError as exc:
            for q in queue:
                q.fail(exc)
            return
        saved: dict[ShareKey, ShareState | None] = {}
        written: list[tuple[StateRecord, int]] = []
        part: Any = None
        done: list[_Queued] = []
        for q in queue:
            try:
                result = q.op(shard, self._now_ms())
                if result.records:
                    for r in result.records:
                        saved.setdefault(r.key, shard.get(r.key))
                    part, base = await self._append(pid, shard, result.records)
                    written.extend((r, base + i) for i, r in enumerate(result.records))
            except KafkaError as exc:
                q.fail(exc)
                continue
            q.response = result.response
            done.append(q)
        if not written:
            return
        try:
            await self._settle(pid, shard, part, saved, written)
        except KafkaError as exc:
            for q in done:
                q.fail(exc)
        except BaseException:
            failure = KafkaError(ErrorCode.COORDINATOR_NOT_AVAILABLE, "the share-state write was interrupted")
            for q in done:
                q.fail(failure)
            raise

    async def _make_safe(self, pid: int, shard: ShareCoordinatorShard, key: ShareKey) -> None:
        """Before building on ``key``'s state, make sure no rolled-back record can outlive it."""
        unsafe = self._unsafe[pid]
        if key not in unsafe:
            return
        fix_offset = unsafe[key]
        part = self.runtime.partition(pid)
        if fix_offset is not None and part is not None and part.log.recovery_point > fix_offset:
            del unsafe[key]  # the override snapshot is durable already
            return
        await self._commit(pid, shard, [shard.snapshot_record(key, now_ms=self._now_ms())], prune=False)
        unsafe.pop(key, None)

    async def _commit(
        self, pid: int, shard: ShareCoordinatorShard, records: list[StateRecord], *, prune: bool = True
    ) -> None:
        """Append ``records`` as one batch, apply them, and wait until they are durable.

        On failure the keys' state is rolled back and KafkaError raised.
        """
        saved = {r.key: shard.get(r.key) for r in records}
        part, base = await self._append(pid, shard, records)
        await self._settle(pid, shard, part, saved, [(r, base + i) for i, r in enumerate(records)], prune=prune)

    async def _append(self, pid: int, shard: ShareCoordinatorShard, records: list[StateRecord]) -> tuple[Any, int]:
        """Append ``records`` as one batch and apply them to memory (not durable yet)."""
        try:
            await self.runtime.ensure_topic()
            part, base = self.runtime.append(pid, [encode_record(r) for r in records])
        except KafkaError as exc:
            code, message = _coordinator_error(exc)
            log.error("share_state_append_failed", partition=pid, error=str(exc))
            raise KafkaError(code, message) from exc
        for i, record in enumerate(records):
            shard.replay(record, base + i)
        return part, base

    async def _settle(
        self,
        pid: int,
        shard: ShareCoordinatorShard,
        part: Any,
        saved: dict[ShareKey, ShareState | None],
        written: list[tuple[StateRecord, int]],
        *,
        prune: bool = True,
    ) -> None:
        """Wait until the ``written`` records are durable; on failure (or interruption) roll
        the keys back to their ``saved`` state and raise."""
        try:
            await self.runtime.wait_durable([part])
        except BaseException as failure:
            for key, state in saved.items():
                shard.restore(key, state)
            self._override(pid, shard, list(saved))
            if not isinstance(failure, KafkaError):
                raise
            code, message = _coordinator_error(failure)
            log.error("share_state_write_failed", partition=pid, error=str(failure), keys=len(saved))
            raise KafkaError(code, message) from failure
        durable = self._durable_of(pid, shard)
        wrote_snapshot = False
        for record, offset in written:
            if record.is_tombstone:
                durable.pop(record.key, None)
            elif record.is_snapshot:
                durable[record.key] = offset
                wrote_snapshot = True
        if wrote_snapshot and prune:
            await self._prune(pid, shard, part)

    def _override(self, pid: int, shard: ShareCoordinatorShard, keys: list[ShareKey]) -> None:
        """After a rollback: append (without waiting) a snapshot of each key's restored
        state, so a replay that includes the failed records still ends at memory."""
        unsafe = self._unsafe[pid]
        fixes = [shard.snapshot_record(key, now_ms=self._now_ms()) for key in keys]
        try:
            _, base = self.runtime.append(pid, [encode_record(r) for r in fixes])
        except KafkaError as exc:
            log.warning("share_state_override_deferred", partition=pid, error=str(exc))
            for key in keys:
                unsafe[key] = None
            return
        for i, record in enumerate(fixes):
            shard.replay(record, base + i)
            unsafe[record.key] = base + i

    # ------------------------------------------------------------------ pruning

    def prune_window(self, pid: int) -> int:
        shard = self.runtime.shard(pid)
        return max(PRUNE_WINDOW_MIN, 2 * self._snapshot_every) + 2 * len(shard)

    async def _prune(self, pid: int, shard: ShareCoordinatorShard, part: Any) -> None:
        """Re-snapshot keys far behind the log end, then move the log start offset up
        to the oldest durable snapshot still needed."""
        durable = self._durable_of(pid, shard)
        part_log = part.log
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
                    await self._commit(
                        pid, shard, [shard.snapshot_record(k, now_ms=now) for k, _ in grabbed], prune=False
                    )
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
