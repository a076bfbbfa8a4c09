"""KIP-1071 streams groups: the pure core one group shard owns.

:class:`StreamsGroups` follows Kafka 4.4's streams paths of
``GroupMetadataManager``; requests and responses are the generated
StreamsGroupHeartbeat and StreamsGroupDescribe messages.

* **Topology.** The first member to join initialises the group's topology
  (:mod:`.topology`). A later member with the same epoch must send the same
  topology (else INVALID_REQUEST, "Topology updates are not supported yet.");
  one that runs an older topology epoch gets the STALE_TOPOLOGY status. An
  empty group takes the topology of the next member to join. Missing internal
  topics are returned to the shell, which creates them (as Kafka's request
  handler does) and answers MISSING_INTERNAL_TOPICS meanwhile.
* **Epochs.** The first bump takes the group epoch from 0 to 2; a new group
  waits ``group.streams.initial.rebalance.delay.ms`` (status
  ASSIGNMENT_DELAYED, member epoch 1 with no tasks) before its first target.
  Later targets come at most once per ``streams.assignment.interval.ms``
  (KIP-1263): within it members reconcile to the current target and hear
  ASSIGNMENT_DELAYED; the first heartbeat after it computes one target with
  every change made meanwhile (0: at once). An emptied group's next first
  target is never delayed by it.
  Member metadata that shapes the assignment (process, rack, client tags,
  topology epoch), the topic metadata and the validated topology bump it.
* **Assignment** (:mod:`.assignor`): the sticky task assignor with
  ``group.streams.num.standby.replicas`` standbys, spread by the client tags
  named in ``streams.rack.aware.assignment.tags``. Warm-up tasks are never
  planned (Kafka 4.4's sticky assignor plans none); members may still report
  them and their task offsets, which describe shows.
* **Reconciliation**: active tasks are revoked before new ones are given (the
  member keeps its epoch until it reports them gone, within its rebalance
  timeout), and a task moves only once no other process still runs it;
  standbys follow the target at once, never on the process running the active.
* **Static members**: epoch -2 leaves and keeps the tasks until the session
  ends or a member with the same instance id takes its place; another member
  claiming a held instance id gets UNRELEASED_INSTANCE_ID, a request whose member
  id does not hold the instance id FENCED_INSTANCE_ID.
* **Interactive queries**: members with a UserEndpoint are told, per endpoint,
  the source-topic partitions of their active and standby tasks whenever the
  client's EndpointInformationEpoch lags the group's.
* ShutdownApplication from one member puts SHUTDOWN_APPLICATION in every
  member's next heartbeat.
* Session timeouts fence members; -1 leaves.

The topology description of KIP-1331 is kept outside this core
(:mod:`broker.metadata.streams_topologies`, StreamsGroupTopologyDescriptionUpdate);
the heartbeat handler asks members for it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any, ClassVar

from broker.config.services import StreamsGroupSettings
from broker.coordinator.result import CoordinatorResult
from broker.coordinator.timer import TimerQueue
from broker.group.modern import (
    LEAVE_EPOCH,
    STATIC_LEAVE_EPOCH,
    ModernGroups,
    TimerTask,
    refuse_empty,
)
from broker.group.modern import HeartbeatRefused as _Fail
from broker.group.regex import resolve
from broker.group.shard_api import TopicImage, described_not_found, sorted_wire, target_assignment_due
from broker.group.streams.assignor import TaskMember, Tasks, sticky_assign
from broker.group.streams.endpoints import endpoints
from broker.group.streams.model import (
    JOIN_EPOCH,
    UNREVOKED,
    HeartbeatOutcome,
    StreamsCommitCheck,
    StreamsGroup,
    StreamsMember,
)
from broker.group.streams.reconcile import reconcile
from broker.group.streams.records import (
    CurrentValue,
    GroupValue,
    MemberValue,
    Record,
    RecordType,
    TargetEpochValue,
    TargetValue,
    merged_tasks,
)
from broker.group.streams.topology import Configured, Status, TopicInfo, Topology, configure
from broker.group.type_config import PerGroupConfig, config_from_settings
from broker.protocol.errors import ErrorCode
from broker.protocol.messages import streams_group_describe_response as describe_msg
from broker.protocol.messages import streams_group_heartbeat_response as response_msg
from broker.protocol.messages.streams_group_heartbeat_request import StreamsGroupHeartbeatRequest

__all__ = [
    "GROUP_TYPE",
    "HeartbeatOutcome",
    "StreamsCommitCheck",
    "StreamsGroup",
    "StreamsGroupConfig",
    "StreamsGroups",
    "StreamsMember",
]

GROUP_TYPE = "streams"
FIRST_GROUP_EPOCH = 2
# StreamsGroupHeartbeat v1 carries AcceptableRecoveryLag as an int64 (v0: an int32).
FIRST_VERSION_LONG_RECOVERY_LAG = 1
# OffsetCommit v9+ is the version streams-protocol members must use.
COMMIT_VERSION_FOR_STREAMS = 9


@dataclass(slots=True)
class StreamsGroupConfig(PerGroupConfig):
    """``group.streams.*`` settings and the per-group ``streams.*`` configs."""

    PREFIX: ClassVar[str] = "streams."

    max_size: int = 2**31 - 1
    num_standby_replicas: int = 0
    max_standby_replicas: int = 2
    initial_rebalance_delay_ms: int = 3_000
    acceptable_recovery_lag: int = 10_000
    task_offset_interval_ms: int = 60_000
    rack_aware_assignment_tags: tuple[str, ...] = ()

    @classmethod
    def from_settings(cls, s: StreamsGroupSettings) -> StreamsGroupConfig:
        """Build from the broker's ``group.streams.*`` settings."""
        return config_from_settings(
            cls,
            s,
            rack_aware_assignment_tags=tuple(t.strip() for t in s.rack_aware_assignment_tags.split(",") if t.strip()),
        )

    def standby_replicas_for(self, group_id: str) -> int:
        return min(self._int(group_id, "num.standby.replicas", self.num_standby_replicas), self.max_standby_replicas)

    def initial_delay_for(self, group_id: str) -> int:
        return self._int(group_id, "initial.rebalance.delay.ms", self.initial_rebalance_delay_ms)

    def rack_tags_for(self, group_id: str) -> tuple[str, ...]:
        value = self._value(group_id, "rack.aware.assignment.tags")
        if value is None:
            return self.rack_aware_assignment_tags
        return tuple(t.strip() for t in value.split(",") if t.strip())


