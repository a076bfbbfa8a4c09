"""The console's one way to the cluster: admin clients in worker threads, a short
cache with single flight, and the sampler behind the charts.

The project's admin client is synchronous (plain sockets, a deadline per call), so
each call runs in a worker thread with a client of its own from a small pool: at
most POOL_SIZE calls are in flight, and each client keeps its connections. Results
are cached for CACHE_TTL_S and concurrent asks for the same thing share one call, so
several open tabs refreshing the same page cost the cluster one set of requests.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

import structlog
import trio

from broker.admin.client import AdminClient, AdminError
from broker.ui.history import History
from broker.ui.metrics import Scrape

log = structlog.get_logger("sharebroker.ui")

T = TypeVar("T")

# Calls in flight at once (and admin clients kept): enough for a few users' pages at
# once, small enough that the console never floods a cluster.
POOL_SIZE = 4
# A result is served from the cache this long: tabs that refresh together share it.
CACHE_TTL_S = 1.0
# The group types of the consumer groups page (share groups have their own).
GROUP_KINDS = ("classic", "consumer", "streams")
# The sampler's lists serve pages while younger than this many refresh intervals (a failed
# round or two is bridged; past that a page reads them itself).
SAMPLE_STALE_ROUNDS = 3
# Entries kept at most (a page per group or topic adds one).
MAX_CACHE_ENTRIES = 2000


@dataclass(slots=True)
class UiSettings:
    bootstrap_servers: str
    security: Any = None
    metrics_urls: list[str] = field(default_factory=list)
    read_only: bool = False
    refresh_s: float = 5.0
    timeout_s: float = 10.0


class Gateway:
    def __init__(self, settings: UiSettings) -> None:
        self.settings = settings
        self._free: list[AdminClient] = []
        self._limiter = trio.CapacityLimiter(POOL_SIZE)
        self._cache: dict[tuple, tuple[float, Any]] = {}
        self._flights: dict[tuple, trio.Event] = {}
        self.history = History()
        self.metrics: Scrape | None = None
        self.sampled_at: float | None = None
        # The sampler's newest topic and share group lists: (monotonic time, rows).
        self._latest: dict[str, tuple[float, Any]] = {}
        self.round_ms: float | None = None
        # Topic -> the history keys of the group positions on it (records-out rates).
        self._readers: dict[str, set[str]] = {}

    def _client(self) -> AdminClient:
        if self._free:
            return self._free.pop()
        return AdminClient(
            self.settings.bootstrap_servers,
            timeout=self.settings.timeout_s,
            client_id="sharebroker-ui",
            security=self.settings.security,
        )

    async def call(self, fn: Callable[..., T], *args: Any, **kw: Any) -> T:
        """``fn(admin, *args, **kw)`` in a worker thread with a pooled admin client."""
        async with self._limiter:
            client = self._client()
            try:
                return await trio.to_thread.run_sync(lambda: fn(client, *args, **kw))
            finally:
                # A failed call leaves the client usable: it dropped the broken connection
                # and connects again on its next call.
                self._free.append(client)

    async def cached(self, key: tuple, fn: Callable[..., T], *args: Any, ttl: float = CACHE_TTL_S) -> T:
        """``call`` through the cache: one call per ``key`` per ``ttl``, shared by concurrent askers."""
        while True:
            hit = self._cache.get(key)
            if hit is not None and hit[0] > time.monotonic():
                value = hit[1]
                if isinstance(value, BaseException):
                    raise value
                return value
            flight = self._flights.get(key)
            if flight is None:
                break
            await flight.wait()
            if key not in self._cache:
                break
        event = self._flights[key] = trio.Event()
        try:
            try:
                value = await self.call(fn, *args)
            except AdminError as exc:
                self._store(key, exc, ttl)
                raise
            self._store(key, value, ttl)
            return value
        finally:
            del self._flights[key]
            event.set()

    def _store(self, key: tuple, value: Any, ttl: float) -> None:
        if len(self._cache) >= MAX_CACHE_ENTRIES:
            now = time.monotonic()
            for k in [k for k, (exp, _) in self._cache.items() if exp <= now] or list(self._cache)[
                : MAX_CACHE_ENTRIES // 2
            ]:
                self._cache.pop(k, None)
        self._cache[key] = (time.monotonic() + ttl, value)

    def forget(self) -> None:
        """Drop every cached answer (after an action changed the cluster)."""
        self._cache.clear()
        self._latest.clear()

    async def latest(self, key: str, fn: Callable[..., T]) -> T:
        """The sampler's newest answer of ``fn`` (the whole-cluster lists: every topic, every
        share group), read when it is older than SAMPLE_STALE_ROUNDS refresh intervals.

        Those lists cost the cluster the most (DescribeShareGroupOffsets of every group, ListOffsets
        of every partition), so they are read once per refresh interval in the background, however
        many tabs show them, and a page never waits for them."""
        hit = self._latest.get(key)
        if hit is not None and time.monotonic() - hit[0] < SAMPLE_STALE_ROUNDS * self.settings.refresh_s:
            return hit[1]
        value = await self.cached((key,), fn)
        self._latest[key] = (time.monotonic(), value)
        return value

    def close(self) -> None:
        for c in self._free:
            c.close()
        self._free.clear()

    # -- the sampler ---------------------------------------------------------------------------

    async def sample_forever(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Every refresh interval: the metrics endpoints, share group lag and topic end offsets,
        into the history the charts draw. A failing round is logged and retried next time."""
        import httpx

        async with httpx.AsyncClient() as http:
            task_status.started()
            while True:
                try:
                    await self.sample_once(http)
                except AdminError as exc:
                    log.info("ui_sample_failed", error=str(exc))
                await trio.sleep(self.settings.refresh_s)

    def out_rate(self, topic: str) -> float | None:
        """Records per second the groups reading ``topic`` moved past (consumer and streams
        groups' committed offsets, share groups' start offsets), over the last two rounds.
        None until two rounds have seen a group there."""
        rates = [r for key in self._readers.get(topic, ()) if (r := self.history.last_rate(key)) is not None]
        return sum(rates) if rates else None

    def _positions(self, kind: str, rows: Any, now: float) -> None:
        for g in rows:
            for topic, position in g.positions.items():
                key = f"pos:{kind}:{g.group_id}:{topic}"
                self.history.add(key, now, position)
                self._readers.setdefault(topic, set()).add(key)

    async def sample_once(self, http: Any) -> None:
        from broker.ui.data.groups import list_groups
        from broker.ui.data.share import list_share_groups
        from broker.ui.data.topics import list_topics
        from broker.ui.metrics import scrape

        now = time.time()
        if self.settings.metrics_urls:
            m = await scrape(http, self.settings.metrics_urls)
            self.metrics = m
            for ack_type, v in m.by_label("share_acknowledged_records_total", "type").items():
                self.history.add(f"acks:{ack_type}", now, v)
            for group, v in m.by_label("share_redelivered_records_total", "group").items():
                self.history.add(f"redelivered:{group}", now, v)
            for group, v in m.by_label("share_dead_lettered_records_total", "group").items():
                self.history.add(f"dead:{group}", now, v)
        t0 = time.monotonic()
        groups = await self.cached(("share-groups",), list_share_groups)
        self._latest["share-groups"] = (time.monotonic(), groups)
        for g in groups:
            if isinstance(g.lag, int):
                self.history.add(f"lag:{g.group_id}", now, g.lag)
        consumer_groups = await self.cached(("groups",), list_groups, GROUP_KINDS)
        self._latest["groups"] = (time.monotonic(), consumer_groups)
        self._readers = {}
        self._positions("share", groups, now)
        self._positions("consumer", consumer_groups, now)
        topics = await self.cached(("topics",), list_topics)
        self._latest["topics"] = (time.monotonic(), topics)
        for t in topics:
            total = t.latest_total
            if total is not None:
                self.history.add(f"in:{t.name}", now, total)
        self.sampled_at = now
        self.round_ms = (time.monotonic() - t0) * 1000
        log.info(
            "ui_sampled",
            round_ms=round(self.round_ms, 1),
            topics=len(topics),
            share_groups=len(groups),
            groups=len(consumer_groups),
        )
