"""Deferred opening: a log opens when it is needed, not when the broker starts or its
topic is made.

Opening a log reads its directory, ``partition.metadata``, its leader-epoch file and the
tail of its active segment: ~0.3 ms on this project's test machine, 10 s for 30,000
partitions. After a clean shutdown nothing needs recovering, so :meth:`LogManager.open
<broker.log.manager.LogManager.open>` only notes where each log is; a log opens on its
first use (:meth:`DeferredLogs.partition`), and the others open in the background a few
at a time (:meth:`DeferredLogs.open_deferred_in_turn`): the internal topics' at once, the
others once the coordinators have loaded (:meth:`DeferredLogs.open_rest_soon`). Until then
a deferred log's checkpoint entries are those its directory's files had at start, and
retention, flushing and cleaning have nothing to do on it (the last shutdown left it
flushed; retention looks at it at the first check after it opens).

A new log (:data:`NEW_LOG`) has no file until its first write. With one log directory
it is deferred too: on a single broker it opens on first use (creating 10,000 partitions
builds nothing), in a cluster in the background just after the change (a follower must
fetch, a leader watch its followers). With several directories it is placed and opened
when it is made.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import structlog
import trio

from broker.log.config import LogConfig
from broker.log.dirs import LogDir, LogDirs
from broker.log.loader import DirectoryState
from broker.log.partition import PartitionLog
from broker.protocol.errors import ErrorCode, KafkaError

log = structlog.get_logger("sharebroker.log")

# The background opener holds the event loop this long at a time (~15 logs at ~0.3 ms
# each), so a request that comes meanwhile waits little at each of its steps: with 64
# logs per step (~20 ms), a full Metadata request measured right after creating 30,000
# partitions RF 3 took 215 ms instead of 84 ms.
OPEN_DEFERRED_SLICE_S = 0.005


class Deferred(NamedTuple):
    """A log not opened yet: its log directory, and that directory's checkpoints as read
    at start (:data:`NEW_LOG` for a log made since, which has no file yet)."""

    directory: Path
    state: DirectoryState


# The state a new log opens with: nothing on disk, no checkpoint entry of its own.
NEW_LOG = DirectoryState(True, {}, {}, {}, frozenset())


class DeferredLogs:
    """The deferred-opening half of LogManager (it provides these attributes and methods)."""

    dirs: LogDirs
    _logs: dict[tuple[str, int], PartitionLog]
    _deferred: dict[tuple[str, int], Deferred]
    _dir_of: dict[tuple[str, int], Path]
    _open_queue: deque[tuple[str, int]]
    _open_wake: trio.Event
    _topics: dict[str, Any]  # name -> TopicInfo
    log_open_listeners: list[Callable[[list[tuple[str, int]]], None]]

    if TYPE_CHECKING:  # defined by LogManager and LogDirMoves (a stub here would hide them)

        def log_config(self, name: str) -> LogConfig: ...
        def _open_log(
            self,
            info: Any,
            partition: int,
            config: LogConfig,
            directory: Path | None = None,
            state: DirectoryState | None = None,
        ) -> PartitionLog: ...
        def _fail_dir(self, d: LogDir, reason: str) -> None: ...
        def _trash_path_quietly(self, path: Path) -> None: ...

    def _single_dir(self) -> Path | None:
        """The log directory when there is one (with several, where a new log goes is
        chosen when it is made: the directory holding the fewest)."""
        online = self.dirs.online()
        return online[0].path if len(online) == 1 and not self.dirs.any_offline() else None

    def _defer(self, key: tuple[str, int], deferred: Deferred) -> None:
        self._deferred[key] = deferred
        self._dir_of[key] = deferred.directory

    def _defer_new(self, name: str, partitions: Iterable[int], where: Path) -> None:
        """New logs of ``name`` in ``where``, opened by their first use."""
        for p in partitions:
            self._defer((name, p), Deferred(where, NEW_LOG))

    def partition(self, topic: str, index: int) -> PartitionLog | None:
        """The local partition's log (opened now if its opening was deferred), or None."""
        key = (topic, index)
        part_log = self._logs.get(key)
        if part_log is None and key in self._deferred:
            return self._open_deferred(key)
        return part_log

    def opened(self, topic: str, index: int) -> PartitionLog | None:
        """The local partition's log if it is open (a deferred log is not opened)."""
        return self._logs.get((topic, index))

    def has_log(self, topic: str, index: int) -> bool:
        """Whether the partition has a local log, open or deferred."""
        key = (topic, index)
        return key in self._logs or key in self._deferred

    def logs(self) -> list[PartitionLog]:
        """The open logs (those still deferred are as the last clean shutdown left them:
        no retention, flush or cleaning is due on them before they open)."""
        return list(self._logs.values())

    def unopened_new(self) -> list[tuple[str, int]]:
        """The deferred logs that never had a file (empty: nothing to open for them)."""
        return [k for k, d in self._deferred.items() if d.state is NEW_LOG]

    @property
    def deferred_count(self) -> int:
        return len(self._deferred)

    def _open_deferred(self, key: tuple[str, int]) -> PartitionLog | None:
        """Open a deferred log, as open() would have (None: its directory failed)."""
        where, state = self._deferred.pop(key)
        info = self._topics[key[0]]
        config = self.log_config(info.name)
        try:
            part_log = self._open_log(info, key[1], config, where, state)
        except KafkaError as exc:
            if exc.code == ErrorCode.INCONSISTENT_TOPIC_ID:
                # Left by a topic of the same name deleted while this broker was away
                # (open() removes such directories when it opens every log).
                log.warning("orphan_partition_removed", directory=str(where / f"{key[0]}-{key[1]}"))
                self._trash_path_quietly(where / f"{key[0]}-{key[1]}")
                part_log = self._open_log(info, key[1], config, where)
            elif exc.code == ErrorCode.KAFKA_STORAGE_ERROR:
                self._fail_dir(self.dirs.of(where / f"{key[0]}-{key[1]}"), str(exc))
                return None
            else:
                raise
        self._logs[key] = part_log
        return part_log

    def open_deferred(self, keys: Iterable[tuple[str, int]] | None = None) -> list[tuple[str, int]]:
        """Open the deferred logs among ``keys`` (default: all of them); returns the
        partitions opened."""
        wanted = list(self._deferred) if keys is None else keys
        return [key for key in wanted if self._open_if_deferred(key)]

    def _open_if_deferred(self, key: tuple[str, int]) -> bool:
        """Open ``key``'s log if it is still deferred; whether it was opened now."""
        return key in self._deferred and self._open_deferred(key) is not None

    def open_soon(self, keys: Iterable[tuple[str, int]]) -> None:
        """Have the background opener open these deferred logs, in this order (from the
        event loop's thread; before the opener runs, queue into ``_open_queue`` alone)."""
        self._open_queue.extend(keys)
        self._open_wake.set()

    def open_rest_soon(self) -> None:
        """Queue every deferred log not queued yet (the broker is ready: requests open
        what they need first, the background the rest)."""
        queued = set(self._open_queue)
        self.open_soon(k for k in self._deferred if k not in queued)

    async def open_in_slices(self, keys: Iterable[tuple[str, int]] | None = None) -> None:
        """Open the deferred logs among ``keys`` (default: all of them) before returning,
        yielding every OPEN_DEFERRED_SLICE_S so that requests are served meanwhile (for a
        request that reads every log: DescribeLogDirs just after a start with 30,000
        deferred logs would otherwise hold the event loop for ~10 s)."""
        pending = deque(self._deferred if keys is None else [k for k in keys if k in self._deferred])
        while pending:
            self._open_slice(pending)
            await trio.lowlevel.checkpoint()

    def _open_slice(self, queue: deque[tuple[str, int]]) -> int:
        """Open deferred logs from the front of ``queue`` for up to OPEN_DEFERRED_SLICE_S
        (one at least); tells the listeners; how many were opened."""
        keys = []
        until = time.monotonic() + OPEN_DEFERRED_SLICE_S
        while queue:  # at least one per slice
            key = queue.popleft()
            if self._open_if_deferred(key):
                keys.append(key)
            if time.monotonic() >= until:
                break
        for listener in self.log_open_listeners:
            listener(keys)
        return len(keys)

    async def open_deferred_in_turn(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Open the logs queued by :meth:`open_soon` a few at a time, forever, yielding
        every OPEN_DEFERRED_SLICE_S (requests are served meanwhile; a request for a log
        not opened yet opens it first)."""
        task_status.started()
        while True:
            if not self._open_queue:
                await self._open_wake.wait()
                self._open_wake = trio.Event()
                continue
            started = time.monotonic()
            opened = 0
            while self._open_queue:
                opened += self._open_slice(self._open_queue)
                await trio.lowlevel.checkpoint()
            if opened:
                log.info("deferred_logs_opened", partitions=opened, seconds=round(time.monotonic() - started, 3))


def deferred_entries(
    logs: Iterable[tuple[tuple[str, int], DirectoryState]],
) -> tuple[dict[tuple[str, int], int], dict[tuple[str, int], int], dict[tuple[str, int], int]]:
    """The recovery-point, log-start and high-watermark entries of deferred logs, as
    their directory's files had them at start."""
    points: dict[tuple[str, int], int] = {}
    starts: dict[tuple[str, int], int] = {}
    hws: dict[tuple[str, int], int] = {}
    for k, state in logs:
        for table, out in (
            (state.recovery_points, points),
            (state.log_start_offsets, starts),
            (state.high_watermarks, hws),
        ):
            if k in table:
                out[k] = table[k]
    return points, starts, hws
