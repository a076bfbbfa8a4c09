"""Rules of the APIs about topics and their records: Produce, Fetch, ListOffsets, Metadata,
OffsetForLeaderEpoch, DeleteRecords, DescribeProducers, DescribeTopicPartitions,
CreateTopics, DeleteTopics and CreatePartitions (Kafka 4.4's KafkaApis: WRITE, READ,
DESCRIBE, DELETE, CREATE and ALTER on TOPIC; CLUSTER_ACTION for followers)."""

from __future__ import annotations

import struct
from dataclasses import replace

from broker.protocol.messages.create_partitions_request import CreatePartitionsRequest
from broker.protocol.messages.create_partitions_response import CreatePartitionsResponse
from broker.protocol.messages.create_topics_request import CreateTopicsRequest
from broker.protocol.messages.create_topics_response import CreateTopicsResponse
from broker.protocol.messages.delete_records_request import DeleteRecordsRequest
from broker.protocol.messages.delete_records_response import DeleteRecordsResponse
from broker.protocol.messages.delete_topics_request import DeleteTopicsRequest, DeleteTopicState
from broker.protocol.messages.delete_topics_response import DeleteTopicsResponse
from broker.protocol.messages.describe_producers_request import DescribeProducersRequest
from broker.protocol.messages.describe_producers_response import DescribeProducersResponse
from broker.protocol.messages.describe_topic_partitions_request import DescribeTopicPartitionsRequest
from broker.protocol.messages.describe_topic_partitions_response import DescribeTopicPartitionsResponse
from broker.protocol.messages.fetch_request import FetchRequest
from broker.protocol.messages.fetch_response import FetchResponse
from broker.protocol.messages.list_offsets_request import ListOffsetsRequest
from broker.protocol.messages.list_offsets_response import ListOffsetsResponse
from broker.protocol.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from broker.protocol.messages.metadata_response import MetadataResponse
from broker.protocol.messages.offset_for_leader_epoch_request import OffsetForLeaderEpochRequest
from broker.protocol.messages.offset_for_leader_epoch_response import OffsetForLeaderEpochResponse
from broker.protocol.messages.produce_request import ProduceRequest
from broker.protocol.messages.produce_response import ProduceResponse
from broker.security.authorizer import CLUSTER_NAME, AclOperation, ResourceType
from broker.server.authz.core import (
    CLUSTER_DENIED,
    TOPIC_DENIED,
    TXN_DENIED,
    UUID_ZERO,
    Check,
    Plan,
    each_topic,
    entities,
    per_entity,
    register,
    rule,
)

_O = AclOperation
_T, _C, _X = ResourceType.TOPIC, ResourceType.CLUSTER, ResourceType.TRANSACTIONAL_ID
_TXN_BIT = 0x10

# Where each API's topics are, in its request and in its response.
PRODUCE = entities(ProduceRequest, lambda q: q.topic_data).answered(
    ProduceResponse, lambda q, ts: replace(q, topic_data=ts), lambda r: r.responses
)
FETCH = entities(FetchRequest, lambda q: q.topics).answered(
    FetchResponse, lambda q, ts: replace(q, topics=ts), lambda r: r.responses
)
LIST_OFFSETS = entities(ListOffsetsRequest, lambda q: q.topics).answered(
    ListOffsetsResponse, lambda q, ts: replace(q, topics=ts), lambda r: r.topics
)
METADATA = entities(MetadataRequest, lambda q: q.topics or []).answered(
    MetadataResponse, lambda q, ts: replace(q, topics=ts), lambda r: r.topics
)
OFFSET_FOR_LEADER_EPOCH = entities(OffsetForLeaderEpochRequest, lambda q: q.topics).answered(
    OffsetForLeaderEpochResponse, lambda q, ts: replace(q, topics=ts), lambda r: r.topics
)
DELETE_RECORDS = entities(DeleteRecordsRequest, lambda q: q.topics).answered(
    DeleteRecordsResponse, lambda q, ts: replace(q, topics=ts), lambda r: r.topics
)
DESCRIBE_PRODUCERS = entities(DescribeProducersRequest, lambda q: q.topics).answered(
    DescribeProducersResponse, lambda q, ts: replace(q, topics=ts), lambda r: r.topics
)
DESCRIBE_TOPIC_PARTITIONS = entities(DescribeTopicPartitionsRequest, lambda q: q.topics).answered(
    DescribeTopicPartitionsResponse, lambda q, ts: replace(q, topics=ts), lambda r: r.topics
)
CREATE_TOPICS = entities(CreateTopicsRequest, lambda q: q.topics).answered(
    CreateTopicsResponse, lambda q, ts: replace(q, topics=ts), lambda r: r.topics
)
# v5 and below name topics by plain strings.
DELETE_TOPIC_NAMES = entities(DeleteTopicsRequest, lambda q: q.topic_names).answered(
    DeleteTopicsResponse, lambda q, ts: replace(q, topic_names=ts), lambda r: r.responses
)
DELETE_TOPICS = entities(DeleteTopicsRequest, lambda q: q.topics).answered(
    DeleteTopicsResponse, lambda q, ts: replace(q, topics=ts), lambda r: r.responses
)
CREATE_PARTITIONS = entities(CreatePartitionsRequest, lambda q: q.topics).answered(
    CreatePartitionsResponse, lambda q, ts: replace(q, topics=ts), lambda r: r.results
)


