"""The controller's pure decisions: placement, leader election, topic requests.

The etcd side (leases, watches, txns) is covered by tests/cluster against a real
etcd; here the decisions are checked on their own, over every small cluster shape.
"""

from __future__ import annotations

import json
import random
import uuid
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from broker.metadata.controller import ClusterView, Keys, TopicRecord, elect, execute_request, new_partition
from broker.metadata.etcd_client import KeyValue, prefix_end
from broker.metadata.placement import assign_replicas, rack_alternated
from broker.protocol.errors import ErrorCode, KafkaError

SETTINGS = {"num.partitions": 1, "default.replication.factor": 1}


def test_prefix_end_covers_the_prefix():
    assert prefix_end(b"/a/") == b"/a0"
    assert prefix_end(b"a\xff") == b"b"
    assert prefix_end(b"\xff") == b"\x00"


def test_rack_alternated_interleaves_racks():
    brokers = [(1, "a"), (2, "a"), (3, "b"), (4, "b"), (5, "c")]
    assert rack_alternated(brokers) == [1, 3, 5, 2, 4]
    assert rack_alternated([(3, None), (1, None), (2, None)]) == [1, 2, 3]


@given(
    st.lists(st.sampled_from(["a", "b", "c", None]), min_size=1, max_size=6),
    st.integers(1, 60),
    st.integers(0, 100),
)
def test_leaders_are_spread_evenly(racks, partitions, start):
    brokers = [(i + 1, r) for i, r in enumerate(racks)]
    out = assign_replicas(brokers, partitions, 1, start=start)
    counts = Counter(r[0] for r in out)
    assert len(out) == partitions
    # Round robin: no broker leads more than one partition more than another.
    expected = {b for b, _ in brokers}
    loads = [counts.get(b, 0) for b in expected]
    assert max(loads) - min(loads) <= 1


@given(st.integers(2, 6), st.integers(1, 20), st.integers(0, 50))
def test_replicas_use_distinct_racks_when_there_are_enough(n_racks, partitions, start):
    brokers = [(i + 1, f"r{i % n_racks}") for i in range(n_racks * 2)]
    rf = min(3, n_racks)
    racks = dict(brokers)
    for replicas in assign_replicas(brokers, partitions, rf, start=start):
        assert len(set(replicas)) == rf
        assert len({racks[b] for b in replicas}) == rf


def test_too_few_brokers_for_the_replication_factor():
    with pytest.raises(ValueError):
        assign_replicas([(1, None)], 3, 2)


def test_elect_replaces_a_gone_or_restarted_leader():
    p = new_partition([1], {1: 10})
    assert (p["leader"], p["leader_epoch"], p["leader_broker_epoch"]) == (1, 0, 10)
    assert not elect(p, {1: 10})  # same incarnation: nothing to do
    assert elect(p, {2: 11})  # broker 1 gone: no live in-sync replica
    assert (p["leader"], p["leader_epoch"], p["partition_epoch"]) == (-1, 1, 1)
    assert not elect(p, {})  # still nobody
    assert elect(p, {1: 12})  # back, under a new broker epoch
    assert (p["leader"], p["leader_epoch"], p["leader_broker_epoch"]) == (1, 2, 12)
    assert elect(p, {1: 13})  # restarted before anyone noticed it was gone
    assert (p["leader"], p["leader_epoch"]) == (1, 3)


def _view(brokers: dict[int, str | None], topics: dict[str, TopicRecord] | None = None) -> ClusterView:
    keys = Keys("/t")
    mirror = {}
    rev = 1
    for node, rack in brokers.items():
        rev += 1
        key = keys.broker(node)
        mirror[key] = KeyValue(key, json.dumps({"id": node, "rack": rack}).encode(), rev, rev, 1, 7)
    for name, record in (topics or {}).items():
        rev += 1
        key = keys.topic(name)
        mirror[key] = KeyValue(key, record.encode(), rev, rev, 1, 0)
    return ClusterView(keys, mirror)


