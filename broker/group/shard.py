"""The groups and offsets of one ``__consumer_offsets`` partition: :class:`GroupShard` (pure).

One shard per partition holds the pure cores of the groups whose ids hash there:
classic groups (:mod:`broker.group.classic`), consumer groups (KIP-848,
:mod:`broker.group.consumer`), streams groups (KIP-1071, :mod:`broker.group.streams`),
share groups (:mod:`broker.group.share.core`) and committed offsets
(:mod:`broker.group.offsets`). The shard is the one registry of group types: a group id
is one type at a time, whichever core owns it. It replays ``__consumer_offsets`` on load
(``load_record``), applies what the consumer and streams cores produce, and answers the
offset rules of whichever type owns a group (:class:`CommitValidation`). It takes the
time from its caller and does no I/O; the shell (:mod:`broker.group.coordinator`) runs it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from broker.coordinator.result import CoordinatorResult
from broker.coordinator.runtime import Record
from broker.coordinator.timer import CoordinatorTimer, TimerQueue
from broker.group.classic.core import ClassicGroups
from broker.group.classic.model import CoordinatorConfig
from broker.group.consumer import codec as consumer_codec
from broker.group.consumer.config import ConsumerGroupConfig
from broker.group.consumer.core import CommitCheck, ConsumerGroups
from broker.group.consumer.records import Record as ConsumerRecord
from broker.group.migration import ClassicAdopt, ClassicDirectory, ClassicTombstone
from broker.group.offsets import (
    CommittedOffset,
    OffsetStore,
    RecordType,
    committed_from_value,
    decode_record,
)
from broker.group.shard_api import TopicImage, TopicTable
from broker.group.share.core import ShareGroups, TopicMetadata
from broker.group.streams import StreamsGroupConfig, StreamsGroups
from broker.group.streams import records as streams_records
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.group_metadata_key import GroupMetadataKey
from broker.protocol.messages.group_metadata_value import GroupMetadataValue
from broker.protocol.messages.offset_commit_key import OffsetCommitKey
from broker.protocol.messages.offset_commit_value import OffsetCommitValue

__all__ = ["OFFSETS_RETENTION_CHECK_INTERVAL_MS", "CommitValidation", "GroupShard"]

# Kafka's offsets.retention.check.interval.ms default: how often expired offsets
# (and empty groups without offsets) are removed.
OFFSETS_RETENTION_CHECK_INTERVAL_MS = 600_000


@dataclass(frozen=True, slots=True)
class CommitValidation:
    """The outcome of checking an offset commit against its group: a group-level
    error, and (consumer and streams groups) one per partition."""

    error: ErrorCode = ErrorCode.NONE
    per_partition: Callable[[str, int], ErrorCode] | None = None
    # Records the check wrote (a classic group's), to append with the commit's.
    records: Sequence[Record] = ()

    def partition_error(self, topic: str, partition: int) -> ErrorCode:
        if self.error or self.per_partition is None:
            return self.error
        return self.per_partition(topic, partition)

    @classmethod
    def of_consumer(cls, check: CommitCheck, topics: TopicImage) -> CommitValidation:
        def per_partition(topic: str, partition: int) -> ErrorCode:
            info = topics.topic(topic)
            if info is None:
                return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            return check.partition_error(info.topic_id, partition)

        return cls(check.error, per_partition)


# The consumer core's topics when a shard is built without an image (unit tests).
_NO_TOPICS = TopicTable()


class GroupShard:
    """The groups and offsets of one ``__consumer_offsets`` partition (pure)."""

    def __init__(
        self,
        partition: int,
        *,
        now_ms: int,
        classic_config: CoordinatorConfig,
        topics: TopicMetadata,
        share_session_timeout_ms: Callable[[str], int],
        timer: CoordinatorTimer | None = None,
        expiry_interval_ms: int = OFFSETS_RETENTION_CHECK_INTERVAL_MS,
        topic_table: TopicImage | None = None,
        consumer_config: ConsumerGroupConfig | None = None,
        streams_config: StreamsGroupConfig | None = None,
    ) -> None:
        """``now_ms``: when the shard is built, the time its load replays records at.
        ``timer``: the runtime's timer of the shard, a queue in it per group type."""
        timer = timer if timer is not None else CoordinatorTimer()
        self.partition = partition
        self._loaded_at_ms = now_ms
        self.share = ShareGroups(topics, timer=timer.queue("share"))
        self.classic = ClassicGroups(
            classic_config, timer=timer.queue("classic"), other_group_type=self._not_classic_type
        )
        self.share.other_group_type = self._not_share_type
        topic_table = topic_table if topic_table is not None else _NO_TOPICS
        self.streams = StreamsGroups(topic_table, streams_config, timer=timer.queue("streams"))
        self.consumer = ConsumerGroups(
            topic_table,
            consumer_config,
            directory=ClassicDirectory(self.classic, others=(self.streams.group_type, self.share.group_type)),
            timer=timer.queue("consumer"),
        )
        self.offsets = OffsetStore()
        self._share_session_timeout_ms = share_session_timeout_ms
        self._expiry: TimerQueue[Callable[[int], CoordinatorResult[None]]] = timer.queue("offsets")
        self._expiry_interval_ms = expiry_interval_ms
        self._schedule_expiry(now_ms)

    # --- the registry of group types -----------------------------------------------------

    def group_type(self, group_id: str) -> str | None:
        """``"classic"``, ``"consumer"``, ``"streams"``, ``"share"``, or None when no group has this id here."""
        return self.classic.group_type(group_id) or self._not_classic_type(group_id)

    def _not_classic_type(self, group_id: str) -> str | None:
        return (
            self.consumer.group_type(group_id) or self.streams.group_type(group_id) or self.share.group_type(group_id)
        )

    def _not_share_type(self, group_id: str) -> str | None:
        return (
            self.classic.group_type(group_id) or self.consumer.group_type(group_id) or self.streams.group_type(group_id)
        )

    # --- the runtime's interface ----------------------------------------------------

    def load_record(self, offset: int, key: bytes | None, value: bytes | None) -> None:
        if key is None:
            return
        record = decode_record(key, value)
        if record is not None:
            if record.record_type == RecordType.GROUP_METADATA:
                assert isinstance(record.key, GroupMetadataKey)
                assert record.value is None or isinstance(record.value, GroupMetadataValue)
                self.classic.replay_group_metadata(record.key.group, record.value, self._loaded_at_ms)
                return
            self.offsets.apply(record)
            group_id = record.key.group
            if record.value is not None and self._not_classic_type(group_id) is None:
                self.classic.ensure_group(group_id, self._loaded_at_ms)
            return
        consumer = consumer_codec.decode(key, value)
        if consumer is not None:
            # A consumer group takes the place of an empty classic group of the same id
            # (one an earlier offset commit created while replaying), as Kafka's replay does.
            self.classic.forget_empty_group(consumer.group_id)
            self.consumer.replay_record(consumer)
            return
        streams = streams_records.decode(key, value)
        if streams is not None:
            self.classic.forget_empty_group(streams.group_id)
            self.streams.replay_record(streams)
            return
        self.share.replay(key, value)

    def load_transactional_record(self, offset: int, producer_id: int, key: bytes | None, value: bytes | None) -> None:
        """A record of a transactional batch (TxnOffsetCommit): pending until its marker."""
        record = decode_record(key, value) if key is not None else None
        if record is None or record.record_type == RecordType.GROUP_METADATA or record.value is None:
            self.load_record(offset, key, value)
            return
        assert isinstance(record.key, OffsetCommitKey) and isinstance(record.value, OffsetCommitValue)
        self.offsets.put_pending(
            producer_id, record.key.group, record.key.topic, record.key.partition, committed_from_value(record.value)
        )
        self._ensure_offsets_group(record.key.group, self._loaded_at_ms)

    def load_end_txn_marker(self, producer_id: int, committed: bool) -> None:
        self.end_transaction(producer_id, committed, self._loaded_at_ms)

    def end_transaction(self, producer_id: int, committed: bool, now_ms: int) -> None:
        """A COMMIT/ABORT marker: the producer's transactional offsets apply or go."""
        for group_id in self.offsets.end_transaction(producer_id, committed):
            self._ensure_offsets_group(group_id, now_ms)

    def _ensure_offsets_group(self, group_id: str, now_ms: int) -> None:
        """A group holding offsets exists: a simple classic group unless a consumer,
        streams or share group of that id does (its offsets are that group's)."""
        if self._not_classic_type(group_id) is None:
            self.classic.ensure_group(group_id, now_ms)

    def on_loaded(self, now_ms: int) -> None:
        self.classic.on_loaded(now_ms)
        self.share.on_loaded(now_ms, self._share_session_timeout_ms)
        self.consumer.on_loaded(now_ms)
        self.streams.on_loaded(now_ms)

    # --- consumer groups (KIP-848) ---------------------------------------------------

    def apply_consumer_records(self, records: Iterable[Any], now_ms: int) -> list[Record]:
        """Replay what the consumer core produced and return the framed records to
        append (a classic group's tombstone goes to the classic core)."""
        out: list[Record] = []
        for r in records:
            if isinstance(r, ClassicTombstone):
                decoded = decode_record(r.key, None)
                if decoded is not None:
                    self.classic.hand_over(decoded.key.group)
                out.append((r.key, None))
                continue
            if isinstance(r, ClassicAdopt):
                self.classic.adopt_group(r.group_id, r.metadata, now_ms)
                out.append((r.key, r.value))
                continue
            assert isinstance(r, ConsumerRecord)
            self.consumer.replay_record(r)
            out.append(consumer_codec.encode(r))
        return out

    # --- streams groups (KIP-1071) ---------------------------------------------------

    def apply_streams_records(self, records: Iterable[Any]) -> list[Record]:
        """Replay what the streams core produced; the framed records to append."""
        out: list[Record] = []
        for r in records:
            self.streams.replay_record(r)
            out.append(streams_records.encode(r))
        return out

    # --- offsets of every group type ------------------------------------------------

    def offsets_visible(self, group_id: str) -> bool:
        """Whether OffsetFetch shows the group's committed offsets (not for share groups)."""
        kind = self._not_classic_type(group_id)
        if kind in ("consumer", "streams"):
            return True
        return self.classic.offsets_visible(group_id)

    def is_subscribed_to_topic(self, group_id: str, topic: str) -> bool:
        if self.consumer.group_type(group_id) is not None:
            return self.consumer.is_subscribed_to_topic(group_id, topic)
        if self.streams.group_type(group_id) is not None:
            return self.streams.is_subscribed_to_topic(group_id, topic)
        return self.classic.is_subscribed_to_topic(group_id, topic)

    def validate_offset_commit(
        self,
        group_id: str,
        member_id: str,
        group_instance_id: str | None,
        generation_or_member_epoch: int,
        api_version: int,
        *,
        transactional: bool = False,
        now_ms: int,
    ) -> CommitValidation:
        """May this commit proceed: a group-level error, and one per partition (a
        consumer-group member with an older epoch may commit only what it held then)."""
        if self.consumer.group_type(group_id) is not None:
            check = self.consumer.validate_offset_commit(
                group_id,
                member_id,
                group_instance_id,
                generation_or_member_epoch,
                transactional=transactional,
                api_version=api_version,
            )
            return CommitValidation.of_consumer(check, self.consumer.topics)
        if self.streams.group_type(group_id) is not None:
            streams_check = self.streams.validate_offset_commit(
                group_id,
                member_id,
                generation_or_member_epoch,
                transactional=transactional,
                api_version=api_version,
            )
            return CommitValidation(streams_check.error, streams_check.partition_error)
        checked = self.classic.validate_offset_commit(
            group_id,
            member_id,
            group_instance_id,
            generation_or_member_epoch,
            api_version,
            transactional=transactional,
            now_ms=now_ms,
        )
        assert checked.response is not None
        return CommitValidation(checked.response, records=checked.records)

    def validate_offset_fetch(self, group_id: str, member_id: str | None, member_epoch: int) -> ErrorCode:
        if self.consumer.group_type(group_id) is not None:
            return self.consumer.validate_offset_fetch(group_id, member_id, member_epoch)
        if self.streams.group_type(group_id) is not None:
            return self.streams.validate_offset_fetch(group_id, member_id, member_epoch)
        return ErrorCode.NONE

    def validate_offset_delete(self, group_id: str) -> ErrorCode:
        if self.consumer.group_type(group_id) is not None or self.streams.group_type(group_id) is not None:
            return ErrorCode.NONE  # always allowed; subscribed topics are refused one by one
        return self.classic.validate_offset_delete(group_id)

    def offset_expiry_base(self, group_id: str) -> Callable[[CommittedOffset], int] | None:
        """What an offset's retention counts from (Kafka's offsetExpirationCondition),
        or None when the group's offsets do not expire now."""
        if self.consumer.group_type(group_id) is not None:
            return self.consumer.offset_expiry_base(group_id)
        if self.streams.group_type(group_id) is not None:
            return lambda value: value.commit_timestamp_ms
        return self.classic.offset_expiry_base(group_id)

    def maybe_remove_empty_group(self, group_id: str, now_ms: int) -> list[Record]:
        """An empty group whose offsets all expired goes too; its records to write."""
        if self.consumer.group_type(group_id) is not None:
            result = self.consumer.delete_group(group_id)
            return [] if result.response else self.apply_consumer_records(result.records, now_ms)
        if self.streams.group_type(group_id) is not None:
            deleted = self.streams.delete_group(group_id)
            return [] if deleted.response else self.apply_streams_records(deleted.records)
        return self.classic.maybe_remove_empty_group(group_id, now_ms=now_ms).records

    def _schedule_expiry(self, now_ms: int) -> None:
        self._expiry.schedule("expiry", now_ms + self._expiry_interval_ms, self._expiry_due)

    def _expiry_due(self, now_ms: int) -> CoordinatorResult[None]:
        """The offset-expiry timer: due again an interval from now; the shell expires
        the offsets (:meth:`GroupCoordinator.expire_offsets_of`)."""
        self._schedule_expiry(now_ms)
        return CoordinatorResult()
