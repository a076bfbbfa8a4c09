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

import heapq
from collections.abc import Callable
from typing import Any, NamedTuple

import structlog
import trio

from broker.config.services import ReplicaFetchSettings
from broker.log.commit import GroupCommitter
from broker.log.epoch_cache import UNDEFINED_EPOCH, UNDEFINED_OFFSET
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.fetch_request import (
    FetchPartition,
    FetchRequest,
    FetchTopic,
    ForgottenTopic,
    ReplicaState,
)
from broker.protocol.messages.list_offsets_request import ListOffsetsPartition, ListOffsetsRequest, ListOffsetsTopic
from broker.protocol.messages.offset_for_leader_epoch_request import (
    OffsetForLeaderEpochRequest,
    OffsetForLeaderPartition,
    OffsetForLeaderTopic,
)
from broker.replica.fetch_sessions import INITIAL_EPOCH, INVALID_SESSION_ID, next_epoch
from broker.replica.interbroker import BrokerPeers
from broker.replica.partition import Partition

__all__ = ["ReplicaFetcherManager"]

log = structlog.get_logger("sharebroker.fetcher")

FETCH_VERSION = 16
OFFSET_FOR_LEADER_EPOCH_VERSION = 4
LIST_OFFSETS_VERSION = 7
# Answers that end the follower's fetch session: the next request opens a new one.
SESSION_ERRORS = frozenset(
    {
        ErrorCode.FETCH_SESSION_ID_NOT_FOUND,
        ErrorCode.INVALID_FETCH_SESSION_EPOCH,
        ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR,
    }
)
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

    @property
    def wire_key(self) -> tuple[Any, int]:
        """How fetch requests and responses name it: (topic id, partition)."""
        return (self.partition.topic_id, self.partition.index)

    def current(self) -> bool:
        """Still a follower at the epoch it was assigned with."""
        p = self.partition
        return not p.is_leader_here and p.state.leader_epoch == self.leader_epoch and not p.log.closed

    def fetch_data(self, max_bytes: int) -> _FetchData:
        log_ = self.partition.log
        return _FetchData(
            self.partition.topic_id,
            self.partition.index,
            self.leader_epoch,
            log_.log_end_offset,
            log_.epochs.latest_epoch,
            log_.log_start_offset,
            max_bytes,
        )


class _FetchData(NamedTuple):
    """What a fetch request says of one partition (the session holds the last one sent)."""

    topic_id: Any
    partition: int
    leader_epoch: int
    fetch_offset: int
    last_fetched_epoch: int
    log_start_offset: int
    max_bytes: int


class _Session:
    """This follower's side of its fetch session with one leader (KIP-227; Kafka's
    ``FetchSessionHandler``): the session id and epoch, and what the leader's session
    holds for each partition, so the next request names only what changed."""

    def __init__(self, leader: int) -> None:
        self.leader = leader
        self.id = INVALID_SESSION_ID
        self.epoch = INITIAL_EPOCH
        self.sent: dict[tuple[str, int], _FetchData] = {}

    @property
    def open(self) -> bool:
        return self.id != INVALID_SESSION_ID and self.epoch != INITIAL_EPOCH

    def reset(self, why: str) -> None:
        if self.id != INVALID_SESSION_ID:
            log.info("replica_fetch_session_reset", leader=self.leader, session=self.id, reason=why)
        self.id = INVALID_SESSION_ID
        self.epoch = INITIAL_EPOCH
        self.sent = {}

    def answered(self, full: bool, session_id: int, adds: dict[tuple[str, int], _FetchData], forgotten: list) -> None:
        """A request was answered without a session error: take up what it changed."""
        if full:
            self.sent = adds
            self.id = session_id
            if session_id == INVALID_SESSION_ID:
                self.epoch = INITIAL_EPOCH  # the leader keeps no session: full requests go on
                return
            self.epoch = next_epoch(INITIAL_EPOCH)
            log.info("replica_fetch_session_opened", leader=self.leader, session=session_id, partitions=len(adds))
            return
        if session_id == INVALID_SESSION_ID:
            self.reset("closed by the leader")
            return
        self.sent.update(adds)
        for key in forgotten:
            self.sent.pop(key, None)
        self.epoch = next_epoch(self.epoch)


