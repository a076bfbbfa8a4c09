"""The share-partition runtime: owns every share partition on this broker.

The state machines (:mod:`broker.share.partition`) are pure; this module gives
them a clock, a persister, wake-ups and timers:

- share partitions are created on first use, from the persisted state
  (ReadShareGroupState) or else from the group's ``share.auto.offset.reset``;
- every durable change (acknowledgement, release, lock expiry) is written
  through the persister **before** the caller answers, and rolled back if the
  write fails;
- fetches waiting for records park on a per-partition event, set by appends
  to the partition, by released records and by expired locks;
- one timer task expires acquisition locks.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Callable
from typing import Any, Protocol

import structlog
import trio

from broker.lifecycle import Lifecycle
from broker.metadata.group_configs import GroupConfigStore, ShareGroupSettings
from broker.metadata.image import MetadataImage
from broker.metadata.source import MetadataSource
from broker.metrics import Metrics
from broker.protocol.errors import ErrorCode, KafkaError
from broker.replica.manager import ReplicaManager
from broker.share.log_view import PartitionLogView
from broker.share.partition import AcquiredRange, Delta, PersistedState, SharePartition, StateBatch
from broker.share.sessions import ShareSessionCache
from broker.share.state_store import Persister

log = structlog.get_logger("sharebroker.share")

Key = tuple[str, uuid.UUID, int]  # (group id, topic id, partition)


class ClientConnection(Protocol):
    """What the runtime needs of a client connection: its id and a close hook."""

    connection_id: int
    on_close: list[Callable[[], None]]


class Entry:
    """One share partition and what the runtime keeps beside it."""

    __slots__ = ("available", "key", "leader_epoch", "partition", "sp", "state_epoch", "topic", "view")

    def __init__(
        self, key: Key, topic: str, sp: SharePartition, view: PartitionLogView, state_epoch: int, leader_epoch: int
    ) -> None:
        self.key = key
        self.state_epoch = state_epoch
        self.leader_epoch = leader_epoch
        self.topic = topic
        self.partition = key[2]
        self.sp = sp
        self.view = view
        self.available = trio.Event()

    def wake(self) -> None:
        self.available.set()
        self.available = trio.Event()


class SharePartitionManager:
    def __init__(
        self,
        *,
        persister: Persister,
        metadata: MetadataSource,
        replicas: ReplicaManager,
        group_configs: GroupConfigStore,
        metrics: Metrics,
        lifecycle: Lifecycle,
        clock: Callable[[], int],
        max_share_sessions: int,
    ) -> None:
        self.persister = persister
        self._metadata = metadata
        self._replicas = replicas
        self._group_configs = group_configs
        self._metrics = metrics
        self._lifecycle = lifecycle
        self._clock = clock
        self.sessions = ShareSessionCache(max_share_sessions)
        replicas.add_append_listener(self.appended)
        metadata.subscribe(self._image_changed)
        self._entries: dict[Key, Entry] = {}
        self._by_log: dict[tuple[str, int], list[Entry]] = defaultdict(list)
        self._init_locks: dict[Key, trio.Lock] = {}
        self._timer_changed = trio.Event()
        self._nursery: trio.Nursery | None = None
        self._watched: set[int] = set()

    # --- settings ---------------------------------------------------------------

    def settings(self, group_id: str) -> ShareGroupSettings:
        """The group-level settings the group's share partitions run with (group configs)."""
        return self._group_configs.share_settings(group_id)

    # --- share partitions -------------------------------------------------------

    def loaded(self) -> list[Entry]:
        """Every share partition loaded on this broker (metrics read this)."""
        return list(self._entries.values())

    def entries_of_group(self, group_id: str) -> list[Entry]:
        return [e for k, e in self._entries.items() if k[0] == group_id]

    async def entry(self, group_id: str, topic_id: uuid.UUID, partition: int) -> tuple[Entry | None, int]:
        """The share partition, loading it on first use; or (None, error code)."""
        key = (group_id, topic_id, partition)
        e = self._entries.get(key)
        if e is not None:
            return e, ErrorCode.NONE
        info = self._metadata.image.topic_by_id(topic_id)
        if info is None:
            return None, ErrorCode.UNKNOWN_TOPIC_ID
        try:
            replica = self._replicas.leader(info.name, partition)
        except KafkaError as exc:
            return None, exc.code
        plog = replica.log
        lock = self._init_locks.setdefault(key, trio.Lock())
        async with lock:
            e = self._entries.get(key)
            if e is not None:
                return e, ErrorCode.NONE
            load_started = trio.current_time()
            view = PartitionLogView(plog)
            settings = self.settings(group_id)
            summary = await self.persister.read_summary(group_id, topic_id, partition)
            if not summary.ok:
                return None, summary.error_code
            state: PersistedState | None = None
            state_epoch = summary.state_epoch
            if summary.start_offset >= 0:
                read = await self.persister.read(group_id, topic_id, partition, leader_epoch=replica.leader_epoch)
                if not read.ok:
                    return None, read.error_code
                state_epoch = read.state_epoch
                state = PersistedState(
                    read.start_offset,
                    tuple(
                        StateBatch(b.first_offset, b.last_offset, b.delivery_state, b.delivery_count)
                        for b in read.state_batches
                    ),
                )
            sp = SharePartition.initialize(state, view, settings.auto_offset_reset, self._clock())
            if state is None:
                # First use: fix the start chosen by share.auto.offset.reset durably.
                init = await self.persister.initialize(
                    group_id, topic_id, partition, state_epoch=state_epoch, start_offset=sp.start_offset
                )
                if not init.ok:
                    return None, init.error_code
            e = Entry(key, info.name, sp, view, state_epoch, replica.leader_epoch)
            self._entries[key] = e
            self._by_log[(info.name, partition)].append(e)
            self._metrics.observe_partition_load(trio.current_time() - load_started)
            log.info(
                "share_partition_loaded",
                group=group_id,
                topic=info.name,
                partition=partition,
                start_offset=sp.start_offset,
                persisted=state is not None,
            )
        self._init_locks.pop(key, None)
        return e, ErrorCode.NONE

    async def load_all(self, group_id: str, keys: list[tuple[uuid.UUID, int]]) -> None:
        """Load the share partitions not in memory yet, concurrently.

        Each first load writes its initial state durably; loading them together
        lets one group-commit fsync round cover all of them. Errors are left
        for :meth:`entry` to report per partition.
        """
        missing = [k for k in keys if (group_id, *k) not in self._entries]
        if len(missing) < 2:
            return
        async with trio.open_nursery() as nursery:
            for topic_id, partition in missing:
                nursery.start_soon(self.entry, group_id, topic_id, partition)

    def forget_group(self, group_id: str) -> None:
        """Drop the group's share partitions from memory (their state was re-initialised or deleted)."""
        for key in [k for k in self._entries if k[0] == group_id]:
            e = self._entries.pop(key)
            self._by_log[(e.topic, e.partition)].remove(e)
            e.wake()

    def _image_changed(self, old: MetadataImage, new: MetadataImage) -> None:
        for name, t in old.topics.items():
            now = new.topic(name)
            if now is None or now.topic_id != t.topic_id:
                self.forget_topic(name)
        # A share-partition lives with the partition's leader: when leadership moves
        # (or this broker is fenced), drop it; its state is with the share coordinator,
        # and the next leader loads it from there.
        for (name, partition), entries in list(self._by_log.items()):
            state = new.partition(name, partition)
            for e in list(entries):
                if state is None or state.leader != self._replicas.node_id or state.leader_epoch != e.leader_epoch:
                    entries.remove(e)
                    self._entries.pop(e.key, None)
                    e.wake()
            if not entries:
                self._by_log.pop((name, partition), None)

    def has_session(self, group_id: str, member_id: str) -> bool:
        """Whether the member has an open share session on this broker."""
        return self.sessions.get(group_id, member_id) is not None

    def forget_topic(self, topic: str) -> None:
        """The topic was deleted: drop its share partitions."""
        for name, partition in [k for k in self._by_log if k[0] == topic]:
            for e in self._by_log.pop((name, partition)):
                self._entries.pop(e.key, None)
                e.wake()

    # --- operations -------------------------------------------------------------

    def acquire(
        self, e: Entry, member_id: str, *, max_records: int, batch_size: int | None, mode: int, max_bytes: int
    ) -> list[AcquiredRange]:
        s = self.settings(e.key[0])
        ranges = e.sp.acquire(
            member_id,
            max_records=max_records,
            now_ms=self._clock(),
            batch_size=batch_size,
            mode=mode,
            lock_duration_ms=s.lock_duration_ms,
            delivery_count_limit=s.delivery_count_limit,
            max_in_flight=s.max_record_locks,
            isolation=s.isolation_level,
            max_bytes=max_bytes,
        )
        if ranges:
            self._timer_changed.set()
        return ranges

    async def acknowledge(self, e: Entry, member_id: str, batches: list[tuple[int, int, list[int]]]) -> int:
        s = self.settings(e.key[0])
        result = e.sp.acknowledge(
            member_id, batches, self._clock(), s.delivery_count_limit, lock_duration_ms=s.lock_duration_ms
        )
        if result.error_code:
            return result.error_code
        if result.delta is not None:
            code = await self.persist(e, result.delta)
            if code:
                return code
        self._metrics.acknowledged(batches)
        if any(t == 2 for _, _, types in batches for t in types):  # Release: records came back
            e.wake()
        return ErrorCode.NONE

    async def persist(self, e: Entry, delta: Delta) -> int:
        """Write ``delta`` durably, then confirm it; undo it if the write fails."""
        group_id, topic_id, partition = e.key
        result = await self.persister.write(
            group_id,
            topic_id,
            partition,
            state_epoch=e.state_epoch,
            leader_epoch=e.leader_epoch,
            start_offset=delta.start_offset,
            state_batches=delta.batches,
        )
        code = result.error_code
        if code:
            log.warning(
                "share_state_write_failed",
                group=group_id,
                topic=e.topic,
                partition=partition,
                error=result.error_message,
            )
            e.sp.rollback(delta)
            return code
        e.sp.on_persisted(delta)
        return ErrorCode.NONE

    async def release_member(self, group_id: str, member_id: str) -> None:
        """Give back every record the member holds in the group (session closed, left, disconnected)."""
        limit = self.settings(group_id).delivery_count_limit
        for e in self.entries_of_group(group_id):
            delta = e.sp.release_member(member_id, self._clock(), limit)
            if delta is not None:
                await self.persist(e, delta)
                e.wake()

    def now_ms(self) -> int:
        return self._clock()

    def watch_connection(self, connection: ClientConnection) -> None:
        """Close the sessions a connection opened when it goes away (once per connection)."""
        if connection.connection_id in self._watched:
            return
        self._watched.add(connection.connection_id)

        def closed() -> None:
            self._watched.discard(connection.connection_id)
            self.connection_closed(connection.connection_id)

        connection.on_close.append(closed)

    def connection_closed(self, connection_id: int) -> None:
        """Close the connection's sessions and give back what their members held."""
        for session in self.sessions.sessions_of_connection(connection_id):
            self.sessions.close(session.group_id, session.member_id)
            if self._lifecycle.stopping:
                # Acquired records are never persisted: after the restart they are
                # available again without a release racing the shutdown.
                continue
            self.spawn(self.release_member, session.group_id, session.member_id)

    def spawn(self, fn: Any, *args: Any) -> None:
        if self._nursery is None:
            raise RuntimeError("share runtime is not running")
        self._nursery.start_soon(fn, *args)

    def appended(self, topic: str, partition: int) -> None:
        for e in self._by_log.get((topic, partition), ()):
            e.wake()

    async def wait_for_records(self, entries: list[Entry], timeout_s: float) -> None:
        """Return when any of ``entries`` may have records, at the timeout, or at shutdown."""
        if timeout_s <= 0:
            return
        with trio.move_on_after(timeout_s):
            async with trio.open_nursery() as nursery:

                async def watch(event: trio.Event) -> None:
                    await event.wait()
                    nursery.cancel_scope.cancel()

                for e in entries:
                    nursery.start_soon(watch, e.available)
                nursery.start_soon(watch, self._lifecycle.stopped)

    # --- lock expiry ---------------------------------------------------------------

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Expire acquisition locks as they fall due; host background releases."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            task_status.started()
            await self._expire_locks_forever()

    async def _expire_locks_forever(self) -> None:
        while True:
            # Reset before scanning: acquisitions during the scan's awaits set it again.
            self._timer_changed = trio.Event()
            now = self._clock()
            nearest: int | None = None
            for e in list(self._entries.values()):
                deadline = e.sp.next_lock_deadline()
                if deadline is None:
                    continue
                if deadline <= now:
                    limit = self.settings(e.key[0]).delivery_count_limit
                    result = e.sp.expire_locks(now, limit)
                    if result.delta is not None:
                        await self.persist(e, result.delta)
                    if result.available:
                        e.wake()
                    deadline = e.sp.next_lock_deadline()
                    if deadline is None:
                        continue
                if nearest is None or deadline < nearest:
                    nearest = deadline
            delay = 3600.0 if nearest is None else max(0.0, (nearest - self._clock()) / 1000)
            with trio.move_on_after(delay):
                await self._timer_changed.wait()
