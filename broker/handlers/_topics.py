"""Topics as the handlers see them: Kafka's name rules, manual replica assignments,
the internal topics, and auto-creation.

- :func:`topic_name_error`: Kafka's topic-name rules (``Topic.validate``) with
  its wording, so clients see the messages they would see from Kafka;
  :func:`validate_topic_name` raises it.
- :func:`manual_assignment_error`: manual replica assignments checked against the
  registered brokers.
- :func:`auto_create`: a topic created with the broker defaults on first use, when
  ``auto.create.topics.enable`` is on.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from broker.metadata.image import TopicImage
from broker.protocol.errors import ErrorCode, KafkaError

if TYPE_CHECKING:
    from broker.handlers.context import Services

# Kafka's limit (Topic.MAX_NAME_LENGTH): room in a 255-byte file name for "-<partition>".
MAX_TOPIC_NAME_LENGTH = 249
_LEGAL = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")

CLUSTER_METADATA_TOPIC = "__cluster_metadata"
# Kafka's Topic.isInternal set.
INTERNAL_TOPICS = frozenset({"__consumer_offsets", "__transaction_state", "__share_group_state"})


def topic_name_error(name: str) -> str | None:
    """Why ``name`` is not a legal topic name (Kafka's message), or None when it is."""
    if not name:
        reason = "the empty string is not allowed"
    elif name in (".", ".."):
        reason = f"'{name}' is not allowed"
    elif len(name) > MAX_TOPIC_NAME_LENGTH:
        reason = f"the length of '{name}' is longer than the max allowed length {MAX_TOPIC_NAME_LENGTH}"
    elif not _LEGAL.issuperset(name):
        reason = f"'{name}' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'"
    else:
        return None
    return f"Topic name is invalid: {reason}"


def validate_topic_name(name: str) -> None:
    """Raise INVALID_TOPIC_EXCEPTION with Kafka's message when ``name`` is not a legal
    topic name, as Kafka's ``Topic.validate`` throws."""
    problem = topic_name_error(name)
    if problem is not None:
        raise KafkaError(ErrorCode.INVALID_TOPIC_EXCEPTION, problem)


def colliding_topic(name: str, existing: Iterable[str]) -> str | None:
    """An existing topic whose name differs from ``name`` only by '.' versus '_'
    (Kafka refuses such pairs: their metric names would be the same)."""
    if "." not in name and "_" not in name:
        return None
    unified = name.replace(".", "_")
    for other in existing:
        if other != name and other.replace(".", "_") == unified:
            return other
    return None


def manual_assignment_error(
    replicas: list[int], registered: Iterable[int], replication_factor: int | None
) -> str | None:
    """Why a manual replica assignment cannot be placed (Kafka's messages), or None."""
    if not replicas:
        return "The manual partition assignment includes an empty replica list."
    known = frozenset(registered)
    previous = None
    for broker_id in sorted(replicas):
        if broker_id not in known:
            return f"The manual partition assignment includes broker {broker_id}, but no such broker is registered."
        if broker_id == previous:
            return f"The manual partition assignment includes the broker {broker_id} more than once."
        previous = broker_id
    if replication_factor is not None and len(replicas) != replication_factor:
        return (
            f"The manual partition assignment includes a partition with {len(replicas)} replica(s), "
            f"but this is not consistent with previous partitions, which have {replication_factor} replica(s)."
        )
    return None


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
