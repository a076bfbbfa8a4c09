"""The share groups' dispatch in the group shell (:class:`ShareShell`, KIP-932).

Every ShareGroupHeartbeat's records are durable before it is answered; share-partitions
newly assigned are marked initialised in the group; a member that leaves or times out
gives back the records it holds; topic creation, deletion and growth re-target the
groups. DeleteGroups of a share group deletes its share-partition state too.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import structlog

from broker.config.services import GroupCoordinatorSettings
from broker.coordinator.runtime import Record
from broker.group.share.core import ShareHeartbeat
from broker.group.shell.base import SharePartitions, ShellBase, record_pair
from broker.protocol.errors import ErrorCode, KafkaError

__all__ = ["ShareShell"]

log = structlog.get_logger("sharebroker.groups")


class ShareShell(ShellBase):
    """Share groups (KIP-932) on the share core (:mod:`broker.group.share`):
    ShareGroupHeartbeat, ShareGroupDescribe, ListGroups of type share and DeleteGroups.
    Every heartbeat's records are durable before it is answered; share-partitions newly
    assigned are marked initialised; a member that leaves or times out gives back the
    records it holds (through the share-partition runtime)."""

    def attach_share_partitions(self, share_partitions: SharePartitions) -> None:
        """The share-partition runtime (built after this coordinator: it reads group configs)."""
        self.share_partitions = share_partitions

    def _pin(self, group_id: str, group_type: str | None) -> None:
        pid = self.runtime.partition_for(group_id)
        if self.runtime.is_loaded(pid):
            self.runtime.shard(pid).share.pin_group_type(group_id, group_type)

    def _share_session_timeout_ms(self, group_id: str) -> int:
        return self.group_configs.share_settings(group_id).session_timeout_ms

    def _share_heartbeat_interval_ms(self, group_id: str) -> int:
        return self.group_configs.share_settings(group_id).heartbeat_interval_ms

    def _share_assignment_interval_ms(self, group_id: str) -> int:
        return self.group_configs.share_settings(group_id).assignment_interval_ms

    async def share_heartbeat(
        self,
        group_id: str,
        member_id: str,
        member_epoch: int,
        rack_id: str | None,
        subscribed_topic_names: list[str] | None,
        *,
        client_id: str,
        client_host: str,
    ) -> ShareHeartbeat:
        try:
            _, shard = await self.shard_for(group_id)
        except KafkaError as exc:
            return ShareHeartbeat(exc.code, None, member_id, member_epoch, 0, None)
        coordinator_settings = self._settings.settings(GroupCoordinatorSettings)
        result = shard.share.heartbeat(
            group_id,
            member_id,
            member_epoch,
            rack_id,
            subscribed_topic_names,
            self.clock(),
            max_size=coordinator_settings.share_max_size,
            session_timeout_ms=self._share_session_timeout_ms(group_id),
            heartbeat_interval_ms=self._share_heartbeat_interval_ms(group_id),
            assignment_interval_ms=self._share_assignment_interval_ms(group_id),
            initial_delay_ms=coordinator_settings.share_initial_rebalance_delay_ms,
            client_id=client_id or "",
            client_host=client_host,
        )
        answer = result.response
        assert answer is not None
        records = list(result.records)
        if answer.error_code == ErrorCode.NONE and answer.assignment:
            for topic_id, partitions in shard.share.uninitialized_partitions(group_id).items():
                if partitions:
                    records += shard.share.mark_initialized(group_id, topic_id, partitions)
        code = await self.write(group_id, records)
        if code:
            return ShareHeartbeat(code, None, member_id, member_epoch, 0, None)
        self._metrics.rebalanced(records)
        if answer.error_code == ErrorCode.NONE and self.share_partitions is not None and result.records:
            # Tell the share-partitions led here how many members the target gives each.
            self.share_partitions.expect_members(group_id, shard.share.sharing(group_id))
        if member_epoch == -1 and answer.error_code == ErrorCode.NONE and self.share_partitions is not None:
            # librdkafka sends its final ShareAcknowledge and this leave on two
            # connections, in either order. While the member's share session is
            # open, its close (or the connection's loss) gives the records back,
            # after applying those acks; releasing here could beat the acks.
            if not self.share_partitions.has_session(group_id, member_id):
                await self.share_partitions.release_member(group_id, member_id)
        return answer

    async def share_describe(self, group_ids: list[str]) -> list[Any]:
        out = []
        for group_id in group_ids:
            _, shard = await self.shard_for(group_id)
            out += shard.share.describe([group_id])
        return out

    def list_share_groups(self, states_filter: Iterable[str] = ()) -> list[Any]:
        states = tuple(states_filter)
        return [g for shard in self.shards() for g in shard.share.list_groups(states)]

    async def delete_share_groups(self, group_ids: list[str]) -> dict[str, int]:
        out: dict[str, int] = {}
        for group_id in group_ids:
            try:
                _, shard = await self.shard_for(group_id)
            except KafkaError as exc:
                out[group_id] = exc.code
                continue
            result = shard.share.delete_group(group_id)
            if result.error_code:
                out[group_id] = result.error_code
                continue
            code = await self.write(group_id, result.records)
            if not code and self.share_partitions is not None:
                persister = self.share_partitions.persister
                for topic_id, partitions in result.initialized.items():
                    for p in partitions:
                        await persister.delete(group_id, topic_id, p)
                self.share_partitions.forget_group(group_id)
                # Group configs outlive the group, as in Kafka 4.2.
            out[group_id] = code
        return out

    def _share_timer_records(self, result: Any) -> list[Record]:
        """A share-group timer's records (members whose sessions expired) to append."""
        records = [record_pair(r) for r in result.records]
        self._metrics.rebalanced(result.records)
        for group_id, member_id in result.expired:
            log.info("share_member_expired", group=group_id, member=member_id)
        return records

    async def _release_expired(self, expired: Iterable[tuple[str, str]]) -> None:
        """Expired members give back the records they hold."""
        if self.share_partitions is not None:
            for group_id, member_id in expired:
                await self.share_partitions.release_member(group_id, member_id)

    def _share_topics_changed(self) -> None:
        """Topics were created, deleted or grew: bump the epoch of the share groups that
        subscribe to them (persisted in the background; their next heartbeats re-target)."""
        for pid, shard in list(self.runtime.loaded()):
            records = shard.share.on_topics_changed()
            if records and self._nursery is not None:
                self._nursery.start_soon(self._write_retargeted, pid, records)

    async def _write_retargeted(self, pid: int, records: list[Any]) -> None:
        try:
            await self.runtime.write(pid, [record_pair(r) for r in records])
        except KafkaError as exc:
            log.warning("share_group_write_failed", partition=pid, error=str(exc))
            return
        self._metrics.rebalanced(records)
