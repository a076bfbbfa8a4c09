"""Small durable files of a data directory, in Kafka's formats.

* ``recovery-point-offset-checkpoint`` / ``log-start-offset-checkpoint`` /
  ``replication-offset-checkpoint`` (high watermarks): text, one version line
  (``0``), one count line, then ``<topic> <partition> <offset>`` lines.
* ``.kafka_cleanshutdown``: present only while the broker is stopped cleanly.
* ``<topic>-<partition>/partition.metadata``: ``version: 0`` and ``topic_id: <base64>``
  (the topic id as Kafka prints it: URL-safe base64 of the 16 bytes, no padding).

Every write goes to a temporary file that is fsynced and renamed over the old
one, and then the directory is fsynced, so a crash leaves either the old or the
new content, never a torn mix.
"""

from __future__ import annotations

import base64
import ctypes
import ctypes.util
import errno
import json
import os
import threading
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from broker.protocol.errors import ErrorCode, KafkaError

__all__ = [
    "CLEAN_SHUTDOWN_FILE",
    "HIGH_WATERMARK_CHECKPOINT",
    "LOG_START_OFFSET_CHECKPOINT",
    "RECOVERY_POINT_CHECKPOINT",
    "atomic_write",
    "disk_full",
    "fsync_dir",
    "read_offset_checkpoint",
    "read_partition_metadata",
    "sync_filesystem",
    "topic_id_to_str",
    "update_offset_checkpoint",
    "write_offset_checkpoint",
    "write_partition_metadata",
]

CLEAN_SHUTDOWN_FILE = ".kafka_cleanshutdown"
RECOVERY_POINT_CHECKPOINT = "recovery-point-offset-checkpoint"
LOG_START_OFFSET_CHECKPOINT = "log-start-offset-checkpoint"
HIGH_WATERMARK_CHECKPOINT = "replication-offset-checkpoint"
PARTITION_METADATA_FILE = "partition.metadata"

# Checkpoint files are rewritten whole by several writers (the periodic checkpoint,
# DeleteRecords); one process-wide lock keeps read-modify-write cycles from interleaving.
CHECKPOINT_LOCK = threading.Lock()


# Errors that mean "no space now", not "this disk is failing": the volume (or a quota)
# is full. A write refused for them changed nothing on disk.
DISK_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT})


def disk_full(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or an exception it was raised from) is a full disk. Such a
    failure leaves the directory online: the write is refused (KAFKA_STORAGE_ERROR),
    nothing half-written is kept, and writes succeed again once space returns. Kafka
    takes the directory offline for any IOException; a full disk is not a failed one."""
    seen = 0
    while exc is not None and seen < 8:  # a cause chain is short; bound it anyway
        if isinstance(exc, OSError) and exc.errno in DISK_FULL_ERRNOS:
            return True
        exc = exc.__cause__ or exc.__context__
        seen += 1
    return False


def fsync_dir(path: Path) -> None:
    """fsync a directory so entries created, renamed or removed in it are durable."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_filesystem(path: Path) -> None:
    """Make everything written to the file system holding ``path`` durable: one
    ``syncfs`` (Linux) for what would be thousands of fsyncs (closing every log at
    shutdown); ``sync`` elsewhere. Raises OSError when writeback failed."""
    libc = _libc()
    if libc is None or not hasattr(libc, "syncfs"):
        os.sync()
        return
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        if libc.syncfs(fd) != 0:
            err = ctypes.get_errno()
            raise OSError(err, f"syncfs of {path} failed: {os.strerror(err)}")
    finally:
        os.close(fd)


def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    return ctypes.CDLL(name, use_errno=True) if name else None


def read_json_document(path: Path) -> Any | None:
    """The JSON document ``atomic_write`` left at ``path``; None when there is none yet.
    A file that cannot be read or parsed is KAFKA_STORAGE_ERROR, never a silent default."""
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"{path} is unreadable: {exc}") from exc


def atomic_write(path: Path, data: bytes, *, durable: bool = True) -> None:
    """Replace ``path`` with ``data``: write a temp file, fsync, rename, fsync the dir.

    With ``durable=False`` the fsyncs are skipped (the rename is still atomic): for
    files whose loss is harmless, like producer-state snapshots taken at a roll.
    """
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        if durable:
            os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    if durable:
        fsync_dir(path.parent)


def read_offset_checkpoint(path: Path) -> dict[tuple[str, int], int]:
    """Entries of an offset checkpoint file; {} if it is missing or unreadable.

    A damaged checkpoint only costs recovery time (the recovery point falls back
    to 0, the log start offset to the first segment), so it is not fatal.
    """
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError):
        return {}
    try:
        if lines[0].strip() != "0":
            return {}
        count = int(lines[1])
        out: dict[tuple[str, int], int] = {}
        for line in lines[2 : 2 + count]:
            topic, partition, offset = line.split()
            out[(topic, int(partition))] = int(offset)
        if len(out) != count:
            return {}
        return out
    except (IndexError, ValueError):
        return {}


def write_offset_checkpoint(path: Path, entries: Mapping[tuple[str, int], int]) -> None:
    lines = ["0", str(len(entries))]
    lines += [f"{topic} {partition} {offset}" for (topic, partition), offset in sorted(entries.items())]
    atomic_write(path, ("\n".join(lines) + "\n").encode("utf-8"))


def update_offset_checkpoint(path: Path, topic: str, partition: int, offset: int | None) -> None:
    """Set (or with ``offset=None`` remove) one entry, keeping the others."""
    with CHECKPOINT_LOCK:
        entries = read_offset_checkpoint(path)
        if offset is None:
            entries.pop((topic, partition), None)
        else:
            entries[(topic, partition)] = offset
        write_offset_checkpoint(path, entries)


def topic_id_to_str(topic_id: uuid.UUID) -> str:
    return base64.urlsafe_b64encode(topic_id.bytes).decode("ascii").rstrip("=")


def topic_id_from_str(text: str) -> uuid.UUID:
    padded = text + "=" * (-len(text) % 4)
    raw = base64.urlsafe_b64decode(padded.encode("ascii"))
    if len(raw) != 16:
        raise ValueError(f"topic id {text!r} is not 16 bytes")
    return uuid.UUID(bytes=raw)


def write_partition_metadata(directory: Path, topic_id: uuid.UUID, *, durable: bool = True) -> None:
    """Write ``partition.metadata``; without ``durable`` straight to the file (no temp file
    and rename: a torn file reads as missing and is written again from the catalog)."""
    text = f"version: 0\ntopic_id: {topic_id_to_str(topic_id)}".encode("ascii")
    if durable:
        atomic_write(directory / PARTITION_METADATA_FILE, text)
        return
    fd = os.open(directory / PARTITION_METADATA_FILE, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        os.write(fd, text)
    finally:
        os.close(fd)


def read_partition_metadata(directory: Path) -> uuid.UUID | None:
    """The topic id in ``partition.metadata``; None if the file is missing or malformed."""
    try:
        text = (directory / PARTITION_METADATA_FILE).read_text(encoding="ascii")
    except (OSError, UnicodeDecodeError):
        return None
    fields = {}
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep:
            fields[key.strip()] = value.strip()
    if fields.get("version") != "0" or "topic_id" not in fields:
        return None
    try:
        return topic_id_from_str(fields["topic_id"])
    except ValueError:
        return None
