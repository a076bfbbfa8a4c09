"""KIP-848 consumer groups as replay builds them, and what reads them (:class:`ConsumerGroupsState`).

State changes only by replaying records (types 3-8 and 16 of ``__consumer_offsets``),
so loading and serving share one code path. Here too: the subscription and topic-hash
helpers every write path uses, ConsumerGroupDescribe, DeleteGroups of an empty group,
and the offset rules of consumer groups (which epochs may commit or fetch, when
offsets expire, which topics are subscribed). The heartbeat that writes the records is
:mod:`broker.group.consumer.core`.
"""

from __future__ import annotations

import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from broker.coordinator.timer import TimerQueue
from broker.group.consumer import records as rec
from broker.group.consumer.config import ConsumerGroupConfig
from broker.group.consumer.model import (
    COMMIT_VERSION_FOR_CONSUMER_PROTOCOL,
    GROUP_TYPE,
    CommitCheck,
    ConsumerGroup,
    GroupDirectory,
    Member,
)
from broker.group.consumer.reconcile import MemberAssignment, MemberState
from broker.group.consumer.records import MemberValue, Record, RecordType, RegexValue
from broker.group.modern import LEAVE_EPOCH, ModernGroups, TimerTask
from broker.group.shard_api import TopicImage, described_not_found, sorted_wire, topics_hash
from broker.protocol.errors import ErrorCode
from broker.protocol.messages import consumer_group_describe_response as describe_msg
from broker.protocol.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from broker.protocol.messages.consumer_group_heartbeat_response import ConsumerGroupHeartbeatResponse


