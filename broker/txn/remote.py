"""Transactions across the brokers of a cluster: markers and KIP-890 verification over the wire.

A transaction touches partitions led by any broker, its offsets land in a
``__consumer_offsets`` partition led by any broker, and its coordinator leads
one ``__transaction_state`` partition. Two conversations cross brokers, as in
Kafka:

- the coordinator writes a transaction's markers to each partition's leader:
  :class:`RoutedMarkers` writes those this broker leads itself
  (:class:`~broker.txn.markers.MarkerWriter`) and sends WriteTxnMarkers (27) to
  the leader of each of the others, one request per broker. The broker that
  gets it writes only what it leads (NOT_LEADER_OR_FOLLOWER otherwise), so a
  marker never bounces between brokers while leadership moves; the coordinator
  retries what is left against the new leaders.
- a partition leader (Produce) or a group coordinator (TxnOffsetCommit) asks
  the transaction coordinator whether a partition is in the producer's open
  transaction, or adds it (transaction version 2): :func:`verify_or_add_remote`
  sends the batched form of AddPartitionsToTxn (v5, one transaction, VerifyOnly
  as the question is) to the broker leading the transactional id's
  ``__transaction_state`` partition.

A peer that cannot be reached, a partition without a leader and a coordinator
that moved answer retriable errors (COORDINATOR_NOT_AVAILABLE,
NOT_LEADER_OR_FOLLOWER, NOT_COORDINATOR): the coordinator retries its markers,
the producer its batch.
"""

from __future__ import annotations

from collections.abc import Iterable

import trio

from broker.metadata.image import NO_LEADER, CoordinatorType
from broker.metadata.source import MetadataSource
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.add_partitions_to_txn_request import (
    AddPartitionsToTxnRequest,
    AddPartitionsToTxnTopic,
    AddPartitionsToTxnTransaction,
)
from broker.protocol.messages.add_partitions_to_txn_response import AddPartitionsToTxnResponse
from broker.protocol.messages.write_txn_markers_request import (
    WritableTxnMarker,
    WritableTxnMarkerTopic,
    WriteTxnMarkersRequest,
)
from broker.protocol.messages.write_txn_markers_response import WriteTxnMarkersResponse
from broker.replica.interbroker import BrokerPeers
from broker.txn.markers import MARKER_WRITE_TIMEOUT_MS, MarkerWriter
from broker.txn.records import TopicPartition

__all__ = ["RoutedMarkers", "coordinator_node", "verify_or_add_remote"]

# The versions sent between brokers (the highest this broker's handlers serve).
WRITE_TXN_MARKERS_VERSION = 2
ADD_PARTITIONS_VERSION = 5
# A marker request waits for every marker to be durable on its broker (at most the
# marker write timeout there); the call allows that and a little more.
MARKERS_CALL_TIMEOUT_S = MARKER_WRITE_TIMEOUT_MS / 1000 + 5
VERIFY_CALL_TIMEOUT_S = 15.0
# What BrokerPeers raises when a call got no answer.
_TRANSPORT = (ErrorCode.COORDINATOR_NOT_AVAILABLE, ErrorCode.REQUEST_TIMED_OUT, ErrorCode.BROKER_NOT_AVAILABLE)


def _group(partitions: Iterable[TopicPartition]) -> dict[str, list[int]]:
    by_topic: dict[str, list[int]] = {}
    for tp in partitions:
        by_topic.setdefault(tp.topic, []).append(tp.partition)
    return by_topic


