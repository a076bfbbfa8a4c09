"""The streams groups' dispatch in the group shell (:class:`StreamsShell`, KIP-1071).

StreamsGroupHeartbeat runs the streams core, replays the records it produced, makes them
durable and then answers; the internal topics a topology lacks are created in the
background, as Kafka's request handler does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import structlog

from broker.coordinator.result import CoordinatorResult
from broker.coordinator.runtime import Record
from broker.group.shard import GroupShard
from broker.group.shell.base import ShellBase
from broker.group.streams import topology as streams_topology
from broker.group.streams.model import HeartbeatOutcome
from broker.group.streams.records import RecordType as StreamsRecordType
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages import streams_group_describe_response as sg_describe
from broker.protocol.messages.streams_group_heartbeat_request import StreamsGroupHeartbeatRequest
from broker.protocol.messages.streams_group_heartbeat_response import Status as StreamsStatus
from broker.protocol.messages.streams_group_heartbeat_response import StreamsGroupHeartbeatResponse

__all__ = ["StreamsShell"]

log = structlog.get_logger("sharebroker.groups")


class StreamsShell(ShellBase):
    """Streams groups (KIP-1071) on the streams core (:mod:`broker.group.streams`):
    StreamsGroupHeartbeat and StreamsGroupDescribe. Every heartbeat's records are durable
    before it is answered; the internal topics a topology lacks are created in the
    background."""

    async def streams_heartbeat(
        self,
        request: StreamsGroupHeartbeatRequest,
        *,
        api_version: int,
        client_id: str,
        client_host: str,
        may_not_create: Callable[[Sequence[str]], list[str]] | None = None,
    ) -> StreamsGroupHeartbeatResponse:
        """StreamsGroupHeartbeat: run the core, make its records durable, answer, and
        create the internal topics the topology still lacks (in the background, as
        Kafka's request handler does). ``may_not_create`` names the topics the member
        is not authorized to create; then none is created and the MISSING_INTERNAL_TOPICS
        status says so."""

        def run(shard: GroupShard) -> CoordinatorResult[HeartbeatOutcome]:
            if shard.group_type(request.group_id) not in (None, "streams"):
                return CoordinatorResult(
                    [], _failed(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {request.group_id} is not a streams group.")
                )
            return shard.streams.heartbeat(
                request, now_ms=self.clock(), api_version=api_version, client_id=client_id, client_host=client_host
            )

        outcome = await self.run_on_shard(request.group_id, run, self._write_streams, _failed)
        response = outcome.response
        to_create: Sequence[Any] = outcome.topics_to_create
        if to_create and may_not_create is not None:
            denied = may_not_create([t.name for t in to_create])
            if denied:
                _missing_internal_detail(response, f"Unauthorized to CREATE on topics {', '.join(denied)}.")
                to_create = []
        if to_create and self._nursery is not None:
            self._nursery.start_soon(self._create_internal_topics, to_create)
        return response

    async def _create_internal_topics(self, topics: Sequence[Any]) -> None:
        for info in topics:
            if self._metadata.image.topic(info.name) is not None:
                continue
            try:
                await self._metadata.create_topic(
                    info.name,
                    info.partitions,
                    info.replication_factor if info.replication_factor > 0 else -1,
                    dict(info.configs),
                )
            except KafkaError as exc:
                if exc.code != ErrorCode.TOPIC_ALREADY_EXISTS:
                    log.warning("streams_internal_topic_failed", topic=info.name, error=str(exc))
            else:
                log.info("streams_internal_topic_created", topic=info.name, partitions=info.partitions)

    async def streams_topology_epoch(self, group_id: str, member_id: str | None = None) -> int:
        """The streams group's current topology epoch (-1 before it has one); with
        ``member_id``, that member must be in the group. Raises KafkaError:
        GROUP_ID_NOT_FOUND, UNKNOWN_MEMBER_ID, or the coordinator errors."""
        _, shard = await self.shard_for(group_id)
        group = shard.streams.groups.get(group_id) if shard.group_type(group_id) == "streams" else None
        if group is None:
            raise KafkaError(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} not found.")
        if member_id is not None and member_id not in group.members:
            raise KafkaError(ErrorCode.UNKNOWN_MEMBER_ID, f"Member {member_id} is not a member of group {group_id}.")
        return group.topology.epoch if group.topology is not None else -1

    async def streams_describe(self, group_ids: Iterable[str]) -> list[sg_describe.DescribedGroup]:
        return await self.describe_each(
            group_ids,
            lambda shard, group_id: shard.streams.describe([group_id], shard.group_type),
            sg_describe.DescribedGroup,
        )

    def list_streams_groups(self) -> list[tuple[str, str]]:
        """(group id, state) of every streams group hosted here."""
        return [g for shard in self.shards() for g in shard.streams.list_groups()]

    async def _delete_streams_group(self, pid: int, shard: GroupShard, group_id: str) -> ErrorCode:
        result = shard.streams.delete_group(group_id)
        if result.response:
            return result.response
        return await self.delete_with_offsets(pid, shard, group_id, lambda: shard.apply_streams_records(result.records))

    async def _write_streams(self, pid: int, shard: GroupShard, records: Sequence[Any]) -> ErrorCode:
        if not records:
            return ErrorCode.NONE
        return await self._flush(pid, shard, self._streams_applied(shard, records))

    def _streams_applied(self, shard: GroupShard, records: Sequence[Any]) -> list[Record]:
        """The streams core's records replayed; framed to append."""
        framed = shard.apply_streams_records(records)
        self._metrics.streams_rebalanced(
            sum(1 for r in records if r.type is StreamsRecordType.TARGET_EPOCH and r.value is not None)
        )
        return framed

    def _streams_metadata_changed(self) -> None:
        """Topics changed: each streams group checks its topology against them again."""
        for _, shard in list(self.runtime.loaded()):
            shard.streams.on_metadata_changed(self._topic_table)


def _failed(error_code: int, error_message: str | None) -> HeartbeatOutcome:
    """A heartbeat answered with an error (and no topics to create)."""
    return HeartbeatOutcome(StreamsGroupHeartbeatResponse(error_code=error_code, error_message=error_message))


def _missing_internal_detail(response: StreamsGroupHeartbeatResponse, detail: str) -> None:
    """Add ``detail`` to the response's MISSING_INTERNAL_TOPICS status (or add that status)."""
    for status in response.status or ():
        if status.status_code == streams_topology.Status.MISSING_INTERNAL_TOPICS:
            status.status_detail = f"{status.status_detail} {detail}" if status.status_detail else detail
            return
    response.status = [
        *(response.status or []),
        StreamsStatus(status_code=streams_topology.Status.MISSING_INTERNAL_TOPICS, status_detail=detail),
    ]
