"""The log cleaner: which partitions to compact and when, the workers, the swaps.

Scheduling follows Apache Kafka's ``LogCleanerManager``:

* Logs whose ``cleanup.policy`` includes ``compact`` are considered; for each, the
  *first dirty offset* is where the last clean ended (``cleaner-offset-checkpoint``
  in the data directory, Kafka's file), and the *first uncleanable offset* the
  lowest of: the active segment's base, the last stable offset (nothing of an open
  transaction is cleaned), the first segment holding a record younger than
  ``min.compaction.lag.ms``, and (ours) the checkpointed recovery point, so that a
  crash never finds a cleaned segment above it (see ``PartitionLog.open``). It is
  rounded down to a segment boundary.
* The *dirty ratio* is the bytes of the segments in [first dirty, first uncleanable)
  over those of every segment below first uncleanable. The log with the highest
  ratio above ``min.cleanable.dirty.ratio`` is cleaned next, or any log whose first
  dirty segment began longer than ``max.compaction.lag.ms`` ago.
* ``log.cleaner.threads`` logs are cleaned at once, each in a worker process
  (trio-parallel): building the key map and rewriting batches is CPU-heavy Python
  that must not share the broker's interpreter lock with request handling. A worker
  reads the segment files itself and writes the cleaned segments beside them; the
  broker only plans the job and swaps the results in
  (:meth:`PartitionLog.replace_with_cleaned`), which is quick and crash-safe.
* With nothing to clean the cleaner sleeps ``log.cleaner.backoff.ms``. A partition
  whose clean fails on damaged data is left alone (uncleanable) until restart.

Settings are read from the broker defaults at each step, so dynamic changes apply.

Internal topics: ``__consumer_offsets`` and ``__transaction_state`` are created with
``cleanup.policy=compact`` and are cleaned like any compacted topic, as in Kafka.
``__share_group_state`` is ``delete`` and pruned by the share coordinator (KIP-932).
The coordinator runtime still rewrites a keyed-state partition's live records and
moves its log start past the rest once it has grown enough: the cleaner never
touches the active segment (100 MiB for ``__consumer_offsets``), and replaying that
much at start-up is where the time goes here, so the rewrite keeps restart replay
bounded by the live state; the cleaner compacts whatever the rewrite leaves.
"""

from __future__ import annotations

import os
import threading
import time
import uuid
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import structlog
import trio
import trio.lowlevel

from broker.log.checkpoint import read_offset_checkpoint, write_offset_checkpoint
from broker.log.clean import MAP_ENTRY_BYTES, CleanAborted, CleanJob, CleanResult, CorruptSegmentError, SourceSegment
from broker.log.clean import clean as run_clean
from broker.log.partition import PartitionLog
from broker.protocol.errors import KafkaError

__all__ = ["CLEANER_CHECKPOINT", "CleanerSettings", "LogCleaner", "LogToClean"]

log = structlog.get_logger("sharebroker.log")

CLEANER_CHECKPOINT = "cleaner-offset-checkpoint"
LONG_MAX = 2**63 - 1
# Kafka's defaults (log.cleaner.*).
DEFAULT_THREADS = 1
DEFAULT_DEDUPE_BUFFER = 128 * 1024 * 1024
DEFAULT_IO_BUFFER = 512 * 1024
DEFAULT_LOAD_FACTOR = 0.9
DEFAULT_BACKOFF_MS = 15_000
# A worker's read chunk never drops below this, whatever the I/O buffer is split into.
MIN_IO_CHUNK = 64 * 1024
# Idle worker processes exit after this long; the next clean starts a new one (~0.3 s).
WORKER_IDLE_TIMEOUT_S = 600.0


