"""The replica manager: this broker's partitions, looked up with leadership checks.

It pairs every local partition log with the partition's state from the current
metadata image (leader, epoch, replicas, ISR), answers "may I append to / read
from this partition here" with Kafka's error codes, and wakes whatever waits
for new data in a partition (fetch long-polls, share-partitions) after every
append and every move of the high watermark.

In a cluster (:meth:`ReplicaManager.attach_replication`) it also runs replication:
on every new image each local replica takes up its role (leader: its epoch
starts at the log end; follower: it is handed to the fetcher of its leader,
:mod:`broker.replica.fetcher`), and one task keeps the ISR of the partitions led
here: followers behind for longer than ``replica.lag.time.max.ms`` are proposed
out (looked for every half of that bound, as Kafka does), followers that caught
up are proposed back in (checked on their fetches), and the proposals are
written to the cluster metadata, one compare-and-swap per topic
(:class:`IsrWriter`).

Followers fetch in incremental sessions that leave out idle partitions, so a
follower's fetch request counts for every partition it holds at the leader's
log end (:meth:`ReplicaManager.follower_request`): it is caught up on those as
of its latest request, without the leader touching them.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Protocol

import structlog
import trio

from broker.log.commit import GroupCommitter
from broker.log.manager import LogManager
from broker.log.partition import PartitionLog
from broker.metadata.image import MetadataImage
from broker.metadata.source import MetadataSource
from broker.protocol.errors import ErrorCode, KafkaError
from broker.replica.partition import NO_EPOCH, Partition

__all__ = ["AppendListener", "IsrWriter", "ReplicaManager"]

log = structlog.get_logger("sharebroker.replica")

AppendListener = Callable[[str, int], None]
# Kafka's replica.lag.time.max.ms default.
DEFAULT_LAG_MAX_MS = 30_000
# The ISR task looks for followers to drop every half of the lag bound, as Kafka does:
# a pass walks every partition led here (~1 us each), so 30,000 of them cost 30 ms
# every 15 s by default, and a follower is out between 1 and 1.5 times the bound late.
SHRINK_CHECK_FRACTION = 0.5


class IsrWriter(Protocol):
    """Writes ISR changes to the cluster metadata (ClusterMetadata in a cluster)."""

    async def alter_isr(
        self,
        changes: Mapping[str, Sequence[tuple[int, int, int, tuple[int, ...]]]],
        broker_epochs: Mapping[int, int],
    ) -> dict[str, dict[int, int]]:
        """Write each topic's (partition, leader epoch, partition epoch, ISR) changes with
        compare-and-swap; returns {topic: {partition: error code}} (0 written), once this
        broker's image has them."""
        ...