def _run(view: ClusterView, **request):
    return execute_request(view, request, setting=SETTINGS.get, broker_defaults={}, rng=random.Random(1))


def test_create_topic_places_leaders_on_every_broker():
    view = _view({1: None, 2: None, 3: None})
    ops, compares, result = _run(
        view, op="create_topic", name="t", partitions=6, replication_factor=-1, configs={"retention.ms": "1000"}
    )
    assert len(ops) == 1 and compares[0].target == "VERSION"
    parts = result["topic"]["partitions"]
    assert sorted(Counter(p["leader"] for p in parts).values()) == [2, 2, 2]
    assert all(p["leader_epoch"] == 0 and p["isr"] == p["replicas"] for p in parts)
    assert result["topic"]["configs"] == {"retention.ms": "1000"}


@pytest.mark.parametrize(
    ("request_", "code"),
    [
        (
            {"op": "create_topic", "name": "bad name", "partitions": 1, "replication_factor": 1},
            ErrorCode.INVALID_TOPIC_EXCEPTION,
        ),
        ({"op": "create_topic", "name": "t", "partitions": 0, "replication_factor": 1}, ErrorCode.INVALID_PARTITIONS),
        (
            {"op": "create_topic", "name": "t", "partitions": 1, "replication_factor": 4},
            ErrorCode.INVALID_REPLICATION_FACTOR,
        ),
        (
            {"op": "create_topic", "name": "t", "partitions": 1, "replication_factor": 2},
            ErrorCode.INVALID_REPLICATION_FACTOR,
        ),
        (
            {"op": "create_topic", "name": "t", "partitions": 1, "replication_factor": 1, "assignments": [[9]]},
            ErrorCode.INVALID_REPLICA_ASSIGNMENT,
        ),
        (
            {"op": "create_topic", "name": "t", "partitions": 1, "replication_factor": 1, "configs": {"nope": "1"}},
            ErrorCode.INVALID_CONFIG,
        ),
        (
            {"op": "create_topic", "name": "e.x", "partitions": 1, "replication_factor": 1},
            ErrorCode.INVALID_TOPIC_EXCEPTION,
        ),
        (
            {"op": "create_topic", "name": "e_x", "partitions": 1, "replication_factor": 1},
            ErrorCode.TOPIC_ALREADY_EXISTS,
        ),
        ({"op": "delete_topic", "name": "missing"}, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION),
        ({"op": "create_partitions", "name": "e_x", "total": 2}, ErrorCode.INVALID_PARTITIONS),
        ({"op": "create_partitions", "name": "e_x", "total": 1}, ErrorCode.INVALID_PARTITIONS),
    ],
)
def test_requests_kafka_refuses(request_, code):
    existing = TopicRecord("e_x", uuid.uuid4(), [new_partition([1], {1: 2})] * 2, {})
    view = _view({1: None, 2: None, 3: None}, {"e_x": existing})
    with pytest.raises(KafkaError) as info:
        _run(view, **request_)
    assert info.value.code == code


def test_grow_alter_and_delete_compare_the_topic_version():
    existing = TopicRecord("e", uuid.uuid4(), [new_partition([1], {1: 2})], {"retention.ms": "5"})
    view = _view({1: None, 2: None}, {"e": existing})
    ops, compares, result = _run(view, op="create_partitions", name="e", total=4)
    assert [c.target for c in compares] == ["MOD"]
    assert len(result["topic"]["partitions"]) == 4
    ops, compares, result = _run(
        view, op="alter_configs", name="e", set={"cleanup.policy": "compact"}, delete=["retention.ms"]
    )
    assert result["topic"]["configs"] == {"cleanup.policy": "compact"}
    ops, compares, result = _run(view, op="delete_topic", name="e")
    assert ops[0].value is None and compares[0].target == "MOD"
    # validate_only decides the same and writes nothing.
    ops, compares, result = _run(view, op="create_partitions", name="e", total=3, validate_only=True)
    assert ops == [] and len(result["topic"]["partitions"]) == 3
