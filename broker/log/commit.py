"""Group commit: one fsync round makes every waiting append durable at once.

A produce with ``acks=all`` appends (page cache only) and then awaits
:meth:`GroupCommitter.wait_durable`. The committer's background task collects
every log that has waiters, fsyncs them all off the event loop, and wakes all
those waiters together once every fsync of the round has returned: N concurrent
producers cost one round of fsyncs, not N. A round's logs are fsynced
concurrently (up to ``FSYNC_CONCURRENCY`` at once), each failure reported to
that log's waiters only. (One ``syncfs`` per round was tried for rounds of
thousands of logs: it also writes back whatever else is dirty on the file
system, and measured no faster here.) A waiter that arrives while a round is running waits
for the next round, since that round may have captured the log before the
waiter's append.

The same task applies Kafka's flush policy to data produced with acks=0/1
(``flush.messages`` / ``log.flush.interval.messages``: flush a log holding that
many unflushed records; ``flush.ms`` / ``log.flush.interval.ms``: flush a log
whose data has waited that long) and flushes segments that were rolled, as
Kafka does on roll, so the recovery point keeps moving. The policy looks only at
logs written since their last flush: a log reports its writes
(``PartitionLog.on_write``, which the committer installs on every log it sees),
so a broker holding thousands of idle partitions pays nothing for them. Logs
are found through ``logs`` (or :meth:`attach`), walked once at start and every
``FULL_WALK_S`` after (a safety net for logs opened without the hook).

"""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any

import structlog
import trio

from broker.log.checkpoint import disk_full, sync_filesystem
from broker.protocol.errors import ErrorCode, KafkaError

if TYPE_CHECKING:
    from broker.log.partition import PartitionLog

__all__ = ["GroupCommitter"]

log = structlog.get_logger("sharebroker.log")

# How often the flush policy (flush.ms, flush.messages, rolled segments) is
# checked: once a second, so flush.ms is honoured to within a second; a pass looks
# only at the logs written since their last flush.
POLICY_INTERVAL_S = 1.0
# How often the policy walks every log (installing the write hook on new ones): a
# walk over 30,000 logs takes ~20 ms, once a minute.
FULL_WALK_S = 60.0
# flush.ms at or above this is "never" (Kafka's default is Long.MAX_VALUE): a log
# that is not due now leaves the watch list until its next write.
FLUSH_MS_NEVER = 2**62

# A round of at least this many logs syncs the file system once (syncfs) instead of
# fsyncing each segment and new directory (a produce to 5,000 new partitions: 10,000
# fsyncs, 8 at a time). A syncfs also writes back whatever else is dirty on the file
# system, so small rounds keep their fsyncs.
SYNCFS_MIN_LOGS = 256

# Most fsyncs one round runs at once. Concurrent fdatasyncs on one file system share
# journal commits and keep the device queue full: on the development VM 8 logs take
# 3.6 ms together against 14.5 ms one after another, and going past 8 gains little
# while every thread is one more stack. fsync releases the GIL, so the waiting threads
# cost the event loop nothing.
FSYNC_CONCURRENCY = 8


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class _Round:
    """The logs to fsync in one round and the event that wakes their waiters."""

    __slots__ = ("done", "errors", "logs")

    def __init__(self) -> None:
        self.logs: dict[int, PartitionLog] = {}
        self.done = trio.Event()
        self.errors: dict[int, KafkaError] = {}


def _flush_all(
    logs: list[PartitionLog], pool: ThreadPoolExecutor | None = None, concurrency: int = 1
) -> dict[int, KafkaError]:
    """Runs in a worker thread: flush every log, collecting failures per log.

    With a ``pool``, up to ``concurrency - 1`` helpers from it take logs from the
    same list as this thread, so up to ``concurrency`` fsyncs overlap. Returns once
    every log has been flushed or has failed.
    """
    errors: dict[int, KafkaError] = {}
    if len(logs) >= SYNCFS_MIN_LOGS:
        return _flush_all_synced_once(logs)
    todo = iter(logs)
    lock = threading.Lock()

    def drain() -> None:
        while True:
            with lock:
                part_log = next(todo, None)
            if part_log is None:
                return
            try:
                part_log.flush()
            except KafkaError as exc:
                errors[id(part_log)] = exc
            except Exception as exc:  # a bug in one log must not strand every waiter
                errors[id(part_log)] = KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"flush failed: {exc!r}")

    helpers = [] if pool is None else [pool.submit(drain) for _ in range(min(len(logs), concurrency) - 1)]
    drain()
    for helper in helpers:
        helper.result()
    return errors


