"""The metadata image: what the cluster looks like, as one immutable value.

Brokers with their endpoints per listener, topics with their partitions (leader,
leader epoch, replicas, in-sync replicas), and where each coordinator lives. A
source (:mod:`broker.metadata.source`) publishes a new image whenever anything
changes; readers take the current image and never see it change under them.

Nothing here knows how many nodes there are: a single broker's image simply
has one broker that leads every partition.
"""

from __future__ import annotations

import enum
import struct
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import NamedTuple

from broker.config.services import CoordinatorTopicSettings

__all__ = [
    "BrokerInfo",
    "CoordinatorLocation",
    "CoordinatorType",
    "Endpoint",
    "MetadataImage",
    "PartitionState",
    "TopicImage",
    "coordinator_partition",
    "java_string_hash",
]

NO_LEADER = -1


class CoordinatorType(enum.IntEnum):
    """FindCoordinator key types, and the internal topic each coordinator lives on."""

    GROUP = 0
    TRANSACTION = 1
    SHARE = 2


def coordinator_partitions(settings: CoordinatorTopicSettings | None) -> dict[CoordinatorType, int]:
    """The partition count of each coordinator's topic, by coordinator (none without settings)."""
    if settings is None:
        return {}
    return {
        CoordinatorType.GROUP: settings.offsets_topic_num_partitions,
        CoordinatorType.TRANSACTION: settings.transaction_state_log_num_partitions,
        CoordinatorType.SHARE: settings.share_state_topic_num_partitions,
    }


# The internal topic of each coordinator and the setting giving its partition count.
COORDINATOR_TOPICS: Mapping[CoordinatorType, tuple[str, str]] = MappingProxyType(
    {
        CoordinatorType.GROUP: ("__consumer_offsets", "offsets.topic.num.partitions"),
        CoordinatorType.TRANSACTION: ("__transaction_state", "transaction.state.log.num.partitions"),
        CoordinatorType.SHARE: ("__share_group_state", "share.coordinator.state.topic.num.partitions"),
    }
)


def java_string_hash(text: str) -> int:
    """Java's ``String.hashCode`` (over UTF-16 code units), as a signed 32-bit int."""
    h = 0
    for (unit,) in struct.iter_unpack(">H", text.encode("utf-16-be")):
        h = (31 * h + unit) & 0xFFFFFFFF
    return h - (1 << 32) if h & 0x80000000 else h


def coordinator_partition(key: str, partitions: int) -> int:
    """Kafka's ``Utils.abs(key.hashCode()) % partitions`` (abs of MIN_VALUE is 0)."""
    h = java_string_hash(key)
    return (0 if h == -(1 << 31) else abs(h)) % partitions


@dataclass(frozen=True, slots=True)
class Endpoint:
    listener: str
    host: str
    port: int
    security_protocol: str = "PLAINTEXT"


@dataclass(frozen=True, slots=True)
class BrokerInfo:
    node_id: int
    endpoints: tuple[Endpoint, ...]
    rack: str | None = None
    # Fences a restarted or paused process: a broker's registration epoch.
    epoch: int = 0
    fenced: bool = False

    def endpoint(self, listener: str | None = None) -> Endpoint | None:
        """The endpoint of ``listener`` (the first one when None)."""
        if listener is None:
            return self.endpoints[0] if self.endpoints else None
        return next((e for e in self.endpoints if e.listener == listener), None)


@dataclass(frozen=True, slots=True)
class PartitionState:
    leader: int
    leader_epoch: int
    replicas: tuple[int, ...]
    isr: tuple[int, ...]
    # Bumped on every change of the partition (leader, ISR, replicas).
    partition_epoch: int = 0
    offline_replicas: tuple[int, ...] = ()
    # A reassignment in progress: replicas being added and removed (both in ``replicas``).
    adding: tuple[int, ...] = ()
    removing: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True, weakref_slot=True)
class TopicImage:
    name: str
    topic_id: uuid.UUID
    partitions: tuple[PartitionState, ...]
    configs: Mapping[str, str] = field(default_factory=dict)
    internal: bool = False

    def partition(self, index: int) -> PartitionState | None:
        return self.partitions[index] if 0 <= index < len(self.partitions) else None


class CoordinatorLocation(NamedTuple):
    """Where a coordinator key lives: its internal topic partition and that partition's
    leader (``node_id`` -1 while the topic does not exist or has no leader)."""

    topic: str
    partition: int
    node_id: int


@dataclass(frozen=True)
class MetadataImage:
    cluster_id: str
    controller_id: int
    brokers: Mapping[int, BrokerInfo]
    topics: Mapping[str, TopicImage]
    # Partition counts of internal topics not created yet, from the settings.
    coordinator_partitions: Mapping[CoordinatorType, int] = field(default_factory=dict)
    version: int = 0
    # The topics whose images differ from the previous image's (listeners called with
    # (previous, this) may look at only these); None: not known, look at every topic.
    changed: frozenset[str] | None = field(default=None, repr=False, compare=False)
    by_id: Mapping[uuid.UUID, TopicImage] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "by_id", {t.topic_id: t for t in self.topics.values()})

    # --- lookups ---------------------------------------------------------------------

    def topic(self, name: str) -> TopicImage | None:
        return self.topics.get(name)

    def topic_by_id(self, topic_id: uuid.UUID) -> TopicImage | None:
        return self.by_id.get(topic_id)

    def partition(self, topic: str, index: int) -> PartitionState | None:
        t = self.topics.get(topic)
        return None if t is None else t.partition(index)

    def broker(self, node_id: int) -> BrokerInfo | None:
        return self.brokers.get(node_id)

    def live_brokers(self) -> Iterator[BrokerInfo]:
        return (b for b in self.brokers.values() if not b.fenced)

    def leader_endpoint(self, topic: str, index: int, listener: str | None) -> Endpoint | None:
        state = self.partition(topic, index)
        if state is None or state.leader == NO_LEADER:
            return None
        b = self.brokers.get(state.leader)
        return None if b is None else b.endpoint(listener)

    # --- coordinators ----------------------------------------------------------------

    def coordinator_for(self, key_type: CoordinatorType, key: str) -> CoordinatorLocation:
        """The internal-topic partition holding ``key`` and the node leading it.

        Group ids hash onto ``__consumer_offsets``, transactional ids onto
        ``__transaction_state``, share-partition keys (``group:topicId:partition``)
        onto ``__share_group_state``, with Kafka's hash, so the same key lands on
        the same partition as in Kafka.
        """
        topic_name, _ = COORDINATOR_TOPICS[key_type]
        topic = self.topics.get(topic_name)
        if topic is not None:
            p = coordinator_partition(key, len(topic.partitions))
            return CoordinatorLocation(topic_name, p, topic.partitions[p].leader)
        count = self.coordinator_partitions.get(key_type, 0)
        if count <= 0:
            return CoordinatorLocation(topic_name, -1, NO_LEADER)
        return CoordinatorLocation(topic_name, coordinator_partition(key, count), NO_LEADER)
