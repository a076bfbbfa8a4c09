"""Small durable stores (features, client-metrics subscriptions, streams topologies, the
security state): a JSON file on a single node, or a section of documents in the
cluster's etcd (ClusterMetadata) that a cluster member follows."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Protocol

from broker.log.checkpoint import atomic_write, read_json_document
from broker.protocol.errors import ErrorCode, KafkaError


class SharedDocuments(Protocol):
    """Cluster-wide documents in etcd (ClusterMetadata)."""

    def documents(self, section: str) -> dict[str, bytes]: ...

    async def write_documents(self, section: str, puts: Mapping[str, bytes], deletes: Iterable[str]) -> None: ...


def write_document(path: Path, data: bytes) -> None:
    """Replace the store's file with ``data`` atomically; KAFKA_STORAGE_ERROR when it cannot."""
    try:
        atomic_write(path, data)
    except OSError as exc:
        raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"cannot write {path}: {exc}") from exc


class FollowingStore:
    """A store in ``data_dir/file_name``, or in ``shared`` (a cluster member), which it
    follows: ``follow`` takes what etcd holds, ``_loaded`` what the file held."""

    def __init__(self, data_dir: Path, file_name: str, shared: SharedDocuments | None) -> None:
        self._path = Path(data_dir) / file_name
        self._shared = shared

    def load(self) -> None:
        """Read what is stored (single node; blocking); a cluster member follows etcd."""
        if self._shared is not None:
            self.follow()
            return
        doc = read_json_document(self._path)
        if doc is None:
            return
        self._loaded(doc)

    def follow(self) -> None:
        raise NotImplementedError

    def _loaded(self, doc: Any) -> None:
        raise NotImplementedError
