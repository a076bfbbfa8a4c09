"""The one coordinator runtime: shards of state over the partitions of an internal topic.

Every coordinator (groups on ``__consumer_offsets``, share state on
``__share_group_state``, transactions on ``__transaction_state``) is the same
shell around pure cores:

- **Shards.** One shard per partition of the coordinator's topic, built by the
  coordinator's factory. A key (group id, share-partition key, transactional id)
  lives in the shard of its partition (Kafka's hash, see
  :meth:`~broker.metadata.image.MetadataImage.coordinator_for`).
- **Load and unload.** A shard is loaded on the broker leading its partition by
  replaying the partition from its log start offset (``shard.load_record``), then
  ``shard.on_loaded(now)``; it is unloaded when that leadership goes elsewhere.
  The runtime follows the metadata image: partitions this broker leads are
  loaded, the others unloaded. Operations on a shard that is not here answer
  NOT_COORDINATOR, on one still loading COORDINATOR_LOAD_IN_PROGRESS.
- **Writes.** :meth:`CoordinatorRuntime.append` writes records to the shard's
  partition as one batch (through the replica layer, so a leader check and the
  leader epoch apply), and :meth:`CoordinatorRuntime.wait_durable` returns once
  they are what ``acks=all`` promises, within ``write_timeout_ms``. Errors are
  KafkaError with the storage error's code; each coordinator maps them to what
  its APIs answer.
- **Timers.** Every hosted shard gets one keyed timer
  (:class:`~broker.coordinator.timer.CoordinatorTimer`, Kafka's
  ``CoordinatorTimer``) from the factory that builds it; its cores schedule their
  tasks there. One task sleeps until the earliest deadline of any shard and hands
  the coordinator the tasks due (``on_timers(partition, shard, due)``, taken one
  by one), which runs them and persists their
  :class:`~broker.coordinator.result.CoordinatorResult`.
- **Bounded logs.** For a coordinator whose records are keyed state (last record
  per key wins, as in a compacted topic), the runtime keeps the live record of
  every key. Once the partition has grown by more than
  ``max(SNAPSHOT_MIN_RECORDS, 2 * live keys)`` records since its last rewrite,
  it rolls the log, writes the live records again, and, once they are durable,
  moves the log start offset to them, deleting everything older. A restart then
  replays at most a few times the live state, however many writes came before.
  No rewrite starts while a transaction is open in the partition.
- **Transactions.** A coordinator may write records inside a producer's
  transaction (:meth:`CoordinatorRuntime.append` with a producer id: the group
  coordinator's TxnOffsetCommit) and the transaction's COMMIT/ABORT marker
  (:meth:`CoordinatorRuntime.append_marker`). Such records become live only when
  the commit marker comes (an abort drops them; a later non-transactional record
  of the same key wins over them, as Kafka keeps the newest offset). At load, a
  shard that defines ``load_transactional_record(offset, producer_id, key,
  value)`` gets the records of transactional batches through it, and one that
  defines ``load_end_txn_marker(producer_id, committed)`` the markers.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Generic, Protocol, TypeVar

import structlog
import trio

from broker.coordinator.timer import CoordinatorTimer
from broker.log.producer_state import AppendOrigin, VerificationGuard
from broker.metadata.image import MetadataImage, coordinator_partition
from broker.metadata.source import MetadataSource
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.records import (
    NO_PRODUCER_ID,
    NO_SEQUENCE,
    RecordBatchError,
    build_batch,
    build_end_txn_marker,
    iter_batches,
    iter_records,
    parse_end_txn_marker,
)
from broker.replica.manager import ReplicaManager
from broker.replica.partition import Partition

__all__ = [
    "APPEND_ERRORS",
    "CoordinatorRuntime",
    "CoordinatorSpec",
    "DueTasks",
    "RuntimeService",
    "Shard",
    "append_error",
]

log = structlog.get_logger("sharebroker.coordinator")

Record = tuple[bytes, bytes | None]

# Append errors -> what a coordinator API answers (Kafka's mapping for its group and
# transaction coordinators): the log's availability and leadership errors become the
# coordinator errors a client retries on; routing errors pass through as they are.
APPEND_ERRORS: Mapping[ErrorCode, ErrorCode] = {
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION: ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.NOT_ENOUGH_REPLICAS: ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND: ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.REQUEST_TIMED_OUT: ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.NOT_LEADER_OR_FOLLOWER: ErrorCode.NOT_COORDINATOR,
    ErrorCode.KAFKA_STORAGE_ERROR: ErrorCode.NOT_COORDINATOR,
}
_ROUTING = (ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, ErrorCode.COORDINATOR_NOT_AVAILABLE)


def append_error(exc: KafkaError, errors: Mapping[ErrorCode, ErrorCode] = APPEND_ERRORS) -> ErrorCode:
    """What a coordinator API answers when appending its records failed with ``exc``
    (``errors``: the mapping, :data:`APPEND_ERRORS` or one extending it)."""
    if exc.code in _ROUTING:
        return exc.code
    return errors.get(exc.code, ErrorCode.UNKNOWN_SERVER_ERROR)


# Bytes read per step while replaying, so a large partition is not read at once.
REPLAY_READ_BYTES = 4 * 1024 * 1024
# A partition is rewritten (and its older records deleted) after at least this many
# records since the last rewrite, and at least twice the live keys: each rewrite costs
# one write of the live state, so at most one record in three is a rewrite.
SNAPSHOT_MIN_RECORDS = 10_000
# Records per batch when rewriting the live state (a batch stays well below 1 MiB).
SNAPSHOT_BATCH_RECORDS = 2_000


class Shard(Protocol):
    """What the runtime needs of a coordinator's per-partition core."""

    def load_record(self, offset: int, key: bytes | None, value: bytes | None) -> None:
        """Apply one record read back from the partition at load (None value: tombstone)."""
        ...

    def on_loaded(self, now_ms: int) -> None: ...


