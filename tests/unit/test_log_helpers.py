"""Shared helpers for the log tests (no tests here): batch builders and log openers."""

from __future__ import annotations

import uuid
from pathlib import Path

from broker.log.config import LogConfig
from broker.log.partition import PartitionLog
from broker.protocol.records import build_batch, build_end_txn_marker, iter_batches, iter_records

TOPIC_ID = uuid.UUID("5d1c6f4e-9a47-4a62-8b55-0f7f3a6e2b11")


class Clock:
    """A settable millisecond clock."""

    def __init__(self, now: int = 1_700_000_000_000) -> None:
        self.now = now

    def __call__(self) -> int:
        return self.now


def batch(
    n: int = 1,
    *,
    ts: int = 1_700_000_000_000,
    value_size: int = 10,
    pid: int = -1,
    epoch: int = -1,
    seq: int = -1,
    txn: bool = False,
    timestamps: list[int] | None = None,
) -> bytes:
    stamps = timestamps if timestamps is not None else [ts] * n
    return build_batch(
        [(b"k%d" % i, b"v" * value_size, (), stamps[i]) for i in range(len(stamps))],
        producer_id=pid,
        producer_epoch=epoch,
        base_sequence=seq,
        transactional=txn,
    )


def marker(pid: int, epoch: int, *, commit: bool, coordinator_epoch: int = 0, ts: int = 1_700_000_000_000) -> bytes:
    return build_end_txn_marker(
        commit=commit, coordinator_epoch=coordinator_epoch, producer_id=pid, producer_epoch=epoch, timestamp=ts
    )


def open_log(
    data_dir: Path, config: LogConfig | None = None, clock: Clock | None = None, *, partition: int = 0
) -> PartitionLog:
    """A partition log; its transactional batches are appended as if verified (log
    mechanics only: verification has its own tests), unless ``config`` says otherwise."""
    return PartitionLog.open(
        data_dir / f"t-{partition}",
        "t",
        partition,
        TOPIC_ID,
        config or LogConfig(transaction_verification=False),
        clock or Clock(),
    )


def batch_offsets(records: bytes) -> list[tuple[int, int]]:
    return [(h.base_offset, h.last_offset) for h, _ in iter_batches(records)]


def all_values(records: bytes) -> list[tuple[int, bytes | None]]:
    return [(r.offset, r.value) for _, view in iter_batches(records) for r in iter_records(view)]


def crash(log: PartitionLog) -> None:
    """Drop a log as a killed process would: descriptors closed, nothing flushed or written."""
    log.discard()
