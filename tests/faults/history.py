"""The run's history: every client operation and every fault, one JSON object a line.

Both the clients (:mod:`tests.faults.workload`, in the client namespace) and the
nemesis (:mod:`tests.faults.nemesis`, on the host) write here, each to a file of its
own; every event carries ``t``, seconds on CLOCK_MONOTONIC, which all processes of the
machine share (no time namespaces are made), so the two files interleave exactly.

Event kinds (``k``) and their fields are documented where they are written; the
checker (:mod:`tests.faults.checker`) is their only reader.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TextIO

__all__ = ["History", "read_events"]

# The writer flushes at least this often, so the nemesis can follow the probe live.
FLUSH_S = 0.2


class History:
    """A thread-safe JSONL writer; ``add`` stamps each event with ``t`` unless given."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: TextIO = open(path, "a", buffering=1 << 16)
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._flusher = threading.Thread(target=self._flush_loop, name="history-flush", daemon=True)
        self._flusher.start()

    def add(self, event: str, /, **fields: Any) -> None:
        fields.setdefault("t", time.monotonic())
        line = json.dumps({"k": event, **fields}, separators=(",", ":"))
        with self._lock:
            if not self._file.closed:
                self._file.write(line + "\n")

    def flush(self) -> None:
        with self._lock:
            if not self._file.closed:
                self._file.flush()

    def _flush_loop(self) -> None:
        while not self._closed.wait(FLUSH_S):
            self.flush()

    def close(self) -> None:
        self._closed.set()
        with self._lock:
            self._file.close()


def read_events(*paths: Path) -> list[dict[str, Any]]:
    """Every event of ``paths`` in time order (a torn last line, from a killed writer, is skipped)."""
    events: list[dict[str, Any]] = []
    for path in paths:
        events.extend(_read(path))
    events.sort(key=lambda e: e["t"])
    return events


def _read(path: Path) -> Iterator[dict[str, Any]]:
    with open(path) as f:
        for line in f:
            try:
                yield json.loads(line)
            except ValueError:
                continue


class Tail:
    """New events of a file as it grows (the nemesis follows the probe with it)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._offset = 0
        self._partial = ""

    def new(self) -> list[dict[str, Any]]:
        try:
            with open(self.path) as f:
                f.seek(self._offset)
                data = f.read()
                self._offset = f.tell()
        except FileNotFoundError:
            return []
        data = self._partial + data
        lines = data.split("\n")
        self._partial = lines.pop()
        out = []
        for line in lines:
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
        return out