def _wire(tasks: Mapping[str, Iterable[int]]) -> list[response_msg.TaskIds]:
    return [response_msg.TaskIds(s, ps) for s, ps in sorted_wire(tasks)]


def _describe_tasks(tasks: Mapping[str, Iterable[int]]) -> list[describe_msg.TaskIds]:
    return [describe_msg.TaskIds(s, ps) for s, ps in sorted_wire(tasks)]


def _flat(tasks: Mapping[str, Iterable[int]]) -> set[tuple[str, int]]:
    return {(s, p) for s, ps in tasks.items() for p in ps}


class StreamsGroups(ModernGroups[StreamsGroup, StreamsMember, StreamsGroupHeartbeatRequest, HeartbeatOutcome]):
    """Every KIP-1071 streams group of one shard."""

    GROUP_TYPE = GROUP_TYPE
    OWNS = "tasks"

    def __init__(
        self,
        topics: TopicImage,
        config: StreamsGroupConfig | None = None,
        *,
        timer: TimerQueue[TimerTask] | None = None,
    ) -> None:
        self.topics = topics
        self.config = config or StreamsGroupConfig()
        self._configured: dict[str, tuple[Any, Configured]] = {}
        super().__init__(StreamsGroup, StreamsMember, RecordType, timer)

    # ============================================================ replay

    def _replay_rules(self) -> dict[Any, Callable[[Any], None]]:
        return {RecordType.TOPOLOGY: self._apply_topology}

    def _member_removed(self, group: StreamsGroup, member_id: str, old: StreamsMember | None) -> None:
        if old is not None and old.meta.user_endpoint is not None:
            group.endpoint_epoch += 1
        if group.shutdown_requested_by == member_id:
            group.shutdown_requested_by = None

    def _meta_changing(self, group: StreamsGroup, member: StreamsMember, meta: Any) -> None:
        if member.meta.user_endpoint != meta.user_endpoint:
            group.endpoint_epoch += 1

    def _apply_group(self, r: Any) -> None:
        super()._apply_group(r)
        if r.value is None:
            self._configured.pop(r.group_id, None)
            self._disarm(("initial", r.group_id, ""))
            return
        assert isinstance(r.value, GroupValue)
        self.groups[r.group_id].validated_topology_epoch = r.value.validated_topology_epoch

    def _apply_current(self, r: Record) -> None:
        assert r.sub is not None
        group = self.groups.get(r.group_id)
        if r.value is None:
            member = group.members.get(r.sub) if group is not None else None
            if member is not None:
                member.current = CurrentValue(LEAVE_EPOCH, LEAVE_EPOCH)
            return
        assert isinstance(r.value, CurrentValue)
        group = self._group_for(r.group_id)
        member = self._member_for(group, r.sub)
        if member.meta.user_endpoint is not None and (
            member.current.active != r.value.active or member.current.standby != r.value.standby
        ):
            group.endpoint_epoch += 1
        member.current = r.value

    def _apply_topology(self, r: Record) -> None:
        group = self.groups.get(r.group_id)
        if r.value is None:
            if group is not None:
                group.topology = None
            return
        assert isinstance(r.value, Topology)
        self._group_for(r.group_id).topology = r.value

    def snapshot(self) -> list[Record]:
        out: list[Record] = []
        for g in sorted(self.groups.values(), key=lambda g: g.group_id):
            gid = g.group_id
            out.append(
                Record(RecordType.GROUP, gid, None, GroupValue(g.epoch, g.metadata_hash, g.validated_topology_epoch))
            )
            if g.topology is not None:
                out.append(Record(RecordType.TOPOLOGY, gid, None, g.topology))
            for mid, m in sorted(g.members.items()):
                out.append(Record(RecordType.MEMBER, gid, mid, m.meta))
            for mid, t in sorted(g.target.items()):
                out.append(Record(RecordType.TARGET_MEMBER, gid, mid, t))
            if g.assignment_epoch >= 0:
                out.append(
                    Record(
                        RecordType.TARGET_EPOCH,
                        gid,
                        None,
                        TargetEpochValue(g.assignment_epoch, g.assignment_timestamp_ms),
                    )
                )
            for mid, m in sorted(g.members.items()):
                out.append(Record(RecordType.CURRENT, gid, mid, m.current))
        return out

    # ============================================================ timers

    def _session_timeout(self, group_id: str, meta: Any) -> int:
        return self.config.session_timeout_for(group_id)

    def _is_revoking(self, member: StreamsMember) -> bool:
        return member.current.state == UNREVOKED

    def _run_timer(self, group: StreamsGroup, key: tuple[Hashable, ...], now_ms: int) -> list[Any]:
        if key[0] != "initial":
            return super()._run_timer(group, key, now_ms)
        # The end of a new group's initial rebalance delay: its first target.
        if group.members and group.epoch > group.assignment_epoch:
            configured = self._configure(group, group.topology)
            metas = {m: g.meta for m, g in group.members.items()}
            return self._new_target(group, metas, configured, group.epoch, now_ms)[0]
        return []

    # ============================================================ heartbeat

    def _refused(self, fail: _Fail) -> HeartbeatOutcome:
        return HeartbeatOutcome(
            response_msg.StreamsGroupHeartbeatResponse(error_code=int(fail.code), error_message=fail.message)
        )

    def _validate(self, r: StreamsGroupHeartbeatRequest, api_version: int) -> None:
        bad = ErrorCode.INVALID_REQUEST
        refuse_empty("GroupId", r.group_id)
        refuse_empty("MemberId", r.member_id)
        refuse_empty("InstanceId", r.instance_id, null_ok=True)
        refuse_empty("RackId", r.rack_id, null_ok=True)
        tasks = (r.active_tasks, r.standby_tasks, r.warmup_tasks)
        if r.member_epoch == JOIN_EPOCH:
            if r.rebalance_timeout_ms == -1:
                raise _Fail(bad, "RebalanceTimeoutMs must be provided in first request.")
            if r.topology is None:
                raise _Fail(bad, "Topology must be non-null in first request.")
            refuse_empty("ProcessId", r.process_id)
            if any(t for t in tasks):
                raise _Fail(bad, "Active, standby and warmup tasks must be empty when (re-)joining.")
        elif r.member_epoch == STATIC_LEAVE_EPOCH:
            if r.instance_id is None:
                raise _Fail(bad, "InstanceId can't be null.")
        elif r.member_epoch < STATIC_LEAVE_EPOCH:
            raise _Fail(bad, "MemberEpoch is invalid.")
        if r.member_epoch >= JOIN_EPOCH and any(t is None for t in tasks) and any(t is not None for t in tasks):
            raise _Fail(bad, "If one task-type is non-null, all must be non-null.")
        if r.topology is not None:
            error = Topology.from_wire(r.topology).regex_error()
            if error is not None:
                raise _Fail(bad, error)

    def _group_or_fail(self, group_id: str) -> StreamsGroup:
        group = self.groups.get(group_id)
        if group is None:
            raise _Fail(ErrorCode.GROUP_ID_NOT_FOUND, f"Streams group {group_id} not found.")
        return group

    def _static_leave(self, group: StreamsGroup, member: StreamsMember) -> Record:
        leaving = replace(member.current, member_epoch=STATIC_LEAVE_EPOCH)
        return Record(RecordType.CURRENT, group.group_id, member.member_id, leaving)

    def _left(self, r: StreamsGroupHeartbeatRequest) -> HeartbeatOutcome:
        return HeartbeatOutcome(
            response_msg.StreamsGroupHeartbeatResponse(member_id=r.member_id, member_epoch=r.member_epoch)
        )

    def _missed_answer(self, member: StreamsMember, received: int, owned_active: Tasks | None) -> bool:
        assigned = member.current.active
        return (
            received == member.current.previous_member_epoch
            and owned_active is not None
            and all(p in assigned.get(s, {}) for s, ps in owned_active.items() for p in ps)
        )

    def _member(
        self, group: StreamsGroup, r: StreamsGroupHeartbeatRequest, owned_active: Tasks | None, records: list[Record]
    ) -> tuple[StreamsMember, str | None]:
        """The member this request speaks for, and the static member it replaces (if any)."""
        joining = r.member_epoch == JOIN_EPOCH
        if r.instance_id is None or not joining:
            if r.instance_id is not None:
                holder_id = group.static.get(r.instance_id)
                if holder_id is None:
                    raise _Fail(ErrorCode.UNKNOWN_MEMBER_ID, f"Instance id {r.instance_id} is unknown.")
                if holder_id != r.member_id:
                    raise _Fail(
                        ErrorCode.FENCED_INSTANCE_ID,
                        f"Static member {r.member_id} with instance id {r.instance_id} was fenced by member {holder_id}.",
                    )
            member = group.members.get(r.member_id)
            if member is None:
                if not joining:
                    raise _Fail(
                        ErrorCode.UNKNOWN_MEMBER_ID, f"Member {r.member_id} is not a member of group {group.group_id}."
                    )
                return StreamsMember(r.member_id), None
            if not joining:
                self._check_epoch(member, r.member_epoch, owned_active)
            return member, None
        holder_id = group.static.get(r.instance_id)
        holder = group.members.get(holder_id) if holder_id is not None else None
        if holder is None:
            return group.members.get(r.member_id) or StreamsMember(r.member_id), None
        if holder.epoch != STATIC_LEAVE_EPOCH:
            raise _Fail(
                ErrorCode.UNRELEASED_INSTANCE_ID,
                f"Static member {r.member_id} with instance id {r.instance_id} cannot join the group because the "
                f"instance id is owned by {holder.member_id} member.",
            )
        # Take the departed static member's place: its target tasks, and its tasks as
        # released (its current record goes).
        gid = group.group_id
        records += [
            Record(RecordType.CURRENT, gid, holder.member_id, None),
            Record(RecordType.TARGET_MEMBER, gid, holder.member_id, None),
            Record(RecordType.MEMBER, gid, holder.member_id, None),
        ]
        target = group.target.get(holder.member_id)
        if target is not None:
            records.append(Record(RecordType.TARGET_MEMBER, gid, r.member_id, target))
        self._cancel_member_timers(gid, holder.member_id)
        return StreamsMember(r.member_id, holder.meta, CurrentValue()), holder.member_id

    def _configure(self, group: StreamsGroup, topology: Topology | None) -> Configured:
        if topology is None:
            return Configured({}, ((Status.MISSING_SOURCE_TOPICS, "The topology is not initialised."),))
        key = (topology, self._metadata_hash(topology))
        cached = self._configured.get(group.group_id)
        if cached is None or cached[0] != key:
            cached = (key, configure(topology, self.topics))
            self._configured[group.group_id] = cached
        return cached[1]

    def _metadata_hash(self, topology: Topology | None) -> int:
        """A hash of the topics the topology names or its regexes match (ids, partition counts)."""
        if topology is None:
            return 0
        names = topology.topic_names()
        patterns = [p for s in topology.subtopologies for p in s.source_topic_regex]
        if patterns:
            all_names = list(self.topics.topic_names())
            for pattern in patterns:
                names.update(resolve(pattern, all_names))
        digest = hashlib.blake2b(digest_size=8)
        for name in sorted(names):
            info = self.topics.topic(name)
            if info is not None:
                digest.update(name.encode() + b"\0" + info.topic_id.bytes + info.partitions.to_bytes(4, "big"))
        return int.from_bytes(digest.digest(), "big", signed=True)

    def _heartbeat(
        self, r: StreamsGroupHeartbeatRequest, now_ms: int, api_version: int, client_id: str, client_host: str
    ) -> CoordinatorResult[HeartbeatOutcome]:
        records: list[Record] = []
        statuses: list[tuple[int, str]] = []
        joining = r.member_epoch == JOIN_EPOCH
        group = self._admit(r, joining)
        owned_active = None if r.active_tasks is None else merged_tasks(r.active_tasks)
        member, replaced = self._member(group, r, owned_active, records)
        was_empty = not group.members
        is_new = r.member_id not in group.members and replaced is None
        meta, bump = self._update_member(group, r, member, replaced, is_new, client_id, client_host, records)
        # The topology: initialise it, or check the member's against it.
        topology = self._check_topology(group, r, meta, records, statuses)
        configured = self._configure(group, topology)
        epoch = self._bump_group_epoch(group, topology, configured, bump, records)
        # The target assignment.
        target_epoch, target = self._target(
            group, r, meta, replaced, configured, epoch, was_empty, now_ms, records, statuses
        )
        for status, detail in configured.statuses:
            statuses.append((int(status), detail))
        if group.shutdown_requested_by is not None or r.shutdown_application:
            requester = group.shutdown_requested_by or r.member_id
            group.shutdown_requested_by = requester
            statuses.append(
                (Status.SHUTDOWN_APPLICATION, f"The application is requested to shutdown by member {requester}.")
            )
        # Reconcile.
        current = member.current
        updated = self._reconcile_member(
            group, r, member, meta, replaced, is_new, target_epoch, target, owned_active, now_ms, records
        )
        response = self._response(group, r, api_version, joining, current, updated, statuses)
        endpoints(self.topics, group, r, records, configured, response)
        return CoordinatorResult(records, HeartbeatOutcome(response, configured.to_create))

    def _admit(self, r: StreamsGroupHeartbeatRequest, joining: bool) -> StreamsGroup:
        """The member's group (a new one for a join); GROUP_ID_NOT_FOUND for a heartbeat
        to no group, GROUP_MAX_SIZE_REACHED for a join to a full one."""
        group = self.groups.get(r.group_id)
        if group is None:
            if not joining:
                self._group_or_fail(r.group_id)
            group = StreamsGroup(r.group_id)
        if (
            joining
            and r.member_id not in group.members
            and (r.instance_id is None or r.instance_id not in group.static)
            and len(group.members) >= self.config.max_size
        ):
            raise _Fail(
                ErrorCode.GROUP_MAX_SIZE_REACHED,
                f"The streams group has reached its maximum capacity of {self.config.max_size} members.",
            )
        return group

    @staticmethod
    def _update_member(
        group: StreamsGroup,
        r: StreamsGroupHeartbeatRequest,
        member: StreamsMember,
        replaced: str | None,
        is_new: bool,
        client_id: str,
        client_host: str,
        records: list[Record],
    ) -> tuple[MemberValue, bool]:
        """The member's metadata after the request (null fields unchanged), its record when
        it changed, and whether the change bumps the group epoch."""
        old = member.meta
        endpoint = old.user_endpoint
        if r.user_endpoint is not None:
            endpoint = (r.user_endpoint.host, r.user_endpoint.port)
        meta = MemberValue(
            process_id=r.process_id if r.process_id is not None else old.process_id,
            client_id=client_id,
            client_host=client_host,
            rebalance_timeout_ms=r.rebalance_timeout_ms if r.rebalance_timeout_ms != -1 else old.rebalance_timeout_ms,
            topology_epoch=r.topology.epoch if r.topology is not None else old.topology_epoch,
            instance_id=r.instance_id if r.instance_id is not None else old.instance_id,
            rack_id=r.rack_id if r.rack_id is not None else old.rack_id,
            client_tags=tuple((kv.key, kv.value) for kv in r.client_tags)
            if r.client_tags is not None
            else old.client_tags,
            user_endpoint=endpoint,
        )
        bump = False
        if is_new or replaced is not None or meta != old:
            records.append(Record(RecordType.MEMBER, group.group_id, r.member_id, meta))
            shaping = ("process_id", "rack_id", "client_tags", "topology_epoch")
            bump = is_new or any(getattr(meta, f) != getattr(old, f) for f in shaping)
        return meta, bump

    @staticmethod
    def _check_topology(
        group: StreamsGroup,
        r: StreamsGroupHeartbeatRequest,
        meta: MemberValue,
        records: list[Record],
        statuses: list[tuple[int, str]],
    ) -> Topology | None:
        """The group's topology: the member's initialises it (or replaces it in an empty
        group); a different one of the same epoch is INVALID_REQUEST; an older member
        topology is reported stale."""
        topology = group.topology
        if r.topology is not None:
            sent = Topology.from_wire(r.topology)
            if topology is None or (not group.members and sent != topology):
                topology = sent
                records.append(Record(RecordType.TOPOLOGY, group.group_id, None, topology))
            elif topology.epoch > sent.epoch:
                pass  # reported stale below
            elif topology != sent:
                raise _Fail(ErrorCode.INVALID_REQUEST, "Topology updates are not supported yet.")
        if topology is not None and meta.topology_epoch < topology.epoch:
            statuses.append(
                (
                    Status.STALE_TOPOLOGY,
                    f"The member's topology epoch {meta.topology_epoch} is behind the group's topology epoch "
                    f"{topology.epoch}.",
                )
            )
        return topology

    def _bump_group_epoch(
        self,
        group: StreamsGroup,
        topology: Topology | None,
        configured: Configured,
        bump: bool,
        records: list[Record],
    ) -> int:
        """The group epoch after the request: one more (with the group's record) when a
        member's shaping metadata, the topics' metadata or the validated topology changed."""
        metadata_hash = self._metadata_hash(topology)
        validated = topology.epoch if (configured.ready and topology is not None) else -1
        bump = bump or metadata_hash != group.metadata_hash or validated != group.validated_topology_epoch
        epoch = group.epoch
        if bump or epoch == 0:
            epoch = FIRST_GROUP_EPOCH if epoch == 0 else epoch + 1
            records.append(Record(RecordType.GROUP, group.group_id, None, GroupValue(epoch, metadata_hash, validated)))
        return epoch

    def _target(
        self,
        group: StreamsGroup,
        r: StreamsGroupHeartbeatRequest,
        meta: MemberValue,
        replaced: str | None,
        configured: Configured,
        epoch: int,
        was_empty: bool,
        now_ms: int,
        records: list[Record],
        statuses: list[tuple[int, str]],
    ) -> tuple[int, TargetValue | None]:
        """(target epoch, the member's target): a new target assignment when the group
        epoch is ahead, unless the initial rebalance delay or the assignment interval
        (KIP-1263) holds it back."""
        delay = self.config.initial_delay_for(group.group_id)
        initial_key = ("initial", group.group_id, "")
        if was_empty and delay > 0 and not self._armed(initial_key) and epoch > group.assignment_epoch:
            self._arm(initial_key, now_ms + delay)
        target_epoch = group.assignment_epoch
        target = group.target.get(r.member_id) if replaced is None else group.target.get(replaced)
        if epoch > group.assignment_epoch:
            if self._armed(initial_key):
                target_epoch, target = max(1, group.assignment_epoch), TargetValue()
                statuses.append(
                    (Status.ASSIGNMENT_DELAYED, "Assignment delayed due to the configured initial rebalance delay.")
                )
            elif not target_assignment_due(
                group.assignment_timestamp_ms, self.config.assignment_interval_for(group.group_id), now_ms
            ):
                # KIP-1263: the current target stands until the interval has passed.
                statuses.append(
                    (Status.ASSIGNMENT_DELAYED, "Assignment delayed due to the configured assignment interval.")
                )
            else:
                metas = {m: g.meta for m, g in group.members.items() if m != replaced}
                metas[r.member_id] = meta
                new_records, computed = self._new_target(group, metas, configured, epoch, now_ms)
                records += new_records
                target_epoch = epoch
                target = computed.get(r.member_id, TargetValue())
        return target_epoch, target

    def _reconcile_member(
        self,
        group: StreamsGroup,
        r: StreamsGroupHeartbeatRequest,
        member: StreamsMember,
        meta: MemberValue,
        replaced: str | None,
        is_new: bool,
        target_epoch: int,
        target: TargetValue | None,
        owned_active: Tasks | None,
        now_ms: int,
        records: list[Record],
    ) -> CurrentValue:
        """The member's assignment moved towards its target (its record when it changed),
        its rebalance and session timers, and the task offsets it reported."""
        current = member.current
        mine = (member.member_id,) if replaced is None else (member.member_id, replaced)
        updated = reconcile(group, mine, meta.process_id, current, target_epoch, target, owned_active)
        if updated != current or is_new or replaced is not None:
            records.append(Record(RecordType.CURRENT, group.group_id, r.member_id, updated))
            if updated.state == UNREVOKED:
                # Armed once per epoch: heartbeats while revoking do not push the deadline back.
                if self._rebalance_armed_at(group.group_id, r.member_id) != updated.member_epoch:
                    timeout = max(meta.rebalance_timeout_ms, 0)
                    self._arm_rebalance(group.group_id, r.member_id, updated.member_epoch, now_ms + timeout)
            else:
                self._disarm_rebalance(group.group_id, r.member_id)
        self._arm_session(group.group_id, r.member_id, now_ms)
        if r.task_offsets is not None:
            member.task_offsets = tuple((t.subtopology_id, t.partition, t.offset) for t in r.task_offsets)
        if r.task_end_offsets is not None:
            member.task_end_offsets = tuple((t.subtopology_id, t.partition, t.offset) for t in r.task_end_offsets)
        return updated

    def _response(
        self,
        group: StreamsGroup,
        r: StreamsGroupHeartbeatRequest,
        api_version: int,
        joining: bool,
        current: CurrentValue,
        updated: CurrentValue,
        statuses: list[tuple[int, str]],
    ) -> response_msg.StreamsGroupHeartbeatResponse:
        """The answer: the member's epoch, intervals, statuses, and its tasks when they
        changed (or it joined)."""
        response = response_msg.StreamsGroupHeartbeatResponse(
            member_id=r.member_id,
            member_epoch=updated.member_epoch,
            heartbeat_interval_ms=self.config.heartbeat_interval_for(group.group_id),
            task_offset_interval_ms=self.config.task_offset_interval_ms,
            status=[response_msg.Status(s, d) for s, d in statuses],
        )
        if api_version >= FIRST_VERSION_LONG_RECOVERY_LAG:
            response.acceptable_recovery_lag = self.config.acceptable_recovery_lag
        else:
            response.acceptable_recovery_lag_legacy = min(self.config.acceptable_recovery_lag, 2**31 - 1)
        if (
            joining
            or _flat(updated.active) != _flat(current.active)
            or updated.standby != current.standby
            or (updated.warmup != current.warmup)
        ):
            response.active_tasks = _wire(updated.active)
            response.standby_tasks = _wire(updated.standby)
            response.warmup_tasks = _wire(updated.warmup)
        return response

    def _new_target(
        self,
        group: StreamsGroup,
        metas: Mapping[str, MemberValue],
        configured: Configured,
        epoch: int,
        now_ms: int,
    ) -> tuple[list[Record], dict[str, TargetValue]]:
        gid = group.group_id
        specs = {
            m: TaskMember(
                meta.process_id,
                group.target.get(m, TargetValue()).active,
                group.target.get(m, TargetValue()).standby,
                dict(meta.client_tags),
            )
            for m, meta in metas.items()
        }
        tasks = configured.tasks if configured.ready else {}
        computed = {
            m: TargetValue(a, s)
            for m, (a, s) in sticky_assign(
                specs, tasks, self.config.standby_replicas_for(gid), self.config.rack_tags_for(gid)
            ).items()
        }
        records = [
            Record(RecordType.TARGET_MEMBER, gid, m, t) for m, t in sorted(computed.items()) if group.target.get(m) != t
        ]
        records.append(Record(RecordType.TARGET_EPOCH, gid, None, TargetEpochValue(epoch, now_ms)))
        return records, computed

    def _fence(self, group: StreamsGroup, member: StreamsMember, now_ms: int) -> list[Record]:
        gid, mid = group.group_id, member.member_id
        self._cancel_member_timers(gid, mid)
        epoch = group.epoch + 1
        records = [
            Record(RecordType.CURRENT, gid, mid, None),
            Record(RecordType.TARGET_MEMBER, gid, mid, None),
            Record(RecordType.MEMBER, gid, mid, None),
            Record(RecordType.GROUP, gid, None, GroupValue(epoch, group.metadata_hash, group.validated_topology_epoch)),
        ]
        if len(group.members) == 1:
            # The (empty) target is current; with no time kept, the next first target is not delayed.
            records.append(Record(RecordType.TARGET_EPOCH, gid, None, TargetEpochValue(epoch, 0)))
        return records

    # ============================================================ describe, delete, offsets

    def describe(
        self, group_ids: Iterable[str], other_type: Callable[[str], str | None] = lambda g: None
    ) -> list[describe_msg.DescribedGroup]:
        out = []
        for group_id in group_ids:
            g = self.groups.get(group_id)
            if g is None:
                kind = other_type(group_id)
                out.append(described_not_found(describe_msg.DescribedGroup, group_id, "streams", bool(kind)))
                continue
            topology = None
            if g.topology is not None:
                configured = self._configure(g, g.topology)
                subtopologies = None
                if configured.subtopologies is not None:
                    subtopologies = [
                        describe_msg.Subtopology(
                            subtopology_id=s.subtopology_id,
                            source_topics=list(s.source_topics),
                            repartition_sink_topics=list(s.repartition_sink_topics),
                            state_changelog_topics=[_describe_topic(i) for i in s.state_changelog_topics],
                            repartition_source_topics=[_describe_topic(i) for i in s.repartition_source_topics],
                        )
                        for s in configured.subtopologies
                    ]
                topology = describe_msg.Topology(epoch=g.topology.epoch, subtopologies=subtopologies)
            out.append(
                describe_msg.DescribedGroup(
                    group_id=group_id,
                    group_state=g.state,
                    group_epoch=g.epoch,
                    assignment_epoch=g.assignment_epoch,
                    topology=topology,
                    members=[self._describe_member(g, m) for _, m in sorted(g.members.items())],
                    assignor_name="sticky",
                )
            )
        return out

    def _describe_member(self, g: StreamsGroup, m: StreamsMember) -> describe_msg.Member:
        meta = m.meta
        target = g.target.get(m.member_id, TargetValue())
        return describe_msg.Member(
            member_id=m.member_id,
            member_epoch=m.epoch,
            instance_id=meta.instance_id,
            rack_id=meta.rack_id,
            client_id=meta.client_id,
            client_host=meta.client_host,
            topology_epoch=meta.topology_epoch,
            process_id=meta.process_id,
            user_endpoint=None if meta.user_endpoint is None else describe_msg.Endpoint(*meta.user_endpoint),
            client_tags=[describe_msg.KeyValue(k, v) for k, v in meta.client_tags],
            task_offsets=[describe_msg.TaskOffset(s, p, o) for s, p, o in m.task_offsets],
            task_end_offsets=[describe_msg.TaskOffset(s, p, o) for s, p, o in m.task_end_offsets],
            assignment=describe_msg.Assignment(
                _describe_tasks(m.current.active), _describe_tasks(m.current.standby), _describe_tasks(m.current.warmup)
            ),
            target_assignment=describe_msg.Assignment(
                _describe_tasks(target.active), _describe_tasks(target.standby), _describe_tasks(target.warmup)
            ),
            is_classic=False,
        )

    def _empty_group_tombstones(self, group: StreamsGroup) -> list[Record]:
        group_id = group.group_id
        records = [Record(RecordType.TARGET_MEMBER, group_id, m, None) for m in sorted(group.target)]
        records += [
            Record(RecordType.TARGET_EPOCH, group_id, None, None),
            Record(RecordType.TOPOLOGY, group_id, None, None),
            Record(RecordType.GROUP, group_id, None, None),
        ]
        return records

    def validate_offset_commit(
        self,
        group_id: str,
        member_id: str,
        member_epoch: int,
        *,
        transactional: bool = False,
        api_version: int = 9,
    ) -> StreamsCommitCheck:
        g = self.groups.get(group_id)
        if g is None:
            return StreamsCommitCheck(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} not found.")
        if member_epoch < 0 and not g.members:
            return StreamsCommitCheck()
        if transactional and member_epoch == -1 and member_id == "":
            return StreamsCommitCheck()
        m = g.members.get(member_id)
        if m is None:
            return StreamsCommitCheck(ErrorCode.UNKNOWN_MEMBER_ID)
        if not transactional and api_version < COMMIT_VERSION_FOR_STREAMS:
            return StreamsCommitCheck(ErrorCode.UNSUPPORTED_VERSION)
        if member_epoch == m.epoch:
            return StreamsCommitCheck()
        if member_epoch > m.epoch:
            return StreamsCommitCheck(ErrorCode.STALE_MEMBER_EPOCH)
        readers: dict[str, list[str]] = {}
        configured = self._configure(g, g.topology)
        for s, topics in configured.inputs.items():
            for t in topics:
                readers.setdefault(t, []).append(s)
        return StreamsCommitCheck(
            readers={t: tuple(ss) for t, ss in readers.items()}, held=m.current.active, received_epoch=member_epoch
        )

    def is_subscribed_to_topic(self, group_id: str, topic: str) -> bool:
        g = self.groups.get(group_id)
        if g is None or not g.members or g.topology is None:
            return False
        configured = self._configure(g, g.topology)
        return any(topic in topics for topics in configured.inputs.values())

    def on_metadata_changed(self, topics: TopicImage) -> None:
        """New topic metadata: configurations are recomputed on the next heartbeat."""
        self.topics = topics
        self._configured.clear()


def _describe_topic(info: TopicInfo) -> describe_msg.TopicInfo:
    return describe_msg.TopicInfo(
        info.name, info.partitions, info.replication_factor, [describe_msg.KeyValue(k, v) for k, v in info.configs]
    )
