"""Share groups (KIP-932): the list and one group's page.

What the Kafka protocol gives a console:
- ShareGroupDescribe (77): state, epochs, members and their assignments;
- DescribeShareGroupOffsets (90, v1 with KIP-1226 lag): per share-partition the start
  offset and the lag;
- the share-state RPC ReadShareGroupState (84), where the cluster grants it to the
  console's principal (CLUSTER_ACTION on the cluster): the persisted state batches of
  each share-partition, i.e. the in-flight window as the share coordinator last wrote
  it. Records acquired right now are never persisted (KIP-932), so that view shows
  them in their last written state; the broker's metrics (``--metrics-url``) give how
  many are acquired now.

Requests per refresh of the list: ListGroups to every broker, one FindCoordinator for
all groups, then per coordinator one ShareGroupDescribe and one DescribeShareGroupOffsets
carrying all its groups. A group page: FindCoordinator, ShareGroupDescribe,
DescribeShareGroupOffsets, Metadata, ListOffsets (one per leader), DescribeConfigs,
one FindCoordinator (key type SHARE) for all its share-partitions and one
ReadShareGroupState per share coordinator; with a dead-letter topic, Metadata, ListOffsets (earliest,
latest) and one Fetch per leader of its partitions.
"""

from __future__ import annotations

import base64
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from broker.admin.client import (
    LATEST_TIMESTAMP,
    RESOURCE_GROUP,
    AdminClient,
    AdminError,
    KafkaApiError,
    Node,
    UnsupportedApiError,
    error_name,
    member_assignment,
)
from broker.protocol.api_keys import ApiKey
from broker.protocol.errors import ErrorCode
from broker.ui.data import NO_METRICS, NOT_READ, Unavailable
from broker.ui.data.coordinators import describe_at_coordinators, group_by_coordinator
from broker.ui.data.topics import ConfigRow, Message, describe_configs, newest_records, reset_positions

COORDINATOR_SHARE = 2  # FindCoordinator key type of a share-partition's share coordinator

# Persisted delivery states (KIP-932 and KIP-1191), as ReadShareGroupState carries them.
STATE_NAMES = {0: "available", 1: "acquired", 2: "acknowledged", 3: "archiving", 4: "archived"}
FINAL_STATES = (2, 4)
# Group configs that name the dead-letter topic (KIP-1191).
DLQ_TOPIC_CONFIG = "errors.deadletterqueue.topic.name"
DLQ_GROUP_HEADER = "__dlq.errors.group"
# The dead-letter view reads at most this many newest records per partition of the topic.
DEAD_LETTERS_PER_PARTITION = 50


@dataclass(slots=True)
class ShareGroupRow:
    group_id: str
    state: str
    members: int | Unavailable
    partitions: int | Unavailable
    lag: int | Unavailable
    error: str | None = None
    # Topic -> the sum of the group's start offsets on it: how far the group has got
    # (the console's records-out rate per topic is how fast these grow).
    positions: dict[str, int] = field(default_factory=dict)


@dataclass(slots=True)
class ShareMember:
    member_id: str
    client_id: str
    host: str
    rack: str | None
    epoch: int
    subscribed: list[str]
    assignment: dict[str, list[int]]


@dataclass(slots=True)
class StateBatch:
    first: int
    last: int
    state: int
    delivery_count: int

    @property
    def state_name(self) -> str:
        return STATE_NAMES.get(self.state, str(self.state))

    @property
    def size(self) -> int:
        return self.last - self.first + 1


@dataclass(slots=True)
class SharePartitionRow:
    topic: str
    partition: int
    start_offset: int
    lag: int | Unavailable
    high_watermark: int | Unavailable
    owners: list[str] = field(default_factory=list)
    error: str | None = None
    batches: list[StateBatch] | Unavailable = NOT_READ
    state_epoch: int | None = None
    acquired: int | Unavailable = NO_METRICS
    oldest_age_s: float | Unavailable = NO_METRICS

    @property
    def archiving(self) -> int | Unavailable:
        if isinstance(self.batches, Unavailable):
            return self.batches
        return sum(b.size for b in self.batches if b.state == 3)

    @property
    def window_end(self) -> int | None:
        """One past the last offset with persisted state (the in-flight window's end as written)."""
        if isinstance(self.batches, Unavailable) or not self.batches:
            return None
        return max(b.last for b in self.batches) + 1

    @property
    def available(self) -> int | Unavailable:
        """Records waiting for a consumer: the lag less what is acquired now and archiving."""
        if isinstance(self.lag, Unavailable):
            return self.lag
        if isinstance(self.acquired, Unavailable):
            return self.acquired
        archiving = self.archiving
        if isinstance(archiving, Unavailable):
            return archiving
        return max(0, self.lag - self.acquired - archiving)


