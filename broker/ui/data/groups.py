"""Consumer groups (classic and KIP-848) and streams groups.

Requests per refresh of the list: ListGroups to every broker, one FindCoordinator for
all groups, then per coordinator one ConsumerGroupDescribe, one DescribeGroups, one
StreamsGroupDescribe (each for the groups of that type) and one OffsetFetch (v8+, every
group at once), and ListOffsets once per partition leader for the lag. A group page:
the describe of its type, OffsetFetch and ListOffsets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from broker.admin.client import (
    LATEST_TIMESTAMP,
    AdminClient,
    AdminError,
    KafkaApiError,
    Node,
    error_name,
)
from broker.admin.groups import GroupMember, classic_members, consumer_members
from broker.protocol.errors import ErrorCode
from broker.ui.data import NOT_READ, Unavailable
from broker.ui.data.coordinators import group_by_coordinator
from broker.ui.data.topics import reset_positions


@dataclass(slots=True)
class GroupRow:
    group_id: str
    group_type: str  # classic | consumer | streams
    state: str
    members: int | Unavailable = NOT_READ
    lag: int | Unavailable = NOT_READ
    error: str | None = None
    # Topic -> the sum of the group's committed offsets on it (for the records-out rate).
    positions: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class StreamsMember(GroupMember):
    """A streams group's member: its tasks rather than partitions."""

    tasks: dict[str, str] = field(default_factory=dict)  # kind -> "subtopology:partitions ..."


@dataclass(slots=True)
class OffsetRow:
    topic: str
    partition: int
    committed: int | None
    end: int | Unavailable
    owner: str | None

    @property
    def lag(self) -> int | None:
        if self.committed is None or not isinstance(self.end, int):
            return None
        return max(0, self.end - self.committed)


@dataclass(slots=True)
class GroupView:
    group_id: str
    group_type: str
    state: str
    assignor: str
    epoch: int | None
    members: list[GroupMember]
    offsets: list[OffsetRow]

    @property
    def lag(self) -> int:
        return sum(o.lag or 0 for o in self.offsets)


def list_groups(admin: AdminClient, kinds: tuple[str, ...]) -> list[GroupRow]:
    """Groups whose ListGroups type is one of ``kinds`` (classic, consumer, streams)."""
    listed = [g for g in admin.list_groups() if (g.group_type or "classic").lower() in kinds]
    rows = {g.group_id: GroupRow(g.group_id, (g.group_type or "classic").lower(), g.group_state or "") for g in listed}
    if not rows:
        return []
    by_node, errors = group_by_coordinator(admin, list(rows))
    for gid, exc in errors.items():
        rows[gid].error = str(exc)
    committed: dict[str, dict[tuple[str, int], int]] = {}
    for node, groups in by_node.items():
        _describe_counts(admin, node, [rows[g] for g in groups])
        committed.update(_committed_many(admin, node, groups, rows))
    wanted = {tp for offs in committed.values() for tp in offs}
    try:
        ends = admin.list_offsets(dict.fromkeys(wanted, LATEST_TIMESTAMP)) if wanted else {}
    except AdminError as exc:
        for r in rows.values():
            r.lag = Unavailable(f"ListOffsets: {exc}")
        ends = None
    for gid, offs in committed.items():
        for (topic, _), off in offs.items():
            rows[gid].positions[topic] = rows[gid].positions.get(topic, 0) + off
        if ends is not None:
            rows[gid].lag = sum(max(0, ends[tp] - off) for tp, off in offs.items() if tp in ends)
    return sorted(rows.values(), key=lambda r: r.group_id)


def _describe_counts(admin: AdminClient, node: Node, rows: list[GroupRow]) -> None:
    from broker.protocol.messages.consumer_group_describe_request import ConsumerGroupDescribeRequest
    from broker.protocol.messages.describe_groups_request import DescribeGroupsRequest
    from broker.protocol.messages.streams_group_describe_request import StreamsGroupDescribeRequest

    by_type: dict[str, list[GroupRow]] = {}
    for r in rows:
        by_type.setdefault(r.group_type, []).append(r)
    for kind, members in by_type.items():
        ids = [r.group_id for r in members]
        req: Any
        if kind == "consumer":
            req = ConsumerGroupDescribeRequest(group_ids=ids)
        elif kind == "streams":
            req = StreamsGroupDescribeRequest(group_ids=ids)
        else:
            req = DescribeGroupsRequest(groups=ids)
        index = {r.group_id: r for r in members}
        try:
            resp = admin.send(req, node=node)
        except AdminError as exc:
            for r in members:
                r.members = Unavailable(str(exc))
            continue
        for g in resp.groups:
            row = index.get(g.group_id)
            if row is None:
                continue
            r = row
            if g.error_code:
                r.error = f"{error_name(g.error_code)}: {g.error_message or ''}".strip()
            else:
                r.members = len(g.members)
                r.state = g.group_state or r.state


