"""The transaction coordinator for one partition of ``__transaction_state``.

A :class:`TxnShard` owns the transactional ids that hash to its partition
(:func:`partition_for`, Kafka's ``abs(transactionalId.hashCode) % partitions``)
and follows Apache Kafka 4.4's ``TransactionCoordinator`` /
``TransactionMetadata`` / ``TransactionStateManager``.

Pure: no I/O, no trio, no clock. Time arrives as ``now_ms``; new producer ids
come from a :class:`ProducerIdSource` given at construction.

How it is driven (the coordinator runtime's contract)
-----------------------------------------------------
* Every operation returns a :class:`TxnResult`, the coordinators'
  :class:`~broker.coordinator.result.CoordinatorResult` with ``markers``:
  ``records`` to append to the shard's partition (``(key, value)``, value None =
  tombstone), the ``response`` for the client, and ``markers`` to write. The operation does not
  change the persisted state itself: the runtime calls :meth:`TxnShard.replay`
  on each returned record (exactly as at load), appends them, waits until they
  are durable, and only then sends the response **and the markers**. (A marker
  must never reach a partition before the PrepareCommit/PrepareAbort naming it
  is durable: after a crash the coordinator would not know about it.) If the
  append fails the runtime must reload the shard from the log.
* In-memory-only state changes are made by the operation itself: the epoch of the
  producer's previous InitProducerId (Kafka's ``lastProducerEpoch``, which is
  not in the record and is -1 after a load), and which partitions still wait
  for their marker.
* Timers (transaction timeouts and transactional-id expiration) are tasks in the
  keyed timer queue the runtime gives, one per id; :meth:`TxnShard.tick` runs the
  due ones by hand.
* :meth:`TxnShard.snapshot` gives records that rebuild the state from nothing;
  :meth:`TxnShard.on_loaded` after replay at load returns the markers of
  transactions left in PrepareCommit/PrepareAbort.

The marker seam
---------------
When a transaction moves to PrepareCommit/PrepareAbort the result carries a
:class:`MarkerBatch` (producer id and epoch, commit or abort, coordinator
epoch, transaction version, partitions). The shell writes a COMMIT/ABORT
control batch to each partition (``broker.protocol.records.build_end_txn_marker``,
appended as the coordinator would through WriteTxnMarkers: the partition checks
epochs, see ``broker.log.producer_state``). As partitions are done it calls
:meth:`TxnShard.markers_written`; once none is left that returns the
CompleteCommit/CompleteAbort record. A partition that no longer exists counts as
done (Kafka drops it too); retriable write errors are the shell's to retry
(:meth:`TxnShard.pending_markers` lists what is outstanding). A partition that
refuses the marker with INVALID_PRODUCER_EPOCH or TRANSACTION_COORDINATOR_FENCED
means a newer coordinator owns the id: Kafka stops sending, and so should the
shell (the shard will be unloaded). A transaction ending with no partitions
(a transaction-version-2 abort with nothing open) writes its Prepare and
Complete records in one result and has no markers.

Transitions go through ``broker.txn.states.TRANSITIONS``; the checks on the
producer id and epoch that come first are in the ``_classify_*`` methods.

Where we differ from Kafka
--------------------------
* Operations of one shard run one at a time and see the state of the records
  returned before them at once (replayed before they are durable), where Kafka
  answers CONCURRENT_TRANSACTIONS while a write is pending. A client never sees
  a state that is not durable: answers wait for durability.
* Timed-out transactions are aborted and expired ids removed at their
  deadline, not at the next scan (Kafka scans every 10 s and every hour).
* With the epoch spent, an InitProducerId whose expected epoch is not the
  current one gets PRODUCER_FENCED (or the current epoch for a retry of the
  previous call) where Kafka fails with an internal error.
* ListTransactions patterns are Python regular expressions (Kafka: RE2/J); they
  agree on the usual syntax.
"""

from __future__ import annotations

import dataclasses
import re
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import NamedTuple, Protocol, TypeVar

from broker.config.services import TxnSettings
from broker.coordinator.result import CoordinatorResult
from broker.coordinator.timer import TimerQueue
from broker.metadata.image import coordinator_partition
from broker.protocol.errors import ErrorCode, KafkaError
from broker.txn import records
from broker.txn.records import NO_PRODUCER_EPOCH, NO_PRODUCER_ID, TopicPartition, TxnMetadata
from broker.txn.states import TRANSITIONS, Action, Event, TxnState, View, check_transition, view_of

__all__ = [
    "OFFSETS_TOPIC",
    "DescribedTxn",
    "EndTxnResult",
    "InitProducerIdResult",
    "ListFilter",
    "ListedTxn",
    "MarkerBatch",
    "ProducerIdSource",
    "TxnConfig",
    "TxnResult",
    "TxnShard",
    "list_filter",
    "partition_for",
]

