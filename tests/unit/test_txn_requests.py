"""Request-level rules around the transaction coordinator (KafkaApis' share of the work)."""

from __future__ import annotations

import pytest

from broker.protocol.errors import ErrorCode
from broker.protocol.messages.add_partitions_to_txn_request import (
    AddPartitionsToTxnRequest,
    AddPartitionsToTxnTopic,
    AddPartitionsToTxnTransaction,
)
from broker.protocol.messages.add_partitions_to_txn_response import AddPartitionsToTxnResponse
from broker.txn.records import TopicPartition
from broker.txn.requests import (
    AddPartitionsCall,
    add_partitions_calls,
    add_partitions_response,
    check_partitions,
    client_error,
    end_txn_transaction_version,
)

TP = TopicPartition
E = ErrorCode


@pytest.mark.parametrize(
    ("api", "version", "expected"),
    [
        (22, 3, E.INVALID_PRODUCER_EPOCH),
        (22, 4, E.PRODUCER_FENCED),
        (24, 1, E.INVALID_PRODUCER_EPOCH),
        (24, 2, E.PRODUCER_FENCED),
        (25, 1, E.INVALID_PRODUCER_EPOCH),
        (26, 1, E.INVALID_PRODUCER_EPOCH),
        (26, 5, E.PRODUCER_FENCED),
    ],
)
def test_old_clients_get_invalid_producer_epoch_for_fenced(api, version, expected):
    assert client_error(api, version, E.PRODUCER_FENCED) == expected
    assert client_error(api, 0, E.CONCURRENT_TRANSACTIONS) == E.CONCURRENT_TRANSACTIONS


def test_end_txn_version_5_is_transaction_version_2():
    assert [end_txn_transaction_version(v) for v in range(6)] == [0, 0, 0, 0, 0, 2]


def _wire(req: AddPartitionsToTxnRequest, version: int) -> AddPartitionsToTxnRequest:
    return AddPartitionsToTxnRequest.decode(req.encode(version), version)


def test_client_request_is_one_call_at_transaction_version_0():
    req = AddPartitionsToTxnRequest(
        v3_and_below_transactional_id="t",
        v3_and_below_producer_id=5,
        v3_and_below_producer_epoch=2,
        v3_and_below_topics=[AddPartitionsToTxnTopic("a", [0, 1, 0]), AddPartitionsToTxnTopic("b", [3])],
    )
    for version in (0, 3):
        assert add_partitions_calls(_wire(req, version), version) == [
            AddPartitionsCall("t", 5, 2, False, (TP("a", 0), TP("a", 1), TP("b", 3)), 0)
        ]


def test_broker_request_is_a_call_per_transaction_at_version_2():
    req = AddPartitionsToTxnRequest(
        transactions=[
            AddPartitionsToTxnTransaction("t1", 5, 2, False, [AddPartitionsToTxnTopic("a", [0])]),
            AddPartitionsToTxnTransaction("t2", 6, 0, True, [AddPartitionsToTxnTopic("b", [1, 2])]),
        ]
    )
    assert add_partitions_calls(_wire(req, 5), 5) == [
        AddPartitionsCall("t1", 5, 2, False, (TP("a", 0),), 2),
        AddPartitionsCall("t2", 6, 0, True, (TP("b", 1), TP("b", 2)), 2),
    ]


def test_check_partitions():
    exists = lambda topic, partition: topic in ("a", "__consumer_offsets") and partition < 2  # noqa: E731
    internal = lambda topic: topic.startswith("__")  # noqa: E731
    assert check_partitions([TP("a", 0), TP("a", 1)], 3, exists, internal) is None
    assert check_partitions([TP("a", 0), TP("a", 5), TP("x", 0)], 3, exists, internal) == {
        TP("a", 0): E.OPERATION_NOT_ATTEMPTED,
        TP("a", 5): E.UNKNOWN_TOPIC_OR_PARTITION,
        TP("x", 0): E.UNKNOWN_TOPIC_OR_PARTITION,
    }
    # A client may not add an internal topic; a broker (v4+, the group coordinator) may.
    assert check_partitions([TP("__consumer_offsets", 1)], 3, exists, internal) == {
        TP("__consumer_offsets", 1): E.TOPIC_AUTHORIZATION_FAILED
    }
    assert check_partitions([TP("__consumer_offsets", 1)], 4, exists, internal) is None


def test_response_versions():
    errors = {TP("a", 0): E.NONE, TP("a", 1): E.PRODUCER_FENCED, TP("b", 0): E.NONE}
    v1 = add_partitions_response(1, [("t", errors)])
    back = AddPartitionsToTxnResponse.decode(v1.encode(1), 1)
    got = {
        (t.name, p.partition_index): p.partition_error_code
        for t in back.results_by_topic_v3_and_below
        for p in t.results_by_partition
    }
    assert got == {("a", 0): 0, ("a", 1): E.INVALID_PRODUCER_EPOCH, ("b", 0): 0}
    v5 = add_partitions_response(5, [("t1", errors), ("t2", {TP("c", 0): E.TRANSACTION_ABORTABLE})])
    back = AddPartitionsToTxnResponse.decode(v5.encode(5), 5)
    assert back.error_code == 0
    assert [r.transactional_id for r in back.results_by_transaction] == ["t1", "t2"]
    t2 = back.results_by_transaction[1].topic_results[0]
    assert (t2.name, t2.results_by_partition[0].partition_error_code) == ("c", E.TRANSACTION_ABORTABLE)
    assert (
        back.results_by_transaction[0].topic_results[0].results_by_partition[1].partition_error_code
        == E.PRODUCER_FENCED
    )
