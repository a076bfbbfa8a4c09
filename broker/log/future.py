"""Future replicas: how AlterReplicaLogDirs moves a partition between log directories online.

Kafka's way (``ReplicaAlterLogDirsThread``): the broker opens a *future* log for
the partition in the target directory and copies the current log's batches into
it, as a follower copies its leader's, while the current log goes on taking
appends. Once the future log has caught up, the two change places at once (no
append can come in between: the swap runs without yielding to the event loop),
and the old log is deleted.

:func:`catch_up` is one bounded copy step; :class:`~broker.log.manager.LogManager`
drives the steps and does the swap. The current log stays the partition's log of
record until the swap, so a crash during a move loses nothing: at start-up a
future log next to its current log resumes the move, and a future log left
alone (the crash came between the two renames of the swap) is the one that had
caught up and been made durable, and becomes the current log.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from broker.log.partition import PartitionLog

__all__ = ["COPY_STEP_BYTES", "FutureReplica", "catch_up"]

# Bytes copied per step before other tasks get the event loop: 1 MiB is ~1 ms of
# page-cache copying here, so produce and fetch latency barely notice a move.
COPY_STEP_BYTES = 1 << 20


@dataclass(slots=True)
class FutureReplica:
    """A future log being filled from the current log of ``topic``-``partition``."""

    topic: str
    partition: int
    log: PartitionLog
    directory: Path  # the log directory it moves to

    @property
    def key(self) -> tuple[str, int]:
        return (self.topic, self.partition)


def _diverged_at(current: PartitionLog, future: PartitionLog) -> int:
    """Where the future log stops agreeing with the current one (its end if it agrees):
    the current log may have been truncated (a follower cut back to its leader) and
    re-filled since those batches were copied."""
    end = future.log_end_offset
    if end > current.log_end_offset:
        end = current.log_end_offset
    latest = future.epochs.latest_epoch
    if latest >= 0:
        epoch, epoch_end = current.epochs.end_offset_for(latest, current.log_end_offset)
        if epoch != latest or epoch_end < end:
            end = min(end, epoch_end if epoch >= 0 else current.log_start_offset)
    return max(end, 0)


def catch_up(current: PartitionLog, future: PartitionLog, max_bytes: int = COPY_STEP_BYTES) -> bool:
    """Copy up to ``max_bytes`` of batches from ``current`` into ``future``; True once the
    future log holds everything the current one does (same start and end)."""
    if future.log_end_offset < current.log_start_offset:
        # What the future log has is gone from the current one (retention, DeleteRecords).
        future.truncate_fully_and_start_at(current.log_start_offset)
    cut = _diverged_at(current, future)
    if cut < future.log_end_offset:
        if cut <= future.log_start_offset:
            future.truncate_fully_and_start_at(max(cut, current.log_start_offset))
        else:
            future.truncate_to(cut)
    if future.log_end_offset < current.log_end_offset:
        result = current.read(future.log_end_offset, max_bytes)
        if result.records:
            if result.first_offset < future.log_end_offset and future.log_end_offset == future.log_start_offset:
                # The current log starts inside a batch: start the empty future log at
                # that batch, as a follower does (Kafka's UnexpectedAppendOffsetException).
                future.truncate_fully_and_start_at(result.first_offset)
            future.append_as_follower(result.records, allow_gaps=True)
    if future.log_end_offset < current.log_end_offset:
        return False
    if future.log_start_offset < current.log_start_offset:
        future.delete_records(current.log_start_offset)
    return True