def _committed_many(
    admin: AdminClient, node: Node, groups: list[str], rows: dict[str, GroupRow]
) -> dict[str, dict[tuple[str, int], int]]:
    """OffsetFetch for several groups at once (v8+, KIP-709); older brokers one by one."""
    from broker.protocol.messages.offset_fetch_request import OffsetFetchRequest, OffsetFetchRequestGroup

    out: dict[str, dict[tuple[str, int], int]] = {}
    conn = admin.connect(node)
    version = min(conn.version_for(OffsetFetchRequest), 9)
    if version < 8:
        for g in groups:
            try:
                out[g] = {tp: off for tp, (off, _) in admin.fetch_offsets(g).items()}
            except AdminError as exc:
                rows[g].lag = Unavailable(str(exc))
        return out
    req = OffsetFetchRequest(
        groups=[OffsetFetchRequestGroup(group_id=g, topics=None) for g in groups], require_stable=False
    )
    try:
        resp = conn.call(req, version)
    except AdminError as exc:
        for g in groups:
            rows[g].lag = Unavailable(f"OffsetFetch: {exc}")
        return out
    for g in resp.groups:
        if g.error_code:
            if g.group_id in rows:
                rows[g.group_id].lag = Unavailable(f"OffsetFetch: {error_name(g.error_code)}")
            continue
        out[g.group_id] = {
            (t.name, p.partition_index): p.committed_offset
            for t in g.topics
            for p in t.partitions
            if not p.error_code and p.committed_offset >= 0
        }
    return out


def group_detail(admin: AdminClient, group_id: str) -> GroupView:
    """A consumer (KIP-848), classic or streams group; GROUP_ID_NOT_FOUND raised otherwise."""
    listed = {g.group_id: (g.group_type or "classic").lower() for g in admin.list_groups()}
    kind = listed.get(group_id)
    if kind is None or kind == "share":
        raise KafkaApiError(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} is not a consumer or streams group.")
    if kind == "streams":
        view = _streams(admin, group_id)
    elif kind == "consumer":
        d = admin.describe_consumer_group(group_id)
        view = GroupView(group_id, "consumer", d.group_state, d.assignor_name, d.group_epoch, consumer_members(d), [])
    else:
        c = admin.describe_classic_group(group_id)
        view = GroupView(group_id, "classic", c.group_state, c.protocol_data, None, classic_members(c), [])
    view.offsets = _offset_rows(admin, group_id, view.members)
    return view


def _streams(admin: AdminClient, group_id: str) -> GroupView:
    d = admin.describe_streams_group(group_id)
    members: list[GroupMember] = []
    for m in d.members:
        tasks = {}
        for kind in ("active_tasks", "standby_tasks", "warmup_tasks"):
            ids = getattr(m.assignment, kind)
            if ids:
                tasks[kind.split("_")[0]] = " ".join(
                    f"{t.subtopology_id}:{','.join(map(str, t.partitions))}" for t in ids
                )
        members.append(
            StreamsMember(m.member_id, m.instance_id, m.client_host, m.client_id, {}, m.member_epoch, tasks=tasks)
        )
    return GroupView(group_id, "streams", d.group_state, d.assignor_name or "", d.group_epoch, members, [])


def _offset_rows(admin: AdminClient, group_id: str, members: list[GroupMember]) -> list[OffsetRow]:
    committed = {tp: off for tp, (off, _) in admin.fetch_offsets(group_id).items()}
    owners = {(t, p): m.member_id for m in members for t, ps in m.assignment.items() for p in ps}
    partitions = sorted(set(committed) | set(owners))
    try:
        ends: dict[tuple[str, int], int | Unavailable] = (
            dict(admin.list_offsets(dict.fromkeys(partitions, LATEST_TIMESTAMP))) if partitions else {}
        )
    except AdminError as exc:
        ends = dict.fromkeys(partitions, Unavailable(f"ListOffsets: {exc}"))
    return [
        OffsetRow(t, p, committed.get((t, p)), ends.get((t, p), Unavailable("no leader")), owners.get((t, p)))
        for t, p in partitions
    ]


def reset_offsets(
    admin: AdminClient, group_id: str, topic: str, to: str, value: str | None
) -> dict[tuple[str, int], int]:
    """OffsetCommit of new positions for every partition of ``topic`` (as kafka-consumer-groups
    --reset-offsets --execute); Kafka refuses it for a group with active members."""
    plan = reset_positions(admin, topic, to, value)
    errors = admin.commit_offsets(group_id, plan)
    for exc in errors.values():
        if exc is not None:
            raise exc
    return plan


def delete_group(admin: AdminClient, group_id: str) -> None:
    """DeleteGroups of one group, of any type (share groups too); Kafka's refusal is raised."""
    exc = admin.delete_groups([group_id]).get(group_id)
    if exc is not None:
        raise exc
