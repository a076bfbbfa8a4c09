"""ISR changes of a ClusterMetadata: a leader's AlterPartition, written to etcd.

:class:`ClusterIsrWrites` is part of :class:`broker.metadata.cluster.ClusterMetadata`
(a mixin, split out at this seam for size). Each topic's changes go in one etcd txn
guarded by the mod revisions of the keys holding those partitions, the leader's
registration and the registrations of the replicas added (at the broker epochs they
fetched with, KIP-903); many topics share a txn within etcd's limits.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import trio

from broker.metadata.controller import ClusterView
from broker.metadata.etcd_client import Compare, EtcdClient, EtcdError, EtcdUnavailable, Op
from broker.metadata.layout import MAX_TXN_BYTES, MAX_TXN_OPS, Keys, Mirror, chunk_of
from broker.protocol.errors import ErrorCode, KafkaError

__all__ = ["ClusterIsrWrites"]


class ClusterIsrWrites:
    """The ISR-writing half of ClusterMetadata (which provides these attributes)."""

    node_id: int
    keys: Keys
    client: EtcdClient
    lease: int | None
    broker_epoch: int | None
    _mirror: Mirror
    _revision_changed: trio.Event
    _request_timeout_s: float
    wait_revision: Callable[[int], Awaitable[None]]

    async def alter_isr(
        self,
        changes: Mapping[str, Sequence[tuple[int, int, int, tuple[int, ...]]]],
        broker_epochs: Mapping[int, int],
    ) -> dict[str, dict[int, int]]:
        """Write ISR changes of partitions this broker leads: {topic: [(partition, leader
        epoch, partition epoch, new ISR)]}, each topic's in one etcd txn guarded by the
        mod revisions of the keys holding those partitions, this broker's registration and
        the registrations of replicas added (at the broker epochs they fetched with,
        KIP-903); many topics per txn within etcd's limits. Returns {topic: {partition:
        error code}}: 0 written (and in this broker's image), FENCED_LEADER_EPOCH when it
        leads no more, INVALID_UPDATE_VERSION when the partition changed since,
        INELIGIBLE_REPLICA for a replica not registered at that epoch or shutting down."""
        out: dict[str, dict[int, int]] = {topic: {} for topic in changes}
        todo = dict(changes)
        for _attempt in range(5):
            lease, epoch = self.lease, self.broker_epoch
            if lease is None or epoch is None:
                for topic, items in todo.items():
                    out[topic].update({c[0]: int(ErrorCode.FENCED_LEADER_EPOCH) for c in items})
                return out
            view = ClusterView(self.keys, self._mirror)
            live = {b: rev for b, (rev, _) in view.live_brokers().items()}
            down = {int(json.loads(kv.value)["id"]) for kv in self._mirror.section(self.keys.shutdown).values()}
            mine = Compare(self.keys.broker(self.node_id), "MOD", epoch)
            writes: list[tuple[str, list[Op], list[Compare], list[int]]] = []
            for topic, items in todo.items():
                prepared = self._isr_write(view, topic, items, live, down, broker_epochs, out[topic])
                if prepared is not None:
                    writes.append((topic, *prepared))
            if not writes:
                return out
            failed = await self._write_isr_batches(writes, mine)
            for topic, _, _, written in writes:
                if topic not in failed:
                    out[topic].update(dict.fromkeys(written, 0))
            todo = {topic: todo[topic] for topic in failed}
            if not todo:
                return out
            # Someone wrote first (or our mirror lags): look again once the mirror moved.
            with trio.move_on_after(1.0):
                await self._revision_changed.wait()
        for topic, items in todo.items():
            for c in items:
                out[topic].setdefault(c[0], int(ErrorCode.INVALID_UPDATE_VERSION))
        return out

    def _isr_write(
        self,
        view: Any,
        topic: str,
        items: Sequence[tuple[int, int, int, tuple[int, ...]]],
        live: Mapping[int, int],
        down: set[int],
        broker_epochs: Mapping[int, int],
        out: dict[int, int],
    ) -> tuple[list[Op], list[Compare], list[int]] | None:
        """The ops and compares writing one topic's ISR changes (None: nothing to write);
        partitions refused get their error in ``out``."""
        record = view.topic(topic)
        if record is None:
            out.update({c[0]: int(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION) for c in items})
            return None
        added_compares: list[Compare] = []
        written: list[int] = []
        for index, leader_epoch, partition_epoch, isr in items:
            if not 0 <= index < len(record.partitions):
                out[index] = int(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
                continue
            p = record.partitions[index]
            if p["leader"] != self.node_id or p["leader_epoch"] != leader_epoch:
                out[index] = int(ErrorCode.FENCED_LEADER_EPOCH)
                continue
            if p["partition_epoch"] != partition_epoch:
                out[index] = int(ErrorCode.INVALID_UPDATE_VERSION)
                continue
            added = [r for r in isr if r not in p["isr"]]
            bad = [
                r
                for r in added
                if r not in p["replicas"]
                or r in down
                or r not in live
                or (r in broker_epochs and broker_epochs[r] != live[r])
            ]
            if bad or self.node_id not in isr:
                out[index] = int(ErrorCode.INELIGIBLE_REPLICA)
                continue
            for r in added:
                added_compares.append(Compare(self.keys.broker(r), "MOD", live[r]))
            p["isr"] = list(isr)
            p["partition_epoch"] += 1
            written.append(index)
        if not written:
            return None
        ops, compares = view.writes(record, {chunk_of(i) for i in written})
        unique = {(c.key, c.target): c for c in [*compares, *added_compares]}
        return ops, list(unique.values()), written

    async def _write_isr_batches(
        self, writes: list[tuple[str, list[Op], list[Compare], list[int]]], mine: Compare
    ) -> set[str]:
        """Write topics' ISR changes, many per txn; the topics whose txn failed (their
        partitions are marked written in their results otherwise)."""
        failed: set[str] = set()
        batch: list[tuple[str, list[Op], list[Compare], list[int]]] = []
        size = 0
        revision = 0

        async def flush() -> None:
            nonlocal revision
            ops = [o for _, item_ops, _, _ in batch for o in item_ops]
            compares = list({(c.key, c.target): c for _, _, cs, _ in batch for c in [mine, *cs]}.values())
            try:
                ok, rev = await self.client.txn(compares, ops)
            except (EtcdUnavailable, EtcdError) as exc:
                raise KafkaError(
                    ErrorCode.REQUEST_TIMED_OUT, f"the cluster metadata store is unreachable: {exc}"
                ) from exc
            if ok:
                revision = max(revision, rev)
            else:
                failed.update(topic for topic, _, _, _ in batch)

        for item in writes:
            n = sum(len(o.value or b"") for o in item[1])
            ops_count = sum(len(i[1]) for i in batch) + len(item[1])
            compare_count = sum(len(i[2]) for i in batch) + len(item[2]) + 1
            if batch and (max(ops_count, compare_count) > MAX_TXN_OPS or size + n > MAX_TXN_BYTES):
                await flush()
                batch, size = [], 0
            batch.append(item)
            size += n
        if batch:
            await flush()
        if revision:
            with trio.move_on_after(self._request_timeout_s):
                await self.wait_revision(revision)
        return failed
