"""One trio task per client connection.

Requests on a connection are handled one at a time and answered in order, as
Kafka does; each connection has its own task, so a long-poll on one never
delays another. One exception to "one at a time": a request whose answer waits
only on durability (Produce with acks=all) is answered later, while the next
requests are read and handled, so consecutive produce requests share fsync
rounds; responses still leave in request order. Malformed input closes the
connection with one structured log line; the broker lives on.
"""

from __future__ import annotations

import itertools
from collections import deque
from typing import TYPE_CHECKING

import trio

from broker.handlers.context import ConnectionState, RequestContext
from broker.logging import LazyLogger
from broker.protocol.connection import (
    CONNECTION_CLOSED,
    NEED_DATA,
    Request,
    ServerConnection,
    UnsupportedRequest,
)
from broker.protocol.errors import ProtocolError
from broker.server.dispatch import Deferred, dispatch, unsupported_reply

if TYPE_CHECKING:
    from broker.server import Gate

log = LazyLogger("sharebroker.connection")

# Answered before the services exist (start-up).
API_VERSIONS = 18

# Bytes asked of the socket per read. Large enough that a 1 MiB produce arrives
# in a few reads, small enough that an idle connection costs little.
RECEIVE_BYTES = 256 * 1024

# Once at least this much of a request is still to come, it is read into the
# request's own buffer (no joining of received chunks afterwards).
DIRECT_RECEIVE_MIN = 64 * 1024

# Produce requests answered later (acks=all) that may be outstanding on one connection
# before reading pauses (Kafka clients keep at most 5 in flight per connection).
MAX_PIPELINED = 8

_ids = itertools.count(1)
_PEER_GONE = (trio.BrokenResourceError, trio.ClosedResourceError, ConnectionError)


class _Slot:
    """One response in the connection's send order; ``data`` once ``done`` is set
    (bytes to send, None for no response, False to close the connection)."""

    __slots__ = ("data", "done")

    def __init__(self, data: bytearray | bool | None = None, *, done: bool = False) -> None:
        self.data = data
        self.done = trio.Event()
        if done:
            self.done.set()

    async def complete(self, deferred: Deferred) -> None:
        try:
            self.data = await deferred.finish()
        finally:
            self.done.set()


class _Connection:
    def __init__(self, gate: Gate, stream: trio.SocketStream, listener: str | None) -> None:
        self.gate = gate
        self.stream = stream
        self.conn_id = next(_ids)
        try:
            host, port = stream.socket.getpeername()[:2]
            self.peer = f"{host}:{port}"
        except OSError:
            self.peer = "?"
        self.state = ConnectionState(self.conn_id, self.peer, listener=listener)
        self.proto = ServerConnection(max_frame_size=gate.config.get("socket.request.max.bytes"))
        self.idle_s = gate.config.get("connections.max.idle.ms") / 1000
        self.pending: deque[_Slot] = deque()
        self.drained = trio.Event()
        self.flushing = False

    async def run(self) -> None:
        try:
            async with trio.open_nursery() as pipeline:
                try:
                    await self.read(pipeline)
                    # Answer what was accepted before the connection ends.
                    while self.pending and not self.gate.lifecycle.stopping:
                        await self.drained.wait()
                except _PEER_GONE:
                    pass
                pipeline.cancel_scope.cancel()
        finally:
            for callback in self.state.on_close:
                try:
                    callback()
                except Exception:  # a cleanup bug must not stop the other cleanups
                    log.exception("connection_cleanup_failed", peer=self.peer, conn=self.conn_id)
            with trio.CancelScope(shield=True):
                await self.stream.aclose()

    async def flush(self, pipeline: trio.Nursery) -> None:
        """Send pending responses in order as they complete."""
        try:
            while self.pending:
                slot = self.pending[0]
                await slot.done.wait()
                if slot.data is False:
                    pipeline.cancel_scope.cancel()
                    return
                if slot.data is not None:
                    await self.stream.send_all(slot.data)
                self.pending.popleft()
                self.drained.set()
                self.drained = trio.Event()
        except _PEER_GONE:
            pipeline.cancel_scope.cancel()
        finally:
            self.flushing = False

    async def receive(self) -> bool:
        """Read more of the stream into the protocol; False when the connection should end."""
        lifecycle = self.gate.lifecycle
        # The rest of a large request is read straight into its frame.
        into = self.proto.receive_buffer(DIRECT_RECEIVE_MIN)
        with trio.move_on_after(self.idle_s) as idle:
            lifecycle.idle_scopes.add(idle)
            try:
                if into is None:
                    data = await self.stream.receive_some(RECEIVE_BYTES)
                else:
                    try:
                        n = await self.stream.socket.recv_into(into)
                    except OSError:
                        return False  # the peer went away (what receive_some reports as broken)
            finally:
                lifecycle.idle_scopes.discard(idle)
        if idle.cancelled_caught:
            if not lifecycle.stopping and not self.pending:
                log.info("idle_connection_closed", peer=self.peer, conn=self.conn_id, idle_ms=int(self.idle_s * 1000))
            return False
        if into is None:
            self.proto.receive_data(data)
        else:
            into.release()
            self.proto.received_into(n)
        return True

    async def read(self, pipeline: trio.Nursery) -> None:
        gate, proto = self.gate, self.proto
        while not gate.lifecycle.stopping:
            try:
                event = proto.next_event()
            except ProtocolError as exc:
                log.warning("bad_request", peer=self.peer, conn=self.conn_id, error=str(exc))
                return
            if event is NEED_DATA:
                if not await self.receive():
                    return
                continue
            if event is CONNECTION_CLOSED:
                return
            reply: bytearray | bool | Deferred | None
            if isinstance(event, UnsupportedRequest):
                reply = unsupported_reply(proto, event)
                if reply is None:
                    log.warning("unsupported_request", peer=self.peer, conn=self.conn_id, reason=event.reason)
                    return
            else:
                assert isinstance(event, Request)
                services = gate.services
                if services is None and (event.api_key != API_VERSIONS or _names_a_broker(event)):
                    services = await gate.wait()
                ctx = RequestContext(services, self.state, event.header, event.api_version)  # type: ignore[arg-type]
                reply = await dispatch(ctx, proto, event)
            if isinstance(reply, Deferred):
                slot = _Slot()
                pipeline.start_soon(slot.complete, reply)
            elif not self.pending:
                # The common case: nothing outstanding, answer now.
                if reply is False:
                    return
                if reply is not None:
                    await self.stream.send_all(reply)
                continue
            else:
                slot = _Slot(reply, done=True)
            self.pending.append(slot)
            if not self.flushing:
                self.flushing = True
                pipeline.start_soon(self.flush, pipeline)
            while len(self.pending) >= MAX_PIPELINED:
                await self.drained.wait()


def _names_a_broker(request: Request) -> bool:
    """ApiVersions v5 naming the cluster and node it expects (KIP-1242): the answer needs
    this broker's identity, known once the services are built."""
    return request.api_version >= 5 and getattr(request.body, "cluster_id", None) is not None


async def serve_connection(gate: Gate, stream: trio.SocketStream, listener: str | None = None) -> None:
    """Read, dispatch and answer one client connection until it ends."""
    await _Connection(gate, stream, listener).run()
