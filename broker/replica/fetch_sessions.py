"""Incremental fetch sessions (KIP-227): the broker-side session cache.

Pure domain logic: no trio, no I/O; the caller passes the clock (``now_ms``)
and, for sessions that name topics by id, a function resolving an id to a name.

A Fetch request carries ``(session_id, epoch)``:

- ``(0, -1)``: sessionless full fetch; ``(id, -1)`` closes session ``id`` first.
- ``(any, 0)``: full fetch that opens a new session (closing ``id`` if given).
  The response carries the new session id, or 0 when the cache is full and
  nothing may be evicted (the client then simply fetches without a session).
- ``(id, N > 0)``: incremental fetch. The partitions listed are added to (or
  update) the session, ``forgotten_topics_data`` drops partitions, and every
  partition of the session is read; the response only lists partitions with
  records, an error, or a changed high watermark / last stable offset / log
  start offset since the last response. An unknown id gets
  FETCH_SESSION_ID_NOT_FOUND, a wrong epoch INVALID_FETCH_SESSION_EPOCH, and a
  request whose version does not match the session's naming (topic ids from
  v13, names before) FETCH_SESSION_TOPIC_ID_ERROR, all as a top-level error
  with session id 0 and no partitions, as Kafka answers. A session whose last
  partition is forgotten is closed and the request answered sessionless.

Partitions of a session are keyed by ``(topic_id, partition)`` for v13+ and by
``(topic_name, partition)`` before, so the response can echo each topic the
way the request named it. Partitions that returned records move to the end of
the session's order, so the next reads start with the ones that did not (the
request-level byte limit is then shared fairly).

Changes, not partitions: an incremental fetch reads only the partitions the
request lists and those that changed since the session last read them
(:meth:`FetchContext.to_read`). A partition the session read with nothing to
return (no records, no error: the fetcher is at its end) is *idle* and is not
read again until :meth:`FetchSessionCache.partition_changed` reports an append,
a high watermark, log start or leadership change for it; that call also wakes a
fetch of the session parked in its long poll (:meth:`FetchContext.set_waiter`).
So a follower whose thousands of partitions are idle costs one empty request
per long poll, whatever their number (Kafka reads every partition of the
session on each request and sends only the changed ones; the response is the
same). A partition whose topic id is not known yet is read every time (it is
answered with an error). Without the idle set (``respond(..., idle=())``) every
partition read stays marked changed, which is Kafka's behaviour.

Cache limit and eviction follow Kafka's FetchSessionCache: at most
``max.incremental.fetch.session.cache.slots`` (1000) sessions. When full, a
new session may evict (1) the least recently used session if it has been idle
longer than the eviction time (120 s, Kafka's fixed
MIN_INCREMENTAL_FETCH_SESSION_EVICTION_MS): this is how idle sessions expire,
or else (2) the smallest evictable session older than the eviction time, when
the new one is at least as valuable (privileged follower sessions beat
consumer sessions, then more partitions beat fewer).
"""

from __future__ import annotations

import random
import uuid
from collections.abc import Callable, Collection, Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from broker.protocol.errors import ErrorCode

__all__ = [
    "FINAL_EPOCH",
    "INITIAL_EPOCH",
    "INVALID_SESSION_ID",
    "CachedPartition",
    "FetchContext",
    "FetchSession",
    "FetchSessionCache",
    "next_epoch",
]

INVALID_SESSION_ID = 0
INITIAL_EPOCH = 0
FINAL_EPOCH = -1

# Kafka's max.incremental.fetch.session.cache.slots default: sessions, not partitions.
DEFAULT_MAX_SESSIONS = 1000
# Kafka's MIN_INCREMENTAL_FETCH_SESSION_EVICTION_MS: a session younger than this
# cannot be displaced by a bigger one, and one idle for longer is evicted first.
DEFAULT_EVICTION_MS = 120_000

_MAX_INT32 = 2**31 - 1

