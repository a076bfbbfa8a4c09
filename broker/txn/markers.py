"""Writing transaction markers to partitions: what WriteTxnMarkers does on a partition leader.

A marker is a transactional control batch holding one COMMIT or ABORT record
(``broker.protocol.records.build_end_txn_marker``) with the producer id and
epoch of the transaction and the epoch of the coordinator that ends it. It is
appended as the coordinator (``AppendOrigin.COORDINATOR``: no sequence checks)
through the replica layer, so the leader check applies and the partition's
producer state checks the epochs (a stale marker is INVALID_PRODUCER_EPOCH, a
marker from an older coordinator TRANSACTION_COORDINATOR_FENCED). A marker
counts as written once it is what ``acks=all`` promises.

``__consumer_offsets`` partitions are the group coordinator's: it appends the
marker itself and applies it to the transactional offset commits it holds
(:class:`OffsetsMarkers`), as Kafka delegates them to its group coordinator.
Its routing errors become NOT_LEADER_OR_FOLLOWER (retriable for the
transaction coordinator), as Kafka translates them.

The transaction coordinator (markers of its own transactions) and the
WriteTxnMarkers handler (markers sent by another broker's coordinator, or by
``sharebroker transactions abort``) both call :meth:`MarkerWriter.write`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

import trio

from broker.log.producer_state import AppendOrigin
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.records import build_end_txn_marker
from broker.replica.manager import ReplicaManager
from broker.replica.partition import Partition
from broker.txn.records import TopicPartition

__all__ = ["OFFSETS_TOPIC", "MarkerWriter", "OffsetsMarkers"]

OFFSETS_TOPIC = "__consumer_offsets"
# Kafka's request.timeout.ms default: how long a marker may take to become durable.
MARKER_WRITE_TIMEOUT_MS = 30_000

_COORDINATOR_ROUTING = (
    ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.COORDINATOR_LOAD_IN_PROGRESS,
    ErrorCode.NOT_COORDINATOR,
)


class OffsetsMarkers(Protocol):
    """The group coordinator's side of a marker on a ``__consumer_offsets`` partition."""

    async def complete_transaction(
        self,
        partition: int,
        producer_id: int,
        producer_epoch: int,
        coordinator_epoch: int,
        committed: bool,
        transaction_version: int,
    ) -> ErrorCode: ...


class MarkerWriter:
    def __init__(
        self,
        replicas: ReplicaManager,
        offsets: OffsetsMarkers,
        clock: Callable[[], int],
        *,
        timeout_ms: int = MARKER_WRITE_TIMEOUT_MS,
    ) -> None:
        self._replicas = replicas
        self._offsets = offsets
        self._clock = clock
        self._timeout_ms = timeout_ms

    async def write(
        self,
        producer_id: int,
        producer_epoch: int,
        coordinator_epoch: int,
        committed: bool,
        transaction_version: int,
        partitions: Iterable[TopicPartition],
    ) -> dict[TopicPartition, ErrorCode]:
        """Write the marker to every partition; the outcome per partition (NONE once durable)."""
        results: dict[TopicPartition, ErrorCode] = {}
        appended: dict[TopicPartition, Partition] = {}
        offsets_parts: list[TopicPartition] = []
        marker = build_end_txn_marker(
            commit=committed,
            coordinator_epoch=coordinator_epoch,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            timestamp=self._clock(),
        )
        for tp in dict.fromkeys(TopicPartition(*tp) for tp in partitions):
            if tp.topic == OFFSETS_TOPIC:
                offsets_parts.append(tp)
                continue
            try:
                partition = self._replicas.leader(tp.topic, tp.partition)
                partition.append(marker, origin=AppendOrigin.COORDINATOR, transaction_version=transaction_version)
            except KafkaError as exc:
                results[tp] = exc.code
                continue
            appended[tp] = partition

        async def offsets_one(tp: TopicPartition) -> None:
            code = await self._offsets.complete_transaction(
                tp.partition, producer_id, producer_epoch, coordinator_epoch, committed, transaction_version
            )
            results[tp] = ErrorCode.NOT_LEADER_OR_FOLLOWER if code in _COORDINATOR_ROUTING else code

        async def durable_one(tp: TopicPartition, partition: Partition) -> None:
            try:
                await partition.wait_replicated()
            except KafkaError as exc:
                results[tp] = exc.code
            else:
                results[tp] = ErrorCode.NONE

        with trio.move_on_after(self._timeout_ms / 1000):
            async with trio.open_nursery() as nursery:
                for tp in offsets_parts:
                    nursery.start_soon(offsets_one, tp)
                for tp, partition in appended.items():
                    nursery.start_soon(durable_one, tp, partition)
        for tp in list(appended) + offsets_parts:
            results.setdefault(tp, ErrorCode.REQUEST_TIMED_OUT)
        return results
