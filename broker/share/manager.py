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
- one timer task expires acquisition locks and wakes fetches when records held
  by their redelivery backoff (an extension) fall due;
- dead letters (KIP-1191): records a share-partition moved to ARCHIVING are
  copied to the group's dead-letter topic, durably, and only then archived
  (:mod:`broker.share.dead_letter`).
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Callable
from typing import Any, Protocol

import structlog
import trio

from broker.config.services import FixedSettings, ShareManagerSettings
from broker.lifecycle import Lifecycle
from broker.metadata.group_configs import GroupConfigStore, ShareGroupSettings
from broker.metadata.image import MetadataImage
from broker.metadata.source import MetadataSource
from broker.metrics import Metrics
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from broker.replica.interbroker import BrokerPeers
from broker.replica.manager import ReplicaManager
from broker.share import dead_letter as dlq
from broker.share.fairness import FairShare
from broker.share.inflight import AcquiredRange, DeadLetter, Delta, PersistedState, StateBatch
from broker.share.lock_timer import LockTimer
from broker.share.log_view import PartitionLogView
from broker.share.partition import SharePartition
from broker.share.sessions import ShareSessionCache
from broker.share.state_store import Persister

log = structlog.get_logger("sharebroker.share")

# A member whose acknowledgements free records of a share-partition while other members'
# fetches wait there acquires first this many times in a row, then waits behind them. Each
# handover costs a round trip to another member (on a busy client host, a process to
# wake), so the turn passes in short runs rather than at every acquisition.
TURN_ACQUISITIONS = 2

Key = tuple[str, uuid.UUID, int]  # (group id, topic id, partition)

# A dead-letter write that failed (topic not there yet, not the leader, disk error) is
# tried again after this long.
DLQ_RETRY_S = 1.0
# Source records read for dead-letter copies at most this much at a time.
DLQ_READ_BYTES = 16 << 20
# Produce version for dead-letter copies sent to another broker (topic names, not ids).
DLQ_PRODUCE_VERSION = 9


class ClientConnection(Protocol):
    """What the runtime needs of a client connection: its id and a close hook."""

    connection_id: int
    on_close: list[Callable[[], None]]


class Entry:
    """One share partition and what the runtime keeps beside it."""

    __slots__ = (
        "fair",
        "key",
        "leader_epoch",
        "partition",
        "passes",
        "sp",
        "state_epoch",
        "streak",
        "topic",
        "view",
        "waiters",
    )

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
        # Long polls waiting for its records, the longest waiting first.
        self.waiters: dict[trio.Event, None] = {}
        # How many woken long polls that found nothing here may still wake the next one
        # (:meth:`SharePartitionManager.pass_on`): at most one round of the waiters.
        self.passes = 0
        # The member that acquired here last, and how many acquisitions in a row it made.
        self.streak: tuple[str, int] = ("", 0)
        self.fair = FairShare()  # the members fetching it, and how much each may take

    def wake(self) -> None:
        """Its records may be acquirable: every long poll waiting on it tries again."""
        for event in self.waiters:
            event.set()
        self.waiters.clear()

    def wake_next(self) -> bool:
        """Wake the long poll that has waited longest here; whether there was one."""
        waiters = self.waiters
        while waiters:
            event = next(iter(waiters))
            del waiters[event]
            if not event.is_set():  # (one set by another partition it waits on is gone already)
                event.set()
                return True
        return False


def _wake(waiters: set[trio.Event]) -> None:
    """Set every waiter's event and forget them (each wait registers anew)."""
    for event in waiters:
        event.set()
    waiters.clear()


