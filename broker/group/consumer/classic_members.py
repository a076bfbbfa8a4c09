"""Classic members inside a KIP-848 consumer group (:class:`ClassicMembers`).

A consumer group converted from a classic group (or joined by a classic client) serves
its classic-protocol members JoinGroup, SyncGroup, Heartbeat and LeaveGroup, as Kafka
4.4's ``GroupMetadataManager`` does: a JoinGroup runs as a consumer-protocol heartbeat
on the member's behalf, its assignment is encoded in the consumer protocol, and a
member that must rejoin hears REBALANCE_IN_PROGRESS.
"""

from __future__ import annotations

from collections.abc import Sequence

from broker.coordinator.result import CoordinatorResult
from broker.group.consumer import records as rec
from broker.group.consumer.classic_protocol import decode_subscription, encode_assignment, version_of
from broker.group.consumer.model import (
    CONSUMER_PROTOCOL_TYPE,
    FIRST_JOIN_VERSION_REQUIRING_MEMBER_ID,
    JOIN_EPOCH,
    ClassicJoin,
    ConsumerGroup,
    Member,
)
from broker.group.consumer.reconcile import MemberState
from broker.group.consumer.records import Record
from broker.group.consumer.state import ConsumerGroupsState
from broker.group.modern import HeartbeatRefused as _Fail
from broker.protocol.errors import ErrorCode, ProtocolError
from broker.protocol.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from broker.protocol.messages.consumer_group_heartbeat_response import ConsumerGroupHeartbeatResponse
from broker.protocol.messages.join_group_response import JoinGroupResponse
from broker.protocol.messages.sync_group_response import SyncGroupResponse


