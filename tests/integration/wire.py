"""A raw-protocol test client: our generated messages over a plain socket.

For the tests that must send what real clients never send (wrong epochs,
duplicate topics, unknown modes) and read every field of the answer.
"""

from __future__ import annotations

import socket
from typing import Any

from broker.protocol.connection import CONNECTION_CLOSED, NEED_DATA, ClientConnection


class WireClient:
    def __init__(self, bootstrap: str, timeout: float = 15.0) -> None:
        host, port = bootstrap.rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        self.conn = ClientConnection(client_id="wire-test")

    def request(self, message: Any, version: int) -> Any:
        _, frame = self.conn.encode_request(message, version)
        self.sock.sendall(frame)
        while True:
            event = self.conn.next_event()
            if event is NEED_DATA:
                self.conn.receive_data(self.sock.recv(1 << 20))
                continue
            if event is CONNECTION_CLOSED:
                raise ConnectionError("broker closed the connection")
            return event.body

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> WireClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
