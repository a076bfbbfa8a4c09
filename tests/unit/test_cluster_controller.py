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

from broker.config.services import ControllerSettings
from broker.metadata.controller import (
    ClusterView,
    Keys,
    TopicRecord,
    elect,
    execute_request,
    finish_reassignment,
    new_partition,
    preferred_election,
)
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
    settings = ControllerSettings(
        num_partitions=SETTINGS["num.partitions"], default_replication_factor=SETTINGS["default.replication.factor"]
    )
    return execute_request(view, request, settings=settings, broker_defaults={}, rng=random.Random(1))


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
            {
                "op": "create_topic",
                "name": "t",
                "partitions": 2,
                "replication_factor": -1,
                "assignments": [[1], [1, 2]],
            },
            ErrorCode.INVALID_REPLICA_ASSIGNMENT,
        ),
        (
            {"op": "create_topic", "name": "t", "partitions": 1, "replication_factor": -1, "assignments": [[1, 1]]},
            ErrorCode.INVALID_REPLICA_ASSIGNMENT,
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


# --- replication: elections, ISR, controlled shutdown, reassignment --------------------


def test_replicated_topic_places_distinct_replicas_and_spreads_leaders():
    view = _view({1: None, 2: None, 3: None})
    _, _, result = _run(view, op="create_topic", name="t", partitions=6, replication_factor=3, configs={})
    parts = result["topic"]["partitions"]
    assert all(sorted(p["replicas"]) == [1, 2, 3] and p["isr"] == p["replicas"] for p in parts)
    assert sorted(Counter(p["leader"] for p in parts).values()) == [2, 2, 2]
    assert all(p["leader"] == p["replicas"][0] for p in parts)


def test_grown_partitions_keep_the_topic_replication_factor():
    existing = TopicRecord("t", uuid.uuid4(), [new_partition([1, 2], {1: 2, 2: 3})], {})
    view = _view({1: None, 2: None, 3: None}, {"t": existing})
    _, _, result = _run(view, op="create_partitions", name="t", total=4)
    assert [len(p["replicas"]) for p in result["topic"]["partitions"]] == [2, 2, 2, 2]


def test_leader_loss_elects_from_the_isr_in_assignment_order():
    live = {1: 10, 2: 11, 3: 12}
    p = new_partition([1, 2, 3], live)
    p["isr"] = [1, 3]  # 2 fell behind
    assert elect(p, {2: 11, 3: 12})  # 1 gone: 3 (in the ISR), not 2
    assert (p["leader"], p["isr"], p["leader_epoch"], p["partition_epoch"]) == (3, [3], 1, 1)
    assert elect(p, {2: 11})  # 3 gone too: no in-sync replica, no leader, the ISR keeps 3
    assert (p["leader"], p["isr"]) == (-1, [3])
    assert not elect(p, {1: 20, 2: 11})  # 1 and 2 are back but were not in sync
    assert elect(p, {1: 20, 2: 11, 3: 21})  # 3 back: it leads again
    assert (p["leader"], p["leader_broker_epoch"]) == (3, 21)


def test_unclean_election_takes_any_live_replica_and_resets_the_isr():
    p = new_partition([1, 2, 3], {1: 10, 2: 11, 3: 12})
    p["isr"] = [1]
    assert elect(p, {2: 11, 3: 12}, unclean=True)
    assert (p["leader"], p["isr"]) == (2, [2])


def test_dead_followers_leave_the_isr_and_shutting_down_leaders_hand_over():
    live = {1: 10, 2: 11, 3: 12}
    p = new_partition([1, 2, 3], live)
    assert elect(p, {1: 10, 2: 11})  # 3 gone: out of the ISR, leader unchanged
    assert (p["leader"], p["isr"], p["leader_epoch"], p["partition_epoch"]) == (1, [1, 2], 0, 1)
    assert elect(p, {1: 10, 2: 11}, shutting_down={1})  # controlled shutdown of 1
    assert (p["leader"], p["isr"]) == (2, [2])
    q = new_partition([1], {1: 10})
    assert not elect(q, {1: 10}, shutting_down={1})  # nobody to hand over to: it stays


def test_preferred_election():
    live = {1: 10, 2: 11, 3: 12}
    p = new_partition([1, 2, 3], live)
    assert preferred_election(p, live) == ErrorCode.ELECTION_NOT_NEEDED
    elect(p, {2: 11, 3: 12})
    assert preferred_election(p, {1: 13, 2: 11, 3: 12}) == ErrorCode.PREFERRED_LEADER_NOT_AVAILABLE  # not in sync
    p["isr"].append(1)
    assert preferred_election(p, {1: 13, 2: 11, 3: 12}) == ErrorCode.NONE
    assert (p["leader"], p["leader_broker_epoch"]) == (1, 13)


def test_elect_leaders_request_reports_per_partition():
    live = {1: 2, 2: 3, 3: 4}
    moved = new_partition([1, 2, 3], live)
    moved["leader"], moved["leader_broker_epoch"] = 2, 3
    record = TopicRecord("t", uuid.uuid4(), [new_partition([1, 2, 3], live), moved], {})
    view = _view({1: None, 2: None, 3: None}, {"t": record})
    ops, _, result = _run(view, op="elect_leaders", type=0, partitions=[["t", 0], ["t", 1], ["u", 0]])
    assert [r[:3] for r in result["results"]] == [
        ["t", 0, ErrorCode.ELECTION_NOT_NEEDED],
        ["t", 1, 0],
        ["u", 0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION],
    ]
    assert len(ops) == 1
    _, _, everything = _run(view, op="elect_leaders", type=0, partitions=None)
    assert [r[:3] for r in everything["results"]] == [["t", 1, 0]]  # what needs no election is left out


def test_reassignment_adds_then_drops_replicas():
    live = {1: 2, 2: 3, 3: 4, 4: 5}
    record = TopicRecord("t", uuid.uuid4(), [new_partition([1, 2], live)], {})
    view = _view({1: None, 2: None, 3: None, 4: None}, {"t": record})
    _, _, result = _run(view, op="alter_reassignments", partitions=[["t", 0, [3, 4]]])
    assert result["results"] == [["t", 0, 0, None]]
    ops, _, _ = _run(view, op="alter_reassignments", partitions=[["t", 0, [3, 4]]])
    stored = TopicRecord.decode("t", ops[0].value).partitions[0]
    assert stored["replicas"] == [3, 4, 1, 2] and stored["adding"] == [3, 4] and stored["removing"] == [1, 2]
    assert stored["leader"] == 1  # leads until the new replicas are in sync
    assert not finish_reassignment(stored, live)
    stored["isr"] += [3, 4]
    assert finish_reassignment(stored, live)
    assert stored["replicas"] == [3, 4] and stored["isr"] == [3, 4] and stored["leader"] == 3
    assert "adding" not in stored and "removing" not in stored


def test_reassignment_cancel_and_bad_targets():
    live = {1: 2, 2: 3, 3: 4}
    p = new_partition([1, 2], live)
    p.update(replicas=[3, 1, 2], adding=[3], removing=[2])
    record = TopicRecord("t", uuid.uuid4(), [p, new_partition([1], live)], {})
    view = _view({1: None, 2: None, 3: None}, {"t": record})
    ops, _, result = _run(
        view,
        op="alter_reassignments",
        partitions=[["t", 0, None], ["t", 1, None], ["t", 1, [1, 1]], ["t", 1, [9]], ["t", 5, [1]]],
    )
    assert [r[2] for r in result["results"]] == [
        0,
        ErrorCode.NO_REASSIGNMENT_IN_PROGRESS,
        ErrorCode.INVALID_REPLICA_ASSIGNMENT,
        ErrorCode.INVALID_REPLICA_ASSIGNMENT,
        ErrorCode.UNKNOWN_TOPIC_OR_PARTITION,
    ]
    restored = TopicRecord.decode("t", ops[0].value).partitions[0]
    assert restored["replicas"] == [1, 2] and "adding" not in restored