@dataclass(frozen=True, slots=True)
class CleanerSettings:
    enable: bool = True
    threads: int = DEFAULT_THREADS
    dedupe_buffer_size: int = DEFAULT_DEDUPE_BUFFER
    io_buffer_size: int = DEFAULT_IO_BUFFER
    load_factor: float = DEFAULT_LOAD_FACTOR
    max_io_bytes_per_second: float = float("inf")
    backoff_ms: int = DEFAULT_BACKOFF_MS

    @classmethod
    def from_broker(cls, values: Mapping[str, str]) -> CleanerSettings:
        def get(key: str, cast: Callable[[str], Any], default: Any) -> Any:
            raw = values.get(key)
            return default if raw is None else cast(raw)

        return cls(
            enable=get("log.cleaner.enable", lambda v: v.strip().lower() == "true", True),
            threads=get("log.cleaner.threads", int, DEFAULT_THREADS),
            dedupe_buffer_size=get("log.cleaner.dedupe.buffer.size", int, DEFAULT_DEDUPE_BUFFER),
            io_buffer_size=get("log.cleaner.io.buffer.size", int, DEFAULT_IO_BUFFER),
            load_factor=get("log.cleaner.io.buffer.load.factor", float, DEFAULT_LOAD_FACTOR),
            max_io_bytes_per_second=get("log.cleaner.io.max.bytes.per.second", float, float("inf")),
            backoff_ms=get("log.cleaner.backoff.ms", int, DEFAULT_BACKOFF_MS),
        )

    @property
    def map_capacity(self) -> int:
        """Keys one clean maps: the dedupe buffer split over the threads, at the load factor."""
        per_thread = self.dedupe_buffer_size / max(self.threads, 1)
        return max(int(per_thread * self.load_factor / MAP_ENTRY_BYTES), 1)

    @property
    def io_chunk(self) -> int:
        # Kafka splits log.cleaner.io.buffer.size over the threads, half to read, half to write.
        return max(self.io_buffer_size // max(self.threads, 1) // 2, MIN_IO_CHUNK)

    @property
    def rate_per_worker(self) -> float:
        return self.max_io_bytes_per_second / max(self.threads, 1)


@dataclass(frozen=True, slots=True)
class LogToClean:
    """A compacted log and its cleanable range (Kafka's ``LogToClean``)."""

    log: PartitionLog
    first_dirty: int
    first_uncleanable: int  # a segment base offset
    clean_bytes: int
    cleanable_bytes: int
    need_compaction_now: bool

    @property
    def total_bytes(self) -> int:
        return self.clean_bytes + self.cleanable_bytes

    @property
    def dirty_ratio(self) -> float:
        return self.cleanable_bytes / self.total_bytes if self.total_bytes else 0.0


@dataclass(slots=True)
class PartitionCleanerStats:
    runs: int = 0
    last_clean_ms: int | None = None
    bytes_read: int = 0
    bytes_written: int = 0


def cleanable_range(part_log: PartitionLog, last_clean: int | None, now_ms: int) -> LogToClean | None:
    """The cleanable range of ``part_log`` (None when it has no inactive segment)."""
    segments = part_log.segments
    if len(segments) < 2:
        return None
    config = part_log.config
    log_start = part_log.log_start_offset
    first_dirty = log_start if last_clean is None else last_clean
    if first_dirty < log_start or first_dirty > part_log.log_end_offset:
        first_dirty = log_start
    active_base = segments[-1].base_offset
    limit = min(active_base, part_log.last_stable_offset, part_log.high_watermark, part_log.checkpointed_recovery_point)
    lag = max(config.min_compaction_lag_ms, 0)
    if lag > 0:
        for seg in segments[:-1]:
            if seg.next_offset > first_dirty and seg.largest_time_ms(mtime_fallback=False) > now_ms - lag:
                limit = min(limit, seg.base_offset)
                break
    limit = max(limit, first_dirty)
    # Cleans stop at segment boundaries: the base of the segment holding the limit.
    bases = [s.base_offset for s in segments]
    uncleanable = min(bases[max(bisect_right(bases, limit) - 1, 0)], active_base)
    low = min(first_dirty, uncleanable)
    clean_bytes = sum(s.size for s in segments if s.base_offset < first_dirty)
    cleanable_bytes = sum(s.size for s in segments if s.next_offset > low and s.base_offset < uncleanable)
    need_now = False
    if config.max_compaction_lag_ms < LONG_MAX:
        earliest = None
        for seg in segments[:-1]:
            if seg.next_offset <= first_dirty or seg.is_empty:
                continue
            try:
                ts = seg.header_at(0).max_timestamp
            except (KafkaError, OSError):
                continue
            if ts > 0:
                earliest = ts if earliest is None else min(earliest, ts)
        need_now = earliest is not None and earliest < now_ms - max(config.max_compaction_lag_ms, 0)
    return LogToClean(part_log, first_dirty, uncleanable, clean_bytes, cleanable_bytes, need_now)


class _SwapSteps:
    """Swaps a clean's groups in, one per iteration; ``done`` tells whether all went in."""

    def __init__(self, part_log: PartitionLog, job: CleanJob, result: CleanResult) -> None:
        self.part_log = part_log
        self.sizes = {s.base_offset: s.size for s in job.segments}
        self.groups = result.groups
        self.done = True

    def __iter__(self) -> Iterator[None]:
        part_log = self.part_log
        for i, group in enumerate(self.groups):
            try:
                swapped = not part_log.closed and part_log.replace_with_cleaned(group, self.sizes)
            except KafkaError as exc:
                log.error("log_clean_swap_failed", topic=part_log.topic, partition=part_log.partition, error=str(exc))
                swapped = False
            if not swapped:
                if not part_log.closed:
                    for rest in self.groups[i:]:
                        part_log.discard_cleaned(rest)
                self.done = False
                return
            yield


class LogCleaner:
    """Compacts the logs of one data directory (see the module docstring)."""

    def __init__(
        self,
        data_dir: Path,
        *,
        logs: Callable[[], Iterable[PartitionLog]],
        settings: Callable[[], CleanerSettings],
        now_ms: Callable[[], int],
        compacted: Callable[[], Iterable[PartitionLog]] | None = None,
        retiring: Callable[[], Iterable[PartitionLog]] | None = None,
        unopened: Callable[[], Iterable[tuple[str, int]]] | None = None,
    ) -> None:
        """``logs``: every log; ``compacted``: those whose cleanup.policy compacts (the
        cleaner's passes look at these only), ``retiring``: those holding segments taken
        out of the log (whose descriptors it closes once file.delete.delay.ms is over).
        Without them the cleaner filters ``logs``. ``unopened``: partitions whose logs
        exist but are not open yet (their checkpoint entries are kept)."""
        self.data_dir = data_dir
        self._all_logs = logs
        self._unopened = unopened or (lambda: ())
        self._logs = compacted or logs
        self._retiring = retiring or logs
        self._settings = settings
        self._now_ms = now_ms
        self._checkpoint_lock = threading.Lock()
        self._last_clean: dict[tuple[str, int], int] = read_offset_checkpoint(data_dir / CLEANER_CHECKPOINT)
        self._in_progress: dict[tuple[str, int], trio.CancelScope | None] = {}
        self._uncleanable: set[tuple[str, int]] = set()
        self.stats: dict[tuple[str, int], PartitionCleanerStats] = {}
        self.runs = 0
        self.bytes_read = 0
        self.bytes_written = 0
        self.failures = 0
        self.last_run_ms = now_ms()
        self.max_dirty_ratio = 0.0
        self.last_buffer_utilization = 0.0
        self._wake: trio.Event | None = None

    # ------------------------------------------------------------------ planning

    def first_dirty_offset(self, part_log: PartitionLog) -> int | None:
        return self._last_clean.get((part_log.topic, part_log.partition))

    def dirty_ratio(self, part_log: PartitionLog) -> float:
        """The dirty ratio of ``part_log`` now (0 for a log that is not compacted)."""
        if not part_log.config.compact or part_log.closed:
            return 0.0
        try:
            ltc = cleanable_range(part_log, self.first_dirty_offset(part_log), self._now_ms())
        except (KafkaError, OSError):
            return 0.0
        return 0.0 if ltc is None else ltc.dirty_ratio

    def grab_filthiest(self, now_ms: int) -> LogToClean | None:
        """The log to clean next (marked in progress), or None."""
        candidates: list[LogToClean] = []
        for part_log in self._logs():
            key = (part_log.topic, part_log.partition)
            if not part_log.config.compact or part_log.closed or key in self._in_progress or key in self._uncleanable:
                continue
            try:
                ltc = cleanable_range(part_log, self._last_clean.get(key), now_ms)
            except (KafkaError, OSError) as exc:
                log.warning("log_clean_plan_failed", topic=key[0], partition=key[1], error=str(exc))
                continue
            if ltc is not None and ltc.total_bytes > 0:
                candidates.append(ltc)
        self.last_run_ms = now_ms
        self.max_dirty_ratio = max((c.dirty_ratio for c in candidates), default=0.0)
        ready = [
            c
            for c in candidates
            if (c.need_compaction_now and c.cleanable_bytes > 0)
            or c.dirty_ratio > c.log.config.min_cleanable_dirty_ratio
        ]
        if not ready:
            return None
        best = max(ready, key=lambda c: c.dirty_ratio)
        self._in_progress[(best.log.topic, best.log.partition)] = None
        return best

    def make_job(self, ltc: LogToClean, settings: CleanerSettings, now_ms: int) -> CleanJob:
        part_log = ltc.log
        config = part_log.config
        segments = part_log.segments
        sources = tuple(
            SourceSegment(s.base_offset, s.size, s.next_offset)
            for s in segments[:-1]
            if s.base_offset < ltc.first_uncleanable
        )
        return CleanJob(
            directory=str(part_log.path),
            segments=sources,
            first_dirty=ltc.first_dirty,
            first_uncleanable=ltc.first_uncleanable,
            aborted=tuple(part_log.aborted_between(segments[0].base_offset, ltc.first_uncleanable)),
            last_records=part_log.last_records_of_producers(),
            now_ms=now_ms,
            delete_retention_ms=config.delete_retention_ms,
            segment_bytes=config.segment_bytes,
            index_bytes=config.segment_index_bytes,
            index_interval_bytes=config.index_interval_bytes,
            map_capacity=settings.map_capacity,
            io_buffer_bytes=settings.io_chunk,
            max_bytes_per_second=settings.rate_per_worker,
            token=uuid.uuid4().hex[:12],
            parent_pid=os.getpid(),
        )

    # ------------------------------------------------------------------ results

    def apply(self, ltc: LogToClean, job: CleanJob, result: CleanResult) -> bool:
        """Swap the cleaned segments in and move the checkpoint (on the log's thread).
        False (nothing more swapped, the checkpoint left) if the log changed meanwhile."""
        steps = self._swap_steps(ltc, job, result)
        for _ in steps:
            pass
        return self._record(ltc, job, result, steps.done)

    async def apply_async(self, ltc: LogToClean, job: CleanJob, result: CleanResult) -> bool:
        """:meth:`apply`, letting other tasks run between two swaps: one swap takes a few
        milliseconds (renames, directory fsyncs), a clean of many segments makes many."""
        steps = self._swap_steps(ltc, job, result)
        for _ in steps:
            await trio.lowlevel.checkpoint()
        return self._record(ltc, job, result, steps.done)

    def _swap_steps(self, ltc: LogToClean, job: CleanJob, result: CleanResult) -> _SwapSteps:
        return _SwapSteps(ltc.log, job, result)

    def _record(self, ltc: LogToClean, job: CleanJob, result: CleanResult, done: bool) -> bool:
        part_log = ltc.log
        key = (part_log.topic, part_log.partition)
        stats = self.stats.setdefault(key, PartitionCleanerStats())
        stats.runs += 1
        stats.last_clean_ms = self._now_ms()
        stats.bytes_read += result.stats.bytes_read
        stats.bytes_written += result.stats.bytes_written
        self.runs += 1
        self.bytes_read += result.stats.bytes_read
        self.bytes_written += result.stats.bytes_written
        self.last_buffer_utilization = result.stats.buffer_utilization
        if done:
            self._last_clean[key] = result.end_offset
        log.info(
            "log_cleaned",
            topic=part_log.topic,
            partition=part_log.partition,
            first_dirty=job.first_dirty,
            end_offset=result.end_offset,
            segments=len(job.segments),
            groups=len(result.groups),
            bytes_read=result.stats.bytes_read,
            bytes_written=result.stats.bytes_written,
            records_read=result.stats.records_read,
            records_kept=result.stats.records_kept,
            seconds=round(result.stats.seconds, 3),
            swapped=done,
        )
        return done

    def write_checkpoint(self) -> None:
        """Write ``cleaner-offset-checkpoint`` for the logs that still exist (blocking)."""
        live = {(p.topic, p.partition) for p in self._all_logs()}
        live.update(self._unopened())
        with self._checkpoint_lock:
            entries = {k: v for k, v in self._last_clean.items() if k in live}
            write_offset_checkpoint(self.data_dir / CLEANER_CHECKPOINT, entries)

    def forget(self, topic: str, partition: int) -> None:
        """A partition was deleted: drop its checkpoint, abort its clean."""
        key = (topic, partition)
        self._last_clean.pop(key, None)
        self._uncleanable.discard(key)
        self.stats.pop(key, None)
        scope = self._in_progress.get(key)
        if scope is not None:
            scope.cancel()

    def _done(self, ltc: LogToClean) -> None:
        self._in_progress.pop((ltc.log.topic, ltc.log.partition), None)

    def _failed(self, ltc: LogToClean, exc: BaseException) -> None:
        key = (ltc.log.topic, ltc.log.partition)
        self.failures += 1
        if isinstance(exc, CorruptSegmentError):
            self._uncleanable.add(key)
            log.error("log_uncleanable", topic=key[0], partition=key[1], error=str(exc))
        else:
            log.warning("log_clean_failed", topic=key[0], partition=key[1], error=repr(exc))

    def _no_progress(self, ltc: LogToClean, job: CleanJob, result: CleanResult) -> bool:
        """A round whose key map could not hold even one batch's keys cannot move:
        the partition is left alone, as Kafka does, with the setting to change."""
        if result.end_offset > job.first_dirty or result.groups:
            return False
        key = (ltc.log.topic, ltc.log.partition)
        self._uncleanable.add(key)
        self.failures += 1
        log.error(
            "log_uncleanable",
            topic=key[0],
            partition=key[1],
            error=f"the key map ({job.map_capacity} keys) cannot hold one batch's keys at offset {job.first_dirty}; "
            "raise log.cleaner.dedupe.buffer.size or lower log.cleaner.threads",
        )
        return True

    @property
    def uncleanable(self) -> frozenset[tuple[str, int]]:
        return frozenset(self._uncleanable)

    # ------------------------------------------------------------------ running

    def clean_once(self, now_ms: int | None = None) -> bool:
        """Clean the filthiest log in this thread (tests and tools); True if one was cleaned."""
        now = self._now_ms() if now_ms is None else now_ms
        ltc = self._prepare(now)
        if ltc is None:
            return False
        try:
            job = self.make_job(ltc, self._settings(), now)
            try:
                result = run_clean(job)
            except (CorruptSegmentError, CleanAborted, OSError) as exc:
                self._failed(ltc, exc)
                return False
            if self._no_progress(ltc, job, result):
                return False
            self.apply(ltc, job, result)
            self.write_checkpoint()
            return True
        finally:
            self._done(ltc)

    def _prepare(self, now_ms: int) -> LogToClean | None:
        """Make the recovery points of compacted logs durable where that lets more be
        cleaned, then grab the filthiest log."""
        for part_log in self._logs():
            if (
                part_log.config.compact
                and not part_log.closed
                and part_log.checkpointed_recovery_point < part_log.active_segment.base_offset
                and part_log.recovery_point > part_log.checkpointed_recovery_point
            ):
                part_log.checkpoint_recovery_point()
        return self.grab_filthiest(now_ms)

    def wake(self) -> None:
        """Look for work now (a config changed, a test wants a clean)."""
        if self._wake is not None:
            self._wake.set()

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Clean forever: up to log.cleaner.threads partitions at once, in worker processes."""
        import trio_parallel  # a worker process per clean: see the module docstring

        async with trio_parallel.open_worker_context(idle_timeout=WORKER_IDLE_TIMEOUT_S) as ctx:
            async with trio.open_nursery() as nursery:
                task_status.started()
                while True:
                    self._wake = trio.Event()
                    settings = self._settings()
                    now = self._now_ms()
                    for part_log in self._retiring():
                        if not part_log.closed:
                            part_log.close_retired(now)
                    if settings.enable and len(self._in_progress) < settings.threads:
                        ltc = await self._prepare_async(now)
                        if ltc is not None:
                            job = self.make_job(ltc, settings, now)
                            nursery.start_soon(self._clean_in_worker, ctx, ltc, job)
                            continue
                    with trio.move_on_after(settings.backoff_ms / 1000):
                        await self._wake.wait()

    async def _prepare_async(self, now_ms: int) -> LogToClean | None:
        stale = [
            p
            for p in self._logs()
            if p.config.compact
            and not p.closed
            and p.checkpointed_recovery_point < p.active_segment.base_offset
            and p.recovery_point > p.checkpointed_recovery_point
        ]
        for part_log in stale:
            try:
                await trio.to_thread.run_sync(part_log.checkpoint_recovery_point)
            except OSError as exc:
                log.warning(
                    "recovery_point_checkpoint_failed",
                    topic=part_log.topic,
                    partition=part_log.partition,
                    error=str(exc),
                )
        return self.grab_filthiest(now_ms)

    async def _clean_in_worker(self, ctx: Any, ltc: LogToClean, job: CleanJob) -> None:
        key = (ltc.log.topic, ltc.log.partition)
        scope = trio.CancelScope()
        self._in_progress[key] = scope
        try:
            with scope:
                started = time.monotonic()
                log.info(
                    "log_clean_started",
                    topic=key[0],
                    partition=key[1],
                    first_dirty=job.first_dirty,
                    first_uncleanable=job.first_uncleanable,
                    segments=len(job.segments),
                )
                try:
                    result = await ctx.run_sync(run_clean, job, cancellable=True)
                except (CorruptSegmentError, CleanAborted, OSError) as exc:
                    self._failed(ltc, exc)
                    return
                except Exception as exc:  # a worker that died, or a bug: log and go on
                    self._failed(ltc, exc)
                    return
                if ltc.log.closed:
                    for group in result.groups:
                        ltc.log.discard_cleaned(group)
                    return
                if self._no_progress(ltc, job, result):
                    return
                await self.apply_async(ltc, job, result)
                await trio.to_thread.run_sync(self.write_checkpoint)
                log.debug("log_clean_round", topic=key[0], partition=key[1], seconds=time.monotonic() - started)
            if scope.cancelled_caught:
                log.info("log_clean_aborted", topic=key[0], partition=key[1])
        finally:
            self._done(ltc)
            self.wake()

    def partition_stats(self) -> list[tuple[str, int, float, float | None]]:
        """(topic, partition, dirty ratio, seconds since its last clean or None) of each
        compacted log, for the metrics."""
        now = self._now_ms()
        out = []
        for part_log in self._logs():
            if not part_log.config.compact or part_log.closed:
                continue
            stats = self.stats.get((part_log.topic, part_log.partition))
            since = None if stats is None or stats.last_clean_ms is None else (now - stats.last_clean_ms) / 1000
            out.append((part_log.topic, part_log.partition, self.dirty_ratio(part_log), since))
        return out
