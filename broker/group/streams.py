"""KIP-1071 streams groups: the pure core one group shard owns.

:class:`StreamsGroups` follows Kafka 4.4's streams paths of
``GroupMetadataManager``:

* **Topology.** The first member to join initialises the group's topology
  (subtopologies with their source topics, repartition source and sink topics,
  state changelog topics, copartition groups). A later member with the same
  epoch must send the same topology (else INVALID_REQUEST, "Topology updates
  are not supported yet."); an older epoch gets the STALE_TOPOLOGY status.
* **Configuring it** (:func:`configure`): source topics must exist (else the
  MISSING_SOURCE_TOPICS status); repartition topics without a fixed partition
  count take the largest partition count of the subtopologies writing to them;
  a subtopology has as many tasks as its largest source; changelog topics have
  one partition per task; copartitioned source topics must agree. Internal
  topics that do not exist yet are returned as the topics to create (with the
  MISSING_INTERNAL_TOPICS status); existing ones with another partition count
  give INCORRECTLY_PARTITIONED_TOPICS. Only a configured ("ready") topology is
  assigned.
* **Epochs.** The first bump takes the group epoch from 0 to 2; a new group
  waits ``group.streams.initial.rebalance.delay.ms`` (status
  ASSIGNMENT_DELAYED, target epoch 1 with no tasks) before its first target.
* **Assignment** (:func:`sticky_assign`): active tasks stay where they were
  when balance allows, then go to the least loaded member; every task gets up
  to ``num.standby.replicas`` standbys on other processes than its active.
* **Reconciliation**: active tasks are revoked before new ones are given and
  a task moves only once no other process still runs it as active; standbys
  follow the target at once (never onto the process running the active).
* Member session timeout fences; -1 leaves.

Not served (open): warm-up tasks and task offsets / acceptable recovery lag
(the assignor never plans warm-ups), static streams members (an instance id
is stored and described but the member is treated as dynamic), endpoint
information (IQ) and topology description, regex source topics (refused with
INVALID_REQUEST), rack-aware standby placement by client tags.
"""

from __future__ import annotations

import enum
import hashlib
import heapq
import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from broker.group.shard_api import CoordinatorResult, TopicImage
from broker.protocol.errors import ErrorCode

__all__ = [
    "Status",
    "StreamsGroupConfig",
    "StreamsGroups",
    "StreamsHeartbeat",
    "StreamsHeartbeatResponse",
    "Subtopology",
    "TopicInfo",
    "Topology",
    "configure",
    "sticky_assign",
]

Tasks = dict[str, frozenset[int]]  # subtopology id -> partitions (task ids)


class Status(enum.IntEnum):
    """StreamsGroupHeartbeatResponse.Status codes."""

    STALE_TOPOLOGY = 0
    MISSING_SOURCE_TOPICS = 1
    INCORRECTLY_PARTITIONED_TOPICS = 2
    MISSING_INTERNAL_TOPICS = 3
    SHUTDOWN_APPLICATION = 4
    ASSIGNMENT_DELAYED = 5
    MISSING_CLIENT_TAGS = 6


@dataclass(slots=True)
class StreamsGroupConfig:
    session_timeout_ms: int = 45_000  # group.streams.session.timeout.ms
    heartbeat_interval_ms: int = 5_000  # group.streams.heartbeat.interval.ms
    max_size: int = 2**31 - 1  # group.streams.max.size
    num_standby_replicas: int = 0  # group.streams.num.standby.replicas (max 2)
    initial_rebalance_delay_ms: int = 3_000  # group.streams.initial.rebalance.delay.ms
    acceptable_recovery_lag: int = 10_000  # group.streams.acceptable.recovery.lag (sent, not used)
    task_offset_interval_ms: int = 60_000  # group.streams.task.offset.interval.ms (sent, not used)


# ------------------------------------------------------------------ topology


@dataclass(frozen=True, slots=True)
class TopicInfo:
    name: str
    partitions: int = 0  # 0: derived
    replication_factor: int = 0
    configs: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class Subtopology:
    subtopology_id: str
    source_topics: tuple[str, ...] = ()
    source_topic_regex: tuple[str, ...] = ()
    state_changelog_topics: tuple[TopicInfo, ...] = ()
    repartition_sink_topics: tuple[str, ...] = ()
    repartition_source_topics: tuple[TopicInfo, ...] = ()
    copartition_groups: tuple[tuple[str, ...], ...] = ()  # topic names per group


