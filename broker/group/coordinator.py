"""The group coordinator: every group type on the shared coordinator runtime.

One :class:`GroupShard` per ``__consumer_offsets`` partition holds the pure
cores of the groups whose ids hash there: classic groups
(:mod:`broker.group.classic`), consumer groups (KIP-848,
:mod:`broker.group.consumer`), streams groups (KIP-1071,
:mod:`broker.group.streams`), share groups (:mod:`broker.group.share.core`)
and committed offsets (:mod:`broker.group.offsets`). The shard is the one
registry of group types: a group id is one type at a time, whichever core
owns it. Consumer and streams groups write Kafka 4.4's records (types 3-8,
16 and 17-23), replayed through ``load_record``; a consumer group and a
classic group of the same id convert into each other online
(:mod:`broker.group.migration`).

:class:`GroupCoordinator` is the shell. For every operation it routes the
group id to its shard (NOT_COORDINATOR when this broker does not host it),
runs the pure core, appends the records the core produced to the shard's
partition and answers once they are durable:

- Classic groups park JoinGroup and SyncGroup (:class:`~broker.group.classic.Pending`);
  their answers leave the core's outbox only after the records they depend on
  are durable. Each connection has its own task, so a parked request holds up
  only its own connection (as in Kafka, where the connection is muted).
- OffsetCommit, OffsetDelete and DeleteGroups answer once an fsync covers them.
- Share groups: every heartbeat's records are durable before it is answered;
  share-partitions newly assigned are marked initialised in the group; a
  member that leaves or times out gives back the records it holds.
- Timers (classic rebalance and session timers, share-group session timeouts,
  offset expiry every ``offsets.retention.check.interval.ms``) run from the
  runtime's timer task.
- Consumer groups: every heartbeat's records are durable before it is
  answered; classic members inside them are served JoinGroup/SyncGroup/
  Heartbeat/LeaveGroup by the consumer core; topic changes re-resolve regular
  expressions and bump the groups whose topics changed.
- Streams groups: the same, and the internal topics a topology lacks are
  created in the background.
- Topic creation, deletion and growth re-target share groups.

Append errors map to what group APIs answer, as Kafka maps coordinator append
errors (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, INVALID_COMMIT_OFFSET_SIZE).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import structlog
import trio

from broker.config.services import (
    ClassicGroupSettings,
    ConsumerGroupSettings,
    GroupCoordinatorSettings,
    SettingsReader,
    StreamsGroupSettings,
)
from broker.coordinator.result import CoordinatorResult
from broker.coordinator.runtime import CoordinatorRuntime, CoordinatorSpec, DueTasks, Record
from broker.coordinator.timer import CoordinatorTimer, TimerQueue
from broker.group.classic.core import ClassicGroups, CoordinatorConfig, ListedGroup, Pending
from broker.group.consumer import codec as consumer_codec
from broker.group.consumer.config import ConsumerGroupConfig
from broker.group.consumer.core import CommitCheck, ConsumerGroups
from broker.group.consumer.records import Record as ConsumerRecord
from broker.group.consumer.records import RecordType as ConsumerRecordType
from broker.group.migration import ClassicAdopt, ClassicDirectory, ClassicTombstone
from broker.group.offsets import (
    COORDINATOR_TOPIC,
    CommittedOffset,
    OffsetStore,
    RecordType,
    committed_from_value,
    decode_record,
    offset_commit_record,
)
from broker.group.shard_api import TopicImage, TopicInfo, TopicTable
from broker.group.share.core import ShareGroups, ShareHeartbeat
from broker.group.streams import StreamsGroupConfig, StreamsGroups
from broker.group.streams import records as streams_records
from broker.group.streams import topology as streams_topology
from broker.group.streams.records import RecordType as StreamsRecordType
from broker.log.producer_state import VerificationGuard
from broker.metadata.group_configs import GroupConfigStore
from broker.metadata.image import MetadataImage
from broker.metadata.source import MetadataSource
from broker.metrics import Metrics
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages import consumer_group_describe_response as cg_describe
from broker.protocol.messages import streams_group_describe_response as sg_describe
from broker.protocol.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from broker.protocol.messages.consumer_group_heartbeat_response import ConsumerGroupHeartbeatResponse
from broker.protocol.messages.describe_groups_response import DescribedGroup
from broker.protocol.messages.group_metadata_key import GroupMetadataKey
from broker.protocol.messages.group_metadata_value import GroupMetadataValue
from broker.protocol.messages.join_group_response import JoinGroupResponse
from broker.protocol.messages.offset_commit_key import OffsetCommitKey
from broker.protocol.messages.offset_commit_value import OffsetCommitValue
from broker.protocol.messages.streams_group_heartbeat_request import StreamsGroupHeartbeatRequest
from broker.protocol.messages.streams_group_heartbeat_response import Status as StreamsStatus
from broker.protocol.messages.streams_group_heartbeat_response import StreamsGroupHeartbeatResponse
from broker.protocol.messages.sync_group_response import SyncGroupResponse
from broker.replica.manager import ReplicaManager
from broker.share.state_store import Persister

__all__ = ["CommitEntry", "GroupCoordinator", "GroupShard", "SharePartitions", "client_host", "group_runtime_spec"]

log = structlog.get_logger("sharebroker.groups")

# Kafka's topic configs for __consumer_offsets: compacted (so time retention never
# deletes it), batches stored as written, 100 MiB segments.
TOPIC_CONFIGS = {"cleanup.policy": "compact", "compression.type": "producer", "segment.bytes": str(100 * 1024 * 1024)}
# Kafka's offsets.retention.check.interval.ms default: how often expired offsets
# (and empty groups without offsets) are removed.
OFFSETS_RETENTION_CHECK_INTERVAL_MS = 600_000
# Kafka's offsets.commit.timeout.ms: an offset commit not durable by then fails.
WRITE_TIMEOUT_MS = 5000

# Append errors -> what a group API answers (Kafka's mapping of coordinator append
# errors, shared by group and offset-commit paths).
_APPEND_ERRORS = {
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION: ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.NOT_ENOUGH_REPLICAS: ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.NOT_ENOUGH_REPLICAS_AFTER_APPEND: ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.REQUEST_TIMED_OUT: ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.NOT_LEADER_OR_FOLLOWER: ErrorCode.NOT_COORDINATOR,
    ErrorCode.KAFKA_STORAGE_ERROR: ErrorCode.NOT_COORDINATOR,
    ErrorCode.MESSAGE_TOO_LARGE: ErrorCode.INVALID_COMMIT_OFFSET_SIZE,
    ErrorCode.RECORD_LIST_TOO_LARGE: ErrorCode.INVALID_COMMIT_OFFSET_SIZE,
    ErrorCode.INVALID_FETCH_SIZE: ErrorCode.INVALID_COMMIT_OFFSET_SIZE,
}
# Routing errors pass through as they are.
_ROUTING = (ErrorCode.NOT_COORDINATOR, ErrorCode.COORDINATOR_LOAD_IN_PROGRESS, ErrorCode.COORDINATOR_NOT_AVAILABLE)
# A transactional offset commit refused by the partition's producer state answers as it is.
_TXN_APPEND_PASSTHROUGH = (
    ErrorCode.INVALID_PRODUCER_EPOCH,
    ErrorCode.INVALID_TXN_STATE,
    ErrorCode.TRANSACTION_COORDINATOR_FENCED,
    ErrorCode.INVALID_PRODUCER_ID_MAPPING,
)


def append_error(exc: KafkaError) -> ErrorCode:
    if exc.code in _ROUTING:
        return exc.code
    return _APPEND_ERRORS.get(exc.code, ErrorCode.UNKNOWN_SERVER_ERROR)


def group_runtime_spec(settings: GroupCoordinatorSettings) -> CoordinatorSpec:
    return CoordinatorSpec(
        name="group",
        topic=COORDINATOR_TOPIC,
        num_partitions=settings.offsets_topic_num_partitions,
        topic_configs=TOPIC_CONFIGS,
        write_timeout_ms=WRITE_TIMEOUT_MS,
        replication_factor=settings.offsets_topic_replication_factor,
    )


@dataclass(frozen=True, slots=True)
class CommitEntry:
    topic: str
    partition: int
    offset: int
    leader_epoch: int = -1
    metadata: str | None = ""


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


class SharePartitions(Protocol):
    """What the group coordinator needs of the share-partition runtime."""

    persister: Persister

    def has_session(self, group_id: str, member_id: str) -> bool: ...

    async def release_member(self, group_id: str, member_id: str) -> None: ...

    def forget_group(self, group_id: str) -> None: ...

    def expect_members(self, group_id: str, sharing: dict[tuple[uuid.UUID, int], int]) -> None: ...


class ImageTopics:
    """The share-group core's view of topics: names, ids and partition counts from the image."""

    def __init__(self, metadata: MetadataSource) -> None:
        self._metadata = metadata

    def topic(self, name: str) -> tuple[uuid.UUID, int] | None:
        t = self._metadata.image.topic(name)
        return None if t is None or t.internal else (t.topic_id, len(t.partitions))

    def topic_name(self, topic_id: uuid.UUID) -> str | None:
        t = self._metadata.image.topic_by_id(topic_id)
        return None if t is None else t.name