class ReplicaManager:
    def __init__(
        self,
        node_id: int,
        logs: LogManager,
        metadata: MetadataSource,
        committer: GroupCommitter,
        *,
        clock: Callable[[], int] | None = None,
        lag_max_ms: Callable[[], int] | None = None,
    ) -> None:
        self.node_id = node_id
        self._logs = logs
        self._metadata = metadata
        self._committer = committer
        self._clock = clock or logs.now_ms
        self._lag_max_ms = lag_max_ms or (lambda: DEFAULT_LAG_MAX_MS)
        self._partitions: dict[tuple[str, int], Partition] = {}
        # The same partitions by topic: a new image touches only the topics it changed.
        self._by_topic: dict[str, dict[int, Partition]] = {}
        # One event per partition with a waiter: set (and dropped) by the next append.
        self._append_events: dict[tuple[str, int], trio.Event] = {}
        # Callbacks waiting for the next change of a partition (see watch).
        self._watchers: dict[tuple[str, int], set[Callable[[], None]]] = {}
        # {replica id: when its latest fetch request came} (followers of partitions led here),
        # and the broker epoch it came with.
        self._follower_requests: dict[int, int] = {}
        self._follower_epochs: dict[int, int] = {}
        self._listeners: list[AppendListener] = []
        self._lease_ok: Callable[[], bool] = lambda: True
        self._isr_writer: IsrWriter | None = None
        self._fetchers: Any = None  # broker.replica.fetcher.ReplicaFetcherManager
        self._isr_wake = trio.Event()
        self._expand: set[tuple[str, int]] = set()
        metadata.subscribe(self._image_changed)
        logs.log_swap_listeners.append(self._log_swapped)
        logs.log_open_listeners.append(self._logs_opened)

    def attach_replication(self, *, isr_writer: IsrWriter, fetchers: Any, lease_ok: Callable[[], bool]) -> None:
        """Replicate (a cluster member): ISR changes go through ``isr_writer``, followers
        fetch through ``fetchers``, and leadership lapses with the lease."""
        self._isr_writer = isr_writer
        self._fetchers = fetchers
        self._lease_ok = lease_ok
        for p in self._partitions.values():
            p._lease_ok = lease_ok  # built before the cluster was attached

    # --- lookups ---------------------------------------------------------------------

    def partition(self, topic: str, index: int) -> Partition | None:
        """The local replica of ``topic``-``index`` in any role, or None."""
        key = (topic, index)
        p = self._partitions.get(key)
        if p is not None and p.log is self._logs.partition(topic, index):
            return p
        return self._make(topic, index)

    def _make(self, topic: str, index: int) -> Partition | None:
        log_ = self._logs.partition(topic, index)
        image = self._metadata.image
        t = image.topic(topic)
        state = t.partition(index) if t is not None else None
        if log_ is None or state is None or t is None:
            self._forget(topic, index)
            return None
        old = self._partitions.get((topic, index))
        if old is not None and self._fetchers is not None:
            self._fetchers.remove(old)
        p = Partition(
            log_,
            state,
            node_id=self.node_id,
            topic_id=t.topic_id,
            committer=self._committer,
            appended=self.appended,
            lease_ok=self._lease_ok,
            last_request_ms=self.last_follower_request_ms,
        )
        self._partitions[(topic, index)] = p
        self._by_topic.setdefault(topic, {})[index] = p
        log_.start_moved = lambda: self.appended(topic, index)
        self._take_role(p, state, self._clock())
        return p

    def leader(self, topic: str, index: int, current_leader_epoch: int = NO_EPOCH) -> Partition:
        """The partition, if this broker leads it at the client's epoch (raises KafkaError)."""
        p = self.partition(topic, index)
        if p is None:
            if self._logs.is_offline(topic, index):
                # Its log directory failed (Kafka's offline partition).
                raise KafkaError(ErrorCode.KAFKA_STORAGE_ERROR, f"{topic}-{index} is offline: its log directory failed")
            if self._metadata.image.partition(topic, index) is not None:
                raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER)
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)
        p.check_leader(current_leader_epoch)
        return p

    def in_cluster(self, topic: str, index: int) -> bool:
        """Whether the partition exists in the cluster (wherever it is placed)."""
        return self._metadata.image.partition(topic, index) is not None

    def local_partitions(self) -> list[Partition]:
        return list(self._partitions.values())

    def registered_epoch(self, node_id: int) -> int | None:
        """The broker epoch ``node_id`` is registered with now (None: not registered)."""
        b = self._metadata.image.broker(node_id)
        return None if b is None or b.fenced else b.epoch

    # --- roles -----------------------------------------------------------------------

    def _log_swapped(self, old: PartitionLog, new: PartitionLog) -> None:
        """A log-directory move swapped the partition's log: the replica carries on with
        the new one (same offsets, same data), keeping its waiters, followers and role."""
        p = self._partitions.get((new.topic, new.partition))
        if p is not None and p.log is old:
            p.log = new

    def _forget(self, topic: str, index: int) -> None:
        self._partitions.pop((topic, index), None)
        in_topic = self._by_topic.get(topic)
        if in_topic is not None:
            in_topic.pop(index, None)
            if not in_topic:
                del self._by_topic[topic]

    def _image_changed(self, old: MetadataImage, new: MetadataImage) -> None:
        """Every local replica of the topics the new image changed takes up its role."""
        now = self._clock()
        if new.changed is None:
            names: Iterable[str] = {*self._by_topic, *self._logs.topics}
        else:
            names = new.changed
        for name in names:
            for index, p in list(self._by_topic.get(name, {}).items()):
                key = (name, index)
                t = new.topic(name)
                state = t.partition(index) if t is not None else None
                if state is None or t is None or t.topic_id != p.topic_id or p.log is not self._logs.partition(*key):
                    self._forget(name, index)
                    if self._fetchers is not None:
                        self._fetchers.remove(p)
                    p.update_state(dataclasses.replace(p.state, leader=-1), now)  # fails acks=all waiters
                    self.appended(*key)  # wake waiters: their partition is gone
                else:
                    self._take_role(p, state, now)
            # Local replicas not looked up yet take up their roles too (a follower must fetch).
            info = self._logs.topics.get(name)
            if info is None or new.topic(name) is None:
                continue
            known = self._by_topic.get(name, {})
            # A log whose opening was deferred takes its role when it opens (_logs_opened).
            for index in range(info.partitions):
                if index not in known and self._logs.opened(name, index) is not None:
                    self._make(name, index)

    def _logs_opened(self, keys: list[tuple[str, int]]) -> None:
        """Deferred logs opened in the background take up their roles (a follower fetches)."""
        for key in keys:
            if key not in self._partitions and self._metadata.image.partition(*key) is not None:
                self._make(*key)

    def _take_role(self, p: Partition, state: Any, now: int) -> None:
        was_leader = p.is_leader_here
        old = p.state
        p.update_state(state, now)
        if (was_leader and not p.is_leader_here) or (old.leader, old.leader_epoch) != (
            state.leader,
            state.leader_epoch,
        ):
            self.appended(p.topic, p.index)  # waiters on a leader that moved away; fetch sessions
        if self._fetchers is None:
            return
        if state.leader == self.node_id or self.node_id not in state.replicas or state.leader < 0:
            self._fetchers.remove(p)
        else:
            self._fetchers.follow(p, state.leader, state.leader_epoch)

    # --- replication: followers' fetches and the ISR -----------------------------------

    def follower_request(self, replica: int, broker_epoch: int = -1) -> None:
        """A follower's fetch request came (whatever partitions it names), from the
        follower registered at ``broker_epoch`` (KIP-903; -1: not said)."""
        self._follower_requests[replica] = self._clock()
        if broker_epoch >= 0:
            self._follower_epochs[replica] = broker_epoch

    def follower_epoch(self, replica: int) -> int:
        """The broker epoch of ``replica``'s latest fetch request (-1: none said)."""
        return self._follower_epochs.get(replica, -1)

    def last_follower_request_ms(self, replica: int) -> int:
        """When ``replica``'s latest fetch request came (0: none yet)."""
        return self._follower_requests.get(replica, 0)

    def follower_fetched(
        self, p: Partition, replica: int, fetch_offset: int, log_start_offset: int, broker_epoch: int
    ) -> None:
        """Record a follower's fetch on a partition led here (raises KafkaError)."""
        p.follower_fetched(replica, fetch_offset, log_start_offset, broker_epoch, self._clock())
        if replica not in p.state.isr and p.pending_isr is None:
            f = p.followers[replica]
            if f.log_end_offset >= p.high_watermark and f.log_end_offset >= p.epoch_start_offset:
                self._expand.add((p.topic, p.index))
                self._isr_wake.set()

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """The ISR task (and, in a cluster, the fetchers) until cancelled."""
        async with trio.open_nursery() as nursery:
            if self._fetchers is not None:
                await nursery.start(self._fetchers.run)
            if self._isr_writer is not None:
                nursery.start_soon(self._isr_loop)
            task_status.started()

    async def _isr_loop(self) -> None:
        next_shrink = trio.current_time()
        while True:
            with trio.move_on_at(next_shrink):
                await self._isr_wake.wait()
            self._isr_wake = trio.Event()
            shrink = trio.current_time() >= next_shrink
            if shrink:
                next_shrink = trio.current_time() + self._lag_max_ms() / 1000 * SHRINK_CHECK_FRACTION
            await self.update_isrs(shrink=shrink)

    async def update_isrs(self, *, shrink: bool = True) -> None:
        """Propose and write the ISR changes due now, one write per topic: expansions of
        caught-up followers, and with ``shrink`` the shrinks of lagging ones (a pass
        over every partition led here)."""
        writer = self._isr_writer
        if writer is None or not self._lease_ok():
            return
        now = self._clock()
        lag = self._lag_max_ms()
        expand, self._expand = self._expand, set()
        by_topic: dict[str, list[tuple[Partition, tuple[int, ...]]]] = defaultdict(list)
        if shrink:
            candidates: Iterable[Partition] = self._partitions.values()
        else:
            candidates = [p for key in expand if (p := self._partitions.get(key)) is not None]
        for p in candidates:
            if not p.is_leader_here:
                continue
            new = p.isr_to_shrink(now, lag) if shrink else None
            if new is None and (shrink or (p.topic, p.index) in expand):
                # Every pass looks for followers to take back too: an idle partition's
                # follower is not read again after an expansion that failed to be written.
                new = p.isr_to_expand(self.registered_epoch, self.follower_epoch)
            if new is None or new == p.state.isr:
                continue
            p.pending_isr = new
            by_topic[p.topic].append((p, new))
        if not by_topic:
            return
        await self._write_isrs(writer, by_topic)

    async def _write_isrs(
        self, writer: IsrWriter, by_topic: Mapping[str, list[tuple[Partition, tuple[int, ...]]]]
    ) -> None:
        """Write every topic's proposals at once (the writer packs them into few etcd
        transactions), then take up what was written."""
        changes = {
            topic: [(p.index, p.state.leader_epoch, p.state.partition_epoch, isr) for p, isr in proposals]
            for topic, proposals in by_topic.items()
        }
        epochs = {}
        for proposals in by_topic.values():
            for p, isr in proposals:
                for r in isr:
                    f = p.followers.get(r)
                    epoch = max(f.broker_epoch if f is not None else -1, self.follower_epoch(r))
                    if epoch >= 0:
                        epochs[r] = epoch
        try:
            results = await writer.alter_isr(changes, epochs)
        except KafkaError as exc:
            results = {topic: {p.index: exc.code for p, _ in proposals} for topic, proposals in by_topic.items()}
            log.warning("isr_write_failed", topics=len(by_topic), error=str(exc))
        for topic, proposals in by_topic.items():
            self._isr_written(topic, proposals, results.get(topic, {}))

    def _isr_written(
        self, topic: str, proposals: list[tuple[Partition, tuple[int, ...]]], results: Mapping[int, int]
    ) -> None:
        changed: dict[int, list[int]] = {}
        for p, isr in proposals:
            code = results.get(p.index, ErrorCode.UNKNOWN_SERVER_ERROR)
            if code:
                if p.pending_isr == isr:
                    p.pending_isr = None
                log.info("isr_change_refused", topic=topic, partition=p.index, isr=list(isr), error=int(code))
            else:
                changed[p.index] = list(isr)
            p.maybe_advance_high_watermark()
        if changed:
            # One line per topic: thousands of partitions rejoin the ISR after a restart.
            log.info("isr_changed", topic=topic, isr={str(i): isr for i, isr in sorted(changed.items())})

    # --- wake-ups --------------------------------------------------------------------

    def add_append_listener(self, listener: AppendListener) -> None:
        """Called with (topic, partition) after every append (share-partitions wake their fetches)."""
        self._listeners.append(listener)

    def appended(self, topic: str, index: int) -> None:
        """Wake everything waiting for data in ``topic``-``index`` (also called when its
        high watermark or log start moves, or its leadership changes)."""
        key = (topic, index)
        event = self._append_events.pop(key, None)
        if event is not None:
            event.set()
        watchers = self._watchers.pop(key, None)
        if watchers:
            for callback in watchers:
                callback()
        for listener in self._listeners:
            listener(topic, index)

    def watch(self, keys: Iterable[tuple[str, int]], callback: Callable[[], None]) -> Callable[[], None]:
        """Call ``callback`` at the next change of any of ``keys`` ((topic, partition)), once
        per partition that changes; returns the function that stops watching. One callback
        for many partitions: a fetch over thousands of them parks without a task each."""
        watched = list(keys)
        for key in watched:
            self._watchers.setdefault(key, set()).add(callback)

        def unwatch() -> None:
            for key in watched:
                callbacks = self._watchers.get(key)
                if callbacks is not None:
                    callbacks.discard(callback)
                    if not callbacks:
                        del self._watchers[key]

        return unwatch

    def append_event(self, topic: str, index: int) -> trio.Event:
        """An event set by the next append to ``topic``-``index``."""
        key = (topic, index)
        event = self._append_events.get(key)
        if event is None:
            event = self._append_events[key] = trio.Event()
        return event
