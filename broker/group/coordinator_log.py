"""Durable group-coordinator records in ``__consumer_offsets``.

Both group coordinators (classic consumer groups and share groups) turn every
change into records; this module is the one place that appends them to the
group's partition of ``__consumer_offsets`` (Kafka's
``abs(groupId.hashCode()) % partitions``), waits for the group-commit fsync,
maps storage errors to what a group API answers, and replays the topic at
start-up.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import structlog
import trio

from broker.group.offsets import COORDINATOR_TOPIC, partition_for
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.records import build_batch, iter_batches, iter_records

if TYPE_CHECKING:
    from broker.server.broker import Broker

log = structlog.get_logger("sharebroker.groups")

# Kafka's topic configs for __consumer_offsets: compacted (so time retention
# never deletes it), batches stored as written, 100 MiB segments.
TOPIC_CONFIGS = {"cleanup.policy": "compact", "compression.type": "producer", "segment.bytes": str(100 * 1024 * 1024)}
# Bytes read per step while replaying, so a large log is not read at once.
REPLAY_READ_BYTES = 4 * 1024 * 1024

# Append errors -> what a group API answers (Kafka's mapping of coordinator
# append errors, shared by group and offset-commit paths).
_APPEND_ERRORS = {
    ErrorCode.UNKNOWN_TOPIC_OR_PARTITION: ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.NOT_ENOUGH_REPLICAS: ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.REQUEST_TIMED_OUT: ErrorCode.COORDINATOR_NOT_AVAILABLE,
    ErrorCode.NOT_LEADER_OR_FOLLOWER: ErrorCode.NOT_COORDINATOR,
    ErrorCode.KAFKA_STORAGE_ERROR: ErrorCode.NOT_COORDINATOR,
    ErrorCode.MESSAGE_TOO_LARGE: ErrorCode.INVALID_COMMIT_OFFSET_SIZE,
    ErrorCode.RECORD_LIST_TOO_LARGE: ErrorCode.INVALID_COMMIT_OFFSET_SIZE,
    ErrorCode.INVALID_FETCH_SIZE: ErrorCode.INVALID_COMMIT_OFFSET_SIZE,
}

Record = tuple[str, bytes, bytes | None]  # (group id, key, value or None for a tombstone)


def append_error(exc: Exception) -> ErrorCode:
    code = getattr(exc, "error_code", None)
    if code is None:
        return ErrorCode.UNKNOWN_SERVER_ERROR
    return _APPEND_ERRORS.get(ErrorCode.for_code(int(code)), ErrorCode.UNKNOWN_SERVER_ERROR)


class CoordinatorLog:
    def __init__(self, broker: Broker) -> None:
        self.broker = broker
        self.num_partitions = int(broker.config.get("offsets.topic.num.partitions"))

    def partition_log(self, group_id: str) -> Any:
        """The group's partition of ``__consumer_offsets``, creating the topic on first use."""
        logs = self.broker.logs
        info = logs.topics.get(COORDINATOR_TOPIC)
        if info is None:
            try:
                info = logs.create_topic(COORDINATOR_TOPIC, self.num_partitions, TOPIC_CONFIGS, internal=True)
            except KafkaError:  # created meanwhile by another coordinator
                info = logs.topics[COORDINATOR_TOPIC]
        return logs.partition(COORDINATOR_TOPIC, partition_for(group_id, info.partitions))

    def append(self, records: Iterable[Record]) -> tuple[list[Any], ErrorCode]:
        """Append records, one batch per partition in order; return the logs written and the first error."""
        now = self.broker.now_ms()
        by_log: dict[int, tuple[Any, list[tuple[bytes, bytes | None, tuple, int]]]] = {}
        error = ErrorCode.NONE
        for group_id, key, value in records:
            try:
                part_log = self.partition_log(group_id)
            except Exception as exc:
                log.warning("coordinator_log_unavailable", group=group_id, error=str(exc))
                error = error or append_error(exc)
                continue
            if part_log is None:
                error = error or ErrorCode.COORDINATOR_NOT_AVAILABLE
                continue
            by_log.setdefault(id(part_log), (part_log, []))[1].append((key, value, (), now))
        written = []
        for part_log, items in by_log.values():
            try:
                part_log.append(build_batch(items))
            except Exception as exc:
                log.warning("coordinator_append_failed", partition=part_log.partition, error=str(exc))
                error = error or append_error(exc)
                continue
            written.append(part_log)
            self.broker.appended(COORDINATOR_TOPIC, part_log.partition)
        return written, error

    async def wait_durable(self, part_logs: list[Any]) -> ErrorCode:
        """Wait for the fsync covering every log in ``part_logs``; return the first error."""
        errors: list[ErrorCode] = []

        async def one(part_log: Any) -> None:
            try:
                await self.broker.committer.wait_durable(part_log)
            except Exception as exc:
                log.warning("coordinator_fsync_failed", partition=part_log.partition, error=str(exc))
                errors.append(append_error(exc))

        if len(part_logs) == 1:
            await one(part_logs[0])
        elif part_logs:
            async with trio.open_nursery() as nursery:
                for part_log in part_logs:
                    nursery.start_soon(one, part_log)
        return errors[0] if errors else ErrorCode.NONE

    async def write(self, group_id: str, records: Iterable[tuple[bytes, bytes | None]]) -> int:
        """Append ``group_id``'s (key, value) records and wait until they are durable."""
        written, error = self.append((group_id, key, value) for key, value in records)
        if written:
            error = error or await self.wait_durable(written)
        return error

    def replay(self, apply: Callable[[bytes | None, bytes | None], None]) -> int:
        """Feed every record of ``__consumer_offsets`` to ``apply``; return the count.

        A record ``apply`` cannot read is logged and skipped: one bad record must
        not stop the broker from starting.
        """
        logs = self.broker.logs
        info = logs.topics.get(COORDINATOR_TOPIC)
        if info is None:
            return 0
        count = 0
        for p in range(info.partitions):
            part_log = logs.partition(COORDINATOR_TOPIC, p)
            if part_log is None:
                continue
            offset = part_log.log_start_offset
            while offset < part_log.log_end_offset:
                data = part_log.read(offset, REPLAY_READ_BYTES).records
                if not data:
                    break
                for header, view in iter_batches(data):
                    offset = header.next_offset
                    if header.is_control:
                        continue
                    for record in iter_records(view):
                        count += 1
                        try:
                            apply(record.key, record.value)
                        except Exception as exc:
                            log.warning("coordinator_record_skipped", partition=p, offset=record.offset, error=str(exc))
        return count
