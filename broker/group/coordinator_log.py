"""Durable group-coordinator records in ``__consumer_offsets``.

Group coordinators (share groups here) turn every change into records; this
module appends them to the group's partition of ``__consumer_offsets``
(Kafka's ``abs(groupId.hashCode()) % partitions``), waits for the group-commit
fsync, and replays the topic at start-up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import structlog

from broker.group.offsets import COORDINATOR_TOPIC, partition_for
from broker.log.errors import TopicError
from broker.protocol.errors import ErrorCode
from broker.protocol.records import build_batch, iter_batches, iter_records

if TYPE_CHECKING:
    from broker.server.broker import Broker

log = structlog.get_logger("sharebroker.groups")

# Kafka's topic configs for __consumer_offsets: compacted, 100 MiB segments.
TOPIC_CONFIGS = {"cleanup.policy": "compact", "compression.type": "producer", "segment.bytes": str(100 * 1024 * 1024)}
# Bytes read per step while replaying, so a large log is not read at once.
REPLAY_READ_BYTES = 4 * 1024 * 1024


class CoordinatorLog:
    def __init__(self, broker: Broker) -> None:
        self.broker = broker
        self.num_partitions = broker.config.get("offsets.topic.num.partitions")

    def _partition_log(self, group_id: str) -> Any:
        logs = self.broker.logs
        info = logs.topics.get(COORDINATOR_TOPIC)
        if info is None:
            try:
                info = logs.create_topic(COORDINATOR_TOPIC, self.num_partitions, TOPIC_CONFIGS, internal=True)
            except TopicError:  # created meanwhile by another coordinator
                info = logs.topics[COORDINATOR_TOPIC]
        return logs.partition(COORDINATOR_TOPIC, partition_for(group_id, info.partitions))

    async def write(self, group_id: str, records: Iterable[tuple[bytes, bytes | None]]) -> int:
        """Append ``records`` (key, value-or-tombstone) for ``group_id`` durably; return an error code."""
        items = [(key, value, (), self.broker.now_ms()) for key, value in records]
        if not items:
            return ErrorCode.NONE
        try:
            part_log = self._partition_log(group_id)
            part_log.append(build_batch(items))
        except Exception as exc:
            log.warning("coordinator_append_failed", group=group_id, error=str(exc))
            return ErrorCode.COORDINATOR_NOT_AVAILABLE
        self.broker.appended(COORDINATOR_TOPIC, part_log.partition)
        try:
            await self.broker.committer.wait_durable(part_log)
        except Exception as exc:
            log.warning("coordinator_fsync_failed", group=group_id, error=str(exc))
            return ErrorCode.NOT_COORDINATOR
        return ErrorCode.NONE

    def replay(self, apply: Callable[[bytes, bytes | None], None]) -> int:
        """Feed every record of ``__consumer_offsets`` to ``apply``; return the count."""
        logs = self.broker.logs
        info = logs.topics.get(COORDINATOR_TOPIC)
        if info is None:
            return 0
        count = 0
        for p in range(info.partitions):
            part_log = logs.partition(COORDINATOR_TOPIC, p)
            offset = part_log.log_start_offset
            while offset < part_log.log_end_offset:
                data = part_log.read(offset, REPLAY_READ_BYTES).records
                if not data:
                    break
                for header, view in iter_batches(data):
                    offset = header.last_offset + 1
                    if header.is_control:
                        continue
                    for record in iter_records(view):
                        apply(record.key, record.value)
                        count += 1
        return count