class _LeaderFetcher:
    """Fetches this broker's partitions led by one broker, in one fetch session.

    Work per round is what changed: the partitions whose fetch offset moved (records
    appended, a truncation), that joined or must leave the session (assigned,
    removed, put aside after an error, back from a backoff), and the partitions
    of the answer (only those the leader has news of). Only a new session walks
    every partition. ``changed`` holds the keys to look at before the next request.
    """

    def __init__(self, manager: ReplicaFetcherManager, leader: int) -> None:
        self.manager = manager
        self.leader = leader
        self.targets: dict[tuple[str, int], _Target] = {}
        self.by_wire: dict[tuple[Any, int], tuple[str, int]] = {}
        self.changed: set[tuple[str, int]] = set()
        self.truncating: set[tuple[str, int]] = set()
        self.delayed: list[tuple[float, tuple[str, int]]] = []
        self.session = _Session(leader)
        self.woken = trio.Event()
        self.scope = trio.CancelScope()

    def wake(self) -> None:
        self.woken.set()
        self.woken = trio.Event()

    def add(self, t: _Target) -> None:
        old = self.targets.get(t.key)
        if old is not None:
            self.by_wire.pop(old.wire_key, None)
        self.targets[t.key] = t
        self.by_wire[t.wire_key] = t.key
        self.truncating.add(t.key)
        self.changed.add(t.key)
        self.wake()

    def discard(self, key: tuple[str, int]) -> None:
        t = self.targets.pop(key, None)
        if t is not None:
            self.by_wire.pop(t.wire_key, None)
        self.truncating.discard(key)
        self.changed.add(key)
        self.wake()

    async def run(self) -> None:
        with self.scope:
            while True:
                try:
                    await self._round()
                except KafkaError as exc:
                    log.info("replica_fetch_failed", leader=self.leader, error=str(exc))
                    self.session.reset(f"request failed: {exc}")
                    await self._backoff(self.manager.settings.fetch_backoff_ms / 1000)

    async def _backoff(self, seconds: float) -> None:
        woken = self.woken
        with trio.move_on_after(seconds):
            await woken.wait()

    def _ready(self, t: _Target, now: float) -> bool:
        return not t.truncating and t.delay_until <= now and t.current()

    async def _round(self) -> None:
        now = trio.current_time()
        while self.delayed and self.delayed[0][0] <= now:
            _, key = heapq.heappop(self.delayed)
            self.changed.add(key)  # back from its backoff: into the session again
        truncating = [t for key in self.truncating if (t := self.targets.get(key)) is not None and t.current()]
        if truncating:
            await self._truncate(truncating)
            return
        built = self._build(now)
        if built is None:
            later = [until - now for until, _ in self.delayed[:1]]
            await self._backoff(later[0] if later else 3600.0)
            return
        await self._fetch(*built)

    # --- truncation ------------------------------------------------------------------

    def _truncated(self, t: _Target) -> None:
        t.truncating = False
        self.truncating.discard(t.key)
        self.changed.add(t.key)

    async def _truncate(self, targets: list[_Target]) -> None:
        by_topic: dict[str, list[_Target]] = {}
        for t in targets:
            p = t.partition
            if p.log.epochs.latest_epoch == UNDEFINED_EPOCH:
                # No epochs (an empty log): nothing past the high watermark can be trusted.
                p.log.truncate_to(p.log.high_watermark)
                self._truncated(t)
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
        part_log.truncate_to(target)  # at the log end too: drops an epoch the leader never had
        if done:
            self._truncated(t)
        else:
            t.truncating = True
            self.truncating.add(t.key)
            self.changed.add(t.key)  # out of the session until the truncation is done

    # --- fetching --------------------------------------------------------------------

    def _build(
        self, now: float
    ) -> tuple[FetchRequest, bool, dict[tuple[str, int], _FetchData], list[tuple[str, int]]] | None:
        """The next request: (request, full, partitions it names, partitions it forgets);
        None when there is nothing to fetch."""
        m = self.manager
        max_bytes = m.settings.fetch_max_bytes
        session = self.session
        adds: dict[tuple[str, int], _FetchData] = {}
        forgotten: list[tuple[str, int]] = []
        full = not session.open
        if full:
            # A new session: every partition ready now (the one walk over all of them).
            for key, t in self.targets.items():
                if self._ready(t, now):
                    adds[key] = t.fetch_data(max_bytes)
            self.changed.clear()
            if not adds:
                return None
        else:
            for key in self.changed:
                found = self.targets.get(key)
                if found is not None and self._ready(found, now):
                    data = found.fetch_data(max_bytes)
                    if session.sent.get(key) != data:
                        adds[key] = data
                elif key in session.sent:
                    forgotten.append(key)
            self.changed.clear()
            if not adds and len(forgotten) == len(session.sent):
                if forgotten:
                    session.reset("no partition left to fetch")
                return None
        broker_epoch = m.broker_epoch()
        by_topic: dict[Any, list[_FetchData]] = {}
        for data in adds.values():
            by_topic.setdefault(data.topic_id, []).append(data)
        gone: dict[Any, list[int]] = {}
        for key in forgotten:
            data = session.sent[key]
            gone.setdefault(data.topic_id, []).append(data.partition)
        request = FetchRequest(
            replica_state=ReplicaState(replica_id=m.node_id, replica_epoch=broker_epoch if broker_epoch else -1),
            max_wait_ms=m.settings.fetch_wait_max_ms,
            min_bytes=m.settings.fetch_min_bytes,
            max_bytes=m.settings.fetch_response_max_bytes,
            isolation_level=0,
            session_id=session.id,
            session_epoch=session.epoch,
            topics=[
                FetchTopic(
                    topic_id=topic_id,
                    partitions=[
                        FetchPartition(
                            partition=d.partition,
                            current_leader_epoch=d.leader_epoch,
                            fetch_offset=d.fetch_offset,
                            last_fetched_epoch=d.last_fetched_epoch,
                            log_start_offset=d.log_start_offset,
                            partition_max_bytes=d.max_bytes,
                        )
                        for d in ds
                    ],
                )
                for topic_id, ds in by_topic.items()
            ],
            forgotten_topics_data=[ForgottenTopic(topic_id=topic_id, partitions=ps) for topic_id, ps in gone.items()],
            rack_id="",
        )
        return request, full, adds, forgotten

    async def _fetch(
        self,
        request: FetchRequest,
        full: bool,
        adds: dict[tuple[str, int], _FetchData],
        forgotten: list[tuple[str, int]],
    ) -> None:
        m = self.manager
        session = self.session
        timeout = m.settings.socket_timeout_ms / 1000 + request.max_wait_ms / 1000
        try:
            response = await m.call(self.leader, request, FETCH_VERSION, timeout_s=timeout)
        except BaseException:
            # Whatever the leader took up of this request is unknown now: start over.
            self.changed.update(adds)
            self.changed.update(forgotten)
            raise
        if response.error_code in SESSION_ERRORS:
            session.reset(ErrorCode.for_code(response.error_code).name)
            return
        if response.error_code:
            raise KafkaError(ErrorCode.for_code(response.error_code), "fetch refused")
        session.answered(full, response.session_id, adds, forgotten)
        appended: list[Partition] = []
        outs: list[_Target] = []
        for topic in response.responses:
            for pd in topic.partitions:
                key = self.by_wire.get((topic.topic_id, pd.partition_index))
                t = None if key is None else self.targets.get(key)
                if t is None:
                    continue
                asked = adds.get(t.key) or session.sent.get(t.key)
                # Moved away or re-assigned while the fetch was out: drop the answer.
                if not t.current() or t.truncating or asked is None:
                    self.changed.add(t.key)
                    continue
                if t.partition.log.log_end_offset != asked.fetch_offset:
                    self.changed.add(t.key)
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
                if self._apply_records(t, pd, asked):
                    appended.append(t.partition)
        if appended:
            await m.durable(appended)
        for t in outs:
            await self._out_of_range(t)

    def _apply_records(self, t: _Target, pd: Any, asked: _FetchData) -> bool:
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
        if info is not None or part_log.log_start_offset != asked.log_start_offset:
            self.changed.add(t.key)  # the next request tells the leader where this replica is now
        return info is not None

    async def _out_of_range(self, t: _Target) -> None:
        """The leader refused our fetch offset: find where its log is and fit ours to it."""
        p = t.partition
        self.changed.add(t.key)
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
        """Out of the session for a backoff; the other partitions go on."""
        if code == ErrorCode.UNKNOWN_LEADER_EPOCH:
            delay = NOT_READY_BACKOFF_S
        else:
            delay = self.manager.settings.fetch_backoff_ms / 1000
        t.delay_until = trio.current_time() + delay
        heapq.heappush(self.delayed, (t.delay_until, t.key))
        self.changed.add(t.key)
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
        settings: ReplicaFetchSettings,
    ) -> None:
        self.node_id = node_id
        self._peers = peers
        self._committer = committer
        self.broker_epoch = broker_epoch
        self.settings = settings
        self._fetchers: dict[int, _LeaderFetcher] = {}
        self._where: dict[tuple[str, int], int] = {}
        self._nursery: trio.Nursery | None = None

    async def call(self, node: int, request: Any, version: int, *, timeout_s: float | None = None) -> Any:
        if timeout_s is None:
            timeout_s = self.settings.socket_timeout_ms / 1000
        # Its own connection: requests on one connection are handled one at a time.
        return await self._peers.call(node, request, version, timeout_s=timeout_s, channel="fetch")

    async def durable(self, partitions: list[Partition]) -> None:
        """fsync what the fetch appended (one group-commit round for all, one waiter)."""
        errors = await self._committer.wait_durable_all(p.log for p in partitions)
        for p in partitions:
            error = errors.get(id(p.log))
            if error is not None:
                log.error("replica_flush_failed", topic=p.topic, partition=p.index, error=str(error))

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
        fetcher.add(_Target(p, leader_epoch))
        self._where[key] = leader
        log.debug("replica_following", topic=p.topic, partition=p.index, leader=leader, leader_epoch=leader_epoch)

    def remove(self, p: Partition) -> None:
        key = (p.topic, p.index)
        leader = self._where.pop(key, None)
        if leader is None:
            return
        fetcher = self._fetchers.get(leader)
        if fetcher is None:
            return
        fetcher.discard(key)
        if not fetcher.targets:
            fetcher.scope.cancel()
            del self._fetchers[leader]

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
