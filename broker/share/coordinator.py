"""The share coordinator's state machine (KIP-932 persistence), pure: no I/O, no clock.

One :class:`ShareCoordinatorShard` holds the durable state of the
share-partitions whose keys hash to one partition of ``__share_group_state``.
A share-partition is keyed by ``(group_id, topic_id, partition)``
(:class:`ShareKey`). Each operation takes ``now_ms``, validates its input
against the current state and returns a
:class:`~broker.coordinator.result.CoordinatorResult` (the records to append, and
the answer of a read); it changes nothing by itself. The
caller (:mod:`broker.share.state_store`) appends the records and then feeds
each one, with its offset, to :meth:`ShareCoordinatorShard.replay`, exactly
what a restart does with the log. Live state and replayed state are one code
path, so they cannot drift apart.

Records use Kafka's coordinator framing: the key is an int16 record type
(``ShareSnapshot`` 0, ``ShareUpdate`` 1, the api keys of their schemas) and
the key message at version 0; the value is an int16 version (0) and the value
message. A null value is a tombstone: the share-partition is deleted.

Rules, as Kafka 4.2's ``ShareCoordinatorShard`` applies them (differences are
marked):

* ``initialize`` writes a ``ShareSnapshot`` with no state batches; a stored
  state epoch above the request's is FENCED_STATE_EPOCH. Repeating the stored
  state epoch and start offset writes nothing (a retried request must not wipe
  progress made since). The first snapshot of a key has snapshot epoch 0 and
  leader epoch 0; a re-initialisation (AlterShareGroupOffsets) keeps the
  leader epoch, so the leader fence survives it and the pruning of older
  records (Kafka writes 0 again).
* ``write`` on a key never initialised is INVALID_REQUEST; a leader epoch
  below the stored one is FENCED_LEADER_EPOCH, a state epoch below the stored
  one FENCED_STATE_EPOCH (-1 means "not supplied" and skips either fence).
  The record is a ``ShareSnapshot`` (stored and written batches combined) once
  the key has had ``snapshot_every`` updates since its last snapshot, else a
  ``ShareUpdate`` with the written batches only. The start offset never moves
  back: the record carries ``max(stored, requested)``. DeliveryCompleteCount
  follows the start offset: the larger count when the start offset is
  unchanged, the stored count when the request is behind, the request's when
  it moved on. A write also raises the stored leader epoch.
* ``read`` on a key never initialised is INVALID_REQUEST; a newer leader epoch
  than the stored one is recorded (a ``ShareUpdate`` carrying only the epoch),
  so the previous leader is fenced from then on.
* ``read_summary`` of an unknown key is no error: start offset -1, epochs 0,
  DeliveryCompleteCount -1.
* ``delete`` writes a tombstone; deleting an unknown key writes nothing.

State batches are combined as Kafka's ``PersisterStateBatchCombiner`` does
(:func:`combine_state_batches`): where batches overlap, the one with the higher
delivery count wins, then the one with the higher delivery state (ARCHIVED 4 >
ACKNOWLEDGED 2 > AVAILABLE 0); neighbours with equal state merge; everything
below the start offset is dropped.
"""

from __future__ import annotations

import base64
import functools
import heapq
import struct
import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import NamedTuple

from broker.coordinator.result import CoordinatorResult
from broker.metadata.image import coordinator_partition
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.share_snapshot_key import ShareSnapshotKey
from broker.protocol.messages.share_snapshot_value import ShareSnapshotValue
from broker.protocol.messages.share_snapshot_value import StateBatch as SnapshotBatch
from broker.protocol.messages.share_update_key import ShareUpdateKey
from broker.protocol.messages.share_update_value import ShareUpdateValue
from broker.protocol.messages.share_update_value import StateBatch as UpdateBatch

