"""The transaction coordinator: :class:`~broker.txn.shard.TxnShard` cores on the coordinator runtime.

One shard per ``__transaction_state`` partition (a transactional id lives in the
partition of Kafka's hash, :meth:`~broker.metadata.image.MetadataImage.coordinator_for`),
loaded on the broker leading that partition by replaying its records, which are
Kafka's (``broker.txn.records``). The topic is keyed state: the runtime keeps the
newest record per transactional id and bounds the log by rewriting them.

Every operation runs its pure core and then :meth:`TransactionCoordinator._commit`:

1. the result's records are replayed into the core at once (so the next
   operation on the shard sees them, in the order they reach the log), appended
   as one batch and awaited until durable (what ``acks=all`` promises);
2. only then does the client get its answer, and only then are the markers of
   a transaction that moved to PrepareCommit/PrepareAbort sent: a marker never
   reaches a partition before the record naming it is durable, so a coordinator
   restarting after ``kill -9`` knows every marker it may have written. EndTxn
   answers once the markers are durable and the Complete record is in the log
   (waiting at most ``END_TXN_WAIT_MS``), where Kafka answers right after the
   Prepare record: its markers usually land within a millisecond, ours need an
   fsync, and a client that starts its next transaction (or aborts) while the
   previous one is still preparing gets CONCURRENT_TRANSACTIONS or, for an
   EndTxn of transaction version 2, PRODUCER_FENCED;
3. if the append or the wait fails, the shard is replayed from its log (the
   log is the truth; the in-memory state may be ahead of it) and the client
   gets COORDINATOR_NOT_AVAILABLE or NOT_COORDINATOR to retry. The replayed log
   may end in that very record, not yet committed: an operation that writes
   nothing (a retried AddPartitionsToTxn, a verification, the markers a load
   finds to send) answers only once the log is committed up to its end.

Markers are written by background tasks (one per ending transaction) through
:class:`~broker.txn.markers.MarkerWriter`, to the partition leaders through the
replica layer, and to ``__consumer_offsets`` through the group coordinator.
Partitions that are done (written, or no longer existing) are reported to the
core (``markers_written``); once none is left, the CompleteCommit/CompleteAbort
record is written. Retriable errors are retried with a growing pause (100 ms to
2 s); INVALID_PRODUCER_EPOCH or TRANSACTION_COORDINATOR_FENCED from a partition
mean a newer coordinator owns the transaction: sending stops, as in Kafka.

Timers: transaction timeouts (abort of a transaction older than its
``transaction.timeout.ms``: the producer is fenced and its transaction aborted)
and ``transactional.id.expiration.ms`` run from the runtime's timer task at
their deadline. After a load, transactions left in PrepareCommit/PrepareAbort
get their markers again (the load leaves a result that the timer task commits).

Placement assumes nothing about the number of nodes: a transactional id whose
partition another broker leads gets NOT_COORDINATOR. In a cluster (``peers``),
markers for partitions led by other brokers go there as WriteTxnMarkers, and a
KIP-890 verification for a transactional id coordinated elsewhere goes there
as AddPartitionsToTxn (:mod:`broker.txn.remote`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

import structlog
import trio

from broker.config.services import TxnSettings
from broker.coordinator.runtime import CoordinatorRuntime, CoordinatorSpec, DueTasks, RuntimeService, append_error
from broker.coordinator.timer import CoordinatorTimer
from broker.metadata.image import NO_LEADER
from broker.metadata.source import MetadataSource
from broker.protocol.errors import ErrorCode, KafkaError
from broker.replica.interbroker import BrokerPeers
from broker.replica.manager import ReplicaManager
from broker.txn import records as txn_records
from broker.txn.markers import MarkerWriter, OffsetsMarkers
from broker.txn.records import TopicPartition
from broker.txn.remote import RoutedMarkers, coordinator_node, verify_or_add_remote
from broker.txn.shard import (
    TV_0,
    DescribedTxn,
    EndTxnResult,
    InitProducerIdResult,
    ListedTxn,
    ListFilter,
    MarkerBatch,
    ProducerIdSource,
    TxnConfig,
    TxnResult,
    TxnShard,
)

__all__ = ["TOPIC", "TransactionCoordinator", "TxnShardHost", "txn_runtime_spec"]

log = structlog.get_logger("sharebroker.txn")

TOPIC = "__transaction_state"
# Kafka's topic configs for __transaction_state: compacted, batches stored as
# written, min.insync.replicas from transaction.state.log.min.isr.
TOPIC_CONFIGS = {"cleanup.policy": "compact", "compression.type": "producer", "min.insync.replicas": "1"}
# Kafka's transaction.state.log append timeout (request.timeout.ms for the coordinator's writes).
WRITE_TIMEOUT_MS = 5000
# Pause between marker attempts for partitions that answered a retriable error.
MARKER_RETRY_MIN_S = 0.1
MARKER_RETRY_MAX_S = 2.0
# EndTxn answers once the transaction's markers are written (its Complete record
# appended), waiting at most this long: the client's next call then finds the id
# ready instead of CONCURRENT_TRANSACTIONS. Past it (a partition unavailable), the
# answer goes out with the markers still pending, as Kafka answers.
END_TXN_WAIT_MS = 5000

# Marker outcomes: done (the partition needs nothing more) and "a newer coordinator owns it".
_MARKER_DONE = (ErrorCode.NONE, ErrorCode.UNSUPPORTED_FOR_MESSAGE_FORMAT, ErrorCode.UNSUPPORTED_VERSION)
_MARKER_FENCED = (ErrorCode.INVALID_PRODUCER_EPOCH, ErrorCode.TRANSACTION_COORDINATOR_FENCED)
_MARKER_FATAL = (
    ErrorCode.CORRUPT_MESSAGE,
    ErrorCode.MESSAGE_TOO_LARGE,
    ErrorCode.RECORD_LIST_TOO_LARGE,
    ErrorCode.INVALID_REQUIRED_ACKS,
)


def txn_runtime_spec(settings: TxnSettings) -> CoordinatorSpec:
    configs = dict(TOPIC_CONFIGS)
    configs["segment.bytes"] = str(settings.log_segment_bytes)
    configs["min.insync.replicas"] = str(settings.log_min_isr)
    return CoordinatorSpec(
        name="transaction",
        topic=TOPIC,
        num_partitions=settings.log_num_partitions,
        replication_factor=settings.log_replication_factor,
        topic_configs=configs,
        write_timeout_ms=WRITE_TIMEOUT_MS,
        compacted=True,
    )


class TxnShardHost:
    """The runtime's shard: a :class:`TxnShard`, whose timers are in the shard's
    timer, which also runs what the load left to do."""

    def __init__(self, core: TxnShard, timer: CoordinatorTimer) -> None:
        self.core = core
        self._after_load = timer.queue("load")

    def load_record(self, offset: int, key: bytes | None, value: bytes | None) -> None:
        if key is None:
            return
        self.core.replay(key, value)

    def on_loaded(self, now_ms: int) -> None:
        result = self.core.on_loaded(now_ms)
        if result.records or result.markers:
            # Markers and Complete records of transactions found preparing: the timer
            # task commits them at once (the runtime's on_loaded cannot wait for writes).
            self._after_load.schedule("markers", now_ms, lambda now: result)


class TransactionCoordinator(RuntimeService[TxnShardHost]):
    def __init__(
        self,
        *,
        metadata: MetadataSource,
        replicas: ReplicaManager,
        settings: TxnSettings,
        producer_ids: ProducerIdSource,
        offsets: OffsetsMarkers,
        offsets_partitions: Callable[[], int],
        clock: Callable[[], int],
        runtime_spec: CoordinatorSpec | None = None,
        peers: BrokerPeers | None = None,
        node_id: int | None = None,
    ) -> None:
        self._metadata = metadata
        self._replicas = replicas
        self._producer_ids = producer_ids
        self._offsets_partitions = offsets_partitions
        self.clock = clock
        self.config = TxnConfig.from_settings(settings)
        # ``local_markers`` writes what this broker leads (WriteTxnMarkers from other
        # brokers); ``markers``, the coordinator's own, go wherever their partitions are led.
        self.local_markers = MarkerWriter(replicas, offsets, clock)
        self._peers = peers
        self._node_id = node_id
        self.markers: MarkerWriter | RoutedMarkers = self.local_markers
        if peers is not None:
            assert node_id is not None
            self.markers = RoutedMarkers(self.local_markers, metadata, peers, node_id=node_id)
        self.runtime: CoordinatorRuntime[TxnShardHost] = CoordinatorRuntime(
            runtime_spec or txn_runtime_spec(settings),
            new_shard=self._new_shard,
            metadata=metadata,
            replicas=replicas,
            clock=clock,
            on_timers=self._on_timers,
        )
        self._nursery: trio.Nursery | None = None
        # (partition, transactional id, producer id, epoch) of marker tasks running: the
        # shard they write for, and the event set once the Complete record is in the log.
        self._sending: dict[tuple[int, str, int, int], tuple[TxnShardHost, trio.Event]] = {}

    def set_transaction_version(self, level: int) -> None:
        """The finalized transaction.version changed (UpdateFeatures): every shard follows."""
        if level == self.config.transaction_version:
            return
        self.config = dataclasses.replace(self.config, transaction_version=level)
        for _, host in self.runtime.loaded():
            host.core.set_transaction_version(level)

    @property
    def transaction_version(self) -> int:
        """The finalized transaction.version level (ApiVersions, the coordinator's own aborts)."""
        return self.config.transaction_version

    def _new_shard(self, pid: int, timer: CoordinatorTimer) -> TxnShardHost:
        partition = self._replicas.partition(TOPIC, pid)
        # Kafka's coordinator epoch is the leader epoch of the __transaction_state partition.
        coordinator_epoch = max(partition.leader_epoch, 0) if partition is not None else 0
        config = dataclasses.replace(self.config, offsets_topic_partitions=self._offsets_partitions())
        core = TxnShard(pid, coordinator_epoch, config, self._producer_ids, timer=timer.queue("transactions"))
        return TxnShardHost(core, timer)

    # --- lifecycle -------------------------------------------------------------------

    # --- routing ---------------------------------------------------------------------

    def partition_for(self, transactional_id: str) -> int:
        return self.runtime.partition_for(transactional_id)

    async def _shard(self, transactional_id: str, *, create: bool = True) -> tuple[int, TxnShardHost]:
        pid = self.runtime.partition_for(transactional_id)
        return pid, await self.runtime.get_shard(pid, create=create)

    def shards(self) -> list[tuple[int, TxnShardHost]]:
        return list(self.runtime.loaded())

    # --- the write path --------------------------------------------------------------

    async def _commit(
        self,
        pid: int,
        host: TxnShardHost,
        result: TxnResult[Any],
        on_appended: Callable[[], None] | None = None,
    ) -> ErrorCode:
        """Replay, append and await the result's records; then send its markers."""
        if result.records:
            for key, value in result.records:
                host.core.replay(key, value)
            try:
                partition, _ = self.runtime.append(pid, result.records)
                if on_appended is not None:
                    on_appended()
                await self.runtime.wait_durable([partition])
            except KafkaError as exc:
                log.warning("transaction_log_write_failed", partition=pid, error=str(exc))
                await self._reload(pid)
                return append_error(exc)
            await self.runtime.maybe_rewrite(pid)
        else:
            # Markers a load left to send are sent again by the next load: a shard that
            # cannot tell they are safe reloads. Answers are simply retried.
            error = await self._committed(pid, reload=bool(result.markers))
            if error:
                return error
        for batch in result.markers:
            self._send_markers(pid, host, batch)
        return ErrorCode.NONE

    async def _committed(self, pid: int, *, reload: bool) -> ErrorCode:
        """Wait until the shard's log is committed to its end, before answering (or
        sending markers) from a result that wrote nothing. The state it was computed
        from may hold records above the high watermark (a write still replicating, or
        one that timed out and was replayed by a reload) that a new leader can still
        truncate: an AddPartitionsToTxn retried after a timeout, a partition leader's
        verification or a load's markers acting on them could let records into a
        transaction no later coordinator knows of. Kafka's runtime holds such answers
        until its last write is committed, too. Costs nothing when no write is pending.
        Past the write timeout the answer is an error to retry; with ``reload`` (markers
        a load left to send) the shard is reloaded, and the next load tries again."""
        try:
            await self.runtime.wait_committed(pid)
        except KafkaError as exc:
            log.warning("transaction_log_not_committed", partition=pid, error=str(exc))
            if reload:
                await self._reload(pid)
            return append_error(exc)
        return ErrorCode.NONE

    async def _reload(self, pid: int) -> None:
        try:
            await self.runtime.reload(pid)
        except KafkaError as exc:
            log.warning("transaction_shard_reload_failed", partition=pid, error=str(exc))

    def _send_markers(self, pid: int, host: TxnShardHost, batch: MarkerBatch) -> None:
        """Start the task writing a transaction's markers, unless one runs for this shard.

        A task of a shard since reloaded stops at its next step without finishing (the
        new load sends what is left), so it does not count; and a shard reloaded while
        this result waited sends nothing (its successor does)."""
        key = (pid, batch.transactional_id, batch.producer_id, batch.producer_epoch)
        running = self._sending.get(key)
        if running is not None and running[0] is host:
            return
        if not self._hosting(pid, host):
            return
        if self._nursery is None:
            log.warning("transaction_markers_not_started", transactional_id=batch.transactional_id)
            return
        done = trio.Event()
        self._sending[key] = (host, done)
        self._nursery.start_soon(self._marker_task, key, pid, host, batch, done)

    async def _marker_task(
        self, key: tuple[int, str, int, int], pid: int, host: TxnShardHost, batch: MarkerBatch, done: trio.Event
    ) -> None:
        try:
            await self._write_markers(pid, host, batch, done.set)
        except Exception:
            log.exception("transaction_markers_failed", transactional_id=batch.transactional_id)
        finally:
            running = self._sending.get(key)
            if running is not None and running[1] is done:
                del self._sending[key]
            done.set()

    async def _await_markers(self, pid: int, batches: Iterable[MarkerBatch]) -> None:
        """Wait (at most END_TXN_WAIT_MS) until these transactions completed."""
        events = [
            running[1]
            for batch in batches
            if (running := self._sending.get((pid, batch.transactional_id, batch.producer_id, batch.producer_epoch)))
            is not None
        ]
        with trio.move_on_after(END_TXN_WAIT_MS / 1000):
            for event in events:
                await event.wait()

    def _refused(self, op: str, transactional_id: str, code: ErrorCode, producer_id: int, producer_epoch: int) -> None:
        """A refused operation, at debug level (what the id looked like)."""
        meta = self.metadata(transactional_id)
        log.debug(
            "transaction_request_refused",
            op=op,
            transactional_id=transactional_id,
            error=ErrorCode(code).name,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            state=None if meta is None else meta.state.label,
            current_producer_id=None if meta is None else meta.producer_id,
            current_epoch=None if meta is None else meta.producer_epoch,
        )

    def _hosting(self, pid: int, host: TxnShardHost) -> bool:
        return self.runtime.is_loaded(pid) and self.runtime.shard(pid) is host

    async def _write_markers(
        self, pid: int, host: TxnShardHost, batch: MarkerBatch, completed: Callable[[], None]
    ) -> None:
        remaining = set(batch.partitions)
        pause = MARKER_RETRY_MIN_S
        while remaining and self._hosting(pid, host):
            results = await self.markers.write(
                batch.producer_id,
                batch.producer_epoch,
                batch.coordinator_epoch,
                batch.committed,
                batch.transaction_version,
                remaining,
            )
            image = self._metadata.image
            done: list[TopicPartition] = []
            stopped: list[tuple[TopicPartition, ErrorCode]] = []
            for tp, code in results.items():
                if code in _MARKER_DONE or image.partition(tp.topic, tp.partition) is None:
                    done.append(tp)  # written, or the partition is gone (Kafka drops it too)
                elif code in _MARKER_FENCED or code in _MARKER_FATAL:
                    stopped.append((tp, ErrorCode(code)))
            remaining.difference_update(done)
            if not self._hosting(pid, host):
                return
            if done:
                result = host.core.markers_written(
                    self.clock(), batch.transactional_id, batch.producer_id, batch.producer_epoch, done
                )
                if result.records and await self._commit(pid, host, result, completed):
                    return  # reloaded: the load resends what is left
            if stopped:
                # A newer coordinator owns the transaction (or the partition can never take
                # the marker): stop, as Kafka does; a reload of the shard sends them again.
                for tp, code in stopped:
                    log.error(
                        "transaction_markers_stopped",
                        transactional_id=batch.transactional_id,
                        producer_id=batch.producer_id,
                        producer_epoch=batch.producer_epoch,
                        topic=tp.topic,
                        partition=tp.partition,
                        error=code.name,
                    )
                return
            if remaining:
                log.info(
                    "transaction_markers_retry",
                    transactional_id=batch.transactional_id,
                    partitions=len(remaining),
                    errors=sorted({ErrorCode(c).name for tp, c in results.items() if tp in remaining}),
                )
                await trio.sleep(pause)
                pause = min(pause * 2, MARKER_RETRY_MAX_S)

    async def _on_timers(self, pid: int, host: TxnShardHost, due: DueTasks) -> None:
        """The shard's due timers, one by one: what a load left to do, timed-out
        transactions aborted, idle ids expired."""
        now = self.clock()
        for _, _, task in due:
            if not self._hosting(pid, host):
                return  # reloaded after a failed write: the load starts again
            result = task(now)
            if result.records or result.markers:
                await self._commit(pid, host, result)

    # --- operations ------------------------------------------------------------------

    async def init_producer_id(
        self,
        transactional_id: str,
        timeout_ms: int,
        producer_id: int = -1,
        producer_epoch: int = -1,
        *,
        enable_2pc: bool = False,
        keep_prepared_txn: bool = False,
    ) -> InitProducerIdResult:
        try:
            pid, host = await self._shard(transactional_id)
        except KafkaError as exc:
            return InitProducerIdResult(exc.code)
        result = host.core.init_producer_id(
            self.clock(),
            transactional_id,
            timeout_ms,
            producer_id,
            producer_epoch,
            enable_2pc=enable_2pc,
            keep_prepared_txn=keep_prepared_txn,
        )
        error = await self._commit(pid, host, result)
        return InitProducerIdResult(error) if error else result.answer()

    async def add_partitions(
        self,
        transactional_id: str,
        producer_id: int,
        producer_epoch: int,
        partitions: Iterable[TopicPartition],
        transaction_version: int = TV_0,
    ) -> ErrorCode:
        try:
            pid, host = await self._shard(transactional_id)
        except KafkaError as exc:
            return exc.code
        result = host.core.add_partitions(
            self.clock(), transactional_id, producer_id, producer_epoch, partitions, transaction_version
        )
        if result.answer():
            self._refused("add_partitions", transactional_id, result.answer(), producer_id, producer_epoch)
        error = await self._commit(pid, host, result)
        return error or result.answer()

    async def verify_partitions(
        self, transactional_id: str, producer_id: int, producer_epoch: int, partitions: Iterable[TopicPartition]
    ) -> dict[TopicPartition, ErrorCode]:
        wanted = [TopicPartition(*tp) for tp in partitions]
        try:
            pid, host = await self._shard(transactional_id)
        except KafkaError as exc:
            return dict.fromkeys(wanted, exc.code)
        result = host.core.verify_partitions(transactional_id, producer_id, producer_epoch, wanted)
        error = await self._commit(pid, host, result)
        return dict.fromkeys(wanted, error) if error else result.answer()

    async def verify_or_add(
        self,
        transactional_id: str,
        producer_id: int,
        producer_epoch: int,
        partitions: Iterable[TopicPartition],
        *,
        add: bool,
    ) -> dict[TopicPartition, ErrorCode]:
        """A partition leader's question before a transactional append (KIP-890): is each
        partition in the producer's open transaction (``add`` False, part 1), or add it
        (``add`` True, transaction version 2, part 2). Errors per partition."""
        wanted = [TopicPartition(*tp) for tp in partitions]
        if self._peers is not None:
            node = coordinator_node(self._metadata, transactional_id)
            if node == NO_LEADER:
                return dict.fromkeys(wanted, ErrorCode.COORDINATOR_NOT_AVAILABLE)
            if node != self._node_id:
                return await verify_or_add_remote(
                    self._peers, node, transactional_id, producer_id, producer_epoch, wanted, add=add
                )
        if not add:
            return await self.verify_partitions(transactional_id, producer_id, producer_epoch, wanted)
        code = await self.add_partitions(transactional_id, producer_id, producer_epoch, wanted, 2)
        return dict.fromkeys(wanted, code)

    async def add_offsets(
        self, transactional_id: str, producer_id: int, producer_epoch: int, group_id: str
    ) -> ErrorCode:
        try:
            pid, host = await self._shard(transactional_id)
        except KafkaError as exc:
            return exc.code
        result = host.core.add_offsets(self.clock(), transactional_id, producer_id, producer_epoch, group_id)
        error = await self._commit(pid, host, result)
        return error or result.answer()

    async def end_txn(
        self,
        transactional_id: str,
        producer_id: int,
        producer_epoch: int,
        committed: bool,
        transaction_version: int = TV_0,
    ) -> EndTxnResult:
        try:
            pid, host = await self._shard(transactional_id)
        except KafkaError as exc:
            return EndTxnResult(exc.code)
        result = host.core.end_txn(
            self.clock(), transactional_id, producer_id, producer_epoch, committed, transaction_version
        )
        answer = result.answer()
        if answer.error:
            op = "commit" if committed else "abort"
            self._refused(op, transactional_id, answer.error, producer_id, producer_epoch)
        error = await self._commit(pid, host, result)
        if error:
            return EndTxnResult(error)
        await self._await_markers(pid, result.markers)
        return answer

    async def describe(self, transactional_id: str) -> DescribedTxn:
        try:
            _, host = await self._shard(transactional_id, create=False)
        except KafkaError as exc:
            return DescribedTxn(transactional_id, exc.code)
        return host.core.describe(transactional_id)

    def list_transactions(self, filters: ListFilter) -> list[ListedTxn]:
        now = self.clock()
        return [row for _, host in self.shards() for row in host.core.list_transactions(now, filters)]

    def metadata(self, transactional_id: str) -> txn_records.TxnMetadata | None:
        """The state of ``transactional_id`` if its shard is loaded here (tests, tools)."""
        pid = self.runtime.partition_for(transactional_id)
        if not self.runtime.is_loaded(pid):
            return None
        return self.runtime.shard(pid).core.metadata(transactional_id)
