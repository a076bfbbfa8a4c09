"""What the group shell of every type stands on (:class:`ShellBase`).

Routing a group id to its shard (NOT_COORDINATOR when this broker does not host it),
appending records to the shard's partition and waiting until they are durable, and
handing out the classic core's parked answers once what they depend on is durable.
Append errors map to what group APIs answer, as Kafka maps coordinator append errors
(NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE, INVALID_COMMIT_OFFSET_SIZE). Also here: the
cores' views of the metadata image (:class:`ImageTopics`, :class:`ImageTopicTable`) and
what the shell needs of the share-partition runtime (:class:`SharePartitions`).
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import Any, Protocol, TypeVar

import structlog
import trio

from broker.config.services import SettingsReader
from broker.coordinator.result import CoordinatorResult
from broker.coordinator.runtime import APPEND_ERRORS, CoordinatorRuntime, Record
from broker.coordinator.runtime import append_error as runtime_append_error
from broker.group.classic.model import Pending
from broker.group.offsets import offset_commit_record
from broker.group.shard import GroupShard
from broker.group.shard_api import TopicInfo
from broker.metadata.group_configs import GroupConfigStore
from broker.metadata.image import MetadataImage
from broker.metadata.source import MetadataSource
from broker.metrics import Metrics
from broker.protocol.errors import ErrorCode, KafkaError
from broker.share.state_store import Persister

__all__ = [
    "ImageTopicTable",
    "ImageTopics",
    "SharePartitions",
    "ShellBase",
    "Waiter",
    "append_error",
    "client_host",
    "record_pair",
]

log = structlog.get_logger("sharebroker.groups")

D = TypeVar("D")
R = TypeVar("R")

# Append errors -> what a group API answers: the coordinators' mapping, and a batch too
# large for the log is an offset commit too large (Kafka's mapping for group APIs).
_APPEND_ERRORS = {
    **APPEND_ERRORS,
    ErrorCode.MESSAGE_TOO_LARGE: ErrorCode.INVALID_COMMIT_OFFSET_SIZE,
    ErrorCode.RECORD_LIST_TOO_LARGE: ErrorCode.INVALID_COMMIT_OFFSET_SIZE,
    ErrorCode.INVALID_FETCH_SIZE: ErrorCode.INVALID_COMMIT_OFFSET_SIZE,
}


def append_error(exc: KafkaError) -> ErrorCode:
    return runtime_append_error(exc, _APPEND_ERRORS)


class SharePartitions(Protocol):
    """What the group coordinator needs of the share-partition runtime."""

    persister: Persister

    def has_session(self, group_id: str, member_id: str) -> bool: ...

    async def release_member(self, group_id: str, member_id: str) -> None: ...

    def forget_group(self, group_id: str) -> None: ...

    def expect_members(self, group_id: str, sharing: dict[tuple[uuid.UUID, int], int]) -> None: ...


class ImageTopics:
    """The share-group core's view of topics: names, ids and partition counts from the image."""

    def __init__(self, metadata: MetadataSource) -> None:
        self._metadata = metadata

    def topic(self, name: str) -> tuple[uuid.UUID, int] | None:
        t = self._metadata.image.topic(name)
        return None if t is None or t.internal else (t.topic_id, len(t.partitions))

    def topic_name(self, topic_id: uuid.UUID) -> str | None:
        t = self._metadata.image.topic_by_id(topic_id)
        return None if t is None else t.name


class ImageTopicTable:
    """The consumer- and streams-group cores' view of topics
    (:class:`~broker.group.shard_api.TopicImage`) over the current metadata image.

    Every topic is visible, internal ones included (Kafka's regular expressions
    match ``__consumer_offsets`` too). The :class:`TopicInfo` values are built
    once per image and cached until the image changes.
    """

    def __init__(self, metadata: MetadataSource) -> None:
        self._metadata = metadata
        self._image: MetadataImage | None = None
        self._by_name: dict[str, TopicInfo] = {}
        self._by_id: dict[uuid.UUID, TopicInfo] = {}

    def _current(self) -> None:
        image = self._metadata.image
        if image is self._image:
            return
        by_name: dict[str, TopicInfo] = {}
        for name, t in image.topics.items():
            racks = tuple(
                tuple(sorted({r for n in p.replicas if (b := image.broker(n)) is not None and (r := b.rack)}))
                for p in t.partitions
            )
            by_name[name] = TopicInfo(name, t.topic_id, len(t.partitions), racks if any(racks) else ())
        self._by_name = by_name
        self._by_id = {info.topic_id: info for info in by_name.values()}
        self._image = image

    def topic(self, name: str) -> TopicInfo | None:
        self._current()
        return self._by_name.get(name)

    def topic_by_id(self, topic_id: uuid.UUID) -> TopicInfo | None:
        self._current()
        return self._by_id.get(topic_id)

    def topic_names(self) -> Iterable[str]:
        self._current()
        return list(self._by_name)


