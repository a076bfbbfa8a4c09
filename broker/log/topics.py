"""Topics as the log manager knows them: what to create, what the catalog holds, and
Kafka's rules for names and partition counts."""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from broker.protocol.errors import ErrorCode, KafkaError

__all__ = [
    "MAX_PARTITIONS_PER_TOPIC",
    "MAX_TOPIC_NAME_LENGTH",
    "NewTopicSpec",
    "TopicInfo",
    "collision_key",
    "validate_topic_name",
]

# Kafka's limit: 249 leaves room in the 255-byte file-name limit for "-<partition>".
MAX_TOPIC_NAME_LENGTH = 249
_LEGAL_TOPIC_NAME = re.compile(r"^[a-zA-Z0-9._-]+$")
# Partitions per topic: each open partition holds at least 3 descriptors (the active
# segment's .log, .index and .timeindex), so 10,000 partitions is ~30,000 descriptors,
# about what a host tuned as Kafka recommends (nofile 100k) can spare beside sockets.
# A request above it is refused with INVALID_PARTITIONS instead of exhausting the host.
MAX_PARTITIONS_PER_TOPIC = 10_000


class NewTopicSpec(NamedTuple):
    """A topic to create (see :meth:`LogManager.create_topics_steps`)."""

    name: str
    partitions: int
    configs: Mapping[str, Any]
    internal: bool = False
    replication_factor: int = -1
    topic_id: uuid.UUID | None = None


@dataclass(frozen=True, slots=True)
class TopicInfo:
    name: str
    topic_id: uuid.UUID
    partitions: int
    configs: dict[str, str] = field(default_factory=dict)
    internal: bool = False
    # The partitions with a replica in this data directory; None: every one (a single
    # node). In a cluster a broker holds only the partitions placed on it.
    local: frozenset[int] | None = None

    def is_local(self, partition: int) -> bool:
        return self.local is None or partition in self.local


def validate_topic_name(name: str) -> None:
    """Kafka's rules; KafkaError(INVALID_TOPIC_EXCEPTION) when broken."""
    if not name:
        raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, "Topic name is illegal, it can't be empty")
    if name in (".", ".."):
        raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, 'Topic name cannot be "." or ".."')
    if len(name) > MAX_TOPIC_NAME_LENGTH:
        raise KafkaError(
            ErrorCode.INVALID_TOPIC_EXCEPTION,
            f"Topic name is illegal, it can't be longer than {MAX_TOPIC_NAME_LENGTH} characters, topic name: {name}",
        )
    if not _LEGAL_TOPIC_NAME.match(name):
        raise KafkaError(
            ErrorCode.INVALID_TOPIC_EXCEPTION,
            f"Topic name {name} is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'",
        )


def collision_key(name: str) -> str:
    # '.' and '_' collide in metric names, so Kafka refuses topics that differ only there.
    return name.replace(".", "_")