def _flush_all_synced_once(logs: list[PartitionLog]) -> dict[int, KafkaError]:
    """Runs in a worker thread: write every log's buffered data unsynced, sync the file
    system once, then finish every flush (a failed sync fails them all)."""
    errors: dict[int, KafkaError] = {}
    finishers = []
    for part_log in logs:
        try:
            finishers.append((part_log, part_log.flush_unsynced()))
        except KafkaError as exc:
            errors[id(part_log)] = exc
    failed: OSError | None = None
    if finishers:
        try:
            sync_filesystem(finishers[0][0].path.parent)
        except OSError as exc:
            failed = exc
    for part_log, finish in finishers:
        try:
            finish(failed)
        except KafkaError as exc:
            errors[id(part_log)] = exc
        except Exception as exc:  # a bug in one log must not strand every waiter
            errors[id(part_log)] = KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"flush failed: {exc!r}")
    return errors


class GroupCommitter:
    def __init__(
        self,
        logs: Callable[[], Iterable[PartitionLog]] | None = None,
        *,
        policy_interval_s: float = POLICY_INTERVAL_S,
        now_ms: Callable[[], int] = _wall_clock_ms,
        fsync_concurrency: int = FSYNC_CONCURRENCY,
    ) -> None:
        if fsync_concurrency < 1:
            raise ValueError(f"fsync_concurrency must be at least 1, not {fsync_concurrency}")
        self._logs = logs
        self._fsync_concurrency = fsync_concurrency
        self._policy_interval_s = policy_interval_s
        self._now_ms = now_ms
        self._pending = _Round()
        self._current: _Round | None = None
        self._wakeup = trio.Event()
        self._last_flush_ms: weakref.WeakKeyDictionary[PartitionLog, int] = weakref.WeakKeyDictionary()
        # Logs written since their last flush (the ones the policy looks at).
        self._written: dict[int, PartitionLog] = {}
        self._next_walk = 0.0
        self.rounds = 0  # fsync rounds completed (for metrics and tests)
        # Told of every log whose fsync failed (the log manager takes its directory offline).
        self.on_storage_error: Callable[[PartitionLog, str], None] | None = None
        # Told of every round: how many logs it synced and how long it took (seconds, from
        # the round's start to its last fsync's return: the time a waiter of the round waits
        # once the round has begun).
        self.on_round: Callable[[int, float], None] | None = None

    @classmethod
    def from_config(
        cls, config: Any = None, logs: Callable[[], Iterable[PartitionLog]] | None = None
    ) -> GroupCommitter:
        interval = POLICY_INTERVAL_S
        scheduler_ms = config.get("log.flush.scheduler.interval.ms") if config is not None else None
        if scheduler_ms is not None and 0 < scheduler_ms < interval * 1000:
            interval = scheduler_ms / 1000
        return cls(logs, policy_interval_s=interval)

    def attach(self, logs: Callable[[], Iterable[PartitionLog]]) -> None:
        """Give the committer the logs its flush policy watches (e.g. ``manager.logs``)."""
        self._logs = logs

    # ------------------------------------------------------------------ callers

    async def wait_durable(self, part_log: PartitionLog) -> None:
        """Return once an fsync that started after this call has covered ``part_log``.

        The caller's appends must already be written. Raises KafkaError
        (KAFKA_STORAGE_ERROR 56 if the fsync failed, NOT_LEADER_OR_FOLLOWER 6 if
        the committer stopped first).
        """
        if not part_log.needs_flush():
            return
        self.noticed(part_log)
        rnd = self._pending
        rnd.logs[id(part_log)] = part_log
        self._wakeup.set()
        await rnd.done.wait()
        error = rnd.errors.get(id(part_log))
        if error is not None:
            raise error

    async def wait_durable_all(self, logs: Iterable[PartitionLog]) -> dict[int, KafkaError]:
        """:meth:`wait_durable` for many logs with one waiter (a follower's fetch appended
        to thousands of partitions); {id(log): error} of those whose fsync failed."""
        pending = [part_log for part_log in logs if part_log.needs_flush()]
        if not pending:
            return {}
        rnd = self._pending
        for part_log in pending:
            self.noticed(part_log)
            rnd.logs[id(part_log)] = part_log
        self._wakeup.set()
        await rnd.done.wait()
        return {id(p): rnd.errors[id(p)] for p in pending if id(p) in rnd.errors}

    def request_flush(self, part_log: PartitionLog) -> None:
        """Schedule ``part_log`` for the next round without waiting for it."""
        self.noticed(part_log)
        self._pending.logs[id(part_log)] = part_log
        self._wakeup.set()

    def note_append(self, part_log: PartitionLog) -> None:
        """Call after an acks=0/1 append: applies flush.messages at once."""
        self.noticed(part_log)
        if part_log.unflushed_messages >= part_log.config.flush_messages:
            self.request_flush(part_log)

    def noticed(self, part_log: PartitionLog) -> None:
        """``part_log`` was written: the flush policy looks at it until it is flushed
        (the write hook, installed on every log the committer sees)."""
        if part_log.on_write is None:
            part_log.on_write = self.noticed
        self._written[id(part_log)] = part_log

    # ------------------------------------------------------------------ the task

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """The background task: start it with ``await nursery.start(committer.run)``."""
        # The helper threads of concurrent fsyncs (this task's worker thread is one more).
        # A round always finishes before this task does (to_thread is not abandoned on
        # cancel), so shutting the pool down without waiting leaves no fsync behind.
        pool = None
        if self._fsync_concurrency > 1:
            pool = ThreadPoolExecutor(self._fsync_concurrency - 1, thread_name_prefix="sharebroker-fsync")
        task_status.started()
        next_policy = trio.current_time()
        try:
            while True:
                with trio.move_on_after(self._policy_interval_s):
                    await self._wakeup.wait()
                self._wakeup = trio.Event()
                # The policy walks every log: once per interval, not on every round
                # that acks=all producers and share acknowledgements trigger.
                if trio.current_time() >= next_policy:
                    self._add_policy_flushes()
                    next_policy = trio.current_time() + self._policy_interval_s
                if not self._pending.logs:
                    continue
                rnd, self._pending = self._pending, _Round()
                self._current = rnd
                logs = list(rnd.logs.values())
                started = trio.current_time()
                rnd.errors = await trio.to_thread.run_sync(_flush_all, logs, pool, self._fsync_concurrency)
                took = trio.current_time() - started
                if rnd.errors and self.on_storage_error is not None:
                    for part_log in logs:
                        error = rnd.errors.get(id(part_log))
                        if error is None or error.code != ErrorCode.KAFKA_STORAGE_ERROR:
                            continue
                        if disk_full(error):
                            # Its waiters fail now; the data stays dirty and the next
                            # round flushes it once space returns.
                            log.warning("log_dir_full", path=str(part_log.path), error=str(error))
                            continue
                        self.on_storage_error(part_log, str(error))
                now = self._now_ms()
                for part_log in logs:
                    self._last_flush_ms[part_log] = now
                self.rounds += 1
                self._current = None
                rnd.done.set()
                if self.on_round is not None:  # after the waiters are woken: a report delays none of them
                    self.on_round(len(logs), took)
        finally:
            if pool is not None:
                pool.shutdown(wait=False)
            for unfinished in (self._current, self._pending):
                if unfinished is not None and not unfinished.done.is_set():
                    for key in unfinished.logs:
                        unfinished.errors.setdefault(
                            key, KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER, "the broker is shutting down")
                        )
                    unfinished.done.set()

    def _add_policy_flushes(self) -> None:
        if self._logs is not None and trio.current_time() >= self._next_walk:
            self._next_walk = trio.current_time() + FULL_WALK_S
            for part_log in self._logs():
                if part_log.on_write is None:
                    part_log.on_write = self.noticed
                if not part_log.closed and part_log.needs_flush():
                    self._written[id(part_log)] = part_log
        now = self._now_ms()
        pending = self._pending.logs
        for key, part_log in list(self._written.items()):
            if part_log.closed or key in pending:
                del self._written[key]  # closed, or flushed this round (noticed again if written)
                continue
            config = part_log.config
            if part_log.unflushed_messages >= config.flush_messages or part_log.has_unflushed_inactive_segment():
                pending[key] = part_log
                del self._written[key]
                continue
            if not part_log.needs_flush() or config.flush_ms >= FLUSH_MS_NEVER:
                del self._written[key]  # nothing due by time: back when written again
                continue
            last = self._last_flush_ms.get(part_log)
            if last is None:
                self._last_flush_ms[part_log] = now  # data's clock starts when first seen
            elif now - last >= config.flush_ms:
                pending[key] = part_log
                del self._written[key]
