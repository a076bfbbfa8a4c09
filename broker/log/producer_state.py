"""Idempotent and transactional producer state of one partition.

Semantics follow Apache Kafka 4.x (``ProducerStateManager``, ``ProducerAppendInfo``,
``ProducerStateEntry``):

* Per producer id: the epoch, the coordinator epoch of the last marker, the
  first offset of its open transaction, and the sequence/offset ranges of its
  last 5 data batches.
* A batch whose epoch and exact sequence range match one of those 5 is a
  duplicate: the original offsets are returned and nothing is appended.
* An older epoch is refused with INVALID_PRODUCER_EPOCH (47).
* With the same epoch, the first sequence must follow the last one (wrapping at
  2**31-1 to 0), else OUT_OF_ORDER_SEQUENCE_NUMBER (45). A new epoch must start
  at sequence 0 unless the broker knows no epoch for the producer.
* A producer the partition has no state for (never seen, expired, or its
  batches deleted by retention) is accepted at any sequence: since KIP-360
  Kafka no longer answers UNKNOWN_PRODUCER_ID (59) there.
* A non-transactional batch while the producer has an open transaction is
  INVALID_TXN_STATE (48). A COMMIT/ABORT marker with an older epoch is 47; with
  an older coordinator epoch TRANSACTION_COORDINATOR_FENCED (52). A marker of
  transaction version 2 (KIP-1228, WriteTxnMarkers v2) must carry an epoch
  above the producer's, since the coordinator bumps it at every end; the same
  epoch is let through only as a retry of a marker already written.
* Sequences are checked for batches from clients only (``AppendOrigin.CLIENT``):
  the group coordinator writes transactional offset commits without them.
* KIP-890 part 1, transaction verification (``verification_enabled``, Kafka's
  ``transaction.partition.verification.enable``): a transactional batch that
  does not continue the producer's open transaction at its epoch is accepted
  only with the :class:`VerificationGuard` the partition handed out when it
  asked the coordinator whether the partition is in the transaction
  (:meth:`ProducerStateManager.maybe_start_verification`); without it the batch
  is INVALID_TXN_STATE. The guard lives until a transactional batch of the
  producer is appended (or ``producer.id.expiration.ms``), so a batch that was
  verified before an abort cannot slip into the next transaction.

Validation works on copies (:class:`AppendStage`) so a refused request leaves
the state untouched; the log commits the stage only after the write succeeded.
"""

from __future__ import annotations

import itertools
import json
from collections import deque
from dataclasses import dataclass, field
from enum import Enum
from typing import NamedTuple

from crc32c import crc32c

from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.records import BatchHeader

__all__ = [
    "AppendOrigin",
    "BatchMetadata",
    "CompletedTxn",
    "ProducerEntry",
    "ProducerStateManager",
    "VerificationGuard",
    "VerificationStateEntry",
]

# Kafka keeps the last 5 batches per producer: an idempotent producer has at most
# 5 requests in flight per connection (max.in.flight.requests.per.connection <= 5),
# so any retry it can send matches one of them.
NUM_BATCHES_TO_RETAIN = 5

NO_PRODUCER_EPOCH = -1
NO_SEQUENCE = -1
INT32_MAX = 2**31 - 1
INT16_MAX = 2**15 - 1

SNAPSHOT_VERSION = 1
# Kafka's TransactionVersion level from which the coordinator bumps the epoch at every end.
TV_2 = 2


class AppendOrigin(Enum):
    """Who appends (Kafka's ``AppendOrigin``): clients get duplicate and sequence
    checks; the coordinators (markers, transactional offset commits) do not."""

    CLIENT = "client"
    COORDINATOR = "coordinator"


def last_sequence(base_sequence: int, last_offset_delta: int) -> int:
    """Sequence of a batch's last record; sequences wrap from 2**31-1 to 0."""
    if base_sequence > INT32_MAX - last_offset_delta:
        return last_offset_delta - (INT32_MAX - base_sequence) - 1
    return base_sequence + last_offset_delta


def _in_sequence(last_seq: int, next_seq: int) -> bool:
    return next_seq == last_seq + 1 or (next_seq == 0 and last_seq == INT32_MAX)


class BatchMetadata(NamedTuple):
    first_seq: int
    last_seq: int
    first_offset: int
    last_offset: int
    timestamp: int


