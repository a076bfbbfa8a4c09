"""Appends to a PartitionLog: a leader's appends of client batches, a follower's copies.

:class:`LogAppends` is part of :class:`broker.log.partition.PartitionLog` (a mixin,
split out at this seam for size). ``append`` validates every batch against the
producer state on a copy (a refused request changes nothing), rolls the segment if the
batches do not fit, writes them in one writev (each as its rewritten prefix plus a
view of the caller's bytes), indexes them and commits the producer state.
``append_as_follower`` takes the leader's batches as they are, CRC-checked, and
rebuilds producer state and leader epochs from their headers.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import NamedTuple

from broker.log.clean import batch_records
from broker.log.config import LogConfig
from broker.log.epoch_cache import LeaderEpochCache
from broker.log.index import AbortedTxn
from broker.log.loader import aborted_entry, marker_of, replay_batch
from broker.log.producer_state import AppendOrigin, AppendStage, CompletedTxn, ProducerStateManager, VerificationGuard
from broker.log.segment import LogSegment
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.records import (
    UNCHECKED_PREFIX,
    BatchHeader,
    BatchView,
    RecordBatchError,
    TimestampType,
    compute_crc,
    iter_batches,
    set_base_offset,
    set_max_timestamp,
    set_partition_leader_epoch,
)

__all__ = ["AppendInfo", "LogAppends"]


class AppendInfo(NamedTuple):
    base_offset: int
    last_offset: int
    log_append_time_ms: int  # -1 unless the topic uses LogAppendTime
    log_start_offset: int
    duplicate: bool
    record_count: int


def _require_keys(header: BatchHeader, view: memoryview, topic: str, partition: int) -> None:
    """A compacted topic keeps the latest record per key: a record without one is
    refused with INVALID_RECORD (87), as Kafka does."""
    for record in batch_records(header, view):
        if record.key is None:
            raise KafkaError(
                ErrorCode.INVALID_RECORD,
                f"Compacted topic cannot accept message without key in topic partition {topic}-{partition}.",
            )


class LogAppends:
    """The append half of PartitionLog (which provides these attributes and methods)."""

    topic: str
    partition: int
    epochs: LeaderEpochCache
    _config: LogConfig
    _lock: threading.Lock
    _leo: int
    _log_start: int
    _unflushed_messages: int
    _producers: ProducerStateManager
    _aborted: list[AbortedTxn]
    _aborted_last: list[int]
    _failed_writers: set[int]
    _now_ms: Callable[[], int]
    _check_open: Callable[[], None]
    _written: Callable[[], None]
    _maybe_roll_for: Callable[[int, int, int], LogSegment]

    def append(
        self,
        records: bytes | bytearray | memoryview,
        *,
        log_append_time_ms: int | None = None,
        leader_epoch: int | None = None,
        origin: AppendOrigin = AppendOrigin.CLIENT,
        verification_guard: VerificationGuard | None = None,
        transaction_version: int = 0,
    ) -> AppendInfo:
        """Append one or more v2 batches, assigning consecutive offsets.

        The batches are stored as given except for their base offset (and the
        leader epoch, and for LogAppendTime topics the timestamp type, max
        timestamp and CRC). Writes reach the page cache only; durability is the
        group committer's job. Raises KafkaError / RecordBatchError carrying
        ``error_code`` (see the module and producer-state docs).

        ``origin``: coordinators' appends (transaction markers, transactional offset
        commits) skip duplicate and sequence checks. ``verification_guard``: what
        the transaction verification of this request handed out (KIP-890).
        ``transaction_version``: of the markers appended (WriteTxnMarkers v2).
        """
        self._check_open()
        config = self._config
        # The caller's bytes are never modified or copied whole: each batch is
        # written as its rewritten prefix plus a view of the rest.
        buf = memoryview(records)
        batches = list(iter_batches(buf))
        if not batches:
            raise KafkaError(ErrorCode.INVALID_RECORD, "no record batch to append")
        if len(buf) > config.segment_bytes:
            raise KafkaError(
                ErrorCode.RECORD_LIST_TOO_LARGE,
                f"{len(buf)} bytes of batches exceed the segment size {config.segment_bytes}",
            )
        append_time = -1
        if config.log_append_time:
            append_time = log_append_time_ms if log_append_time_ms is not None else self._now_ms()

        staged = self._stage(batches, append_time, origin, verification_guard, transaction_version)
        if isinstance(staged, AppendInfo):
            return staged  # a duplicate of a batch already appended: its offsets
        stage, plan, next_offset, records_count = staged
        first_base = plan[0][2]
        incoming_max_ts = append_time if append_time >= 0 else max(h.max_timestamp for h, _, _ in plan)
        try:
            seg = self._maybe_roll_for(len(buf), next_offset - 1, incoming_max_ts)
            self._write_planned(seg, plan, append_time, leader_epoch)
        except KafkaError as exc:
            if exc.code == ErrorCode.KAFKA_STORAGE_ERROR:
                self._failed_writers.update(h.producer_id for h, _, _ in plan if h.has_producer_id)
            raise
        if self._failed_writers:
            self._failed_writers.difference_update(h.producer_id for h, _, _ in plan)
        del plan, batches
        for txn in self._producers.commit(stage):
            self._record_completed(txn, seg)
        with self._lock:
            if leader_epoch is not None and leader_epoch > self.epochs.latest_epoch:
                self.epochs.assign(leader_epoch, first_base)
            self._leo = next_offset
            self._unflushed_messages += records_count
            seg.dirty = True
        self._written()
        return AppendInfo(first_base, next_offset - 1, append_time, self._log_start, False, records_count)

    def _stage(
        self,
        batches: list[BatchView],
        append_time: int,
        origin: AppendOrigin,
        verification_guard: VerificationGuard | None,
        transaction_version: int,
    ) -> tuple[AppendStage, list[tuple[BatchHeader, memoryview, int]], int, int] | AppendInfo:
        """Offsets and producer-state validation of ``append``, before touching anything:
        (the producer-state stage, (header, view, base offset) of each batch, the next
        offset, the record count), or the AppendInfo of a duplicate batch."""
        config = self._config
        stage = self._producers.stage()
        plan: list[tuple[BatchHeader, memoryview, int]] = []
        next_offset = self._leo
        records_count = 0
        for header, view in batches:
            if header.size > config.max_message_bytes:
                raise KafkaError(
                    ErrorCode.MESSAGE_TOO_LARGE,
                    f"batch of {header.size} bytes exceeds max.message.bytes {config.max_message_bytes}",
                )
            if config.compact and not header.is_control:
                _require_keys(header, view, self.topic, self.partition)
            if header.records_count != header.last_offset_delta + 1 or header.records_count <= 0:
                if not (header.is_control and header.records_count == 0):
                    raise KafkaError(
                        ErrorCode.INVALID_RECORD,
                        f"record count {header.records_count} does not match "
                        f"last offset delta {header.last_offset_delta}",
                    )
            base = next_offset
            if header.has_producer_id:
                if header.is_control:
                    marker = marker_of(view)
                    if marker is not None:
                        stage.add_marker(header, base, marker[0], marker[1], transaction_version)
                else:
                    duplicate = stage.duplicate_of(header) if origin is AppendOrigin.CLIENT else None
                    if duplicate is not None:
                        return AppendInfo(
                            duplicate.first_offset,
                            duplicate.last_offset,
                            duplicate.timestamp if config.log_append_time else -1,
                            self._log_start,
                            True,
                            duplicate.last_offset - duplicate.first_offset + 1,
                        )
                    try:
                        stage.add_data(
                            header,
                            base,
                            base + header.last_offset_delta,
                            append_time if append_time >= 0 else header.max_timestamp,
                            origin=origin,
                            verification_guard=verification_guard,
                        )
                    except KafkaError as exc:
                        if (
                            exc.code != ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER
                            or header.producer_id not in self._failed_writers
                        ):
                            raise
                        # The gap is this producer's batch that the disk refused a moment ago: it
                        # was not written, and the client retries it first. Kafka answers with
                        # the same storage error once a write fails (the directory goes offline);
                        # a sequence error here would make an idempotent client bump its epoch
                        # and send its other partitions' unacknowledged batches again under new
                        # sequence numbers, where they can no longer be recognised as duplicates.
                        raise KafkaError(
                            ErrorCode.KAFKA_STORAGE_ERROR,
                            f"{self.topic}-{self.partition}: an earlier batch of producer {header.producer_id} "
                            "failed to be written; it goes first",
                        ) from exc
            plan.append((header, view, base))
            next_offset = base + header.last_offset_delta + 1
            records_count += header.records_count

        return stage, plan, next_offset, records_count

    def _write_planned(
        self,
        seg: LogSegment,
        plan: list[tuple[BatchHeader, memoryview, int]],
        append_time: int,
        leader_epoch: int | None,
    ) -> None:
        """Write the staged batches to ``seg`` in one writev, each with its offset (and
        leader epoch, append time) set, and index them."""
        parts: list[bytes | bytearray | memoryview] = []
        for _header, view, base in plan:
            if append_time >= 0:
                # LogAppendTime rewrites CRC-covered fields: this batch is copied whole.
                patched = bytearray(view)
                parts.append(patched)
            else:
                patched = bytearray(view[:UNCHECKED_PREFIX])
                parts += (patched, view[UNCHECKED_PREFIX:])
            set_base_offset(patched, base)
            if leader_epoch is not None:
                set_partition_leader_epoch(patched, leader_epoch)
            if append_time >= 0:
                set_max_timestamp(patched, TimestampType.LOG_APPEND_TIME, append_time)
        start = seg.write(*parts)

        interval = self._config.index_interval_bytes
        pos = start
        for header, _view, base in plan:
            last = base + header.last_offset_delta
            max_ts = append_time if append_time >= 0 else header.max_timestamp
            seg.track_batch(pos, header.size, last, max_ts, interval)
            pos += header.size

    def _record_completed(self, txn: CompletedTxn, seg: LogSegment) -> None:
        entry = aborted_entry(txn, self._producers)
        if entry is None:
            return
        seg.txn_index.append(entry)
        self._aborted.append(entry)
        self._aborted_last.append(entry.last_offset)

    def append_as_follower(
        self, records: bytes | bytearray | memoryview, *, allow_gaps: bool = False
    ) -> AppendInfo | None:
        """Append batches copied from the leader, as they are (offsets, leader epochs,
        timestamps, producer ids); None when ``records`` holds no whole batch.

        The first batch must start at the log end offset and offsets must be dense
        (with ``allow_gaps``, batches may start past the previous batch's end: a future
        replica copies a compacted log, whose cleaned batches leave gaps);
        every batch's CRC is checked. Producer state and the leader epoch cache are
        rebuilt from the batch headers as recovery does (the leader validated the
        data). Raises KafkaError: OFFSET_OUT_OF_RANGE for a gap or overlap,
        CORRUPT_MESSAGE for a damaged batch, KAFKA_STORAGE_ERROR for a failed write.
        """
        self._check_open()
        buf = memoryview(records)
        try:
            batches = list(iter_batches(buf, allow_partial=True))
        except RecordBatchError as exc:
            raise KafkaError(ErrorCode.CORRUPT_MESSAGE, f"batch from the leader is invalid: {exc}") from exc
        if not batches:
            return None
        expected = self._leo
        for header, view in batches:
            if header.base_offset != expected and not (allow_gaps and header.base_offset > expected):
                raise KafkaError(
                    ErrorCode.OFFSET_OUT_OF_RANGE,
                    f"{self.topic}-{self.partition}: batch at offset {header.base_offset}, log ends at {expected}",
                )
            if compute_crc(view) != header.crc:
                raise KafkaError(ErrorCode.CORRUPT_MESSAGE, f"batch at offset {header.base_offset} fails its CRC")
            expected = header.next_offset
        first_base = batches[0][0].base_offset
        interval = self._config.index_interval_bytes
        records_count = 0
        # Consecutive batches that share a segment go out in one writev.
        i = 0
        while i < len(batches):
            header = batches[i][0]
            seg = self._maybe_roll_for(header.size, header.last_offset, header.max_timestamp)
            group = [batches[i]]
            size = header.size
            j = i + 1
            while j < len(batches):
                nxt = batches[j][0]
                if seg.size + size + nxt.size > self._config.segment_bytes or not seg.can_hold(
                    size + nxt.size, nxt.last_offset
                ):
                    break
                group.append(batches[j])
                size += nxt.size
                j += 1
            pos = seg.write(*(view for _, view in group))
            for h, view in group:
                seg.track_batch(pos, h.size, h.last_offset, h.max_timestamp, interval)
                pos += h.size
                completed = replay_batch(self._producers, h, view)
                if completed is not None:
                    self._record_completed(completed, seg)
                records_count += h.records_count
                with self._lock:
                    if h.partition_leader_epoch > self.epochs.latest_epoch:
                        self.epochs.assign(h.partition_leader_epoch, h.base_offset)
                    self._leo = h.next_offset
                    self._unflushed_messages += h.records_count
                    seg.dirty = True
            i = j
        last = batches[-1][0]
        self._written()
        return AppendInfo(first_base, last.last_offset, -1, self._log_start, False, records_count)

    def assign_epoch_start(self, epoch: int) -> None:
        """This replica leads from now on at ``epoch``: the epoch starts at the log end."""
        self._failed_writers.clear()  # failures of an earlier leadership explain no gap now
        with self._lock:
            self.epochs.assign(epoch, self._leo)
        self._written()
