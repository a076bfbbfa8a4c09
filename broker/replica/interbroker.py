"""Connections from this broker to the other brokers of its cluster.

The other broker is reached on its endpoint of the inter-broker listener
(``inter.broker.listener.name``) as the metadata image has it. Requests are the
generated messages framed by the sans-IO :class:`~broker.protocol.connection.ClientConnection`;
one connection per peer carries any number of requests at once (pipelined,
matched by correlation id), so share-state writes of many share-partitions to
the same coordinator do not queue behind each other.

A broker handles one request per connection at a time (as Kafka does), so a
follower's fetches go over a connection of their own (``channel="fetch"``, as
Kafka's replica fetchers own theirs): a share-state write to a coordinator,
which waits until its record is replicated, must never hold up the very fetch
that replicates it.

Every call has a deadline; a connection that fails is dropped and the next call
opens a new one. Failures raise KafkaError: NOT_COORDINATOR-like routing is the
caller's business, transport problems are COORDINATOR_NOT_AVAILABLE (retriable
for every caller here) and a peer that is not in the image is
BROKER_NOT_AVAILABLE.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import structlog
import trio

from broker.metadata.source import MetadataSource
from broker.protocol.connection import CONNECTION_CLOSED, NEED_DATA, ClientConnection, Response
from broker.protocol.errors import ErrorCode, KafkaError, ProtocolError
from broker.protocol.message_base import Message

__all__ = ["BrokerPeers", "PeerConnection"]

log = structlog.get_logger("sharebroker.interbroker")

# Kafka's request.timeout.ms for inter-broker clients is 30 s; a share-state write
# is answered within the coordinator's 5 s write timeout, so 15 s leaves room.
CALL_TIMEOUT_S = 15.0
CONNECT_TIMEOUT_S = 5.0
READ_BYTES = 65536
LIST_OFFSETS_VERSION = 7


class PeerConnection:
    """One pipelined connection to one broker."""

    def __init__(self, node_id: int, stream: trio.abc.Stream, client_id: str) -> None:
        self.node_id = node_id
        self._stream = stream
        self._conn = ClientConnection(client_id=client_id)
        self._send_lock = trio.Lock()
        self._waiters: dict[int, tuple[trio.Event, list[Response]]] = {}
        self.closed = False

    async def reader(self) -> None:
        try:
            while True:
                data = await self._stream.receive_some(READ_BYTES)
                self._conn.receive_data(data)
                while True:
                    event = self._conn.next_event()
                    if event is NEED_DATA:
                        break
                    if event is CONNECTION_CLOSED:
                        return
                    assert isinstance(event, Response)
                    waiter = self._waiters.pop(event.correlation_id, None)
                    if waiter is not None:
                        waiter[1].append(event)
                        waiter[0].set()
                if not data:
                    return
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError, ProtocolError) as exc:
            log.info("peer_connection_lost", node=self.node_id, error=str(exc))
        finally:
            self.closed = True
            for done, _ in self._waiters.values():
                done.set()
            self._waiters.clear()
            await self._stream.aclose()

    async def call(self, request: Message, version: int) -> Message:
        if self.closed:
            raise KafkaError(ErrorCode.COORDINATOR_NOT_AVAILABLE, f"connection to broker {self.node_id} is closed")
        correlation_id, frame = self._conn.encode_request(request, version)
        event = trio.Event()
        box: list[Response] = []
        self._waiters[correlation_id] = (event, box)
        try:
            async with self._send_lock:
                await self._stream.send_all(frame)
            await event.wait()
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError) as exc:
            self.closed = True
            raise KafkaError(ErrorCode.COORDINATOR_NOT_AVAILABLE, f"broker {self.node_id}: {exc}") from exc
        finally:
            self._waiters.pop(correlation_id, None)
        if not box:
            raise KafkaError(ErrorCode.COORDINATOR_NOT_AVAILABLE, f"broker {self.node_id} closed the connection")
        return box[0].body

    async def aclose(self) -> None:
        self.closed = True
        await self._stream.aclose()


class BrokerPeers:
    """Connections to the other brokers, opened on first use (needs :meth:`run`)."""

    def __init__(
        self,
        metadata: MetadataSource,
        listener: str,
        *,
        node_id: int,
        connect: Callable[[str, int], Awaitable[trio.abc.Stream]] | None = None,
    ) -> None:
        """``connect`` opens a stream to a broker (TLS and SASL when the inter-broker
        listener needs them); plain TCP by default."""
        self._metadata = metadata
        self._connect = connect or trio.open_tcp_stream
        self._listener = listener
        self._node_id = node_id
        self._connections: dict[tuple[int, str], PeerConnection] = {}
        self._connecting: dict[tuple[int, str], trio.Lock] = {}
        self._nursery: trio.Nursery | None = None

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Host the connections' reader tasks until cancelled."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            task_status.started()
            try:
                await trio.sleep_forever()
            finally:
                self._nursery = None
                for conn in list(self._connections.values()):
                    conn.closed = True

    async def _connection(self, node_id: int, channel: str) -> PeerConnection:
        key = (node_id, channel)
        conn = self._connections.get(key)
        if conn is not None and not conn.closed:
            return conn
        lock = self._connecting.setdefault(key, trio.Lock())
        async with lock:
            conn = self._connections.get(key)
            if conn is not None and not conn.closed:
                return conn
            broker = self._metadata.image.broker(node_id)
            endpoint = None if broker is None else (broker.endpoint(self._listener) or broker.endpoint())
            if endpoint is None:
                raise KafkaError(ErrorCode.BROKER_NOT_AVAILABLE, f"broker {node_id} is not in the cluster")
            if self._nursery is None:
                raise KafkaError(ErrorCode.COORDINATOR_NOT_AVAILABLE, "inter-broker connections are not running")
            try:
                with trio.fail_after(CONNECT_TIMEOUT_S):
                    stream = await self._connect(endpoint.host, endpoint.port)
            except Exception as exc:  # refused, timed out, TLS or SASL failure
                raise KafkaError(
                    ErrorCode.COORDINATOR_NOT_AVAILABLE,
                    f"cannot reach broker {node_id} at {endpoint.host}:{endpoint.port}: {exc}",
                ) from exc
            conn = PeerConnection(node_id, stream, f"broker-{self._node_id}")
            self._connections[key] = conn
            self._nursery.start_soon(conn.reader)
            return conn

    async def call(
        self,
        node_id: int,
        request: Message,
        version: int,
        *,
        timeout_s: float = CALL_TIMEOUT_S,
        channel: str = "default",
    ) -> Any:
        """Send ``request`` at ``version`` to broker ``node_id`` over the connection of
        ``channel``; its response (raises KafkaError)."""
        with trio.move_on_after(timeout_s) as scope:
            conn = await self._connection(node_id, channel)
            return await conn.call(request, version)
        assert scope.cancelled_caught
        raise KafkaError(ErrorCode.REQUEST_TIMED_OUT, f"broker {node_id} did not answer within {timeout_s} s")

    async def high_watermark(self, topic: str, partition: int) -> int | None:
        """The high watermark of a partition as its leader reports it (ListOffsets LATEST);
        None when it has no leader or cannot be asked."""
        from broker.protocol.messages.list_offsets_request import (
            ListOffsetsPartition,
            ListOffsetsRequest,
            ListOffsetsTopic,
        )

        state = self._metadata.image.partition(topic, partition)
        if state is None or state.leader < 0:
            return None
        request = ListOffsetsRequest(
            replica_id=-1,
            isolation_level=0,
            topics=[
                ListOffsetsTopic(name=topic, partitions=[ListOffsetsPartition(partition_index=partition, timestamp=-1)])
            ],
        )
        try:
            response = await self.call(state.leader, request, LIST_OFFSETS_VERSION, timeout_s=5.0)
        except KafkaError:
            return None
        p = response.topics[0].partitions[0]
        return None if p.error_code else int(p.offset)