class CompletedTxn(NamedTuple):
    producer_id: int
    first_offset: int
    last_offset: int  # offset of the marker
    is_abort: bool


@dataclass(slots=True)
class ProducerEntry:
    producer_id: int
    epoch: int = NO_PRODUCER_EPOCH
    coordinator_epoch: int = -1
    last_timestamp: int = -1
    txn_first_offset: int | None = None
    batches: deque[BatchMetadata] = field(default_factory=lambda: deque(maxlen=NUM_BATCHES_TO_RETAIN))

    def copy(self) -> ProducerEntry:
        return ProducerEntry(
            self.producer_id,
            self.epoch,
            self.coordinator_epoch,
            self.last_timestamp,
            self.txn_first_offset,
            deque(self.batches, maxlen=NUM_BATCHES_TO_RETAIN),
        )

    @property
    def last_seq(self) -> int:
        return self.batches[-1].last_seq if self.batches else NO_SEQUENCE

    @property
    def last_data_offset(self) -> int:
        return self.batches[-1].last_offset if self.batches else -1

    def update_epoch(self, epoch: int) -> None:
        if epoch != self.epoch:
            self.batches.clear()
            self.epoch = epoch

    def add_batch(self, epoch: int, meta: BatchMetadata) -> None:
        self.update_epoch(epoch)
        self.batches.append(meta)
        self.last_timestamp = meta.timestamp

    def find_duplicate(self, epoch: int, first_seq: int, last_seq: int) -> BatchMetadata | None:
        if epoch != self.epoch:
            return None
        for meta in self.batches:
            if meta.first_seq == first_seq and meta.last_seq == last_seq:
                return meta
        return None


class VerificationGuard:
    """The token a partition hands out when it starts verifying a producer's
    transaction with the coordinator (KIP-890 part 1); the append must present
    the same token. Compared by identity."""

    __slots__ = ("_id",)
    _ids = itertools.count(1)

    def __init__(self) -> None:
        self._id = next(self._ids)

    def __repr__(self) -> str:
        return f"VerificationGuard({self._id})"


@dataclass(slots=True)
class VerificationStateEntry:
    """A verification in progress for one producer (Kafka's ``VerificationStateEntry``)."""

    timestamp: int
    guard: VerificationGuard
    lowest_sequence: int
    epoch: int
    supports_epoch_bump: bool  # transaction version 2: the producer's sequences restart at 0

    def update(self, sequence: int, epoch: int) -> None:
        """Remember the lowest sequence asked for at the newest epoch."""
        if epoch == self.epoch and sequence < self.lowest_sequence:
            self.lowest_sequence = sequence
        if epoch > self.epoch:
            self.epoch = epoch
            self.lowest_sequence = sequence


