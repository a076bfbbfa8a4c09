"""Dead-letter copies of share-group records (KIP-1191, Kafka 4.4).

A share-partition of a group with ``errors.deadletterqueue.topic.name`` moves a
rejected record, and one whose delivery count reached the limit, to ARCHIVING
and hands it over once that is durable (:meth:`SharePartition.take_dead_letters`).
This module turns such records into dead-letter records and appends them to the
dead-letter topic; only then does the record become ARCHIVED. A crash in between
finds the record ARCHIVING again and writes its copy again (at least once).

What a dead-letter record holds, as Kafka 4.4 writes it:

- headers, in this order, values as UTF-8 text: ``__dlq.errors.topic``,
  ``__dlq.errors.partition``, ``__dlq.errors.offset``, ``__dlq.errors.group``,
  ``__dlq.errors.delivery.count``, ``__dlq.errors.message``;
- key and value: the source record's when the group has
  ``errors.deadletterqueue.copy.record.enable=true``, else null; the source
  record's own headers are not copied;
- a CreateTime timestamp of when the copy was written;
- partition: the source partition modulo the dead-letter topic's partition count.

The topic must exist with ``errors.deadletterqueue.group.enable=true`` and a
name starting with the broker's ``errors.deadletterqueue.topic.name.prefix``;
with ``errors.deadletterqueue.auto.create.topics.enable`` a missing topic is
created so. Otherwise (and at ``share.version`` 1) the records are archived
without a copy, as Kafka does, and the reason is logged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from broker.protocol.records import Record, build_batch, iter_batches, iter_records
from broker.share.inflight import DeadLetter, DeadLetterReason

__all__ = [
    "HEADER_DELIVERY_COUNT",
    "HEADER_GROUP",
    "HEADER_MESSAGE",
    "HEADER_OFFSET",
    "HEADER_PARTITION",
    "HEADER_TOPIC",
    "MESSAGE_DELIVERY_LIMIT",
    "MESSAGE_REJECTED",
    "DeadLetterTarget",
    "dead_letter_batch",
    "dead_letter_partition",
    "message_for",
    "source_records",
    "unusable_reason",
]

HEADER_TOPIC = "__dlq.errors.topic"
HEADER_PARTITION = "__dlq.errors.partition"
HEADER_OFFSET = "__dlq.errors.offset"
HEADER_GROUP = "__dlq.errors.group"
HEADER_DELIVERY_COUNT = "__dlq.errors.delivery.count"
HEADER_MESSAGE = "__dlq.errors.message"

MESSAGE_REJECTED = "Offset rejected by client."
MESSAGE_DELIVERY_LIMIT = "Offset delivery count exceeded the threshold."

GROUP_ENABLE = "errors.deadletterqueue.group.enable"


class DeadLetterTarget(NamedTuple):
    """Where a group's dead letters go and what they carry."""

    topic: str
    copy_record: bool


def message_for(reason: DeadLetterReason, delivery_count: int, limit: int) -> str:
    """The ``__dlq.errors.message`` text. A record read back ARCHIVING after a restart is
    judged by its count against the limit, as Kafka does."""
    if reason == DeadLetterReason.REJECTED:
        return MESSAGE_REJECTED
    if reason == DeadLetterReason.DELIVERY_LIMIT:
        return MESSAGE_DELIVERY_LIMIT
    return MESSAGE_DELIVERY_LIMIT if delivery_count >= limit else MESSAGE_REJECTED


def unusable_reason(topic: str, prefix: str, topic_configs: dict[str, str] | None) -> str | None:
    """Why ``topic`` cannot take dead letters now (None: it can). ``topic_configs`` is
    None when the topic does not exist."""
    if prefix and not topic.startswith(prefix):
        return f"DLQ topic name {topic!r} does not start with the prefix {prefix!r}"
    if topic_configs is None:
        return f"DLQ topic {topic!r} does not exist"
    if str(topic_configs.get(GROUP_ENABLE, "false")).lower() != "true":
        return "DLQ is not enabled on configured DLQ topic"
    return None


def dead_letter_partition(source_partition: int, partitions: int) -> int:
    return source_partition % partitions if partitions > 0 else 0


def source_records(raw: bytes | memoryview, first: int, last: int) -> dict[int, Record]:
    """The data records of ``[first, last]`` in stored batches ``raw`` (control batches skipped)."""
    out: dict[int, Record] = {}
    for view in iter_batches(raw, allow_partial=True):
        header = view.header
        if header.is_control or header.last_offset < first or header.base_offset > last:
            continue
        for rec in iter_records(view.view):
            if first <= rec.offset <= last:
                out[rec.offset] = rec
    return out


def dead_letter_batch(
    letters: Sequence[DeadLetter],
    *,
    group: str,
    topic: str,
    partition: int,
    limit: int,
    copy_record: bool,
    records: dict[int, Record],
    now_ms: int,
) -> bytes | None:
    """One batch of dead-letter records for ``letters`` (None if none has a record).

    Offsets without a data record (control batches, compacted away) get no copy."""
    items: list[tuple[bytes | None, bytes | None, list[tuple[str, bytes | None]], int]] = []
    for d in letters:
        message = message_for(d.reason, d.delivery_count, limit).encode()
        for offset in range(d.first_offset, d.last_offset + 1):
            rec = records.get(offset)
            if rec is None:
                continue
            headers: list[tuple[str, bytes | None]] = [
                (HEADER_TOPIC, topic.encode()),
                (HEADER_PARTITION, str(partition).encode()),
                (HEADER_OFFSET, str(offset).encode()),
                (HEADER_GROUP, group.encode()),
                (HEADER_DELIVERY_COUNT, str(d.delivery_count).encode()),
                (HEADER_MESSAGE, message),
            ]
            key, value = (rec.key, rec.value) if copy_record else (None, None)
            items.append((key, value, headers, now_ms))
    return build_batch(items) if items else None