def _has_transactional_records(body: ProduceRequest) -> bool:
    """Kafka's RequestUtils.hasTransactionalRecords: the first batch of any partition is transactional."""
    for topic in body.topic_data:
        for p in topic.partition_data:
            records = p.records
            if records is not None and len(records) >= 23:
                attributes = struct.unpack_from(">h", records, 21)[0]
                if attributes & _TXN_BIT:
                    return True
    return False


@rule(ProduceRequest)
def _produce(c: Check, body: ProduceRequest) -> Plan:
    """WRITE on the transactional id for transactional records, WRITE on each topic."""
    if _has_transactional_records(body) and not (
        body.transactional_id is not None and c.ok(_O.WRITE, _X, body.transactional_id)
    ):
        if body.acks == 0:
            return Plan(request=replace(body, topic_data=[]))
        return c.whole(body, TXN_DENIED)
    return per_entity(c, body, PRODUCE, lambda t: c.topic(_O.WRITE, t.name, t.topic_id))


def _fetch_records(resp: FetchResponse) -> FetchResponse:
    """Denied partitions of Fetch carry empty, never null, records."""
    for topic in resp.responses:
        for p in topic.partitions:
            if p.records is None:
                p.records = b""
    return resp


@rule(FetchRequest)
def _fetch(c: Check, body: FetchRequest) -> Plan:
    """A follower's fetch needs CLUSTER_ACTION (refused: every partition
    TOPIC_AUTHORIZATION_FAILED, as Kafka answers); a consumer's, READ on each topic."""
    replica = body.replica_state.replica_id if c.version >= 15 else body.replica_id
    if replica >= 0:
        if c.cluster(_O.CLUSTER_ACTION):
            return Plan(request=body)
        resp = c.whole(body, TOPIC_DENIED).response
        assert isinstance(resp, FetchResponse)
        resp.error_code = 0
        return Plan(response=_fetch_records(resp))
    return per_entity(c, body, FETCH, lambda t: c.topic(_O.READ, t.topic, t.topic_id), after=_fetch_records)


register(ListOffsetsRequest, each_topic(LIST_OFFSETS, _O.DESCRIBE, lambda t: t.name))


