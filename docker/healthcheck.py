"""The image's HEALTHCHECK: exit 0 when the broker answers ApiVersions, 1 otherwise.

    python healthcheck.py [HOST:PORT]

Without an argument the address is the broker's first listener in SHAREBROKER_LISTENERS
(the image sets it; a wildcard host is reached on 127.0.0.1). One line on stdout says what
was asked and what came back; Docker keeps it in `docker inspect` (State.Health.Log).

Docker runs this every few seconds for the life of the container, so it stays small: one
socket, the sans-IO ClientConnection and the ApiVersions messages, not the admin client or
the settings table (which would triple its start-up cost).
"""

from __future__ import annotations

import os
import socket
import sys

# The broker answers well within a second once it listens; Docker kills the check at its
# own --timeout (4 s in the Dockerfile), so finish before that with a clear message.
TIMEOUT_S = 3.0
# The broker's own default listener, when SHAREBROKER_LISTENERS is unset.
DEFAULT_ADDRESS = ("127.0.0.1", 9092)
API_VERSIONS_VERSION = 3


def first_listener(value: str | None) -> tuple[str, int]:
    """(host, port) to probe for the first NAME://host:port entry of ``value``."""
    if not value:
        return DEFAULT_ADDRESS
    entry = value.split(",")[0].strip()
    _, sep, hostport = entry.partition("://")
    host, colon, port = hostport.rpartition(":")
    if not sep or not colon or not port.isdigit():
        raise ValueError(f"SHAREBROKER_LISTENERS={value!r}: the first entry is not NAME://host:port")
    host = host.strip("[]")
    return ("127.0.0.1" if host in ("", "0.0.0.0", "::") else host), int(port)


def probe(host: str, port: int) -> str:
    """Send ApiVersions, return a description of the answer; raise OSError/ValueError."""
    from broker.protocol.connection import NEED_DATA, ClientConnection, Response
    from broker.protocol.messages.api_versions_request import ApiVersionsRequest

    conn = ClientConnection(client_id="sharebroker-healthcheck")
    request = ApiVersionsRequest(client_software_name="sharebroker-healthcheck", client_software_version="1")
    _, frame = conn.encode_request(request, API_VERSIONS_VERSION)
    with socket.create_connection((host, port), timeout=TIMEOUT_S) as sock:
        sock.settimeout(TIMEOUT_S)
        sock.sendall(frame)
        while True:
            event = conn.next_event()
            if isinstance(event, Response):
                break
            if event is not NEED_DATA:
                raise ValueError("the broker closed the connection without answering")
            conn.receive_data(sock.recv(65536))
    body = event.body
    if body.error_code != 0:
        raise ValueError(f"ApiVersions error code {body.error_code}")
    return f"ApiVersions v{event.api_version} answered with {len(body.api_keys)} APIs"


def main(argv: list[str]) -> int:
    from broker.protocol.errors import ProtocolError

    try:
        if len(argv) > 1:
            host, _, port = argv[1].rpartition(":")
            address = (host.strip("[]"), int(port))
        else:
            address = first_listener(os.environ.get("SHAREBROKER_LISTENERS"))
        answer = probe(*address)
    except (OSError, ValueError, ProtocolError) as e:
        print(f"unhealthy: {e}")
        return 1
    print(f"healthy: {address[0]}:{address[1]}: {answer}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