class ClassicMembers(ConsumerGroupsState):
    """Classic-protocol members inside a consumer group: JoinGroup, SyncGroup, Heartbeat
    and LeaveGroup served by the consumer group (KIP-848 online migration)."""

    def _heartbeat(
        self,
        r: ConsumerGroupHeartbeatRequest,
        now_ms: int,
        api_version: int,
        client_id: str,
        client_host: str,
        classic: ClassicJoin | None = None,
    ) -> CoordinatorResult[ConsumerGroupHeartbeatResponse]:
        """The consumer-protocol heartbeat a classic JoinGroup runs as (:class:`~broker.group.consumer.core.ConsumerGroups`)."""
        raise NotImplementedError

    def classic_join(
        self,
        group_id: str,
        member_id: str,
        *,
        instance_id: str | None,
        protocol_type: str,
        protocols: Sequence[tuple[str, bytes]],
        session_timeout_ms: int,
        rebalance_timeout_ms: int,
        client_id: str,
        client_host: str,
        api_version: int,
        now_ms: int,
    ) -> CoordinatorResult[JoinGroupResponse]:
        """JoinGroup to a consumer group (Kafka's classicGroupJoinToConsumerGroup): the
        member joins as a classic member and is answered at once, its generation being
        its member epoch; its assignment comes with SyncGroup."""

        def fail(code: ErrorCode, mid: str = member_id) -> CoordinatorResult[JoinGroupResponse]:
            return CoordinatorResult(
                [], JoinGroupResponse(error_code=code, generation_id=-1, leader="", member_id=mid, protocol_name=None)
            )

        group = self.groups.get(group_id)
        if group is None:
            return fail(ErrorCode.GROUP_ID_NOT_FOUND)
        unknown = member_id == ""
        if unknown:
            member_id = self._new_member_id()
        if (
            len(group.members) >= self.config.max_size
            and member_id not in group.members
            and (instance_id is None or instance_id not in group.static)
        ):
            return fail(ErrorCode.GROUP_MAX_SIZE_REACHED)
        if protocol_type != CONSUMER_PROTOCOL_TYPE or not protocols:
            return fail(ErrorCode.INCONSISTENT_GROUP_PROTOCOL)
        if unknown and instance_id is None and api_version >= FIRST_JOIN_VERSION_REQUIRING_MEMBER_ID:
            return fail(ErrorCode.MEMBER_ID_REQUIRED, member_id)
        try:
            sub = decode_subscription(protocols[0][1])
        except ProtocolError:
            return fail(ErrorCode.INCONSISTENT_GROUP_PROTOCOL)
        classic = ClassicJoin(
            rec.ClassicMemberMetadata(session_timeout_ms, tuple(protocols)),
            self._topic_ids(sub.owned),
            unknown,
        )
        request = ConsumerGroupHeartbeatRequest(
            group_id=group_id,
            member_id=member_id,
            member_epoch=JOIN_EPOCH,
            instance_id=instance_id,
            rack_id=sub.rack_id,
            rebalance_timeout_ms=rebalance_timeout_ms,
            subscribed_topic_names=list(sub.topics),
            server_assignor=None,
            topic_partitions=[],
        )
        try:
            result = self._heartbeat(request, now_ms, 1, client_id, client_host, classic)
        except _Fail as exc:
            return fail(exc.code)
        assert result.response is not None
        self._disarm(("join", group_id, member_id))
        self._arm(("sync", group_id, member_id), now_ms + max(rebalance_timeout_ms, 0))
        return CoordinatorResult(
            result.records,
            JoinGroupResponse(
                error_code=ErrorCode.NONE,
                generation_id=result.response.member_epoch,
                protocol_type=CONSUMER_PROTOCOL_TYPE,
                protocol_name=protocols[0][0],
                leader="",
                member_id=member_id,
                members=[],
            ),
        )

    def _classic_member(
        self,
        group_id: str,
        member_id: str,
        instance_id: str | None,
        *,
        generation: int | None = None,
        fence_blank: bool = True,
    ) -> tuple[ConsumerGroup, Member]:
        """The group and the classic member a request speaks for (by its instance id when
        it has one): UNKNOWN_MEMBER_ID when there is none, FENCED_INSTANCE_ID when another
        member holds the instance id (unless the request leaves its member id blank and
        ``fence_blank`` is off, as a LeaveGroup may), ILLEGAL_GENERATION when the member is
        not at ``generation``."""
        group = self.groups.get(group_id)
        if group is None:
            raise _Fail(ErrorCode.UNKNOWN_MEMBER_ID)
        if instance_id is None:
            member = group.members.get(member_id)
            if member is None:
                raise _Fail(ErrorCode.UNKNOWN_MEMBER_ID)
        else:
            holder = group.static.get(instance_id)
            member = group.members.get(holder) if holder is not None else None
            if member is None:
                raise _Fail(ErrorCode.UNKNOWN_MEMBER_ID)
            if member.member_id != member_id and (member_id or fence_blank):
                raise _Fail(ErrorCode.FENCED_INSTANCE_ID)
        if not member.uses_classic_protocol:
            raise _Fail(ErrorCode.UNKNOWN_MEMBER_ID)
        if generation is not None and generation != member.epoch:
            raise _Fail(ErrorCode.ILLEGAL_GENERATION)
        return group, member

    def _must_rejoin(self, group: ConsumerGroup, member: Member) -> bool:
        """Kafka's rule for classic members: a newer group epoch, partitions to revoke,
        or partitions it waits for that are free now."""
        a = member.assignment
        if member.epoch < group.epoch or a.state is MemberState.UNREVOKED_PARTITIONS:
            return True
        if a.state is MemberState.UNRELEASED_PARTITIONS:
            for t, ps in group.target.get(member.member_id, {}).items():
                for p in ps:
                    if p not in a.assigned.get(t, {}) and group.partition_epoch(t, p) != -1:
                        return False
            return True
        return False

    def classic_sync(
        self,
        group_id: str,
        generation: int,
        member_id: str,
        *,
        instance_id: str | None,
        protocol_type: str | None,
        protocol_name: str | None,
        now_ms: int,
    ) -> SyncGroupResponse:
        """SyncGroup from a classic member: its current assignment, in its protocol's version."""
        try:
            group, member = self._classic_member(group_id, member_id, instance_id, generation=generation)
            assert member.meta.classic is not None
            protocols = member.meta.classic.protocols
            if (protocol_type is not None and protocol_type != CONSUMER_PROTOCOL_TYPE) or (
                protocol_name is not None and protocol_name != protocols[0][0]
            ):
                raise _Fail(ErrorCode.INCONSISTENT_GROUP_PROTOCOL)
            if member.epoch < group.epoch or member.assignment.state is MemberState.UNREVOKED_PARTITIONS:
                raise _Fail(ErrorCode.REBALANCE_IN_PROGRESS)
        except _Fail as exc:
            return SyncGroupResponse(error_code=exc.code, protocol_type=None, protocol_name=None, assignment=b"")
        self._disarm(("sync", group_id, member.member_id))
        self._arm_session(group_id, member.member_id, now_ms, member.meta)
        try:
            version = version_of(protocols[0][1])
        except ProtocolError:
            version = 0
        assignment = encode_assignment(version, self._topic_names(member.assignment.assigned))
        return SyncGroupResponse(
            error_code=ErrorCode.NONE,
            protocol_type=CONSUMER_PROTOCOL_TYPE,
            protocol_name=protocols[0][0],
            assignment=assignment,
        )

    def classic_heartbeat(
        self, group_id: str, generation: int, member_id: str, instance_id: str | None, now_ms: int
    ) -> ErrorCode:
        """Heartbeat from a classic member: REBALANCE_IN_PROGRESS when it must rejoin to
        move on (it then has its rebalance timeout to do so)."""
        try:
            group, member = self._classic_member(group_id, member_id, instance_id, generation=generation)
        except _Fail as exc:
            return exc.code
        self._arm_session(group_id, member.member_id, now_ms, member.meta)
        if self._must_rejoin(group, member):
            key = ("join", group_id, member.member_id)
            if not self._armed(key):
                self._arm(key, now_ms + max(member.meta.rebalance_timeout_ms, 0))
            return ErrorCode.REBALANCE_IN_PROGRESS
        return ErrorCode.NONE

    def classic_leave(
        self, group_id: str, members: Sequence[tuple[str, str | None]], now_ms: int
    ) -> CoordinatorResult[list[tuple[str, str | None, ErrorCode]]]:
        """LeaveGroup of classic members of a consumer group; bumps the group epoch once."""
        group = self.groups.get(group_id)
        out: list[tuple[str, str | None, ErrorCode]] = []
        records: list[Record] = []
        left: list[Member] = []
        for member_id, instance_id in members:
            try:
                group, member = self._classic_member(group_id, member_id, instance_id, fence_blank=False)
            except _Fail as exc:
                out.append((member_id, instance_id, exc.code))
                continue
            gid, mid = group.group_id, member.member_id
            records += [rec.current(gid, mid, None), rec.target_member(gid, mid, None), rec.member(gid, mid, None)]
            self._cancel_member_timers(gid, mid)
            left.append(member)
            out.append((mid, instance_id, ErrorCode.NONE))
        if left and group is not None:
            gone = {m.member_id for m in left}
            remaining = [m.meta for m_id, m in group.members.items() if m_id not in gone]
            records.append(
                rec.group_epoch(group.group_id, group.epoch + 1, self._metadata_hash(remaining, group.regexes))
            )
            if not remaining:
                records.append(rec.target_epoch(group.group_id, group.epoch + 1, 0))
        return CoordinatorResult(records, out)
