"""Topic look-ups shared by the handlers: by name or id, and auto-creation."""

from __future__ import annotations

from typing import TYPE_CHECKING

from broker.metadata.image import TopicImage
from broker.protocol.errors import ErrorCode, KafkaError

if TYPE_CHECKING:
    from broker.handlers.context import Services

# Authorized-operation bit sets reported when a client asks (KIP-430). There are
# no ACLs on this broker, so every operation that applies to the resource is allowed:
# READ 3, WRITE 4, CREATE 5, DELETE 6, ALTER 7, DESCRIBE 8, DESCRIBE_CONFIGS 10, ALTER_CONFIGS 11.
TOPIC_OPERATIONS = sum(1 << op for op in (3, 4, 5, 6, 7, 8, 10, 11))
# ALTER 7, DESCRIBE 8, CLUSTER_ACTION 9, DESCRIBE_CONFIGS 10, ALTER_CONFIGS 11,
# IDEMPOTENT_WRITE 12, CREATE 5 (8096, what Kafka 4.2 reports with no authorizer).
CLUSTER_OPERATIONS = sum(1 << op for op in (5, 7, 8, 9, 10, 11, 12))
GROUP_OPERATIONS = sum(1 << op for op in (3, 6, 8, 10, 11))  # READ, DELETE, DESCRIBE, DESCRIBE_CONFIGS, ALTER_CONFIGS
# Kafka's marker for "not requested".
OPERATIONS_OMITTED = -(2**31)


async def auto_create(services: Services, name: str) -> tuple[int, TopicImage | None]:
    """Create ``name`` with the broker defaults if auto-creation is enabled.

    Returns (error_code, the topic or None).
    """
    if not services.config.get("auto.create.topics.enable"):
        return ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, None
    try:
        info = await services.metadata.create_topic(name, services.config.get("num.partitions"), -1, {})
    except KafkaError as exc:
        if exc.code == ErrorCode.TOPIC_ALREADY_EXISTS:
            return ErrorCode.NONE, services.metadata.image.topic(name)
        return exc.code, None
    return ErrorCode.NONE, info