S = TypeVar("S", bound=Shard)
# The tasks of a shard's timer that are due: (queue name, key, task), taken one by one.
DueTasks = Iterator[tuple[str, Hashable, Any]]


@dataclass(frozen=True, slots=True)
class CoordinatorSpec:
    """One coordinator's topic and its settings."""

    name: str
    topic: str
    num_partitions: int
    topic_configs: Mapping[str, str]
    write_timeout_ms: int = 5000
    # Keyed state: keep the live record per key and bound the log by rewriting it.
    compacted: bool = True
    snapshot_min_records: int = SNAPSHOT_MIN_RECORDS
    # Replicas of the topic in a cluster (-1: default.replication.factor); a single node
    # creates it with one.
    replication_factor: int = -1


@dataclass(slots=True)
class _Hosted(Generic[S]):
    shard: S
    timer: CoordinatorTimer = field(default_factory=CoordinatorTimer)
    live: dict[bytes, bytes] = field(default_factory=dict)
    since_rewrite: int = 0
    rewriting: bool = False
    # producer id -> records of its open transaction (key -> value), not live yet.
    pending_txn: dict[int, dict[bytes, bytes | None]] = field(default_factory=dict)

    def keep(self, key: bytes, value: bytes | None) -> None:
        """A non-transactional record: live at once, and newer than any pending one."""
        _keep(self.live, key, value)
        for records in self.pending_txn.values():
            records.pop(key, None)

    def keep_transactional(self, producer_id: int, key: bytes, value: bytes | None) -> None:
        records = self.pending_txn.setdefault(producer_id, {})
        records.pop(key, None)
        records[key] = value

    def end_transaction(self, producer_id: int, committed: bool) -> None:
        records = self.pending_txn.pop(producer_id, None)
        if committed and records:
            for key, value in records.items():
                _keep(self.live, key, value)