class ImageTopicTable:
    """The consumer- and streams-group cores' view of topics
    (:class:`~broker.group.shard_api.TopicImage`) over the current metadata image.

    Every topic is visible, internal ones included (Kafka's regular expressions
    match ``__consumer_offsets`` too). The :class:`TopicInfo` values are built
    once per image and cached until the image changes.
    """

    def __init__(self, metadata: MetadataSource) -> None:
        self._metadata = metadata
        self._image: MetadataImage | None = None
        self._by_name: dict[str, TopicInfo] = {}
        self._by_id: dict[uuid.UUID, TopicInfo] = {}

    def _current(self) -> None:
        image = self._metadata.image
        if image is self._image:
            return
        by_name: dict[str, TopicInfo] = {}
        for name, t in image.topics.items():
            racks = tuple(
                tuple(sorted({r for n in p.replicas if (b := image.broker(n)) is not None and (r := b.rack)}))
                for p in t.partitions
            )
            by_name[name] = TopicInfo(name, t.topic_id, len(t.partitions), racks if any(racks) else ())
        self._by_name = by_name
        self._by_id = {info.topic_id: info for info in by_name.values()}
        self._image = image

    def topic(self, name: str) -> TopicInfo | None:
        self._current()
        return self._by_name.get(name)

    def topic_by_id(self, topic_id: uuid.UUID) -> TopicInfo | None:
        self._current()
        return self._by_id.get(topic_id)

    def topic_names(self) -> Iterable[str]:
        self._current()
        return list(self._by_name)


# ====================================================================== the shard

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
        topics: ImageTopics,
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


class _Waiter:
    __slots__ = ("event", "result")

    def __init__(self) -> None:
        self.event = trio.Event()
        self.result: Any = None


# ====================================================================== the shell


