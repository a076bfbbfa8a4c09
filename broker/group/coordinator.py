"""The group coordinator: every group type on the shared coordinator runtime.

One :class:`~broker.group.shard.GroupShard` per ``__consumer_offsets`` partition holds
the pure cores of the groups whose ids hash there (classic, consumer, streams and share
groups, and committed offsets); a group id is one type at a time. Consumer and streams
groups write Kafka 4.4's records (types 3-8, 16 and 17-23), replayed through
``load_record``.

:class:`GroupCoordinator` is the shell. For every operation it routes the group id to
its shard (NOT_COORDINATOR when this broker does not host it), runs the pure core,
appends the records the core produced to the shard's partition and answers once they
are durable. Each group type's dispatch is its own module in :mod:`broker.group.shell`
(``classic``, ``consumer``, ``streams``, ``share``, and ``offsets`` for the offsets of
every type, over ``base``); this class composes them, builds the runtime and its shards,
and keeps what crosses types:

- classic-protocol requests go to the classic core, or to the consumer core when the
  group of that id is a consumer group (its classic members);
- DeleteGroups goes to the core of the group's type;
- timers (classic rebalance and session timers, consumer and streams member timeouts,
  share-group session timeouts, offset expiry every
  ``offsets.retention.check.interval.ms``) run from the runtime's timer task, each kind
  handed to its type;
- topic creation, deletion and growth reach consumer, streams and share groups.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import structlog
import trio

from broker.config.services import (
    ClassicGroupSettings,
    ConsumerGroupSettings,
    GroupCoordinatorSettings,
    SettingsReader,
    StreamsGroupSettings,
)
from broker.coordinator.runtime import CoordinatorRuntime, CoordinatorSpec, DueTasks, Record, RuntimeService
from broker.coordinator.timer import CoordinatorTimer
from broker.group.classic.model import CoordinatorConfig
from broker.group.consumer.config import ConsumerGroupConfig
from broker.group.offsets import COORDINATOR_TOPIC
from broker.group.shard import GroupShard
from broker.group.shell.base import ImageTopics, ImageTopicTable, SharePartitions, Waiter, client_host
from broker.group.shell.classic import ClassicShell
from broker.group.shell.consumer import ConsumerShell
from broker.group.shell.offsets import CommitEntry, OffsetShell
from broker.group.shell.share import ShareShell
from broker.group.shell.streams import StreamsShell
from broker.group.streams import StreamsGroupConfig
from broker.metadata.group_configs import GroupConfigStore
from broker.metadata.image import MetadataImage
from broker.metadata.source import MetadataSource
from broker.metrics import Metrics
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.join_group_response import JoinGroupResponse
from broker.protocol.messages.sync_group_response import SyncGroupResponse
from broker.replica.manager import ReplicaManager

__all__ = [
    "CommitEntry",
    "GroupCoordinator",
    "GroupShard",
    "ImageTopics",
    "SharePartitions",
    "client_host",
    "group_runtime_spec",
]

log = structlog.get_logger("sharebroker.groups")

# Kafka's topic configs for __consumer_offsets: compacted (so time retention never
# deletes it), batches stored as written, 100 MiB segments.
TOPIC_CONFIGS = {"cleanup.policy": "compact", "compression.type": "producer", "segment.bytes": str(100 * 1024 * 1024)}
# Kafka's offsets.commit.timeout.ms: an offset commit not durable by then fails.
WRITE_TIMEOUT_MS = 5000


def group_runtime_spec(settings: GroupCoordinatorSettings) -> CoordinatorSpec:
    return CoordinatorSpec(
        name="group",
        topic=COORDINATOR_TOPIC,
        num_partitions=settings.offsets_topic_num_partitions,
        topic_configs=TOPIC_CONFIGS,
        write_timeout_ms=WRITE_TIMEOUT_MS,
        replication_factor=settings.offsets_topic_replication_factor,
    )


class GroupCoordinator(ClassicShell, ConsumerShell, StreamsShell, ShareShell, OffsetShell, RuntimeService[GroupShard]):
    """The shell of every group type: each type's dispatch is its mixin (:mod:`broker.group.shell`);
    this class builds the runtime and the shards, and routes what crosses types."""

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
        self._waiters: dict[tuple[int, int], Waiter] = {}
        self._nursery: trio.Nursery | None = None
        self.runtime: CoordinatorRuntime[GroupShard] = CoordinatorRuntime(
            runtime_spec or group_runtime_spec(settings.settings(GroupCoordinatorSettings)),
            new_shard=self._new_shard,
            metadata=metadata,
            replicas=replicas,
            clock=clock,
            on_timers=self._on_timers,
            on_unload=self._release_parked,
        )
        metadata.subscribe(self._image_changed)
        group_configs.add_listener(lambda group_id, overrides: self._pin(group_id, overrides.get("group.type")))

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

    # --- lifecycle -------------------------------------------------------------------

    # --- classic-protocol requests: to the classic core, or to the consumer group of that id

    async def join(self, group_id: str, member_id: str, **kwargs: Any) -> JoinGroupResponse:
        pid, shard = await self.shard_for(group_id)
        consumer = shard.consumer.groups.get(group_id)
        if consumer is not None and consumer.members:
            return await self._classic_join_to_consumer(pid, shard, group_id, member_id, **kwargs)
        if consumer is not None:
            error = await self._delete_empty_consumer_group(pid, shard, group_id)
            if error:
                return JoinGroupResponse(error_code=error, generation_id=-1, leader="", member_id=member_id)
        return await self._classic_join(pid, shard, group_id, member_id, **kwargs)

    async def sync(self, group_id: str, generation_id: int, member_id: str, **kwargs: Any) -> SyncGroupResponse:
        pid, shard = await self.shard_for(group_id)
        if shard.consumer.group_type(group_id) is not None:
            return self._consumer_classic_sync(shard, group_id, generation_id, member_id, **kwargs)
        return await self._classic_sync(pid, shard, group_id, generation_id, member_id, **kwargs)

    async def heartbeat(
        self, group_id: str, generation_id: int, member_id: str, group_instance_id: str | None
    ) -> ErrorCode:
        pid, shard = await self.shard_for(group_id)
        if shard.consumer.group_type(group_id) is not None:
            return self._consumer_classic_heartbeat(shard, group_id, generation_id, member_id, group_instance_id)
        return await self._classic_heartbeat(pid, shard, group_id, generation_id, member_id, group_instance_id)

    async def leave(
        self, group_id: str, members: list[tuple[str, str | None]]
    ) -> tuple[ErrorCode, list[tuple[str, str | None, ErrorCode]]]:
        pid, shard = await self.shard_for(group_id)
        if shard.consumer.group_type(group_id) is not None:
            return await self._consumer_classic_leave(pid, shard, group_id, members)
        return await self._classic_leave(pid, shard, group_id, members)

    async def delete_group(self, group_id: str) -> ErrorCode:
        """DeleteGroups for one group (classic, consumer or streams): GROUP_ID_NOT_FOUND,
        NON_EMPTY_GROUP, or the group and its offsets are gone (durably) and NONE."""
        pid, shard = await self.shard_for(group_id)
        if shard.consumer.group_type(group_id) is not None:
            return await self._delete_consumer_group(pid, shard, group_id)
        if shard.streams.group_type(group_id) is not None:
            return await self._delete_streams_group(pid, shard, group_id)
        return await self._delete_classic_group(pid, shard, group_id)

    # --- what crosses group types: timers and topic changes -------------------------

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
                records += self._consumer_timer_records(shard, result.records, now)
            elif kind == "streams":
                records += self._streams_applied(shard, result.records)
            elif kind == "share":
                records += self._share_timer_records(result)
                expired += result.expired
            else:
                expire_offsets = True
        # Flushed even without records: classic timers answer parked requests.
        await self._flush(pid, shard, records)
        await self._release_expired(expired)
        if expire_offsets:
            try:
                await self.expire_offsets_of(pid, shard)
            except Exception:
                log.exception("offset_expiry_failed")

    def _image_changed(self, old: MetadataImage, new: MetadataImage) -> None:
        """Topics were created, deleted or grew: consumer groups re-resolve their regular
        expressions, streams groups check their topologies, share groups re-target."""
        if old.topics is new.topics or _same_topics(old, new):
            return
        self._consumer_metadata_changed()
        self._streams_metadata_changed()
        self._share_topics_changed()


def _same_topics(old: MetadataImage, new: MetadataImage) -> bool:
    if old.topics.keys() != new.topics.keys():
        return False
    return all(
        (t.topic_id, len(t.partitions)) == (new.topics[name].topic_id, len(new.topics[name].partitions))
        for name, t in old.topics.items()
    )