@rule(MetadataRequest)
def _metadata(c: Check, body: MetadataRequest) -> Plan:
    """DESCRIBE on each topic (all topics: the ones the principal may describe); auto-creating
    a missing topic needs CREATE on the cluster or the topic; the authorized operations."""
    all_topics = body.topics is None or (c.version == 0 and not body.topics)
    allow_create = bool(body.allow_auto_topic_creation) and bool(c.ctx.services.config.get("auto.create.topics.enable"))

    def verdict(t: MetadataRequestTopic) -> int | None:
        name = c.topic_name(t.name, t.topic_id)
        if name is None:
            return None
        if not c.ok(_O.DESCRIBE, _T, name):
            return TOPIC_DENIED
        if allow_create and not c.topic_known(name) and not c.cluster(_O.CREATE) and not c.ok(_O.CREATE, _T, name):
            return TOPIC_DENIED
        return None

    def fill(resp: MetadataResponse) -> MetadataResponse:
        if all_topics:
            resp.topics = [t for t in resp.topics if t.name is not None and c.ok(_O.DESCRIBE, _T, t.name)]
        if c.version >= 8 and body.include_topic_authorized_operations:
            for t in resp.topics:
                if t.name is not None:
                    t.topic_authorized_operations = c.ops(_T, t.name)
        if 8 <= c.version <= 10 and body.include_cluster_authorized_operations:
            resp.cluster_authorized_operations = c.ops(_C, CLUSTER_NAME) if c.cluster(_O.DESCRIBE) else 0
        return resp

    if all_topics or body.topics is None:
        return Plan(request=body, after=fill)
    return per_entity(c, body, METADATA, verdict, after=fill)


@rule(OffsetForLeaderEpochRequest)
def _offset_for_leader_epoch(c: Check, body: OffsetForLeaderEpochRequest) -> Plan:
    """A follower's request needs CLUSTER_ACTION; a consumer's, DESCRIBE on each topic."""
    if body.replica_id >= 0:
        return Plan(request=body) if c.cluster(_O.CLUSTER_ACTION) else c.whole(body, CLUSTER_DENIED)
    return per_entity(c, body, OFFSET_FOR_LEADER_EPOCH, lambda t: c.topic(_O.DESCRIBE, t.topic))


register(DeleteRecordsRequest, each_topic(DELETE_RECORDS, _O.DELETE, lambda t: t.name))

register(DescribeProducersRequest, each_topic(DESCRIBE_PRODUCERS, _O.READ, lambda t: t.name))


@rule(DescribeTopicPartitionsRequest)
def _describe_topic_partitions(c: Check, body: DescribeTopicPartitionsRequest) -> Plan:
    def ops(resp: DescribeTopicPartitionsResponse) -> DescribeTopicPartitionsResponse:
        for t in resp.topics:
            if t.error_code == 0 and t.name is not None:
                t.topic_authorized_operations = c.ops(_T, t.name)
        return resp

    return per_entity(c, body, DESCRIBE_TOPIC_PARTITIONS, lambda t: c.topic(_O.DESCRIBE, t.name), after=ops)


@rule(CreateTopicsRequest)
def _create_topics(c: Check, body: CreateTopicsRequest) -> Plan:
    """CREATE on the cluster or on each topic; the configs of a created topic the principal
    may not DESCRIBE_CONFIGS are left out (topic_config_error_code)."""

    def configs(resp: CreateTopicsResponse) -> CreateTopicsResponse:
        if c.version >= 5:
            for t in resp.topics:
                if t.error_code == 0 and not c.ok(_O.DESCRIBE_CONFIGS, _T, t.name):
                    t.topic_config_error_code = TOPIC_DENIED
                    t.configs = []
        return resp

    if c.cluster(_O.CREATE):
        return Plan(request=body, after=configs)
    return per_entity(c, body, CREATE_TOPICS, lambda t: c.topic(_O.CREATE, t.name), after=configs)


@rule(DeleteTopicsRequest)
def _delete_topics(c: Check, body: DeleteTopicsRequest) -> Plan:
    """DELETE on each topic; a topic named by id needs DESCRIBE too (as Kafka, so that an
    id does not disclose a name)."""
    if c.version < 6:
        return per_entity(c, body, DELETE_TOPIC_NAMES, c.named(_O.DELETE, _T, TOPIC_DENIED))

    def verdict(t: DeleteTopicState) -> int | None:
        name = c.topic_name(t.name, t.topic_id)
        if name is None:
            return None
        if t.topic_id != UUID_ZERO and not c.ok(_O.DESCRIBE, _T, name):
            return TOPIC_DENIED
        return None if c.ok(_O.DELETE, _T, name) else TOPIC_DENIED

    return per_entity(c, body, DELETE_TOPICS, verdict)


register(CreatePartitionsRequest, each_topic(CREATE_PARTITIONS, _O.ALTER, lambda t: t.name))