OFFSETS_TOPIC = "__consumer_offsets"
INT16_MAX = 2**15 - 1
INT32_MAX = 2**31 - 1
# Kafka's TransactionVersion feature levels: 2 bumps the epoch at every transaction end (KIP-890 part 2).
TV_0, TV_2 = 0, 2

R = TypeVar("R")


def partition_for(transactional_id: str, partitions: int) -> int:
    """The ``__transaction_state`` partition of ``transactional_id``
    (``Utils.abs(transactionalId.hashCode) % transaction.state.log.num.partitions``)."""
    return coordinator_partition(transactional_id, partitions)


def _epoch_exhausted(epoch: int) -> bool:
    """Kafka keeps Short.MAX_VALUE for fencing: a producer never gets an epoch above MAX-1."""
    return epoch >= INT16_MAX - 1


class ProducerIdSource(Protocol):
    """Hands out producer ids unique across the cluster and across restarts.

    May raise KafkaError (e.g. COORDINATOR_LOAD_IN_PROGRESS while no block of ids
    is available); the operation then answers that error.
    """

    def allocate(self) -> int: ...


@dataclass(frozen=True, slots=True)
class TxnConfig:
    """The broker settings the coordinator uses (Kafka's names in the comments)."""

    max_timeout_ms: int = 900_000  # transaction.max.timeout.ms
    id_expiration_ms: int = 604_800_000  # transactional.id.expiration.ms (7 days)
    # The finalized transaction.version feature level: what the coordinator uses for
    # the aborts it starts itself and which value version it writes. 2 for a new 4.x cluster.
    transaction_version: int = TV_2
    two_phase_commit_enabled: bool = False  # transaction.two.phase.commit.enable (KIP-939)
    offsets_topic_partitions: int = 50  # offsets.topic.num.partitions, for AddOffsetsToTxn

    @classmethod
    def from_settings(cls, settings: TxnSettings) -> TxnConfig:
        """Build from the broker's transaction settings."""
        return cls(
            max_timeout_ms=settings.max_timeout_ms,
            id_expiration_ms=settings.id_expiration_ms,
            transaction_version=settings.version,
            two_phase_commit_enabled=settings.two_phase_commit_enable,
            offsets_topic_partitions=settings.offsets_topic_num_partitions,
        )


@dataclass(frozen=True, slots=True)
class MarkerBatch:
    """Markers to write: one control batch per partition, all with these fields.

    ``transaction_version`` goes into WriteTxnMarkers v2 (KIP-1228): at 2 a
    partition accepts the marker only with an epoch above the producer's.
    """

    transactional_id: str
    producer_id: int
    producer_epoch: int
    committed: bool
    coordinator_epoch: int
    transaction_version: int
    partitions: frozenset[TopicPartition]


@dataclass(slots=True)
class TxnResult(CoordinatorResult[R]):
    """What an operation returns: records to append, the client's answer, and the
    markers to write once the records are durable."""

    markers: list[MarkerBatch] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class InitProducerIdResult:
    error: ErrorCode
    producer_id: int = NO_PRODUCER_ID
    producer_epoch: int = NO_PRODUCER_EPOCH


@dataclass(frozen=True, slots=True)
class EndTxnResult:
    """EndTxn's answer; v5+ also carries the producer id and epoch to use next."""

    error: ErrorCode
    producer_id: int = NO_PRODUCER_ID
    producer_epoch: int = NO_PRODUCER_EPOCH


@dataclass(frozen=True, slots=True)
class DescribedTxn:
    """One DescribeTransactions entry."""

    transactional_id: str
    error: ErrorCode
    state: str = ""
    timeout_ms: int = 0
    start_ms: int = -1
    producer_id: int = NO_PRODUCER_ID
    producer_epoch: int = NO_PRODUCER_EPOCH
    # For a transaction preparing to end: only the partitions still without a marker.
    partitions: frozenset[TopicPartition] = frozenset()


class ListedTxn(NamedTuple):
    """One ListTransactions entry."""

    transactional_id: str
    producer_id: int
    state: str


@dataclass(frozen=True, slots=True)
class ListFilter:
    """The filters of a ListTransactions request, parsed once for every shard.

    ``states`` None: no state filter; an empty set: only unknown states were
    asked for, so nothing matches.
    """

    states: frozenset[TxnState] | None = None
    producer_ids: frozenset[int] = frozenset()
    duration_ms: int = -1
    pattern: re.Pattern[str] | None = None
    unknown_states: tuple[str, ...] = ()
    error: ErrorCode = ErrorCode.NONE
    error_message: str | None = None