SessionKey = tuple[Hashable, int]
"""``(topic_id or topic_name, partition)``."""


def next_epoch(prev: int) -> int:
    """The session epoch after ``prev``: FINAL stays FINAL; wraps to 1 after int32 max."""
    if prev < 0:
        return FINAL_EPOCH
    if prev == _MAX_INT32:
        return 1
    return prev + 1


@dataclass(slots=True)
class CachedPartition:
    """One partition of a fetch: the request's parameters and what was last sent.

    ``topic`` is None when the request named the topic by an id this broker
    does not know (it may be resolved later, when the topic appears).
    """

    topic: str | None
    topic_id: uuid.UUID
    partition: int
    fetch_offset: int
    max_bytes: int
    current_leader_epoch: int = -1
    last_fetched_epoch: int = -1
    fetcher_log_start_offset: int = -1
    # What the last response carried (-1: nothing sent yet / error).
    high_watermark: int = -1
    last_stable_offset: int = -1
    local_log_start_offset: int = -1
    # Position in the session's read order (rotation moves it to the end).
    order: int = 0

    def update_request(self, other: CachedPartition) -> None:
        self.fetch_offset = other.fetch_offset
        self.max_bytes = other.max_bytes
        self.current_leader_epoch = other.current_leader_epoch
        self.last_fetched_epoch = other.last_fetched_epoch
        self.fetcher_log_start_offset = other.fetcher_log_start_offset

    def must_respond(self, resp: Any, update: bool) -> bool:
        """Whether an incremental response must include this partition (and remember it).

        ``resp`` is a FetchResponse PartitionData (anything with its fields).
        """
        must = False
        records = resp.records
        if records is not None and len(records) > 0:
            must = True
        if self.high_watermark != resp.high_watermark:
            must = True
            if update:
                self.high_watermark = resp.high_watermark
        if self.last_stable_offset != resp.last_stable_offset:
            must = True
            if update:
                self.last_stable_offset = resp.last_stable_offset
        if self.local_log_start_offset != resp.log_start_offset:
            must = True
            if update:
                self.local_log_start_offset = resp.log_start_offset
        if resp.preferred_read_replica != -1:
            must = True
        if resp.error_code != 0:
            # Forget the high watermark so the partition is sent again once the error clears.
            if update:
                self.high_watermark = -1
            must = True
        if resp.diverging_epoch.epoch >= 0:
            must = True
        return must

    def remember(self, resp: Any) -> None:
        self.high_watermark = resp.high_watermark
        self.last_stable_offset = resp.last_stable_offset
        self.local_log_start_offset = resp.log_start_offset


@dataclass(slots=True, eq=False)
class FetchSession:
    id: int
    privileged: bool
    partitions: dict[SessionKey, CachedPartition]
    uses_topic_ids: bool
    creation_ms: int
    last_used_ms: int
    epoch: int
    cached_size: int = -1  # size when last touched; -1 while not in the cache
    # Partitions to read at the next request: changed since they were last read idle.
    changed: set[SessionKey] = field(default_factory=set)
    # Partitions whose topic id had no name when last looked at (read every time).
    unresolved: set[SessionKey] = field(default_factory=set)
    # Called when a partition of the session changes (wakes a parked fetch).
    waiter: Callable[[], None] | None = None
    next_order: int = 0

    @property
    def size(self) -> int:
        return len(self.partitions)

    def evictable_key(self) -> tuple[bool, int, int]:
        return (self.privileged, self.cached_size, self.id)

    def place_last(self, cp: CachedPartition) -> None:
        cp.order = self.next_order
        self.next_order += 1


# --- contexts -------------------------------------------------------------------------

Item = tuple[SessionKey, CachedPartition, Any]