__all__ = [
    "SHARE_SNAPSHOT",
    "SHARE_UPDATE",
    "UNINITIALIZED_START_OFFSET",
    "ReadState",
    "ShareCoordinatorShard",
    "ShareKey",
    "ShareState",
    "StateBatch",
    "StateRecord",
    "StateSummary",
    "combine_state_batches",
    "coordinator_key",
    "decode_record",
    "encode_record",
    "partition_for",
]

# Record types: the api keys of ShareSnapshotKey.json and ShareUpdateKey.json.
SHARE_SNAPSHOT = 0
SHARE_UPDATE = 1
_KEY_VERSION = 0
_VALUE_VERSION = 0
_INT16 = struct.Struct(">h")

UNINITIALIZED_START_OFFSET = -1
UNKNOWN_DELIVERY_COMPLETE_COUNT = -1
# Kafka's share coordinator default (share.coordinator.snapshot.update.records.per.snapshot).
DEFAULT_SNAPSHOT_EVERY = 500

# Kafka's messages for these refusals, so logs and clients read the same text.
NEGATIVE_PARTITION_ID = "The partition id cannot be a negative number."
NEGATIVE_STATE_EPOCH = "The state epoch cannot be a negative number."
WRITE_UNINITIALIZED = "Write operation on uninitialized share partition not allowed."
READ_UNINITIALIZED = "Read operation on uninitialized share partition not allowed."
FENCED_STATE_EPOCH_MESSAGE = "The coordinator rejected the request because the state epoch did not match."
FENCED_LEADER_EPOCH_MESSAGE = "The leader epoch in the request is older than the epoch on the broker."
UNKNOWN_TOPIC_OR_PARTITION_MESSAGE = "This server does not host this topic-partition."


# ====================================================================== values


class ShareKey(NamedTuple):
    """One share-partition: a share group's view of one topic-partition."""

    group_id: str
    topic_id: uuid.UUID
    partition: int


class StateBatch(NamedTuple):
    """Offsets ``first_offset..last_offset`` (inclusive) share one delivery state and count."""

    first_offset: int
    last_offset: int
    delivery_state: int
    delivery_count: int


@dataclass(frozen=True, slots=True)
class ShareState:
    """The durable state of one share-partition (immutable: operations replace it)."""

    state_epoch: int
    leader_epoch: int
    start_offset: int
    delivery_complete_count: int = UNKNOWN_DELIVERY_COMPLETE_COUNT
    state_batches: tuple[StateBatch, ...] = ()
    snapshot_epoch: int = 0
    create_timestamp: int = -1
    write_timestamp: int = -1
    updates_since_snapshot: int = 0
    # Offset in __share_group_state of the latest ShareSnapshot (-1 until known):
    # every record of this key before it is redundant.
    snapshot_offset: int = -1


class ReadState(NamedTuple):
    """What ReadShareGroupState answers for a share-partition."""

    state_epoch: int
    start_offset: int
    delivery_complete_count: int
    state_batches: tuple[StateBatch, ...]


class StateSummary(NamedTuple):
    """What ReadShareGroupStateSummary answers for a share-partition."""

    state_epoch: int
    leader_epoch: int
    start_offset: int
    delivery_complete_count: int


class StateRecord(NamedTuple):
    """One ``__share_group_state`` record: a snapshot, an update, or a tombstone (value None)."""

    key: ShareKey
    record_type: int
    value: ShareSnapshotValue | ShareUpdateValue | None

    @property
    def is_snapshot(self) -> bool:
        return self.record_type == SHARE_SNAPSHOT and self.value is not None

    @property
    def is_tombstone(self) -> bool:
        return self.value is None


# ====================================================================== keys and partitions


def coordinator_key(key: ShareKey) -> str:
    """``group:topicId:partition``, the topic id in Kafka's text form (base64url, no padding).

    The same string FindCoordinator key type 2 (SHARE) carries.
    """
    topic = base64.urlsafe_b64encode(key.topic_id.bytes).decode("ascii").rstrip("=")
    return f"{key.group_id}:{topic}:{key.partition}"


