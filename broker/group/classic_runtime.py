"""The trio shell around the classic group coordinator and the committed-offsets store.

- Parked requests: a JoinGroup or SyncGroup the coordinator parks
  (:class:`~broker.group.classic.Pending`) waits here on a trio Event until its
  answer leaves the coordinator's outbox. Each connection has its own task, so a
  parked request holds up only its own connection (as in Kafka, where the
  connection is muted meanwhile).
- Timers: :meth:`ClassicRuntime.run` sleeps until the coordinator's next
  deadline (or until an operation changes the timers) and runs it. The same
  task expires committed offsets every ``OFFSETS_RETENTION_CHECK_INTERVAL_MS``.
- Persistence: state changes are records in the internal topic
  ``__consumer_offsets`` (created on first write, ``offsets.topic.num.partitions``
  partitions, ``cleanup.policy=compact`` so time retention never drops them).
  A group's records go to its partition (Kafka's hash). Records are appended
  before anything is answered, and OffsetCommit, OffsetDelete and DeleteGroups
  are answered only once an fsync covers them. Parked JoinGroup/SyncGroup
  answers go out after the group record they depend on is durable too.
- Start-up: :meth:`ClassicRuntime.load` replays ``__consumer_offsets`` (last
  record wins per key; records of other coordinators are skipped), then starts
  a session timer for every member it restored.

Wiring (the server owns it): the runtime lives at ``broker.classic_groups``.
:func:`get_runtime` creates it on first use when the server has not, replays
the log and starts :meth:`ClassicRuntime.run` as a trio system task; a server
that wants it in its own nursery does::

    rt = ClassicRuntime(broker, other_group_type=share_coordinator.group_type)
    broker.classic_groups = rt
    await trio.to_thread.run_sync(rt.load)   # or rt.load()
    await nursery.start(rt.run)

``other_group_type`` may also be set later (``rt.other_group_type = fn``).
ListGroups and DeleteGroups use :meth:`ClassicRuntime.list_groups` and
:meth:`ClassicRuntime.delete_group`.

Not done: no log compaction, so ``__consumer_offsets`` grows with every commit
and start-up replays all of it; offsets of deleted topics are not removed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import structlog
import trio

from broker.group.classic import ClassicGroupCoordinator, CoordinatorConfig, ListedGroup, Pending
from broker.group.coordinator_log import CoordinatorLog
from broker.group.offsets import (
    CommittedOffset,
    OffsetStore,
    RecordType,
    decode_record,
    offset_commit_record,
)
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.describe_groups_response import DescribedGroup
from broker.protocol.messages.group_metadata_key import GroupMetadataKey
from broker.protocol.messages.group_metadata_value import GroupMetadataValue
from broker.protocol.messages.join_group_response import JoinGroupResponse
from broker.protocol.messages.sync_group_response import SyncGroupResponse

log = structlog.get_logger("sharebroker.groups")

# Kafka's offsets.retention.check.interval.ms default: how often expired offsets
# (and empty groups without offsets) are removed.
OFFSETS_RETENTION_CHECK_INTERVAL_MS = 600_000


@dataclass(frozen=True, slots=True)
class CommitEntry:
    topic: str
    partition: int
    offset: int
    leader_epoch: int = -1
    metadata: str | None = ""


class _Waiter:
    __slots__ = ("event", "result")

    def __init__(self) -> None:
        self.event = trio.Event()
        self.result: Any = None


def _setting(broker: Any, key: str, default: Any) -> Any:
    try:
        value = broker.config.get(key)
    except (KeyError, AttributeError):
        return default
    return default if value is None else value


class ClassicRuntime:
    def __init__(
        self,
        broker: Any,
        *,
        other_group_type: Callable[[str], str | None] | None = None,
        clock: Callable[[], int] | None = None,
        config: CoordinatorConfig | None = None,
    ) -> None:
        self.broker = broker
        self.clock = clock or broker.now_ms
        self.coordinator = ClassicGroupCoordinator(
            self.clock,
            config or CoordinatorConfig.from_settings(lambda key: _setting(broker, key, None)),
            other_group_type=other_group_type,
        )
        self.offsets = OffsetStore()
        self.records = CoordinatorLog(broker)
        self._waiters: dict[int, _Waiter] = {}
        self._timers_changed = trio.Event()
        self.loaded = False
        self._run_started = False
        self._running = False

    # ================================================================== wiring

    @property
    def other_group_type(self) -> Callable[[str], str | None] | None:
        return self.coordinator.other_group_type

    @other_group_type.setter
    def other_group_type(self, fn: Callable[[str], str | None] | None) -> None:
        self.coordinator.other_group_type = fn

    def group_type(self, group_id: str) -> str | None:
        return self.coordinator.group_type(group_id)

    def ensure_started(self) -> None:
        """Replay the log (once) and start :meth:`run` as a system task unless it runs."""
        if not self.loaded:
            self.load()
        if not self._run_started:
            trio.lowlevel.spawn_system_task(self.run, name="classic-group-timers")
            self._run_started = True

    # ================================================================== replay

    def load(self) -> None:
        """Rebuild groups and offsets from ``__consumer_offsets`` (idempotent)."""
        if self.loaded:
            return
        records = self.records.replay(self._replay_record)
        self.coordinator.on_loaded()
        self.loaded = True
        log.info(
            "classic_groups_loaded",
            records=records,
            groups=len(self.coordinator.groups),
            groups_with_offsets=len(self.offsets.groups()),
        )

    def _replay_record(self, key: bytes | None, value: bytes | None) -> None:
        record = decode_record(key, value)
        if record is None:
            return
        if record.record_type == RecordType.GROUP_METADATA:
            assert isinstance(record.key, GroupMetadataKey)
            group_id = record.key.group
            assert record.value is None or isinstance(record.value, GroupMetadataValue)
            self.coordinator.replay_group_metadata(group_id, record.value)
            return
        self.offsets.apply(record)
        if record.value is not None:
            self.coordinator.ensure_group(record.key.group)

    # ================================================================== persistence

    async def _flush(
        self,
        extra: list[tuple[str, bytes, bytes | None]] | None = None,
        on_appended: Callable[[], None] | None = None,
    ) -> ErrorCode:
        """Run due timers, write ``extra`` and the coordinator's records, apply
        ``on_appended`` once they are in the log, wait for the fsync, then hand
        out the parked answers. Everything before the first await runs at once,
        so records reach the log in the order the state changed."""
        try:
            self.coordinator.tick()
        except Exception:
            log.exception("classic_group_timer_failed")
        records = list(extra or ()) + self.coordinator.take_records()
        outbox = self.coordinator.take_outbox()
        self._timers_changed.set()
        written, error = self.records.append(records)
        if on_appended is not None and not error:
            on_appended()
        if written:
            durable_error = await self.records.wait_durable(written)
            error = error or durable_error
        self._deliver(outbox)
        return error

    def _deliver(self, outbox: Iterable[tuple[int, Any]]) -> None:
        for token, response in outbox:
            waiter = self._waiters.get(token)
            if waiter is not None:  # else its request was abandoned (connection gone)
                waiter.result = response
                waiter.event.set()

    async def _answer(self, result: Any) -> Any:
        """Flush, then return ``result`` or (for :class:`Pending`) wait for its answer."""
        if not isinstance(result, Pending):
            await self._flush()
            return result
        waiter = self._waiters[result.token] = _Waiter()
        try:
            await self._flush()
            await waiter.event.wait()
            return waiter.result
        finally:
            self._waiters.pop(result.token, None)

    # ================================================================== background

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        """Timers and offset expiry until the broker stops (a second call returns at once)."""
        task_status.started()
        if self._running:
            return
        self._run_started = True
        self._running = True
        try:
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self._timer_loop)
                nursery.start_soon(self._expiry_loop)
                await self.broker.stop_event.wait()
                nursery.cancel_scope.cancel()
        finally:
            self._running = False

    async def _timer_loop(self) -> None:
        while True:
            changed = self._timers_changed = trio.Event()
            deadline = self.coordinator.next_deadline_ms()
            if deadline is None:
                await changed.wait()
                continue
            delay_ms = deadline - self.clock()
            if delay_ms > 0:
                with trio.move_on_after(delay_ms / 1000):
                    await changed.wait()
                continue
            try:
                await self._flush()
            except Exception:
                log.exception("classic_group_timer_failed")
                await trio.sleep(0.1)

    async def _expiry_loop(self) -> None:
        while True:
            await trio.sleep(OFFSETS_RETENTION_CHECK_INTERVAL_MS / 1000)
            try:
                await self.expire_offsets()
            except Exception:
                log.exception("offset_expiry_failed")

    async def expire_offsets(self) -> int:
        """Remove offsets past retention, and Empty groups left without offsets
        (Kafka's cleanupGroupMetadata); returns how many offsets went."""
        now = self.clock()
        retention = self.coordinator.config.offsets_retention_ms
        records: list[tuple[str, bytes, bytes | None]] = []
        removals: list[tuple[str, str, int]] = []
        coordinator = self.coordinator
        orphans = [g for g in self.offsets.groups() if g not in coordinator.groups]
        for group_id in list(coordinator.groups) + orphans:
            base = coordinator.offset_expiry_base(group_id)
            if base is None:
                continue

            def subscribed(topic: str, group_id: str = group_id) -> bool:
                return coordinator.is_subscribed_to_topic(group_id, topic)

            expired, everything = self.offsets.expired(group_id, now, retention, base, subscribed)
            for topic, partition in expired:
                key, value = offset_commit_record(group_id, topic, partition, None)
                records.append((group_id, key, value))
                removals.append((group_id, topic, partition))
            if everything:
                coordinator.maybe_remove_empty_group(group_id)

        def apply() -> None:
            for group_id, topic, partition in removals:
                self.offsets.remove(group_id, topic, partition)

        if records or coordinator.groups:
            await self._flush(records, apply)
        if removals:
            log.info("offsets_expired", count=len(removals))
        return len(removals)

    # ================================================================== group APIs

    async def join(self, group_id: str, member_id: str, **kwargs: Any) -> JoinGroupResponse:
        return await self._answer(self.coordinator.join(group_id, member_id, **kwargs))

    async def sync(self, group_id: str, generation_id: int, member_id: str, **kwargs: Any) -> SyncGroupResponse:
        return await self._answer(self.coordinator.sync(group_id, generation_id, member_id, **kwargs))

    async def heartbeat(
        self, group_id: str, generation_id: int, member_id: str, group_instance_id: str | None
    ) -> ErrorCode:
        error = self.coordinator.heartbeat(group_id, generation_id, member_id, group_instance_id)
        await self._flush()
        return error

    async def leave(self, group_id: str, members: list[tuple[str, str | None]]):
        result = self.coordinator.leave(group_id, members)
        await self._flush()
        return result

    def describe(self, group_id: str) -> DescribedGroup | None:
        return self.coordinator.describe(group_id)

    def list_groups(self) -> list[ListedGroup]:
        """Every classic group: (group id, protocol type, state, type ``"classic"``)."""
        return self.coordinator.list_groups()

    async def delete_group(self, group_id: str) -> ErrorCode:
        """DeleteGroups for one group: GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP, or the
        group and its offsets are gone (durably) and NONE."""
        error = self.coordinator.validate_delete_group(group_id)
        if error:
            return error
        records = []
        removals = list(self.offsets.partitions(group_id))
        for topic, partition, _ in removals:
            key, value = offset_commit_record(group_id, topic, partition, None)
            records.append((group_id, key, value))
        self.coordinator.remove_group(group_id)

        def apply() -> None:
            for topic, partition, _ in removals:
                self.offsets.remove(group_id, topic, partition)

        return await self._flush(records, apply)

    # ================================================================== offset APIs

    async def commit_offsets(
        self,
        group_id: str,
        *,
        member_id: str,
        group_instance_id: str | None,
        generation: int,
        api_version: int,
        entries: list[CommitEntry],
        retention_ms: int = -1,
    ) -> list[ErrorCode]:
        """OffsetCommit: one error per entry, answered once the commit is durable."""
        error = self.coordinator.validate_offset_commit(group_id, member_id, group_instance_id, generation, api_version)
        if error:
            await self._flush()
            return [error] * len(entries)
        now = self.clock()
        expire = now + retention_ms if retention_ms >= 0 else -1
        limit = self.coordinator.config.offset_metadata_max_bytes
        results: list[ErrorCode] = []
        records: list[tuple[str, bytes, bytes | None]] = []
        accepted: list[tuple[int, str, int, CommittedOffset]] = []
        for entry in entries:
            if entry.metadata is not None and len(entry.metadata) > limit:
                results.append(ErrorCode.OFFSET_METADATA_TOO_LARGE)
                continue
            value = CommittedOffset(entry.offset, entry.leader_epoch, entry.metadata or "", now, expire)
            key, raw = offset_commit_record(group_id, entry.topic, entry.partition, value)
            records.append((group_id, key, raw))
            accepted.append((len(results), entry.topic, entry.partition, value))
            results.append(ErrorCode.NONE)

        def apply() -> None:
            for _, topic, partition, value in accepted:
                self.offsets.put(group_id, topic, partition, value)

        error = await self._flush(records, apply)
        if error:
            for index, *_ in accepted:
                results[index] = error
        return results

    def fetch_offsets(
        self, group_id: str, topics: list[tuple[str, list[int]]] | None
    ) -> list[tuple[str, list[tuple[int, CommittedOffset | None]]]]:
        """OffsetFetch: the committed offset (or None) of each asked partition; every
        committed offset of the group when ``topics`` is None."""
        visible = self.coordinator.offsets_visible(group_id)
        if topics is None:
            if not visible:
                return []
            return [(topic, sorted(partitions.items())) for topic, partitions in self.offsets.topics(group_id).items()]
        return [
            (topic, [(p, self.offsets.get(group_id, topic, p) if visible else None) for p in partitions])
            for topic, partitions in topics
        ]

    async def delete_offsets(
        self, group_id: str, topics: list[tuple[str, list[int]]]
    ) -> tuple[ErrorCode, list[tuple[str, list[tuple[int, ErrorCode]]]]]:
        """OffsetDelete: a group-level error, else per partition NONE or
        GROUP_SUBSCRIBED_TO_TOPIC; answered once the tombstones are durable."""
        error = self.coordinator.validate_offset_delete(group_id)
        if error:
            return error, []
        out: list[tuple[str, list[tuple[int, ErrorCode]]]] = []
        records: list[tuple[str, bytes, bytes | None]] = []
        removals: list[tuple[str, int]] = []
        for topic, partitions in topics:
            if self.coordinator.is_subscribed_to_topic(group_id, topic):
                out.append((topic, [(p, ErrorCode.GROUP_SUBSCRIBED_TO_TOPIC) for p in partitions]))
                continue
            for p in partitions:
                if self.offsets.get(group_id, topic, p) is not None:
                    key, value = offset_commit_record(group_id, topic, p, None)
                    records.append((group_id, key, value))
                    removals.append((topic, p))
            out.append((topic, [(p, ErrorCode.NONE) for p in partitions]))

        def apply() -> None:
            for topic, p in removals:
                self.offsets.remove(group_id, topic, p)

        error = await self._flush(records, apply)
        return error, out


def get_runtime(broker: Any) -> ClassicRuntime:
    """The broker's classic-group runtime (``broker.classic_groups``), created, loaded
    and started on first use when the server has not done so."""
    runtime = getattr(broker, "classic_groups", None)
    if runtime is None:
        runtime = ClassicRuntime(broker)
        broker.classic_groups = runtime
    if not runtime.loaded or not runtime._run_started:
        runtime.ensure_started()
    return runtime


def client_host(peer: str) -> str:
    """A member's ``client_host`` as Kafka shows it (``/127.0.0.1``) from ``host:port``."""
    host = peer.rsplit(":", 1)[0] if ":" in peer else peer
    return "/" + host.strip("[]")
