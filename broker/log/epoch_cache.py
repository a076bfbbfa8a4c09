"""The leader epoch cache of one partition: where each leader epoch starts in the log.

An entry ``(epoch, start_offset)`` says that the batches from ``start_offset`` on
were written under leader ``epoch`` (until the next entry's start). Entries
strictly increase in both fields. It answers OffsetForLeaderEpoch (the end of an
epoch is the start of the next one, or the log end offset for the latest) and
lets a follower find where its log diverges from a new leader's.

On disk it is ``<topic>-<partition>/leader-epoch-checkpoint`` in Kafka's format::

    0                <- version
    2                <- number of entries
    0 0              <- epoch start offset
    3 1200

Pure bookkeeping: the log decides when to write the file (see
:meth:`broker.log.partition.PartitionLog.flush`) and rebuilds entries from batch
headers when it recovers segments, so a lost write costs nothing.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from pathlib import Path
from typing import NamedTuple

__all__ = ["LEADER_EPOCH_CHECKPOINT", "UNDEFINED_EPOCH", "UNDEFINED_OFFSET", "EpochEntry", "LeaderEpochCache"]

LEADER_EPOCH_CHECKPOINT = "leader-epoch-checkpoint"
UNDEFINED_EPOCH = -1
UNDEFINED_OFFSET = -1
_VERSION = "0"


class EpochEntry(NamedTuple):
    epoch: int
    start_offset: int


class LeaderEpochCache:
    """Epoch -> start offset, ordered; ``dirty`` once it differs from the file."""

    __slots__ = ("_entries", "_epochs", "dirty", "on_disk")

    def __init__(self, entries: list[EpochEntry] | None = None) -> None:
        self._entries: list[EpochEntry] = []
        self._epochs: list[int] = []
        self.dirty = False
        # The entries the file holds, as read or last written (None: not known).
        self.on_disk: tuple[EpochEntry, ...] | None = None
        for e in entries or ():
            self.assign(e.epoch, e.start_offset)
        self.dirty = False

    # --- reading ---------------------------------------------------------------------

    @property
    def entries(self) -> list[EpochEntry]:
        return list(self._entries)

    @property
    def latest_epoch(self) -> int:
        return self._entries[-1].epoch if self._entries else UNDEFINED_EPOCH

    @property
    def latest(self) -> EpochEntry | None:
        return self._entries[-1] if self._entries else None

    def start_offset_of(self, epoch: int) -> int | None:
        i = bisect_left(self._epochs, epoch)
        if i < len(self._epochs) and self._epochs[i] == epoch:
            return self._entries[i].start_offset
        return None

    def epoch_for_offset(self, offset: int) -> int:
        """The epoch the batch at ``offset`` was written in (UNDEFINED before the first entry)."""
        best = UNDEFINED_EPOCH
        for e in self._entries:
            if e.start_offset > offset:
                break
            best = e.epoch
        return best

    def end_offset_for(self, requested: int, log_end_offset: int) -> tuple[int, int]:
        """(largest known epoch <= ``requested``, the offset where it ends), Kafka's
        answer to OffsetForLeaderEpoch: the latest epoch ends at the log end offset,
        an older one where the next known epoch starts; an epoch older than every
        entry answers itself with the first entry's start (that part of the log is
        gone); a request above the latest epoch, or an empty cache, is undefined."""
        if requested == UNDEFINED_EPOCH or not self._entries:
            return UNDEFINED_EPOCH, UNDEFINED_OFFSET
        if requested == self.latest_epoch:
            return requested, log_end_offset
        higher = bisect_right(self._epochs, requested)
        if higher >= len(self._entries):
            return UNDEFINED_EPOCH, UNDEFINED_OFFSET
        if higher == 0:
            return requested, self._entries[0].start_offset
        return self._entries[higher - 1].epoch, self._entries[higher].start_offset

    # --- changes ---------------------------------------------------------------------

    def assign(self, epoch: int, start_offset: int) -> bool:
        """Record that ``epoch`` starts at ``start_offset``; True if anything changed.

        Nothing changes when the latest entry is this epoch starting at or before the
        offset. Otherwise entries at or above the new epoch, or starting at or after
        its offset, are dropped first (both columns must keep increasing), as Kafka's
        cache does.
        """
        if epoch < 0 or start_offset < 0:
            return False
        latest = self.latest
        if latest is not None and latest.epoch == epoch and latest.start_offset <= start_offset:
            return False
        keep = [e for e in self._entries if e.epoch < epoch and e.start_offset < start_offset]
        keep.append(EpochEntry(epoch, start_offset))
        self._set(keep)
        return True

    def truncate_from_end(self, end_offset: int) -> bool:
        """The log was cut to end at ``end_offset``: drop epochs starting at or after it
        (True if any was)."""
        keep = [e for e in self._entries if e.start_offset < end_offset]
        if len(keep) == len(self._entries):
            return False
        self._set(keep)
        return True

    def truncate_from_start(self, start_offset: int) -> None:
        """The log now starts at ``start_offset``: the epoch holding it starts there."""
        if not self._entries or self._entries[0].start_offset >= start_offset:
            return
        i = bisect_right([e.start_offset for e in self._entries], start_offset) - 1
        first = self._entries[i]
        keep = [EpochEntry(first.epoch, start_offset), *self._entries[i + 1 :]]
        self._set(keep)

    def clear(self) -> None:
        if self._entries:
            self._set([])

    def same_on_disk_below(self, log_end_offset: int) -> bool:
        """Whether the file holds every entry that starts below ``log_end_offset`` as the
        cache does: what differs starts at the log end (an epoch begun with no record
        written in it yet), which loading the log drops (it cuts the cache at the log
        end), so writing the file would change nothing the next start reads."""
        if self.on_disk is None:
            return False
        below = [e for e in self._entries if e.start_offset < log_end_offset]
        return below == [e for e in self.on_disk if e.start_offset < log_end_offset]

    def _set(self, entries: list[EpochEntry]) -> None:
        self._entries = entries
        self._epochs = [e.epoch for e in entries]
        self.dirty = True

    # --- the file --------------------------------------------------------------------

    def encode(self) -> bytes:
        lines = [_VERSION, str(len(self._entries))] + [f"{e.epoch} {e.start_offset}" for e in self._entries]
        return ("\n".join(lines) + "\n").encode()

    @classmethod
    def read(cls, directory: Path) -> LeaderEpochCache | None:
        """The cache stored in ``directory``; None when the file is missing or unreadable
        (the log then rebuilds it from its batch headers)."""
        try:
            lines = (directory / LEADER_EPOCH_CHECKPOINT).read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            return None
        try:
            if lines[0].strip() != _VERSION:
                return None
            count = int(lines[1])
            entries = []
            for line in lines[2 : 2 + count]:
                epoch, offset = line.split()
                entries.append(EpochEntry(int(epoch), int(offset)))
            if len(entries) != count:
                return None
        except (IndexError, ValueError):
            return None
        cache = cls(entries)
        cache.on_disk = tuple(cache._entries)
        return cache

    def __repr__(self) -> str:
        return f"LeaderEpochCache({self._entries})"