@functools.lru_cache(maxsize=1 << 16)
def partition_for(key: ShareKey, num_partitions: int) -> int:
    """The ``__share_group_state`` partition of ``key`` (asked on every acknowledgement:
    cached: the Java string hash of the key takes ~11 us in pure Python)."""
    return coordinator_partition(coordinator_key(key), num_partitions)


# ====================================================================== record framing


def encode_record(record: StateRecord) -> tuple[bytes, bytes | None]:
    """Record key and value bytes (value None for a tombstone)."""
    k = record.key
    key_message = (ShareSnapshotKey if record.record_type == SHARE_SNAPSHOT else ShareUpdateKey)(
        group_id=k.group_id, topic_id=k.topic_id, partition=k.partition
    )
    key_bytes = _INT16.pack(record.record_type) + key_message.encode(_KEY_VERSION)
    if record.value is None:
        return key_bytes, None
    return key_bytes, _INT16.pack(_VALUE_VERSION) + record.value.encode(_VALUE_VERSION)


def decode_record(key: bytes | None, value: bytes | None) -> StateRecord | None:
    """Parse one record; None for a record type this coordinator does not know
    (Kafka skips those too). Raises ProtocolError for malformed bytes."""
    if key is None or len(key) < 2:
        return None
    (record_type,) = _INT16.unpack_from(key)
    key_cls: type[ShareSnapshotKey] | type[ShareUpdateKey]
    value_cls: type[ShareSnapshotValue] | type[ShareUpdateValue]
    if record_type == SHARE_SNAPSHOT:
        key_cls, value_cls = ShareSnapshotKey, ShareSnapshotValue
    elif record_type == SHARE_UPDATE:
        key_cls, value_cls = ShareUpdateKey, ShareUpdateValue
    else:
        return None
    km = key_cls.decode(memoryview(key)[2:], _KEY_VERSION)
    share_key = ShareKey(km.group_id, km.topic_id, km.partition)
    if value is None:
        return StateRecord(share_key, record_type, None)
    (version,) = _INT16.unpack_from(value)
    return StateRecord(share_key, record_type, value_cls.decode(memoryview(value)[2:], version))


# ====================================================================== combining batches


def combine_state_batches(
    so_far: Iterable[StateBatch], new: Iterable[StateBatch], start_offset: int
) -> list[StateBatch]:
    """Kafka's ``PersisterStateBatchCombiner``: one sorted, non-overlapping list.

    Batches ending below ``start_offset`` go, a batch straddling it is cut
    there (-1: nothing is cut). Each offset takes the state of the covering
    batch with the highest (delivery count, delivery state); equal neighbours
    merge. One sweep over the batch boundaries with a heap of the batches
    covering the current offset: O(n log n).
    """
    batches = [StateBatch(*b) for b in (*so_far, *new)]
    if start_offset >= 0:
        kept = []
        for b in batches:
            if b.last_offset < start_offset:
                continue
            kept.append(b if b.first_offset >= start_offset else b._replace(first_offset=start_offset))
        batches = kept
    if len(batches) < 2:
        return batches
    batches.sort()
    points = sorted({b.first_offset for b in batches} | {b.last_offset + 1 for b in batches})
    heap: list[tuple[int, int, int]] = []  # (-count, -state, last_offset): the winner on top
    out: list[StateBatch] = []
    i, n = 0, len(batches)
    for j in range(len(points) - 1):
        p = points[j]
        while i < n and batches[i].first_offset <= p:
            b = batches[i]
            heapq.heappush(heap, (-b.delivery_count, -b.delivery_state, b.last_offset))
            i += 1
        while heap and heap[0][2] < p:
            heapq.heappop(heap)
        if not heap:
            continue
        neg_count, neg_state, _ = heap[0]
        state, count = -neg_state, -neg_count
        end = points[j + 1] - 1
        last = out[-1] if out else None
        if last and last.last_offset + 1 == p and (last.delivery_state, last.delivery_count) == (state, count):
            out[-1] = last._replace(last_offset=end)
        else:
            out.append(StateBatch(p, end, state, count))
    return out