class AppendStage:
    """Producer-state changes of one append, validated but not yet applied."""

    def __init__(self, manager: ProducerStateManager) -> None:
        self._manager = manager
        self.entries: dict[int, ProducerEntry] = {}
        self._added: set[int] = set()
        self.completed: list[CompletedTxn] = []
        # Producers whose verification ends with this append (a transactional batch written).
        self.verified: set[int] = set()

    def _entry(self, pid: int) -> ProducerEntry:
        entry = self.entries.get(pid)
        if entry is None:
            current = self._manager.producers.get(pid)
            entry = current.copy() if current is not None else ProducerEntry(pid)
            self.entries[pid] = entry
        return entry

    def duplicate_of(self, header: BatchHeader) -> BatchMetadata | None:
        """The stored batch this one repeats, checked against the committed state (as Kafka)."""
        if header.producer_id < 0 or header.is_control:
            return None
        current = self._manager.producers.get(header.producer_id)
        if current is None:
            return None
        return current.find_duplicate(
            header.producer_epoch,
            header.base_sequence,
            last_sequence(header.base_sequence, header.last_offset_delta),
        )

    def add_data(
        self,
        header: BatchHeader,
        first_offset: int,
        last_offset: int,
        max_timestamp: int | None = None,
        *,
        origin: AppendOrigin = AppendOrigin.CLIENT,
        verification_guard: VerificationGuard | None = None,
    ) -> None:
        """Validate and stage a data batch; ``max_timestamp`` overrides the header's
        (LogAppendTime topics store the broker's time, not the producer's).
        ``verification_guard``: what the request's transaction verification handed
        out (None: not verified)."""
        pid = header.producer_id
        if pid < 0:
            return
        manager = self._manager
        current = manager.producers.get(pid)
        epoch = header.producer_epoch
        if header.is_transactional and not manager.has_ongoing_transaction(pid, epoch):
            if current is not None and epoch < current.epoch:
                raise KafkaError(
                    ErrorCode.INVALID_PRODUCER_EPOCH,
                    f"epoch {epoch} of producer {pid} is older than the last seen epoch {current.epoch}",
                )
            if manager.verification_enabled and (
                verification_guard is None or verification_guard is not manager.verification_guard(pid)
            ):
                raise KafkaError(
                    ErrorCode.INVALID_TXN_STATE,
                    f"transactional batch of producer {pid} at epoch {epoch} is not part of an ongoing "
                    "transaction (the partition was not verified in it)",
                )
        entry = self._entry(pid)
        if epoch < entry.epoch:
            raise KafkaError(
                ErrorCode.INVALID_PRODUCER_EPOCH,
                f"epoch {epoch} of producer {pid} at offset {first_offset} is older "
                f"than the last seen epoch {entry.epoch}",
            )
        first_seq = header.base_sequence
        if origin is AppendOrigin.CLIENT:
            self._check_sequence(pid, entry, current, epoch, first_seq, first_offset)
        entry.add_batch(
            epoch,
            BatchMetadata(
                first_seq,
                last_sequence(first_seq, header.last_offset_delta),
                first_offset,
                last_offset,
                header.max_timestamp if max_timestamp is None else max_timestamp,
            ),
        )
        self._added.add(pid)
        if entry.txn_first_offset is not None and not header.is_transactional:
            raise KafkaError(
                ErrorCode.INVALID_TXN_STATE,
                f"producer {pid} sent a non-transactional batch while its transaction is open",
            )
        if entry.txn_first_offset is None and header.is_transactional:
            entry.txn_first_offset = first_offset
        if header.is_transactional:
            self.verified.add(pid)

    def _check_sequence(
        self,
        pid: int,
        entry: ProducerEntry,
        current: ProducerEntry | None,
        epoch: int,
        first_seq: int,
        first_offset: int,
    ) -> None:
        verification = self._manager.verifications.get(pid)
        if verification is not None:
            if verification.supports_epoch_bump and first_seq != 0 and (current is None or not current.batches):
                raise KafkaError(
                    ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
                    f"producer {pid} has no state here and its verified transaction starts at "
                    f"sequence {first_seq}, not 0",
                )
            if first_seq > verification.lowest_sequence:
                raise KafkaError(
                    ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
                    f"sequence {first_seq} of producer {pid} is above {verification.lowest_sequence}, "
                    "the lowest sequence its transaction was verified with",
                )
        current_epoch = current.epoch if current is not None else NO_PRODUCER_EPOCH
        if epoch != entry.epoch:
            if first_seq != 0 and entry.epoch != NO_PRODUCER_EPOCH:
                raise KafkaError(
                    ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
                    f"producer {pid} started epoch {epoch} at sequence {first_seq}; a new epoch starts at 0",
                )
        else:
            if pid in self._added:
                last_seq = entry.last_seq
            elif current is not None and epoch == current_epoch:
                last_seq = current.last_seq
            else:
                last_seq = NO_SEQUENCE
            if current_epoch != NO_PRODUCER_EPOCH and not _in_sequence(last_seq, first_seq):
                raise KafkaError(
                    ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
                    f"out of order sequence for producer {pid} at offset {first_offset}: "
                    f"{first_seq} (incoming), {last_seq} (last appended)",
                )

    def add_marker(
        self, header: BatchHeader, offset: int, is_abort: bool, coordinator_epoch: int, transaction_version: int = 0
    ) -> None:
        """Validate and stage a COMMIT/ABORT marker written by the transaction
        coordinator with ``transaction_version`` (WriteTxnMarkers v2, KIP-1228)."""
        pid = header.producer_id
        entry = self._entry(pid)
        epoch = header.producer_epoch
        if transaction_version >= TV_2:
            # The coordinator bumped the epoch for this end: the marker's must be newer,
            # unless it repeats a marker already written (nothing open any more).
            stale = epoch <= entry.epoch and not (
                epoch == entry.epoch and (entry.txn_first_offset is None or epoch == INT16_MAX)
            )
        else:
            stale = epoch < entry.epoch
        if stale:
            relation = "not newer than" if transaction_version >= TV_2 else "older than"
            raise KafkaError(
                ErrorCode.INVALID_PRODUCER_EPOCH,
                f"marker epoch {epoch} of producer {pid} is {relation} {entry.epoch}",
            )
        if coordinator_epoch < entry.coordinator_epoch:
            raise KafkaError(
                ErrorCode.TRANSACTION_COORDINATOR_FENCED,
                f"marker for producer {pid} has coordinator epoch {coordinator_epoch}, "
                f"older than {entry.coordinator_epoch}",
            )
        if entry.txn_first_offset is not None:
            self.completed.append(CompletedTxn(pid, entry.txn_first_offset, offset, is_abort))
        entry.update_epoch(header.producer_epoch)
        entry.coordinator_epoch = coordinator_epoch
        entry.txn_first_offset = None
        entry.last_timestamp = header.max_timestamp
        verification = self._manager.verifications.get(pid)
        # Kafka keeps a version-2 verification across a marker of its own epoch only.
        if not (verification is not None and verification.supports_epoch_bump and epoch == verification.epoch):
            self.verified.add(pid)