def list_filter(
    states: Iterable[str] = (),
    producer_ids: Iterable[int] = (),
    duration_ms: int = -1,
    pattern: str | None = None,
) -> ListFilter:
    """Parse ListTransactions filters: unknown state names are reported back
    (``UnknownStateFilters``); a pattern that does not compile is
    INVALID_REGULAR_EXPRESSION (KIP-1152)."""
    names = list(states)
    known = frozenset(s for s in (TxnState.from_label(n) for n in names) if s is not None)
    unknown = tuple(n for n in names if TxnState.from_label(n) is None)
    compiled = None
    if pattern:
        try:
            compiled = re.compile(pattern)
        except re.error as exc:
            return ListFilter(
                error=ErrorCode.INVALID_REGULAR_EXPRESSION,
                error_message=f"Transaction ID pattern `{pattern}` is not a valid regular expression: {exc}.",
            )
    return ListFilter(
        states=known if names else None,
        producer_ids=frozenset(producer_ids),
        duration_ms=duration_ms,
        pattern=compiled,
        unknown_states=unknown,
    )


class _Expected(NamedTuple):
    producer_id: int
    epoch: int


@dataclass(slots=True)
class _Entry:
    """A transactional id as the shard holds it: the last record's fields plus memory."""

    meta: TxnMetadata
    last_epoch: int = NO_PRODUCER_EPOCH  # Kafka's lastProducerEpoch; not persisted
    # PrepareCommit/PrepareAbort: partitions still waiting for their marker, and the
    # time the Complete record will carry (Kafka computes it when the Prepare is written).
    awaiting: set[TopicPartition] = field(default_factory=set)
    prepared_ms: int = -1


@dataclass(slots=True)
class _Memory:
    """In-memory fields an operation hands to the replay of its own record."""

    last_epoch: int
    prepared_ms: int = -1


