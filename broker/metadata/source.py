"""Where the metadata image comes from, and how topics are changed.

A :class:`MetadataSource` owns the current :class:`~broker.metadata.image.MetadataImage`
and tells subscribers about every new one. Topic changes (create, delete, grow,
configs) go through the source, never straight to the logs: on one node the
source applies them to the local catalog; in a cluster the controller writes
them to the coordination store and every broker follows.

Errors are :class:`~broker.protocol.errors.KafkaError` with Kafka's codes
(TOPIC_ALREADY_EXISTS, INVALID_PARTITIONS, INVALID_REPLICATION_FACTOR, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from broker.metadata.image import BrokerInfo, MetadataImage, TopicImage
from broker.protocol.errors import KafkaError

__all__ = ["ImageListener", "MetadataSource", "NewTopic"]


class NewTopic(NamedTuple):
    """One topic of a CreateTopics request (-1: the broker default)."""

    name: str
    partitions: int
    replication_factor: int
    configs: Mapping[str, Any]
    assignments: Sequence[Sequence[int]] | None = None
    internal: bool = False


# Called with (previous image, new image) after every change.
ImageListener = Callable[[MetadataImage, MetadataImage], None]


class MetadataSource(Protocol):
    node_id: int

    @property
    def image(self) -> MetadataImage:
        """The current image (immutable; take it again to see later changes)."""
        ...

    def subscribe(self, listener: ImageListener) -> None: ...

    def local_broker(self) -> BrokerInfo:
        """This broker as it registers itself (endpoints, rack), whether or not the image
        lists it at this moment."""
        ...

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
        """Create a topic (``partitions``/``replication_factor`` -1: the broker defaults)."""
        ...

    async def create_topics(
        self, topics: Sequence[NewTopic], *, validate_only: bool = False
    ) -> list[TopicImage | KafkaError]:
        """Create many topics at once (one catalog write, one controller request): per
        topic, in order, its image or why it was refused."""
        ...

    async def delete_topic(self, name: str) -> None: ...

    async def create_partitions(
        self,
        name: str,
        total: int,
        *,
        assignments: Sequence[Sequence[int]] | None = None,
        validate_only: bool = False,
    ) -> TopicImage: ...

    async def alter_topic_configs(
        self, name: str, set_: Mapping[str, Any], delete: Iterable[str], *, validate_only: bool = False
    ) -> TopicImage: ...

    async def elect_leaders(self, election_type: int, partitions: Sequence[tuple[str, int]] | None) -> list[Any]:
        """ElectLeaders: preferred (0) or unclean (1) elections of ``partitions`` (None: all);
        [[topic, partition, error code, message]] per partition answered."""
        ...

    async def alter_reassignments(
        self, partitions: Sequence[tuple[str, int, Sequence[int] | None]], *, allow_rf_change: bool = True
    ) -> list[Any]:
        """Start (replicas), or cancel (None), partition reassignments;
        [[topic, partition, error code, message]] per partition."""
        ...