class ConsumerGroupsState(
    ModernGroups[ConsumerGroup, Member, ConsumerGroupHeartbeatRequest, ConsumerGroupHeartbeatResponse]
):
    """The consumer groups of one shard as replay builds them, and what reads them:
    DescribeGroups, DeleteGroups of an empty group, and the offset rules of consumer groups."""

    GROUP_TYPE = GROUP_TYPE
    OWNS = "partitions"
    # A classic member inside the group also has a JoinGroup and a SyncGroup deadline.
    MEMBER_TIMERS = ("session", "rebalance", "join", "sync")

    def __init__(
        self,
        topics: TopicImage,
        config: ConsumerGroupConfig | None = None,
        *,
        directory: GroupDirectory | None = None,
        new_member_id: Callable[[], str] = lambda: str(uuid.uuid4()),
        timer: TimerQueue[TimerTask] | None = None,
    ) -> None:
        self.topics = topics
        self.config = config or ConsumerGroupConfig()
        self.directory = directory or GroupDirectory()
        self._new_member_id = new_member_id
        super().__init__(ConsumerGroup, Member, RecordType, timer)

    def _replay_rules(self) -> dict[Any, Callable[[Any], None]]:
        return {RecordType.PARTITION_METADATA: lambda r: None, RecordType.REGEX: self._apply_regex}

    def _target_of(self, value: Any) -> Any:
        return dict(value.assignment)

    def _member_removed(self, group: ConsumerGroup, member_id: str, old: Member | None) -> None:
        if old is not None:
            self._unindex(group, old)

    def _apply_current(self, r: Record) -> None:
        assert r.sub is not None
        if r.value is None:
            group = self.groups.get(r.group_id)
            member = group.members.get(r.sub) if group is not None else None
            if group is not None and member is not None:
                self._unindex(group, member)
                member.assignment = MemberAssignment(LEAVE_EPOCH, LEAVE_EPOCH)
            return
        assert isinstance(r.value, MemberAssignment)
        group = self._group_for(r.group_id)
        member = self._member_for(group, r.sub)
        self._unindex(group, member)
        member.assignment = r.value
        for source in (r.value.assigned, r.value.pending_revocation):
            for t, ps in source.items():
                for p in ps:
                    group.partition_epochs[t, p] = r.value.member_epoch

    def _unindex(self, group: ConsumerGroup, member: Member) -> None:
        a = member.assignment
        for source in (a.assigned, a.pending_revocation):
            for t, ps in source.items():
                for p in ps:
                    if group.partition_epochs.get((t, p)) == a.member_epoch:
                        del group.partition_epochs[t, p]

    def _apply_regex(self, r: Record) -> None:
        self._apply_entry(r, lambda group: group.regexes, lambda value: value)

    def snapshot(self) -> list[Record]:
        """Records that rebuild the current state from nothing."""
        out: list[Record] = []
        for group in sorted(self.groups.values(), key=lambda g: g.group_id):
            gid = group.group_id
            out.append(rec.group_epoch(gid, group.epoch, group.metadata_hash))
            for pattern, value in sorted(group.regexes.items()):
                out.append(rec.regex(gid, pattern, value))
            for member_id in sorted(group.members):
                out.append(rec.member(gid, member_id, group.members[member_id].meta))
            for member_id in sorted(group.target):
                out.append(rec.target_member(gid, member_id, group.target[member_id]))
            if group.assignment_epoch >= 0:
                out.append(rec.target_epoch(gid, group.assignment_epoch, group.assignment_timestamp_ms))
            for member_id in sorted(group.members):
                out.append(rec.current(gid, member_id, group.members[member_id].assignment))
        return out

    def _session_timeout(self, group_id: str, meta: MemberValue | None) -> int:
        if meta is not None and meta.classic is not None:
            return meta.classic.session_timeout_ms
        return self.config.session_timeout_for(group_id)

    def _is_revoking(self, member: Member) -> bool:
        return member.assignment.state is MemberState.UNREVOKED_PARTITIONS

    def _subscribed_names(self, meta: MemberValue, regexes: Mapping[str, RegexValue]) -> set[str]:
        names = set(meta.subscribed_topic_names)
        if meta.subscribed_topic_regex:
            resolved = regexes.get(meta.subscribed_topic_regex)
            if resolved is not None:
                names.update(resolved.topics)
        return names

    def _subscribed_ids(self, meta: MemberValue, regexes: Mapping[str, RegexValue]) -> frozenset[uuid.UUID]:
        ids = set()
        for name in self._subscribed_names(meta, regexes):
            info = self.topics.topic(name)
            if info is not None:
                ids.add(info.topic_id)
        return frozenset(ids)

    def _metadata_hash(self, metas: Iterable[MemberValue], regexes: Mapping[str, RegexValue]) -> int:
        names: set[str] = set()
        for meta in metas:
            names |= self._subscribed_names(meta, regexes)
        return topics_hash(info for name in names if (info := self.topics.topic(name)) is not None)

    def _preferred_assignor(self, metas: Iterable[MemberValue]) -> str:
        votes = Counter(m.server_assignor for m in metas if m.server_assignor in self.config.assignors)
        if not votes:
            return self.config.default_assignor
        best = max(votes.values())
        return min(name for name, count in votes.items() if count == best and name is not None)

    def describe(self, group_ids: Iterable[str]) -> list[describe_msg.DescribedGroup]:
        out = []
        for group_id in group_ids:
            group = self.groups.get(group_id)
            if group is None:
                other = self.directory.group_type(group_id)
                out.append(described_not_found(describe_msg.DescribedGroup, group_id, "consumer", bool(other)))
                continue
            out.append(
                describe_msg.DescribedGroup(
                    group_id=group_id,
                    group_state=group.state,
                    group_epoch=group.epoch,
                    assignment_epoch=group.assignment_epoch,
                    assignor_name=self._preferred_assignor(m.meta for m in group.members.values()),
                    members=[self._describe_member(group, m) for _, m in sorted(group.members.items())],
                )
            )
        return out

    def _describe_assignment(self, assignment: Mapping[uuid.UUID, Iterable[int]]) -> describe_msg.Assignment:
        parts = []
        for topic_id, partitions in sorted_wire(assignment):
            info = self.topics.topic_by_id(topic_id)
            if info is not None:
                parts.append(describe_msg.TopicPartitions(topic_id, info.name, partitions))
        return describe_msg.Assignment(parts)

    def _describe_member(self, group: ConsumerGroup, member: Member) -> describe_msg.Member:
        meta = member.meta
        return describe_msg.Member(
            member_id=member.member_id,
            instance_id=meta.instance_id,
            rack_id=meta.rack_id,
            member_epoch=member.epoch,
            client_id=meta.client_id,
            client_host=meta.client_host,
            subscribed_topic_names=list(meta.subscribed_topic_names),
            subscribed_topic_regex=meta.subscribed_topic_regex,
            assignment=self._describe_assignment(member.assignment.assigned),
            target_assignment=self._describe_assignment(group.target.get(member.member_id, {})),
            member_type=0 if meta.classic is not None else 1,
        )

    def _empty_group_tombstones(self, group: ConsumerGroup) -> list[Record]:
        group_id = group.group_id
        records = [rec.target_member(group_id, m, None) for m in sorted(group.target)]
        records += [rec.regex(group_id, p, None) for p in sorted(group.regexes)]
        records += [rec.target_epoch(group_id, None), Record(RecordType.GROUP, group_id, None, None)]
        return records

    def validate_offset_commit(
        self,
        group_id: str,
        member_id: str,
        instance_id: str | None,
        member_epoch: int,
        *,
        transactional: bool = False,
        api_version: int = 9,
    ) -> CommitCheck:
        group = self.groups.get(group_id)
        if group is None:
            return CommitCheck(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} not found.")
        if member_epoch < 0 and not group.members:
            return CommitCheck()
        if transactional and member_epoch == -1 and member_id == "" and instance_id is None:
            return CommitCheck()
        member = group.members.get(member_id)
        if member is None:
            return CommitCheck(ErrorCode.UNKNOWN_MEMBER_ID, f"Member {member_id} is not a member of group {group_id}.")
        if member.uses_classic_protocol:
            if member_epoch != member.epoch:
                return CommitCheck(ErrorCode.ILLEGAL_GENERATION)
            return CommitCheck()
        if not transactional and api_version < COMMIT_VERSION_FOR_CONSUMER_PROTOCOL:
            return CommitCheck(
                ErrorCode.UNSUPPORTED_VERSION,
                "OffsetCommit version 9 or above must be used by members using the consumer group protocol",
            )
        if member_epoch == member.epoch:
            return CommitCheck()
        if member_epoch > member.epoch:
            return CommitCheck(
                ErrorCode.STALE_MEMBER_EPOCH,
                f"Received member epoch {member_epoch} is newer than current member epoch {member.epoch}.",
            )
        return CommitCheck(held_since=member.assignment.assigned, received_epoch=member_epoch)

    def _fetch_epoch_error(self, member: Member, member_epoch: int) -> ErrorCode:
        if member.uses_classic_protocol:
            return ErrorCode.NONE if member_epoch in (-1, member.epoch) else ErrorCode.ILLEGAL_GENERATION
        return super()._fetch_epoch_error(member, member_epoch)

    def offset_expiry_base(self, group_id: str) -> Callable[[Any], int] | None:
        """Offsets of a consumer group expire ``offsets.retention`` after their commit
        (those of subscribed topics never do; the caller checks that), as in Kafka."""
        return lambda value: value.commit_timestamp_ms

    def is_subscribed_to_topic(self, group_id: str, topic: str) -> bool:
        group = self.groups.get(group_id)
        if group is None:
            return False
        return any(topic in self._subscribed_names(m.meta, group.regexes) for m in group.members.values())

    def _topic_ids(self, by_name: Mapping[str, Iterable[int]]) -> dict[uuid.UUID, tuple[int, ...]]:
        out: dict[uuid.UUID, tuple[int, ...]] = {}
        for name, ps in by_name.items():
            info = self.topics.topic(name)
            if info is not None:
                out[info.topic_id] = tuple(sorted(p for p in ps if 0 <= p < info.partitions))
        return out

    def _topic_names(self, by_id: Mapping[uuid.UUID, Iterable[int]]) -> dict[str, tuple[int, ...]]:
        out: dict[str, tuple[int, ...]] = {}
        for topic_id, ps in by_id.items():
            info = self.topics.topic_by_id(topic_id)
            if info is not None and ps:
                out[info.name] = tuple(sorted(ps))
        return out

    def _tombstones(self, group: ConsumerGroup) -> list[Record]:
        """Every record of the group, deleted (Kafka's createGroupTombstoneRecords)."""
        gid = group.group_id
        out = [rec.current(gid, m, None) for m in sorted(group.members)]
        out += [rec.target_member(gid, m, None) for m in sorted(set(group.target) | set(group.members))]
        out.append(rec.target_epoch(gid, None))
        out += [rec.member(gid, m, None) for m in sorted(group.members)]
        out += [rec.regex(gid, p, None) for p in sorted(group.regexes)]
        out.append(Record(RecordType.GROUP, gid, None, None))
        return out
