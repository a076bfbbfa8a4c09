"""The consumer groups' dispatch in the group shell (:class:`ConsumerShell`, KIP-848).

ConsumerGroupHeartbeat runs the consumer core, replays the records it produced, makes
them durable and then answers. Classic members inside a consumer group are served
JoinGroup/SyncGroup/Heartbeat/LeaveGroup by the consumer core (online migration; a
consumer group and a classic group of the same id convert into each other,
:mod:`broker.group.migration`). Topic changes re-resolve regular expressions and bump
the groups whose topics changed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import structlog

from broker.coordinator.runtime import Record
from broker.group.consumer.records import RecordType as ConsumerRecordType
from broker.group.shard import GroupShard
from broker.group.shell.base import ShellBase
from broker.protocol.errors import ErrorCode
from broker.protocol.messages import consumer_group_describe_response as cg_describe
from broker.protocol.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from broker.protocol.messages.consumer_group_heartbeat_response import ConsumerGroupHeartbeatResponse
from broker.protocol.messages.join_group_response import JoinGroupResponse
from broker.protocol.messages.sync_group_response import SyncGroupResponse

__all__ = ["ConsumerShell"]

log = structlog.get_logger("sharebroker.groups")


class ConsumerShell(ShellBase):
    """Consumer groups (KIP-848) on the consumer core (:mod:`broker.group.consumer`):
    ConsumerGroupHeartbeat and ConsumerGroupDescribe, and the classic-protocol members a
    consumer group holds (online migration). Every heartbeat's records are durable
    before it is answered; topic changes re-resolve regular expressions."""

    async def consumer_heartbeat(
        self,
        request: ConsumerGroupHeartbeatRequest,
        *,
        api_version: int,
        client_id: str,
        client_host: str,
    ) -> ConsumerGroupHeartbeatResponse:
        """ConsumerGroupHeartbeat: run the core, make its records durable, then answer."""
        return await self.run_on_shard(
            request.group_id,
            lambda shard: shard.consumer.heartbeat(
                request, now_ms=self.clock(), api_version=api_version, client_id=client_id, client_host=client_host
            ),
            self._write_consumer,
            ConsumerGroupHeartbeatResponse,
        )

    async def consumer_describe(self, group_ids: Iterable[str]) -> list[cg_describe.DescribedGroup]:
        return await self.describe_each(
            group_ids, lambda shard, group_id: shard.consumer.describe([group_id]), cg_describe.DescribedGroup
        )

    def list_consumer_groups(self) -> list[tuple[str, str]]:
        """(group id, state) of every consumer group hosted here."""
        return [g for shard in self.shards() for g in shard.consumer.list_groups()]

    # --- classic members inside a consumer group (online migration) ---------------

    async def _classic_join_to_consumer(
        self, pid: int, shard: GroupShard, group_id: str, member_id: str, **kwargs: Any
    ) -> JoinGroupResponse:
        """A JoinGroup to a consumer group with members: the member joins it as a classic
        member (online migration), answered once its records are durable."""
        result = shard.consumer.classic_join(
            group_id,
            member_id,
            instance_id=kwargs.get("group_instance_id"),
            protocol_type=kwargs["protocol_type"],
            protocols=kwargs["protocols"],
            session_timeout_ms=kwargs["session_timeout_ms"],
            rebalance_timeout_ms=kwargs["rebalance_timeout_ms"],
            client_id=kwargs.get("client_id", ""),
            client_host=kwargs.get("client_host", ""),
            api_version=kwargs.get("api_version", 9),
            now_ms=self.clock(),
        )
        assert result.response is not None
        error = await self._write_consumer(pid, shard, result.records)
        if error:
            return JoinGroupResponse(error_code=error, generation_id=-1, leader="", member_id=member_id)
        return result.response

    async def _delete_empty_consumer_group(self, pid: int, shard: GroupShard, group_id: str) -> ErrorCode:
        """A classic member joining an empty consumer group replaces it (Kafka's
        maybeDeleteEmptyConsumerGroup); its offsets stay."""
        deleted = shard.consumer.delete_group(group_id)
        return await self._write_consumer(pid, shard, deleted.records)

    def _consumer_classic_sync(
        self, shard: GroupShard, group_id: str, generation_id: int, member_id: str, **kwargs: Any
    ) -> SyncGroupResponse:
        response = shard.consumer.classic_sync(
            group_id,
            generation_id,
            member_id,
            instance_id=kwargs.get("group_instance_id"),
            protocol_type=kwargs.get("protocol_type"),
            protocol_name=kwargs.get("protocol_name"),
            now_ms=self.clock(),
        )
        return response

    def _consumer_classic_heartbeat(
        self, shard: GroupShard, group_id: str, generation_id: int, member_id: str, group_instance_id: str | None
    ) -> ErrorCode:
        error = shard.consumer.classic_heartbeat(group_id, generation_id, member_id, group_instance_id, self.clock())
        return error

    async def _consumer_classic_leave(
        self, pid: int, shard: GroupShard, group_id: str, members: list[tuple[str, str | None]]
    ) -> tuple[ErrorCode, list[tuple[str, str | None, ErrorCode]]]:
        result = shard.consumer.classic_leave(group_id, members, self.clock())
        error = await self._write_consumer(pid, shard, result.records)
        assert result.response is not None  # classic_leave answers for every member
        return error, result.response

    # --- writing the core's records ------------------------------------------------

    async def _delete_consumer_group(self, pid: int, shard: GroupShard, group_id: str) -> ErrorCode:
        result = shard.consumer.delete_group(group_id)
        if result.response:
            return result.response
        return await self.delete_with_offsets(
            pid, shard, group_id, lambda: shard.apply_consumer_records(result.records, self.clock())
        )

    async def _write_consumer(self, pid: int, shard: GroupShard, records: Sequence[Any]) -> ErrorCode:
        """Replay the consumer core's records (before any await, so concurrent requests
        see them in order), append them with any classic work, and wait until durable."""
        if not records:
            return ErrorCode.NONE
        return await self._flush(pid, shard, self._consumer_applied(shard, records, self.clock()))

    def _consumer_applied(self, shard: GroupShard, records: Sequence[Any], now_ms: int) -> list[Record]:
        """The consumer core's records replayed; framed to append."""
        framed = shard.apply_consumer_records(records, now_ms)
        self._metrics.consumer_rebalanced(
            sum(
                1
                for r in records
                if getattr(r, "type", None) is ConsumerRecordType.TARGET_EPOCH and r.value is not None
            )
        )
        return framed

    def _consumer_timer_records(self, shard: GroupShard, records: Sequence[Any], now_ms: int) -> list[Record]:
        """A consumer-group timer's records (a member's session or rebalance timeout) replayed; framed to append."""
        framed = self._consumer_applied(shard, records, now_ms)
        for record in records:
            if record.type is ConsumerRecordType.MEMBER and record.value is None:
                log.info("consumer_member_fenced", group=record.group_id, member=record.sub)
        return framed

    def _consumer_metadata_changed(self) -> None:
        """Topics changed: re-resolve regular expressions and bump groups whose
        subscribed topics changed (written in the background)."""
        now = self.clock()
        for pid, shard in list(self.runtime.loaded()):
            result = shard.consumer.on_metadata_changed(self._topic_table, now)
            if result.records and self._nursery is not None:
                self._nursery.start_soon(self._write_consumer, pid, shard, result.records)
