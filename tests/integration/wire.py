"""A raw-protocol test client: our generated messages over a plain socket.

For the tests that must send what real clients never send (wrong epochs,
duplicate topics, unknown modes) and read every field of the answer. With
``security`` (a :class:`broker.security.client.ClientSecurity`) it speaks TLS and
authenticates with SASL first, as a real client would.
"""

from __future__ import annotations

import socket
from typing import Any

from broker.protocol.connection import CONNECTION_CLOSED, NEED_DATA, ClientConnection


class WireClient:
    def __init__(
        self,
        bootstrap: str,
        timeout: float = 15.0,
        security: Any = None,
        *,
        authenticate: bool = True,
        source: str | None = None,
    ) -> None:
        host, port = bootstrap.rsplit(":", 1)
        source_address = (source, 0) if source else None
        self.sock = socket.create_connection((host, int(port)), timeout=timeout, source_address=source_address)
        self.conn = ClientConnection(client_id="wire-test")
        self.session_lifetime_ms = 0
        try:
            if security is not None and security.ssl_context is not None:
                self.sock = security.ssl_context.wrap_socket(self.sock, server_hostname=host)
            if security is not None and authenticate:
                self.authenticate(security)
        except BaseException:
            self.sock.close()
            raise

    def authenticate(self, security: Any) -> None:
        """SaslHandshake v1 + SaslAuthenticate (raises SaslClientError when refused)."""
        from broker.security.sasl.client import SaslClientExchange

        client = security.new_sasl_client()
        if client is None:
            return
        exchange = SaslClientExchange(client)
        step: tuple[Any, int] | None = exchange.first()
        while step is not None:
            step = exchange.next(self.request(*step))
        self.session_lifetime_ms = exchange.session_lifetime_ms

    def send_frame(self, frame: bytes) -> None:
        self.sock.sendall(frame)

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
