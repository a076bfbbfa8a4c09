"""Per-segment index files, in Kafka's on-disk formats (big-endian).

* ``.index`` (offset index): 8-byte entries ``relative offset int32, position int32``.
  An entry ``(o, p)`` says the batch starting at byte ``p`` ends at offset
  ``base + o``: a reader looking for offset ``t >= base + o`` can start scanning
  batch headers at ``p``. Sparse: one entry per ``index.interval.bytes`` of log.
* ``.timeindex``: 12-byte entries ``timestamp int64, relative offset int32``,
  ``(t, o)`` meaning "every record up to offset ``base + o`` has a timestamp
  ``<= t``"; appended only when ``t`` grows, so both columns ascend.
* ``.txnindex``: 34-byte entries ``version int16 (0), producer id int64, first
  offset int64, last offset int64, last stable offset int64`` for each aborted
  transaction whose ABORT marker lies in the segment.

Entries are kept in memory (compact ``array`` columns, loaded lazily for old
segments) and buffered for the file, which the flush path writes and fsyncs.
Kafka preallocates and mmaps these files; plain appends keep the file exactly
``entries * entry_size`` long, which is what recovery checks.
"""

from __future__ import annotations

import os
import struct
import sys
import threading
from array import array
from bisect import bisect_left, bisect_right
from pathlib import Path
from typing import NamedTuple

__all__ = ["AbortedTxn", "OffsetIndex", "TimeIndex", "TxnIndex"]

_BIG_ENDIAN = sys.byteorder == "big"


class _IndexFile:
    """An append-only file opened lazily; tracks whether it needs an fsync.

    Appended entries are kept in a small buffer and written to the file by the
    flush path (:meth:`fsync`, from the flush thread) or at close, not one
    ``write()`` per entry on the request path. Lookups never read the file of
    an index that is being appended to (its entries are in memory), and a
    recovery point only moves after :meth:`fsync`, so an entry lost in a crash
    belongs to a segment that recovery rebuilds anyway.
    """

    entry_size = 1

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd = -1
        self.dirty = False
        # Bytes written to the file (or a truncation) that no fsync has covered yet.
        self.unsynced = False
        self._pending = bytearray()
        # Appends run on the event loop thread, the drain in the flush thread.
        self._pending_lock = threading.Lock()

    def _write(self, data: bytes) -> None:
        with self._pending_lock:
            self._pending += data
            self.dirty = True

    def write_buffered(self) -> None:
        """Write the buffered entries to the file (in append order)."""
        with self._pending_lock:
            if not self._pending:
                return
            if self._fd < 0:
                self._fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
            view = memoryview(self._pending)
            try:
                while view:
                    view = view[os.write(self._fd, view) :]
            finally:
                done = len(self._pending) - len(view)
                view.release()
                del self._pending[:done]
                self.unsynced = self.unsynced or done > 0

    def _read_file(self) -> bytes:
        self.write_buffered()
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            return b""
        usable = len(data) - len(data) % self.entry_size
        if usable != len(data):
            # A torn trailing entry: drop it so later appends stay aligned.
            os.truncate(self.path, usable)
        return data[:usable]

    def _truncate_file(self) -> None:
        with self._pending_lock:
            self._pending.clear()
        self.close()
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.close(fd)
        self.dirty = True
        self.unsynced = True

    def fsync(self) -> None:
        """Write the buffered entries and make them durable (called from the flush thread)."""
        self.write_buffered()
        if self._fd >= 0:
            self.unsynced = False  # before the call: a write racing with it sets it again
            try:
                os.fsync(self._fd)
            except OSError:
                self.unsynced = True
                raise

    def close(self, *, write_buffered: bool = True) -> None:
        if write_buffered:
            self.write_buffered()
        else:
            with self._pending_lock:
                self._pending.clear()
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def delete(self) -> None:
        with self._pending_lock:
            self._pending.clear()
        self.close()
        try:
            os.unlink(self.path)
        except FileNotFoundError:
            pass