@dataclass(frozen=True, slots=True)
class Topology:
    epoch: int
    subtopologies: tuple[Subtopology, ...]


@dataclass(frozen=True, slots=True)
class Configured:
    """A topology checked against the topic metadata."""

    tasks: Mapping[str, int]  # subtopology -> number of tasks (empty unless ready)
    statuses: tuple[tuple[Status, str], ...] = ()
    to_create: tuple[TopicInfo, ...] = ()

    @property
    def ready(self) -> bool:
        return not self.statuses


def configure(topology: Topology, topics: TopicImage) -> Configured:
    missing_sources = sorted({t for s in topology.subtopologies for t in s.source_topics if topics.topic(t) is None})
    if missing_sources:
        return Configured(
            {}, ((Status.MISSING_SOURCE_TOPICS, f"Source topics {', '.join(missing_sources)} are missing."),)
        )
    # Repartition topics: fixed counts, else the largest count of the subtopologies writing to them.
    repartition: dict[str, int] = {}
    for s in topology.subtopologies:
        for info in s.repartition_source_topics:
            repartition[info.name] = info.partitions
    tasks: dict[str, int] = {}
    for _ in range(len(topology.subtopologies) + 1):
        for s in topology.subtopologies:
            counts = [topics.topic(t).partitions for t in s.source_topics]  # type: ignore[union-attr]
            counts += [repartition[i.name] for i in s.repartition_source_topics if repartition.get(i.name, 0) > 0]
            tasks[s.subtopology_id] = max(counts, default=0)
            for sink in s.repartition_sink_topics:
                if sink in repartition and not _fixed(topology, sink):
                    repartition[sink] = max(repartition[sink], tasks[s.subtopology_id])
    statuses: list[tuple[Status, str]] = []
    for s in topology.subtopologies:
        for group in s.copartition_groups:
            counts = {t: topics.topic(t).partitions if topics.topic(t) else repartition.get(t, 0) for t in group}  # type: ignore[union-attr]
            if len(set(counts.values())) > 1:
                statuses.append(
                    (
                        Status.INCORRECTLY_PARTITIONED_TOPICS,
                        f"Following topics do not have the same number of partitions: {dict(sorted(counts.items()))}",
                    )
                )
    wanted: list[TopicInfo] = []
    for s in topology.subtopologies:
        for info in s.repartition_source_topics:
            wanted.append(replace(info, partitions=repartition[info.name]))
        for info in s.state_changelog_topics:
            wanted.append(replace(info, partitions=tasks[s.subtopology_id]))
    to_create = []
    for info in wanted:
        existing = topics.topic(info.name)
        if existing is None:
            to_create.append(info)
        elif existing.partitions != info.partitions:
            statuses.append(
                (
                    Status.INCORRECTLY_PARTITIONED_TOPICS,
                    f"Existing internal topic {info.name} has invalid number of partitions: {existing.partitions}, expected: {info.partitions}.",
                )
            )
    if to_create:
        statuses.append(
            (Status.MISSING_INTERNAL_TOPICS, f"Internal topics are missing: {sorted(i.name for i in to_create)}")
        )
    if statuses:
        return Configured({}, tuple(statuses), tuple(to_create))
    return Configured(tasks)


def _fixed(topology: Topology, name: str) -> bool:
    return any(i.name == name and i.partitions > 0 for s in topology.subtopologies for i in s.repartition_source_topics)


# ------------------------------------------------------------------ the sticky task assignor


@dataclass(frozen=True, slots=True)
class TaskMember:
    process_id: str
    previous_active: Tasks = field(default_factory=dict)
    previous_standby: Tasks = field(default_factory=dict)