class GroupCoordinator:
    def __init__(
        self,
        *,
        metadata: MetadataSource,
        replicas: ReplicaManager,
        settings: SettingsReader,
        group_configs: GroupConfigStore,
        metrics: Metrics,
        clock: Callable[[], int],
        runtime_spec: CoordinatorSpec | None = None,
    ) -> None:
        self._settings = settings
        self.group_configs = group_configs
        self._metrics = metrics
        self.clock = clock
        self._topics = ImageTopics(metadata)
        self._topic_table = ImageTopicTable(metadata)
        self._metadata = metadata
        self.share_partitions: SharePartitions | None = None
        self._waiters: dict[tuple[int, int], _Waiter] = {}
        self._nursery: trio.Nursery | None = None
        self.runtime: CoordinatorRuntime[GroupShard] = CoordinatorRuntime(
            runtime_spec or group_runtime_spec(settings.settings(GroupCoordinatorSettings)),
            new_shard=self._new_shard,
            metadata=metadata,
            replicas=replicas,
            clock=clock,
            on_timers=self._on_timers,
        )
        metadata.subscribe(self._image_changed)
        group_configs.add_listener(lambda group_id, overrides: self._pin(group_id, overrides.get("group.type")))

    def attach_share_partitions(self, share_partitions: SharePartitions) -> None:
        """The share-partition runtime (built after this coordinator: it reads group configs)."""
        self.share_partitions = share_partitions

    def _new_shard(self, partition: int, timer: CoordinatorTimer) -> GroupShard:
        shard = GroupShard(
            partition,
            now_ms=self.clock(),
            timer=timer,
            classic_config=CoordinatorConfig.from_settings(self._settings.settings(ClassicGroupSettings)),
            topics=self._topics,
            share_session_timeout_ms=self._share_session_timeout_ms,
            topic_table=self._topic_table,
            consumer_config=self._consumer_config(),
            streams_config=self._streams_config(),
        )
        # The group.type group config pins which kind of group an id may become.
        for group_id in self.group_configs.groups():
            if self.runtime.partition_for(group_id) == partition:
                shard.share.pin_group_type(group_id, self.group_configs.group_type(group_id))
        return shard

    def _consumer_config(self) -> ConsumerGroupConfig:
        config = ConsumerGroupConfig.from_settings(self._settings.settings(ConsumerGroupSettings))
        config.group_configs = self.group_configs.overrides
        config.assignment_interval_of = self._assignment_interval("consumer.assignment.interval.ms")
        return config

    def _streams_config(self) -> StreamsGroupConfig:
        config = StreamsGroupConfig.from_settings(self._settings.settings(StreamsGroupSettings))
        config.group_configs = self.group_configs.overrides
        config.assignment_interval_of = self._assignment_interval("streams.assignment.interval.ms")
        return config

    def _assignment_interval(self, key: str) -> Callable[[str], int]:
        """A group's ``<type>.assignment.interval.ms`` as the group config store resolves it
        (override, else the live broker default, within the broker's bounds)."""
        return lambda group_id: int(self.group_configs.effective(group_id, key))

    def _pin(self, group_id: str, group_type: str | None) -> None:
        pid = self.runtime.partition_for(group_id)
        if self.runtime.is_loaded(pid):
            self.runtime.shard(pid).share.pin_group_type(group_id, group_type)

    def _share_session_timeout_ms(self, group_id: str) -> int:
        return self.group_configs.share_settings(group_id).session_timeout_ms

    def _share_heartbeat_interval_ms(self, group_id: str) -> int:
        return self.group_configs.share_settings(group_id).heartbeat_interval_ms

    def _share_assignment_interval_ms(self, group_id: str) -> int:
        return self.group_configs.share_settings(group_id).assignment_interval_ms

    # --- lifecycle -------------------------------------------------------------------

    async def load(self) -> None:
        """Load every partition of ``__consumer_offsets`` this broker leads (start-up)."""
        await self.runtime.load_led()

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        async with trio.open_nursery() as nursery:
            self._nursery = nursery
            await nursery.start(self.runtime.run)
            task_status.started()
            try:
                await trio.sleep_forever()
            finally:
                self._nursery = None

    # --- routing ---------------------------------------------------------------------

    def partition_for(self, group_id: str) -> int:
        return self.runtime.partition_for(group_id)

    async def shard_for(self, group_id: str) -> tuple[int, GroupShard]:
        """The group's shard (raises KafkaError NOT_COORDINATOR and friends)."""
        pid = self.runtime.partition_for(group_id)
        return pid, await self.runtime.get_shard(pid)

    def loaded_shard(self, group_id: str) -> GroupShard | None:
        pid = self.runtime.partition_for(group_id)
        return self.runtime.shard(pid) if self.runtime.is_loaded(pid) else None

    def shards(self) -> list[GroupShard]:
        return [shard for _, shard in self.runtime.loaded()]

    def group_type(self, group_id: str) -> str | None:
        """The type of the group with this id, or None (also when not hosted here)."""
        shard = self.loaded_shard(group_id)
        return None if shard is None else shard.group_type(group_id)

    # --- persistence -----------------------------------------------------------------

    async def write(self, group_id: str, records: Iterable[Any]) -> ErrorCode:
        """Append records (pairs, or objects with ``key``/``value``) to the group's
        partition and wait until durable; the error a group API answers, or NONE."""
        items = [_pair(r) for r in records]
        if not items:
            return ErrorCode.NONE
        pid = self.runtime.partition_for(group_id)
        try:
            await self.runtime.get_shard(pid)
            await self.runtime.write(pid, items)
        except KafkaError as exc:
            log.warning("group_write_failed", group=group_id, error=str(exc))
            return append_error(exc)
        return ErrorCode.NONE

    async def _settled(self, pid: int) -> None:
        """Wait until every write appended to partition ``pid`` is durable (at once when
        none is in flight). The shard applies a commit before its write is durable, so
        without this a read could answer an offset that a failed write then takes back
        (Kafka's coordinators read at the partition's last committed offset). A write that
        fails answers the read as it answers the write (COORDINATOR_NOT_AVAILABLE,
        NOT_COORDINATOR)."""
        partition = self.runtime.partition(pid)
        if partition is None:
            return
        part_log = partition.log
        if part_log.high_watermark >= part_log.log_end_offset and not part_log.needs_flush():
            return
        try:
            await self.runtime.wait_durable([partition])
        except KafkaError as exc:
            raise KafkaError(append_error(exc), f"offsets not readable yet: {exc}") from exc

    async def _flush(
        self,
        pid: int,
        shard: GroupShard,
        extra: Sequence[Record] = (),
        on_appended: Callable[[], None] | None = None,
    ) -> ErrorCode:
        """Write ``extra``, apply ``on_appended`` once they are in the log, wait for
        durability, then hand out the classic core's parked answers. Everything before the
        first await runs at once, so records reach the log in the order the state changed."""
        records = list(extra)
        outbox = shard.classic.take_outbox()
        error = ErrorCode.NONE
        partition = None
        if records:
            try:
                partition, _ = self.runtime.append(pid, records)
            except KafkaError as exc:
                log.warning("coordinator_append_failed", partition=pid, error=str(exc))
                error = append_error(exc)
        if on_appended is not None and not error:
            on_appended()
        if partition is not None:
            try:
                await self.runtime.wait_durable([partition])
            except KafkaError as exc:
                log.warning("coordinator_fsync_failed", partition=pid, error=str(exc))
                error = error or append_error(exc)
            else:
                await self.runtime.maybe_rewrite(pid)
        self._deliver(pid, outbox)
        return error

    def _deliver(self, pid: int, outbox: Iterable[tuple[int, Any]]) -> None:
        for token, response in outbox:
            waiter = self._waiters.get((pid, token))
            if waiter is not None:  # else its request was abandoned (connection gone)
                waiter.result = response
                waiter.event.set()

    async def _answer(self, pid: int, shard: GroupShard, result: CoordinatorResult[Any]) -> Any:
        """Flush the result's records, then return its response or (for :class:`Pending`)
        wait for the parked request's answer."""
        response = result.response
        if not isinstance(response, Pending):
            await self._flush(pid, shard, result.records)
            return response
        key = (pid, response.token)
        waiter = self._waiters[key] = _Waiter()
        try:
            await self._flush(pid, shard, result.records)
            await waiter.event.wait()
            return waiter.result
        finally:
            self._waiters.pop(key, None)

    # --- timers ----------------------------------------------------------------------

    async def _on_timers(self, pid: int, shard: GroupShard, due: DueTasks) -> None:
        """The shard's due timers (classic rebalance and session timers, consumer and
        streams member timeouts, share-group sessions, offset expiry), one by one, each
        seeing what the previous one changed; their records go in one flush."""
        now = self.clock()
        records: list[Record] = []
        expired: list[tuple[str, str]] = []
        expire_offsets = False
        for kind, _, task in due:
            result = task(now)
            if kind == "classic":
                records += result.records
            elif kind == "consumer":
                records += self._consumer_applied(shard, result.records, now)
                for record in result.records:
                    if record.type is ConsumerRecordType.MEMBER and record.value is None:
                        log.info("consumer_member_fenced", group=record.group_id, member=record.sub)
            elif kind == "streams":
                records += self._streams_applied(shard, result.records)
            elif kind == "share":
                records += [_pair(r) for r in result.records]
                self._metrics.rebalanced(result.records)
                for group_id, member_id in result.expired:
                    log.info("share_member_expired", group=group_id, member=member_id)
                expired += result.expired
            else:
                expire_offsets = True
        # Flushed even without records: classic timers answer parked requests.
        await self._flush(pid, shard, records)
        if self.share_partitions is not None:
            for group_id, member_id in expired:
                await self.share_partitions.release_member(group_id, member_id)
        if expire_offsets:
            try:
                await self.expire_offsets_of(pid, shard)
            except Exception:
                log.exception("offset_expiry_failed")

    # ================================================================== classic groups

    async def join(self, group_id: str, member_id: str, **kwargs: Any) -> JoinGroupResponse:
        pid, shard = await self.shard_for(group_id)
        consumer = shard.consumer.groups.get(group_id)
        if consumer is not None and consumer.members:
            return await self._classic_join_to_consumer(pid, shard, group_id, member_id, **kwargs)
        if consumer is not None:
            # A classic member joining an empty consumer group replaces it (Kafka's
            # maybeDeleteEmptyConsumerGroup); its offsets stay.
            deleted = shard.consumer.delete_group(group_id)
            error = await self._write_consumer(pid, shard, deleted.records)
            if error:
                return JoinGroupResponse(error_code=error, generation_id=-1, leader="", member_id=member_id)
        return await self._answer(pid, shard, shard.classic.join(group_id, member_id, now_ms=self.clock(), **kwargs))

    async def sync(self, group_id: str, generation_id: int, member_id: str, **kwargs: Any) -> SyncGroupResponse:
        pid, shard = await self.shard_for(group_id)
        if shard.consumer.group_type(group_id) is not None:
            response = shard.consumer.classic_sync(
                group_id,
                generation_id,
                member_id,
                instance_id=kwargs.get("group_instance_id"),
                protocol_type=kwargs.get("protocol_type"),
                protocol_name=kwargs.get("protocol_name"),
                now_ms=self.clock(),
            )
            return response
        return await self._answer(
            pid, shard, shard.classic.sync(group_id, generation_id, member_id, now_ms=self.clock(), **kwargs)
        )

    async def heartbeat(
        self, group_id: str, generation_id: int, member_id: str, group_instance_id: str | None
    ) -> ErrorCode:
        pid, shard = await self.shard_for(group_id)
        if shard.consumer.group_type(group_id) is not None:
            error = shard.consumer.classic_heartbeat(
                group_id, generation_id, member_id, group_instance_id, self.clock()
            )
            return error
        result = shard.classic.heartbeat(group_id, generation_id, member_id, group_instance_id, now_ms=self.clock())
        await self._flush(pid, shard, result.records)
        assert result.response is not None
        return result.response

    async def leave(
        self, group_id: str, members: list[tuple[str, str | None]]
    ) -> tuple[ErrorCode, list[tuple[str, str | None, ErrorCode]]]:
        pid, shard = await self.shard_for(group_id)
        if shard.consumer.group_type(group_id) is not None:
            result = shard.consumer.classic_leave(group_id, members, self.clock())
            error = await self._write_consumer(pid, shard, result.records)
            assert result.response is not None  # classic_leave answers for every member
            return error, result.response
        left = shard.classic.leave(group_id, members, now_ms=self.clock())
        await self._flush(pid, shard, left.records)
        assert left.response is not None
        return left.response

    async def _classic_join_to_consumer(
        self, pid: int, shard: GroupShard, group_id: str, member_id: str, **kwargs: Any
    ) -> JoinGroupResponse:
        """A JoinGroup to a consumer group with members: the member joins it as a classic
        member (online migration), answered once its records are durable."""
        result = shard.consumer.classic_join(
            group_id,
            member_id,
            instance_id=kwargs.get("group_instance_id"),
            protocol_type=kwargs["protocol_type"],
            protocols=kwargs["protocols"],
            session_timeout_ms=kwargs["session_timeout_ms"],
            rebalance_timeout_ms=kwargs["rebalance_timeout_ms"],
            client_id=kwargs.get("client_id", ""),
            client_host=kwargs.get("client_host", ""),
            api_version=kwargs.get("api_version", 9),
            now_ms=self.clock(),
        )
        assert result.response is not None
        error = await self._write_consumer(pid, shard, result.records)
        if error:
            return JoinGroupResponse(error_code=error, generation_id=-1, leader="", member_id=member_id)
        return result.response

    async def describe(self, group_id: str) -> DescribedGroup | None:
        _, shard = await self.shard_for(group_id)
        return shard.classic.describe(group_id)

    def list_groups(self) -> list[ListedGroup]:
        """Every classic group hosted here: (group id, protocol type, state, type)."""
        return [g for shard in self.shards() for g in shard.classic.list_groups()]

    def list_share_groups(self, states_filter: Iterable[str] = ()) -> list[Any]:
        states = tuple(states_filter)
        return [g for shard in self.shards() for g in shard.share.list_groups(states)]

    async def delete_group(self, group_id: str) -> ErrorCode:
        """DeleteGroups for one classic group: GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP, or
        the group and its offsets are gone (durably) and NONE."""
        pid, shard = await self.shard_for(group_id)
        if shard.consumer.group_type(group_id) is not None:
            return await self._delete_consumer_group(pid, shard, group_id)
        if shard.streams.group_type(group_id) is not None:
            return await self._delete_streams_group(pid, shard, group_id)
        error = shard.classic.validate_delete_group(group_id)
        if error:
            return error
        removals = list(shard.offsets.partitions(group_id))
        records = [offset_commit_record(group_id, topic, partition, None) for topic, partition, _ in removals]
        records += shard.classic.remove_group(group_id, now_ms=self.clock()).records

        def apply() -> None:
            for topic, partition, _ in removals:
                shard.offsets.remove(group_id, topic, partition)

        return await self._flush(pid, shard, records, apply)

    # ================================================================== offsets

    async def commit_offsets(
        self,
        group_id: str,
        *,
        member_id: str,
        group_instance_id: str | None,
        generation: int,
        api_version: int,
        entries: list[CommitEntry],
        retention_ms: int = -1,
    ) -> list[ErrorCode]:
        """OffsetCommit: one error per entry, answered once the commit is durable."""
        try:
            pid, shard = await self.shard_for(group_id)
        except KafkaError as exc:
            return [exc.code] * len(entries)
        check = shard.validate_offset_commit(
            group_id, member_id, group_instance_id, generation, api_version, now_ms=self.clock()
        )
        if check.error:
            await self._flush(pid, shard, check.records)
            return [check.error] * len(entries)
        now = self.clock()
        expire = now + retention_ms if retention_ms >= 0 else -1
        limit = shard.classic.config.offset_metadata_max_bytes
        results: list[ErrorCode] = []
        records: list[Record] = []
        accepted: list[tuple[int, str, int, CommittedOffset]] = []
        for entry in entries:
            refused = check.partition_error(entry.topic, entry.partition)
            if refused:
                results.append(refused)
                continue
            if entry.metadata is not None and len(entry.metadata) > limit:
                results.append(ErrorCode.OFFSET_METADATA_TOO_LARGE)
                continue
            value = CommittedOffset(entry.offset, entry.leader_epoch, entry.metadata or "", now, expire)
            records.append(offset_commit_record(group_id, entry.topic, entry.partition, value))
            accepted.append((len(results), entry.topic, entry.partition, value))
            results.append(ErrorCode.NONE)

        def apply() -> None:
            for _, topic, partition, value in accepted:
                shard.offsets.put(group_id, topic, partition, value)

        error = await self._flush(pid, shard, [*records, *check.records], apply)
        if error:
            for index, *_ in accepted:
                results[index] = error
        return results

    async def fetch_offsets(
        self,
        group_id: str,
        topics: list[tuple[str, list[int]]] | None,
        *,
        member_id: str | None = None,
        member_epoch: int = -1,
        require_stable: bool = False,
    ) -> list[tuple[str, list[tuple[int, CommittedOffset | ErrorCode | None]]]]:
        """OffsetFetch: the committed offset (or None) of each asked partition; every
        committed offset of the group when ``topics`` is None. A consumer-group member
        (v9+) must send its current epoch (raises KafkaError STALE_MEMBER_EPOCH,
        UNKNOWN_MEMBER_ID). With ``require_stable`` a partition an open transaction
        holds an offset for is UNSTABLE_OFFSET_COMMIT."""
        pid, shard = await self.shard_for(group_id)
        error = shard.validate_offset_fetch(group_id, member_id, member_epoch)
        if error:
            raise KafkaError(error)
        await self._settled(pid)
        shard = self.runtime.shard(pid)  # a failed write meanwhile reloads it
        visible = shard.offsets_visible(group_id)
        offsets = shard.offsets

        def entry(topic: str, p: int, value: CommittedOffset | None) -> CommittedOffset | ErrorCode | None:
            if require_stable and offsets.has_pending(group_id, topic, p):
                return ErrorCode.UNSTABLE_OFFSET_COMMIT
            return value

        if topics is None:
            if not visible:
                return []
            return [
                (topic, [(p, entry(topic, p, c)) for p, c in sorted(partitions.items())])
                for topic, partitions in offsets.topics(group_id).items()
            ]
        return [
            (topic, [(p, entry(topic, p, offsets.get(group_id, topic, p) if visible else None)) for p in partitions])
            for topic, partitions in topics
        ]

    # ================================================================== transactional offsets

    async def commit_transactional_offsets(
        self,
        group_id: str,
        *,
        producer_id: int,
        producer_epoch: int,
        member_id: str,
        group_instance_id: str | None,
        generation: int,
        entries: list[CommitEntry],
        verification_guard: VerificationGuard | None = None,
    ) -> list[ErrorCode]:
        """TxnOffsetCommit: the offsets are written in the producer's transaction (a
        transactional batch on the group's partition) and wait there until its marker.
        One error per entry, answered once the batch is durable."""
        try:
            pid, shard = await self.shard_for(group_id)
        except KafkaError as exc:
            return [exc.code] * len(entries)
        # Classic, consumer (KIP-848) and streams (KIP-1071) groups each by their rules.
        check = shard.validate_offset_commit(
            group_id, member_id, group_instance_id, generation, 0, transactional=True, now_ms=self.clock()
        )
        await self._flush(pid, shard, check.records)
        if check.error:
            return [check.error] * len(entries)
        now = self.clock()
        limit = shard.classic.config.offset_metadata_max_bytes
        results: list[ErrorCode] = []
        records: list[Record] = []
        accepted: list[tuple[int, CommitEntry, CommittedOffset]] = []
        for entry in entries:
            refused = check.partition_error(entry.topic, entry.partition)
            if refused:
                results.append(refused)
                continue
            if entry.metadata is not None and len(entry.metadata) > limit:
                results.append(ErrorCode.OFFSET_METADATA_TOO_LARGE)
                continue
            value = CommittedOffset(entry.offset, entry.leader_epoch, entry.metadata or "", now, -1)
            records.append(offset_commit_record(group_id, entry.topic, entry.partition, value))
            accepted.append((len(results), entry, value))
            results.append(ErrorCode.NONE)
        if not records:
            return results
        try:
            partition, _ = self.runtime.append(
                pid,
                records,
                producer_id=producer_id,
                producer_epoch=producer_epoch,
                verification_guard=verification_guard,
            )
        except KafkaError as exc:
            log.warning("txn_offset_commit_append_failed", group=group_id, error=str(exc))
            code = exc.code if exc.code in _TXN_APPEND_PASSTHROUGH else append_error(exc)
            for index, *_ in accepted:
                results[index] = code
            return results
        for _, entry, value in accepted:
            shard.offsets.put_pending(producer_id, group_id, entry.topic, entry.partition, value)
        try:
            await self.runtime.wait_durable([partition])
        except KafkaError as exc:
            for index, *_ in accepted:
                results[index] = append_error(exc)
        return results

    async def complete_transaction(
        self,
        partition: int,
        producer_id: int,
        producer_epoch: int,
        coordinator_epoch: int,
        committed: bool,
        transaction_version: int,
    ) -> ErrorCode:
        """A transaction marker for ``__consumer_offsets``-``partition`` (WriteTxnMarkers):
        appended, then the producer's pending offsets there apply or go; NONE once durable."""
        try:
            shard = await self.runtime.get_shard(partition)
            part, _ = self.runtime.append_marker(
                partition,
                producer_id=producer_id,
                producer_epoch=producer_epoch,
                coordinator_epoch=coordinator_epoch,
                committed=committed,
                transaction_version=transaction_version,
            )
        except KafkaError as exc:
            log.warning("txn_marker_append_failed", partition=partition, error=str(exc))
            return exc.code
        shard.end_transaction(producer_id, committed, self.clock())
        try:
            await self.runtime.wait_durable([part])
        except KafkaError as exc:
            return exc.code
        return ErrorCode.NONE

    async def delete_offsets(
        self, group_id: str, topics: list[tuple[str, list[int]]]
    ) -> tuple[ErrorCode, list[tuple[str, list[tuple[int, ErrorCode]]]]]:
        """OffsetDelete: a group-level error, else per partition NONE or
        GROUP_SUBSCRIBED_TO_TOPIC; answered once the tombstones are durable."""
        pid, shard = await self.shard_for(group_id)
        error = shard.validate_offset_delete(group_id)
        if error:
            return error, []
        out: list[tuple[str, list[tuple[int, ErrorCode]]]] = []
        records: list[Record] = []
        removals: list[tuple[str, int]] = []
        for topic, partitions in topics:
            if shard.is_subscribed_to_topic(group_id, topic):
                out.append((topic, [(p, ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC) for p in partitions]))
                continue
            for p in partitions:
                if shard.offsets.get(group_id, topic, p) is not None:
                    records.append(offset_commit_record(group_id, topic, p, None))
                    removals.append((topic, p))
            out.append((topic, [(p, ErrorCode.NONE) for p in partitions]))

        def apply() -> None:
            for topic, p in removals:
                shard.offsets.remove(group_id, topic, p)

        error = await self._flush(pid, shard, records, apply)
        return error, out

    async def expire_offsets(self) -> int:
        """Expire offsets in every hosted shard now; returns how many went."""
        total = 0
        for pid, shard in list(self.runtime.loaded()):
            total += await self.expire_offsets_of(pid, shard)
        return total

    async def expire_offsets_of(self, pid: int, shard: GroupShard) -> int:
        """Remove offsets past retention, and Empty groups left without offsets
        (Kafka's cleanupGroupMetadata); returns how many offsets went."""
        now = self.clock()
        classic = shard.classic
        retention = classic.config.offsets_retention_ms
        records: list[Record] = []
        removals: list[tuple[str, str, int]] = []
        orphans = [g for g in shard.offsets.groups() if g not in classic.groups]
        for group_id in list(classic.groups) + orphans:
            base = shard.offset_expiry_base(group_id)
            if base is None:
                continue

            def subscribed(topic: str, group_id: str = group_id) -> bool:
                return shard.is_subscribed_to_topic(group_id, topic)

            expired, everything = shard.offsets.expired(group_id, now, retention, base, subscribed)
            for topic, partition in expired:
                records.append(offset_commit_record(group_id, topic, partition, None))
                removals.append((group_id, topic, partition))
            if everything:
                records += shard.maybe_remove_empty_group(group_id, now)

        def apply() -> None:
            for group_id, topic, partition in removals:
                shard.offsets.remove(group_id, topic, partition)

        if records or classic.groups:
            await self._flush(pid, shard, records, apply)
        if removals:
            log.info("offsets_expired", count=len(removals))
        return len(removals)

    # ================================================================== consumer groups (KIP-848)

    async def consumer_heartbeat(
        self,
        request: ConsumerGroupHeartbeatRequest,
        *,
        api_version: int,
        client_id: str,
        client_host: str,
    ) -> ConsumerGroupHeartbeatResponse:
        """ConsumerGroupHeartbeat: run the core, make its records durable, then answer."""
        try:
            pid, shard = await self.shard_for(request.group_id)
        except KafkaError as exc:
            return ConsumerGroupHeartbeatResponse(error_code=exc.code, error_message=exc.message or None)
        result = shard.consumer.heartbeat(
            request, now_ms=self.clock(), api_version=api_version, client_id=client_id, client_host=client_host
        )
        error = await self._write_consumer(pid, shard, result.records)
        if error:
            return ConsumerGroupHeartbeatResponse(error_code=error, error_message=error.message)
        assert result.response is not None
        return result.response

    async def consumer_describe(self, group_ids: Iterable[str]) -> list[cg_describe.DescribedGroup]:
        out: list[cg_describe.DescribedGroup] = []
        for group_id in group_ids:
            try:
                _, shard = await self.shard_for(group_id)
            except KafkaError as exc:
                out.append(cg_describe.DescribedGroup(error_code=exc.code, group_id=group_id))
                continue
            out += shard.consumer.describe([group_id])
        return out

    def list_consumer_groups(self) -> list[tuple[str, str]]:
        """(group id, state) of every consumer group hosted here."""
        return [g for shard in self.shards() for g in shard.consumer.list_groups()]

    async def _delete_consumer_group(self, pid: int, shard: GroupShard, group_id: str) -> ErrorCode:
        result = shard.consumer.delete_group(group_id)
        if result.response:
            return result.response
        removals = list(shard.offsets.partitions(group_id))
        records = [offset_commit_record(group_id, topic, partition, None) for topic, partition, _ in removals]
        records += shard.apply_consumer_records(result.records, self.clock())

        def apply() -> None:
            for topic, partition, _ in removals:
                shard.offsets.remove(group_id, topic, partition)

        return await self._flush(pid, shard, records, apply)

    async def _write_consumer(self, pid: int, shard: GroupShard, records: Sequence[Any]) -> ErrorCode:
        """Replay the consumer core's records (before any await, so concurrent requests
        see them in order), append them with any classic work, and wait until durable."""
        if not records:
            return ErrorCode.NONE
        return await self._flush(pid, shard, self._consumer_applied(shard, records, self.clock()))

    def _consumer_applied(self, shard: GroupShard, records: Sequence[Any], now_ms: int) -> list[Record]:
        """The consumer core's records replayed; framed to append."""
        framed = shard.apply_consumer_records(records, now_ms)
        self._metrics.consumer_rebalanced(
            sum(
                1
                for r in records
                if getattr(r, "type", None) is ConsumerRecordType.TARGET_EPOCH and r.value is not None
            )
        )
        return framed

    def _consumer_metadata_changed(self) -> None:
        """Topics changed: re-resolve regular expressions and bump groups whose
        subscribed topics changed (written in the background)."""
        now = self.clock()
        for pid, shard in list(self.runtime.loaded()):
            result = shard.consumer.on_metadata_changed(self._topic_table, now)
            if result.records and self._nursery is not None:
                self._nursery.start_soon(self._write_consumer, pid, shard, result.records)

    # ================================================================== streams groups (KIP-1071)

    async def streams_heartbeat(
        self,
        request: StreamsGroupHeartbeatRequest,
        *,
        api_version: int,
        client_id: str,
        client_host: str,
        may_not_create: Callable[[Sequence[str]], list[str]] | None = None,
    ) -> StreamsGroupHeartbeatResponse:
        """StreamsGroupHeartbeat: run the core, make its records durable, answer, and
        create the internal topics the topology still lacks (in the background, as
        Kafka's request handler does). ``may_not_create`` names the topics the member
        is not authorized to create; then none is created and the MISSING_INTERNAL_TOPICS
        status says so."""
        try:
            pid, shard = await self.shard_for(request.group_id)
        except KafkaError as exc:
            return StreamsGroupHeartbeatResponse(error_code=exc.code, error_message=exc.message or None)
        kind = shard.group_type(request.group_id)
        if kind not in (None, "streams"):
            return StreamsGroupHeartbeatResponse(
                error_code=ErrorCode.GROUP_ID_NOT_FOUND,
                error_message=f"Group {request.group_id} is not a streams group.",
            )
        result = shard.streams.heartbeat(
            request, now_ms=self.clock(), api_version=api_version, client_id=client_id, client_host=client_host
        )
        error = await self._write_streams(pid, shard, result.records)
        if error:
            return StreamsGroupHeartbeatResponse(error_code=error, error_message=error.message)
        assert result.response is not None
        response = result.response.response
        to_create: Sequence[Any] = result.response.topics_to_create
        if to_create and may_not_create is not None:
            denied = may_not_create([t.name for t in to_create])
            if denied:
                _missing_internal_detail(response, f"Unauthorized to CREATE on topics {', '.join(denied)}.")
                to_create = []
        if to_create and self._nursery is not None:
            self._nursery.start_soon(self._create_internal_topics, to_create)
        return response

    async def _create_internal_topics(self, topics: Sequence[Any]) -> None:
        for info in topics:
            if self._metadata.image.topic(info.name) is not None:
                continue
            try:
                await self._metadata.create_topic(
                    info.name,
                    info.partitions,
                    info.replication_factor if info.replication_factor > 0 else -1,
                    dict(info.configs),
                )
            except KafkaError as exc:
                if exc.code != ErrorCode.TOPIC_ALREADY_EXISTS:
                    log.warning("streams_internal_topic_failed", topic=info.name, error=str(exc))
            else:
                log.info("streams_internal_topic_created", topic=info.name, partitions=info.partitions)

    async def streams_topology_epoch(self, group_id: str, member_id: str | None = None) -> int:
        """The streams group's current topology epoch (-1 before it has one); with
        ``member_id``, that member must be in the group. Raises KafkaError:
        GROUP_ID_NOT_FOUND, UNKNOWN_MEMBER_ID, or the coordinator errors."""
        _, shard = await self.shard_for(group_id)
        group = shard.streams.groups.get(group_id) if shard.group_type(group_id) == "streams" else None
        if group is None:
            raise KafkaError(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} not found.")
        if member_id is not None and member_id not in group.members:
            raise KafkaError(ErrorCode.UNKNOWN_MEMBER_ID, f"Member {member_id} is not a member of group {group_id}.")
        return group.topology.epoch if group.topology is not None else -1

    async def streams_describe(self, group_ids: Iterable[str]) -> list[sg_describe.DescribedGroup]:
        out: list[sg_describe.DescribedGroup] = []
        for group_id in group_ids:
            try:
                _, shard = await self.shard_for(group_id)
            except KafkaError as exc:
                out.append(sg_describe.DescribedGroup(error_code=exc.code, group_id=group_id))
                continue
            out += shard.streams.describe([group_id], shard.group_type)
        return out

    def list_streams_groups(self) -> list[tuple[str, str]]:
        """(group id, state) of every streams group hosted here."""
        return [g for shard in self.shards() for g in shard.streams.list_groups()]

    async def _delete_streams_group(self, pid: int, shard: GroupShard, group_id: str) -> ErrorCode:
        result = shard.streams.delete_group(group_id)
        if result.response:
            return result.response
        removals = list(shard.offsets.partitions(group_id))
        records = [offset_commit_record(group_id, topic, partition, None) for topic, partition, _ in removals]
        records += shard.apply_streams_records(result.records)

        def apply() -> None:
            for topic, partition, _ in removals:
                shard.offsets.remove(group_id, topic, partition)

        return await self._flush(pid, shard, records, apply)

    async def _write_streams(self, pid: int, shard: GroupShard, records: Sequence[Any]) -> ErrorCode:
        if not records:
            return ErrorCode.NONE
        return await self._flush(pid, shard, self._streams_applied(shard, records))

    def _streams_applied(self, shard: GroupShard, records: Sequence[Any]) -> list[Record]:
        """The streams core's records replayed; framed to append."""
        framed = shard.apply_streams_records(records)
        self._metrics.streams_rebalanced(
            sum(1 for r in records if r.type is StreamsRecordType.TARGET_EPOCH and r.value is not None)
        )
        return framed

    # ================================================================== share groups

    async def share_heartbeat(
        self,
        group_id: str,
        member_id: str,
        member_epoch: int,
        rack_id: str | None,
        subscribed_topic_names: list[str] | None,
        *,
        client_id: str,
        client_host: str,
    ) -> ShareHeartbeat:
        try:
            _, shard = await self.shard_for(group_id)
        except KafkaError as exc:
            return ShareHeartbeat(exc.code, None, member_id, member_epoch, 0, None)
        result = shard.share.heartbeat(
            group_id,
            member_id,
            member_epoch,
            rack_id,
            subscribed_topic_names,
            self.clock(),
            max_size=self._settings.settings(GroupCoordinatorSettings).share_max_size,
            session_timeout_ms=self._share_session_timeout_ms(group_id),
            heartbeat_interval_ms=self._share_heartbeat_interval_ms(group_id),
            assignment_interval_ms=self._share_assignment_interval_ms(group_id),
            client_id=client_id or "",
            client_host=client_host,
        )
        answer = result.response
        assert answer is not None
        records = list(result.records)
        if answer.error_code == ErrorCode.NONE and answer.assignment:
            for topic_id, partitions in shard.share.uninitialized_partitions(group_id).items():
                if partitions:
                    records += shard.share.mark_initialized(group_id, topic_id, partitions)
        code = await self.write(group_id, records)
        if code:
            return ShareHeartbeat(code, None, member_id, member_epoch, 0, None)
        self._metrics.rebalanced(records)
        if answer.error_code == ErrorCode.NONE and self.share_partitions is not None and result.records:
            # Tell the share-partitions led here how many members the target gives each.
            self.share_partitions.expect_members(group_id, shard.share.sharing(group_id))
        if member_epoch == -1 and answer.error_code == ErrorCode.NONE and self.share_partitions is not None:
            # librdkafka sends its final ShareAcknowledge and this leave on two
            # connections, in either order. While the member's share session is
            # open, its close (or the connection's loss) gives the records back,
            # after applying those acks; releasing here could beat the acks.
            if not self.share_partitions.has_session(group_id, member_id):
                await self.share_partitions.release_member(group_id, member_id)
        return answer

    async def share_describe(self, group_ids: list[str]) -> list[Any]:
        out = []
        for group_id in group_ids:
            _, shard = await self.shard_for(group_id)
            out += shard.share.describe([group_id])
        return out

    async def delete_share_groups(self, group_ids: list[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for group_id in group_ids:
            try:
                _, shard = await self.shard_for(group_id)
            except KafkaError as exc:
                out[group_id] = exc.code
                continue
            result = shard.share.delete_group(group_id)
            if result.error_code:
                out[group_id] = result.error_code
                continue
            code = await self.write(group_id, result.records)
            if not code and self.share_partitions is not None:
                persister = self.share_partitions.persister
                for topic_id, partitions in result.initialized.items():
                    for p in partitions:
                        await persister.delete(group_id, topic_id, p)
                self.share_partitions.forget_group(group_id)
                # Group configs outlive the group, as in Kafka 4.2.
            out[group_id] = code
        return out

    def _image_changed(self, old: MetadataImage, new: MetadataImage) -> None:
        """Topics were created, deleted or grew: bump the epoch of the share groups that
        subscribe to them (persisted in the background; their next heartbeats re-target)."""
        if old.topics is new.topics or _same_topics(old, new):
            return
        self._consumer_metadata_changed()
        for _, shard in list(self.runtime.loaded()):
            shard.streams.on_metadata_changed(self._topic_table)
        for pid, shard in list(self.runtime.loaded()):
            records = shard.share.on_topics_changed()
            if records and self._nursery is not None:
                self._nursery.start_soon(self._write_retargeted, pid, records)

    async def _write_retargeted(self, pid: int, records: list[Any]) -> None:
        try:
            await self.runtime.write(pid, [_pair(r) for r in records])
        except KafkaError as exc:
            log.warning("share_group_write_failed", partition=pid, error=str(exc))
            return
        self._metrics.rebalanced(records)


def _same_topics(old: MetadataImage, new: MetadataImage) -> bool:
    if old.topics.keys() != new.topics.keys():
        return False
    return all(
        (t.topic_id, len(t.partitions)) == (new.topics[name].topic_id, len(new.topics[name].partitions))
        for name, t in old.topics.items()
    )


def _pair(record: Any) -> Record:
    if isinstance(record, tuple):
        return record[-2], record[-1]
    return record.key, record.value


def client_host(peer: str) -> str:
    """A member's ``client_host`` as Kafka shows it (``/127.0.0.1``) from ``host:port``."""
    host = peer.rsplit(":", 1)[0] if ":" in peer else peer
    return "/" + host.strip("[]")


def _missing_internal_detail(response: StreamsGroupHeartbeatResponse, detail: str) -> None:
    """Add ``detail`` to the response's MISSING_INTERNAL_TOPICS status (or add that status)."""
    for status in response.status or ():
        if status.status_code == streams_topology.Status.MISSING_INTERNAL_TOPICS:
            status.status_detail = f"{status.status_detail} {detail}" if status.status_detail else detail
            return
    response.status = [
        *(response.status or []),
        StreamsStatus(status_code=streams_topology.Status.MISSING_INTERNAL_TOPICS, status_detail=detail),
    ]
