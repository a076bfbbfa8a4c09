"""The cluster metadata as it is laid out in etcd, and this broker's mirror of it.

Keys under the cluster's prefix (``etcd.prefix``, ``/sharebroker`` by default)::

    cluster_id                     the cluster id (created by the first broker)
    controller                     the controller election (under the winner's lease)
    brokers/<id>                   registrations (under each broker's lease)
    shutdown/<id>                  controlled shutdowns under way (under the lease)
    topics/<name>                  a topic: id, configs, partition count and the
                                   state of its first PARTITIONS_PER_KEY partitions
    partitions/<name>/<chunk>      the state of partitions chunk*K .. chunk*K+K-1
    requests/<id>, results/<id>    topic requests to the controller and its answers
    producer_ids, group_configs/<group>, security/<section>/<name>

A partition's state (replicas, ISR, leader, leader epoch, partition epoch, the
leader's broker epoch, and a reassignment's adding/removing replicas) is a
compact JSON array of about 35 bytes. Partitions live in keys of
``PARTITIONS_PER_KEY`` (100): a topic of up to 100 partitions is one key, and a
topic of ``MAX_PARTITIONS_PER_TOPIC`` (10,000) is 100 keys (~350 KiB), which its
creation writes in one transaction (etcd allows 128 operations per transaction
and 1.5 MiB per request by default). An ISR or leader change rewrites the
3.5 KiB key of its partition, not the whole topic. Writes touching many keys
(the leaders of a failed broker) go out in transactions of at most
``MAX_TXN_OPS`` operations and ``MAX_TXN_BYTES`` bytes (:func:`txn_batches`).

What 100,000 partitions cost in etcd: ~1,000 partition keys (~4 MiB) plus a key
per topic. Every change is one new revision of the keys it touches; the
controller compacts the revision history (see ``COMPACT_*`` in
:mod:`broker.metadata.controller`), so the database stays near that size, far
below etcd's default 2 GiB quota (``--quota-backend-bytes``). A full database
raises etcd's NOSPACE alarm: etcd then refuses every write (topic changes, ISR
changes, new registrations answer REQUEST_TIMED_OUT here) and serves reads and
watches, so brokers keep serving with the metadata they have until an operator
compacts, defragments and disarms the alarm.

Topics written before this layout (every partition in the topic key, as
dictionaries) are still read; the next write of such a topic rewrites it in
this layout.

:class:`Mirror` is a broker's copy of every key, by section, with the topics
whose keys changed since the last :meth:`Mirror.take_changes`: images and the
controller look only at those instead of decoding every topic on every change.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from broker.metadata.etcd_client import KeyValue, Op, WatchEvent

__all__ = [
    "MAX_TXN_BYTES",
    "MAX_TXN_OPS",
    "PARTITIONS_PER_KEY",
    "Changes",
    "Keys",
    "Mirror",
    "TopicRecord",
    "decode_partition",
    "encode_partition",
    "txn_batches",
]

# Partitions per etcd key. 100 keeps a key near 3.5 KiB (an ISR change rewrites no
# more) and a topic of 10,000 partitions at 100 keys: one transaction creates it.
PARTITIONS_PER_KEY = 100
# etcd's --max-txn-ops default is 128 per list (compares, success, failure): a batch of
# puts leaves room for the controller guard and a few bookkeeping operations.
MAX_TXN_OPS = 120
# etcd refuses requests above --max-request-bytes (1.5 MiB by default); values travel
# base64-encoded in JSON (4/3), so a transaction carries at most ~1 MiB of values.
MAX_TXN_BYTES = 1_000_000


class Keys:
    """The cluster's key layout in etcd, under one prefix."""

    def __init__(self, prefix: str) -> None:
        self.root = prefix.rstrip("/").encode() + b"/"
        self.cluster_id = self.root + b"cluster_id"
        self.controller = self.root + b"controller"
        self.brokers = self.root + b"brokers/"
        self.topics = self.root + b"topics/"
        self.partitions = self.root + b"partitions/"
        self.requests = self.root + b"requests/"
        self.results = self.root + b"results/"
        self.producer_ids = self.root + b"producer_ids"
        self.group_configs = self.root + b"group_configs/"
        self.security = self.root + b"security/"
        self.shutdown = self.root + b"shutdown/"

    def broker(self, node_id: int) -> bytes:
        return self.brokers + str(node_id).encode()

    def topic(self, name: str) -> bytes:
        return self.topics + name.encode()

    def chunks(self, name: str) -> bytes:
        """The prefix of a topic's partition keys."""
        return self.partitions + name.encode() + b"/"

    def chunk(self, name: str, index: int) -> bytes:
        """The key of partitions ``index*K`` .. ``index*K+K-1`` (index >= 1: the first
        chunk is in the topic key)."""
        return self.chunks(name) + b"%06d" % index

    def request(self, request_id: str) -> bytes:
        return self.requests + request_id.encode()

    def result(self, request_id: str) -> bytes:
        return self.results + request_id.encode()

    def group_config(self, group_id: str) -> bytes:
        return self.group_configs + group_id.encode()

    def security_document(self, section: str, name: str) -> bytes:
        """``security/<section>/<name>``: ACLs, SCRAM credentials, client quotas."""
        return self.security + section.encode() + b"/" + name.encode()

    def shutting_down(self, node_id: int) -> bytes:
        return self.shutdown + str(node_id).encode()


