"""The floor of any Python/trio Kafka server's start-up: the interpreter, ``import trio``,
a listener, and one ApiVersions answered (``python -m bench.floor_server PORT``).

It decodes nothing and knows no API: it answers every frame with an ApiVersions v3
response listing no APIs. ``bench.startup`` and the startup scenario of
``bench.compare`` time it exactly like the broker, so the broker's start-up can be
given as a ratio to what no Python/trio server can beat on the same machine.
"""

from __future__ import annotations

import sys

import trio

# ApiVersions v3 response body after the correlation id: error 0, empty compact
# api_keys array, throttle 0, no tagged fields (its header has no tagged fields).
_BODY = b"\x00\x00" + b"\x01" + b"\x00\x00\x00\x00" + b"\x00"


async def _answer(stream: trio.SocketStream) -> None:
    buf = bytearray()
    while True:
        while len(buf) < 4:
            chunk = await stream.receive_some(65536)
            if not chunk:
                return
            buf += chunk
        size = int.from_bytes(buf[:4], "big")
        while len(buf) < 4 + size:
            chunk = await stream.receive_some(65536)
            if not chunk:
                return
            buf += chunk
        correlation = bytes(buf[8:12])
        del buf[: 4 + size]
        reply = correlation + _BODY
        await stream.send_all(len(reply).to_bytes(4, "big") + reply)


async def _main(port: int) -> None:
    listeners = await trio.open_tcp_listeners(port, host="127.0.0.1")
    await trio.serve_listeners(_answer, listeners)


if __name__ == "__main__":
    trio.run(_main, int(sys.argv[1]))