@dataclass(slots=True)
class FetchContext:
    """What one Fetch request reads and how its response is shaped.

    ``kind`` is ``"error"``, ``"sessionless"``, ``"full"`` or ``"incremental"``.
    Read the partitions of :meth:`to_read` (again after a wake-up: it returns
    those changed meanwhile), then call :meth:`respond` with the results (same
    keys, in read order, erroneous ones after) and the keys read idle, to get
    the top-level error, the session id and the partitions to send.
    """

    kind: str
    cache: FetchSessionCache
    error: int = ErrorCode.NONE
    fetch_data: dict[SessionKey, CachedPartition] = field(default_factory=dict)
    session: FetchSession | None = None
    request_epoch: int = 0
    privileged: bool = False
    uses_topic_ids: bool = False
    # Incremental: the keys this request took from the session's changed set.
    taken: set[SessionKey] = field(default_factory=set)

    def partitions(self) -> list[tuple[SessionKey, CachedPartition]]:
        """Every partition the request covers (for an incremental fetch: the session's)."""
        if self.kind == "incremental":
            assert self.session is not None
            return list(self.session.partitions.items())
        if self.kind == "error":
            return []
        return list(self.fetch_data.items())

    def to_read(self) -> list[tuple[SessionKey, CachedPartition]]:
        """The partitions to read now, in session order. For an incremental fetch: those
        the request lists, those changed since the session read them idle, and those of
        unknown topics; their change marks are cleared (a change from now on marks them
        again). Otherwise every partition of the request."""
        if self.kind != "incremental":
            return self.partitions()
        session = self.session
        assert session is not None
        parts = session.partitions
        keys = set(session.changed)
        session.changed.clear()
        keys.update(k for k in self.fetch_data if k in parts)
        keys.update(session.unresolved)
        self.taken |= keys
        found = [(k, parts[k]) for k in keys if k in parts]
        found.sort(key=lambda item: item[1].order)
        return found

    def set_waiter(self, waiter: Callable[[], None] | None) -> None:
        """``waiter`` is called when a partition of the session changes (incremental only)."""
        if self.session is not None:
            self.session.waiter = waiter

    def respond(
        self, results: Mapping[SessionKey, Any], now_ms: int, idle: Collection[SessionKey] = ()
    ) -> tuple[int, int, list[Item]]:
        """``idle``: keys whose last read had nothing to return (no records, no error,
        the fetch offset at the end of what may be read); every other key read is read
        again at the session's next request."""
        if self.kind == "error":
            return self.error, INVALID_SESSION_ID, []
        if self.kind == "sessionless":
            return ErrorCode.NONE, INVALID_SESSION_ID, [(k, self.fetch_data[k], r) for k, r in results.items()]
        if self.kind == "full":
            items = [(k, self.fetch_data[k], r) for k, r in results.items()]
            changed = {k for k in results if k not in idle}

            def build() -> dict[SessionKey, CachedPartition]:
                cached: dict[SessionKey, CachedPartition] = {}
                for k, cp, r in items:
                    cp.remember(r)
                    cached[k] = cp
                return cached

            session_id = self.cache.maybe_create_session(
                now_ms, self.privileged, len(items), self.uses_topic_ids, build, changed
            )
            return ErrorCode.NONE, session_id, items
        session = self.session
        assert session is not None
        session.waiter = None
        if session.epoch != next_epoch(self.request_epoch):
            # Another request of the same session got in between (a duplicate request).
            session.changed |= self.taken & session.partitions.keys()
            return ErrorCode.INVALID_FETCH_SESSION_EPOCH, session.id, []
        items = []
        moved: list[SessionKey] = []
        for k, r in results.items():
            cp = session.partitions.get(k)
            if cp is None:  # forgotten meanwhile
                continue
            if k not in idle:
                session.changed.add(k)
            if cp.must_respond(r, update=True):
                items.append((k, cp, r))
                if r.records is not None and len(r.records) > 0:
                    moved.append(k)
        for k in moved:  # rotate: partitions that got data go last next time
            cp = session.partitions.pop(k)
            session.partitions[k] = cp
            session.place_last(cp)
        return ErrorCode.NONE, session.id, items


