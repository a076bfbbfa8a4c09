"""Per-key ordering of a share-partition (an extension): which records may go out now.

See :class:`KeyOrder`. Pure: the keys come from the log through ``ShareLog.record_keys``.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Callable, Hashable

from broker.share.inflight import ShareLog
from broker.share.states import RecordState

__all__ = ["KeyOrder"]

_ACQUIRED = RecordState.ACQUIRED


class KeyOrder:
    """The per-key ordering index of one share-partition (extension).

    For every key, the window's offsets with that key that are not settled yet
    (not final, or final but not durably so), in order. A keyed record may be
    handed out only when it is the first of its key's list: earlier records of
    its key are all final, so one member at a time works on a key and in offset
    order. A record settles (leaves the list) once its finality is durable, so
    the next record of the key goes out only after the previous one's
    acknowledgement is written. Records without a key are not ordered. Keys come
    from the log (``ShareLog.record_keys``), read once per record as records enter
    the window; the index is rebuilt from the log after a restart or when the
    extension is turned on.
    """

    __slots__ = ("indexed_to", "keys", "pending", "suspect")

    def __init__(self, indexed_to: int) -> None:
        self.keys: dict[int, Hashable] = {}  # offset -> key, unsettled keyed records
        self.pending: dict[Hashable, list[int]] = {}  # key -> its unsettled offsets, sorted
        self.indexed_to = indexed_to  # keys below this offset have been read
        # Keys that may have a record in flight that is not the first of their list
        # (handed out before ordering was turned on); checked in full until it clears.
        self.suspect: set[Hashable] = set()

    def add(self, offset: int, key: Hashable) -> None:
        if offset in self.keys:
            return
        self.keys[offset] = key
        insort(self.pending.setdefault(key, []), offset)

    def index(self, log: ShareLog, first: int, last: int) -> None:
        """Read the keys of ``[first, last]`` not read yet."""
        if last < self.indexed_to:
            return
        for offset, key in log.record_keys(max(first, self.indexed_to), last + 1):
            self.add(offset, key)
        self.indexed_to = last + 1

    def settle(self, first: int, last: int) -> None:
        """``[first, last]`` are durably final: they no longer hold their keys back."""
        keys = self.keys
        if not keys:
            return
        for offset in range(first, last + 1):
            key = keys.pop(offset, None)
            if key is not None:
                self._remove(key, offset)

    def drop_below(self, offset: int) -> None:
        for o in [o for o in self.keys if o < offset]:
            self._remove(self.keys.pop(o), o)

    def _remove(self, key: Hashable, offset: int) -> None:
        pend = self.pending[key]
        i = bisect_left(pend, offset)
        if i < len(pend) and pend[i] == offset:
            del pend[i]
        if not pend:
            del self.pending[key]
            self.suspect.discard(key)

    def suspect_acquired(self, state: Callable[[int], RecordState]) -> None:
        self.suspect = {k for k, pend in self.pending.items() if any(state(o) == _ACQUIRED for o in pend)}

    def free(self, offset: int, state: Callable[[int], RecordState]) -> bool:
        key = self.keys.get(offset)
        if key is None:
            return True
        pend = self.pending[key]
        if pend[0] != offset:
            return False  # View.HELD: an earlier record of its key is not settled
        if key in self.suspect:
            if any(state(o) == _ACQUIRED for o in pend[1:]):
                return False
            self.suspect.discard(key)
        return True

    def free_stretches(self, first: int, last: int, state: Callable[[int], RecordState]) -> list[tuple[int, int]]:
        """The stretches of ``[first, last]`` whose records may go out now."""
        out: list[tuple[int, int]] = []
        start: int | None = None
        for offset in range(first, last + 1):
            if self.free(offset, state):
                if start is None:
                    start = offset
            elif start is not None:
                out.append((start, offset - 1))
                start = None
        if start is not None:
            out.append((start, last))
        return out