class ProducerStateManager:
    """Every producer's entry, plus the open transactions in offset order."""

    def __init__(self, *, verification_enabled: bool = False) -> None:
        # transaction.partition.verification.enable: Kafka's default is true. Off until
        # the produce path verifies transactional batches with the coordinator.
        self.verification_enabled = verification_enabled
        self.verifications: dict[int, VerificationStateEntry] = {}
        self.producers: dict[int, ProducerEntry] = {}
        # producer id -> first offset of its open transaction. Transactions start
        # at the log end, so insertion order is offset order and the first value
        # is the first unstable offset (the LSO) in O(1).
        self.ongoing: dict[int, int] = {}

    # ------------------------------------------------------------------ queries

    def first_unstable_offset(self) -> int | None:
        return next(iter(self.ongoing.values()), None)

    def has_ongoing_transaction(self, pid: int, epoch: int) -> bool:
        """The producer has a transaction open here at this epoch (no verification needed)."""
        entry = self.producers.get(pid)
        return entry is not None and entry.txn_first_offset is not None and entry.epoch == epoch

    def verification_guard(self, pid: int) -> VerificationGuard | None:
        entry = self.verifications.get(pid)
        return None if entry is None else entry.guard

    def maybe_start_verification(
        self, pid: int, sequence: int, epoch: int, supports_epoch_bump: bool, now_ms: int
    ) -> VerificationGuard | None:
        """Before a transactional produce (Kafka's ``maybeStartTransactionVerification``):
        None when the batch continues the producer's open transaction at this epoch
        (no need to ask the coordinator); otherwise the guard to append with once
        the coordinator confirmed the partition is in the transaction. An epoch older
        than the producer's is INVALID_PRODUCER_EPOCH."""
        entry = self.producers.get(pid)
        if entry is not None and epoch < entry.epoch:
            raise KafkaError(
                ErrorCode.INVALID_PRODUCER_EPOCH,
                f"epoch {epoch} of producer {pid} is older than the last seen epoch {entry.epoch}",
            )
        if self.has_ongoing_transaction(pid, epoch):
            return None
        verification = self.verifications.get(pid)
        if verification is None:
            verification = self.verifications[pid] = VerificationStateEntry(
                now_ms, VerificationGuard(), sequence, epoch, supports_epoch_bump
            )
        verification.update(sequence, epoch)
        return verification.guard

    def clear_verification(self, pid: int) -> None:
        self.verifications.pop(pid, None)

    def stage(self) -> AppendStage:
        return AppendStage(self)

    # ------------------------------------------------------------------ updates

    def commit(self, stage: AppendStage) -> list[CompletedTxn]:
        """Apply a validated stage; returns the transactions it completed, in order."""
        for pid, entry in stage.entries.items():
            self.producers[pid] = entry
            if entry.txn_first_offset is None:
                self.ongoing.pop(pid, None)
            elif pid not in self.ongoing:
                self.ongoing[pid] = entry.txn_first_offset
        for pid in stage.verified:
            self.verifications.pop(pid, None)
        return stage.completed

    def replay_data(self, header: BatchHeader) -> None:
        """Rebuild from a stored batch (no validation: it was validated when appended)."""
        pid = header.producer_id
        if pid < 0:
            return
        entry = self.producers.get(pid)
        if entry is None:
            entry = self.producers[pid] = ProducerEntry(pid)
        entry.add_batch(
            header.producer_epoch,
            BatchMetadata(
                header.base_sequence,
                last_sequence(header.base_sequence, header.last_offset_delta),
                header.base_offset,
                header.last_offset,
                header.max_timestamp,
            ),
        )
        if header.is_transactional and entry.txn_first_offset is None:
            entry.txn_first_offset = header.base_offset
            self.ongoing[pid] = header.base_offset

    def replay_marker(self, header: BatchHeader, is_abort: bool, coordinator_epoch: int) -> CompletedTxn | None:
        pid = header.producer_id
        entry = self.producers.get(pid)
        if entry is None:
            entry = self.producers[pid] = ProducerEntry(pid)
        completed = None
        if entry.txn_first_offset is not None:
            completed = CompletedTxn(pid, entry.txn_first_offset, header.base_offset, is_abort)
        entry.update_epoch(header.producer_epoch)
        entry.coordinator_epoch = coordinator_epoch
        entry.txn_first_offset = None
        entry.last_timestamp = header.max_timestamp
        self.ongoing.pop(pid, None)
        return completed

    def truncate_head(self, log_start_offset: int) -> None:
        """Forget producers whose every batch now lies below the log start (Kafka does the same)."""
        for pid in [
            pid
            for pid, e in self.producers.items()
            if e.txn_first_offset is None and e.last_data_offset < log_start_offset
        ]:
            del self.producers[pid]

    def expire(self, now_ms: int, expiration_ms: int) -> int:
        """Drop producers idle for ``expiration_ms`` (producer.id.expiration.ms) with no
        open transaction; returns how many. Their batches' timestamps date them, as in Kafka."""
        stale = [
            pid
            for pid, e in self.producers.items()
            if e.txn_first_offset is None and now_ms - e.last_timestamp >= expiration_ms
        ]
        for pid in stale:
            del self.producers[pid]
        # Verifications that never led to an append go after the same time (as in Kafka).
        for pid in [pid for pid, v in self.verifications.items() if now_ms - v.timestamp >= expiration_ms]:
            del self.verifications[pid]
        return len(stale)

    # ------------------------------------------------------------------ snapshots

    def snapshot(self, offset: int) -> bytes:
        """Serialise the state as of ``offset``: a CRC-32C line, then JSON.

        Our own format (Kafka's ``.snapshot`` files are a binary struct); same
        purpose: reopening a log without rescanning it.
        """
        body = json.dumps(
            {
                "version": SNAPSHOT_VERSION,
                "offset": offset,
                "producers": [
                    [
                        e.producer_id,
                        e.epoch,
                        e.coordinator_epoch,
                        e.last_timestamp,
                        -1 if e.txn_first_offset is None else e.txn_first_offset,
                        [list(b) for b in e.batches],
                    ]
                    for e in self.producers.values()
                ],
            },
            separators=(",", ":"),
        ).encode("utf-8")
        return b"%08x\n" % crc32c(body) + body

    @classmethod
    def from_snapshot(
        cls, data: bytes, *, verification_enabled: bool = False
    ) -> tuple[ProducerStateManager, int] | None:
        """Parse a snapshot; None if it is torn or not ours. Verifications in progress
        are not in snapshots (nor in Kafka's): they start afresh."""
        head, sep, body = data.partition(b"\n")
        if not sep:
            return None
        try:
            if int(head, 16) != crc32c(body):
                return None
            doc = json.loads(body)
            if doc.get("version") != SNAPSHOT_VERSION:
                return None
            manager = cls(verification_enabled=verification_enabled)
            ongoing: list[tuple[int, int]] = []
            for pid, epoch, coord, ts, txn_first, batches in doc["producers"]:
                entry = ProducerEntry(
                    int(pid),
                    int(epoch),
                    int(coord),
                    int(ts),
                    None if txn_first < 0 else int(txn_first),
                    deque((BatchMetadata(*map(int, b)) for b in batches), maxlen=NUM_BATCHES_TO_RETAIN),
                )
                manager.producers[entry.producer_id] = entry
                if entry.txn_first_offset is not None:
                    ongoing.append((entry.txn_first_offset, entry.producer_id))
            for first, pid in sorted(ongoing):
                manager.ongoing[pid] = first
            return manager, int(doc["offset"])
        except (ValueError, TypeError, KeyError):
            return None
