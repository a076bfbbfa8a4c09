"""A partition as the handlers see it: its log plus leadership, epochs and the high watermark.

Handlers never append to or read a :class:`~broker.log.partition.PartitionLog`
directly: they ask the replica manager for the partition, which checks that this
broker leads it at the epoch the client knows (Kafka's
``Partition.checkCurrentLeaderEpoch``), stamps appended batches with the leader
epoch, keeps the high watermark (what consumers may read) and knows what an
``acks=all`` produce waits for.

Replication (Kafka's, over the Kafka protocol):

- **Leader.** Followers fetch with their replica id and broker epoch
  (:meth:`Partition.follower_fetched`); the leader keeps each follower's log end
  offset and when it was last caught up. The high watermark is the smallest log
  end offset over the in-sync replicas: the committed ISR plus any expansion
  being written (Kafka's "maximal ISR"), so a record counts as committed only
  once every replica that could be elected has it.
- **ISR.** A follower behind for longer than ``replica.lag.time.max.ms`` is
  proposed out of the ISR (:meth:`isr_to_shrink`); one that has caught up with
  the high watermark and its leader epoch's start is proposed back in
  (:meth:`isr_to_expand`), if its broker epoch is the one registered (KIP-903).
  The replica manager writes proposals to the cluster metadata with
  compare-and-swap on the partition epoch; one at a time per partition.
- **acks=all** (:meth:`wait_replicated`) waits for the leader's fsync and for
  the high watermark to pass the batch; then fewer in-sync replicas than
  ``min.insync.replicas`` is NOT_ENOUGH_REPLICAS_AFTER_APPEND (Kafka's check).
  A partition that stops being led here fails its waiters with
  NOT_LEADER_OR_FOLLOWER: the producer retries at the new leader, and an
  idempotent producer's retry of a batch that did reach it is recognised there.
  A lapse of this broker's registration alone does not fail them: clients read
  NOT_LEADER_OR_FOLLOWER as "not written" (librdkafka may then renumber the batch
  under a new producer epoch, storing it twice), and the high watermark cannot
  move while it lasts, since followers' fetches are refused too. The waiters go
  on once it ends, or fail when the image moves leadership or the request's
  timeout passes (REQUEST_TIMED_OUT: outcome unknown). Likewise a produce whose
  fsync found the disk full waits for a flush that succeeds, within its timeout.
- **Follower.** The fetcher (:mod:`broker.replica.fetcher`) appends the leader's
  batches with :meth:`PartitionLog.append_as_follower` and takes the high
  watermark from the leader's answers.

A partition whose only replica is this broker (a single node, or replication
factor 1 in a cluster) has an in-sync replica set of one, so its high watermark
follows the log end offset at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import trio

from broker.log.checkpoint import disk_full
from broker.log.epoch_cache import UNDEFINED_EPOCH, UNDEFINED_OFFSET
from broker.log.partition import AppendInfo, PartitionLog
from broker.log.producer_state import AppendOrigin, VerificationGuard
from broker.metadata.image import PartitionState
from broker.protocol.errors import ErrorCode, KafkaError

if TYPE_CHECKING:
    from broker.log.commit import GroupCommitter

__all__ = ["NO_EPOCH", "FollowerState", "Partition"]

# "The client did not say": no epoch check.
NO_EPOCH = -1
# An acks=all wait whose fsync found the disk full asks for another flush this often.
FULL_DISK_RETRY_S = 0.1


@dataclass(slots=True)
class FollowerState:
    """What a leader knows of one follower (Kafka's ``Replica`` state)."""

    log_end_offset: int = -1
    log_start_offset: int = -1
    last_fetch_ms: int = 0
    # The leader's log end offset at the follower's previous fetch.
    last_fetch_leader_leo: int = -1
    last_caught_up_ms: int = 0
    broker_epoch: int = -1


class Partition:
    """One local replica of a partition."""

    __slots__ = (
        "_appended",
        "_committer",
        "_hw_changed",
        "_last_request_ms",
        "_lease_ok",
        "_role_changed",
        "epoch_start_offset",
        "followers",
        "index",
        "is_leader_here",
        "log",
        "node_id",
        "pending_isr",
        "state",
        "topic",
        "topic_id",
    )

    def __init__(
        self,
        log: PartitionLog,
        state: PartitionState,
        *,
        node_id: int,
        topic_id: object,
        committer: GroupCommitter,
        appended: Callable[[str, int], None],
        lease_ok: Callable[[], bool] = lambda: True,
        last_request_ms: Callable[[int], int] = lambda replica: 0,
    ) -> None:
        self.log = log
        self.topic = log.topic
        self.index = log.partition
        self.topic_id = topic_id
        self.state = state
        self.node_id = node_id
        self._committer = committer
        self._appended = appended
        self._lease_ok = lease_ok
        self._last_request_ms = last_request_ms
        self.followers: dict[int, FollowerState] = {}
        # The ISR being written (an expansion or a shrink), None when none is.
        self.pending_isr: tuple[int, ...] | None = None
        self.epoch_start_offset = 0
        # Whether this replica has taken up leadership at state.leader_epoch.
        self.is_leader_here = False
        # Made when something first waits on them: a broker holds tens of thousands of
        # partitions that nobody waits on.
        self._hw_changed: trio.Event | None = None
        self._role_changed: trio.Event | None = None

    # --- leadership ------------------------------------------------------------------

    @property
    def is_leader(self) -> bool:
        """This replica leads and may act as leader: the image says so and this broker's
        registration has not lapsed (a process paused past its lease is fenced at once,
        before it learns the cluster moved on)."""
        return self.state.leader == self.node_id and self._lease_ok()

    @property
    def leader_epoch(self) -> int:
        return self.state.leader_epoch

    @property
    def replicated(self) -> bool:
        """Whether other replicas count for the high watermark."""
        return len(self.state.replicas) > 1 or self.state.isr != (self.node_id,)

    def check_leader(self, current_leader_epoch: int = NO_EPOCH) -> None:
        """Raise unless this replica leads the partition at the epoch the client knows.

        A client ahead of us (epoch above ours) gets UNKNOWN_LEADER_EPOCH and retries;
        one behind gets FENCED_LEADER_EPOCH and refreshes its metadata.
        """
        self.check_epoch(current_leader_epoch)
        if not self.is_leader:
            raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER)

    def check_epoch(self, current_leader_epoch: int) -> None:
        epoch = self.state.leader_epoch
        if current_leader_epoch > epoch:
            raise KafkaError(ErrorCode.UNKNOWN_LEADER_EPOCH)
        if 0 <= current_leader_epoch < epoch:
            raise KafkaError(ErrorCode.FENCED_LEADER_EPOCH)

    def update_state(self, state: PartitionState, now_ms: int) -> None:
        """A new image: take up or give up leadership, follow ISR and replica changes."""
        old = self.state
        self.state = state
        if self.pending_isr is not None and (
            state.partition_epoch != old.partition_epoch or state.leader_epoch != old.leader_epoch
        ):
            self.pending_isr = None  # written (or overtaken): the image has the ISR now
        if state.leader == self.node_id:
            if not self.is_leader_here or state.leader_epoch != old.leader_epoch:
                self._become_leader(now_ms)
            else:
                self._sync_followers(now_ms)
                self.maybe_advance_high_watermark()
        elif self.is_leader_here or state.leader_epoch != old.leader_epoch:
            self._become_follower()

    def _become_leader(self, now_ms: int) -> None:
        log = self.log
        if self.replicated:
            if not log.tracks_high_watermark:
                log.track_high_watermark()
        elif log.tracks_high_watermark:
            log.untrack_high_watermark()
        log.assign_epoch_start(self.state.leader_epoch)
        self.epoch_start_offset = log.log_end_offset
        self.followers = {}
        self.pending_isr = None
        self._sync_followers(now_ms)
        self.is_leader_here = True
        self._wake_role()
        self.maybe_advance_high_watermark()

    def _become_follower(self) -> None:
        if not self.log.tracks_high_watermark:
            self.log.track_high_watermark()
        self.followers = {}
        self.pending_isr = None
        self.is_leader_here = False
        self._wake_role()

    def _sync_followers(self, now_ms: int) -> None:
        """Follower states for exactly the other replicas; a replica in the ISR starts caught up."""
        others = [r for r in self.state.replicas if r != self.node_id]
        for r in list(self.followers):
            if r not in others:
                del self.followers[r]
        for r in others:
            if r not in self.followers:
                self.followers[r] = FollowerState(last_caught_up_ms=now_ms if r in self.state.isr else 0)

    def _wake_role(self) -> None:
        if self._role_changed is not None:
            self._role_changed.set()
            self._role_changed = None
        self._wake_hw()

    def _hw_event(self) -> trio.Event:
        """Set at the next move of the high watermark (or of leadership)."""
        if self._hw_changed is None:
            self._hw_changed = trio.Event()
        return self._hw_changed

    def _wake_hw(self) -> None:
        if self._hw_changed is not None:
            self._hw_changed.set()
            self._hw_changed = None

    # --- offsets ---------------------------------------------------------------------

    @property
    def high_watermark(self) -> int:
        """Offsets below this are on every in-sync replica: what consumers may read."""
        return self.log.high_watermark

    @property
    def last_stable_offset(self) -> int:
        """What read_committed consumers may read up to: the first offset of the earliest
        open transaction, never above the high watermark (a transaction that ended in the
        log but is not yet on every in-sync replica is still unstable to readers)."""
        return min(self.log.last_stable_offset, self.log.high_watermark)

    @property
    def log_start_offset(self) -> int:
        return self.log.log_start_offset

    @property
    def log_end_offset(self) -> int:
        return self.log.log_end_offset

    @property
    def high_watermark_established(self) -> bool:
        """A leader's high watermark has reached the start of its epoch: everything earlier
        leaders wrote is committed (Kafka answers ListOffsets with OFFSET_NOT_AVAILABLE
        before that, KIP-207, and a coordinator loads only after it)."""
        return not self.log.tracks_high_watermark or self.log.high_watermark >= self.epoch_start_offset

    async def wait_high_watermark_established(self) -> None:
        """Return once :attr:`high_watermark_established` (raises NOT_LEADER_OR_FOLLOWER
        when this replica stops leading meanwhile)."""
        epoch = self.state.leader_epoch
        while not self.high_watermark_established:
            if not self.is_leader_here or self.state.leader_epoch != epoch:
                raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER)
            await self._hw_event().wait()
        if not self.is_leader_here or self.state.leader_epoch != epoch:
            raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER)

    def end_offset_for_epoch(self, epoch: int) -> tuple[int, int]:
        """(largest epoch <= ``epoch``, its end offset) from the leader epoch cache, Kafka's
        OffsetForLeaderEpoch answer; (-1, -1) when it cannot be told."""
        return self.log.epochs.end_offset_for(epoch, self.log.log_end_offset)

    def diverging_epoch(self, last_fetched_epoch: int, fetch_offset: int) -> tuple[int, int] | None:
        """Kafka's check of a fetch's ``last_fetched_epoch`` (v12+): the (epoch, end offset)
        where the fetcher's log diverges from this one, or None when it does not. Raises
        OFFSET_OUT_OF_RANGE when the epoch's end cannot be told or lies below the log start."""
        epoch, end = self.end_offset_for_epoch(last_fetched_epoch)
        if epoch == UNDEFINED_EPOCH or end == UNDEFINED_OFFSET:
            raise KafkaError(
                ErrorCode.OFFSET_OUT_OF_RANGE,
                f"could not determine the end offset of the last fetched epoch {last_fetched_epoch}",
            )
        if end < self.log.log_start_offset:
            raise KafkaError(ErrorCode.OFFSET_OUT_OF_RANGE, f"epoch {last_fetched_epoch} ends before the log start")
        if epoch < last_fetched_epoch or end < fetch_offset:
            return epoch, end
        return None

    # --- writes ----------------------------------------------------------------------

    def append(
        self,
        records: bytes | bytearray | memoryview,
        *,
        log_append_time_ms: int | None = None,
        origin: AppendOrigin = AppendOrigin.CLIENT,
        verification_guard: VerificationGuard | None = None,
        transaction_version: int = 0,
    ) -> AppendInfo:
        """Append batches as the leader (raises KafkaError). ``origin`` COORDINATOR for
        transaction markers and transactional offset commits; ``verification_guard`` what
        :meth:`maybe_start_verification` handed out for a transactional batch once the
        transaction coordinator confirmed it; ``transaction_version`` that of the markers."""
        if not self.is_leader:
            raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER)
        end = self.log.log_end_offset
        info = self.log.append(
            records,
            log_append_time_ms=log_append_time_ms,
            leader_epoch=self.state.leader_epoch,
            origin=origin,
            verification_guard=verification_guard,
            transaction_version=transaction_version,
        )
        if not info.duplicate:
            # Followers at the old end were caught up as of their latest fetch request
            # (their session did not read this partition while it was idle).
            for r, f in self.followers.items():
                if f.log_end_offset >= end:
                    f.last_caught_up_ms = max(f.last_caught_up_ms, self._last_request_ms(r))
            if not self.log.tracks_high_watermark:
                self._wake_hw()
            else:
                self.maybe_advance_high_watermark()
            self._appended(self.topic, self.index)
        return info

    def maybe_start_verification(
        self, producer_id: int, base_sequence: int, producer_epoch: int, supports_epoch_bump: bool, now_ms: int
    ) -> VerificationGuard | None:
        """Before a transactional append (KIP-890): None when the producer's transaction is
        already open here at this epoch, else the guard to append with once the transaction
        coordinator confirmed (or added) this partition. Raises KafkaError
        (INVALID_PRODUCER_EPOCH for a stale epoch, NOT_LEADER_OR_FOLLOWER)."""
        if not self.is_leader:
            raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER)
        producers = self.log.producer_state
        if not producers.verification_enabled:
            return None
        return producers.maybe_start_verification(
            producer_id, base_sequence, producer_epoch, supports_epoch_bump, now_ms
        )

    def check_enough_replicas(self) -> None:
        """acks=all refuses to append while the ISR is smaller than min.insync.replicas."""
        isr = len(self.state.isr)
        need = self.log.config.min_insync_replicas
        if isr < need:
            raise KafkaError(
                ErrorCode.NOT_ENOUGH_REPLICAS,
                f"The size of the current ISR {isr} is insufficient to satisfy the min.isr requirement of {need}",
            )

    def note_append(self) -> None:
        """An acks=0/1 append: let the flush policy see it."""
        self._committer.note_append(self.log)

    async def wait_replicated(self, offset: int | None = None, *, timeout_s: float | None = None) -> None:
        """Return once everything below ``offset`` (default: all appended so far) is what
        ``acks=all`` promises: fsynced here and on every in-sync replica (raises KafkaError:
        NOT_LEADER_OR_FOLLOWER when leadership moves first, NOT_ENOUGH_REPLICAS_AFTER_APPEND
        when the ISR shrank below min.insync.replicas, REQUEST_TIMED_OUT when the
        replicas have not caught up within ``timeout_s``)."""
        required = self.log.log_end_offset if offset is None else offset
        epoch = self.state.leader_epoch
        deadline = trio.current_time() + (timeout_s if timeout_s is not None else float("inf"))
        await self._wait_flushed(epoch, deadline)
        await self._wait_high_watermark(required, epoch, deadline)
        isr = len(self.maximal_isr)
        need = self.log.config.min_insync_replicas
        if isr < need:
            raise KafkaError(
                ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND,
                f"The size of the current ISR {isr} is insufficient to satisfy the min.isr requirement of {need}",
            )

    async def wait_committed(self, offset: int | None = None, *, timeout_s: float | None = None) -> None:
        """Return once the high watermark reaches ``offset`` (default: the log end now)
        while this replica goes on leading at its present epoch: what a coordinator
        that replayed this log waits for before acting on what it read, since records
        above the high watermark (a write that timed out) may yet be truncated. Raises
        NOT_LEADER_OR_FOLLOWER or REQUEST_TIMED_OUT; the ISR's size does not matter."""
        required = self.log.log_end_offset if offset is None else offset
        epoch = self.state.leader_epoch
        deadline = trio.current_time() + (timeout_s if timeout_s is not None else float("inf"))
        await self._wait_flushed(epoch, deadline)  # what this replica holds counts once on disk
        await self._wait_high_watermark(required, epoch, deadline)

    async def _wait_high_watermark(self, required: int, epoch: int, deadline: float) -> None:
        while self.log.high_watermark < required:
            if not self._leads_at(epoch):
                raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER, "leadership moved before the batch was replicated")
            with trio.move_on_at(deadline) as scope:
                await self._hw_event().wait()
            if scope.cancelled_caught:
                raise KafkaError(
                    ErrorCode.REQUEST_TIMED_OUT, "the batch was not replicated to the in-sync replicas in time"
                )
        if not self._leads_at(epoch):
            raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER, "leadership moved before the batch was replicated")

    async def _wait_flushed(self, epoch: int, deadline: float) -> None:
        """The leader's fsync of what was appended. With a deadline, a flush refused for
        want of space is tried again until one succeeds (REQUEST_TIMED_OUT at the
        deadline): the batch is in the log, followers copy it and readers may see it, so
        an error would tell the client it was not written."""
        while True:
            try:
                await self._committer.wait_durable(self.log)
                return
            except KafkaError as exc:
                if deadline == float("inf") or not disk_full(exc) or not self._leads_at(epoch) or self.log.closed:
                    raise
            now = trio.current_time()
            if now >= deadline:
                raise KafkaError(
                    ErrorCode.REQUEST_TIMED_OUT, "the disk is full: the batch was not flushed within the timeout"
                )
            await trio.sleep(min(FULL_DISK_RETRY_S, deadline - now))

    def _leads_at(self, epoch: int) -> bool:
        """The image still has this replica leading at ``epoch``, whatever the lease says
        (what an appended batch's wait ends on; new work checks :attr:`is_leader`)."""
        state = self.state
        return self.is_leader_here and state.leader == self.node_id and state.leader_epoch == epoch

    # --- the leader's view of its followers --------------------------------------------

    @property
    def maximal_isr(self) -> tuple[int, ...]:
        """The committed ISR together with an expansion being written."""
        pending = self.pending_isr
        if pending is None:
            return self.state.isr
        return tuple(dict.fromkeys((*self.state.isr, *pending)))

    def follower_fetched(
        self, replica: int, fetch_offset: int, log_start_offset: int, broker_epoch: int, now_ms: int
    ) -> None:
        """A follower fetched from ``fetch_offset``: everything before it is on its log."""
        f = self.followers.get(replica)
        if f is None:
            raise KafkaError(
                ErrorCode.NOT_LEADER_OR_FOLLOWER,
                f"replica {replica} is not one of the replicas of {self.topic}-{self.index}",
            )
        leo = self.log.log_end_offset
        if fetch_offset >= leo:
            f.last_caught_up_ms = max(f.last_caught_up_ms, now_ms)
        elif fetch_offset >= f.last_fetch_leader_leo:
            f.last_caught_up_ms = max(f.last_caught_up_ms, f.last_fetch_ms)
        f.log_end_offset = fetch_offset
        f.log_start_offset = log_start_offset
        f.last_fetch_ms = now_ms
        f.last_fetch_leader_leo = leo
        if broker_epoch >= 0:
            f.broker_epoch = broker_epoch
        self.maybe_advance_high_watermark()

    def maybe_advance_high_watermark(self) -> bool:
        """Move the high watermark to the smallest log end offset over the maximal ISR."""
        log = self.log
        if not self.is_leader_here or not log.tracks_high_watermark:
            return False
        new = log.log_end_offset
        for r in self.maximal_isr:
            if r == self.node_id:
                continue
            f = self.followers.get(r)
            new = min(new, f.log_end_offset if f is not None else -1)
        if new > log.high_watermark and log.update_high_watermark(new):
            self._wake_hw()
            self._appended(self.topic, self.index)  # consumers may read further
            return True
        return False

    def isr_to_expand(
        self, registered_epoch: Callable[[int], int | None], fetch_epoch: Callable[[int], int] | None = None
    ) -> tuple[int, ...] | None:
        """The ISR with every follower that caught up added (None when none did).
        ``fetch_epoch``: the broker epoch of a replica's latest fetch request (a follower
        re-registered since it last read this partition fetches with its new epoch)."""
        if not self.is_leader_here or self.pending_isr is not None:
            return None
        hw = self.log.high_watermark
        isr = self.state.isr
        added = []
        for r, f in self.followers.items():
            if r in isr or f.log_end_offset < 0:
                continue
            if f.log_end_offset < hw or f.log_end_offset < self.epoch_start_offset:
                continue
            registered = registered_epoch(r)
            epoch = max(f.broker_epoch, fetch_epoch(r)) if fetch_epoch is not None else f.broker_epoch
            if registered is None or (epoch >= 0 and epoch != registered):
                continue  # not registered, or fetching with a stale broker epoch (KIP-903)
            added.append(r)
        if not added:
            return None
        return (*isr, *sorted(added))

    def isr_to_shrink(self, now_ms: int, lag_max_ms: int) -> tuple[int, ...] | None:
        """The ISR without the followers that have not caught up for ``lag_max_ms``. A
        follower at the log end is caught up as of its latest fetch request."""
        if not self.is_leader_here or self.pending_isr is not None:
            return None
        out = []
        end = self.log.log_end_offset
        for r in self.state.isr:
            if r == self.node_id:
                continue
            f = self.followers.get(r)
            if f is None:
                out.append(r)
                continue
            caught_up = f.last_caught_up_ms
            if f.log_end_offset >= end:
                caught_up = max(caught_up, self._last_request_ms(r))
            if now_ms - caught_up > lag_max_ms:
                out.append(r)
        if not out:
            return None
        return tuple(r for r in self.state.isr if r not in out)

    def __repr__(self) -> str:
        return f"Partition({self.topic}-{self.index}, leader={self.state.leader}, epoch={self.state.leader_epoch})"
