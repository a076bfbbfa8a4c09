"""A TCP proxy that delays traffic, run inside one node's namespace (``tc netem`` is not
available in this kernel, so delay is made here).

Every TCP connection arriving at the node on one of ``--ports`` is redirected by
iptables (nat PREROUTING, see :meth:`tests.faults.net.Network.redirect`) to this proxy
on port + ``--offset``; the proxy connects to the real service on the node's own
address (a local connection, which is not redirected) and copies bytes both ways.
It runs from the start of the test, so a delay fault slows connections that already
exist, as a slow link would, instead of resetting them.

The delay of a connection is read from ``--control`` (JSON ``{"delays": {ip: ms}}``,
polled every 100 ms): the larger of the delays of this node and of the connecting
peer, applied to every chunk in each direction (so a round trip gains twice that).
Chunks keep their order; a chunk waits until ``received + delay``.

    ip netns exec NS python -m tests.faults.delay_proxy --ip 10.77.0.11 --ports 9092 \\
        --offset 10000 --control /run/dir/delays.json
"""

from __future__ import annotations

import argparse
import json
import math
import os
import socket
from pathlib import Path

import trio

# Read size per chunk: big enough that bulk replication is not chopped into tiny writes.
CHUNK = 256 * 1024
# Queued chunks per direction before the reader waits (backpressure on a slow receiver).
QUEUE = 256
POLL_S = 0.1


class Delays:
    def __init__(self, path: Path, own_ip: str) -> None:
        self.path, self.own_ip = path, own_ip
        self._mtime = 0.0
        self._table: dict[str, float] = {}

    async def follow(self) -> None:
        while True:
            try:
                mtime = os.stat(self.path).st_mtime
                if mtime != self._mtime:
                    self._mtime = mtime
                    doc = json.loads(self.path.read_text() or "{}")
                    self._table = {ip: float(ms) / 1000 for ip, ms in doc.get("delays", {}).items()}
            except (OSError, ValueError):
                pass
            await trio.sleep(POLL_S)

    def of(self, peer_ip: str) -> float:
        return max(self._table.get(self.own_ip, 0.0), self._table.get(peer_ip, 0.0))


async def _pump(src: trio.SocketStream, dst: trio.SocketStream, delays: Delays, peer_ip: str) -> None:
    send, receive = trio.open_memory_channel[tuple[float, bytes]](QUEUE)

    async def reader() -> None:
        async with send:
            while True:
                data = await src.receive_some(CHUNK)
                if not data:
                    return
                await send.send((trio.current_time() + delays.of(peer_ip), data))

    async def writer() -> None:
        async with receive:
            async for due, data in receive:
                wait = due - trio.current_time()
                if wait > 0:
                    await trio.sleep(wait)
                await dst.send_all(data)
        try:
            await dst.send_eof()
        except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
            pass

    async with trio.open_nursery() as nursery:
        nursery.start_soon(reader)
        nursery.start_soon(writer)


async def _serve_one(client: trio.SocketStream, upstream_addr: tuple[str, int], delays: Delays) -> None:
    peer_ip = client.socket.getpeername()[0]
    try:
        upstream = await trio.open_tcp_stream(*upstream_addr)
    except OSError:
        await client.aclose()
        return
    for s in (client, upstream):
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    try:
        async with client, upstream, trio.open_nursery() as nursery:
            nursery.start_soon(_pump, client, upstream, delays, peer_ip)
            nursery.start_soon(_pump, upstream, client, delays, peer_ip)
    except (trio.BrokenResourceError, trio.ClosedResourceError, OSError):
        pass


async def main_async(ip: str, ports: list[int], offset: int, control: Path) -> None:
    delays = Delays(control, ip)
    async with trio.open_nursery() as nursery:
        nursery.start_soon(delays.follow)
        for port in ports:
            listeners = await trio.open_tcp_listeners(port + offset, host="0.0.0.0")

            async def handler(stream: trio.SocketStream, port: int = port) -> None:
                try:
                    await _serve_one(stream, (ip, port), delays)
                except Exception:  # one connection's trouble never stops the proxy
                    pass

            nursery.start_soon(trio.serve_listeners, handler, listeners)
        print("delay-proxy ready", flush=True)
        await trio.sleep(math.inf)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ip", required=True)
    parser.add_argument("--ports", required=True, help="comma-separated service ports")
    parser.add_argument("--offset", type=int, default=10000)
    parser.add_argument("--control", type=Path, required=True)
    args = parser.parse_args()
    trio.run(main_async, args.ip, [int(p) for p in args.ports.split(",")], args.offset, args.control)


if __name__ == "__main__":
    main()
