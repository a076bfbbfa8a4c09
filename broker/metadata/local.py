"""The single-node metadata source: this broker is the whole cluster.

The topic catalog is the log manager's (``topics.json`` in the data directory);
this node leads every partition at leader epoch 0 with itself as the only
replica and in-sync replica, and hosts every coordinator. Topic changes are
applied to the local catalog at once, and a new image is published after each.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from types import MappingProxyType
from typing import Any

from broker.config.services import CoordinatorTopicSettings
from broker.log.manager import LogManager, NewTopicSpec, TopicInfo, run_steps_async
from broker.metadata.image import (
    BrokerInfo,
    Endpoint,
    MetadataImage,
    PartitionState,
    TopicImage,
    coordinator_partitions,
)
from broker.metadata.source import ImageListener, NewTopic
from broker.protocol.errors import ErrorCode, KafkaError

__all__ = ["SingleNodeMetadata"]

# A single node's partitions never change leader, so their epoch never moves.
LEADER_EPOCH = 0


class SingleNodeMetadata:
    """A :class:`~broker.metadata.source.MetadataSource` for one broker."""

    def __init__(
        self,
        node_id: int,
        cluster_id: str,
        logs: LogManager,
        coordinator_topics: CoordinatorTopicSettings | None,
        *,
        rack: str | None = None,
    ) -> None:
        self.node_id = node_id
        self.cluster_id = cluster_id
        self._logs = logs
        self._coordinator_topics = coordinator_topics
        self._rack = rack
        self._endpoints: tuple[Endpoint, ...] = ()
        self._listeners: list[ImageListener] = []
        self._version = 0
        # {topic: (the catalog entry, its image)}: an image is made again only for a
        # topic whose catalog entry changed.
        self._topic_images: dict[str, tuple[TopicInfo, TopicImage]] = {}
        self._image = self._build()
        logs.topic_listeners.append(self._topics_changed)

    # --- the image -------------------------------------------------------------------

    @property
    def image(self) -> MetadataImage:
        return self._image

    def subscribe(self, listener: ImageListener) -> None:
        self._listeners.append(listener)

    def set_endpoints(self, endpoints: Iterable[Endpoint]) -> None:
        """What clients are told to connect to (known once the listeners are bound)."""
        self._endpoints = tuple(endpoints)
        self._publish()

    def _topics_changed(self, event: str, name: str) -> None:
        self._publish()

    def refresh(self) -> None:
        """Publish the catalog as it is now (after the logs were opened)."""
        self._publish()

    def _publish(self) -> None:
        old, self._image = self._image, self._build()
        for listener in list(self._listeners):
            listener(old, self._image)

    def local_broker(self) -> BrokerInfo:
        return BrokerInfo(self.node_id, self._endpoints, self._rack)

    def _build(self) -> MetadataImage:
        self._version += 1
        me = self.local_broker()
        catalog = self._logs.topics
        changed = {name for name in self._topic_images if name not in catalog}
        for name in changed:
            del self._topic_images[name]
        for name, info in catalog.items():
            cached = self._topic_images.get(name)
            if cached is None or cached[0] is not info:
                self._topic_images[name] = (info, self._topic_image(info))
                changed.add(name)
        topics = {name: image for name, (_, image) in self._topic_images.items()}
        counts = coordinator_partitions(self._coordinator_topics)
        return MetadataImage(
            cluster_id=self.cluster_id,
            controller_id=self.node_id,
            brokers=MappingProxyType({self.node_id: me}),
            topics=MappingProxyType(topics),
            coordinator_partitions=MappingProxyType(counts),
            version=self._version,
            changed=frozenset(changed),
        )

    def _topic_image(self, info: TopicInfo) -> TopicImage:
        me = (self.node_id,)
        state = PartitionState(self.node_id, LEADER_EPOCH, me, me)
        # A partition whose log directory failed has no leader (LEADER_NOT_AVAILABLE in
        # Metadata), as Kafka shows an offline partition.
        offline = PartitionState(-1, LEADER_EPOCH, me, (), offline_replicas=me)
        states = tuple(offline if self._logs.is_offline(info.name, p) else state for p in range(info.partitions))
        return TopicImage(info.name, info.topic_id, states, info.configs, info.internal)

    def _topic(self, name: str) -> TopicImage:
        image = self._image.topic(name)
        if image is None:
            raise KafkaError(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"topic {name} does not exist")
        return image

    # --- topic changes ---------------------------------------------------------------

    def _check_assignments(self, assignments: Sequence[Sequence[int]] | None) -> None:
        for replicas in assignments or ():
            unknown = [b for b in replicas if b != self.node_id]
            if unknown:
                raise KafkaError(
                    ErrorCode.INVALID_REPLICA_ASSIGNMENT,
                    f"Unknown broker(s) {unknown} in the replica assignment: the only broker is {self.node_id}.",
                )

    async def create_topic(
        self,
        name: str,
        partitions: int,
        replication_factor: int,
        configs: Mapping[str, Any],
        *,
        assignments: Sequence[Sequence[int]] | None = None,
        validate_only: bool = False,
        internal: bool = False,
    ) -> TopicImage:
        self._check_assignments(assignments)
        if internal:
            # offsets.topic.replication.factor and friends: one copy is all a node has.
            replication_factor = -1
            configs = {k: v for k, v in configs.items() if k != "min.insync.replicas"}
        info = await run_steps_async(
            self._logs.create_topic_steps(
                name,
                partitions,
                configs,
                internal=internal,
                validate_only=validate_only,
                replication_factor=replication_factor,
            )
        )
        return self._topic_image(info)

    async def create_topics(
        self, topics: Sequence[NewTopic], *, validate_only: bool = False
    ) -> list[TopicImage | KafkaError]:
        """Every topic of a CreateTopics request with one catalog write."""
        specs = []
        refused: dict[int, KafkaError] = {}
        for i, t in enumerate(topics):
            try:
                self._check_assignments(t.assignments)
            except KafkaError as exc:
                refused[i] = exc
                continue
            configs, replication_factor = t.configs, t.replication_factor
            if t.internal:
                replication_factor = -1
                configs = {k: v for k, v in configs.items() if k != "min.insync.replicas"}
            partitions = len(t.assignments) if t.assignments else t.partitions
            specs.append(NewTopicSpec(t.name, partitions, configs, t.internal, replication_factor))
        created = iter(await run_steps_async(self._logs.create_topics_steps(specs, validate_only=validate_only)))
        out: list[TopicImage | KafkaError] = []
        for i in range(len(topics)):
            if i in refused:
                out.append(refused[i])
                continue
            outcome = next(created)
            out.append(outcome if isinstance(outcome, KafkaError) else self._topic_image(outcome))
        return out

    async def delete_topic(self, name: str) -> None:
        self._logs.delete_topic(name)

    async def create_partitions(
        self,
        name: str,
        total: int,
        *,
        assignments: Sequence[Sequence[int]] | None = None,
        validate_only: bool = False,
    ) -> TopicImage:
        self._check_assignments(assignments)
        info = self._logs.create_partitions(name, total, validate_only=validate_only)
        return self._topic_image(info)

    async def elect_leaders(self, election_type: int, partitions: Sequence[tuple[str, int]] | None) -> list[Any]:
        """Every partition is led by its only replica: nothing to elect."""
        if partitions is None:
            return []
        out: list[Any] = []
        for topic, index in partitions:
            t = self._image.topic(topic)
            if t is None or t.partition(index) is None:
                out.append([topic, index, int(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION), None])
            else:
                out.append([topic, index, int(ErrorCode.ELECTION_NOT_NEEDED), None])
        return out

    async def alter_reassignments(
        self, partitions: Sequence[tuple[str, int, Sequence[int] | None]], *, allow_rf_change: bool = True
    ) -> list[Any]:
        """The only possible assignment is this broker: it is accepted and done at once."""
        out: list[Any] = []
        for topic, index, replicas in partitions:
            t = self._image.topic(topic)
            if t is None or t.partition(index) is None:
                out.append([topic, index, int(ErrorCode.UNKNOWN_TOPIC_OR_PARTITION), None])
            elif replicas is None:
                out.append([topic, index, int(ErrorCode.NO_REASSIGNMENT_IN_PROGRESS), None])
            elif list(replicas) != [self.node_id]:
                out.append(
                    [
                        topic,
                        index,
                        int(ErrorCode.INVALID_REPLICA_ASSIGNMENT),
                        f"Unknown broker(s) {[b for b in replicas if b != self.node_id]} in the replica assignment: "
                        f"the only broker is {self.node_id}.",
                    ]
                )
            else:
                out.append([topic, index, 0, None])
        return out

    async def alter_topic_configs(
        self, name: str, set_: Mapping[str, Any], delete: Iterable[str], *, validate_only: bool = False
    ) -> TopicImage:
        info = self._logs.alter_topic_configs(name, set_, delete, validate_only=validate_only)
        if not validate_only:
            self._publish()
        return self._topic_image(info)
