"""Share groups at run time: the pure coordinator plus persistence, timers and hooks.

- Every change the coordinator makes comes back as records; they are written
  to ``__consumer_offsets`` and fsynced before the heartbeat is answered.
- At start-up the records are replayed, and members' session timers restart.
- A timer task removes members whose session timed out; a member that leaves
  or times out gives back the records it held (share-partition runtime).
- Topic creation, deletion and partition growth re-target every group.
- Share-partitions a group is assigned are initialised with the share
  coordinator and remembered in the group (``ShareGroupStatePartitionMetadata``).
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

import structlog
import trio

from broker.group.coordinator_log import CoordinatorLog
from broker.group.share_group import HeartbeatResult, ShareGroupCoordinator
from broker.protocol.errors import ErrorCode

if TYPE_CHECKING:
    from broker.server.broker import Broker

log = structlog.get_logger("sharebroker.share_groups")


class LogTopics:
    """The coordinator's view of topics: names, ids and partition counts from the log layer."""

    def __init__(self, broker: Broker) -> None:
        self._logs = broker.logs

    def topic(self, name: str) -> tuple[uuid.UUID, int] | None:
        info = self._logs.topics.get(name)
        return None if info is None or info.internal else (info.topic_id, info.partitions)

    def topic_name(self, topic_id: uuid.UUID) -> str | None:
        info = self._logs.topic_by_id(topic_id)
        return None if info is None else info.name


class ShareGroupRuntime:
    def __init__(self, broker: Broker) -> None:
        self.broker = broker
        self.coordinator = ShareGroupCoordinator(LogTopics(broker))
        self.records = CoordinatorLog(broker)
        self._timer_changed = trio.Event()

    # --- start-up ----------------------------------------------------------------

    def load(self) -> None:
        count = self.records.replay(self.coordinator.replay)
        self.coordinator.on_loaded(self.broker.now_ms(), self._session_timeout_ms)
        if count:
            log.info("share_groups_loaded", records=count)

    def _session_timeout_ms(self, group_id: str) -> int:
        return self.broker.group_configs.share_settings(group_id).session_timeout_ms

    def _heartbeat_interval_ms(self, group_id: str) -> int:
        return self.broker.group_configs.share_settings(group_id).heartbeat_interval_ms

    # --- requests ----------------------------------------------------------------

    async def heartbeat(
        self,
        group_id: str,
        member_id: str,
        member_epoch: int,
        rack_id: str | None,
        subscribed_topic_names: list[str] | None,
        *,
        client_id: str,
        client_host: str,
    ) -> HeartbeatResult:
        result = self.coordinator.heartbeat(
            group_id,
            member_id,
            member_epoch,
            rack_id,
            subscribed_topic_names,
            self.broker.now_ms(),
            max_size=self.broker.config.get("group.share.max.size"),
            session_timeout_ms=self._session_timeout_ms(group_id),
            heartbeat_interval_ms=self._heartbeat_interval_ms(group_id),
            client_id=client_id or "",
            client_host=client_host,
        )
        records = list(result.records_to_persist)
        if result.error_code == ErrorCode.NONE and result.assignment:
            records += await self._initialize_partitions(group_id)
        code = await self.records.write(group_id, records)
        if code:
            return HeartbeatResult(code, None, member_id, member_epoch, 0, None, [])
        self.broker.metrics.rebalanced(records)
        self._timer_changed.set()
        if member_epoch == -1 and result.error_code == ErrorCode.NONE:
            # librdkafka sends its final ShareAcknowledge and this leave on two
            # connections, in either order. While the member's share session is
            # open, its close (or the connection's loss) gives the records back,
            # after applying those acks; releasing here could beat the acks.
            if self.broker.share.sessions.get(group_id, member_id) is None:
                await self.broker.share.release_member(group_id, member_id)
        return result

    async def _initialize_partitions(self, group_id: str) -> list[Any]:
        """Initialise assigned share-partitions the group has not initialised yet."""
        records: list[Any] = []
        for topic_id, partitions in self.coordinator.uninitialized_partitions(group_id).items():
            if not partitions:
                continue
            records += self.coordinator.mark_initialized(group_id, topic_id, partitions)
        return records

    async def delete_groups(self, group_ids: list[str]) -> dict[str, int]:
        out = {}
        for group_id in group_ids:
            result = self.coordinator.delete_group(group_id)
            if result.error_code:
                out[group_id] = result.error_code
                continue
            code = await self.records.write(group_id, result.records_to_persist)
            if not code:
                persister = self.broker.share.persister
                for topic_id, partitions in result.initialized.items():
                    for p in partitions:
                        await persister.delete(group_id, topic_id, p)
                self.broker.share.forget_group(group_id)
                # Group configs outlive the group, as in Kafka 4.2.
            out[group_id] = code
        return out

    def topics_changed(self) -> None:
        """Topics were created, deleted or grew: re-target groups (persisted in the background)."""
        records = self.coordinator.on_topics_changed()
        if records:
            self.broker.share.spawn(self._write_grouped, records)

    async def _write_grouped(self, records: list[Any]) -> None:
        # Records of one change may span groups; each goes to its group's partition.
        from broker.group.records import decode

        by_group: dict[str, list[Any]] = {}
        for r in records:
            rec = decode(r.key, r.value)
            group_id = getattr(rec.key, "group_id", "") if rec is not None else ""
            by_group.setdefault(group_id, []).append(r)
        for group_id, items in by_group.items():
            if not await self.records.write(group_id, items):
                self.broker.metrics.rebalanced(items)

    # --- session timeouts ----------------------------------------------------------

    async def run(self, *, task_status: Any = trio.TASK_STATUS_IGNORED) -> None:
        task_status.started()
        while True:
            self._timer_changed = trio.Event()
            now = self.broker.now_ms()
            deadline = self.coordinator.next_deadline()
            if deadline is not None and deadline <= now:
                expired = self.coordinator.expire_members(now)
                for group_id, member_id in expired.expired:
                    log.info("share_member_expired", group=group_id, member=member_id)
                if expired.records_to_persist:
                    await self._write_grouped(list(expired.records_to_persist))
                for group_id, member_id in expired.expired:
                    await self.broker.share.release_member(group_id, member_id)
                continue
            delay = 3600.0 if deadline is None else (deadline - now) / 1000
            with trio.move_on_after(delay):
                await self._timer_changed.wait()
