"""Producer ids that stay unique across restarts.

Ids are handed out from blocks; before the first id of a block is used, the
end of the block is written durably to ``<data>/producer-id-block``. After a
crash the broker resumes from the stored end, skipping whatever was left of
the block, so an id is never handed out twice (Kafka's controller reserves
blocks for the same reason).
"""

from __future__ import annotations

import os
from pathlib import Path

# Ids reserved per durable write: one fsync per thousand producers.
BLOCK_SIZE = 1000


class ProducerIdAllocator:
    def __init__(self, data_dir: Path) -> None:
        self._path = data_dir / "producer-id-block"
        self._next = 0
        self._block_end = 0
        if self._path.exists():
            text = self._path.read_text().strip()
            try:
                self._next = self._block_end = int(text)
            except ValueError:
                raise SystemExit(f"sharebroker: error: {self._path} is corrupt: {text[:40]!r}") from None

    def allocate(self) -> int:
        if self._next >= self._block_end:
            self._reserve(self._next + BLOCK_SIZE)
        pid = self._next
        self._next += 1
        return pid

    def _reserve(self, end: int) -> None:
        tmp = self._path.with_suffix(".tmp")
        with open(tmp, "w") as f:
            f.write(f"{end}\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self._path)
        dir_fd = os.open(self._path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
        self._block_end = end