class Waiter:
    """A parked classic request's answer, set when the core's outbox hands it out, or
    the error it gets instead (its shard was unloaded)."""

    __slots__ = ("error", "event", "result")

    def __init__(self) -> None:
        self.event = trio.Event()
        self.result: Any = None
        self.error: ErrorCode | None = None


class ShellBase:
    """What every group type's dispatch stands on: the coordinator runtime, the clock,
    routing a group id to its shard, and writing records until they are durable.
    :class:`~broker.group.coordinator.GroupCoordinator` sets these attributes."""

    clock: Callable[[], int]
    runtime: CoordinatorRuntime[GroupShard]
    group_configs: GroupConfigStore
    share_partitions: SharePartitions | None
    _settings: SettingsReader
    _metrics: Metrics
    _metadata: MetadataSource
    _topics: ImageTopics
    _topic_table: ImageTopicTable
    _waiters: dict[tuple[int, int], Waiter]
    _nursery: trio.Nursery | None

    # --- routing -------------------------------------------------------------------------

    def partition_for(self, group_id: str) -> int:
        return self.runtime.partition_for(group_id)

    async def shard_for(self, group_id: str) -> tuple[int, GroupShard]:
        """The group's shard (raises KafkaError NOT_COORDINATOR and friends)."""
        pid = self.runtime.partition_for(group_id)
        return pid, await self.runtime.get_shard(pid)

    def loaded_shard(self, group_id: str) -> GroupShard | None:
        pid = self.runtime.partition_for(group_id)
        return self.runtime.shard(pid) if self.runtime.is_loaded(pid) else None

    def shards(self) -> list[GroupShard]:
        return [shard for _, shard in self.runtime.loaded()]

    async def run_on_shard(
        self,
        group_id: str,
        run: Callable[[GroupShard], CoordinatorResult[R]],
        write: Callable[[int, GroupShard, Sequence[Any]], Awaitable[ErrorCode]],
        failed: Callable[..., R],
    ) -> R:
        """``run(shard)`` on the group's shard and its records made durable by ``write``,
        then its answer; ``failed(error_code=, error_message=)`` when the shard cannot serve
        the group (NOT_COORDINATOR, ...) or the records could not be written."""
        try:
            pid, shard = await self.shard_for(group_id)
        except KafkaError as exc:
            return failed(error_code=exc.code, error_message=exc.message or None)
        result = run(shard)
        error = await write(pid, shard, result.records)
        if error:
            return failed(error_code=error, error_message=error.message)
        assert result.response is not None
        return result.response

    async def delete_with_offsets(
        self, pid: int, shard: GroupShard, group_id: str, group_records: Callable[[], Sequence[Record]]
    ) -> ErrorCode:
        """Delete a group (``group_records()``: the records that remove it, replayed) and
        its committed offsets; NONE once durable."""
        removals = list(shard.offsets.partitions(group_id))
        records = [offset_commit_record(group_id, topic, partition, None) for topic, partition, _ in removals]
        records += group_records()

        def apply() -> None:
            for topic, partition, _ in removals:
                shard.offsets.remove(group_id, topic, partition)

        return await self._flush(pid, shard, records, apply)

    async def describe_each(
        self,
        group_ids: Iterable[str],
        describe: Callable[[GroupShard, str], list[D]],
        failed: Callable[..., D],
    ) -> list[D]:
        """``describe(shard, group_id)`` of each group on its shard; a group whose shard
        cannot serve it answers ``failed(error_code=, group_id=)`` (NOT_COORDINATOR, ...)."""
        out: list[D] = []
        for group_id in group_ids:
            try:
                _, shard = await self.shard_for(group_id)
            except KafkaError as exc:
                out.append(failed(error_code=exc.code, group_id=group_id))
                continue
            out += describe(shard, group_id)
        return out

    def group_type(self, group_id: str) -> str | None:
        """The type of the group with this id, or None (also when not hosted here)."""
        shard = self.loaded_shard(group_id)
        return None if shard is None else shard.group_type(group_id)

    # --- persistence ---------------------------------------------------------------------

    async def write(self, group_id: str, records: Iterable[Any]) -> ErrorCode:
        """Append records (pairs, or objects with ``key``/``value``) to the group's
        partition and wait until durable; the error a group API answers, or NONE."""
        items = [record_pair(r) for r in records]
        if not items:
            return ErrorCode.NONE
        pid = self.runtime.partition_for(group_id)
        try:
            await self.runtime.get_shard(pid)
            await self.runtime.write(pid, items)
        except KafkaError as exc:
            log.warning("group_write_failed", group=group_id, error=str(exc))
            return append_error(exc)
        return ErrorCode.NONE

    async def _settled(self, pid: int) -> None:
        """Wait until every write appended to partition ``pid`` is durable (at once when
        none is in flight). The shard applies a commit before its write is durable, so
        without this a read could answer an offset that a failed write then takes back
        (Kafka's coordinators read at the partition's last committed offset). A write that
        fails answers the read as it answers the write (COORDINATOR_NOT_AVAILABLE,
        NOT_COORDINATOR)."""
        partition = self.runtime.partition(pid)
        if partition is None:
            return
        part_log = partition.log
        if part_log.high_watermark >= part_log.log_end_offset and not part_log.needs_flush():
            return
        try:
            await self.runtime.wait_durable([partition])
        except KafkaError as exc:
            raise KafkaError(append_error(exc), f"offsets not readable yet: {exc}") from exc

    async def _flush(
        self,
        pid: int,
        shard: GroupShard,
        extra: Sequence[Record] = (),
        on_appended: Callable[[], None] | None = None,
    ) -> ErrorCode:
        """Write ``extra``, apply ``on_appended`` once they are in the log, wait for
        durability, then hand out the classic core's parked answers. Everything before the
        first await runs at once, so records reach the log in the order the state changed."""
        records = list(extra)
        outbox = shard.classic.take_outbox()
        error = ErrorCode.NONE
        partition = None
        if records:
            try:
                partition, _ = self.runtime.append(pid, records)
            except KafkaError as exc:
                log.warning("coordinator_append_failed", partition=pid, error=str(exc))
                error = append_error(exc)
        if on_appended is not None and not error:
            on_appended()
        if partition is not None:
            try:
                await self.runtime.wait_durable([partition])
            except KafkaError as exc:
                log.warning("coordinator_fsync_failed", partition=pid, error=str(exc))
                error = error or append_error(exc)
            else:
                await self.runtime.maybe_rewrite(pid)
        self._deliver(pid, outbox)
        return error

    def _deliver(self, pid: int, outbox: Iterable[tuple[int, Any]]) -> None:
        for token, response in outbox:
            waiter = self._waiters.get((pid, token))
            if waiter is not None:  # else its request was abandoned (connection gone)
                waiter.result = response
                waiter.event.set()

    async def _answer(self, pid: int, shard: GroupShard, result: CoordinatorResult[Any]) -> Any:
        """Flush the result's records, then return its response or (for :class:`Pending`)
        wait for the parked request's answer."""
        response = result.response
        if not isinstance(response, Pending):
            await self._flush(pid, shard, result.records)
            return response
        key = (pid, response.token)
        waiter = self._waiters[key] = Waiter()
        try:
            await self._flush(pid, shard, result.records)
            await waiter.event.wait()
        finally:
            if self._waiters.get(key) is waiter:
                del self._waiters[key]
        if waiter.error is not None:
            raise KafkaError(waiter.error, "the group's coordinator moved while the request waited for its answer")
        return waiter.result

    def _release_parked(self, pid: int) -> None:
        """The shard of ``pid`` was unloaded: the JoinGroup and SyncGroup requests parked in
        its classic core will never leave its outbox. They are answered NOT_COORDINATOR now,
        as Kafka answers the pending joins and syncs of a coordinator that unloads, so their
        clients find the new coordinator and join again (without it a librdkafka member
        waited out its whole rebalance timeout, 5 minutes by default)."""
        for key in [k for k in self._waiters if k[0] == pid]:
            waiter = self._waiters.pop(key)
            waiter.error = ErrorCode.NOT_COORDINATOR
            waiter.event.set()


def record_pair(record: Any) -> Record:
    """A record as the runtime appends it: (key, value), from a pair or a triple, or an object with ``key`` and ``value``."""
    if isinstance(record, tuple):
        return record[-2], record[-1]
    return record.key, record.value


def client_host(peer: str) -> str:
    """A member's ``client_host`` as Kafka shows it (``/127.0.0.1``) from ``host:port``."""
    host = peer.rsplit(":", 1)[0] if ":" in peer else peer
    return "/" + host.strip("[]")
