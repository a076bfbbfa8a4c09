"""Rules of the transaction APIs: WRITE on the TRANSACTIONAL_ID for a transactional
producer's requests (with READ on the group, WRITE or READ on topics), IDEMPOTENT_WRITE on
the cluster (or WRITE on any topic) for an idempotent producer, CLUSTER_ACTION for the
requests between brokers, DESCRIBE on transactional ids to describe or list them."""

from __future__ import annotations

from dataclasses import replace

from broker.protocol.errors import ErrorCode
from broker.protocol.messages.add_offsets_to_txn_request import AddOffsetsToTxnRequest
from broker.protocol.messages.add_partitions_to_txn_request import AddPartitionsToTxnRequest
from broker.protocol.messages.add_partitions_to_txn_response import (
    AddPartitionsToTxnPartitionResult,
    AddPartitionsToTxnResponse,
    AddPartitionsToTxnTopicResult,
)
from broker.protocol.messages.describe_transactions_request import DescribeTransactionsRequest
from broker.protocol.messages.describe_transactions_response import DescribeTransactionsResponse
from broker.protocol.messages.end_txn_request import EndTxnRequest
from broker.protocol.messages.init_producer_id_request import InitProducerIdRequest
from broker.protocol.messages.list_transactions_request import ListTransactionsRequest
from broker.protocol.messages.list_transactions_response import ListTransactionsResponse
from broker.protocol.messages.txn_offset_commit_request import TxnOffsetCommitRequest
from broker.protocol.messages.txn_offset_commit_response import TxnOffsetCommitResponse
from broker.protocol.messages.write_txn_markers_request import WriteTxnMarkersRequest
from broker.security.authorizer import AclOperation, ResourceType
from broker.server.authz.core import (
    CLUSTER_DENIED,
    GROUP_DENIED,
    TOPIC_DENIED,
    TXN_DENIED,
    Check,
    Plan,
    cluster_rule,
    entities,
    per_entity,
    register,
    rule,
)

_O = AclOperation
_T, _G, _X = ResourceType.TOPIC, ResourceType.GROUP, ResourceType.TRANSACTIONAL_ID
E = ErrorCode

TXN_OFFSET_COMMIT = entities(TxnOffsetCommitRequest, lambda q: q.topics).answered(
    TxnOffsetCommitResponse, lambda q, ts: replace(q, topics=ts), lambda r: r.topics
)
DESCRIBE_TRANSACTIONS = entities(DescribeTransactionsRequest, lambda q: q.transactional_ids).answered(
    DescribeTransactionsResponse, lambda q, ids: replace(q, transactional_ids=ids), lambda r: r.transaction_states
)


@rule(InitProducerIdRequest)
def _init_producer_id(c: Check, body: InitProducerIdRequest) -> Plan:
    if body.transactional_id is not None:
        return Plan(request=body) if c.ok(_O.WRITE, _X, body.transactional_id) else c.whole(body, TXN_DENIED)
    if c.cluster(_O.IDEMPOTENT_WRITE) or c.authorizer.authorize_by_resource_type(c.principal, c.host, _O.WRITE, _T):
        return Plan(request=body)
    return c.whole(body, CLUSTER_DENIED)


@rule(AddPartitionsToTxnRequest)
def _add_partitions_to_txn(c: Check, body: AddPartitionsToTxnRequest) -> Plan:
    """v4+ comes from brokers (CLUSTER_ACTION); v3 and below: WRITE on the transactional id
    and on each topic. Kafka adds nothing when any topic is denied: the others are
    OPERATION_NOT_ATTEMPTED (or UNKNOWN_TOPIC_OR_PARTITION when they do not exist)."""
    if c.version >= 4:
        return Plan(request=body) if c.cluster(_O.CLUSTER_ACTION) else c.whole(body, CLUSTER_DENIED)
    if not c.ok(_O.WRITE, _X, body.v3_and_below_transactional_id):
        return c.whole(body, TXN_DENIED)
    denied = {t.name for t in body.v3_and_below_topics if not c.ok(_O.WRITE, _T, t.name)}
    if not denied:
        return Plan(request=body)
    image = c.ctx.services.metadata.image
    results = []
    for t in body.v3_and_below_topics:
        out = []
        for p in t.partitions:
            if t.name in denied:
                code = TOPIC_DENIED
            elif image.partition(t.name, p) is None:
                code = E.UNKNOWN_TOPIC_OR_PARTITION
            else:
                code = E.OPERATION_NOT_ATTEMPTED
            out.append(AddPartitionsToTxnPartitionResult(partition_index=p, partition_error_code=code))
        results.append(AddPartitionsToTxnTopicResult(name=t.name, results_by_partition=out))
    return Plan(response=AddPartitionsToTxnResponse(results_by_topic_v3_and_below=results))


@rule(AddOffsetsToTxnRequest)
def _add_offsets_to_txn(c: Check, body: AddOffsetsToTxnRequest) -> Plan:
    if not c.ok(_O.WRITE, _X, body.transactional_id):
        return c.whole(body, TXN_DENIED)
    return Plan(request=body) if c.ok(_O.READ, _G, body.group_id) else c.whole(body, GROUP_DENIED)


@rule(EndTxnRequest)
def _end_txn(c: Check, body: EndTxnRequest) -> Plan:
    return Plan(request=body) if c.ok(_O.WRITE, _X, body.transactional_id) else c.whole(body, TXN_DENIED)


@rule(TxnOffsetCommitRequest)
def _txn_offset_commit(c: Check, body: TxnOffsetCommitRequest) -> Plan:
    if not c.ok(_O.WRITE, _X, body.transactional_id):
        return c.whole(body, TXN_DENIED)
    if not c.ok(_O.READ, _G, body.group_id):
        return c.whole(body, GROUP_DENIED)
    return per_entity(c, body, TXN_OFFSET_COMMIT, lambda t: c.topic(_O.READ, t.name))


# CLUSTER_ACTION or ALTER on the cluster (broker.security.api_acls, WRITE_TXN_MARKERS).
register(WriteTxnMarkersRequest, cluster_rule(_O.CLUSTER_ACTION, _O.ALTER))


@rule(DescribeTransactionsRequest)
def _describe_transactions(c: Check, body: DescribeTransactionsRequest) -> Plan:
    """DESCRIBE on each transactional id; the topics of a transaction, those the principal may describe."""

    def topics(resp: DescribeTransactionsResponse) -> DescribeTransactionsResponse:
        for state in resp.transaction_states:
            state.topics = [t for t in state.topics if c.ok(_O.DESCRIBE, _T, t.topic)]
        return resp

    return per_entity(c, body, DESCRIBE_TRANSACTIONS, c.named(_O.DESCRIBE, _X, TXN_DENIED), after=topics)


@rule(ListTransactionsRequest)
def _list_transactions(c: Check, body: ListTransactionsRequest) -> Plan:
    """The transactions whose id the principal may describe."""

    def keep(resp: ListTransactionsResponse) -> ListTransactionsResponse:
        resp.transaction_states = [s for s in resp.transaction_states if c.ok(_O.DESCRIBE, _X, s.transactional_id)]
        return resp

    return Plan(request=body, after=keep)