class _SegmentIndex(_IndexFile):
    """An index of fixed-size entries for the segment starting at ``base_offset``, at
    most ``max_bytes`` of them (segment.index.bytes), loaded into two columns on first use."""

    entry_size: int
    # The array type codes of the two columns.
    _typecodes: tuple[str, str]

    def __init__(self, path: Path, base_offset: int, max_bytes: int) -> None:
        super().__init__(path)
        self.base_offset = base_offset
        self.max_entries = max(1, max_bytes // self.entry_size)
        self._columns: tuple[array, array] | None = None

    def _empty(self) -> tuple[array, array]:
        first, second = self._typecodes
        return array(first), array(second)

    def start_empty(self) -> None:
        """A new segment's index: nothing to read from a file."""
        self._columns = self._empty()

    def _ensure(self) -> tuple[array, array]:
        if self._columns is None:
            self._columns = self._load(self._read_file())
        return self._columns

    def _load(self, data: bytes) -> tuple[array, array]:
        """The two columns of the entries in ``data`` (the file's whole entries)."""
        raise NotImplementedError

    def reset(self) -> None:
        self._truncate_file()
        self._columns = self._empty()

    def __len__(self) -> int:
        return len(self._ensure()[0])

    @property
    def is_full(self) -> bool:
        return len(self) >= self.max_entries


class OffsetIndex(_SegmentIndex):
    entry_size = 8
    _typecodes = ("i", "i")  # relative offsets, positions

    def _load(self, data: bytes) -> tuple[array, array]:
        flat = array("i")
        flat.frombytes(data)
        if not _BIG_ENDIAN:
            flat.byteswap()
        return flat[0::2], flat[1::2]

    def last_entry(self) -> tuple[int, int] | None:
        rel, pos = self._ensure()
        if not rel:
            return None
        return self.base_offset + rel[-1], pos[-1]

    def sane(self, next_offset_limit: int | None, size: int) -> bool:
        """Kafka's sanity check: entries ascend and the last one points inside the segment."""
        rel, pos = self._ensure()
        if not rel:
            return True
        if rel[0] < 0 or pos[0] < 0:
            return False
        if next_offset_limit is not None and self.base_offset + rel[-1] >= next_offset_limit:
            return False
        if pos[-1] >= size:
            return False
        return all(a < b for a, b in zip(rel, rel[1:])) and all(a < b for a, b in zip(pos, pos[1:]))

    def append(self, offset: int, position: int) -> None:
        rel, pos = self._ensure()
        r = offset - self.base_offset
        if rel and (r <= rel[-1] or position <= pos[-1]):
            return
        self._write(struct.pack(">ii", r, position))
        rel.append(r)
        pos.append(position)

    def lookup(self, offset: int) -> int:
        """File position from which to scan for ``offset`` (0 when no entry helps)."""
        rel, pos = self._ensure()
        i = bisect_right(rel, offset - self.base_offset) - 1
        return pos[i] if i >= 0 else 0


class TimeIndex(_SegmentIndex):
    entry_size = 12
    _typecodes = ("q", "i")  # timestamps, relative offsets
    _ENTRY = struct.Struct(">qi")

    def _load(self, data: bytes) -> tuple[array, array]:
        ts, rel = self._empty()
        for t, r in self._ENTRY.iter_unpack(data):
            ts.append(t)
            rel.append(r)
        return ts, rel

    def last_entry(self) -> tuple[int, int] | None:
        """(timestamp, absolute offset) of the newest entry."""
        ts, rel = self._ensure()
        if not ts:
            return None
        return ts[-1], self.base_offset + rel[-1]

    def peek_last_entry(self) -> tuple[int, int] | None:
        """Like :meth:`last_entry` but reads only the file's last entry when the index
        is not loaded: opening a log must not read every old segment's whole index."""
        if self._columns is not None:
            return self.last_entry()
        try:
            with open(self.path, "rb") as f:
                end = f.seek(0, os.SEEK_END)
                end -= end % self.entry_size
                if end == 0:
                    return None
                f.seek(end - self.entry_size)
                t, r = self._ENTRY.unpack(f.read(self.entry_size))
        except FileNotFoundError:
            return None
        return t, self.base_offset + r

    def sane(self, next_offset_limit: int | None) -> bool:
        ts, rel = self._ensure()
        if not ts:
            return True
        if rel[0] < 0:
            return False
        if next_offset_limit is not None and self.base_offset + rel[-1] >= next_offset_limit:
            return False
        return all(a < b for a, b in zip(ts, ts[1:])) and all(a <= b for a, b in zip(rel, rel[1:]))

    def maybe_append(self, timestamp: int, offset: int) -> None:
        ts, rel = self._ensure()
        r = offset - self.base_offset
        if ts and (timestamp <= ts[-1] or r < rel[-1]):
            return
        self._write(self._ENTRY.pack(timestamp, r))
        ts.append(timestamp)
        rel.append(r)

    def offset_before(self, timestamp: int) -> int | None:
        """Offset of the newest entry with a timestamp below ``timestamp``: every
        record up to it is older than ``timestamp``. None if there is none."""
        ts, rel = self._ensure()
        i = bisect_left(ts, timestamp) - 1
        return self.base_offset + rel[i] if i >= 0 else None


class AbortedTxn(NamedTuple):
    producer_id: int
    first_offset: int
    last_offset: int
    last_stable_offset: int


class TxnIndex(_IndexFile):
    entry_size = 34
    _ENTRY = struct.Struct(">hqqqq")

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.entries: list[AbortedTxn] = []

    def load(self) -> None:
        self.entries = [
            AbortedTxn(pid, first, last, lso)
            for version, pid, first, last, lso in self._ENTRY.iter_unpack(self._read_file())
            if version == 0
        ]

    def append(self, txn: AbortedTxn) -> None:
        self._write(self._ENTRY.pack(0, *txn))
        self.entries.append(txn)

    def reset(self) -> None:
        if self.path.exists():
            self._truncate_file()
        self.entries = []
