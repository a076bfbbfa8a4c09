"""One trio task per client connection.

Requests on a connection are handled one at a time and answered in order, as
Kafka does; each connection has its own task, so a long-poll on one never
delays another. Malformed input closes the connection with one structured log
line; the broker lives on.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import structlog
import trio

from broker.handlers.context import ConnectionState, RequestContext
from broker.protocol.connection import (
    CONNECTION_CLOSED,
    NEED_DATA,
    Request,
    ServerConnection,
    UnsupportedRequest,
)
from broker.protocol.errors import ProtocolError
from broker.server.dispatch import dispatch, unsupported_reply

if TYPE_CHECKING:
    from broker.handlers.context import Services

log = structlog.get_logger("sharebroker.connection")

# Bytes asked of the socket per read. Large enough that a 1 MiB produce arrives
# in a few reads, small enough that an idle connection costs little.
RECEIVE_BYTES = 256 * 1024

# Once at least this much of a request is still to come, it is read into the
# request's own buffer (no joining of received chunks afterwards).
DIRECT_RECEIVE_MIN = 64 * 1024

_ids = itertools.count(1)


async def serve_connection(services: Services, stream: trio.SocketStream, listener: str | None = None) -> None:
    conn_id = next(_ids)
    try:
        host, port = stream.socket.getpeername()[:2]
        peer = f"{host}:{port}"
    except OSError:
        peer = "?"
    state = ConnectionState(conn_id, peer, listener=listener)
    lifecycle = services.lifecycle
    proto = ServerConnection(max_frame_size=services.config.get("socket.request.max.bytes"))
    idle_s = services.config.get("connections.max.idle.ms") / 1000
    try:
        while not lifecycle.stopping:
            try:
                event = proto.next_event()
            except ProtocolError as exc:
                log.warning("bad_request", peer=peer, conn=conn_id, error=str(exc))
                return
            if event is NEED_DATA:
                # The rest of a large request is read straight into its frame.
                into = proto.receive_buffer(DIRECT_RECEIVE_MIN)
                with trio.move_on_after(idle_s) as idle:
                    lifecycle.idle_scopes.add(idle)
                    try:
                        if into is None:
                            data = await stream.receive_some(RECEIVE_BYTES)
                        else:
                            try:
                                n = await stream.socket.recv_into(into)
                            except OSError:
                                return  # the peer went away (what receive_some reports as broken)
                    finally:
                        lifecycle.idle_scopes.discard(idle)
                if idle.cancelled_caught:
                    if lifecycle.stopping:
                        return
                    log.info("idle_connection_closed", peer=peer, conn=conn_id, idle_ms=int(idle_s * 1000))
                    return
                if into is None:
                    proto.receive_data(data)
                else:
                    into.release()
                    proto.received_into(n)
                continue
            if event is CONNECTION_CLOSED:
                return
            if isinstance(event, UnsupportedRequest):
                reply = unsupported_reply(proto, event)
                if reply is None:
                    log.warning("unsupported_request", peer=peer, conn=conn_id, reason=event.reason)
                    return
                await stream.send_all(reply)
                continue
            assert isinstance(event, Request)
            ctx = RequestContext(services, state, event.header, event.api_version)
            reply = await dispatch(ctx, proto, event)
            if reply is False:
                return
            if isinstance(reply, list):  # the frame in chunks (large records sent in place)
                for chunk in reply:
                    await stream.send_all(chunk)
            elif reply is not None:
                await stream.send_all(reply)
    except (trio.BrokenResourceError, trio.ClosedResourceError, ConnectionError):
        pass
    finally:
        for callback in state.on_close:
            try:
                callback()
            except Exception:  # a cleanup bug must not stop the other cleanups
                log.exception("connection_cleanup_failed", peer=peer, conn=conn_id)
        with trio.CancelScope(shield=True):
            await stream.aclose()
