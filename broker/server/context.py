"""What a handler sees of the world: the broker, the connection, the request."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from broker.protocol.messages import RequestHeader

if TYPE_CHECKING:
    from broker.server.broker import Broker


@dataclass(slots=True)
class ConnectionState:
    """Per-connection state handlers may hang things on.

    ``on_close`` callbacks run once when the connection ends, however it ends
    (share sessions use this to release a member's acquired records).
    """

    connection_id: int
    peer: str
    client_id: str | None = None
    client_software_name: str | None = None
    client_software_version: str | None = None
    on_close: list[Callable[[], None]] = field(default_factory=list)


@dataclass(slots=True)
class RequestContext:
    broker: Broker
    connection: ConnectionState
    header: RequestHeader
    api_version: int

    @property
    def client_id(self) -> str | None:
        return self.header.client_id