@dataclass(slots=True)
class ShareGroupView:
    group_id: str
    state: str
    group_epoch: int
    assignment_epoch: int
    assignor: str
    members: list[ShareMember]
    partitions: list[SharePartitionRow]
    configs: list[ConfigRow] | Unavailable
    state_note: str | None = None
    dlq_topic: str | None = None
    dead_letters: list[Message] | Unavailable = field(default_factory=list)

    @property
    def lag(self) -> int | Unavailable:
        total = 0
        for p in self.partitions:
            if isinstance(p.lag, Unavailable):
                return p.lag
            total += p.lag
        return total

    def histogram(self) -> dict[int, dict[str, int]] | Unavailable:
        """Records in the persisted windows by delivery count, then by state."""
        out: dict[int, dict[str, int]] = {}
        for p in self.partitions:
            if isinstance(p.batches, Unavailable):
                return p.batches
            for b in p.batches:
                if b.delivery_count <= 0:
                    continue
                row = out.setdefault(b.delivery_count, {})
                row[b.state_name] = row.get(b.state_name, 0) + b.size
        return dict(sorted(out.items()))


def kafka_topic_id(topic_id: uuid.UUID) -> str:
    """Kafka's text form of a topic id: URL-safe base64 without padding (22 characters)."""
    return base64.urlsafe_b64encode(topic_id.bytes).decode("ascii").rstrip("=")


# -- the list ------------------------------------------------------------------------------------


def share_group_ids(admin: AdminClient) -> list[tuple[str, str]]:
    """(group id, state) of every share group, from ListGroups v5's type filter."""
    return sorted((g.group_id, g.group_state or "") for g in admin.list_groups(types=["share"]))


def list_share_groups(admin: AdminClient) -> list[ShareGroupRow]:
    from broker.protocol.messages.share_group_describe_request import ShareGroupDescribeRequest

    listed = share_group_ids(admin)
    rows = {
        gid: ShareGroupRow(gid, state, Unavailable("not read"), Unavailable("not read"), Unavailable("not read"))
        for gid, state in listed
    }
    if not rows:
        return []
    for node, groups, described in describe_at_coordinators(
        admin, rows, lambda ids: ShareGroupDescribeRequest(group_ids=ids), _described_groups
    ):
        for row, g in described:
            row.state = g.group_state
            row.members = len(g.members)
            row.partitions = len(
                {(tp.topic_id, p) for m in g.members for tp in m.assignment.topic_partitions for p in tp.partitions}
            )
        offsets = _offsets_many(admin, node, groups)
        for gid in groups:
            got = offsets.get(gid)
            if isinstance(got, Unavailable):
                rows[gid].lag = got
            elif got is not None:
                rows[gid].lag = _sum_lag(got)
                rows[gid].positions = _positions(got)
    return [rows[gid] for gid, _ in listed]


def _described_groups(resp: Any) -> Iterator[tuple[str, Any, str | None]]:
    for g in resp.groups:
        yield g.group_id, g, f"{error_name(g.error_code)}: {g.error_message or ''}".strip() if g.error_code else None