class CoordinatorRuntime(Generic[S]):
    def __init__(
        self,
        spec: CoordinatorSpec,
        *,
        new_shard: Callable[[int, CoordinatorTimer], S],
        metadata: MetadataSource,
        replicas: ReplicaManager,
        clock: Callable[[], int],
        on_timers: Callable[[int, S, DueTasks], Awaitable[None]] | None = None,
        on_unload: Callable[[int], None] | None = None,
    ) -> None:
        self.spec = spec
        self._new_shard = new_shard
        self._metadata = metadata
        self._replicas = replicas
        self._clock = clock
        self._on_timers = on_timers
        # Called with the partition after its shard is dropped (leadership moved, the
        # lease lapsed, a reload): requests the shell parked on that shard answer now.
        self._on_unload = on_unload
        self._hosted: dict[int, _Hosted[S]] = {}
        self._loading: dict[int, trio.Event] = {}
        self._topic_lock = trio.Lock()
        self._timers_changed = trio.Event()
        # Shards whose timers changed since the timer task last looked (None: every shard);
        # it re-reads only their earliest deadlines, not those of every hosted shard.
        self._timers_dirty: set[int] | None = None
        self._nursery: trio.Nursery | None = None
        metadata.subscribe(self._image_changed)

    # --- placement -------------------------------------------------------------------

    @property
    def topic(self) -> str:
        return self.spec.topic

    @property
    def num_partitions(self) -> int:
        """Partitions of the topic (the setting until the topic exists)."""
        t = self._metadata.image.topic(self.spec.topic)
        return len(t.partitions) if t is not None else self.spec.num_partitions

    def partition_for(self, key: str) -> int:
        return coordinator_partition(key, self.num_partitions)

    def loaded(self) -> Iterable[tuple[int, S]]:
        return [(pid, h.shard) for pid, h in self._hosted.items()]

    def is_loaded(self, pid: int) -> bool:
        return pid in self._hosted

    def loading(self) -> bool:
        """Whether some partition is being loaded right now."""
        return bool(self._loading)

    def _leads(self, image: MetadataImage, pid: int) -> bool:
        state = image.partition(self.spec.topic, pid)
        return state is not None and state.leader == self._metadata.node_id

    # --- shards ----------------------------------------------------------------------

    def shard(self, pid: int) -> S:
        """The loaded shard of partition ``pid`` (raises KafkaError when it is not here)."""
        hosted = self._hosted.get(pid)
        if hosted is not None:
            return hosted.shard
        if pid in self._loading:
            raise KafkaError(ErrorCode.COORDINATOR_LOAD_IN_PROGRESS)
        raise KafkaError(ErrorCode.NOT_COORDINATOR)

    async def get_shard(self, pid: int, *, create: bool = True) -> S:
        """The shard of ``pid``, loading it when this broker should host it (raises
        KafkaError otherwise). While the topic does not exist, ``create`` creates it;
        without it an empty shard stands in (reads need no topic, as in Kafka)."""
        hosted = self._hosted.get(pid)
        if hosted is not None:
            self._check_leading(pid)
            return hosted.shard
        if self._metadata.image.topic(self.spec.topic) is None:
            if not create:
                if not 0 <= pid < self.spec.num_partitions:
                    raise KafkaError(ErrorCode.NOT_COORDINATOR)
                timer = CoordinatorTimer()
                shard = self._new_shard(pid, timer)
                shard.on_loaded(self._clock())
                self._host(pid, _Hosted(shard, timer))
                return shard
            await self.ensure_topic()
        if self._leads(self._metadata.image, pid):
            await self.load(pid)
        return self.shard(pid)

    def _check_leading(self, pid: int) -> None:
        """NOT_COORDINATOR while this broker may not act as the partition's leader, though
        its shard is still here: its lease lapsed (cut off from etcd, or paused), so another
        broker may be the coordinator by now and this shard's state may be stale."""
        partition = self._replicas.partition(self.spec.topic, pid)
        if partition is not None and partition.state.leader == self._metadata.node_id and not partition.is_leader:
            raise KafkaError(ErrorCode.NOT_COORDINATOR, f"{self.spec.topic}-{pid}: this broker's registration lapsed")

    async def ensure_topic(self) -> None:
        """Create the coordinator's topic if it does not exist yet (Kafka creates its
        internal topics on first use)."""
        if self._metadata.image.topic(self.spec.topic) is not None:
            return
        async with self._topic_lock:
            if self._metadata.image.topic(self.spec.topic) is not None:
                return
            try:
                await self._metadata.create_topic(
                    self.spec.topic,
                    self.spec.num_partitions,
                    self.spec.replication_factor,
                    dict(self.spec.topic_configs),
                    internal=True,
                )
            except KafkaError as exc:
                if exc.code != ErrorCode.TOPIC_ALREADY_EXISTS:
                    raise KafkaError(
                        ErrorCode.COORDINATOR_NOT_AVAILABLE, f"cannot create {self.spec.topic}: {exc}"
                    ) from exc
            log.info("coordinator_topic_created", coordinator=self.spec.name, topic=self.spec.topic)

    async def load(self, pid: int) -> None:
        """Replay partition ``pid`` into a new shard (once; concurrent callers wait)."""
        if pid in self._hosted:
            return
        event = self._loading.get(pid)
        if event is not None:
            await event.wait()
            return
        event = self._loading[pid] = trio.Event()
        try:
            partition = self._replicas.partition(self.spec.topic, pid)
            if partition is None:
                raise KafkaError(ErrorCode.NOT_COORDINATOR, f"{self.spec.topic}-{pid} is not on this broker")
            # A new leader loads once its high watermark has reached the start of its
            # epoch: everything earlier leaders wrote is committed, nothing read is undone.
            if partition.is_leader:
                await partition.wait_high_watermark_established()
            if not self._leads(self._metadata.image, pid):
                raise KafkaError(ErrorCode.NOT_COORDINATOR, f"{self.spec.topic}-{pid} moved while it loaded")
            started = trio.current_time()
            timer = CoordinatorTimer()
            hosted: _Hosted[S] = _Hosted(self._new_shard(pid, timer), timer)
            count = await trio.to_thread.run_sync(self._replay, partition, hosted)
            hosted.shard.on_loaded(self._clock())
            hosted.since_rewrite = count - len(hosted.live)
            self._host(pid, hosted)
            if count:
                log.info(
                    "coordinator_loaded",
                    coordinator=self.spec.name,
                    partition=pid,
                    records=count,
                    seconds=round(trio.current_time() - started, 3),
                )
        finally:
            del self._loading[pid]
            event.set()

    def _host(self, pid: int, hosted: _Hosted[S]) -> None:
        """The shard of ``pid`` is here: its timer wakes the timer task from now on."""
        self._hosted[pid] = hosted
        hosted.timer.on_schedule = partial(self._shard_timers_changed, pid)
        self._shard_timers_changed(pid)

    def _replay(self, partition: Partition, hosted: _Hosted[S]) -> int:
        """Runs in a worker thread: feed every record of the partition to the shard."""
        shard, keep = hosted.shard, self.spec.compacted
        load_txn_record = getattr(shard, "load_transactional_record", None)
        load_marker = getattr(shard, "load_end_txn_marker", None)
        part_log = partition.log
        count = 0
        position = part_log.log_start_offset
        while position < part_log.log_end_offset:
            data = part_log.read(position, REPLAY_READ_BYTES).records
            if not data:
                break
            for header, view in iter_batches(data):
                if header.is_control:
                    if header.is_transactional:
                        self._replay_marker(partition, hosted, header.producer_id, view, load_marker)
                    position = max(position, header.next_offset)
                    continue
                transactional = header.is_transactional and header.producer_id != NO_PRODUCER_ID
                for record in iter_records(view):
                    if record.offset < position:
                        continue  # below the log start offset, inside the first batch
                    count += 1
                    try:
                        if transactional and load_txn_record is not None:
                            load_txn_record(record.offset, header.producer_id, record.key, record.value)
                        else:
                            shard.load_record(record.offset, record.key, record.value)
                    except Exception as exc:  # one bad record must not stop the broker starting
                        log.warning(
                            "coordinator_record_skipped",
                            coordinator=self.spec.name,
                            partition=partition.index,
                            offset=record.offset,
                            error=str(exc),
                        )
                        continue
                    if keep and record.key is not None:
                        if transactional:
                            hosted.keep_transactional(header.producer_id, record.key, record.value)
                        else:
                            hosted.keep(record.key, record.value)
                position = max(position, header.next_offset)
        return count

    def _replay_marker(
        self,
        partition: Partition,
        hosted: _Hosted[S],
        producer_id: int,
        view: memoryview,
        load_marker: Callable[[int, bool], None] | None,
    ) -> None:
        try:
            first = next(iter_records(view), None)
            marker = None if first is None else parse_end_txn_marker(first.key, first.value)
        except RecordBatchError:
            return  # another control record type (Kafka ignores those too)
        if marker is None:
            return
        hosted.end_transaction(producer_id, marker.is_commit)
        if load_marker is not None:
            try:
                load_marker(producer_id, marker.is_commit)
            except Exception as exc:
                log.warning(
                    "coordinator_marker_skipped", coordinator=self.spec.name, partition=partition.index, error=str(exc)
                )

    async def reload(self, pid: int) -> None:
        """Drop the shard's state and replay it from the log (after a failed write, the
        log is the truth; Kafka reverts to its last committed snapshot)."""
        self.unload(pid)
        if self._leads(self._metadata.image, pid):
            await self.load(pid)

    def unload(self, pid: int) -> None:
        hosted = self._hosted.pop(pid, None)
        if hosted is not None:
            hosted.timer.on_schedule = None
            unloaded = getattr(hosted.shard, "on_unloaded", None)
            if unloaded is not None:
                unloaded()
            if self._on_unload is not None:
                self._on_unload(pid)
            log.info("coordinator_unloaded", coordinator=self.spec.name, partition=pid)

    async def load_led(self) -> None:
        """Load every partition of the topic this broker leads (start-up)."""
        image = self._metadata.image
        t = image.topic(self.spec.topic)
        if t is None:
            return
        for pid in range(len(t.partitions)):
            if self._leads(image, pid):
                await self.load(pid)

    def _image_changed(self, old: MetadataImage, new: MetadataImage) -> None:
        t = new.topic(self.spec.topic)
        if t is None:
            if old.topic(self.spec.topic) is not None:  # the topic was deleted
                for pid in list(self._hosted):
                    self.unload(pid)
            return
        for pid in list(self._hosted):
            if not self._leads(new, pid):
                self.unload(pid)
        if self._nursery is None:
            return
        for pid in range(len(t.partitions)):
            if pid not in self._hosted and pid not in self._loading and self._leads(new, pid):
                self._nursery.start_soon(self._load_quietly, pid)

    async def _load_quietly(self, pid: int) -> None:
        try:
            await self.load(pid)
        except KafkaError as exc:
            log.warning("coordinator_load_failed", coordinator=self.spec.name, partition=pid, error=str(exc))

    # --- writes ----------------------------------------------------------------------

    def append(
        self,
        pid: int,
        records: Sequence[Record],
        *,
        producer_id: int = NO_PRODUCER_ID,
        producer_epoch: int = -1,
        verification_guard: VerificationGuard | None = None,
    ) -> tuple[Partition, int]:
        """Append ``records`` to partition ``pid`` as one batch; returns the partition
        and the batch's base offset (raises KafkaError). Nothing is durable yet.

        With ``producer_id`` the batch belongs to that producer's open transaction
        (written as the coordinator, with the guard of the partition's transaction
        verification); its records become live at the commit marker."""
        hosted = self._hosted.get(pid)
        if hosted is None:
            raise KafkaError(ErrorCode.NOT_COORDINATOR)
        partition = self._replicas.leader(self.spec.topic, pid)
        partition.check_enough_replicas()  # coordinators write with acks=all
        now = self._clock()
        transactional = producer_id != NO_PRODUCER_ID
        batch = build_batch(
            [(k, v, (), now) for k, v in records],
            base_timestamp=now,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            base_sequence=NO_SEQUENCE,
            transactional=transactional,
        )
        if transactional:
            info = partition.append(batch, origin=AppendOrigin.COORDINATOR, verification_guard=verification_guard)
        else:
            info = partition.append(batch)
        if self.spec.compacted:
            for key, value in records:
                if transactional:
                    hosted.keep_transactional(producer_id, key, value)
                else:
                    hosted.keep(key, value)
            hosted.since_rewrite += len(records)
        return partition, info.base_offset

    def append_marker(
        self,
        pid: int,
        *,
        producer_id: int,
        producer_epoch: int,
        coordinator_epoch: int,
        committed: bool,
        transaction_version: int,
    ) -> tuple[Partition, int]:
        """Append a transaction's COMMIT/ABORT marker to partition ``pid`` (as the
        transaction coordinator's WriteTxnMarkers would); the transaction's records
        become live or are dropped. Raises KafkaError (the partition's epoch checks)."""
        hosted = self._hosted.get(pid)
        if hosted is None:
            raise KafkaError(ErrorCode.NOT_COORDINATOR)
        partition = self._replicas.leader(self.spec.topic, pid)
        marker = build_end_txn_marker(
            commit=committed,
            coordinator_epoch=coordinator_epoch,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            timestamp=self._clock(),
        )
        info = partition.append(marker, origin=AppendOrigin.COORDINATOR, transaction_version=transaction_version)
        if self.spec.compacted:
            hosted.end_transaction(producer_id, committed)
            hosted.since_rewrite += 1
        return partition, info.base_offset

    async def wait_durable(self, partitions: Iterable[Partition]) -> None:
        """Wait until everything appended to ``partitions`` is durable, within the
        write timeout (REQUEST_TIMED_OUT after it; the storage error otherwise)."""
        parts = {id(p): p for p in partitions}
        if not parts:
            return
        errors: list[KafkaError] = []

        async def one(p: Partition) -> None:
            try:
                await p.wait_replicated()
            except KafkaError as exc:
                errors.append(exc)

        with trio.move_on_after(self.spec.write_timeout_ms / 1000) as scope:
            if len(parts) == 1:
                await one(next(iter(parts.values())))
            else:
                async with trio.open_nursery() as nursery:
                    for p in parts.values():
                        nursery.start_soon(one, p)
        if scope.cancelled_caught:
            raise KafkaError(ErrorCode.REQUEST_TIMED_OUT, f"not durable within {self.spec.write_timeout_ms} ms")
        if errors:
            raise errors[0]

    async def wait_committed(self, pid: int) -> None:
        """Wait (within the write timeout) until everything in partition ``pid``'s log
        is committed: a shard loaded or reloaded from this log may have replayed records
        of a write that timed out, which a new leader can still truncate, and must not
        act on them (send markers, answer from them) before they are committed."""
        partition = self.partition(pid)
        if partition is None:
            raise KafkaError(ErrorCode.NOT_COORDINATOR, f"{self.spec.topic}-{pid} is not on this broker")
        await partition.wait_committed(timeout_s=self.spec.write_timeout_ms / 1000)

    async def write(self, pid: int, records: Sequence[Record]) -> int:
        """Append and wait until durable; returns the base offset (raises KafkaError)."""
        partition, base = self.append(pid, records)
        await self.wait_durable([partition])
        await self.maybe_rewrite(pid)
        return base

    def partition(self, pid: int) -> Partition | None:
        """The local replica of partition ``pid`` of the topic."""
        return self._replicas.partition(self.spec.topic, pid)

    def delete_records(self, pid: int, before_offset: int) -> None:
        """Move the partition's log start offset up (what a coordinator no longer needs)."""
        partition = self._replicas.leader(self.spec.topic, pid)
        if before_offset > partition.log_start_offset:
            partition.log.delete_records(before_offset)

    # --- bounding the log ------------------------------------------------------------

    def live_records(self, pid: int) -> int:
        hosted = self._hosted.get(pid)
        return 0 if hosted is None else len(hosted.live)

    async def maybe_rewrite(self, pid: int) -> None:
        """Rewrite the partition's live records and drop the rest once it has grown enough."""
        hosted = self._hosted.get(pid)
        if hosted is None or not self.spec.compacted or hosted.rewriting:
            return
        if hosted.since_rewrite < max(self.spec.snapshot_min_records, 2 * len(hosted.live)):
            return
        partition = self._replicas.partition(self.spec.topic, pid)
        if hosted.pending_txn or (partition is not None and partition.last_stable_offset < partition.log_end_offset):
            # A transaction is open here: its records are not live yet and must stay in
            # the log until its marker; try again after a later write.
            return
        hosted.rewriting = True
        try:
            await self._rewrite(pid, hosted)
        except KafkaError as exc:
            log.warning("coordinator_rewrite_failed", coordinator=self.spec.name, partition=pid, error=str(exc))
        finally:
            hosted.rewriting = False

    async def _rewrite(self, pid: int, hosted: _Hosted[S]) -> None:
        partition = self._replicas.leader(self.spec.topic, pid)
        # Everything before the rewrite ends up in closed segments, deleted whole below.
        partition.log.roll()
        items = list(hosted.live.items())  # a consistent cut: no await since the roll
        first = math.inf
        now = self._clock()
        for i in range(0, len(items), SNAPSHOT_BATCH_RECORDS):
            chunk = items[i : i + SNAPSHOT_BATCH_RECORDS]
            info = partition.append(build_batch([(k, v, (), now) for k, v in chunk], base_timestamp=now))
            first = min(first, info.base_offset)
        hosted.since_rewrite = 0
        if first is math.inf:
            first = partition.log_end_offset
        await self.wait_durable([partition])
        self.delete_records(pid, int(first))
        log.info(
            "coordinator_log_rewritten",
            coordinator=self.spec.name,
            partition=pid,
            live_records=len(items),
            log_start_offset=int(first),
        )

    # --- timers ----------------------------------------------------------------------

    def timers_changed(self) -> None:
        """A deadline moved earlier (or the clock jumped): re-plan the timer task."""
        self._timers_dirty = None
        self._timers_changed.set()

    def _shard_timers_changed(self, pid: int) -> None:
        """A deadline of the shard of ``pid`` moved earlier (or the shard came or went)."""
        if self._timers_dirty is not None:
            self._timers_dirty.add(pid)
        self._timers_changed.set()

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Timers until cancelled; also hosts loads started by metadata changes."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            task_status.started()
            try:
                await self._timer_loop()
            finally:
                self._nursery = None

    async def _timer_loop(self) -> None:
        """Sleep until the earliest deadline of any hosted shard, run what is due, repeat.

        The earliest deadline of each shard is kept between rounds and re-read only for
        the shards whose timers changed, so a deadline set on one shard (every
        transaction sets some) costs one look, not one per hosted shard. A kept
        deadline may be early (a cancelled timer does not wake the task): it is read
        again before anything runs."""
        deadlines: dict[int, int] = {}
        while True:
            changed = self._timers_changed = trio.Event()
            dirty, self._timers_dirty = self._timers_dirty, set()
            if dirty is None:
                deadlines.clear()
                dirty = set(self._hosted)
            for pid in dirty:
                self._plan(pid, deadlines)
            now = self._clock()
            for pid in [pid for pid, deadline in deadlines.items() if deadline <= now]:
                deadline = self._plan(pid, deadlines)
                hosted = self._hosted.get(pid)
                if deadline is None or deadline > now or hosted is None or self._on_timers is None:
                    continue
                try:
                    await self._on_timers(pid, hosted.shard, hosted.timer.due(now))
                except Exception:
                    log.exception("coordinator_timer_failed", coordinator=self.spec.name, partition=pid)
                    await trio.sleep(0.1)
                now = self._clock()
                deadline = self._plan(pid, deadlines)
                if deadline is not None and deadline <= now:
                    changed.set()  # still due (more work): go round again
            if changed.is_set():
                continue
            nearest = min(deadlines.values(), default=None)
            delay = 3600.0 if nearest is None else max(0.0, (nearest - self._clock()) / 1000)
            with trio.move_on_after(delay):
                await changed.wait()

    def _plan(self, pid: int, deadlines: dict[int, int]) -> int | None:
        """Read the earliest deadline of ``pid``'s shard into ``deadlines`` (dropped when
        it has none, or is no longer hosted) and return it."""
        hosted = self._hosted.get(pid)
        deadline = hosted.timer.next_deadline_ms() if hosted is not None and self._on_timers is not None else None
        if deadline is None:
            deadlines.pop(pid, None)
        else:
            deadlines[pid] = deadline
        return deadline


def _keep(live: dict[bytes, bytes], key: bytes, value: bytes | None) -> None:
    """The live record of ``key`` (moved to the end: live records keep the order of
    their latest writes, as a compacted log does)."""
    live.pop(key, None)
    if value is not None:
        live[key] = value


class RuntimeService(Generic[S]):
    """The lifecycle of a coordinator service built around a :class:`CoordinatorRuntime`
    (groups, transactions): load the partitions this broker leads, then run the runtime
    in a nursery the service keeps for its own background tasks."""

    runtime: CoordinatorRuntime[S]
    _nursery: trio.Nursery | None

    async def load(self) -> None:
        """Load every partition of the service's topic this broker leads (start-up)."""
        await self.runtime.load_led()

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            await nursery.start(self.runtime.run)
            task_status.started()
            try:
                await trio.sleep_forever()
            finally:
                self._nursery = None
