"""Interactive-query endpoints of KIP-1071 streams groups (StreamsGroupHeartbeat).

Members with a UserEndpoint are told, per endpoint, the source-topic partitions of
their active and standby tasks whenever the client's EndpointInformationEpoch lags the
group's. The group's endpoint epoch is kept in memory (as in Kafka) and bumped when an
endpoint member's endpoint or tasks change.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from broker.group.shard_api import TopicImage
from broker.group.streams.model import JOIN_EPOCH, StreamsGroup
from broker.group.streams.records import CurrentValue, MemberValue, Record, RecordType
from broker.group.streams.topology import Configured
from broker.protocol.messages import streams_group_heartbeat_response as response_msg
from broker.protocol.messages.streams_group_heartbeat_request import StreamsGroupHeartbeatRequest

__all__ = ["endpoint_epoch_after", "endpoints", "partitions"]


def endpoint_epoch_after(group: StreamsGroup, records: Iterable[Record]) -> tuple[int, dict]:
    """The group's endpoint epoch and members (meta, current) once ``records`` are
    replayed: the same bumps :meth:`replay_record` makes."""
    epoch = group.endpoint_epoch
    members = {m: (g.meta, g.current) for m, g in group.members.items()}
    for rec in records:
        if rec.group_id != group.group_id or rec.sub is None or rec.type not in (RecordType.MEMBER, RecordType.CURRENT):
            continue
        meta, current = members.get(rec.sub, (MemberValue(), CurrentValue()))
        if rec.type is RecordType.MEMBER:
            if rec.value is None:
                epoch += meta.user_endpoint is not None and rec.sub in members
                members.pop(rec.sub, None)
                continue
            assert isinstance(rec.value, MemberValue)
            epoch += meta.user_endpoint != rec.value.user_endpoint
            members[rec.sub] = (rec.value, current)
        elif rec.value is not None:
            assert isinstance(rec.value, CurrentValue)
            changed = current.active != rec.value.active or current.standby != rec.value.standby
            epoch += meta.user_endpoint is not None and changed
            members[rec.sub] = (meta, rec.value)
    return epoch, members


def endpoints(
    topics: TopicImage,
    group: StreamsGroup,
    r: StreamsGroupHeartbeatRequest,
    records: list[Record],
    configured: Configured,
    response: response_msg.StreamsGroupHeartbeatResponse,
) -> None:
    """Interactive-query endpoints: every member's partitions by endpoint, when the
    client's endpoint epoch lags the group's."""
    epoch, members = endpoint_epoch_after(group, records)
    response.endpoint_information_epoch = epoch
    if not any(m.user_endpoint is not None for m, _ in members.values()):
        return
    if r.endpoint_information_epoch >= epoch and r.member_epoch != JOIN_EPOCH:
        return
    out = []
    for _, (m_meta, current) in sorted(members.items()):
        if m_meta.user_endpoint is None:
            continue
        out.append(
            response_msg.EndpointToPartitions(
                response_msg.Endpoint(*m_meta.user_endpoint),
                partitions(topics, current.active, configured),
                partitions(topics, {**current.standby, **current.warmup}, configured),
            )
        )
    response.partitions_by_user_endpoint = out


def partitions(
    topics: TopicImage, tasks: Mapping[str, Iterable[int]], configured: Configured
) -> list[response_msg.TopicPartition]:
    by_topic: dict[str, set[int]] = {}
    for s, ps in tasks.items():
        for topic in configured.inputs.get(s, ()):
            info = topics.topic(topic)
            count = info.partitions if info is not None else 0
            by_topic.setdefault(topic, set()).update(p for p in ps if p < count)
    return [response_msg.TopicPartition(t, sorted(ps)) for t, ps in sorted(by_topic.items()) if ps]