def sticky_assign(
    members: Mapping[str, TaskMember], tasks: Mapping[str, int], standby_replicas: int = 0
) -> dict[str, tuple[Tasks, Tasks]]:
    """(active, standby) tasks per member. Deterministic; sticky; balanced by member."""
    order = sorted(members)
    active: dict[str, set[tuple[str, int]]] = {m: set() for m in order}
    standby: dict[str, set[tuple[str, int]]] = {m: set() for m in order}
    if not order:
        return {}
    every = [(s, p) for s in sorted(tasks) for p in range(tasks[s])]
    quota = -(-len(every) // len(order))
    owner: dict[tuple[str, int], str] = {}
    for m in order:
        for s, ps in sorted(members[m].previous_active.items()):
            for p in sorted(ps):
                if (s, p) in set(every) and (s, p) not in owner and len(active[m]) < quota:
                    owner[s, p] = m
                    active[m].add((s, p))
    for task in every:
        if task not in owner:
            m = min(order, key=lambda m: (len(active[m]), m))
            owner[task] = m
            active[m].add(task)
    if standby_replicas > 0:
        for task in every:
            active_process = members[owner[task]].process_id
            used = {active_process}
            # Previous standby holders first, then the least loaded members.
            candidates = sorted(
                order,
                key=lambda m: (
                    task[1] not in members[m].previous_standby.get(task[0], ()),
                    len(active[m]) + len(standby[m]),
                    m,
                ),
            )
            placed = 0
            for m in candidates:
                if placed == standby_replicas:
                    break
                if members[m].process_id in used:
                    continue
                standby[m].add(task)
                used.add(members[m].process_id)
                placed += 1

    def as_tasks(items: set[tuple[str, int]]) -> Tasks:
        out: dict[str, set[int]] = {}
        for s, p in items:
            out.setdefault(s, set()).add(p)
        return {s: frozenset(ps) for s, ps in out.items()}

    return {m: (as_tasks(active[m]), as_tasks(standby[m])) for m in order}


# ------------------------------------------------------------------ requests, records, state


@dataclass(slots=True)
class StreamsHeartbeat:
    group_id: str
    member_id: str
    member_epoch: int
    process_id: str | None = None
    rebalance_timeout_ms: int = -1
    topology: Topology | None = None
    active_tasks: Tasks | None = None
    standby_tasks: Tasks | None = None
    warmup_tasks: Tasks | None = None
    instance_id: str | None = None
    rack_id: str | None = None
    client_tags: tuple[tuple[str, str], ...] | None = None
    shutdown_application: bool = False
    endpoint_information_epoch: int = 0


@dataclass(slots=True)
class StreamsHeartbeatResponse:
    error_code: int = 0
    error_message: str | None = None
    member_id: str | None = None
    member_epoch: int = 0
    heartbeat_interval_ms: int = 0
    acceptable_recovery_lag: int = 0
    task_offset_interval_ms: int = 0
    status: list[tuple[int, str]] = field(default_factory=list)
    active_tasks: list[tuple[str, list[int]]] | None = None
    standby_tasks: list[tuple[str, list[int]]] | None = None
    warmup_tasks: list[tuple[str, list[int]]] | None = None
    internal_topics_to_create: list[TopicInfo] = field(default_factory=list)


class RecordType(enum.IntEnum):
    GROUP = 17
    MEMBER = 19
    TARGET_EPOCH = 20
    TARGET_MEMBER = 21
    CURRENT = 22
    TOPOLOGY = 23


@dataclass(frozen=True, slots=True)
class GroupValue:
    epoch: int
    metadata_hash: int
    validated_topology_epoch: int


@dataclass(frozen=True, slots=True)
class MemberValue:
    process_id: str = ""
    client_id: str = ""
    client_host: str = ""
    rebalance_timeout_ms: int = -1
    topology_epoch: int = 0
    instance_id: str | None = None
    rack_id: str | None = None
    client_tags: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class CurrentValue:
    member_epoch: int = 0
    previous_member_epoch: int = 0
    state: int = 0  # MemberState: 0 stable, 1 unrevoked, 2 unreleased
    active: Mapping[str, Mapping[int, int]] = field(default_factory=dict)  # task -> assignment epoch
    standby: Tasks = field(default_factory=dict)
    active_pending_revocation: Tasks = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Record:
    type: RecordType
    group_id: str
    sub: str | None = None
    value: object | None = None


@dataclass(slots=True)
class StreamsMember:
    member_id: str
    meta: MemberValue = field(default_factory=MemberValue)
    current: CurrentValue = field(default_factory=CurrentValue)


@dataclass(slots=True)
class StreamsGroup:
    group_id: str
    epoch: int = 0
    metadata_hash: int = 0
    validated_topology_epoch: int = -1
    assignment_epoch: int = -1
    topology: Topology | None = None
    members: dict[str, StreamsMember] = field(default_factory=dict)
    target: dict[str, tuple[Tasks, Tasks]] = field(default_factory=dict)

    @property
    def state(self) -> str:
        if not self.members:
            return "Empty"
        if self.topology is None or self.topology.epoch != self.validated_topology_epoch:
            return "NotReady"
        if self.epoch > self.assignment_epoch:
            return "Assigning"
        if any(m.current.state != 0 or m.current.member_epoch != self.assignment_epoch for m in self.members.values()):
            return "Reconciling"
        return "Stable"

    def active_process(self, subtopology: str, partition: int, without: str) -> str | None:
        for m in self.members.values():
            if m.member_id == without:
                continue
            c = m.current
            if partition in c.active.get(subtopology, {}) or partition in c.active_pending_revocation.get(
                subtopology, ()
            ):
                return m.meta.process_id
        return None


class _Fail(Exception):
    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _wire(tasks: Mapping[str, Iterable[int]]) -> list[tuple[str, list[int]]]:
    return [(s, sorted(ps)) for s, ps in sorted(tasks.items()) if ps]


class StreamsGroups:
    """Every KIP-1071 streams group of one shard."""

    def __init__(self, topics: TopicImage, config: StreamsGroupConfig | None = None) -> None:
        self.topics = topics
        self.config = config or StreamsGroupConfig()
        self.groups: dict[str, StreamsGroup] = {}
        self._timers: dict[tuple, tuple[int, int]] = {}
        self._heap: list[tuple[int, int, tuple]] = []
        self._seq = itertools.count()
        self._configured: dict[str, tuple[int, Configured]] = {}
        self._pending_target: dict[str, tuple[Tasks, Tasks]] = {}

    # ------------------------------------------------------------ replay / snapshot

    def replay_record(self, r: Record) -> None:
        if r.type is RecordType.GROUP and r.value is None:
            group = self.groups.pop(r.group_id, None)
            for m in group.members if group else ():
                self._timers.pop(("session", r.group_id, m), None)
            return
        group = self.groups.get(r.group_id)
        if r.value is None:
            if group is None:
                return
            if r.type is RecordType.MEMBER:
                group.members.pop(r.sub or "", None)
                self._timers.pop(("session", r.group_id, r.sub), None)
            elif r.type is RecordType.TARGET_MEMBER:
                group.target.pop(r.sub or "", None)
            elif r.type is RecordType.TARGET_EPOCH:
                group.assignment_epoch = -1
            elif r.type is RecordType.TOPOLOGY:
                group.topology = None
            elif r.type is RecordType.CURRENT and r.sub in group.members:
                group.members[r.sub].current = CurrentValue(-1, -1)
            return
        if group is None:
            group = self.groups[r.group_id] = StreamsGroup(r.group_id)
        v = r.value
        if isinstance(v, GroupValue):
            group.epoch, group.metadata_hash, group.validated_topology_epoch = (
                v.epoch,
                v.metadata_hash,
                v.validated_topology_epoch,
            )
        elif isinstance(v, Topology):
            group.topology = v
        elif isinstance(v, MemberValue):
            group.members.setdefault(r.sub or "", StreamsMember(r.sub or "")).meta = v
        elif isinstance(v, CurrentValue):
            group.members.setdefault(r.sub or "", StreamsMember(r.sub or "")).current = v
        elif r.type is RecordType.TARGET_EPOCH:
            group.assignment_epoch = int(v)  # type: ignore[call-overload]
        elif r.type is RecordType.TARGET_MEMBER:
            group.target[r.sub or ""] = v  # type: ignore[assignment]

    def snapshot(self) -> list[Record]:
        out: list[Record] = []
        for g in sorted(self.groups.values(), key=lambda g: g.group_id):
            out.append(
                Record(
                    RecordType.GROUP, g.group_id, None, GroupValue(g.epoch, g.metadata_hash, g.validated_topology_epoch)
                )
            )
            if g.topology is not None:
                out.append(Record(RecordType.TOPOLOGY, g.group_id, None, g.topology))
            for mid, m in sorted(g.members.items()):
                out.append(Record(RecordType.MEMBER, g.group_id, mid, m.meta))
            for mid, t in sorted(g.target.items()):
                out.append(Record(RecordType.TARGET_MEMBER, g.group_id, mid, t))
            if g.assignment_epoch >= 0:
                out.append(Record(RecordType.TARGET_EPOCH, g.group_id, None, g.assignment_epoch))
            for mid, m in sorted(g.members.items()):
                out.append(Record(RecordType.CURRENT, g.group_id, mid, m.current))
        return out

    # ------------------------------------------------------------ timers

    def _arm(self, key: tuple, deadline: int) -> None:
        seq = next(self._seq)
        self._timers[key] = (deadline, seq)
        heapq.heappush(self._heap, (deadline, seq, key))

    def next_deadline_ms(self) -> int | None:
        while self._heap:
            deadline, seq, key = self._heap[0]
            if self._timers.get(key, (0, -1))[1] == seq:
                return deadline
            heapq.heappop(self._heap)
        return None

    def tick(self, now_ms: int) -> CoordinatorResult[None]:
        """Due timers: a session expiry fences the member; an initial delay ending
        computes the first target. One group's timers run in separate ticks."""
        result: CoordinatorResult[None] = CoordinatorResult()
        touched: set[str] = set()
        later = []
        while (deadline := self.next_deadline_ms()) is not None and deadline <= now_ms:
            entry = heapq.heappop(self._heap)
            key = entry[2]
            if key[1] in touched:
                later.append(entry)
                continue
            del self._timers[key]
            group = self.groups.get(key[1])
            if group is None:
                continue
            if key[0] == "session" and key[2] in group.members:
                result.records += self._fence(group, key[2])
                touched.add(key[1])
            elif key[0] == "initial" and group.members and group.epoch > group.assignment_epoch:
                configured = self._configure(group, group.topology)
                if configured.ready:
                    result.records += self._new_target(
                        group, {m: g.meta for m, g in group.members.items()}, configured, group.epoch
                    )
                    touched.add(key[1])
        for entry in later:
            heapq.heappush(self._heap, entry)
        return result

    # ------------------------------------------------------------ heartbeat

    def heartbeat(
        self, r: StreamsHeartbeat, *, now_ms: int, client_id: str = "", client_host: str = ""
    ) -> CoordinatorResult[StreamsHeartbeatResponse]:
        try:
            self._validate(r)
            if r.member_epoch == -1:
                group = self._group(r.group_id)
                if r.member_id not in group.members:
                    raise _Fail(
                        ErrorCode.UNKNOWN_MEMBER_ID, f"Member {r.member_id} is not a member of group {r.group_id}."
                    )
                return CoordinatorResult(
                    self._fence(group, r.member_id), StreamsHeartbeatResponse(member_id=r.member_id, member_epoch=-1)
                )
            return self._heartbeat(r, now_ms, client_id, client_host)
        except _Fail as fail:
            return CoordinatorResult(
                [], StreamsHeartbeatResponse(error_code=int(fail.code), error_message=fail.message)
            )

    def _validate(self, r: StreamsHeartbeat) -> None:
        bad = ErrorCode.INVALID_REQUEST
        if not r.group_id.strip():
            raise _Fail(bad, "GroupId can't be empty.")
        if not r.member_id.strip():
            raise _Fail(bad, "MemberId can't be empty.")
        if r.member_epoch == 0:
            if r.rebalance_timeout_ms == -1:
                raise _Fail(bad, "RebalanceTimeoutMs must be provided in first request.")
            if r.topology is None:
                raise _Fail(bad, "Topology must be non-null in first request.")
            if not r.process_id:
                raise _Fail(bad, "ProcessId can't be empty.")
            if r.active_tasks or r.standby_tasks or r.warmup_tasks:
                raise _Fail(bad, "Active, standby and warmup tasks must be empty when (re-)joining.")
        elif r.member_epoch < -1:
            raise _Fail(bad, "MemberEpoch is invalid.")
        if r.topology is not None:
            for s in r.topology.subtopologies:
                if s.source_topic_regex:
                    raise _Fail(bad, "Regular-expression source topics are not supported by this broker.")

    def _group(self, group_id: str) -> StreamsGroup:
        group = self.groups.get(group_id)
        if group is None:
            raise _Fail(ErrorCode.GROUP_ID_NOT_FOUND, f"Streams group {group_id} not found.")
        return group

    def _configure(self, group: StreamsGroup, topology: Topology | None) -> Configured:
        if topology is None:
            return Configured({}, ((Status.MISSING_SOURCE_TOPICS, "No topology."),))
        cached = self._configured.get(group.group_id)
        key = hash((topology, self._metadata_hash(topology)))
        if cached is None or cached[0] != key:
            cached = (key, configure(topology, self.topics))
            self._configured[group.group_id] = cached
        return cached[1]

    def _metadata_hash(self, topology: Topology | None) -> int:
        if topology is None:
            return 0
        names = {t for s in topology.subtopologies for t in s.source_topics}
        names |= {
            i.name for s in topology.subtopologies for i in (*s.repartition_source_topics, *s.state_changelog_topics)
        }
        digest = hashlib.blake2b(digest_size=8)
        for name in sorted(names):
            info = self.topics.topic(name)
            if info is not None:
                digest.update(name.encode() + b"\0" + info.topic_id.bytes + info.partitions.to_bytes(4, "big"))
        return int.from_bytes(digest.digest(), "big", signed=True)

    def _heartbeat(
        self, r: StreamsHeartbeat, now_ms: int, client_id: str, client_host: str
    ) -> CoordinatorResult[StreamsHeartbeatResponse]:
        records: list[Record] = []
        statuses: list[tuple[int, str]] = []
        joining = r.member_epoch == 0
        group = self.groups.get(r.group_id)
        if group is None:
            if not joining:
                self._group(r.group_id)
            group = StreamsGroup(r.group_id)
        if joining and r.member_id not in group.members and len(group.members) >= self.config.max_size:
            raise _Fail(
                ErrorCode.GROUP_MAX_SIZE_REACHED,
                f"The streams group has reached its maximum capacity of {self.config.max_size} members.",
            )
        member = group.members.get(r.member_id)
        if member is None:
            if not joining:
                raise _Fail(ErrorCode.UNKNOWN_MEMBER_ID, f"Member {r.member_id} is not a member of group {r.group_id}.")
            member = StreamsMember(r.member_id)
        elif r.member_epoch > member.current.member_epoch or (
            r.member_epoch < member.current.member_epoch and r.member_epoch != member.current.previous_member_epoch
        ):
            raise _Fail(
                ErrorCode.FENCED_MEMBER_EPOCH,
                f"The streams group member has a stale member epoch ({r.member_epoch}). The member must abandon all its partitions and rejoin.",
            )
        is_new = r.member_id not in group.members
        old = member.meta
        meta = MemberValue(
            process_id=r.process_id if r.process_id is not None else old.process_id,
            client_id=client_id,
            client_host=client_host,
            rebalance_timeout_ms=r.rebalance_timeout_ms if r.rebalance_timeout_ms != -1 else old.rebalance_timeout_ms,
            topology_epoch=r.topology.epoch if r.topology is not None else old.topology_epoch,
            instance_id=r.instance_id if r.instance_id is not None else old.instance_id,
            rack_id=r.rack_id if r.rack_id is not None else old.rack_id,
            client_tags=r.client_tags if r.client_tags is not None else old.client_tags,
        )
        bump = False
        if is_new or meta != old:
            records.append(Record(RecordType.MEMBER, group.group_id, r.member_id, meta))
            bump = True
        # Topology: initialise, compare, or report it stale.
        topology = group.topology
        if r.topology is not None:
            if topology is None:
                topology = r.topology
                records.append(Record(RecordType.TOPOLOGY, group.group_id, None, topology))
            elif topology.epoch > r.topology.epoch:
                pass
            elif topology != r.topology:
                raise _Fail(ErrorCode.INVALID_REQUEST, "Topology updates are not supported yet.")
        if topology is not None and meta.topology_epoch < topology.epoch:
            statuses.append(
                (
                    Status.STALE_TOPOLOGY,
                    f"The member's topology epoch {meta.topology_epoch} is behind the group's topology epoch {topology.epoch}.",
                )
            )
        configured = self._configure(group, topology)
        metadata_hash = self._metadata_hash(topology)
        validated = topology.epoch if (configured.ready and topology is not None) else -1
        bump = bump or metadata_hash != group.metadata_hash or validated != group.validated_topology_epoch
        epoch = group.epoch
        if bump:
            epoch = 2 if epoch == 0 else epoch + 1
            records.append(Record(RecordType.GROUP, group.group_id, None, GroupValue(epoch, metadata_hash, validated)))
        if (
            not group.members
            and self.config.initial_rebalance_delay_ms > 0
            and ("initial", group.group_id, "") not in self._timers
        ):
            self._arm(("initial", group.group_id, ""), now_ms + self.config.initial_rebalance_delay_ms)
        # Target assignment.
        target_epoch = group.assignment_epoch
        target = group.target.get(r.member_id, ({}, {}))
        if epoch > group.assignment_epoch:
            if ("initial", group.group_id, "") in self._timers:
                target_epoch, target = max(1, group.assignment_epoch), ({}, {})
                statuses.append(
                    (Status.ASSIGNMENT_DELAYED, "Assignment delayed due to the configured initial rebalance delay.")
                )
            elif configured.ready:
                metas = {m: g.meta for m, g in group.members.items()}
                metas[r.member_id] = meta
                records += self._new_target(group, metas, configured, epoch)
                target_epoch = epoch
                target = self._pending_target.get(r.member_id, ({}, {}))
        for status, detail in configured.statuses:
            statuses.append((int(status), detail))
        # Reconcile.
        current = member.current
        updated = self._reconcile(
            group, member.member_id, meta.process_id, current, target_epoch, target, r.active_tasks
        )
        if updated != current or is_new:
            records.append(Record(RecordType.CURRENT, group.group_id, r.member_id, updated))
        self._arm(("session", group.group_id, r.member_id), now_ms + self.config.session_timeout_ms)
        response = StreamsHeartbeatResponse(
            member_id=r.member_id,
            member_epoch=updated.member_epoch,
            heartbeat_interval_ms=self.config.heartbeat_interval_ms,
            acceptable_recovery_lag=self.config.acceptable_recovery_lag,
            task_offset_interval_ms=self.config.task_offset_interval_ms,
            status=[(int(s), d) for s, d in statuses],
            internal_topics_to_create=list(configured.to_create),
        )
        if joining or updated.active != current.active or updated.standby != current.standby:
            response.active_tasks = _wire(updated.active)
            response.standby_tasks = _wire(updated.standby)
            response.warmup_tasks = []
        return CoordinatorResult(records, response)

    def _new_target(
        self, group: StreamsGroup, metas: Mapping[str, MemberValue], configured: Configured, epoch: int
    ) -> list[Record]:
        specs = {
            m: TaskMember(
                meta.process_id,
                group.target.get(m, ({}, {}))[0],
                group.target.get(m, ({}, {}))[1],
            )
            for m, meta in metas.items()
        }
        computed = sticky_assign(specs, configured.tasks, self.config.num_standby_replicas)
        self._pending_target = computed
        records = [
            Record(RecordType.TARGET_MEMBER, group.group_id, m, t)
            for m, t in sorted(computed.items())
            if group.target.get(m) != t
        ]
        records.append(Record(RecordType.TARGET_EPOCH, group.group_id, None, epoch))
        return records

    def _reconcile(
        self,
        group: StreamsGroup,
        member_id: str,
        process_id: str,
        current: CurrentValue,
        target_epoch: int,
        target: tuple[Tasks, Tasks],
        owned_active: Tasks | None,
    ) -> CurrentValue:
        if current.state == 0 and current.member_epoch == target_epoch:
            return current
        if current.state == 1:
            still = owned_active is None or any(
                p in current.active_pending_revocation.get(s, ()) for s, ps in owned_active.items() for p in ps
            )
            if still:
                return current
        wanted_active, wanted_standby = target
        keep = {s: {p: e for p, e in ps.items() if p in wanted_active.get(s, ())} for s, ps in current.active.items()}
        keep = {s: ps for s, ps in keep.items() if ps}
        revoke = {s: frozenset(p for p in ps if p not in wanted_active.get(s, ())) for s, ps in current.active.items()}
        revoke = {s: ps for s, ps in revoke.items() if ps}
        previous = current.member_epoch if target_epoch != current.member_epoch else current.previous_member_epoch
        if revoke and (
            owned_active is None or any(p in revoke.get(s, ()) for s, ps in owned_active.items() for p in ps)
        ):
            return CurrentValue(current.member_epoch, current.previous_member_epoch, 1, keep, current.standby, revoke)
        unreleased = False
        for s, ps in wanted_active.items():
            for p in ps:
                if p in keep.get(s, {}):
                    continue
                if group.active_process(s, p, without=member_id) is not None:
                    unreleased = True
                    continue
                keep.setdefault(s, {})[p] = target_epoch
        standby = {
            s: frozenset(
                p for p in ps if group.active_process(s, p, member_id) != process_id and p not in keep.get(s, {})
            )
            for s, ps in wanted_standby.items()
        }
        standby = {s: ps for s, ps in standby.items() if ps}
        return CurrentValue(target_epoch, previous, 2 if unreleased else 0, keep, standby, {})

    def _fence(self, group: StreamsGroup, member_id: str) -> list[Record]:
        gid = group.group_id
        self._timers.pop(("session", gid, member_id), None)
        records = [
            Record(RecordType.CURRENT, gid, member_id, None),
            Record(RecordType.TARGET_MEMBER, gid, member_id, None),
            Record(RecordType.MEMBER, gid, member_id, None),
            Record(
                RecordType.GROUP,
                gid,
                None,
                GroupValue(group.epoch + 1, group.metadata_hash, group.validated_topology_epoch),
            ),
        ]
        return records

    # ------------------------------------------------------------ describe / delete / offsets

    def describe(self, group_id: str) -> dict | None:
        """StreamsGroupDescribe data for one group (None: not a streams group)."""
        g = self.groups.get(group_id)
        if g is None:
            return None
        return {
            "group_id": g.group_id,
            "group_state": g.state,
            "group_epoch": g.epoch,
            "assignment_epoch": g.assignment_epoch,
            "topology": g.topology,
            "members": [
                {
                    "member_id": m.member_id,
                    "member_epoch": m.current.member_epoch,
                    "process_id": m.meta.process_id,
                    "client_id": m.meta.client_id,
                    "client_host": m.meta.client_host,
                    "instance_id": m.meta.instance_id,
                    "rack_id": m.meta.rack_id,
                    "topology_epoch": m.meta.topology_epoch,
                    "client_tags": list(m.meta.client_tags),
                    "assignment": {
                        "active": _wire(m.current.active),
                        "standby": _wire(m.current.standby),
                        "warmup": [],
                    },
                    "target_assignment": {
                        "active": _wire(g.target.get(m.member_id, ({}, {}))[0]),
                        "standby": _wire(g.target.get(m.member_id, ({}, {}))[1]),
                        "warmup": [],
                    },
                }
                for _, m in sorted(g.members.items())
            ],
        }

    def delete_group(self, group_id: str) -> CoordinatorResult[ErrorCode]:
        g = self.groups.get(group_id)
        if g is None:
            return CoordinatorResult([], ErrorCode.GROUP_ID_NOT_FOUND)
        if g.members:
            return CoordinatorResult([], ErrorCode.NON_EMPTY_GROUP)
        records = [Record(RecordType.TARGET_MEMBER, group_id, m, None) for m in sorted(g.target)]
        records += [
            Record(RecordType.TARGET_EPOCH, group_id, None, None),
            Record(RecordType.TOPOLOGY, group_id, None, None),
            Record(RecordType.GROUP, group_id, None, None),
        ]
        return CoordinatorResult(records, ErrorCode.NONE)

    def validate_offset_commit(
        self, group_id: str, member_id: str, member_epoch: int, *, transactional: bool = False, api_version: int = 9
    ) -> ErrorCode:
        g = self.groups.get(group_id)
        if g is None:
            return ErrorCode.GROUP_ID_NOT_FOUND
        if member_epoch < 0 and not g.members:
            return ErrorCode.NONE
        m = g.members.get(member_id)
        if m is None:
            return ErrorCode.UNKNOWN_MEMBER_ID
        if not transactional and api_version < 9:
            return ErrorCode.UNSUPPORTED_VERSION
        if member_epoch != m.current.member_epoch:
            return ErrorCode.STALE_MEMBER_EPOCH
        return ErrorCode.NONE

    def group_type(self, group_id: str) -> str | None:
        return "streams" if group_id in self.groups else None
