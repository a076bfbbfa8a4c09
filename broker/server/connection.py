"""One trio task per client connection.

Requests on a connection are handled one at a time and answered in order, as
Kafka does; each connection has its own task, so a long-poll on one never
delays another. One exception to "one at a time": a request whose answer waits
only on durability (Produce with acks=all) is answered later, while the next
requests are read and handled, so consecutive produce requests share fsync
rounds; responses still leave in request order. Malformed input closes the
connection with one structured log line; the broker lives on.

Security: on SSL and SASL_SSL listeners the stream is a ``trio.SSLStream`` whose
handshake must finish within ``request.receive.timeout.ms``; the principal of an
SSL connection comes from the client certificate. On SASL listeners every request
first goes through the connection's :class:`~broker.protocol.auth.Authenticator`
(ApiVersions and SaslHandshake before authentication, anything else closes; raw
tokens after SaslHandshake v0; KIP-368 re-authentication), which also sets the
largest frame accepted (``sasl.server.max.receive.size`` until authenticated).
Plain TCP keeps the fast receive path (large requests read straight into their
frame buffer); on TLS, every whole record a socket read brought in is decrypted
in the same pass (:func:`buffered_plaintext`), not one record per pass.

Limits: a request must arrive whole within ``request.receive.timeout.ms`` of its
first byte; the bytes of a request being received are reserved from the broker's
``queued.max.request.bytes`` pool (reading pauses while it is exhausted); a
response carrying a quota throttle time mutes the connection for that long.
"""

from __future__ import annotations

import itertools
import math
import os
import ssl
import time
from collections import deque
from typing import TYPE_CHECKING, Any

import trio

from broker.handlers.context import ConnectionState, RequestContext
from broker.log.file_slice import FileSlice
from broker.logging import LazyLogger
from broker.protocol.auth import Authenticator, Outcome, Verdict
from broker.protocol.connection import (
    CONNECTION_CLOSED,
    NEED_DATA,
    Request,
    ServerConnection,
    UnsupportedRequest,
)
from broker.protocol.error_response import error_response
from broker.protocol.errors import ProtocolError
from broker.protocol.messages import RESPONSES
from broker.server.dispatch import Deferred, Frame, Reply, dispatch, unsupported_reply

if TYPE_CHECKING:
    from broker.server import Gate
    from broker.server.security import ListenerSecurity

log = LazyLogger("sharebroker.connection")

# Answered before the services exist (start-up).
API_VERSIONS = 18

# Bytes asked of the socket per read. Large enough that a 1 MiB produce arrives
# in a few reads, small enough that an idle connection costs little.
RECEIVE_BYTES = 256 * 1024

# Once at least this much of a request is still to come, it is read into the
# request's own buffer (no joining of received chunks afterwards).
DIRECT_RECEIVE_MIN = 64 * 1024

# Requests smaller than this are not reserved from queued.max.request.bytes: one
# socket read holds them whole, and max.connections bounds how many there can be.
POOL_MIN_FRAME = 64 * 1024

# Longest wait, after a last answer, for the peer to read it and close its side.
LINGER_S = 1.0

# Produce requests answered later (acks=all) that may be outstanding on one connection
# before reading pauses (Kafka clients keep at most 5 in flight per connection).
MAX_PIPELINED = 8

_ids = itertools.count(1)
_PEER_GONE = (trio.BrokenResourceError, trio.ClosedResourceError, ConnectionError)


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


class _Slot:
    """One response in the connection's send order; ``data`` once ``done`` is set
    (bytes to send, None for no response, False to close the connection)."""

    __slots__ = ("data", "done")

    def __init__(self, data: Reply = None, *, done: bool = False) -> None:
        self.data = data
        self.done = trio.Event()
        if done:
            self.done.set()

    async def complete(self, deferred: Deferred, release: Any = None) -> None:
        try:
            self.data = await deferred.finish()
        finally:
            if release is not None:
                release()
            self.done.set()


def buffered_plaintext(tls: trio.SSLStream) -> list[bytes]:
    """The plaintext a TLS stream can give now, without reading its socket.

    ``trio.SSLStream.receive_some`` returns one TLS record per call, with a round
    through the scheduler each time. librdkafka writes each record of a produce
    request in its own TLS record (about 1 KiB of plaintext each), so a 1 MiB
    request arrived in about a thousand calls. After each ``receive_some`` the
    bytes trio has already taken from the socket (at most one socket read) are
    decrypted here, record by record, in one go. OpenSSL does the decrypting; the
    stream's own buffers are reached through its attributes, and a stream without
    them gets nothing here (and keeps working record by record). A record that is
    not whole yet, or any error, ends the loop: the next ``receive_some`` waits for
    the rest, or raises the error as it would have.
    """
    obj = getattr(tls, "_ssl_object", None)
    incoming = getattr(tls, "_incoming", None)
    if not isinstance(obj, ssl.SSLObject) or not isinstance(incoming, ssl.MemoryBIO):
        return []
    parts: list[bytes] = []
    while incoming.pending or obj.pending():
        try:
            data = obj.read(RECEIVE_BYTES)
        except ssl.SSLError:  # SSLWantReadError (a partial record), or one receive_some reports
            break
        if not data:
            break
        parts.append(data)
    return parts