def _to_batches(items: Iterable[object]) -> tuple[StateBatch, ...]:
    return tuple(
        StateBatch(b.first_offset, b.last_offset, b.delivery_state, b.delivery_count)  # type: ignore[attr-defined]
        for b in items
    )


# ====================================================================== the shard


@dataclass(slots=True)
class ShareCoordinatorShard:
    """The share-partition states of one ``__share_group_state`` partition.

    ``known_partition(topic_id, partition)``, when given, answers whether the
    topic-partition exists; operations on one that does not get
    UNKNOWN_TOPIC_OR_PARTITION (as Kafka checks its metadata image).
    """

    snapshot_every: int = DEFAULT_SNAPSHOT_EVERY
    known_partition: Callable[[uuid.UUID, int], bool] | None = None
    states: dict[ShareKey, ShareState] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.states)

    def __contains__(self, key: object) -> bool:
        return key in self.states

    def get(self, key: ShareKey) -> ShareState | None:
        return self.states.get(key)

    def keys(self) -> Iterator[ShareKey]:
        return iter(self.states)

    # ------------------------------------------------------------------ checks

    def _check_partition(self, key: ShareKey) -> None:
        if key.partition < 0:
            raise KafkaError(ErrorCode.INVALID_REQUEST, NEGATIVE_PARTITION_ID)

    def _check_topic(self, key: ShareKey) -> None:
        if self.known_partition is not None and not self.known_partition(key.topic_id, key.partition):
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, UNKNOWN_TOPIC_OR_PARTITION_MESSAGE)

    @staticmethod
    def _check_leader_epoch(state: ShareState, leader_epoch: int) -> None:
        if leader_epoch >= 0 and state.leader_epoch > leader_epoch:
            raise KafkaError(ErrorCode.FENCED_LEADER_EPOCH, FENCED_LEADER_EPOCH_MESSAGE)

    @staticmethod
    def _check_state_epoch(state: ShareState, state_epoch: int) -> None:
        if state_epoch >= 0 and state.state_epoch > state_epoch:
            raise KafkaError(ErrorCode.FENCED_STATE_EPOCH, FENCED_STATE_EPOCH_MESSAGE)

    # ------------------------------------------------------------------ operations

    def initialize(
        self, key: ShareKey, state_epoch: int, start_offset: int, *, now_ms: int = -1
    ) -> CoordinatorResult[None]:
        """InitializeShareGroupState: a fresh snapshot (start offset -1: not yet known)."""
        self._check_partition(key)
        if state_epoch < 0:
            raise KafkaError(ErrorCode.INVALID_REQUEST, NEGATIVE_STATE_EPOCH)
        current = self.states.get(key)
        if current is not None:
            self._check_state_epoch(current, state_epoch)
        self._check_topic(key)
        if current is not None and current.state_epoch == state_epoch and current.start_offset == start_offset:
            return CoordinatorResult()
        value = ShareSnapshotValue(
            snapshot_epoch=0 if current is None else current.snapshot_epoch + 1,
            state_epoch=state_epoch,
            leader_epoch=0 if current is None else current.leader_epoch,
            start_offset=start_offset,
            delivery_complete_count=UNKNOWN_DELIVERY_COMPLETE_COUNT if start_offset < 0 else 0,
            create_timestamp=now_ms,
            write_timestamp=now_ms,
            state_batches=[],
        )
        return CoordinatorResult([StateRecord(key, SHARE_SNAPSHOT, value)])

    def write(
        self,
        key: ShareKey,
        *,
        state_epoch: int,
        leader_epoch: int,
        start_offset: int,
        state_batches: Sequence[object] = (),
        delivery_complete_count: int = UNKNOWN_DELIVERY_COMPLETE_COUNT,
        now_ms: int = -1,
    ) -> CoordinatorResult[None]:
        """WriteShareGroupState: one ShareUpdate, or a ShareSnapshot when one is due.

        ``state_batches`` are any objects with ``first_offset``, ``last_offset``,
        ``delivery_state`` and ``delivery_count``.
        """
        self._check_partition(key)
        current = self.states.get(key)
        if current is None:
            raise KafkaError(ErrorCode.INVALID_REQUEST, WRITE_UNINITIALIZED)
        self._check_leader_epoch(current, leader_epoch)
        self._check_state_epoch(current, state_epoch)
        self._check_topic(key)
        record = self._progress_record(
            key,
            current,
            leader_epoch=max(current.leader_epoch, leader_epoch),
            start_offset=start_offset,
            delivery_complete_count=delivery_complete_count,
            batches=_to_batches(state_batches),
            now_ms=now_ms,
        )
        return CoordinatorResult([record])

    def read(self, key: ShareKey, leader_epoch: int, *, now_ms: int = -1) -> CoordinatorResult[ReadState]:
        """ReadShareGroupState: the state, plus a record when ``leader_epoch`` is news."""
        self._check_partition(key)
        current = self.states.get(key)
        if current is None:
            raise KafkaError(ErrorCode.INVALID_REQUEST, READ_UNINITIALIZED)
        self._check_leader_epoch(current, leader_epoch)
        self._check_topic(key)
        answer = ReadState(
            current.state_epoch, current.start_offset, current.delivery_complete_count, current.state_batches
        )
        if leader_epoch <= current.leader_epoch:
            return CoordinatorResult([], answer)
        record = self._progress_record(
            key,
            current,
            leader_epoch=leader_epoch,
            start_offset=current.start_offset,
            delivery_complete_count=current.delivery_complete_count,
            batches=(),
            now_ms=now_ms,
        )
        return CoordinatorResult([record], answer)

    def read_summary(self, key: ShareKey) -> StateSummary:
        """ReadShareGroupStateSummary: an unknown key reads as never initialised."""
        self._check_partition(key)
        self._check_topic(key)
        current = self.states.get(key)
        if current is None:
            return StateSummary(0, 0, UNINITIALIZED_START_OFFSET, UNKNOWN_DELIVERY_COMPLETE_COUNT)
        return StateSummary(
            current.state_epoch, current.leader_epoch, current.start_offset, current.delivery_complete_count
        )

    def delete(self, key: ShareKey) -> CoordinatorResult[None]:
        """DeleteShareGroupState: a tombstone; nothing for a key with no state.

        Unlike Kafka, a topic that no longer exists is no error: deleting the
        state of a deleted topic is exactly the clean-up that must work.
        """
        self._check_partition(key)
        if key not in self.states:
            return CoordinatorResult()
        return CoordinatorResult([StateRecord(key, SHARE_SNAPSHOT, None)])

    def snapshot_record(self, key: ShareKey, *, now_ms: int = -1) -> StateRecord:
        """A record that makes the log agree with the current state of ``key``:
        a full snapshot (next snapshot epoch), or a tombstone when it has none.

        Used to rewrite state whose snapshot is old (so older records can be
        pruned) and to override records whose write failed and was rolled back.
        """
        current = self.states.get(key)
        if current is None:
            return StateRecord(key, SHARE_SNAPSHOT, None)
        return StateRecord(key, SHARE_SNAPSHOT, _snapshot_value(current, current.snapshot_epoch + 1, now_ms))

    def _progress_record(
        self,
        key: ShareKey,
        current: ShareState,
        *,
        leader_epoch: int,
        start_offset: int,
        delivery_complete_count: int,
        batches: tuple[StateBatch, ...],
        now_ms: int,
    ) -> StateRecord:
        requested = current.start_offset if start_offset < 0 else start_offset  # -1: not being written
        start = max(current.start_offset, requested)
        if requested == current.start_offset:
            count = max(current.delivery_complete_count, delivery_complete_count)
        elif requested < current.start_offset:
            count = current.delivery_complete_count
        else:
            count = delivery_complete_count
        if current.updates_since_snapshot >= self.snapshot_every:
            merged = combine_state_batches(current.state_batches, batches, start)
            target = replace(
                current,
                leader_epoch=leader_epoch,
                start_offset=start,
                delivery_complete_count=count,
                state_batches=tuple(merged),
            )
            return StateRecord(key, SHARE_SNAPSHOT, _snapshot_value(target, current.snapshot_epoch + 1, now_ms))
        value = ShareUpdateValue(
            snapshot_epoch=current.snapshot_epoch,
            leader_epoch=leader_epoch,
            start_offset=start,
            delivery_complete_count=count,
            state_batches=[UpdateBatch(*b) for b in combine_state_batches((), batches, start)],
        )
        return StateRecord(key, SHARE_UPDATE, value)

    # ------------------------------------------------------------------ replay

    def replay(self, record: StateRecord, offset: int = -1) -> None:
        """Apply one record (just appended at ``offset``, or read back from the log)."""
        key, value = record.key, record.value
        if value is None:
            self.states.pop(key, None)
            return
        if record.record_type == SHARE_SNAPSHOT:
            assert isinstance(value, ShareSnapshotValue)
            self.states[key] = ShareState(
                state_epoch=value.state_epoch,
                leader_epoch=value.leader_epoch,
                start_offset=value.start_offset,
                delivery_complete_count=value.delivery_complete_count,
                state_batches=_to_batches(value.state_batches),
                snapshot_epoch=value.snapshot_epoch,
                create_timestamp=value.create_timestamp,
                write_timestamp=value.write_timestamp,
                updates_since_snapshot=0,
                snapshot_offset=offset,
            )
            return
        assert isinstance(value, ShareUpdateValue)
        current = self.states.get(key)
        if current is None:
            # An update whose snapshot was pruned (a newer snapshot of this key
            # follows later in the log): start from the update alone.
            current = ShareState(
                state_epoch=0,
                leader_epoch=value.leader_epoch,
                start_offset=value.start_offset,
                snapshot_epoch=value.snapshot_epoch,
                snapshot_offset=offset,
                updates_since_snapshot=-1,
            )
        start = current.start_offset if value.start_offset < 0 else value.start_offset
        self.states[key] = replace(
            current,
            leader_epoch=current.leader_epoch if value.leader_epoch < 0 else value.leader_epoch,
            start_offset=start,
            delivery_complete_count=value.delivery_complete_count,
            state_batches=tuple(combine_state_batches(current.state_batches, _to_batches(value.state_batches), start)),
            updates_since_snapshot=current.updates_since_snapshot + 1,
        )

    # ------------------------------------------------------------------ the runtime's interface

    def load_record(self, offset: int, key: bytes | None, value: bytes | None) -> None:
        """Apply one record read back from ``__share_group_state`` at load."""
        record = decode_record(key, value)
        if record is not None:
            self.replay(record, offset)

    def on_loaded(self, now_ms: int) -> None:
        pass

    def restore(self, key: ShareKey, state: ShareState | None) -> None:
        """Put back a state saved before records that did not become durable."""
        if state is None:
            self.states.pop(key, None)
        else:
            self.states[key] = state


def _snapshot_value(state: ShareState, snapshot_epoch: int, now_ms: int) -> ShareSnapshotValue:
    return ShareSnapshotValue(
        snapshot_epoch=snapshot_epoch,
        state_epoch=state.state_epoch,
        leader_epoch=state.leader_epoch,
        start_offset=state.start_offset,
        delivery_complete_count=state.delivery_complete_count,
        create_timestamp=state.create_timestamp if state.create_timestamp >= 0 else now_ms,
        write_timestamp=now_ms,
        state_batches=[SnapshotBatch(*b) for b in state.state_batches],
    )