class TxnShard:
    """Transaction coordinator state of one ``__transaction_state`` partition."""

    def __init__(
        self,
        partition: int,
        coordinator_epoch: int,
        config: TxnConfig,
        producer_ids: ProducerIdSource,
        *,
        timer: TimerQueue[Callable[[int], TxnResult[None]]] | None = None,
    ) -> None:
        self.partition = partition
        self.coordinator_epoch = coordinator_epoch
        self.config = config
        self._producer_ids = producer_ids
        self._value_version = records.value_version(config.transaction_version)
        self._entries: dict[str, _Entry] = {}
        # Per id, the in-memory fields of records returned but not yet replayed, in order.
        self._memory: dict[str, deque[_Memory]] = {}
        # transactional id -> its timeout or expiration, whichever its state has.
        self._timers: TimerQueue[Callable[[int], TxnResult[None]]] = timer if timer is not None else TimerQueue()

    def set_transaction_version(self, level: int) -> None:
        """The finalized transaction.version changed (UpdateFeatures): later records and the
        coordinator's own aborts follow it."""
        self.config = dataclasses.replace(self.config, transaction_version=level)
        self._value_version = records.value_version(level)

    # ================================================================== replay

    def replay(self, key: bytes, value: bytes | None) -> None:
        """Apply one ``__transaction_state`` record (tombstone: value None).

        Records of another key type or a newer value version are skipped, as Kafka
        does; ProtocolError for bytes that do not parse. State transitions are not
        checked here: a compacted log legitimately skips intermediate states. A
        record in state Dead deletes the id like a tombstone.
        """
        try:
            transactional_id, meta = records.decode(key, value)
        except records.UnknownRecord:
            return
        memory = self._take_memory(transactional_id)
        if meta is None or meta.state is TxnState.DEAD:
            self._entries.pop(transactional_id, None)
            self._timers.cancel(transactional_id)
            return
        if meta.state is TxnState.PREPARE_EPOCH_FENCE:
            return  # never written by Kafka: a pending state only; nothing to apply
        entry = _Entry(meta, NO_PRODUCER_EPOCH if memory is None else memory.last_epoch)
        if meta.state.is_prepare:
            entry.awaiting = set(meta.partitions)
            entry.prepared_ms = -1 if memory is None else memory.prepared_ms
        self._entries[transactional_id] = entry
        deadline = self._deadline(entry)
        if deadline is None:
            self._timers.cancel(transactional_id)
        elif self._timers.deadline(transactional_id) != deadline:
            self._timers.schedule(transactional_id, deadline, partial(self._on_deadline, transactional_id))

    def snapshot(self) -> list[tuple[bytes, bytes | None]]:
        """Records that rebuild the persisted state from nothing (one per id)."""
        return [self._record(entry.meta) for entry in self._entries.values()]

    def on_loaded(self, now_ms: int) -> TxnResult[None]:
        """After the load: send the markers of transactions left in PrepareCommit or
        PrepareAbort (their Complete records will carry ``now_ms``, as in Kafka)."""
        markers: list[MarkerBatch] = []
        completions: list[tuple[bytes, bytes | None]] = []
        for entry in self._entries.values():
            if not entry.meta.state.is_prepare:
                continue
            entry.prepared_ms = now_ms
            if entry.awaiting:
                markers.append(self._marker_batch(entry.meta, frozenset(entry.awaiting)))
            else:
                completions.append(self._complete(entry, now_ms))
        return TxnResult(completions, None, markers)

    # ================================================================== queries

    def __contains__(self, transactional_id: str) -> bool:
        return transactional_id in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def metadata(self, transactional_id: str) -> TxnMetadata | None:
        """The persisted state of ``transactional_id`` (None: no state)."""
        entry = self._entries.get(transactional_id)
        return None if entry is None else entry.meta

    def pending_markers(self) -> list[MarkerBatch]:
        """Markers still to write, for every transaction preparing to end."""
        return [
            self._marker_batch(e.meta, frozenset(e.awaiting))
            for e in self._entries.values()
            if e.meta.state.is_prepare and e.awaiting
        ]

    def describe(self, transactional_id: str) -> DescribedTxn:
        """DescribeTransactions for one id."""
        if not transactional_id:
            return DescribedTxn(transactional_id, ErrorCode.INVALID_REQUEST)
        entry = self._entries.get(transactional_id)
        if entry is None:
            return DescribedTxn(transactional_id, ErrorCode.TRANSACTIONAL_ID_NOT_FOUND)
        meta = entry.meta
        return DescribedTxn(
            transactional_id,
            ErrorCode.NONE,
            state=meta.state.label,
            timeout_ms=meta.timeout_ms,
            start_ms=meta.start_ms,
            producer_id=meta.producer_id,
            producer_epoch=meta.producer_epoch,
            partitions=frozenset(entry.awaiting) if meta.state.is_prepare else meta.partitions,
        )

    def list_transactions(self, now_ms: int, filters: ListFilter) -> list[ListedTxn]:
        """ListTransactions rows of this shard matching ``filters`` (Kafka's order of checks)."""
        out: list[ListedTxn] = []
        for transactional_id, entry in self._entries.items():
            meta = entry.meta
            if filters.producer_ids and meta.producer_id not in filters.producer_ids:
                continue
            if filters.states is not None and meta.state not in filters.states:
                continue
            if filters.duration_ms >= 0 and not now_ms - meta.start_ms > filters.duration_ms:
                continue
            if filters.pattern is not None and filters.pattern.fullmatch(transactional_id) is None:
                continue
            out.append(ListedTxn(transactional_id, meta.producer_id, meta.state.label))
        return out

    # ================================================================== InitProducerId

    def init_producer_id(
        self,
        now_ms: int,
        transactional_id: str,
        timeout_ms: int,
        producer_id: int = NO_PRODUCER_ID,
        producer_epoch: int = NO_PRODUCER_EPOCH,
        *,
        enable_2pc: bool = False,
        keep_prepared_txn: bool = False,
    ) -> TxnResult[InitProducerIdResult]:
        """InitProducerId (key 22) with a transactional id; v3+ may name the producer
        id and epoch the client holds (KIP-360), v6 asks for two-phase commit.

        Answers the new producer id and epoch; fences an older producer of the
        same id by bumping the epoch; aborts a transaction still open (answering
        CONCURRENT_TRANSACTIONS: the client retries); moves to a new producer id
        once the epoch is spent.
        """
        if (producer_id == NO_PRODUCER_ID) != (producer_epoch == NO_PRODUCER_EPOCH):
            return self._init_error(ErrorCode.INVALID_REQUEST)
        expected = None if producer_id == NO_PRODUCER_ID else _Expected(producer_id, producer_epoch)
        if not transactional_id:
            return self._init_error(ErrorCode.INVALID_REQUEST)
        if enable_2pc and not self.config.two_phase_commit_enabled:
            return self._init_error(ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED)
        if keep_prepared_txn:
            # Kafka 4.4 does not serve keeping a prepared transaction yet.
            return self._init_error(ErrorCode.UNSUPPORTED_VERSION)
        if enable_2pc:
            timeout_ms = INT32_MAX  # a two-phase-commit transaction never times out
        elif not 0 < timeout_ms <= self.config.max_timeout_ms:
            return self._init_error(ErrorCode.INVALID_TRANSACTION_TIMEOUT)
        entry = self._entries.get(transactional_id)
        if entry is not None and expected is not None and not self._valid_expected(entry, expected):
            return self._init_error(ErrorCode.PRODUCER_FENCED)
        outcome = TRANSITIONS[(self._view(entry), Event.INIT_PRODUCER_ID)]
        if outcome.action is Action.REFUSE:
            return self._init_error(outcome.error)
        if outcome.action is Action.FENCE:
            assert entry is not None
            recs, markers = self._fence(entry, now_ms)
            return TxnResult(recs, InitProducerIdResult(outcome.error), markers)
        if outcome.action is Action.CREATE:
            try:
                new_id = self._producer_ids.allocate()
            except KafkaError as exc:
                return self._init_error(exc.code)
            # A new id starts as Kafka's fresh metadata: epoch -1, then the usual bump to 0.
            template = TxnMetadata(
                transactional_id=transactional_id,
                producer_id=new_id,
                producer_epoch=NO_PRODUCER_EPOCH,
                state=TxnState.EMPTY,
                timeout_ms=timeout_ms,
                partitions=frozenset(),
                last_update_ms=now_ms,
                start_ms=-1,
            )
            return self._bump(_Entry(template), None, timeout_ms, expected, now_ms)
        assert outcome.action is Action.BUMP_EPOCH and entry is not None
        return self._bump(entry, entry.meta.state, timeout_ms, expected, now_ms)

    @staticmethod
    def _valid_expected(entry: _Entry, expected: _Expected) -> bool:
        """Kafka's isValidProducerId: the id is fresh, the producer id is the current
        one (its epoch is checked when bumping), or it is the previous one with a spent
        epoch (a retry of the call that moved to a new producer id)."""
        meta = entry.meta
        return (
            meta.producer_epoch == NO_PRODUCER_EPOCH
            or expected.producer_id == meta.producer_id
            or (expected.producer_id == meta.previous_producer_id and _epoch_exhausted(expected.epoch))
        )

    def _bump(
        self,
        entry: _Entry,
        old_state: TxnState | None,
        timeout_ms: int,
        expected: _Expected | None,
        now_ms: int,
    ) -> TxnResult[InitProducerIdResult]:
        meta = entry.meta
        epoch = meta.producer_epoch
        if _epoch_exhausted(epoch) and (expected is None or expected.epoch == epoch):
            try:
                new_id = self._producer_ids.allocate()
            except KafkaError as exc:
                return self._init_error(exc.code)
            producer_id, new_epoch = new_id, 0
            last_epoch = epoch if expected is not None else NO_PRODUCER_EPOCH
        elif expected is None:
            producer_id, new_epoch, last_epoch = meta.producer_id, epoch + 1, NO_PRODUCER_EPOCH
        elif not _epoch_exhausted(epoch) and (epoch == NO_PRODUCER_EPOCH or expected.epoch == epoch):
            # The producer carries on after an error and nobody fenced it.
            producer_id, new_epoch, last_epoch = meta.producer_id, epoch + 1, epoch
        elif expected.epoch == entry.last_epoch:
            # A retry of a call that already bumped: answer the same epoch again.
            producer_id, new_epoch, last_epoch = meta.producer_id, epoch, entry.last_epoch
        else:
            return self._init_error(ErrorCode.PRODUCER_FENCED)
        new = dataclasses.replace(
            meta,
            producer_id=producer_id,
            previous_producer_id=meta.producer_id,
            producer_epoch=new_epoch,
            state=TxnState.EMPTY,
            timeout_ms=timeout_ms,
            partitions=frozenset(),
            start_ms=-1,
            last_update_ms=now_ms,
        )
        record = self._transit(old_state, new, _Memory(last_epoch))
        return TxnResult([record], InitProducerIdResult(ErrorCode.NONE, producer_id, new_epoch))

    @staticmethod
    def _init_error(code: ErrorCode) -> TxnResult[InitProducerIdResult]:
        return TxnResult([], InitProducerIdResult(code))

    # ================================================================== AddPartitionsToTxn / AddOffsetsToTxn

    def add_partitions(
        self,
        now_ms: int,
        transactional_id: str,
        producer_id: int,
        producer_epoch: int,
        partitions: Iterable[TopicPartition],
        transaction_version: int = TV_0,
    ) -> TxnResult[ErrorCode]:
        """Add partitions to the producer's transaction (starting one if none is open).

        ``transaction_version``: 0 for a client's AddPartitionsToTxn v0-3 and for
        AddOffsetsToTxn; 2 for v4+, sent by a partition leader on behalf of a
        transaction-version-2 producer (KIP-890 part 2).
        """
        wanted = frozenset(TopicPartition(*tp) for tp in partitions)
        if not transactional_id:
            return TxnResult([], ErrorCode.INVALID_REQUEST)
        entry = self._entries.get(transactional_id)
        error = self._check_producer(entry, producer_id, producer_epoch)
        if error is not None:
            return TxnResult([], error)
        known = entry is not None and wanted <= entry.meta.partitions
        event = Event.ADD_KNOWN_PARTITIONS if known else Event.ADD_PARTITIONS
        outcome = TRANSITIONS[(self._view(entry), event)]
        if outcome.action is not Action.ADD:
            return TxnResult([], outcome.error)
        assert entry is not None
        meta = entry.meta
        starting = meta.state in (TxnState.EMPTY, TxnState.COMPLETE_COMMIT, TxnState.COMPLETE_ABORT)
        new = dataclasses.replace(
            meta,
            previous_producer_id=meta.producer_id,
            state=TxnState.ONGOING,
            partitions=meta.partitions | wanted,
            start_ms=now_ms if starting else meta.start_ms,
            last_update_ms=now_ms,
            client_version=transaction_version,
        )
        record = self._transit(meta.state, new, _Memory(entry.last_epoch))
        return TxnResult([record], ErrorCode.NONE)

    def add_offsets(
        self, now_ms: int, transactional_id: str, producer_id: int, producer_epoch: int, group_id: str
    ) -> TxnResult[ErrorCode]:
        """AddOffsetsToTxn (key 25): the group's ``__consumer_offsets`` partition joins
        the transaction, so its offset commits get the transaction's marker."""
        partition = coordinator_partition(group_id, self.config.offsets_topic_partitions)
        return self.add_partitions(
            now_ms, transactional_id, producer_id, producer_epoch, [TopicPartition(OFFSETS_TOPIC, partition)], TV_0
        )

    def verify_partitions(
        self, transactional_id: str, producer_id: int, producer_epoch: int, partitions: Iterable[TopicPartition]
    ) -> TxnResult[dict[TopicPartition, ErrorCode]]:
        """AddPartitionsToTxn v4+ with VerifyOnly (KIP-890 part 1): for each partition,
        NONE if it is in the producer's open transaction, else TRANSACTION_ABORTABLE.
        An error for the whole transaction is given for every partition. Writes nothing."""
        wanted = [TopicPartition(*tp) for tp in partitions]
        if not transactional_id:
            return TxnResult([], dict.fromkeys(wanted, ErrorCode.INVALID_REQUEST))
        entry = self._entries.get(transactional_id)
        error = self._check_producer(entry, producer_id, producer_epoch)
        outcome = TRANSITIONS[(self._view(entry), Event.VERIFY_PARTITIONS)]
        if error is None and outcome.action is not Action.VERIFY:
            error = outcome.error
        if error is not None:
            return TxnResult([], dict.fromkeys(wanted, error))
        assert entry is not None
        inside = entry.meta.partitions
        return TxnResult([], {tp: ErrorCode.NONE if tp in inside else ErrorCode.TRANSACTION_ABORTABLE for tp in wanted})

    @staticmethod
    def _check_producer(entry: _Entry | None, producer_id: int, producer_epoch: int) -> ErrorCode | None:
        """The producer checks of AddPartitionsToTxn (before the state is looked at)."""
        if entry is None:
            return None  # the ABSENT row answers
        if entry.meta.producer_id != producer_id:
            return ErrorCode.INVALID_PRODUCER_ID_MAPPING
        if entry.meta.producer_epoch != producer_epoch:
            return ErrorCode.PRODUCER_FENCED
        return None

    # ================================================================== EndTxn

    def end_txn(
        self,
        now_ms: int,
        transactional_id: str,
        producer_id: int,
        producer_epoch: int,
        committed: bool,
        transaction_version: int = TV_0,
    ) -> TxnResult[EndTxnResult]:
        """EndTxn (key 26): commit or abort. ``transaction_version`` is 2 for EndTxn v5+
        (the epoch is bumped at the end and the answer names the producer id and
        epoch to use next), 0 below.

        Success means the PrepareCommit/PrepareAbort is written: the markers follow
        (the result's ``markers``) and the Complete record after them.
        """
        if not transactional_id:
            return TxnResult([], EndTxnResult(ErrorCode.INVALID_REQUEST))
        entry = self._entries.get(transactional_id)
        classified = self._classify_end(entry, producer_id, producer_epoch, committed, transaction_version)
        if isinstance(classified, ErrorCode):
            return TxnResult([], EndTxnResult(classified))
        outcome = TRANSITIONS[(self._view(entry), classified)]
        if outcome.action is Action.REFUSE:
            return TxnResult([], EndTxnResult(outcome.error))
        if outcome.action is Action.NOTHING:
            if transaction_version >= TV_2 and entry is not None:
                return TxnResult([], EndTxnResult(ErrorCode.NONE, entry.meta.producer_id, entry.meta.producer_epoch))
            return TxnResult([], EndTxnResult(ErrorCode.NONE))
        assert entry is not None and outcome.action in (Action.PREPARE_COMMIT, Action.PREPARE_ABORT)
        meta = entry.meta
        next_producer_id = NO_PRODUCER_ID
        if transaction_version >= TV_2:
            if _epoch_exhausted(meta.producer_epoch):
                try:
                    next_producer_id = self._producer_ids.allocate()
                except KafkaError as exc:
                    return TxnResult([], EndTxnResult(exc.code))
            epoch = min(meta.producer_epoch + 1, INT16_MAX)
            last_epoch = meta.producer_epoch
        else:
            epoch, last_epoch = meta.producer_epoch, entry.last_epoch
        state = TxnState.PREPARE_COMMIT if outcome.action is Action.PREPARE_COMMIT else TxnState.PREPARE_ABORT
        # A version-2 abort with no transaction open has no start time: Kafka uses now.
        nothing_open = meta.state is not TxnState.ONGOING
        new = dataclasses.replace(
            meta,
            previous_producer_id=meta.producer_id,
            next_producer_id=next_producer_id,
            producer_epoch=epoch,
            state=state,
            start_ms=now_ms if nothing_open else meta.start_ms,
            last_update_ms=now_ms,
            client_version=transaction_version,
        )
        recs, markers = self._prepare(entry, new, last_epoch, now_ms)
        if transaction_version >= TV_2:
            # The producer id and epoch of the completed transaction: the new producer
            # id at epoch 0 when the epoch ran out.
            if next_producer_id != NO_PRODUCER_ID:
                answer = EndTxnResult(ErrorCode.NONE, next_producer_id, 0)
            else:
                answer = EndTxnResult(ErrorCode.NONE, new.producer_id, epoch)
        else:
            answer = EndTxnResult(ErrorCode.NONE)
        return TxnResult(recs, answer, markers)

    @staticmethod
    def _classify_end(
        entry: _Entry | None, producer_id: int, producer_epoch: int, committed: bool, transaction_version: int
    ) -> Event | ErrorCode:
        """The EndTxn event, after Kafka's producer id/epoch checks; or their error."""
        if transaction_version < TV_2:
            if entry is not None:
                if entry.meta.producer_id != producer_id:
                    return ErrorCode.INVALID_PRODUCER_ID_MAPPING
                if entry.meta.producer_epoch != producer_epoch:
                    return ErrorCode.PRODUCER_FENCED
            return Event.END_COMMIT_V1 if committed else Event.END_ABORT_V1
        current = Event.END_COMMIT_V2 if committed else Event.END_ABORT_V2
        if entry is None:
            return current
        meta = entry.meta
        # A retry of an end whose bump moved to a new producer id (epoch spent).
        retry_on_overflow = (
            meta.previous_producer_id == producer_id and producer_epoch == INT16_MAX - 1 and meta.producer_epoch == 0
        )
        retry_on_bump = meta.producer_epoch == producer_epoch + 1
        if meta.producer_id != producer_id and not retry_on_overflow:
            return ErrorCode.INVALID_PRODUCER_ID_MAPPING
        if producer_epoch == meta.producer_epoch and meta.producer_id == producer_id:
            return current
        # Only a completed transaction can be retried across a producer id change;
        # a completing one only with the epoch before its bump.
        if retry_on_bump or (retry_on_overflow and meta.state.is_complete):
            return Event.END_COMMIT_V2_RETRY if committed else Event.END_ABORT_V2_RETRY
        return ErrorCode.PRODUCER_FENCED

    # ================================================================== markers

    def markers_written(
        self,
        now_ms: int,
        transactional_id: str,
        producer_id: int,
        producer_epoch: int,
        partitions: Iterable[TopicPartition],
    ) -> TxnResult[None]:
        """The markers of these partitions are durable (or the partitions no longer
        exist). Once every partition is done the result holds the Complete record.
        Reports for another producer id/epoch (a stale write) are ignored."""
        entry = self._entries.get(transactional_id)
        if entry is None or not entry.meta.state.is_prepare:
            return TxnResult([], None)
        meta = entry.meta
        if (meta.producer_id, meta.producer_epoch) != (producer_id, producer_epoch):
            return TxnResult([], None)
        entry.awaiting.difference_update(TopicPartition(*tp) for tp in partitions)
        if entry.awaiting:
            return TxnResult([], None)
        outcome = TRANSITIONS[(self._view(entry), Event.MARKERS_WRITTEN)]
        assert outcome.action is Action.COMPLETE
        return TxnResult([self._complete(entry, entry.prepared_ms if entry.prepared_ms >= 0 else now_ms)], None)

    def _prepare(
        self, entry: _Entry, new: TxnMetadata, last_epoch: int, now_ms: int
    ) -> tuple[list[tuple[bytes, bytes | None]], list[MarkerBatch]]:
        """Records and markers for a move to PrepareCommit/PrepareAbort."""
        record = self._transit(entry.meta.state, new, _Memory(last_epoch, now_ms))
        if new.partitions:
            return [record], [self._marker_batch(new, new.partitions)]
        # Nothing to mark: the Complete record goes in the same append.
        return [record, self._complete(_Entry(new, last_epoch, set(), now_ms), now_ms)], []

    def _complete(self, entry: _Entry, update_ms: int) -> tuple[bytes, bytes | None]:
        """The CompleteCommit/CompleteAbort record of a prepared transaction."""
        meta = entry.meta
        rotate = meta.client_version >= TV_2 and meta.next_producer_id != NO_PRODUCER_ID
        new = dataclasses.replace(
            meta,
            producer_id=meta.next_producer_id if rotate else meta.producer_id,
            producer_epoch=0 if rotate else meta.producer_epoch,
            previous_producer_id=meta.producer_id,
            next_producer_id=NO_PRODUCER_ID,
            state=TxnState.COMPLETE_COMMIT if meta.state is TxnState.PREPARE_COMMIT else TxnState.COMPLETE_ABORT,
            partitions=frozenset(),
            last_update_ms=update_ms,
        )
        return self._transit(meta.state, new, _Memory(entry.last_epoch))

    def _marker_batch(self, meta: TxnMetadata, partitions: frozenset[TopicPartition]) -> MarkerBatch:
        return MarkerBatch(
            transactional_id=meta.transactional_id,
            producer_id=meta.producer_id,
            producer_epoch=meta.producer_epoch,
            committed=meta.state is TxnState.PREPARE_COMMIT,
            coordinator_epoch=self.coordinator_epoch,
            transaction_version=meta.client_version,
            partitions=partitions,
        )

    # ================================================================== fencing and timers

    def _fence(self, entry: _Entry, now_ms: int) -> tuple[list[tuple[bytes, bytes | None]], list[MarkerBatch]]:
        """Bump the epoch past the producer's and abort its open transaction (an
        InitProducerId from a new producer instance, or a timeout). The aborts the
        coordinator starts itself use the cluster's transaction version; the fence is
        the only bump, at every version (Kafka 4.4 answers so: the abort's markers and
        the CompleteAbort carry the producer's epoch + 1, and the next InitProducerId
        bumps once more)."""
        meta = entry.meta
        epoch = meta.producer_epoch if meta.producer_epoch == INT16_MAX else meta.producer_epoch + 1
        last_epoch = NO_PRODUCER_EPOCH
        version = self.config.transaction_version
        new = dataclasses.replace(
            meta,
            previous_producer_id=meta.producer_id,
            next_producer_id=NO_PRODUCER_ID,
            producer_epoch=epoch,
            state=TxnState.PREPARE_ABORT,
            last_update_ms=now_ms,
            client_version=version,
        )
        return self._prepare(entry, new, last_epoch, now_ms)

    def next_deadline_ms(self) -> int | None:
        """When the next transaction times out or id expires."""
        return self._timers.next_deadline_ms()

    def tick(self, now_ms: int) -> TxnResult[None]:
        """Run the due timers by hand (with a runtime, its timer runs each as it comes due)."""
        out: TxnResult[None] = TxnResult([], None)
        while (due := self._timers.pop_due(now_ms)) is not None:
            result = due[1](now_ms)
            out.records += result.records
            out.markers += result.markers
        return out

    def _on_deadline(self, transactional_id: str, now_ms: int) -> TxnResult[None]:
        """An id's timer: abort its transaction past the timeout (Kafka's abort of timed-out
        transactions: fence the producer, PrepareAbort, markers), or delete the id once idle
        for ``transactional.id.expiration.ms`` (a tombstone)."""
        entry = self._entries.get(transactional_id)
        if entry is None:
            return TxnResult([], None)
        event = Event.TIMEOUT if entry.meta.state is TxnState.ONGOING else Event.EXPIRE
        outcome = TRANSITIONS[(self._view(entry), event)]
        if outcome.action is Action.FENCE:
            recs, markers = self._fence(entry, now_ms)
            return TxnResult(recs, None, markers)
        if outcome.action is Action.REMOVE:
            check_transition(entry.meta.state, TxnState.DEAD)
            self._memory.setdefault(transactional_id, deque()).append(_Memory(NO_PRODUCER_EPOCH))
            return TxnResult([(records.encode_key(transactional_id), None)], None)
        return TxnResult([], None)

    def _deadline(self, entry: _Entry) -> int | None:
        meta = entry.meta
        if meta.state is TxnState.ONGOING:
            if meta.timeout_ms == INT32_MAX:
                return None  # two-phase commit: no timeout
            # Kafka aborts once start + timeout < now.
            return meta.start_ms + meta.timeout_ms + 1
        if meta.state.expiration_allowed:
            # ... and expires once last update <= now - transactional.id.expiration.ms.
            return meta.last_update_ms + self.config.id_expiration_ms
        return None

    # ================================================================== helpers

    @staticmethod
    def _view(entry: _Entry | None) -> View:
        return view_of(None if entry is None else entry.meta.state)

    def _record(self, meta: TxnMetadata) -> tuple[bytes, bytes | None]:
        return records.encode_key(meta.transactional_id), records.encode_value(meta, self._value_version)

    def _transit(self, old: TxnState | None, new: TxnMetadata, memory: _Memory) -> tuple[bytes, bytes | None]:
        """The record of a transition, checked against Kafka's state graph; the
        in-memory fields ride along to the record's replay."""
        check_transition(old, new.state)
        self._memory.setdefault(new.transactional_id, deque()).append(memory)
        return self._record(new)

    def _take_memory(self, transactional_id: str) -> _Memory | None:
        queue = self._memory.get(transactional_id)
        if not queue:
            return None
        memory = queue.popleft()
        if not queue:
            del self._memory[transactional_id]
        return memory
