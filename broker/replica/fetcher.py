"""Followers: one fetcher per leader broker copies that leader's partitions here.

A follower replicates with Kafka's own requests over the inter-broker listener
(:class:`~broker.replica.interbroker.BrokerPeers`):

1. **Truncation.** When a replica starts following a leader at a new leader
   epoch, its fetcher first asks that leader where the replica's latest epoch
   ends (OffsetForLeaderEpoch, key 23) and cuts its log there
   (:meth:`~broker.log.partition.PartitionLog.truncate_to`): records the old
   leader wrote but the new one never had go, as in Kafka. An answer for an
   epoch the replica does not know leads to one more round with its next
   older epoch.
2. **Fetching.** A Fetch (v16) names the follower (``replica_state``: replica
   id and broker epoch, KIP-903), every partition's fetch offset (its log end),
   current leader epoch and last fetched epoch; the leader long-polls up to
   ``replica.fetch.wait.max.ms``. Returned batches are appended as they are, the
   high watermark and log start offset taken from the leader. A diverging epoch
   in the answer truncates like step 1; OFFSET_OUT_OF_RANGE asks the leader for
   its log end and start (ListOffsets) and truncates, or starts over at the
   leader's log start.
3. **Durability.** Before the next fetch, which tells the leader how far this
   replica got, everything appended is fsynced (one group-commit round for all
   partitions of the fetch). A leader therefore counts a record as replicated
   only once it is on disk on every in-sync replica, and ``acks=all`` means
   fsynced on the whole ISR. Kafka's followers do not fsync (they rely on the
   other replicas); here brokers of a development cluster usually share one
   machine, so a power loss would reach every replica at once.

Errors of one partition (leadership moved, leader not ready) put that partition
aside for ``replica.fetch.backoff.ms`` while the others go on; a leader that
cannot be reached is retried after the same backoff. The fetcher of a leader
exists while this broker follows at least one partition there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import structlog
import trio

from broker.log.commit import GroupCommitter
from broker.log.epoch_cache import UNDEFINED_EPOCH, UNDEFINED_OFFSET
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic, ReplicaState
from broker.protocol.messages.list_offsets_request import ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic
from broker.protocol.messages.offset_for_leader_epoch_request import (
    OffsetForLeaderEpochRequest,
    OffsetForLeaderPartition,
    OffsetForLeaderTopic,
)
from broker.replica.interbroker import BrokerPeers
from broker.replica.partition import Partition

__all__ = ["ReplicaFetcherManager"]

log = structlog.get_logger("sharebroker.fetcher")

FETCH_VERSION = 16
OFFSET_FOR_LEADER_EPOCH_VERSION = 4
LIST_OFFSETS_VERSION = 7
# Kafka's defaults for the replica fetcher settings.
DEFAULTS = {
    "replica.fetch.wait.max.ms": 500,
    "replica.fetch.min.bytes": 1,
    "replica.fetch.max.bytes": 1_048_576,
    "replica.fetch.response.max.bytes": 10_485_760,
    "replica.fetch.backoff.ms": 1000,
    "replica.socket.timeout.ms": 30_000,
}
# Put aside after UNKNOWN_LEADER_EPOCH: the leader has not seen its own election yet,
# which takes one metadata watch round, so retry soon.
NOT_READY_BACKOFF_S = 0.05


class _Target:
    """One partition this broker follows, at the leader epoch it knows."""

    __slots__ = ("delay_until", "leader_epoch", "partition", "truncating")

    def __init__(self, partition: Partition, leader_epoch: int) -> None:
        self.partition = partition
        self.leader_epoch = leader_epoch
        self.truncating = True
        self.delay_until = 0.0

    @property
    def key(self) -> tuple[str, int]:
        return (self.partition.topic, self.partition.index)

    def current(self) -> bool:
        """Still a follower at the epoch it was assigned with."""
        p = self.partition
        return not p.is_leader_here and p.state.leader_epoch == self.leader_epoch and not p.log.closed


class _LeaderFetcher:
    def __init__(self, manager: ReplicaFetcherManager, leader: int) -> None:
        self.manager = manager
        self.leader = leader
        self.targets: dict[tuple[str, int], _Target] = {}
        self.changed = trio.Event()
        self.scope = trio.CancelScope()

    def wake(self) -> None:
        self.changed.set()
        self.changed = trio.Event()

    async def run(self) -> None:
        with self.scope:
            while True:
                try:
                    await self._round()
                except KafkaError as exc:
                    log.info("replica_fetch_failed", leader=self.leader, error=str(exc))
                    await self._backoff(self.manager.setting("replica.fetch.backoff.ms") / 1000)

    async def _backoff(self, seconds: float) -> None:
        changed = self.changed
        with trio.move_on_after(seconds):
            await changed.wait()

    async def _round(self) -> None:
        now = trio.current_time()
        ready = [t for t in self.targets.values() if t.delay_until <= now and t.current()]
        if not ready:
            later = [t.delay_until for t in self.targets.values() if t.delay_until > now]
            await self._backoff(min(later) - now if later else 3600.0)
            return
        truncating = [t for t in ready if t.truncating]
        if truncating:
            await self._truncate(truncating)
            return
        await self._fetch(ready)

    # --- truncation ------------------------------------------------------------------

    async def _truncate(self, targets: list[_Target]) -> None:
        by_topic: dict[str, list[_Target]] = {}
        for t in targets:
            p = t.partition
            if p.log.epochs.latest_epoch == UNDEFINED_EPOCH:
                # No epochs (an empty log): nothing past the high watermark can be trusted.
                p.log.truncate_to(p.log.high_watermark)
                t.truncating = False
                continue
            by_topic.setdefault(p.topic, []).append(t)
        if not by_topic:
            return
        request = OffsetForLeaderEpochRequest(
            replica_id=self.manager.node_id,
            topics=[
                OffsetForLeaderTopic(
                    topic=topic,
                    partitions=[
                        OffsetForLeaderPartition(
                            partition=t.partition.index,
                            current_leader_epoch=t.leader_epoch,
                            leader_epoch=t.partition.log.epochs.latest_epoch,
                        )
                        for t in ts
                    ],
                )
                for topic, ts in by_topic.items()
            ],
        )
        response = await self.manager.call(self.leader, request, OFFSET_FOR_LEADER_EPOCH_VERSION)
        for topic in response.topics:
            for r in topic.partitions:
                found = self.targets.get((topic.topic, r.partition))
                if found is None or not found.current() or not found.truncating:
                    continue
                if r.error_code:
                    self._put_aside(found, r.error_code)
                    continue
                self._apply_truncation(found, r.leader_epoch, r.end_offset)

    def _apply_truncation(self, t: _Target, leader_epoch: int, leader_end: int) -> None:
        """Kafka's ``getOffsetTruncationState``: cut where this log and the leader's diverge."""
        part_log = t.partition.log
        leo = part_log.log_end_offset
        if leader_end == UNDEFINED_OFFSET:
            target, done = leo, True  # the leader cannot tell: keep what we have
        elif leader_epoch == UNDEFINED_EPOCH:
            target, done = min(leader_end, leo), True
        else:
            epoch, end = part_log.epochs.end_offset_for(leader_epoch, leo)
            if epoch == UNDEFINED_EPOCH:
                target, done = min(leader_end, leo), True
            elif epoch != leader_epoch:
                # We do not know the leader's epoch: cut to the end of our epoch below it, ask again.
                target, done = min(end, leo), False
            else:
                target, done = min(end, leader_end, leo), True
        if target < leo:
            log.info(
                "replica_truncating",
                topic=t.partition.topic,
                partition=t.partition.index,
                leader=self.leader,
                leader_epoch=leader_epoch,
                leader_end_offset=leader_end,
                log_end_offset=leo,
                truncate_to=target,
            )
            part_log.truncate_to(target)
        t.truncating = not done

    # --- fetching --------------------------------------------------------------------

    async def _fetch(self, targets: list[_Target]) -> None:
        m = self.manager
        by_topic: dict[Any, list[_Target]] = {}
        for t in targets:
            by_topic.setdefault(t.partition.topic_id, []).append(t)
        broker_epoch = m.broker_epoch()
        request = FetchRequest(
            replica_state=ReplicaState(replica_id=m.node_id, replica_epoch=broker_epoch if broker_epoch else -1),
            max_wait_ms=m.setting("replica.fetch.wait.max.ms"),
            min_bytes=m.setting("replica.fetch.min.bytes"),
            max_bytes=m.setting("replica.fetch.response.max.bytes"),
            isolation_level=0,
            session_id=0,
            session_epoch=-1,
            topics=[
                FetchTopic(
                    topic_id=topic_id,
                    partitions=[
                        FetchPartition(
                            partition=t.partition.index,
                            current_leader_epoch=t.leader_epoch,
                            fetch_offset=t.partition.log.log_end_offset,
                            last_fetched_epoch=t.partition.log.epochs.latest_epoch,
                            log_start_offset=t.partition.log.log_start_offset,
                            partition_max_bytes=m.setting("replica.fetch.max.bytes"),
                        )
                        for t in ts
                    ],
                )
                for topic_id, ts in by_topic.items()
            ],
            forgotten_topics_data=[],
            rack_id="",
        )
        sent = {(t.partition.topic_id, t.partition.index): (t, t.partition.log.log_end_offset) for t in targets}
        timeout = m.setting("replica.socket.timeout.ms") / 1000 + request.max_wait_ms / 1000
        response = await m.call(self.leader, request, FETCH_VERSION, timeout_s=timeout)
        if response.error_code:
            raise KafkaError(ErrorCode.for_code(response.error_code), "fetch refused")
        appended: list[Partition] = []
        outs: list[_Target] = []
        for topic in response.responses:
            for pd in topic.partitions:
                found = sent.get((topic.topic_id, pd.partition_index))
                if found is None:
                    continue
                t, offset = found
                # Moved away or re-assigned while the fetch was out: drop the answer.
                if self.targets.get(t.key) is not t or not t.current() or t.truncating:
                    continue
                if t.partition.log.log_end_offset != offset:
                    continue
                if pd.error_code == ErrorCode.OFFSET_OUT_OF_RANGE:
                    outs.append(t)
                    continue
                if pd.error_code:
                    self._put_aside(t, pd.error_code)
                    continue
                if pd.diverging_epoch.epoch >= 0 or pd.diverging_epoch.end_offset >= 0:
                    self._apply_truncation(t, pd.diverging_epoch.epoch, pd.diverging_epoch.end_offset)
                    continue
                if self._apply_records(t, pd):
                    appended.append(t.partition)
        if appended:
            await m.durable(appended)
        for t in outs:
            await self._out_of_range(t)

    def _apply_records(self, t: _Target, pd: Any) -> bool:
        part_log = t.partition.log
        records = pd.records
        info = part_log.append_as_follower(records) if records else None
        if pd.high_watermark >= 0:
            part_log.update_high_watermark(pd.high_watermark)
        # The leader's log start moved (retention, DeleteRecords): ours follows, within
        # what this replica holds and knows to be committed.
        start = min(pd.log_start_offset, part_log.high_watermark)
        if start > part_log.log_start_offset:
            part_log.delete_records(start)
        return info is not None

    async def _out_of_range(self, t: _Target) -> None:
        """The leader refused our fetch offset: find where its log is and fit ours to it."""
        p = t.partition
        leo = p.log.log_end_offset
        latest = await self._list_offset(t, -1)
        if latest is None or not t.current():
            return
        if latest < leo:
            log.warning("replica_ahead_of_leader", topic=p.topic, partition=p.index, leader_end=latest, log_end=leo)
            p.log.truncate_to(latest)
            return
        earliest = await self._list_offset(t, -2)
        if earliest is None or not t.current():
            return
        if leo < earliest:
            p.log.truncate_fully_and_start_at(earliest)
        else:
            self._put_aside(t, ErrorCode.OFFSET_OUT_OF_RANGE)

    async def _list_offset(self, t: _Target, timestamp: int) -> int | None:
        p = t.partition
        request = ListOffsetsRequest(
            replica_id=self.manager.node_id,
            isolation_level=0,
            topics=[
                ListOffsetsTopic(
                    name=p.topic,
                    partitions=[
                        ListOffsetsPartition(
                            partition_index=p.index, current_leader_epoch=t.leader_epoch, timestamp=timestamp
                        )
                    ],
                )
            ],
        )
        response = await self.manager.call(self.leader, request, LIST_OFFSETS_VERSION)
        r = response.topics[0].partitions[0]
        if r.error_code:
            self._put_aside(t, r.error_code)
            return None
        return int(r.offset)

    def _put_aside(self, t: _Target, code: int) -> None:
        if code == ErrorCode.UNKNOWN_LEADER_EPOCH:
            delay = NOT_READY_BACKOFF_S
        else:
            delay = self.manager.setting("replica.fetch.backoff.ms") / 1000
        t.delay_until = trio.current_time() + delay
        log.debug("replica_fetch_partition_error", topic=t.partition.topic, partition=t.partition.index, error=code)


class ReplicaFetcherManager:
    """The fetchers of this broker, one per leader it follows partitions of."""

    def __init__(
        self,
        *,
        node_id: int,
        peers: BrokerPeers,
        committer: GroupCommitter,
        broker_epoch: Callable[[], int | None],
        setting: Callable[[str], Any],
    ) -> None:
        self.node_id = node_id
        self._peers = peers
        self._committer = committer
        self.broker_epoch = broker_epoch
        self._setting = setting
        self._fetchers: dict[int, _LeaderFetcher] = {}
        self._where: dict[tuple[str, int], int] = {}
        self._nursery: trio.Nursery | None = None

    def setting(self, key: str) -> int:
        try:
            value = self._setting(key)
        except KeyError:
            value = None
        return int(DEFAULTS[key] if value is None else value)

    async def call(self, node: int, request: Any, version: int, *, timeout_s: float | None = None) -> Any:
        if timeout_s is None:
            timeout_s = self.setting("replica.socket.timeout.ms") / 1000
        # Its own connection: requests on one connection are handled one at a time.
        return await self._peers.call(node, request, version, timeout_s=timeout_s, channel="fetch")

    async def durable(self, partitions: list[Partition]) -> None:
        """fsync what the fetch appended (one group-commit round for all)."""
        async with trio.open_nursery() as nursery:
            for p in partitions:
                nursery.start_soon(self._durable_one, p)

    async def _durable_one(self, p: Partition) -> None:
        try:
            await self._committer.wait_durable(p.log)
        except KafkaError as exc:
            log.error("replica_flush_failed", topic=p.topic, partition=p.index, error=str(exc))

    # --- assignment ------------------------------------------------------------------

    def follow(self, p: Partition, leader: int, leader_epoch: int) -> None:
        """Fetch ``p`` from ``leader`` at ``leader_epoch`` (truncating first)."""
        key = (p.topic, p.index)
        where = self._where.get(key)
        if where == leader:
            t = self._fetchers[leader].targets.get(key)
            if t is not None and t.partition is p and t.leader_epoch == leader_epoch:
                return
        self.remove(p)
        fetcher = self._fetchers.get(leader)
        if fetcher is None:
            fetcher = self._fetchers[leader] = _LeaderFetcher(self, leader)
            if self._nursery is not None:
                self._nursery.start_soon(fetcher.run)
        fetcher.targets[key] = _Target(p, leader_epoch)
        self._where[key] = leader
        fetcher.wake()
        log.info("replica_following", topic=p.topic, partition=p.index, leader=leader, leader_epoch=leader_epoch)

    def remove(self, p: Partition) -> None:
        key = (p.topic, p.index)
        leader = self._where.pop(key, None)
        if leader is None:
            return
        fetcher = self._fetchers.get(leader)
        if fetcher is None:
            return
        fetcher.targets.pop(key, None)
        if not fetcher.targets:
            fetcher.scope.cancel()
            del self._fetchers[leader]
        else:
            fetcher.wake()

    def following(self) -> dict[tuple[str, int], int]:
        """{(topic, partition): leader} of every partition fetched."""
        return dict(self._where)

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            for fetcher in self._fetchers.values():
                nursery.start_soon(fetcher.run)
            task_status.started()
            try:
                await trio.sleep_forever()
            finally:
                self._nursery = None
