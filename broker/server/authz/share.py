"""Rules of the share group APIs (KIP-932): READ on the GROUP and on each TOPIC for
ShareFetch and ShareAcknowledge; DESCRIBE on the group and topics for
DescribeShareGroupOffsets; READ (alter) or DELETE (delete) on the group and READ on topics
for the offsets admin APIs; CLUSTER_ACTION for the share-state RPCs between brokers.
ShareGroupHeartbeat and ShareGroupDescribe are with the other groups'
(:mod:`broker.server.authz.groups`)."""

from __future__ import annotations

from dataclasses import replace

from broker.protocol.errors import ErrorCode
from broker.protocol.messages.alter_share_group_offsets_request import AlterShareGroupOffsetsRequest
from broker.protocol.messages.alter_share_group_offsets_response import AlterShareGroupOffsetsResponse
from broker.protocol.messages.delete_share_group_offsets_request import DeleteShareGroupOffsetsRequest
from broker.protocol.messages.delete_share_group_offsets_response import DeleteShareGroupOffsetsResponse
from broker.protocol.messages.delete_share_group_state_request import DeleteShareGroupStateRequest
from broker.protocol.messages.describe_share_group_offsets_request import (
    DescribeShareGroupOffsetsRequest,
    DescribeShareGroupOffsetsRequestTopic,
)
from broker.protocol.messages.describe_share_group_offsets_response import (
    DescribeShareGroupOffsetsResponseGroup,
    DescribeShareGroupOffsetsResponsePartition,
    DescribeShareGroupOffsetsResponseTopic,
)
from broker.protocol.messages.initialize_share_group_state_request import InitializeShareGroupStateRequest
from broker.protocol.messages.read_share_group_state_request import ReadShareGroupStateRequest
from broker.protocol.messages.read_share_group_state_summary_request import ReadShareGroupStateSummaryRequest
from broker.protocol.messages.share_acknowledge_request import ShareAcknowledgeRequest
from broker.protocol.messages.share_acknowledge_response import ShareAcknowledgeResponse
from broker.protocol.messages.share_fetch_request import ShareFetchRequest
from broker.protocol.messages.share_fetch_response import ShareFetchResponse
from broker.protocol.messages.write_share_group_state_request import WriteShareGroupStateRequest
from broker.security.authorizer import AclOperation, ResourceType
from broker.server.authz.core import (
    GROUP_DENIED,
    TOPIC_DENIED,
    Check,
    Plan,
    appending,
    cluster_rule,
    denied_answers,
    entities,
    per_entity,
    register,
    rule,
    split,
)
from broker.server.authz.groups import split_groups

_O = AclOperation
_T, _G = ResourceType.TOPIC, ResourceType.GROUP

SHARE_FETCH = entities(ShareFetchRequest, lambda q: q.topics).answered(
    ShareFetchResponse, lambda q, ts: replace(q, topics=ts), lambda r: r.responses
)
SHARE_ACKNOWLEDGE = entities(ShareAcknowledgeRequest, lambda q: q.topics).answered(
    ShareAcknowledgeResponse, lambda q, ts: replace(q, topics=ts), lambda r: r.responses
)
ALTER_SHARE_GROUP_OFFSETS = entities(AlterShareGroupOffsetsRequest, lambda q: q.topics).answered(
    AlterShareGroupOffsetsResponse, lambda q, ts: replace(q, topics=ts), lambda r: r.responses
)
DELETE_SHARE_GROUP_OFFSETS = entities(DeleteShareGroupOffsetsRequest, lambda q: q.topics).answered(
    DeleteShareGroupOffsetsResponse, lambda q, ts: replace(q, topics=ts), lambda r: r.responses
)


