"""Recording TCP proxy for the Kafka protocol (a test tool, not product code).

Listens on 127.0.0.1:PORT, forwards every connection to an upstream broker and
records each Kafka frame in both directions. Requests are paired with their
responses by correlation id (per connection); the api key and version come from
the request header (int16 key, int16 version, int32 correlation id after the
4-byte size prefix). Requests that get no response (Produce with acks=0) are
recorded with ``response=None`` when the connection closes.

Frames are stored WITHOUT the 4-byte size prefix (header + body).

Library use::

    proxy = CaptureProxy(19192, ("127.0.0.1", 19092))
    proxy.start()
    ...  # drive clients against 127.0.0.1:19192
    proxy.stop()
    for ex in proxy.exchanges(): ...

CLI (dumps every pair to a directory)::

    python -m tests.tools.capture_proxy --listen 19192 --upstream 127.0.0.1:19092 --out /tmp/cap
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import socket
import struct
import threading
import time
from collections.abc import Callable

MAX_FRAME = 256 * 1024 * 1024


@dataclasses.dataclass
class Exchange:
    seq: int  # global order in which requests were seen
    conn: int  # connection number (1-based)
    api_key: int
    api_version: int
    correlation_id: int
    client_id: str | None
    request: bytes  # header + body, no size prefix
    response: bytes | None  # header + body, no size prefix; None if none came
    t_request: float
    t_response: float | None


def parse_request_header(frame: bytes):
    """(api_key, api_version, correlation_id, client_id) of a request frame.

    client_id is a non-compact nullable string in every request header version
    that has one (v1 and v2)."""
    key, ver, corr = struct.unpack_from(">hhi", frame, 0)
    client_id = None
    if len(frame) >= 10:
        (n,) = struct.unpack_from(">h", frame, 8)
        if n >= 0 and 10 + n <= len(frame):
            client_id = frame[10 : 10 + n].decode("utf-8", "replace")
    return key, ver, corr, client_id


def _recv_exact(sock: socket.socket, n: int) -> bytes | None:
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(min(n - len(buf), 1 << 20))
        if not chunk:
            return None
        buf += chunk
    return bytes(buf)


def _read_frame(sock: socket.socket) -> bytes | None:
    head = _recv_exact(sock, 4)
    if head is None:
        return None
    (size,) = struct.unpack(">i", head)
    if size < 0 or size > MAX_FRAME:
        raise ValueError(f"bad frame size {size}")
    return _recv_exact(sock, size)


class CaptureProxy:
    def __init__(
        self,
        listen_port: int,
        upstream: tuple[str, int],
        on_exchange: Callable[[Exchange], None] | None = None,
        listen_host: str = "127.0.0.1",
    ):
        self.listen = (listen_host, listen_port)
        self.upstream = upstream
        self.on_exchange = on_exchange
        self._lock = threading.Lock()
        self._exchanges: list[Exchange] = []
        self._seq = 0
        self._conns = 0
        self._sockets: set[socket.socket] = set()
        self._threads: list[threading.Thread] = []
        self._stopping = threading.Event()
        self._lsock: socket.socket | None = None

    # -- public -----------------------------------------------------------
    def start(self) -> CaptureProxy:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(self.listen)
        s.listen(64)
        s.settimeout(0.2)
        self._lsock = s
        self._spawn(self._accept_loop, s)
        return self

    def stop(self, timeout: float = 5.0) -> None:
        self._stopping.set()
        with self._lock:
            socks = list(self._sockets)
        for s in socks:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()
        deadline = time.monotonic() + timeout
        for t in list(self._threads):
            t.join(max(0.0, deadline - time.monotonic()))
        if self._lsock is not None:
            self._lsock.close()

    def exchanges(self) -> list[Exchange]:
        with self._lock:
            return sorted(self._exchanges, key=lambda e: e.seq)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    # -- internals --------------------------------------------------------
    def _spawn(self, fn, *args) -> None:
        t = threading.Thread(target=fn, args=args, daemon=True)
        self._threads.append(t)
        t.start()

    def _accept_loop(self, lsock: socket.socket) -> None:
        while not self._stopping.is_set():
            try:
                csock, _ = lsock.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            try:
                usock = socket.create_connection(self.upstream, timeout=10)
            except OSError:
                csock.close()
                continue
            usock.settimeout(None)
            csock.settimeout(None)
            for s in (csock, usock):
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            with self._lock:
                self._conns += 1
                conn = self._conns
                self._sockets.update((csock, usock))
            pending: dict[int, tuple] = {}
            plock = threading.Lock()
            self._spawn(self._pump_requests, conn, csock, usock, pending, plock)
            self._spawn(self._pump_responses, conn, usock, csock, pending, plock)

    def _close_pair(self, a: socket.socket, b: socket.socket) -> None:
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def _pump_requests(self, conn, csock, usock, pending, plock) -> None:
        try:
            while True:
                frame = _read_frame(csock)
                if frame is None:
                    break
                key, ver, corr, client_id = parse_request_header(frame)
                with self._lock:
                    self._seq += 1
                    seq = self._seq
                with plock:
                    pending[corr] = (seq, key, ver, client_id, frame, time.time())
                usock.sendall(struct.pack(">i", len(frame)) + frame)
        except (OSError, ValueError, struct.error):
            pass
        finally:
            self._close_pair(csock, usock)

    def _pump_responses(self, conn, usock, csock, pending, plock) -> None:
        try:
            while True:
                frame = _read_frame(usock)
                if frame is None:
                    break
                (corr,) = struct.unpack_from(">i", frame, 0)
                with plock:
                    req = pending.pop(corr, None)
                csock.sendall(struct.pack(">i", len(frame)) + frame)
                if req is not None:
                    self._record(conn, corr, req, frame, time.time())
        except (OSError, ValueError, struct.error):
            pass
        finally:
            self._close_pair(csock, usock)
            with plock:
                left = list(pending.items())
                pending.clear()
            for corr, req in left:  # e.g. Produce acks=0: no response
                self._record(conn, corr, req, None, None)
            with self._lock:
                self._sockets.discard(csock)
                self._sockets.discard(usock)
            csock.close()
            usock.close()

    def _record(self, conn, corr, req, resp, t_resp) -> None:
        seq, key, ver, client_id, frame, t_req = req
        ex = Exchange(seq, conn, key, ver, corr, client_id, frame, resp, t_req, t_resp)
        with self._lock:
            self._exchanges.append(ex)
        if self.on_exchange is not None:
            self.on_exchange(ex)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--listen", type=int, required=True, help="port on 127.0.0.1")
    ap.add_argument("--upstream", required=True, help="HOST:PORT of the broker")
    ap.add_argument("--out", help="directory for <seq>_k<key>_v<ver>.req/.resp.bin files")
    ap.add_argument("--seconds", type=float, default=3600.0, help="stop after this long")
    a = ap.parse_args(argv)
    host, _, port = a.upstream.rpartition(":")

    def dump(ex: Exchange) -> None:
        print(
            f"conn={ex.conn} key={ex.api_key} v{ex.api_version} corr={ex.correlation_id} "
            f"client={ex.client_id} req={len(ex.request)}B "
            f"resp={'-' if ex.response is None else len(ex.response)}B",
            flush=True,
        )
        if a.out:
            base = os.path.join(a.out, f"{ex.seq:05d}_k{ex.api_key}_v{ex.api_version}")
            with open(base + ".req.bin", "wb") as f:
                f.write(ex.request)
            if ex.response is not None:
                with open(base + ".resp.bin", "wb") as f:
                    f.write(ex.response)

    if a.out:
        os.makedirs(a.out, exist_ok=True)
    proxy = CaptureProxy(a.listen, (host, int(port)), on_exchange=dump).start()
    try:
        time.sleep(a.seconds)
    except KeyboardInterrupt:
        pass
    finally:
        proxy.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