class RoutedMarkers:
    """Writes markers where the partitions are led: here, or at the leading broker."""

    def __init__(self, local: MarkerWriter, metadata: MetadataSource, peers: BrokerPeers, *, node_id: int) -> None:
        self.local = local
        self._metadata = metadata
        self._peers = peers
        self._node_id = node_id

    async def write(
        self,
        producer_id: int,
        producer_epoch: int,
        coordinator_epoch: int,
        committed: bool,
        transaction_version: int,
        partitions: Iterable[TopicPartition],
    ) -> dict[TopicPartition, ErrorCode]:
        """The marker on every partition; the outcome per partition (NONE once durable)."""
        image = self._metadata.image
        here: list[TopicPartition] = []
        elsewhere: dict[int, list[TopicPartition]] = {}
        results: dict[TopicPartition, ErrorCode] = {}
        for tp in dict.fromkeys(TopicPartition(*tp) for tp in partitions):
            state = image.partition(tp.topic, tp.partition)
            if state is None or state.leader == self._node_id:
                here.append(tp)  # unknown partitions get the local writer's answer
            elif state.leader == NO_LEADER:
                results[tp] = ErrorCode.NOT_LEADER_OR_FOLLOWER
            else:
                elsewhere.setdefault(state.leader, []).append(tp)

        async def local() -> None:
            results.update(
                await self.local.write(
                    producer_id, producer_epoch, coordinator_epoch, committed, transaction_version, here
                )
            )

        async def remote(node: int, tps: list[TopicPartition]) -> None:
            request = WriteTxnMarkersRequest(
                markers=[
                    WritableTxnMarker(
                        producer_id=producer_id,
                        producer_epoch=producer_epoch,
                        transaction_result=committed,
                        topics=[
                            WritableTxnMarkerTopic(name=topic, partition_indexes=indexes)
                            for topic, indexes in _group(tps).items()
                        ],
                        coordinator_epoch=coordinator_epoch,
                        transaction_version=transaction_version,
                    )
                ]
            )
            try:
                response = await self._peers.call(
                    node, request, WRITE_TXN_MARKERS_VERSION, timeout_s=MARKERS_CALL_TIMEOUT_S
                )
            except KafkaError as exc:
                results.update(dict.fromkeys(tps, exc.code))
                return
            assert isinstance(response, WriteTxnMarkersResponse)
            for marker in response.markers:
                for topic in marker.topics:
                    for p in topic.partitions:
                        results[TopicPartition(topic.name, p.partition_index)] = ErrorCode(p.error_code)
            for tp in tps:  # a partition the answer left out is tried again
                results.setdefault(tp, ErrorCode.NOT_LEADER_OR_FOLLOWER)

        async with trio.open_nursery() as nursery:
            if here:
                nursery.start_soon(local)
            for node, tps in elsewhere.items():
                nursery.start_soon(remote, node, tps)
        return results


def coordinator_node(metadata: MetadataSource, transactional_id: str) -> int:
    """The broker leading ``transactional_id``'s ``__transaction_state`` partition (NO_LEADER: none)."""
    return metadata.image.coordinator_for(CoordinatorType.TRANSACTION, transactional_id).node_id


async def verify_or_add_remote(
    peers: BrokerPeers,
    node: int,
    transactional_id: str,
    producer_id: int,
    producer_epoch: int,
    partitions: list[TopicPartition],
    *,
    add: bool,
) -> dict[TopicPartition, ErrorCode]:
    """Ask the transaction coordinator on broker ``node`` to verify (or add, ``add``) the
    partitions of the producer's transaction; errors per partition."""
    request = AddPartitionsToTxnRequest(
        transactions=[
            AddPartitionsToTxnTransaction(
                transactional_id=transactional_id,
                producer_id=producer_id,
                producer_epoch=producer_epoch,
                verify_only=not add,
                topics=[
                    AddPartitionsToTxnTopic(name=topic, partitions=indexes)
                    for topic, indexes in _group(partitions).items()
                ],
            )
        ]
    )
    try:
        response = await peers.call(node, request, ADD_PARTITIONS_VERSION, timeout_s=VERIFY_CALL_TIMEOUT_S)
    except KafkaError as exc:
        # Not answered (unreachable, timed out, not in the cluster): NETWORK_EXCEPTION, as
        # Kafka's partition leader has it; the producer retries its batch.
        code = ErrorCode.NETWORK_EXCEPTION if exc.code in _TRANSPORT else exc.code
        return dict.fromkeys(partitions, code)
    assert isinstance(response, AddPartitionsToTxnResponse)
    if response.error_code:
        return dict.fromkeys(partitions, ErrorCode(response.error_code))
    codes: dict[TopicPartition, ErrorCode] = {}
    for txn in response.results_by_transaction:
        if txn.transactional_id != transactional_id:
            continue
        for topic in txn.topic_results:
            for p in topic.results_by_partition:
                codes[TopicPartition(topic.name, p.partition_index)] = ErrorCode(p.partition_error_code)
    for tp in partitions:
        codes.setdefault(tp, ErrorCode.COORDINATOR_NOT_AVAILABLE)
    return {tp: codes[tp] for tp in partitions}
