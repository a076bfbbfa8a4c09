"""The share-partition leader's persister in a cluster: local or over the wire.

KIP-932 puts a share-partition's state with the share coordinator: the leader
of the ``__share_group_state`` partition its key (``group:topicId:partition``)
hashes to. :class:`RoutedPersister` looks that leader up in the metadata image
for every operation; when it is this broker, the local
:class:`~broker.share.state_store.ShareStateStore` answers, otherwise the
operation goes to that broker as the RPC it mirrors (83 InitializeShareGroupState,
84 ReadShareGroupState, 85 WriteShareGroupState, 86 DeleteShareGroupState, 87
ReadShareGroupStateSummary) over :class:`~broker.replica.interbroker.BrokerPeers`.
Results come back per partition, as the :class:`~broker.share.state_store.Persister`
protocol has them; a peer that cannot be reached is COORDINATOR_NOT_AVAILABLE, a
partition without a leader the same, so the share-partition leader rolls its
change back and the client retries.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import Any, TypeVar

from broker.metadata.image import NO_LEADER, CoordinatorType
from broker.metadata.source import MetadataSource
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.message_base import Message
from broker.protocol.messages.delete_share_group_state_request import (
    DeleteShareGroupStateRequest,
    DeleteStateData,
)
from broker.protocol.messages.delete_share_group_state_request import PartitionData as DeletePartition
from broker.protocol.messages.initialize_share_group_state_request import (
    InitializeShareGroupStateRequest,
    InitializeStateData,
)
from broker.protocol.messages.initialize_share_group_state_request import PartitionData as InitPartition
from broker.protocol.messages.read_share_group_state_request import PartitionData as ReadPartition
from broker.protocol.messages.read_share_group_state_request import ReadShareGroupStateRequest, ReadStateData
from broker.protocol.messages.read_share_group_state_summary_request import PartitionData as SummaryPartition
from broker.protocol.messages.read_share_group_state_summary_request import (
    ReadShareGroupStateSummaryRequest,
    ReadStateSummaryData,
)
from broker.protocol.messages.write_share_group_state_request import PartitionData as WritePartition
from broker.protocol.messages.write_share_group_state_request import StateBatch as WireBatch
from broker.protocol.messages.write_share_group_state_request import WriteShareGroupStateRequest, WriteStateData
from broker.replica.interbroker import BrokerPeers
from broker.share.coordinator import ShareKey, ShareState, StateBatch, coordinator_key
from broker.share.state_store import PartitionResult, ReadResult, ShareStateStore, SummaryResult

__all__ = ["RoutedPersister"]

# The versions sent between brokers (what this broker's handlers serve).
INITIALIZE_VERSION = 0
READ_VERSION = 0
WRITE_VERSION = 1
DELETE_VERSION = 0
SUMMARY_VERSION = 1

ResultT = TypeVar("ResultT", bound=PartitionResult)


class RoutedPersister:
    """A :class:`~broker.share.state_store.Persister` that finds the share coordinator."""

    def __init__(self, local: ShareStateStore, metadata: MetadataSource, peers: BrokerPeers, *, node_id: int) -> None:
        self.local = local
        self._metadata = metadata
        self._peers = peers
        self._node_id = node_id

    @property
    def runtime(self) -> Any:
        return self.local.runtime

    def state(self, group_id: str, topic_id: uuid.UUID, partition: int) -> ShareState | None:
        """The state if this broker hosts it (None otherwise: callers fall back to a summary)."""
        return self.local.state(group_id, topic_id, partition)

    def states(self) -> Iterator[tuple[ShareKey, ShareState]]:
        return self.local.states()

    async def _where(self, key: ShareKey) -> int:
        """The node leading the key's ``__share_group_state`` partition (this one: local).
        Raises KafkaError when there is none."""
        image = self._metadata.image
        if image.topic(self.local.runtime.topic) is None:
            await self.local.runtime.ensure_topic()
            image = self._metadata.image
        node = image.coordinator_for(CoordinatorType.SHARE, coordinator_key(key)).node_id
        if node == NO_LEADER:
            raise KafkaError(ErrorCode.COORDINATOR_NOT_AVAILABLE, "the share coordinator has no leader")
        return node

    async def _route(
        self,
        failed: type[ResultT],
        key: ShareKey,
        local: Callable[[], Awaitable[ResultT]],
        request: Callable[[], Message],
        version: int,
        answer: Callable[[Any], ResultT],
    ) -> ResultT:
        """Run one operation where the key's share coordinator is: ``local`` here, else
        ``request`` sent to that broker at ``version``, its one partition result read by
        ``answer``. A failure to route, or an error in the result, comes back as
        ``failed(code, message)``."""
        try:
            node = await self._where(key)
            if node == self._node_id:
                return await local()
            p = _only(await self._peers.call(node, request(), version))
        except KafkaError as exc:
            return failed(exc.code, exc.detail)
        if p.error_code:
            return failed(p.error_code, p.error_message)
        return answer(p)

    async def initialize(
        self, group_id: str, topic_id: uuid.UUID, partition: int, *, state_epoch: int, start_offset: int
    ) -> PartitionResult:
        return await self._route(
            PartitionResult,
            ShareKey(group_id, topic_id, partition),
            lambda: self.local.initialize(
                group_id, topic_id, partition, state_epoch=state_epoch, start_offset=start_offset
            ),
            lambda: _request(
                InitializeShareGroupStateRequest,
                InitializeStateData,
                group_id,
                topic_id,
                InitPartition(partition=partition, state_epoch=state_epoch, start_offset=start_offset),
            ),
            INITIALIZE_VERSION,
            _partition_result,
        )

    async def read(self, group_id: str, topic_id: uuid.UUID, partition: int, *, leader_epoch: int) -> ReadResult:
        return await self._route(
            ReadResult,
            ShareKey(group_id, topic_id, partition),
            lambda: self.local.read(group_id, topic_id, partition, leader_epoch=leader_epoch),
            lambda: _request(
                ReadShareGroupStateRequest,
                ReadStateData,
                group_id,
                topic_id,
                ReadPartition(partition=partition, leader_epoch=leader_epoch),
            ),
            READ_VERSION,
            lambda p: ReadResult(
                state_epoch=p.state_epoch,
                start_offset=p.start_offset,
                state_batches=tuple(
                    StateBatch(b.first_offset, b.last_offset, b.delivery_state, b.delivery_count)
                    for b in p.state_batches
                ),
            ),
        )

    async def write(
        self,
        group_id: str,
        topic_id: uuid.UUID,
        partition: int,
        *,
        state_epoch: int,
        leader_epoch: int,
        start_offset: int,
        state_batches: Sequence[Any] = (),
        delivery_complete_count: int = -1,
    ) -> PartitionResult:
        return await self._route(
            PartitionResult,
            ShareKey(group_id, topic_id, partition),
            lambda: self.local.write(
                group_id,
                topic_id,
                partition,
                state_epoch=state_epoch,
                leader_epoch=leader_epoch,
                start_offset=start_offset,
                state_batches=state_batches,
                delivery_complete_count=delivery_complete_count,
            ),
            lambda: _request(
                WriteShareGroupStateRequest,
                WriteStateData,
                group_id,
                topic_id,
                WritePartition(
                    partition=partition,
                    state_epoch=state_epoch,
                    leader_epoch=leader_epoch,
                    start_offset=start_offset,
                    delivery_complete_count=delivery_complete_count,
                    state_batches=[
                        WireBatch(b.first_offset, b.last_offset, b.delivery_state, b.delivery_count)
                        for b in state_batches
                    ],
                ),
            ),
            WRITE_VERSION,
            _partition_result,
        )

    async def delete(self, group_id: str, topic_id: uuid.UUID, partition: int) -> PartitionResult:
        return await self._route(
            PartitionResult,
            ShareKey(group_id, topic_id, partition),
            lambda: self.local.delete(group_id, topic_id, partition),
            lambda: _request(
                DeleteShareGroupStateRequest, DeleteStateData, group_id, topic_id, DeletePartition(partition=partition)
            ),
            DELETE_VERSION,
            _partition_result,
        )

    async def read_summary(
        self, group_id: str, topic_id: uuid.UUID, partition: int, *, leader_epoch: int = -1
    ) -> SummaryResult:
        return await self._route(
            SummaryResult,
            ShareKey(group_id, topic_id, partition),
            lambda: self.local.read_summary(group_id, topic_id, partition, leader_epoch=leader_epoch),
            lambda: _request(
                ReadShareGroupStateSummaryRequest,
                ReadStateSummaryData,
                group_id,
                topic_id,
                SummaryPartition(partition=partition, leader_epoch=max(leader_epoch, 0)),
            ),
            SUMMARY_VERSION,
            lambda p: SummaryResult(
                state_epoch=p.state_epoch,
                leader_epoch=p.leader_epoch,
                start_offset=p.start_offset,
                delivery_complete_count=p.delivery_complete_count,
            ),
        )


def _request(
    request_type: Callable[..., Message], topic_type: Callable[..., Any], group_id: str, topic_id: uuid.UUID, entry: Any
) -> Message:
    """A request about one share-partition: ``entry`` in ``topic_type`` in ``request_type``
    (every one of these RPCs nests its partitions the same way)."""
    return request_type(group_id=group_id, topics=[topic_type(topic_id=topic_id, partitions=[entry])])


def _partition_result(p: Any) -> PartitionResult:
    return PartitionResult(p.error_code, p.error_message)


def _only(response: Any) -> Any:
    """The one partition result of a one-partition response."""
    for result in response.results:
        for p in result.partitions:
            return p
    raise KafkaError(ErrorCode.COORDINATOR_NOT_AVAILABLE, "the share coordinator answered with no result")
