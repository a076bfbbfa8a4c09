"""A partition as the handlers see it: its log plus leadership, epochs and the high watermark.

Handlers never append to or read a :class:`~broker.log.partition.PartitionLog`
directly: they ask the replica manager for the partition, which checks that this
broker leads it at the epoch the client knows (Kafka's
``Partition.checkCurrentLeaderEpoch``), stamps appended batches with the leader
epoch, keeps the high watermark (what consumers may read) and knows what an
``acks=all`` produce waits for.

On a broker that is the partition's only replica, the in-sync replica set is that
broker alone, so the high watermark follows the log end offset at once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from broker.log.partition import AppendInfo, PartitionLog
from broker.log.producer_state import AppendOrigin, VerificationGuard
from broker.metadata.image import PartitionState
from broker.protocol.errors import ErrorCode, KafkaError

if TYPE_CHECKING:
    from broker.log.commit import GroupCommitter

__all__ = ["Partition"]

# "The client did not say": no epoch check.
NO_EPOCH = -1


class Partition:
    """One local replica of a partition."""

    __slots__ = ("_appended", "_committer", "index", "log", "node_id", "state", "topic", "topic_id")

    def __init__(
        self,
        log: PartitionLog,
        state: PartitionState,
        *,
        node_id: int,
        topic_id: object,
        committer: GroupCommitter,
        appended: Callable[[str, int], None],
    ) -> None:
        self.log = log
        self.topic = log.topic
        self.index = log.partition
        self.topic_id = topic_id
        self.state = state
        self.node_id = node_id
        self._committer = committer
        self._appended = appended

    # --- leadership ------------------------------------------------------------------

    @property
    def is_leader(self) -> bool:
        return self.state.leader == self.node_id

    @property
    def leader_epoch(self) -> int:
        return self.state.leader_epoch

    def check_leader(self, current_leader_epoch: int = NO_EPOCH) -> None:
        """Raise unless this replica leads the partition at the epoch the client knows.

        A client ahead of us (epoch above ours) gets UNKNOWN_LEADER_EPOCH and retries;
        one behind gets FENCED_LEADER_EPOCH and refreshes its metadata.
        """
        epoch = self.state.leader_epoch
        if current_leader_epoch > epoch:
            raise KafkaError(ErrorCode.UNKNOWN_LEADER_EPOCH)
        if 0 <= current_leader_epoch < epoch:
            raise KafkaError(ErrorCode.FENCED_LEADER_EPOCH)
        if not self.is_leader:
            raise KafkaError(ErrorCode.NOT_LEADER_OR_FOLLOWER)

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

    def end_offset_for_epoch(self, epoch: int) -> tuple[int, int]:
        """(largest epoch <= ``epoch``, its end offset), Kafka's OffsetForLeaderEpoch answer.

        A partition has one replica, so its log is never truncated to another's and
        no epoch ever diverged from what a client read: every epoch, current or older
        (a cluster bumps it when the leader's broker restarts), ends at the log end
        offset as far as a reader can tell.
        """
        current = self.state.leader_epoch
        if epoch >= current:
            return current, self.log.log_end_offset
        return epoch, self.log.log_end_offset

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
        info = self.log.append(
            records,
            log_append_time_ms=log_append_time_ms,
            leader_epoch=self.state.leader_epoch,
            origin=origin,
            verification_guard=verification_guard,
            transaction_version=transaction_version,
        )
        if not info.duplicate:
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

    def note_append(self) -> None:
        """An acks=0/1 append: let the flush policy see it."""
        self._committer.note_append(self.log)

    async def wait_replicated(self) -> None:
        """Return once everything appended so far is what ``acks=all`` promises:
        fsynced here and on every in-sync replica (raises KafkaError)."""
        await self._committer.wait_durable(self.log)

    def __repr__(self) -> str:
        return f"Partition({self.topic}-{self.index}, leader={self.state.leader}, epoch={self.state.leader_epoch})"