# --- the cache ------------------------------------------------------------------------


class FetchSessionCache:
    """Fetch sessions of this broker, bounded, with Kafka's eviction rules."""

    def __init__(
        self,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        eviction_ms: int = DEFAULT_EVICTION_MS,
        rng: random.Random | None = None,
    ) -> None:
        self.max_sessions = max_sessions
        self.eviction_ms = eviction_ms
        self._rng = rng or random.Random()
        self.sessions: dict[int, FetchSession] = {}
        # Sessions another session may displace, by who asks (Kafka's evictableByAll / ByPrivileged).
        self._evictable_by_all: set[int] = set()
        self._evictable_by_privileged: set[int] = set()
        self.total_partitions = 0
        self.evictions = 0
        # (topic name, partition) -> {session id: session key}: who to tell of a change.
        self._watchers: dict[tuple[str, int], dict[int, SessionKey]] = {}

    def __len__(self) -> int:
        return len(self.sessions)

    def get(self, session_id: int) -> FetchSession | None:
        return self.sessions.get(session_id)

    # --- the entry point --------------------------------------------------------------

    def new_context(
        self,
        *,
        version: int,
        session_id: int,
        epoch: int,
        is_follower: bool,
        fetch_data: dict[SessionKey, CachedPartition],
        forgotten: Iterable[SessionKey],
        now_ms: int,
        resolve_topic: Callable[[uuid.UUID], str | None] | None = None,
    ) -> FetchContext:
        uses_ids = version >= 13
        if epoch in (INITIAL_EPOCH, FINAL_EPOCH):
            if session_id != INVALID_SESSION_ID:
                # A full request closes the session it names.
                self.remove(session_id)
            kind = "sessionless" if epoch == FINAL_EPOCH else "full"
            return FetchContext(kind, self, fetch_data=fetch_data, privileged=is_follower, uses_topic_ids=uses_ids)
        session = self.sessions.get(session_id)
        if session is None:
            return FetchContext("error", self, error=ErrorCode.FETCH_SESSION_ID_NOT_FOUND)
        if session.epoch != epoch:
            return FetchContext("error", self, error=ErrorCode.INVALID_FETCH_SESSION_EPOCH)
        if session.uses_topic_ids != uses_ids:
            return FetchContext("error", self, error=ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR)
        parts = session.partitions
        for key, cp in fetch_data.items():
            cached = parts.get(key)
            if cached is None:
                parts[key] = cp
                session.place_last(cp)
                self._watch(session, key, cp)
            else:
                cached.update_request(cp)
        for key in forgotten:
            gone = parts.pop(key, None)
            if gone is not None:
                self._unwatch(session, key, gone)
        if not parts:
            self.remove(session.id)
            return FetchContext("sessionless", self, fetch_data=fetch_data, uses_topic_ids=uses_ids)
        if uses_ids and resolve_topic is not None and session.unresolved:
            for key in list(session.unresolved):
                cp = parts[key]
                cp.topic = resolve_topic(cp.topic_id)
                if cp.topic is not None:
                    session.unresolved.discard(key)
                    self._watch(session, key, cp)
        self.touch(session, now_ms)
        session.epoch = next_epoch(session.epoch)
        return FetchContext(
            "incremental", self, fetch_data=fetch_data, session=session, request_epoch=epoch, uses_topic_ids=uses_ids
        )

    # --- bookkeeping (Kafka's FetchSessionCacheShard) -----------------------------------

    def _new_session_id(self) -> int:
        while True:
            sid = self._rng.randint(1, _MAX_INT32 - 1)
            if sid not in self.sessions:
                return sid

    def maybe_create_session(
        self,
        now_ms: int,
        privileged: bool,
        size: int,
        uses_topic_ids: bool,
        build: Callable[[], dict[SessionKey, CachedPartition]],
        changed: Iterable[SessionKey] | None = None,
    ) -> int:
        """Create a session if there is room (or something may be evicted); its id, else 0.
        ``changed``: the partitions to read at its first incremental fetch (None: all)."""
        if len(self.sessions) >= self.max_sessions and not self._try_evict(privileged, (privileged, size, 0), now_ms):
            return INVALID_SESSION_ID
        session = FetchSession(
            id=self._new_session_id(),
            privileged=privileged,
            partitions=build(),
            uses_topic_ids=uses_topic_ids,
            creation_ms=now_ms,
            last_used_ms=now_ms,
            epoch=next_epoch(INITIAL_EPOCH),
        )
        for cp in session.partitions.values():
            session.place_last(cp)
        session.changed = set(session.partitions if changed is None else changed)
        for key, cp in session.partitions.items():
            self._watch(session, key, cp)
        self.sessions[session.id] = session
        self.touch(session, now_ms)
        return session.id

    # --- changes ----------------------------------------------------------------------

    def partition_changed(self, topic: str, partition: int) -> None:
        """``topic``-``partition`` changed here (an append, its high watermark, last stable
        offset or log start moved, leadership changed, it was deleted): every session
        holding it reads it at its next request, and a parked fetch of theirs wakes."""
        watchers = self._watchers.get((topic, partition))
        if not watchers:
            return
        for session_id, key in watchers.items():
            session = self.sessions.get(session_id)
            if session is None:
                continue
            session.changed.add(key)
            if session.waiter is not None:
                session.waiter()

    def _watch(self, session: FetchSession, key: SessionKey, cp: CachedPartition) -> None:
        if cp.topic is None:
            session.unresolved.add(key)
            return
        self._watchers.setdefault((cp.topic, cp.partition), {})[session.id] = key

    def _unwatch(self, session: FetchSession, key: SessionKey, cp: CachedPartition) -> None:
        session.changed.discard(key)
        session.unresolved.discard(key)
        if cp.topic is None:
            return
        name = (cp.topic, cp.partition)
        watchers = self._watchers.get(name)
        if watchers is not None and watchers.get(session.id) == key:
            del watchers[session.id]
            if not watchers:
                del self._watchers[name]

    def _try_evict(self, privileged: bool, key: tuple[bool, int, int], now_ms: int) -> bool:
        if not self.sessions:
            return False
        lru = min(self.sessions.values(), key=lambda s: (s.last_used_ms, s.id))
        if now_ms - lru.last_used_ms > self.eviction_ms:
            self._remove(lru)
            self.evictions += 1
            return True
        pool = self._evictable_by_privileged if privileged else self._evictable_by_all
        if not pool:
            return False
        victim = min((self.sessions[sid] for sid in pool), key=FetchSession.evictable_key)
        if key < victim.evictable_key():
            return False
        self._remove(victim)
        self.evictions += 1
        return True

    def remove(self, session_id: int) -> FetchSession | None:
        session = self.sessions.get(session_id)
        if session is not None:
            self._remove(session)
        return session

    def _remove(self, session: FetchSession) -> None:
        self._evictable_by_all.discard(session.id)
        self._evictable_by_privileged.discard(session.id)
        if self.sessions.pop(session.id, None) is not None:
            self.total_partitions -= max(session.cached_size, 0)
            for key, cp in session.partitions.items():
                self._unwatch(session, key, cp)
        session.cached_size = -1
        session.waiter = None

    def touch(self, session: FetchSession, now_ms: int) -> None:
        """Mark ``session`` used now and re-file it for eviction."""
        session.last_used_ms = now_ms
        if session.cached_size != -1:
            self.total_partitions -= session.cached_size
        session.cached_size = session.size
        self.total_partitions += session.cached_size
        old_enough = now_ms - session.creation_ms > self.eviction_ms
        if not session.privileged or old_enough:
            self._evictable_by_privileged.add(session.id)
        else:
            self._evictable_by_privileged.discard(session.id)
        if old_enough:
            self._evictable_by_all.add(session.id)
        else:
            self._evictable_by_all.discard(session.id)