@rule(ShareFetchRequest)
def _share_fetch(c: Check, body: ShareFetchRequest) -> Plan:
    """READ on the group (refused: the top-level error only, as Kafka's
    ShareFetchRequest.getErrorResponse), READ on each topic; acknowledgements sent for a
    partition of a denied topic fail with it, and its records are empty, never null."""
    if body.group_id is None or not c.ok(_O.READ, _G, body.group_id):
        return Plan(response=ShareFetchResponse(error_code=GROUP_DENIED, error_message=None))
    allowed, denied = split(body.topics, lambda t: c.topic(_O.READ, None, t.topic_id))
    if not denied:
        return Plan(request=body)
    acked = {(t.topic_id, p.partition_index) for t in body.topics for p in t.partitions if p.acknowledgement_batches}
    extra = denied_answers(c, body, SHARE_FETCH, denied)
    for topic in extra:
        for p in topic.partitions:
            if (topic.topic_id, p.partition_index) in acked:
                p.acknowledge_error_code = TOPIC_DENIED
            if p.records is None:
                p.records = b""
    return Plan(request=replace(body, topics=allowed), after=appending(SHARE_FETCH.answers, extra))


@rule(ShareAcknowledgeRequest)
def _share_acknowledge(c: Check, body: ShareAcknowledgeRequest) -> Plan:
    """READ on the group (refused: the top-level error only, as Kafka), READ on each topic."""
    if body.group_id is None or not c.ok(_O.READ, _G, body.group_id):
        return Plan(response=ShareAcknowledgeResponse(error_code=GROUP_DENIED, error_message=None))
    return per_entity(c, body, SHARE_ACKNOWLEDGE, lambda t: c.topic(_O.READ, None, t.topic_id))


@rule(AlterShareGroupOffsetsRequest)
def _alter_share_offsets(c: Check, body: AlterShareGroupOffsetsRequest) -> Plan:
    if not c.ok(_O.READ, _G, body.group_id):
        return c.whole(body, GROUP_DENIED)
    return per_entity(c, body, ALTER_SHARE_GROUP_OFFSETS, lambda t: c.topic(_O.READ, t.topic_name))


@rule(DeleteShareGroupOffsetsRequest)
def _delete_share_offsets(c: Check, body: DeleteShareGroupOffsetsRequest) -> Plan:
    if not c.ok(_O.DELETE, _G, body.group_id):
        return c.whole(body, GROUP_DENIED)
    return per_entity(c, body, DELETE_SHARE_GROUP_OFFSETS, lambda t: c.topic(_O.READ, t.topic_name))


def _denied_share_topic(t: DescribeShareGroupOffsetsRequestTopic, name: str) -> DescribeShareGroupOffsetsResponseTopic:
    return DescribeShareGroupOffsetsResponseTopic(
        topic_name=name,
        partitions=[
            DescribeShareGroupOffsetsResponsePartition(
                partition_index=i,
                start_offset=-1,
                leader_epoch=-1,
                lag=-1,
                error_code=TOPIC_DENIED,
                error_message=ErrorCode(TOPIC_DENIED).message,
            )
            for i in t.partitions
        ],
    )


@rule(DescribeShareGroupOffsetsRequest)
def _describe_share_offsets(c: Check, body: DescribeShareGroupOffsetsRequest) -> Plan:
    """DESCRIBE on each group and topic; all topics: the ones the principal may describe."""
    s = split_groups(
        c,
        body.groups,
        lambda g: g.group_id,
        lambda g: g.topics,
        lambda t: t.topic_name,
        lambda g, allowed: replace(g, topics=allowed),
        lambda g: DescribeShareGroupOffsetsResponseGroup(
            group_id=g.group_id, error_code=GROUP_DENIED, error_message=ErrorCode(GROUP_DENIED).message, topics=[]
        ),
        _denied_share_topic,
    )
    return s.plan(c, body, lambda t: t.topic_name)


# The share-state RPCs come from brokers (the share coordinator's clients).
register(InitializeShareGroupStateRequest, cluster_rule(_O.CLUSTER_ACTION))
register(ReadShareGroupStateRequest, cluster_rule(_O.CLUSTER_ACTION))
register(WriteShareGroupStateRequest, cluster_rule(_O.CLUSTER_ACTION))
register(DeleteShareGroupStateRequest, cluster_rule(_O.CLUSTER_ACTION))
register(ReadShareGroupStateSummaryRequest, cluster_rule(_O.CLUSTER_ACTION))
