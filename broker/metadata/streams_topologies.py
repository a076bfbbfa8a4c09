"""Topology descriptions of streams groups (KIP-1331), kept by the broker.

Kafka 4.4 hands the descriptions clients push (StreamsGroupTopologyDescriptionUpdate)
to a pluggable store; this broker has that store built in: the description of each
group's current topology epoch, as JSON, in ``streams-topologies.json`` in the first
log directory, or in etcd (``security/streams_topologies/<group>``) in a cluster,
where every broker reads it. StreamsGroupDescribe v1 returns it (status 3,
"available"); deleting the group deletes it. A description larger than
``MAX_DESCRIPTION_BYTES`` is refused.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from broker.log.checkpoint import read_json_document
from broker.metadata.documents import SharedDocuments, write_document
from broker.protocol.errors import ErrorCode, KafkaError

__all__ = ["MAX_DESCRIPTION_BYTES", "StreamsTopologyStore"]

FILE_NAME = "streams-topologies.json"
SECTION = "streams_topologies"
# etcd keeps values up to 1.5 MiB by default; a description of several hundred
# subtopologies stays far below 1 MiB.
MAX_DESCRIPTION_BYTES = 1 << 20
# A heartbeat asks a group's members for a missing description at most this often per
# topology epoch: every member asked pushes one, and a member that failed to is not
# asked again at once.
ASK_BACKOFF_MS = 30_000


class StreamsTopologyStore:
    def __init__(self, data_dir: Path, *, shared: SharedDocuments | None = None) -> None:
        self._path = Path(data_dir) / FILE_NAME
        self._shared = shared
        self._docs: dict[str, dict[str, Any]] = {}
        self._asked: dict[tuple[str, int], int] = {}

    def load(self) -> None:
        if self._shared is not None:
            return
        doc = read_json_document(self._path)
        if doc is None:
            return
        if not isinstance(doc, dict) or "groups" not in doc:
            raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"{self._path} is unreadable: no 'groups'")
        self._docs = doc["groups"]

    def get(self, group_id: str) -> tuple[int, dict[str, Any]] | None:
        """(topology epoch, description) stored for the group, or None."""
        if self._shared is not None:
            raw = self._shared.documents(SECTION).get(group_id)
            doc = None if raw is None else json.loads(raw)
        else:
            doc = self._docs.get(group_id)
        return None if doc is None else (int(doc["epoch"]), doc["description"])

    def should_ask(self, group_id: str, epoch: int, now_ms: int) -> bool:
        """Whether a heartbeat of the group should ask for the description of ``epoch``:
        none stored for it, and not asked within ASK_BACKOFF_MS."""
        stored = self.get(group_id)
        if epoch < 0 or (stored is not None and stored[0] == epoch):
            return False
        last = self._asked.get((group_id, epoch))
        if last is not None and now_ms - last < ASK_BACKOFF_MS:
            return False
        # One entry per group: an older epoch's is dropped.
        self._asked = {k: v for k, v in self._asked.items() if k[0] != group_id}
        self._asked[(group_id, epoch)] = now_ms
        return True

    async def put(self, group_id: str, epoch: int, description: dict[str, Any]) -> None:
        doc = {"epoch": epoch, "description": description}
        data = json.dumps(doc, sort_keys=True).encode()
        if len(data) > MAX_DESCRIPTION_BYTES:
            raise KafkaError(
                ErrorCode.STREAMS_TOPOLOGY_DESCRIPTION_UPDATE_FAILED,
                f"The topology description is {len(data)} bytes; at most {MAX_DESCRIPTION_BYTES} are kept.",
            )
        if self._shared is not None:
            await self._shared.write_documents(SECTION, {group_id: data}, ())
            return
        docs = {**self._docs, group_id: doc}
        self._write(docs)
        self._docs = docs

    async def delete(self, group_id: str) -> None:
        if self.get(group_id) is None:
            return
        if self._shared is not None:
            await self._shared.write_documents(SECTION, {}, (group_id,))
            return
        docs = {k: v for k, v in self._docs.items() if k != group_id}
        self._write(docs)
        self._docs = docs

    def _write(self, docs: dict[str, dict[str, Any]]) -> None:
        write_document(self._path, json.dumps({"version": 1, "groups": docs}, sort_keys=True).encode())