def _wake_now_or_later(e: Entry, woken: set[Entry] | None) -> None:
    """Wake ``e``'s long polls now, or leave it in ``woken`` for the caller to wake."""
    if woken is None:
        e.wake()
    else:
        woken.add(e)


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
        settings: Callable[[], ShareManagerSettings] | None = None,
        peers: BrokerPeers | None = None,
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
        self._loading: set[Key] = set()  # share-partitions being loaded in the background
        self._load_errors: dict[Key, int] = {}  # how the last background load of each failed
        # Members the group's target assignment gives each share-partition (from the group
        # coordinator, when it runs on this broker): group id -> (topic id, partition) -> count.
        self._expected: dict[str, dict[tuple[uuid.UUID, int], int]] = {}
        # Long polls woken when a background load ends, and at shutdown.
        self._load_waiters: set[trio.Event] = set()
        self._stop_waiters: set[trio.Event] = set()
        self._timer = LockTimer()
        self._nursery: trio.Nursery | None = None
        self._watched: set[int] = set()
        # The broker's settings as in force now (their defaults without a config).
        self._broker = settings or FixedSettings().view(ShareManagerSettings)
        self._peers = peers  # in a cluster: dead-letter topic partitions led by other brokers
        self._dlq_busy: set[Key] = set()
        self._dlq_warned: set[tuple[str, str]] = set()

    # --- settings ---------------------------------------------------------------

    def settings(self, group_id: str) -> ShareGroupSettings:
        """The group-level settings the group's share partitions run with (group configs)."""
        return self._group_configs.share_settings(group_id)

    def dead_letter_target(self, group_id: str) -> dlq.DeadLetterTarget | None:
        """The group's dead-letter topic, if it has one and share.version is 2."""
        s = self.settings(group_id)
        if not s.dlq_topic or self._broker().share_version < 2:
            return None
        return dlq.DeadLetterTarget(s.dlq_topic, s.dlq_copy_record)

    def _redelivery_delay(self, s: ShareGroupSettings) -> Callable[[int], int] | None:
        return s.redelivery_delay_ms if s.backoff_ms > 0 else None

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
            self.kick_dead_letters(e)  # ARCHIVING read back: copy again
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
        """Load the share-partitions of ``keys`` not in memory yet, concurrently, and wait for them.

        Each first load writes its initial state durably; loading them together
        lets one group-commit fsync round cover all of them. Errors are left
        for :meth:`entry` / :meth:`lookup` to report per partition.
        """
        missing = [k for k in keys if (group_id, *k) not in self._entries]
        if len(missing) == 1:
            await self.entry(group_id, *missing[0])
        elif missing:
            async with trio.open_nursery() as nursery:
                for topic_id, partition in missing:
                    nursery.start_soon(self.entry, group_id, topic_id, partition)

    def lookup_loaded(self, group_id: str, topic_id: uuid.UUID, partition: int) -> Entry | None:
        """The share-partition if it is in memory now."""
        return self._entries.get((group_id, topic_id, partition))

    def lookup(self, group_id: str, topic_id: uuid.UUID, partition: int) -> tuple[Entry | None, int]:
        """The share-partition if it is in memory, without waiting; else (None, error code).

        A share-partition not loaded yet is loaded in the background and answered
        COORDINATOR_LOAD_IN_PROGRESS meanwhile (waiting long polls are woken when it
        is there); errors this broker can tell at once (unknown topic, not the
        leader) are answered as they are, and so is, once, the error its last
        background load ended with (then the next lookup loads it again).
        """
        key = (group_id, topic_id, partition)
        e = self._entries.get(key)
        if e is not None:
            return e, ErrorCode.NONE
        code = self._leader_error(topic_id, partition) or self._load_errors.pop(key, ErrorCode.NONE)
        if code:
            return None, code
        self.load_in_background(group_id, [(topic_id, partition)])
        return None, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS

    def load_in_background(self, group_id: str, keys: list[tuple[uuid.UUID, int]]) -> None:
        """Start loading the share-partitions of ``keys`` not in memory yet, concurrently.

        Each first load writes its initial state durably; loading them together lets
        one group-commit fsync round cover all of them. A fetch does not wait for
        them: it answers with the share-partitions that are there (as Kafka answers
        with the share-partitions initialized so far), and the others join the
        answers from the next fetch on.
        """
        for topic_id, partition in keys:
            key = (group_id, topic_id, partition)
            if key in self._entries or key in self._loading or self._nursery is None:
                continue
            self._loading.add(key)
            self._nursery.start_soon(self._load, key)

    async def _load(self, key: Key) -> None:
        try:
            _, code = await self.entry(*key)
            if code:
                self._load_errors[key] = code  # for the next lookup to answer
        finally:
            self._loading.discard(key)
            _wake(self._load_waiters)

    def _leader_error(self, topic_id: uuid.UUID, partition: int) -> int:
        """UNKNOWN_TOPIC_ID, or this broker's error as the partition's leader; NONE if it leads."""
        info = self._metadata.image.topic_by_id(topic_id)
        if info is None:
            return ErrorCode.UNKNOWN_TOPIC_ID
        try:
            self._replicas.leader(info.name, partition)
        except KafkaError as exc:
            return exc.code
        return ErrorCode.NONE

    def forget_group(self, group_id: str) -> None:
        """Drop the group's share partitions from memory (their state was re-initialised or deleted)."""
        self._expected.pop(group_id, None)
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

    def expect_members(self, group_id: str, sharing: dict[tuple[uuid.UUID, int], int]) -> None:
        """The group's new target assignment gives each share-partition this many members.

        A member's part of a share-partition is sized by the larger of this and the
        members fetching it, so that the first member to fetch does not take what
        the others, assigned but not fetching yet, are about to come for.
        """
        if sharing:
            self._expected[group_id] = sharing
        else:
            self._expected.pop(group_id, None)

    def forget_fetcher(self, group_id: str, member_id: str, keys: list[tuple[uuid.UUID, int]]) -> None:
        """The member no longer fetches these share-partitions (it forgot them from its session)."""
        for topic_id, partition in keys:
            e = self._entries.get((group_id, topic_id, partition))
            if e is not None and e.fair.forget(member_id):
                e.wake()  # the others' shares grew

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
        self,
        e: Entry,
        member_id: str,
        *,
        max_records: int,
        batch_size: int | None,
        mode: int,
        max_bytes: int,
        min_one: bool = True,
    ) -> list[AcquiredRange]:
        s = self.settings(e.key[0])
        now = self._clock()
        held = e.sp.held_by(member_id)
        members = e.fair.fetching(member_id, now, s.lock_duration_ms, held)
        expected = self._expected.get(e.key[0])
        if expected is not None:
            members = max(members, expected.get(e.key[1:], 0))
        # Several members share the partition: this fetch takes its part (broker.share.fairness).
        span = e.sp.window(s.max_record_locks) if members > 1 else None
        share = e.fair.part(member_id, members, s.max_record_locks, held, span)
        if share == 0:
            return []
        ranges = e.sp.acquire(
            member_id,
            max_records=max_records,
            now_ms=now,
            batch_size=batch_size,
            mode=mode,
            lock_duration_ms=s.lock_duration_ms,
            delivery_count_limit=s.delivery_count_limit,
            max_in_flight=s.max_record_locks,
            isolation=s.isolation_level,
            max_bytes=max_bytes,
            min_one=min_one,
            share_limit=share,
            dead_letter=self.dead_letter_target(e.key[0]) is not None,
            key_ordering=s.key_ordering,
        )
        if ranges:
            last, run = e.streak
            e.streak = (member_id, run + 1 if last == member_id else 1)
            e.fair.acquired(member_id, now, sum(r.last_offset - r.first_offset + 1 for r in ranges))
            self._timer.due_by(e.sp.next_lock_deadline())
            again = sum(r.last_offset - r.first_offset + 1 for r in ranges if r.delivery_count > 1)
            if again:
                self._metrics.redelivered(e.key[0], again)
        self.kick_dead_letters(e)  # records spent under a lowered limit
        return ranges

    async def acknowledge(
        self, e: Entry, member_id: str, batches: list[tuple[int, int, list[int]]], woken: set[Entry] | None = None
    ) -> int:
        """Apply one partition's acknowledgements durably; an error code.

        The long polls waiting on records these acknowledgements free are woken, or,
        given ``woken``, the entry is added to it for the caller to give the turn to the
        longest waiting of them (:meth:`give_turn`).
        """
        s = self.settings(e.key[0])
        result = e.sp.acknowledge(
            member_id,
            batches,
            self._clock(),
            s.delivery_count_limit,
            lock_duration_ms=s.lock_duration_ms,
            dead_letter=self.dead_letter_target(e.key[0]) is not None,
            redelivery_delay=self._redelivery_delay(s),
        )
        if result.error_code:
            return result.error_code
        if result.delta is not None:
            code = await self.persist(e, result.delta, woken)
            if code:
                return code
        self._metrics.acknowledged(batches)
        if any(t == 2 for _, _, types in batches for t in types):  # Release: records came back
            _wake_now_or_later(e, woken)
            if s.backoff_ms > 0:
                self._timer.due_by(e.sp.next_redelivery_ms())
        elif s.key_ordering:
            _wake_now_or_later(e, woken)  # a settled record lets the next record of its key go out
        return ErrorCode.NONE

    def acquirable(self, e: Entry) -> bool:
        """Whether ``e`` may have records to hand out (cheap; may say yes when it has not)."""
        s = self.settings(e.key[0])
        return e.sp.can_acquire(max_in_flight=s.max_record_locks, isolation=s.isolation_level)

    def turn_over(self, entries: set[Entry], member_id: str) -> set[Entry]:
        """Those of ``entries`` where ``member_id`` has acquired :data:`TURN_ACQUISITIONS`
        times in a row: its turn there is over while other members wait."""
        return {e for e in entries if e.streak[0] == member_id and e.streak[1] >= TURN_ACQUISITIONS}

    def give_turn(self, entries: set[Entry]) -> set[Entry]:
        """Records may be left in ``entries`` (freed by acknowledgements, or left by a fetch
        that took its part): wake, in each, the long poll that has waited longest; the
        entries where one was woken. The fetch woken takes its part and, if records are
        still left, wakes the next (:meth:`pass_on` when it takes nothing), so waiting
        members are served in turn and none is woken for nothing."""
        given: set[Entry] = set()
        for e in entries:
            if e.waiters and self.acquirable(e):
                # One more pass than there are waiters: the fetch giving its turn waits too.
                e.passes = len(e.waiters) + 1
                if e.wake_next():
                    given.add(e)
        return given

    def pass_on(self, e: Entry) -> None:
        """A woken long poll found nothing it could take in ``e``: wake the next one, at
        most once for each long poll that was waiting when the records came; when they
        have all passed, every waiting long poll once more (none is left waiting while
        records may be there, and no round goes on for ever)."""
        if e.passes < 0 or not e.waiters or not self.acquirable(e):
            return
        if e.passes > 0:
            e.passes -= 1
            e.wake_next()
        else:
            e.passes = -1
            e.wake()

    async def persist(self, e: Entry, delta: Delta, woken: set[Entry] | None = None) -> int:
        """Write ``delta`` durably, then confirm it; undo it if the write fails."""
        group_id, topic_id, partition = e.key
        started = trio.current_time()
        result = await self.persister.write(
            group_id,
            topic_id,
            partition,
            state_epoch=e.state_epoch,
            leader_epoch=e.leader_epoch,
            start_offset=delta.start_offset,
            state_batches=delta.batches,
        )
        self._metrics.observe_share_state_write(trio.current_time() - started)
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
        start = e.sp.start_offset
        freed = e.sp.on_persisted(delta)
        if freed or e.sp.start_offset > start:
            # Records released are durable and may go out again, or the window moved on:
            # fetches held back by its limit may read new records.
            _wake_now_or_later(e, woken)
        self.kick_dead_letters(e)
        return ErrorCode.NONE

    async def release_member(self, group_id: str, member_id: str) -> None:
        """Give back every record the member holds in the group (session closed, left, disconnected)."""
        s = self.settings(group_id)
        dead_letter = self.dead_letter_target(group_id) is not None
        for e in self.entries_of_group(group_id):
            e.fair.forget(member_id)
            delta = e.sp.release_member(
                member_id,
                self._clock(),
                s.delivery_count_limit,
                dead_letter=dead_letter,
                redelivery_delay=self._redelivery_delay(s),
            )
            if s.backoff_ms > 0:  # the timer wakes fetches when the released records are due
                self._timer.due_by(e.sp.next_redelivery_ms())
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
        if timeout_s <= 0 or self._lifecycle.stopping:
            return
        # One event, registered with everything that can end the wait.
        woken = trio.Event()
        for e in entries:
            e.waiters[woken] = None
        if self._loading:
            self._load_waiters.add(woken)
        self._stop_waiters.add(woken)
        try:
            with trio.move_on_after(timeout_s):
                await woken.wait()
        finally:
            for e in entries:
                e.waiters.pop(woken, None)
            self._load_waiters.discard(woken)
            self._stop_waiters.discard(woken)

    # --- lock expiry ---------------------------------------------------------------

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Expire acquisition locks as they fall due; host background releases."""
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            nursery.start_soon(self._wake_at_stop)
            task_status.started()
            await self._expire_locks_forever()

    async def _wake_at_stop(self) -> None:
        """A shutdown answers the long polls at once instead of after their timeout."""
        await self._lifecycle.stopped.wait()
        _wake(self._stop_waiters)

    async def _expire_locks_forever(self) -> None:
        while True:
            # Before scanning: acquisitions during the scan's awaits wake the next scan.
            self._timer.scanning()
            now = self._clock()
            nearest: int | None = None
            for e in list(self._entries.values()):
                if e.sp.redeliveries_due(now):
                    e.wake()  # records held by their redelivery backoff may go out
                deadline = e.sp.next_lock_deadline()
                if deadline is not None and deadline <= now:
                    s = self.settings(e.key[0])
                    result = e.sp.expire_locks(
                        now,
                        s.delivery_count_limit,
                        dead_letter=self.dead_letter_target(e.key[0]) is not None,
                        redelivery_delay=self._redelivery_delay(s),
                    )
                    if result.delta is not None:
                        await self.persist(e, result.delta)
                    if result.available:
                        e.wake()
                    deadline = e.sp.next_lock_deadline()
                # after the expiry: records it released may wait for their backoff
                due = e.sp.next_redelivery_ms()
                for t in (deadline, due):
                    if t is not None and (nearest is None or t < nearest):
                        nearest = t
            self._timer.sleeping_until(nearest)
            delay = 3600.0 if nearest is None else max(0.0, (nearest - self._clock()) / 1000)
            with trio.move_on_after(delay):
                await self._timer.changed.wait()

    # --- dead letters (KIP-1191) ------------------------------------------------------

    def kick_dead_letters(self, e: Entry) -> None:
        """Start copying the share-partition's waiting dead letters, unless already under way."""
        if not e.sp.has_dead_letters() or e.key in self._dlq_busy or self._nursery is None:
            return
        self._dlq_busy.add(e.key)
        self._nursery.start_soon(self._dead_letter_loop, e)

    async def _dead_letter_loop(self, e: Entry) -> None:
        try:
            while self._entries.get(e.key) is e and not self._lifecycle.stopping:
                letters = e.sp.take_dead_letters()
                if not letters:
                    return
                if not await self._dead_letter(e, letters):
                    e.sp.return_dead_letters(letters)
                    await trio.sleep(DLQ_RETRY_S)
        finally:
            self._dlq_busy.discard(e.key)

    async def _dead_letter(self, e: Entry, letters: list[DeadLetter]) -> bool:
        """Copy ``letters`` to the dead-letter topic, then archive them. False: try again later."""
        group_id = e.key[0]
        target = self.dead_letter_target(group_id)
        to_copy = [d for d in letters if not d.written]
        if to_copy:
            if target is None:
                self._dlq_warn(group_id, "", "the group has no dead-letter topic now (or share.version < 2)")
            else:
                written = await self._write_copies(e, target, to_copy)
                if written is None:
                    return False
        for d in letters:
            delta = e.sp.dead_lettered(d.first_offset, d.last_offset, self._clock())
            if delta is not None:
                code = await self.persist(e, delta)
                if code:
                    return False  # rolled back: ARCHIVING again, its copy already written
        return True

    async def _write_copies(self, e: Entry, target: dlq.DeadLetterTarget, letters: list[DeadLetter]) -> bool | None:
        """Append the copies durably. True: written; False: archived without a copy (the topic
        cannot take them, as Kafka); None: failed, try again."""
        group_id = e.key[0]
        prefix = self._broker().dlq_topic_name_prefix
        topic = self._metadata.image.topic(target.topic)
        if topic is None and prefix and target.topic.startswith(prefix):
            if self._broker().dlq_auto_create_topics_enable:
                try:
                    await self._metadata.create_topic(target.topic, -1, -1, {dlq.GROUP_ENABLE: "true"})
                    log.info("dead_letter_topic_created", group=group_id, topic=target.topic)
                except KafkaError as exc:
                    if exc.code != ErrorCode.TOPIC_ALREADY_EXISTS:
                        log.warning("dead_letter_topic_create_failed", topic=target.topic, error=str(exc))
                        return None
                topic = self._metadata.image.topic(target.topic)
                if topic is None:
                    return None
        why = dlq.unusable_reason(target.topic, prefix, None if topic is None else dict(topic.configs))
        if why is not None or topic is None:
            self._dlq_warn(group_id, target.topic, why or "no topic")
            return False
        limit = self.settings(group_id).delivery_count_limit
        index = dlq.dead_letter_partition(e.partition, len(topic.partitions))
        batches: list[bytes] = []
        for d in letters:
            raw = e.view.records_covering(d.first_offset, d.last_offset, DLQ_READ_BYTES)
            records = dlq.source_records(raw, d.first_offset, d.last_offset)
            batch = dlq.dead_letter_batch(
                [d],
                group=group_id,
                topic=e.topic,
                partition=e.partition,
                limit=limit,
                copy_record=target.copy_record,
                records=records,
                now_ms=self._clock(),
            )
            if batch is not None:
                batches.append(batch)
        try:
            leader = topic.partitions[index].leader
            if leader == self._replicas.node_id or self._peers is None:
                out = self._replicas.leader(target.topic, index)
                for batch in batches:
                    out.append(batch)
                await out.wait_replicated()
            elif batches:
                await self._produce_remote(leader, target.topic, index, b"".join(batches))
        except KafkaError as exc:
            log.warning("dead_letter_write_failed", group=group_id, topic=target.topic, error=str(exc))
            return None
        self._metrics.dead_lettered(group_id, sum(d.last_offset - d.first_offset + 1 for d in letters))
        return True

    async def _produce_remote(self, leader: int, topic: str, partition: int, records: bytes) -> None:
        """Produce (acks=all) to the partition's leader, another broker of the cluster."""
        if leader < 0 or self._peers is None:
            raise KafkaError(ErrorCode.LEADER_NOT_AVAILABLE, f"{topic}-{partition} has no leader")
        request = ProduceRequest(
            acks=-1,
            timeout_ms=30_000,
            topic_data=[
                TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=partition, records=records)])
            ],
        )
        response = await self._peers.call(leader, request, DLQ_PRODUCE_VERSION)
        code = response.responses[0].partition_responses[0].error_code
        if code:
            raise KafkaError(code, f"dead-letter produce to {topic}-{partition} on broker {leader}")

    def _dlq_warn(self, group_id: str, topic: str, why: str) -> None:
        if (group_id, why) in self._dlq_warned:
            return
        self._dlq_warned.add((group_id, why))
        log.warning("dead_letter_skipped", group=group_id, topic=topic, reason=why, archived_without_copy=True)