def _positions(group: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for t in group.topics:
        for p in t.partitions:
            if not p.error_code and p.start_offset >= 0:
                out[t.topic_name] = out.get(t.topic_name, 0) + p.start_offset
    return out


def _sum_lag(group: Any) -> int | Unavailable:
    total = 0
    for t in group.topics:
        for p in t.partitions:
            if p.error_code:
                continue
            lag = getattr(p, "lag", -1)
            if lag < 0:
                if p.start_offset < 0:
                    continue  # no state yet: nothing delivered, Kafka reports no lag either
                return Unavailable("this cluster's DescribeShareGroupOffsets has no lag (v0)")
            total += lag
    return total


def _offsets_many(admin: AdminClient, node: Node, groups: list[str]) -> dict[str, Any]:
    """DescribeShareGroupOffsets for several groups on one coordinator (all their topics)."""
    from broker.protocol.messages.describe_share_group_offsets_request import (
        DescribeShareGroupOffsetsRequest,
        DescribeShareGroupOffsetsRequestGroup,
    )

    req = DescribeShareGroupOffsetsRequest(
        groups=[DescribeShareGroupOffsetsRequestGroup(group_id=g, topics=None) for g in groups]
    )
    try:
        resp = admin.send(req, node=node)
    except AdminError as exc:
        return dict.fromkeys(groups, Unavailable(f"DescribeShareGroupOffsets: {exc}"))
    out: dict[str, Any] = {}
    for g in resp.groups:
        if g.error_code:
            out[g.group_id] = Unavailable(
                f"DescribeShareGroupOffsets: {error_name(g.error_code)} {g.error_message or ''}".strip()
            )
        else:
            out[g.group_id] = g
    return out


# -- one group -----------------------------------------------------------------------------------


def share_group(admin: AdminClient, group_id: str, *, dead_letters: bool = True) -> ShareGroupView:
    """One share group's page (GROUP_ID_NOT_FOUND raised for a group that is not a share group)."""
    d = admin.describe_share_group(group_id)
    if d.group_state == "Dead":
        raise KafkaApiError(ErrorCode.GROUP_ID_NOT_FOUND, f"Group {group_id} not found.", "ShareGroupDescribe")
    members = [
        ShareMember(
            m.member_id,
            m.client_id,
            m.client_host,
            m.rack_id,
            m.member_epoch,
            list(m.subscribed_topic_names),
            member_assignment(m.assignment),
        )
        for m in sorted(d.members, key=lambda m: (m.client_id, m.member_id))
    ]
    offsets = admin.describe_share_group_offsets(group_id)
    owners: dict[tuple[str, int], list[str]] = {}
    for m in members:
        for topic, ps in m.assignment.items():
            for p in ps:
                owners.setdefault((topic, p), []).append(m.member_id)
    rows: dict[tuple[str, int], SharePartitionRow] = {}
    for t in offsets.topics:
        for p in t.partitions:
            lag: int | Unavailable = p.lag if getattr(p, "lag", -1) >= 0 else Unavailable("no lag reported")
            row = SharePartitionRow(t.topic_name, p.partition_index, p.start_offset, lag, Unavailable("not read"))
            if p.error_code:
                row.error = f"{error_name(p.error_code)}: {p.error_message or ''}".strip()
            rows[(t.topic_name, p.partition_index)] = row
    for key in owners:
        rows.setdefault(
            key, SharePartitionRow(key[0], key[1], -1, Unavailable("no offsets yet"), Unavailable("not read"))
        )
    for key, row in rows.items():
        row.owners = owners.get(key, [])
    partitions = [rows[k] for k in sorted(rows)]
    _high_watermarks(admin, partitions)
    note = _read_state(admin, group_id, partitions)
    try:
        configs: list[ConfigRow] | Unavailable = describe_configs(admin, RESOURCE_GROUP, group_id)
    except AdminError as exc:
        configs = Unavailable(f"DescribeConfigs: {exc}")
    view = ShareGroupView(
        group_id, d.group_state, d.group_epoch, d.assignment_epoch, d.assignor_name, members, partitions, configs, note
    )
    if not isinstance(configs, Unavailable):
        view.dlq_topic = next((c.value for c in configs if c.name == DLQ_TOPIC_CONFIG and c.value), None)
    if view.dlq_topic and dead_letters:
        view.dead_letters = newest_dead_letters(admin, view.dlq_topic, group_id)
    return view


def _high_watermarks(admin: AdminClient, rows: list[SharePartitionRow]) -> None:
    if not rows:
        return
    try:
        ends = admin.list_offsets({(r.topic, r.partition): LATEST_TIMESTAMP for r in rows})
    except AdminError as exc:
        for r in rows:
            r.high_watermark = Unavailable(f"ListOffsets: {exc}")
        return
    for r in rows:
        r.high_watermark = ends.get((r.topic, r.partition), Unavailable("no leader"))


def _read_state(admin: AdminClient, group_id: str, rows: list[SharePartitionRow]) -> str | None:
    """Fill each row's state batches from ReadShareGroupState; returns a note for the page
    when the cluster does not give them (which is then also each row's reason)."""
    from broker.protocol.messages.read_share_group_state_request import (
        PartitionData,
        ReadShareGroupStateRequest,
        ReadStateData,
    )

    wanted = [r for r in rows if r.start_offset >= 0 and not r.error]
    if not wanted:
        return None
    if ApiKey.READ_SHARE_GROUP_STATE not in admin.api_versions():
        reason = Unavailable("this cluster does not serve ReadShareGroupState (API 84) to clients")
        for r in rows:
            r.batches = reason
        return reason.reason
    meta = admin.metadata(sorted({r.topic for r in wanted}))
    ids: dict[str, uuid.UUID] = {}
    epochs: dict[tuple[str, int], int] = {}
    for t in meta.topics:
        ids[t.name] = t.topic_id
        for p in t.partitions:
            epochs[(t.name, p.partition_index)] = p.leader_epoch
    keys = {f"{group_id}:{kafka_topic_id(ids[r.topic])}:{r.partition}": r for r in wanted if r.topic in ids}
    try:
        by_node, errors = group_by_coordinator(admin, list(keys), COORDINATOR_SHARE)
    except KafkaApiError as exc:
        return _refused(rows, exc)
    for key, error in errors.items():
        if error.code in (ErrorCode.CLUSTER_AUTHORIZATION_FAILED, ErrorCode.INVALID_REQUEST):
            return _refused(rows, error)
        keys[key].batches = Unavailable(f"FindCoordinator: {error}")
    by_id = {(ids[r.topic], r.partition): r for r in wanted if r.topic in ids}
    for node, node_keys in by_node.items():
        topics: dict[uuid.UUID, list[PartitionData]] = {}
        for key in node_keys:
            r = keys[key]
            # The partition's current leader epoch, as its leader itself reads: a share coordinator
            # that already recorded this epoch writes nothing (Kafka writes a newer one).
            epoch = max(epochs.get((r.topic, r.partition), 0), 0)
            topics.setdefault(ids[r.topic], []).append(PartitionData(partition=r.partition, leader_epoch=epoch))
        req = ReadShareGroupStateRequest(
            group_id=group_id, topics=[ReadStateData(topic_id=t, partitions=ps) for t, ps in topics.items()]
        )
        try:
            resp = admin.send(req, node=node)
        except UnsupportedApiError as exc:
            return _refused(rows, exc)
        except AdminError as exc:
            for key in node_keys:
                keys[key].batches = Unavailable(f"ReadShareGroupState: {exc}")
            continue
        for res in resp.results:
            for p in res.partitions:
                found = by_id.get((res.topic_id, p.partition))
                if found is None:
                    continue
                r = found
                if p.error_code == ErrorCode.CLUSTER_AUTHORIZATION_FAILED:
                    return _refused(rows, KafkaApiError(p.error_code, p.error_message))
                if p.error_code:
                    r.batches = Unavailable(
                        f"ReadShareGroupState: {error_name(p.error_code)} {p.error_message or ''}".strip()
                    )
                    continue
                r.state_epoch = p.state_epoch
                r.batches = [
                    StateBatch(b.first_offset, b.last_offset, b.delivery_state, b.delivery_count)
                    for b in p.state_batches
                ]
    return None


def _refused(rows: list[SharePartitionRow], exc: Exception) -> str:
    reason = Unavailable(f"the cluster refuses the share-state RPCs to the console's principal ({exc})")
    for r in rows:
        r.batches = reason
    return reason.reason


def newest_dead_letters(admin: AdminClient, topic: str, group_id: str) -> list[Message] | Unavailable:
    """The newest records of the dead-letter topic written for ``group_id`` (header
    ``__dlq.errors.group``), newest first: the last DEAD_LETTERS_PER_PARTITION of each
    partition, read with one Fetch per partition leader."""
    try:
        records = newest_records(admin, topic, DEAD_LETTERS_PER_PARTITION)
    except KafkaApiError as exc:
        return Unavailable(f"dead-letter topic {topic!r}: {exc.code.name}")
    except AdminError as exc:
        return Unavailable(f"reading dead-letter topic {topic!r}: {exc}")
    out = []
    for m in records:
        group = dict(m.headers).get(DLQ_GROUP_HEADER)
        if group is None or group.decode("utf-8", "replace") == group_id:
            out.append(m)
    out.sort(key=lambda m: (m.timestamp, m.partition, m.offset), reverse=True)
    return out


# -- actions -------------------------------------------------------------------------------------


def reset_offsets(
    admin: AdminClient, group_id: str, topic: str, to: str, value: str | None
) -> dict[tuple[str, int], int]:
    """AlterShareGroupOffsets for every partition of ``topic``: ``to`` is earliest, latest,
    timestamp (ms since the epoch) or offset. Kafka refuses it while the group has members
    (NON_EMPTY_GROUP), which is raised as Kafka said it."""
    if to == "offset" and int(value or "") < 0:
        raise ValueError("the offset must be 0 or more")
    plan = reset_positions(admin, topic, to, value)
    admin.alter_share_group_offsets(group_id, plan)
    return plan


def delete_offsets(admin: AdminClient, group_id: str, topic: str) -> None:
    errors = admin.delete_share_group_offsets(group_id, [topic])
    exc = errors.get(topic)
    if exc is not None:
        raise exc
