"""Stored batches as file ranges: what a Fetch answer carries without reading it.

A fetch of 16 MiB used to read the batches into memory (a copy, and fresh pages for
Python to fault in) only for the socket to copy them again. A :class:`FileSlice` holds
the file ranges instead; on a plaintext listener the connection hands them to the
kernel (``os.sendfile``), on TLS it reads them (``bytes(slice)``) as before.

Each range holds its own duplicate of the segment's descriptor, so the slice stays
readable whatever happens to the segment meanwhile: retention and the cleaner replace
segments (the old file lives on while a descriptor is open), and the log only appends
to the bytes a slice covers. :meth:`close` gives the descriptors back; a slice never
sent closes them when it is collected.
"""

from __future__ import annotations

import os


class FileSlice:
    """Whole stored batches of one partition log, as (descriptor, position, size) ranges."""

    __slots__ = ("_data", "_ranges", "_size", "first_offset", "next_offset")

    def __init__(self, ranges: list[tuple[int, int, int]], first_offset: int, next_offset: int) -> None:
        self._ranges = [(os.dup(fd), position, size) for fd, position, size in ranges]
        self._size = sum(size for _, _, size in ranges)
        self._data: bytes | None = None
        self.first_offset = first_offset  # base offset of its first batch
        self.next_offset = next_offset  # one past the last offset of its last batch

    def __len__(self) -> int:
        return self._size

    @property
    def ranges(self) -> list[tuple[int, int, int]]:
        """(descriptor, position, size) of each range, in order; empty once read or closed."""
        return self._ranges

    def __bytes__(self) -> bytes:
        """The bytes (read once; the descriptors are given back then)."""
        if self._data is None:
            if self._size and not self._ranges:
                raise ValueError("a closed FileSlice has no bytes")
            parts = []
            for fd, position, size in self._ranges:
                data = os.pread(fd, size, position)
                while len(data) < size:  # a short read: read on
                    more = os.pread(fd, size - len(data), position + len(data))
                    if not more:
                        raise OSError(f"log segment shrank under a read at {position}")
                    data += more
                parts.append(data)
            self._data = parts[0] if len(parts) == 1 else b"".join(parts)
            self.close()
        return self._data

    @property
    def read(self) -> bool:
        """Whether its bytes are in memory already (its descriptors given back)."""
        return self._data is not None

    def close(self) -> None:
        ranges, self._ranges = self._ranges, []
        for fd, _, _ in ranges:
            os.close(fd)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # pragma: no cover - interpreter shutdown
            pass

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"FileSlice({self.first_offset}..{self.next_offset}, {self._size} bytes)"
