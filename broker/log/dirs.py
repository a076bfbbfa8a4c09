"""The log directories of a broker (``log.dirs``, JBOD), as Kafka's ``LogManager`` keeps them.

Every directory is locked (``flock`` on ``<dir>/.lock``) so two brokers cannot
share one, and holds its own partition directories and offset checkpoints
(recovery point, log start, high watermark) for them. The first directory also
holds the broker's own files: the topic catalog, ``meta.properties``, the
cleaner checkpoint, group configs and the producer-id block (Kafka keeps its
metadata log in one chosen directory the same way), so it must be usable for
the broker to start.

A directory that cannot be used (missing and not creatable, not a directory,
failing I/O) is *offline*: the partitions in it are offline (KAFKA_STORAGE_ERROR)
and every other directory goes on serving, as with Kafka's ``log.dir.failure``
handling. An offline directory comes back with a restart.

Names in a directory, as Kafka's:

* ``<topic>-<partition>``: a partition's current replica;
* ``<topic>-<partition>.<id>-future``: the future replica an AlterReplicaLogDirs
  move is building, which takes the current one's place once it has caught up;
* ``<id>-delete``: a replica being removed (left-overs are removed at start-up).
"""

from __future__ import annotations

import errno
import fcntl
import os
import shutil
import uuid
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import structlog

from broker.log.checkpoint import fsync_dir
from broker.protocol.errors import ErrorCode, KafkaError

__all__ = [
    "DELETE_SUFFIX",
    "FUTURE_SUFFIX",
    "LogDir",
    "LogDirs",
    "Scan",
    "future_name",
    "parse_replica_dir",
    "trash",
    "volume_bytes",
]

log = structlog.get_logger("sharebroker.log")

LOCK_FILE = ".lock"
DELETE_SUFFIX = "-delete"
FUTURE_SUFFIX = "-future"


def future_name(topic: str, partition: int) -> str:
    return f"{topic}-{partition}.{uuid.uuid4().hex}{FUTURE_SUFFIX}"


def parse_replica_dir(name: str) -> tuple[str, int, bool] | None:
    """(topic, partition, is_future) of a replica directory's name; None for other names."""
    future = name.endswith(FUTURE_SUFFIX)
    if future:
        stem, dot, tag = name[: -len(FUTURE_SUFFIX)].rpartition(".")
        if not dot or not tag:
            return None
        name = stem
    topic, dash, part = name.rpartition("-")
    if not dash or not topic or not part.isdigit():
        return None
    return topic, int(part), future


@dataclass(slots=True)
class LogDir:
    path: Path  # absolute
    lock_fd: int = -1
    # Why the directory is offline; None while it is online.
    offline: str | None = None

    @property
    def online(self) -> bool:
        return self.offline is None


@dataclass(slots=True)
class Scan:
    """The replica directories found in the online log directories."""

    current: dict[tuple[str, int], list[Path]]
    future: dict[tuple[str, int], list[Path]]


class LogDirs:
    """The configured log directories, in configuration order (duplicates dropped)."""

    def __init__(self, paths: Sequence[Path | str]) -> None:
        if not paths:
            raise ValueError("at least one log directory is needed")
        seen: dict[Path, None] = {}
        for p in paths:
            seen.setdefault(Path(p).absolute(), None)
        self.dirs = [LogDir(p) for p in seen]

    @property
    def first(self) -> Path:
        """The directory holding the broker's own files (topic catalog, meta.properties)."""
        return self.dirs[0].path

    @property
    def paths(self) -> list[Path]:
        return [d.path for d in self.dirs]

    def online(self) -> list[LogDir]:
        return [d for d in self.dirs if d.online]

    def any_offline(self) -> bool:
        return any(not d.online for d in self.dirs)

    def find(self, path: Path | str) -> LogDir | None:
        """The configured directory ``path`` names (absolute or relative), or None."""
        wanted = Path(path).absolute()
        for d in self.dirs:
            if d.path == wanted:
                return d
        return None

    def of(self, path: Path) -> LogDir:
        """The configured directory holding the replica directory ``path``."""
        d = self.find(path.parent)
        if d is None:
            raise ValueError(f"{path} is in no log directory")
        return d

    def lock(self) -> None:
        """Create and lock every directory. One in use by another process stops the broker
        (KafkaError KAFKA_STORAGE_ERROR), as does an unusable first directory; any other
        unusable directory is only offline."""
        for d in self.dirs:
            try:
                d.path.mkdir(parents=True, exist_ok=True)
                d.lock_fd = os.open(d.path / LOCK_FILE, os.O_RDWR | os.O_CREAT, 0o644)
            except OSError as exc:
                self.set_offline(d, f"cannot use {d.path}: {exc.strerror or exc}")
                continue
            try:
                fcntl.flock(d.lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                os.close(d.lock_fd)
                d.lock_fd = -1
                self.unlock()
                if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
                    raise KafkaError(
                        ErrorCode.KAFKA_STORAGE_ERROR, f"data directory {d.path} is in use by another process"
                    ) from exc
                raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"cannot lock {d.path}: {exc}") from exc
        if not self.dirs[0].online:
            reason = self.dirs[0].offline
            self.unlock()
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"the first log directory is unusable: {reason}")

    def unlock(self) -> None:
        for d in self.dirs:
            if d.lock_fd >= 0:
                try:
                    fcntl.flock(d.lock_fd, fcntl.LOCK_UN)
                finally:
                    os.close(d.lock_fd)
                    d.lock_fd = -1

    def set_offline(self, d: LogDir, reason: str) -> None:
        if d.online:
            d.offline = reason
            log.error("log_dir_offline", log_dir=str(d.path), reason=reason)

    def scan(self) -> Scan:
        """Replica directories in every online directory; ``-delete`` left-overs are removed.
        A directory that cannot be listed goes offline."""
        scan = Scan({}, {})
        for d in self.online():
            try:
                entries = list(os.scandir(d.path))
            except OSError as exc:
                self.set_offline(d, f"cannot list {d.path}: {exc.strerror or exc}")
                continue
            for entry in entries:
                if not entry.is_dir(follow_symlinks=False):
                    continue
                if entry.name.endswith(DELETE_SUFFIX):
                    shutil.rmtree(entry.path, ignore_errors=True)
                    continue
                parsed = parse_replica_dir(entry.name)
                if parsed is None:
                    continue
                topic, partition, future = parsed
                (scan.future if future else scan.current).setdefault((topic, partition), []).append(Path(entry.path))
        return scan

    def least_loaded(self, counts: Iterable[Path]) -> LogDir | None:
        """The online directory holding the fewest replicas (``counts``: the directory of
        each replica), the first configured on a tie; Kafka places new replicas so."""
        online = self.online()
        if len(online) <= 1:
            return online[0] if online else None  # one directory: nothing to count
        load = Counter(counts)  # counted in C: placing each of 10,000 new replicas counts them all
        best = None
        for d in online:
            if best is None or load[d.path] < load[best.path]:
                best = d
        return best


def trash(path: Path) -> None:
    """Remove a replica directory: renamed to ``<id>-delete`` (durably), then deleted."""
    target = path.parent / f"{uuid.uuid4().hex}{DELETE_SUFFIX}"
    os.rename(path, target)
    fsync_dir(path.parent)
    shutil.rmtree(target, ignore_errors=True)


def volume_bytes(path: Path) -> tuple[int, int]:
    """(total, usable) bytes of the volume holding ``path`` (what the broker's user may use)."""
    st = os.statvfs(path)
    return st.f_blocks * st.f_frsize, st.f_bavail * st.f_frsize
