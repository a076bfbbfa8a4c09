"""Limits against clients that take more than their share: connections per IP, and the
memory held by requests still being received.

* :class:`ConnectionCounter`: ``max.connections`` over all clients and
  ``max.connections.per.ip`` (with ``max.connections.per.ip.overrides``) per
  address; a connection over either limit is closed on accept, as Kafka does.
* :class:`MemoryPool`: ``queued.max.request.bytes``. A connection reserves the
  size of a request as soon as its size prefix has arrived, before the bytes are
  buffered; while the pool is exhausted it stops reading (Kafka mutes the channel)
  until requests being handled give their memory back. A request larger than the
  whole pool waits for an empty pool rather than forever.
"""

from __future__ import annotations

from collections.abc import Callable

import trio

from broker.config import parse_ip_overrides
from broker.config.services import ConnectionSettings

__all__ = ["ConnectionCounter", "MemoryPool"]


class ConnectionCounter:
    """Open connections, in total and per client address."""

    def __init__(self, settings: Callable[[], ConnectionSettings]) -> None:
        self._settings = settings  # dynamic: the limits in force now
        self.total = 0
        self.per_ip: dict[str, int] = {}
        self._overrides_text: str | None = None
        self._overrides: dict[str, int] = {}

    def _limit_for(self, host: str) -> int:
        text = self._settings().max_connections_per_ip_overrides or ""
        if text != self._overrides_text:
            self._overrides_text, self._overrides = text, parse_ip_overrides(text)
        return self._overrides.get(host, self._settings().max_connections_per_ip)

    def admit(self, host: str) -> str | None:
        """Count a new connection from ``host``; the reason it is refused, or None."""
        limit = self._settings().max_connections
        if self.total >= limit:
            return f"max.connections ({limit}) reached"
        per_ip = self._limit_for(host)
        if self.per_ip.get(host, 0) >= per_ip:
            return f"max.connections.per.ip ({per_ip}) reached for {host}"
        self.total += 1
        self.per_ip[host] = self.per_ip.get(host, 0) + 1
        return None

    def release(self, host: str) -> None:
        self.total -= 1
        left = self.per_ip.get(host, 1) - 1
        if left <= 0:
            self.per_ip.pop(host, None)
        else:
            self.per_ip[host] = left


class MemoryPool:
    """Bytes of requests received (or being received) and not yet handled."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.available = capacity
        self._freed = trio.Event()

    @property
    def used(self) -> int:
        return self.capacity - self.available

    def try_acquire(self, size: int) -> int:
        """Reserve ``size`` bytes (capped at the capacity) if free now; the amount reserved, or 0."""
        n = min(size, self.capacity)
        if n <= self.available:
            self.available -= n
            return n
        return 0

    async def acquire(self, size: int) -> int:
        """Reserve ``size`` bytes (capped at the capacity), waiting until they are free."""
        while True:
            n = self.try_acquire(size)
            if n:
                return n
            await self._freed.wait()

    def release(self, n: int) -> None:
        if n <= 0:
            return
        self.available = min(self.capacity, self.available + n)
        self._freed.set()
        self._freed = trio.Event()