# --- partitions ------------------------------------------------------------------------


def encode_partition(p: Mapping[str, Any]) -> list[Any]:
    """A partition's state as the compact array stored in etcd."""
    out: list[Any] = [
        p["replicas"],
        p["isr"],
        p["leader"],
        p["leader_epoch"],
        p["partition_epoch"],
        p.get("leader_broker_epoch", -1),
    ]
    adding, removing = p.get("adding"), p.get("removing")
    if adding or removing:
        out.append({"adding": list(adding or ()), "removing": list(removing or ())})
    return out


def decode_partition(item: Any) -> dict[str, Any]:
    """A stored partition (compact array, or the dictionary of the earlier layout)."""
    if isinstance(item, dict):
        return dict(item)
    p: dict[str, Any] = {
        "replicas": list(item[0]),
        "isr": list(item[1]),
        "leader": item[2],
        "leader_epoch": item[3],
        "partition_epoch": item[4],
        "leader_broker_epoch": item[5],
    }
    if len(item) > 6:
        extra = item[6]
        if extra.get("adding"):
            p["adding"] = list(extra["adding"])
        if extra.get("removing"):
            p["removing"] = list(extra["removing"])
    return p


def decode_items(value: bytes, chunks: Mapping[int, bytes] | None) -> tuple[dict[str, Any], list[Any], int]:
    """A topic's stored form: (its document, its partitions as stored, partition keys
    read). Partition keys not seen yet (a half-applied watch batch) end the list there."""
    doc = json.loads(value)
    items = doc["partitions"]
    count = int(doc.get("count", len(items)))
    stored = 0
    if count > len(items):
        items = list(items)
        for index in range(1, -(-count // PARTITIONS_PER_KEY)):
            raw = (chunks or {}).get(index)
            if raw is None:
                break
            items += json.loads(raw)
            stored = index
    return doc, items, stored


def _dumps(doc: Any) -> bytes:
    return json.dumps(doc, separators=(",", ":"), sort_keys=True).encode()


@dataclass
class TopicRecord:
    """A topic as stored in etcd: ``topics/<name>`` and its partition keys."""

    name: str
    topic_id: uuid.UUID
    partitions: list[dict[str, Any]]
    configs: dict[str, str]
    internal: bool = False
    # Partition keys the stored topic has (beyond the topic key), for rewrites.
    stored_chunks: int = field(default=0, compare=False)

    @classmethod
    def decode(cls, name: str, value: bytes, chunks: Mapping[int, bytes] | None = None) -> TopicRecord:
        """From the topic key's value and its partition keys' values ({chunk: value})."""
        doc, items, stored = decode_items(value, chunks)
        return cls.from_items(name, doc, items, stored)

    @classmethod
    def from_items(cls, name: str, doc: Mapping[str, Any], items: Sequence[Any], stored: int = 0) -> TopicRecord:
        return cls(
            name,
            uuid.UUID(doc["id"]),
            [decode_partition(p) for p in items],
            dict(doc.get("configs", {})),
            bool(doc["internal"]),
            stored,
        )

    @property
    def count(self) -> int:
        return len(self.partitions)

    def chunk_count(self) -> int:
        """Keys the partitions take: the topic key and the partition keys after it."""
        return max(1, -(-len(self.partitions) // PARTITIONS_PER_KEY))

    def encode(self) -> bytes:
        """The topic key's value: id, configs, count and the first chunk of partitions."""
        doc = {
            "id": str(self.topic_id),
            "internal": self.internal,
            "configs": self.configs,
            "count": len(self.partitions),
            "partitions": [encode_partition(p) for p in self.partitions[:PARTITIONS_PER_KEY]],
        }
        return _dumps(doc)

    def encode_chunk(self, index: int) -> bytes:
        """The value of partition key ``index`` (>= 1)."""
        start = index * PARTITIONS_PER_KEY
        return _dumps([encode_partition(p) for p in self.partitions[start : start + PARTITIONS_PER_KEY]])

    def to_doc(self) -> dict[str, Any]:
        """Every field as one document (partitions as dictionaries): a request's result."""
        return {
            "id": str(self.topic_id),
            "internal": self.internal,
            "configs": self.configs,
            "partitions": [dict(p) for p in self.partitions],
        }

    def ops(self, keys: Keys, chunks: Iterable[int] | None = None) -> list[Op]:
        """Puts of the topic key and partition keys ``chunks`` (None: every one; chunk 0
        is the topic key), and deletes of partition keys past its partitions."""
        wanted = range(self.chunk_count()) if chunks is None else sorted(set(chunks))
        out: list[Op] = []
        for index in wanted:
            if index == 0:
                out.append(Op(keys.topic(self.name), self.encode()))
            elif index < self.chunk_count():
                out.append(Op(keys.chunk(self.name, index), self.encode_chunk(index)))
        return out


def chunk_of(partition: int) -> int:
    """The key (0: the topic key) that holds ``partition``."""
    return partition // PARTITIONS_PER_KEY


def txn_batches(ops: Sequence[Op], *, room: int = 0) -> Iterator[list[Op]]:
    """``ops`` cut into transactions within etcd's limits (``MAX_TXN_OPS`` operations,
    ``MAX_TXN_BYTES`` of values), ``room`` operations left free in each. Operations
    that must commit together must be given together and fit one transaction."""
    batch: list[Op] = []
    size = 0
    limit = MAX_TXN_OPS - room
    for op in ops:
        n = len(op.value or b"") + len(op.key)
        if batch and (len(batch) >= limit or size + n > MAX_TXN_BYTES):
            yield batch
            batch, size = [], 0
        batch.append(op)
        size += n
    if batch:
        yield batch


# --- the mirror ------------------------------------------------------------------------


@dataclass
class Changes:
    """What changed in the mirror since the last :meth:`Mirror.take_changes`."""

    topics: set[str] = field(default_factory=set)
    brokers: bool = False
    shutdown: bool = False
    everything: bool = False


class Mirror(Mapping[bytes, KeyValue]):
    """Every key of the cluster as etcd last told us, by section (a read-only mapping of
    key -> KeyValue for code that looks keys up; the sections for code that walks them)."""

    def __init__(self, keys: Keys, kvs: Iterable[KeyValue] = ()) -> None:
        self.layout = keys
        self._kvs: dict[bytes, KeyValue] = {}
        # {section prefix: {key: KeyValue}} for the sections walked by prefix.
        self._sections: dict[bytes, dict[bytes, KeyValue]] = {
            p: {}
            for p in (
                keys.brokers,
                keys.topics,
                keys.requests,
                keys.results,
                keys.group_configs,
                keys.security,
                keys.shutdown,
            )
        }
        # {topic: {chunk index: KeyValue}}
        self._chunks: dict[str, dict[int, KeyValue]] = {}
        # Topics decoded since their keys last changed: as stored (see items) and as
        # records (see view).
        self._items: dict[str, tuple[dict[str, Any], list[Any], int]] = {}
        self._decoded: dict[str, TopicRecord] = {}
        self._changes = Changes(everything=True)
        for kv in kvs:
            self.put(kv)

    # --- Mapping ---------------------------------------------------------------------

    def __getitem__(self, key: bytes) -> KeyValue:
        return self._kvs[key]

    def __iter__(self) -> Iterator[bytes]:
        return iter(self._kvs)

    def __len__(self) -> int:
        return len(self._kvs)

    # --- changes ---------------------------------------------------------------------

    def _section(self, key: bytes) -> bytes | None:
        for prefix in self._sections:
            if key.startswith(prefix):
                return prefix
        return None

    def _note(self, key: bytes) -> None:
        keys = self.layout
        if key.startswith(keys.topics):
            name = key[len(keys.topics) :].decode()
            self._changes.topics.add(name)
            self._items.pop(name, None)
            self._decoded.pop(name, None)
        elif key.startswith(keys.partitions):
            name = key[len(keys.partitions) :].rsplit(b"/", 1)[0].decode()
            self._changes.topics.add(name)
            self._items.pop(name, None)
            self._decoded.pop(name, None)
        elif key.startswith(keys.brokers):
            self._changes.brokers = True
        elif key.startswith(keys.shutdown):
            self._changes.shutdown = True

    def put(self, kv: KeyValue) -> None:
        key = kv.key
        self._kvs[key] = kv
        section = self._section(key)
        if section is not None:
            self._sections[section][key] = kv
        elif key.startswith(self.layout.partitions):
            name, _, index = key[len(self.layout.partitions) :].rpartition(b"/")
            self._chunks.setdefault(name.decode(), {})[int(index)] = kv
        self._note(key)

    def delete(self, key: bytes) -> None:
        if self._kvs.pop(key, None) is None:
            return
        section = self._section(key)
        if section is not None:
            self._sections[section].pop(key, None)
        elif key.startswith(self.layout.partitions):
            name, _, index = key[len(self.layout.partitions) :].rpartition(b"/")
            chunks = self._chunks.get(name.decode())
            if chunks is not None:
                chunks.pop(int(index), None)
                if not chunks:
                    del self._chunks[name.decode()]
        self._note(key)

    def apply(self, events: Iterable[WatchEvent]) -> None:
        for event in events:
            if event.deleted:
                self.delete(event.kv.key)
            else:
                self.put(event.kv)

    def take_changes(self) -> Changes:
        changes, self._changes = self._changes, Changes()
        return changes

    def requeue(self, topics: Iterable[str]) -> None:
        """Mark ``topics`` changed again (a write about them failed and must be retried)."""
        self._changes.topics.update(topics)

    # --- sections --------------------------------------------------------------------

    def section(self, prefix: bytes) -> dict[bytes, KeyValue]:
        """{key: KeyValue} of one section (brokers/, topics/, requests/, results/,
        group_configs/, security/, shutdown/); do not modify."""
        return self._sections[prefix]

    def under(self, prefix: bytes) -> dict[bytes, KeyValue]:
        """Keys starting with ``prefix`` inside a section (e.g. one security section)."""
        section = self._section(prefix)
        if section is None:
            return {k: v for k, v in self._kvs.items() if k.startswith(prefix)}
        return {k: v for k, v in self._sections[section].items() if k.startswith(prefix)}

    def topic_names(self) -> Iterable[str]:
        n = len(self.layout.topics)
        return (key[n:].decode() for key in self._sections[self.layout.topics])

    def topic_kv(self, name: str) -> KeyValue | None:
        return self._kvs.get(self.layout.topic(name))

    def chunk_kvs(self, name: str) -> dict[int, KeyValue]:
        """{chunk index: KeyValue} of a topic's partition keys."""
        return self._chunks.get(name, {})

    def stored(self, name: str) -> tuple[dict[str, Any], list[Any], int] | None:
        """The topic as stored: (document, partitions as stored, partition keys read);
        shared, do not change. Decoded once per change of its keys."""
        found = self._items.get(name)
        if found is not None:
            return found
        kv = self.topic_kv(name)
        if kv is None:
            return None
        chunks = {i: c.value for i, c in self.chunk_kvs(name).items()}
        found = self._items[name] = decode_items(kv.value, chunks)
        return found

    def view(self, name: str) -> TopicRecord | None:
        """The topic decoded, shared: do not change it (see :meth:`record`). Decoded once
        per change of its keys, whoever asks (the controller, ISR writes)."""
        decoded = self._decoded.get(name)
        if decoded is not None:
            return decoded
        stored = self.stored(name)
        if stored is None:
            return None
        decoded = self._decoded[name] = TopicRecord.from_items(name, *stored)
        return decoded

    def record(self, name: str) -> TopicRecord | None:
        """The topic decoded, a copy the caller may change (partition by partition: a
        partition's lists are replaced, not changed in place, by every writer)."""
        shared = self.view(name)
        if shared is None:
            return None
        return TopicRecord(
            shared.name,
            shared.topic_id,
            [dict(p) for p in shared.partitions],
            dict(shared.configs),
            shared.internal,
            shared.stored_chunks,
        )

    def revisions(self, name: str) -> dict[int, int]:
        """{chunk index: mod revision} of the keys holding a topic (0: the topic key)."""
        kv = self.topic_kv(name)
        out = {} if kv is None else {0: kv.mod_revision}
        for index, c in self.chunk_kvs(name).items():
            out[index] = c.mod_revision
        return out

    def records(self) -> dict[str, TopicRecord]:
        """Every topic decoded, copies (a walk over every partition: whole-cluster passes)."""
        out = {}
        for name in self.topic_names():
            record = self.record(name)
            if record is not None:
                out[name] = record
        return out