class _Connection:
    def __init__(
        self,
        gate: Gate,
        stream: trio.abc.Stream,
        listener: str | None,
        security: ListenerSecurity | None = None,
    ) -> None:
        self.gate = gate
        self.stream = stream
        self.conn_id = next(_ids)
        self.sock = stream.socket if isinstance(stream, trio.SocketStream) else None
        self.tls: trio.SSLStream | None = None  # set once a TLS handshake has finished
        self.peer, self.host = "?", "?"
        try:
            raw = self.sock if self.sock is not None else stream.transport_stream.socket  # type: ignore[attr-defined]
            host, port = raw.getpeername()[:2]
            self.peer, self.host = f"{host}:{port}", str(host)
        except (OSError, AttributeError):
            pass
        self.security = security
        self.state = ConnectionState(
            self.conn_id,
            self.peer,
            listener=listener,
            security_protocol="PLAINTEXT" if security is None else security.protocol.value,
            host=self.host,
            setting=gate.config.get,
        )
        self.max_frame = int(gate.config.get("socket.request.max.bytes"))
        self.proto = ServerConnection(max_frame_size=self.max_frame)
        idle_ms = int(gate.config.get("connections.max.idle.ms"))
        self.idle_s = math.inf if idle_ms < 0 else idle_ms / 1000
        self.receive_timeout_s = int(gate.config.get("request.receive.timeout.ms")) / 1000
        self.auth: Authenticator | None = security.authenticator() if security is not None else None
        if self.auth is not None:
            self.proto.max_frame_size = self.auth.frame_limit or self.max_frame
        self.pending: deque[_Slot] = deque()
        self.drained = trio.Event()
        self.flushing = False
        self.frame_started: float | None = None
        self.reserved = 0  # bytes of the request being received, reserved from the pool
        self.linger = False  # the last answer must reach the peer before the close
        self.close_delay_s = 0.0  # connection.failed.authentication.delay.ms, after a refused login

    async def run(self) -> None:
        try:
            if not await self.handshake():
                return
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
            self.release(self.reserved)
            self.reserved = 0
            for callback in self.state.on_close:
                try:
                    callback()
                except Exception:  # a cleanup bug must not stop the other cleanups
                    log.exception("connection_cleanup_failed", peer=self.peer, conn=self.conn_id)
            with trio.CancelScope(shield=True):
                if self.linger:
                    await self._linger()
                await trio.aclose_forcefully(self.stream)

    async def _linger(self) -> None:
        """After a last answer (a refused authentication): send FIN, then read what the
        peer still sends until it closes (at most LINGER_S). Closing a socket with
        unread input sends a reset, and a reset makes the peer drop the answer unread."""
        raw = self.sock if self.sock is not None else getattr(self.stream, "transport_stream", None)
        sock = raw if isinstance(raw, trio.socket.SocketType) else getattr(raw, "socket", None)
        if sock is None:
            return
        with trio.move_on_after(LINGER_S + self.close_delay_s):
            try:
                await trio.sleep(self.close_delay_s)
                sock.shutdown(trio.socket.SHUT_WR)
                while await sock.recv(65536):
                    pass
            except OSError:
                pass

    async def handshake(self) -> bool:
        """TLS handshake (SSL, SASL_SSL) within the receive bound; sets an SSL client's principal."""
        sec = self.security
        if sec is None or sec.ssl_context is None:
            return True
        tls = trio.SSLStream(self.stream, sec.ssl_context, server_side=True)
        with trio.move_on_after(self.receive_timeout_s) as scope:
            try:
                await tls.do_handshake()
            except (trio.BrokenResourceError, trio.ClosedResourceError) as exc:
                cause = exc.__cause__ or exc
                log.info("tls_handshake_failed", peer=self.peer, conn=self.conn_id, error=str(cause))
                await self._send_tls_alert(tls)
                return False
        if scope.cancelled_caught:
            log.info("tls_handshake_timeout", peer=self.peer, conn=self.conn_id)
            return False
        self.stream = self.tls = tls
        self.sock = None  # the socket carries TLS records now: no direct reads into frames
        if not sec.protocol.uses_sasl:
            from broker.server.security import principal_or_none

            principal = principal_or_none(sec, tls.getpeercert(binary_form=True))
            if principal is None:
                return False
            self.state.principal = principal
        return True

    async def _send_tls_alert(self, tls: trio.SSLStream) -> None:
        """Send the alert OpenSSL wrote when the handshake failed (an untrusted client
        certificate: "unknown ca"), so the client reports a failed handshake, as it does
        against Kafka, rather than a closed connection. trio marks the stream broken
        without flushing it; the bytes wait in its outgoing buffer."""
        outgoing = getattr(tls, "_outgoing", None)
        data = outgoing.read() if outgoing is not None else b""
        if data:
            with trio.move_on_after(1):
                try:
                    await self.stream.send_all(data)
                except (*_PEER_GONE, OSError):
                    pass

    def release(self, n: int) -> None:
        pool = self.gate.memory_pool
        if pool is not None and n:
            pool.release(n)

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
                    await self.send(slot.data)
                self.pending.popleft()
                self.drained.set()
                self.drained = trio.Event()
        except _PEER_GONE:
            pipeline.cancel_scope.cancel()
        finally:
            self.flushing = False

    async def send(self, frame: Frame) -> None:
        if isinstance(frame, list):  # the frame in pieces (large records sent in place)
            for piece in frame:
                if isinstance(piece, FileSlice):
                    await self.send_file(piece)
                elif isinstance(piece, bytes | bytearray | memoryview):
                    await self.stream.send_all(piece)
                else:
                    await self.stream.send_all(bytes(piece))
        else:
            await self.stream.send_all(frame)

    async def send_file(self, piece: FileSlice) -> None:
        """Stored batches as file ranges: handed to the kernel on a plaintext listener
        (``os.sendfile``: no copy through Python), read and sent on TLS."""
        try:
            stream = self.stream
            if piece.read or not isinstance(stream, trio.SocketStream):
                await stream.send_all(bytes(piece))
                return
            sock = stream.socket
            out = sock.fileno()
            for fd, position, size in piece.ranges:
                while size:
                    try:
                        sent = os.sendfile(out, fd, position, size)
                    except BlockingIOError:
                        await trio.lowlevel.wait_writable(sock)
                        continue
                    if sent == 0:
                        # The file ends before the range does: the frame cannot be completed,
                        # so the connection ends (the client fetches again).
                        raise trio.BrokenResourceError(f"log segment shorter than a fetch answer at {position}")
                    position += sent
                    size -= sent
                await trio.lowlevel.checkpoint_if_cancelled()
        finally:
            piece.close()

    async def receive(self) -> bool:
        """Read more of the stream into the protocol; False when the connection should end."""
        lifecycle, proto = self.gate.lifecycle, self.proto
        pool = self.gate.memory_pool
        size = proto.partial_frame_size
        if pool is not None and size is not None and not self.reserved and size >= POOL_MIN_FRAME:
            self.reserved = pool.try_acquire(size)
            if not self.reserved:
                # Kafka mutes the channel while its memory pool is exhausted; the time spent
                # waiting is the broker's, not the client's, so the request's clock restarts.
                self.reserved = await pool.acquire(size)
                self.frame_started = trio.current_time()
        timeout = self.idle_s
        slow = False
        if proto.receiving_frame:
            now = trio.current_time()
            if self.frame_started is None:
                self.frame_started = now
            left = self.frame_started + self.receive_timeout_s - now
            if left < timeout:
                timeout, slow = max(left, 0.0), True
        else:
            self.frame_started = None
        # The rest of a large request is read straight into its frame.
        into = proto.receive_buffer(DIRECT_RECEIVE_MIN) if self.sock is not None else None
        with trio.move_on_after(timeout) as idle:
            lifecycle.idle_scopes.add(idle)
            try:
                if into is None:
                    data = await self.stream.receive_some(RECEIVE_BYTES)
                else:
                    try:
                        assert self.sock is not None
                        n = await self.sock.recv_into(into)
                    except OSError:
                        return False  # the peer went away (what receive_some reports as broken)
            finally:
                lifecycle.idle_scopes.discard(idle)
        if idle.cancelled_caught:
            if lifecycle.stopping:
                return False
            if slow:
                log.warning(
                    "request_receive_timeout",
                    peer=self.peer,
                    conn=self.conn_id,
                    timeout_ms=int(self.receive_timeout_s * 1000),
                    frame_size=proto.partial_frame_size,
                )
            elif not self.pending:
                log.info("idle_connection_closed", peer=self.peer, conn=self.conn_id, idle_ms=int(self.idle_s * 1000))
            return False
        if into is None:
            proto.receive_data(data)
            if data and self.tls is not None:
                for more in buffered_plaintext(self.tls):
                    proto.receive_data(more)
        else:
            into.release()
            proto.received_into(n)
        return True

    def _auth_reply(self, event: Request | UnsupportedRequest | None, outcome: Outcome) -> Reply:
        """The bytes an authenticator outcome answers with (False: close without answer)."""
        proto = self.proto
        if outcome.verdict is Verdict.CLOSE:
            return False
        if outcome.raw_token is not None:
            return proto.encode_raw(outcome.raw_token)
        assert event is not None
        if outcome.verdict is Verdict.RESPOND and outcome.response is not None:
            return proto.encode_response(event, outcome.response, outcome.response_version)
        if outcome.verdict is Verdict.ERROR and outcome.error is not None and isinstance(event, Request):
            try:
                response = error_response(
                    event.body,
                    RESPONSES[event.api_key],
                    event.api_version,
                    outcome.error.code,
                    outcome.error.message,
                )
                return proto.encode_response(event, response, event.api_version)
            except Exception:
                return False
        return False

    async def authenticate(self, event: Any) -> tuple[Reply, bool] | None:
        """Feed a SASL listener's authenticator; None: dispatch the request as usual, else
        (reply, close after it)."""
        auth = self.auth
        assert auth is not None
        now = _now_ms()
        if isinstance(event, (bytes, bytearray)):
            await self.gate.wait()
            outcome = auth.receive_token(bytes(event), now)
            event = None
        else:
            if event.api_key != API_VERSIONS:
                await self.gate.wait()  # SCRAM needs the credential store
            body = event.body if isinstance(event, Request) else None
            outcome = auth.receive(event.api_key, event.api_version, body, now)
        self.proto.max_frame_size = auth.frame_limit or self.max_frame
        if auth.authenticated and auth.principal is not None:
            self.state.principal = auth.principal
        if outcome.verdict is Verdict.DISPATCH:
            return None
        if outcome.reason:
            log.info(
                "sasl_authentication_closed" if outcome.close else "sasl_refused",
                peer=self.peer,
                conn=self.conn_id,
                reason=outcome.reason,
            )
        reply = self._auth_reply(event, outcome)
        if outcome.close and not auth.authenticated:
            self.close_delay_s = int(self.gate.config.get("connection.failed.authentication.delay.ms")) / 1000
        return reply, outcome.close or reply is False

    async def read(self, pipeline: trio.Nursery) -> None:
        gate, proto, state = self.gate, self.proto, self.state
        while not gate.lifecycle.stopping:
            if state.throttled_until:
                # A quota was exceeded: Kafka mutes the channel for the throttle time (KIP-219).
                wait_until, state.throttled_until = state.throttled_until, 0.0
                await trio.sleep_until(wait_until)
            try:
                if self.auth is not None and self.auth.expects_raw_token:
                    event: Any = proto.next_raw_frame()
                else:
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
            held, self.reserved = self.reserved, 0
            self.frame_started = None
            close_after = False
            reply: Reply | Deferred
            try:
                answered = await self.authenticate(event) if self.auth is not None else None
                if answered is not None:
                    reply, close_after = answered
                elif isinstance(event, UnsupportedRequest):
                    reply = unsupported_reply(proto, event)
                    if reply is None:
                        log.warning("unsupported_request", peer=self.peer, conn=self.conn_id, reason=event.reason)
                        return
                else:
                    assert isinstance(event, Request)
                    services = gate.services
                    if services is None and (event.api_key != API_VERSIONS or _names_a_broker(event)):
                        services = await gate.wait()
                    ctx = RequestContext(services, state, event.header, event.api_version)  # type: ignore[arg-type]
                    reply = await dispatch(ctx, proto, event)
            except BaseException:
                self.release(held)
                raise
            if isinstance(reply, Deferred):
                slot = _Slot()
                pipeline.start_soon(slot.complete, reply, (lambda n=held: self.release(n)) if held else None)
            else:
                self.release(held)
                if not self.pending:
                    # The common case: nothing outstanding, answer now.
                    if reply is False:
                        return
                    if reply is not None:
                        await self.send(reply)
                    if close_after:
                        self.linger = reply is not None
                        return
                    continue
                slot = _Slot(reply, done=True)
            self.pending.append(slot)
            if close_after:
                self.pending.append(_Slot(False, done=True))
            if not self.flushing:
                self.flushing = True
                pipeline.start_soon(self.flush, pipeline)
            if close_after:
                while self.pending:
                    await self.drained.wait()
                self.linger = True
                return
            while len(self.pending) >= MAX_PIPELINED:
                await self.drained.wait()


def _names_a_broker(request: Request) -> bool:
    """ApiVersions v5 naming the cluster and node it expects (KIP-1242): the answer needs
    this broker's identity, known once the services are built."""
    return request.api_version >= 5 and getattr(request.body, "cluster_id", None) is not None


async def serve_connection(
    gate: Gate,
    stream: trio.abc.Stream,
    listener: str | None = None,
    security: ListenerSecurity | None = None,
) -> None:
    """Read, dispatch and answer one client connection until it ends."""
    await _Connection(gate, stream, listener, security).run()
