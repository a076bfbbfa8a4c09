"""The classic groups' dispatch in the group shell (:class:`ClassicShell`).

JoinGroup, SyncGroup, Heartbeat, LeaveGroup, DescribeGroups, ListGroups and DeleteGroups
of classic groups, run on the classic core. JoinGroup and SyncGroup park
(:class:`~broker.group.classic.core.Pending`): their answers leave the core's outbox only
after the records they depend on are durable. Each connection has its own task, so a
parked request holds up only its own connection (as in Kafka, where the connection is
muted).
"""

from __future__ import annotations

from typing import Any

from broker.group.classic.model import ListedGroup
from broker.group.shard import GroupShard
from broker.group.shell.base import ShellBase
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.describe_groups_response import DescribedGroup
from broker.protocol.messages.join_group_response import JoinGroupResponse
from broker.protocol.messages.sync_group_response import SyncGroupResponse

__all__ = ["ClassicShell"]


class ClassicShell(ShellBase):
    """Classic groups on the classic core (:mod:`broker.group.classic`): JoinGroup,
    SyncGroup, Heartbeat and LeaveGroup (the coordinator sends those of a consumer group's
    classic members to :class:`~broker.group.shell.consumer.ConsumerShell`), DescribeGroups,
    ListGroups and DeleteGroups. JoinGroup and SyncGroup park in the core until the records
    they depend on are durable."""

    async def _classic_join(
        self, pid: int, shard: GroupShard, group_id: str, member_id: str, **kwargs: Any
    ) -> JoinGroupResponse:
        return await self._answer(pid, shard, shard.classic.join(group_id, member_id, now_ms=self.clock(), **kwargs))

    async def _classic_sync(
        self, pid: int, shard: GroupShard, group_id: str, generation_id: int, member_id: str, **kwargs: Any
    ) -> SyncGroupResponse:
        return await self._answer(
            pid, shard, shard.classic.sync(group_id, generation_id, member_id, now_ms=self.clock(), **kwargs)
        )

    async def _classic_heartbeat(
        self,
        pid: int,
        shard: GroupShard,
        group_id: str,
        generation_id: int,
        member_id: str,
        group_instance_id: str | None,
    ) -> ErrorCode:
        result = shard.classic.heartbeat(group_id, generation_id, member_id, group_instance_id, now_ms=self.clock())
        await self._flush(pid, shard, result.records)
        assert result.response is not None
        return result.response

    async def _classic_leave(
        self, pid: int, shard: GroupShard, group_id: str, members: list[tuple[str, str | None]]
    ) -> tuple[ErrorCode, list[tuple[str, str | None, ErrorCode]]]:
        left = shard.classic.leave(group_id, members, now_ms=self.clock())
        await self._flush(pid, shard, left.records)
        assert left.response is not None
        return left.response

    async def describe(self, group_id: str) -> DescribedGroup | None:
        _, shard = await self.shard_for(group_id)
        return shard.classic.describe(group_id)

    def list_groups(self) -> list[ListedGroup]:
        """Every classic group hosted here: (group id, protocol type, state, type)."""
        return [g for shard in self.shards() for g in shard.classic.list_groups()]

    async def _delete_classic_group(self, pid: int, shard: GroupShard, group_id: str) -> ErrorCode:
        """DeleteGroups for one classic group: GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP, or
        the group and its offsets are gone (durably) and NONE."""
        error = shard.classic.validate_delete_group(group_id)
        if error:
            return error
        return await self.delete_with_offsets(
            pid, shard, group_id, lambda: shard.classic.remove_group(group_id, now_ms=self.clock()).records
        )
