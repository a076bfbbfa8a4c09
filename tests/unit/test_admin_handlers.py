"""Admin handlers (CreateTopics ... DescribeTopicPartitions) against a real Broker on tmp_path.

Expected codes and messages are the ones Apache Kafka 4.2.2 (single KRaft node)
answers for the same requests. Every request and response goes through the
generated encoder and decoder of the version under test, so anything a
version cannot carry fails here.
"""

from __future__ import annotations

import uuid

import pytest

from broker.config import LiveConfig
from broker.handlers import (
    api_19_create_topics,
    api_20_delete_topics,
    api_21_delete_records,
    api_32_describe_configs,
    api_33_alter_configs,
    api_37_create_partitions,
    api_44_incremental_alter_configs,
    api_60_describe_cluster,
    api_75_describe_topic_partitions,
)
from broker.handlers._configs import CONFIG_RESOURCES, AlterOp, register_config_resource
from broker.handlers._operations import CLUSTER_OPERATIONS, TOPIC_OPERATIONS
from broker.protocol.errors import ErrorCode
from broker.protocol.messages import REQUESTS, RESPONSES, RequestHeader
from broker.protocol.messages.alter_configs_request import AlterableConfig as LegacyConfig
from broker.protocol.messages.alter_configs_request import AlterConfigsRequest
from broker.protocol.messages.alter_configs_request import AlterConfigsResource as LegacyResource
from broker.protocol.messages.create_partitions_request import (
    CreatePartitionsAssignment,
    CreatePartitionsRequest,
    CreatePartitionsTopic,
)
from broker.protocol.messages.create_topics_request import (
    CreatableReplicaAssignment,
    CreatableTopic,
    CreatableTopicConfig,
    CreateTopicsRequest,
)
from broker.protocol.messages.delete_records_request import (
    DeleteRecordsPartition,
    DeleteRecordsRequest,
    DeleteRecordsTopic,
)
from broker.protocol.messages.delete_topics_request import DeleteTopicsRequest, DeleteTopicState
from broker.protocol.messages.describe_cluster_request import DescribeClusterRequest
from broker.protocol.messages.describe_configs_request import DescribeConfigsRequest, DescribeConfigsResource
from broker.protocol.messages.describe_topic_partitions_request import (
    Cursor,
    DescribeTopicPartitionsRequest,
    TopicRequest,
)
from broker.protocol.messages.incremental_alter_configs_request import (
    AlterableConfig,
    AlterConfigsResource,
    IncrementalAlterConfigsRequest,
)
from broker.protocol.primitives import UUID_ZERO
from broker.protocol.records import build_batch
from broker.server.app import close_services
from tests.services import context, started

TOPIC, BROKER, GROUP = 2, 4, 32
SET, DELETE, APPEND, SUBTRACT = AlterOp.SET, AlterOp.DELETE, AlterOp.APPEND, AlterOp.SUBTRACT
HANDLERS = {
    19: api_19_create_topics,
    20: api_20_delete_topics,
    21: api_21_delete_records,
    32: api_32_describe_configs,
    33: api_33_alter_configs,
    37: api_37_create_partitions,
    44: api_44_incremental_alter_configs,
    60: api_60_describe_cluster,
    75: api_75_describe_topic_partitions,
}


@pytest.fixture
def broker(tmp_path):
    b = started(tmp_path / "data")
    yield b
    close_services(b.services)


async def call(broker, request, version):
    """Encode ``request`` at ``version``, run the handler, and decode its response."""
    key = request.API_KEY
    request = REQUESTS[key].decode(request.encode(version), version)
    header = RequestHeader(request_api_key=key, request_api_version=version, correlation_id=1, client_id="test")
    response = await HANDLERS[key].handle(context(broker, version, header), request)
    return RESPONSES[key].decode(response.encode(version), version)


async def create(broker, *names, partitions=1, configs=None, version=7):
    topics = [
        CreatableTopic(
            name=n,
            num_partitions=partitions,
            replication_factor=-1,
            configs=[CreatableTopicConfig(name=k, value=v) for k, v in (configs or {}).items()],
        )
        for n in names
    ]
    resp = await call(broker, CreateTopicsRequest(topics=topics, timeout_ms=1000), version)
    assert [t.error_code for t in resp.topics] == [0] * len(names), resp
    return {t.name: t for t in resp.topics}


def by_name(items):
    return {item.name: item for item in items}


def append(broker, topic, partition, n):
    part = broker.logs.partition(topic, partition)
    part.append(build_batch([(None, b"v%d" % i) for i in range(n)]))
    return part


# --- CreateTopics --------------------------------------------------------------------------


async def test_create_topics_success_reports_id_counts_and_configs(broker):
    resp = await call(
        broker,
        CreateTopicsRequest(
            topics=[
                CreatableTopic(
                    name="orders",
                    num_partitions=3,
                    replication_factor=1,
                    configs=[CreatableTopicConfig(name="retention.ms", value="1000")],
                )
            ],
            timeout_ms=1000,
        ),
        7,
    )
    (result,) = resp.topics
    assert (result.error_code, result.error_message) == (0, None)
    info = broker.logs.topics["orders"]
    assert result.topic_id == info.topic_id != UUID_ZERO
    assert (result.num_partitions, result.replication_factor) == (3, 1)
    configs = {c.name: c for c in result.configs}
    assert [c.name for c in result.configs] == sorted(configs)
    assert (configs["retention.ms"].value, configs["retention.ms"].config_source) == ("1000", 1)
    assert (configs["cleanup.policy"].value, configs["cleanup.policy"].config_source) == ("delete", 5)
    assert not any(c.read_only or c.is_sensitive for c in result.configs)
    assert info.configs == {"retention.ms": "1000"}


async def test_create_topics_defaults_and_validate_only(broker):
    resp = await call(
        broker,
        CreateTopicsRequest(
            topics=[CreatableTopic(name="dry", num_partitions=-1, replication_factor=-1)],
            timeout_ms=1000,
            validate_only=True,
        ),
        7,
    )
    (result,) = resp.topics
    assert result.error_code == 0
    assert result.num_partitions == 1  # num.partitions
    assert result.topic_id != UUID_ZERO
    assert {c.name for c in result.configs} >= {"retention.ms", "segment.bytes"}
    assert "dry" not in broker.logs.topics


async def test_create_topics_errors_match_kafka(broker):
    await create(broker, "a.b", "exists")
    T, A, C = CreatableTopic, CreatableReplicaAssignment, CreatableTopicConfig
    topics = [
        T(name="dup", num_partitions=1, replication_factor=1),
        T(name="dup", num_partitions=1, replication_factor=1),
        T(name="bad name", num_partitions=1, replication_factor=1),
        T(name="a_b", num_partitions=1, replication_factor=1),
        T(name="exists", num_partitions=1, replication_factor=1),
        T(name="rf3", num_partitions=1, replication_factor=3),
        T(name="rf0", num_partitions=1, replication_factor=0),
        T(name="np0", num_partitions=0, replication_factor=1),
        T(name="asg-rf", num_partitions=-1, replication_factor=1, assignments=[A(partition_index=0, broker_ids=[1])]),
        T(name="asg-np", num_partitions=2, replication_factor=-1, assignments=[A(partition_index=0, broker_ids=[1])]),
        T(name="asg-bad", num_partitions=-1, replication_factor=-1, assignments=[A(partition_index=0, broker_ids=[7])]),
        T(name="asg-gap", num_partitions=-1, replication_factor=-1, assignments=[A(partition_index=1, broker_ids=[1])]),
        T(
            name="asg-twice",
            num_partitions=-1,
            replication_factor=-1,
            assignments=[A(partition_index=0, broker_ids=[1]), A(partition_index=0, broker_ids=[1])],
        ),
        T(name="cfg-unknown", num_partitions=1, replication_factor=1, configs=[C(name="foo.bar", value="1")]),
        T(name="cfg-bad", num_partitions=1, replication_factor=1, configs=[C(name="retention.ms", value="abc")]),
        T(name="cfg-null", num_partitions=1, replication_factor=1, configs=[C(name="retention.ms", value=None)]),
        # Config errors come before partition-count errors, as in Kafka.
        T(name="cfg-first", num_partitions=0, replication_factor=1, configs=[C(name="retention.ms", value="abc")]),
        T(name="__cluster_metadata", num_partitions=1, replication_factor=1),
    ]
    resp = await call(broker, CreateTopicsRequest(topics=topics, timeout_ms=1000), 7)
    got = {t.name: (t.error_code, t.error_message) for t in resp.topics}
    assert len(resp.topics) == len(got) == len(topics) - 1
    assert got == {
        "dup": (ErrorCode.INVALID_REQUEST, "Duplicate topic name."),
        "bad name": (
            ErrorCode.INVALID_TOPIC_EXCEPTION,
            "Topic name is invalid: 'bad name' contains one or more characters other than "
            "ASCII alphanumerics, '.', '_' and '-'",
        ),
        "a_b": (ErrorCode.INVALID_TOPIC_EXCEPTION, "Topic 'a_b' collides with existing topic: a.b"),
        "exists": (ErrorCode.TOPIC_ALREADY_EXISTS, "Topic 'exists' already exists."),
        "rf3": (
            ErrorCode.INVALID_REPLICATION_FACTOR,
            "Unable to replicate the partition 3 time(s): The target replication factor of 3 cannot be "
            "reached because only 1 broker(s) are registered.",
        ),
        "rf0": (
            ErrorCode.INVALID_REPLICATION_FACTOR,
            "Replication factor must be larger than 0, or -1 to use the default value.",
        ),
        "np0": (ErrorCode.INVALID_PARTITIONS, "Number of partitions was set to an invalid non-positive value."),
        "asg-rf": (
            ErrorCode.INVALID_REQUEST,
            "A manual partition assignment was specified, but replication factor was not set to -1.",
        ),
        "asg-np": (
            ErrorCode.INVALID_REQUEST,
            "A manual partition assignment was specified, but numPartitions was not set to -1.",
        ),
        "asg-bad": (
            ErrorCode.INVALID_REPLICA_ASSIGNMENT,
            "The manual partition assignment includes broker 7, but no such broker is registered.",
        ),
        "asg-gap": (
            ErrorCode.INVALID_REPLICA_ASSIGNMENT,
            "partitions should be a consecutive 0-based integer sequence",
        ),
        "asg-twice": (
            ErrorCode.INVALID_REPLICA_ASSIGNMENT,
            "Found multiple manual partition assignments for partition 0",
        ),
        "cfg-unknown": (ErrorCode.INVALID_CONFIG, "Unknown topic config name: foo.bar"),
        "cfg-bad": (
            ErrorCode.INVALID_CONFIG,
            "Invalid value abc for configuration retention.ms: Not a number of type LONG",
        ),
        "cfg-null": (ErrorCode.INVALID_CONFIG, "Null value not supported for topic configs: retention.ms"),
        "cfg-first": (
            ErrorCode.INVALID_CONFIG,
            "Invalid value abc for configuration retention.ms: Not a number of type LONG",
        ),
        "__cluster_metadata": (
            ErrorCode.INVALID_REQUEST,
            "Creation of internal topic __cluster_metadata is prohibited.",
        ),
    }
    for t in resp.topics:
        assert (t.topic_id, t.num_partitions, t.replication_factor, t.configs) == (UUID_ZERO, -1, -1, [])
    assert set(broker.logs.topics) == {"a.b", "exists"}


async def test_create_topics_manual_assignment_on_this_node(broker):
    A = CreatableReplicaAssignment
    topic = CreatableTopic(
        name="manual",
        num_partitions=-1,
        replication_factor=-1,
        assignments=[A(partition_index=1, broker_ids=[1]), A(partition_index=0, broker_ids=[1])],
    )
    resp = await call(broker, CreateTopicsRequest(topics=[topic], timeout_ms=1000), 5)
    assert (resp.topics[0].error_code, resp.topics[0].num_partitions) == (0, 2)
    assert broker.logs.topics["manual"].partitions == 2


@pytest.mark.parametrize("version", [2, 4, 5, 7])
async def test_create_topics_every_version(broker, version):
    names = await create(broker, f"v{version}", version=version)
    result = names[f"v{version}"]
    assert result.topic_id == (broker.logs.topics[f"v{version}"].topic_id if version >= 7 else UUID_ZERO)
    assert result.num_partitions == (1 if version >= 5 else -1)


async def test_create_internal_topic_by_name_is_internal(broker):
    await create(broker, "__consumer_offsets")
    assert broker.logs.topics["__consumer_offsets"].internal


# --- DeleteTopics --------------------------------------------------------------------------


async def test_delete_topics_by_name_and_id(broker):
    created = await create(broker, "d1", "d2", "d3", "d4", "keep")
    unknown_id = uuid.uuid4()
    S = DeleteTopicState
    resp = await call(
        broker,
        DeleteTopicsRequest(
            topics=[
                S(name="d1"),
                S(name="d1"),
                S(name=None, topic_id=UUID_ZERO),
                S(name="d2", topic_id=created["d2"].topic_id),
                S(name=None, topic_id=unknown_id),
                S(name=None, topic_id=created["d3"].topic_id),
                S(name="d3"),
                S(name=None, topic_id=created["d4"].topic_id),
                S(name="nope"),
            ],
            timeout_ms=1000,
        ),
        6,
    )
    got = sorted(((r.name or "", str(r.topic_id)), (r.error_code, r.error_message)) for r in resp.responses)
    expected = sorted(
        [
            (("d1", str(UUID_ZERO)), (ErrorCode.INVALID_REQUEST, "Duplicate topic name.")),
            (("", str(UUID_ZERO)), (ErrorCode.INVALID_REQUEST, "Neither topic name nor id were specified.")),
            (
                ("d2", str(created["d2"].topic_id)),
                (ErrorCode.INVALID_REQUEST, "You may not specify both topic name and topic id."),
            ),
            (("", str(unknown_id)), (ErrorCode.UNKNOWN_TOPIC_ID, ErrorCode.UNKNOWN_TOPIC_ID.message)),
            (
                ("d3", str(created["d3"].topic_id)),
                (ErrorCode.INVALID_REQUEST, "The provided topic name maps to an ID that was already supplied."),
            ),
            (("d4", str(created["d4"].topic_id)), (ErrorCode.NONE, None)),
            (
                ("nope", str(UUID_ZERO)),
                (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.message),
            ),
        ]
    )
    assert got == expected
    assert set(broker.logs.topics) == {"d1", "d2", "d3", "keep"}


async def test_delete_topics_by_name_before_v6(broker):
    await create(broker, "old", "dup")
    resp = await call(broker, DeleteTopicsRequest(topic_names=["old", "dup", "dup", "gone"], timeout_ms=1000), 5)
    got = {r.name: (r.error_code, r.error_message) for r in resp.responses}
    assert got == {
        "old": (0, None),
        "dup": (ErrorCode.INVALID_REQUEST, "Duplicate topic name."),
        "gone": (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.message),
    }
    assert "old" not in broker.logs.topics and "dup" in broker.logs.topics
    # v1 has no topic ids and no messages on the wire.
    resp = await call(broker, DeleteTopicsRequest(topic_names=["dup"], timeout_ms=1000), 1)
    assert [(r.name, r.error_code) for r in resp.responses] == [("dup", 0)]


async def test_delete_internal_topic_is_allowed_as_in_kafka(broker):
    await create(broker, "__consumer_offsets")
    resp = await call(broker, DeleteTopicsRequest(topics=[DeleteTopicState(name="__consumer_offsets")]), 6)
    assert resp.responses[0].error_code == 0


async def test_delete_topics_disabled(broker):
    """``delete.topic.enable`` false, honoured once the broker config carries the key."""

    class DeletionDisabled(LiveConfig):
        def __init__(self, config):
            super().__init__(config.current)
            self._config = config

        def get(self, key):
            return False if key == "delete.topic.enable" else self._config.get(key)

    await create(broker, "x")
    broker.services.config = DeletionDisabled(broker.services.config)
    for version, code in ((2, ErrorCode.INVALID_REQUEST), (6, ErrorCode.TOPIC_DELETION_DISABLED)):
        req = (
            DeleteTopicsRequest(topics=[DeleteTopicState(name="x")])
            if version >= 6
            else DeleteTopicsRequest(topic_names=["x"])
        )
        resp = await call(broker, req, version)
        assert [(r.name, r.error_code) for r in resp.responses] == [("x", code)]
    assert "x" in broker.logs.topics


# --- CreatePartitions ----------------------------------------------------------------------


async def test_create_partitions(broker):
    await create(broker, "p1", "p2", "p3", partitions=2)
    P, A = CreatePartitionsTopic, CreatePartitionsAssignment
    resp = await call(
        broker,
        CreatePartitionsRequest(
            topics=[
                P(name="p1", count=2, assignments=None),
                P(name="p2", count=1, assignments=None),
                P(name="nope", count=3, assignments=None),
                P(name="dup", count=3, assignments=None),
                P(name="dup", count=4, assignments=None),
                P(name="p3", count=4, assignments=[A(broker_ids=[1])]),
            ],
            timeout_ms=1000,
        ),
        3,
    )
    got = {r.name: (r.error_code, r.error_message) for r in resp.results}
    assert got == {
        "p1": (ErrorCode.INVALID_PARTITIONS, "Topic already has 2 partition(s)."),
        "p2": (ErrorCode.INVALID_PARTITIONS, "The topic p2 currently has 2 partition(s); 1 would not be an increase."),
        "nope": (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, None),
        "dup": (ErrorCode.INVALID_REQUEST, "Duplicate topic name."),
        "p3": (
            ErrorCode.INVALID_REPLICA_ASSIGNMENT,
            "Attempted to add 2 additional partition(s), but only 1 assignment(s) were specified.",
        ),
    }

    bad = [[1, 1], [], [2]]
    resp = await call(
        broker,
        CreatePartitionsRequest(
            topics=[P(name=f"p{i + 1}", count=3, assignments=[A(broker_ids=ids)]) for i, ids in enumerate(bad)],
            timeout_ms=1000,
        ),
        0,
    )
    assert [r.error_message for r in resp.results] == [
        "The manual partition assignment includes the broker 1 more than once.",
        "The manual partition assignment includes an empty replica list.",
        "The manual partition assignment includes broker 2, but no such broker is registered.",
    ]

    resp = await call(
        broker,
        CreatePartitionsRequest(topics=[P(name="p1", count=5, assignments=None)], timeout_ms=1000, validate_only=True),
        3,
    )
    assert resp.results[0].error_code == 0 and broker.logs.topics["p1"].partitions == 2
    resp = await call(
        broker,
        CreatePartitionsRequest(
            topics=[P(name="p1", count=3, assignments=[A(broker_ids=[1])]), P(name="p2", count=4, assignments=None)],
            timeout_ms=1000,
        ),
        1,
    )
    assert [(r.name, r.error_code, r.error_message) for r in resp.results] == [("p1", 0, None), ("p2", 0, None)]
    assert (broker.logs.topics["p1"].partitions, broker.logs.topics["p2"].partitions) == (3, 4)
    assert broker.logs.partition("p2", 3) is not None


# --- DeleteRecords -------------------------------------------------------------------------


async def test_delete_records(broker):
    await create(broker, "r1", partitions=3)
    await create(broker, "compacted", configs={"cleanup.policy": "compact"})
    await create(broker, "__consumer_offsets")
    append(broker, "r1", 0, 10)
    append(broker, "r1", 1, 10)
    R, P = DeleteRecordsTopic, DeleteRecordsPartition
    resp = await call(
        broker,
        DeleteRecordsRequest(
            topics=[
                R(name="r1", partitions=[P(partition_index=0, offset=4), P(partition_index=1, offset=11)]),
                R(name="r1", partitions=[P(partition_index=2, offset=-1), P(partition_index=9, offset=0)]),
                R(name="nope", partitions=[P(partition_index=0, offset=0)]),
                R(name="compacted", partitions=[P(partition_index=0, offset=0)]),
                R(name="__consumer_offsets", partitions=[P(partition_index=0, offset=0)]),
            ],
            timeout_ms=1000,
        ),
        2,
    )
    got = {(t.name, p.partition_index): (p.error_code, p.low_watermark) for t in resp.topics for p in t.partitions}
    assert got == {
        ("r1", 0): (0, 4),
        ("r1", 1): (ErrorCode.OFFSET_OUT_OF_RANGE, -1),
        ("r1", 2): (0, 0),
        ("r1", 9): (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, -1),
        ("nope", 0): (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, -1),
        ("compacted", 0): (ErrorCode.POLICY_VIOLATION, -1),
        ("__consumer_offsets", 0): (ErrorCode.INVALID_TOPIC_EXCEPTION, -1),
    }
    assert [t.name for t in resp.topics] == ["r1", "nope", "compacted", "__consumer_offsets"]
    assert broker.logs.partition("r1", 0).log_start_offset == 4
    # -1 is the high watermark; an offset at or below the log start changes nothing.
    resp = await call(
        broker,
        DeleteRecordsRequest(
            topics=[R(name="r1", partitions=[P(partition_index=0, offset=2), P(partition_index=1, offset=-1)])]
        ),
        0,
    )
    assert [(p.error_code, p.low_watermark) for p in resp.topics[0].partitions] == [(0, 4), (0, 10)]
    resp = await call(
        broker, DeleteRecordsRequest(topics=[R(name="r1", partitions=[P(partition_index=0, offset=-7)])]), 1
    )
    assert (resp.topics[0].partitions[0].error_code, resp.topics[0].partitions[0].low_watermark) == (1, -1)


# --- DescribeCluster -----------------------------------------------------------------------


@pytest.mark.parametrize("version", [0, 1, 2])
async def test_describe_cluster(broker, version):
    resp = await call(
        broker,
        DescribeClusterRequest(include_cluster_authorized_operations=True, include_fenced_brokers=version >= 2),
        version,
    )
    assert (resp.error_code, resp.error_message, resp.cluster_id) == (0, None, broker.cluster_id)
    assert resp.controller_id == broker.node_id == 1
    assert [(b.broker_id, b.host, b.port, b.rack, b.is_fenced) for b in resp.brokers] == [
        (1, broker.advertised_host, 19092, None, False)
    ]
    assert resp.cluster_authorized_operations == CLUSTER_OPERATIONS == 8096
    resp = await call(broker, DescribeClusterRequest(), version)
    assert resp.cluster_authorized_operations == -(2**31)


async def test_describe_cluster_endpoint_types(broker):
    resp = await call(broker, DescribeClusterRequest(endpoint_type=2), 1)
    assert (resp.error_code, resp.error_message) == (
        ErrorCode.MISMATCHED_ENDPOINT_TYPE,
        "The request was sent to an endpoint of type BROKER, but we wanted an endpoint of type CONTROLLER",
    )
    assert (resp.cluster_id, resp.brokers, resp.controller_id) == ("", [], -1)
    resp = await call(broker, DescribeClusterRequest(endpoint_type=7), 2)
    assert (resp.error_code, resp.error_message) == (ErrorCode.UNSUPPORTED_ENDPOINT_TYPE, "Unsupported endpoint type 7")


# --- DescribeTopicPartitions ---------------------------------------------------------------


async def describe_partitions(broker, names, limit=2000, cursor=None):
    req = DescribeTopicPartitionsRequest(
        topics=[TopicRequest(name=n) for n in names], response_partition_limit=limit, cursor=cursor
    )
    resp = await call(broker, req, 0)
    shape = [(t.name, t.error_code, [p.partition_index for p in t.partitions]) for t in resp.topics]
    nxt = (resp.next_cursor.topic_name, resp.next_cursor.partition_index) if resp.next_cursor else None
    return resp, shape, nxt


async def test_describe_topic_partitions(broker):
    created = await create(broker, "dtp-a", partitions=3)
    await create(broker, "dtp-b", partitions=2)
    await create(broker, "dtp-c", partitions=4)
    resp, shape, nxt = await describe_partitions(broker, ["dtp-b", "zz-missing", "dtp-a", "bad name"])
    assert shape == [
        ("bad name", ErrorCode.INVALID_TOPIC_EXCEPTION, []),
        ("dtp-a", 0, [0, 1, 2]),
        ("dtp-b", 0, [0, 1]),
        ("zz-missing", ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, []),
    ]
    assert nxt is None
    a = by_name(resp.topics)["dtp-a"]
    assert (a.topic_id, a.is_internal, a.topic_authorized_operations) == (
        created["dtp-a"].topic_id,
        False,
        TOPIC_OPERATIONS,
    )
    p = a.partitions[1]
    assert (p.leader_id, p.leader_epoch, p.replica_nodes, p.isr_nodes) == (1, 0, [1], [1])
    assert (p.eligible_leader_replicas, p.last_known_elr, p.offline_replicas) == ([], [], [])
    assert by_name(resp.topics)["zz-missing"].topic_authorized_operations == TOPIC_OPERATIONS

    three = ["dtp-b", "dtp-a", "dtp-c"]
    assert (await describe_partitions(broker, three, limit=2))[1:] == ([("dtp-a", 0, [0, 1])], ("dtp-a", 2))
    assert (await describe_partitions(broker, three, limit=3))[1:] == ([("dtp-a", 0, [0, 1, 2])], ("dtp-b", 0))
    _, shape, nxt = await describe_partitions(
        broker, three, limit=5, cursor=Cursor(topic_name="dtp-a", partition_index=2)
    )
    assert (shape, nxt) == ([("dtp-a", 0, [2]), ("dtp-b", 0, [0, 1]), ("dtp-c", 0, [0, 1])], ("dtp-c", 2))
    _, shape, nxt = await describe_partitions(
        broker, three, limit=5, cursor=Cursor(topic_name="dtp-a", partition_index=9)
    )
    assert (shape, nxt) == ([("dtp-a", 0, []), ("dtp-b", 0, [0, 1]), ("dtp-c", 0, [0, 1, 2])], ("dtp-c", 3))
    # The limit is at least 1; every topic when none are named.
    assert (await describe_partitions(broker, three, limit=0))[1:] == ([("dtp-a", 0, [0])], ("dtp-a", 1))
    _, shape, nxt = await describe_partitions(broker, [], limit=4, cursor=Cursor(topic_name="dtp-a", partition_index=1))
    assert (shape, nxt) == ([("dtp-a", 0, [1, 2]), ("dtp-b", 0, [0, 1])], ("dtp-c", 0))


async def test_describe_topic_partitions_bad_cursor_fails_every_topic(broker):
    await create(broker, "dtp-a", "dtp-b")
    for cursor, names in (
        (Cursor(topic_name="dtp-a", partition_index=0), ["dtp-b", "dtp-c"]),
        (Cursor(topic_name="dtp-a", partition_index=-1), ["dtp-b", "dtp-a"]),
    ):
        resp, shape, nxt = await describe_partitions(broker, names, cursor=cursor)
        assert shape == [(n, ErrorCode.INVALID_REQUEST, []) for n in names] and nxt is None
        assert {t.topic_authorized_operations for t in resp.topics} == {-(2**31)}


# --- DescribeConfigs -----------------------------------------------------------------------


async def describe_configs(broker, resources, version=4, synonyms=True, documentation=False):
    req = DescribeConfigsRequest(
        resources=[
            DescribeConfigsResource(resource_type=t, resource_name=n, configuration_keys=k) for t, n, k in resources
        ],
        include_synonyms=synonyms,
        include_documentation=documentation,
    )
    return (await call(broker, req, version)).results


async def test_describe_topic_configs(broker):
    await create(broker, "c1", configs={"cleanup.policy": "compact"})
    (res,) = await describe_configs(broker, [(TOPIC, "c1", None)])
    assert (res.error_code, res.error_message, res.resource_type, res.resource_name) == (0, "", TOPIC, "c1")
    configs = by_name(res.configs)
    assert [c.name for c in res.configs] == sorted(configs) and "retention.ms" in configs
    policy = configs["cleanup.policy"]
    assert (policy.value, policy.config_source, policy.config_type, policy.read_only) == ("compact", 1, 7, False)
    assert [(s.name, s.value, s.source) for s in policy.synonyms] == [
        ("cleanup.policy", "compact", 1),
        ("log.cleanup.policy", "delete", 5),
    ]
    segment = configs["segment.bytes"]
    assert (segment.value, segment.config_source, segment.config_type) == ("1073741824", 5, 3)
    assert [(s.name, s.source) for s in segment.synonyms] == [("log.segment.bytes", 5)]
    # retention.ms: log.retention.ms is unset, so Kafka lists no synonyms.
    assert configs["retention.ms"].synonyms == []

    (res,) = await describe_configs(
        broker, [(TOPIC, "c1", ["retention.ms", "nope", "segment.ms"])], version=1, synonyms=False
    )
    assert [(c.name, c.synonyms) for c in res.configs] == [("retention.ms", []), ("segment.ms", [])]


async def test_describe_configs_errors(broker):
    results = await describe_configs(
        broker,
        [
            (TOPIC, "nope", None),
            (TOPIC, "bad name", None),
            (TOPIC, "", None),
            (BROKER, "2", None),
            (BROKER, "x", None),
        ],
    )
    assert [(r.error_code, r.error_message, r.configs) for r in results] == [
        (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "", []),
        (
            ErrorCode.INVALID_TOPIC_EXCEPTION,
            "Topic name is invalid: 'bad name' contains one or more characters other than "
            "ASCII alphanumerics, '.', '_' and '-'",
            [],
        ),
        (ErrorCode.INVALID_TOPIC_EXCEPTION, "Topic name is invalid: the empty string is not allowed", []),
        (ErrorCode.INVALID_REQUEST, "Unexpected broker id, expected 1 or empty string, but received 2", []),
        (ErrorCode.INVALID_REQUEST, "Broker id must be an integer, but it is: x", []),
    ]
    # A resource type Kafka does not know fails every resource of the request.
    results = await describe_configs(broker, [(99, "x", None), (BROKER, "1", None)])
    assert [(r.resource_type, r.error_code) for r in results] == [(99, ErrorCode.INVALID_REQUEST), (BROKER, 42)]


async def test_describe_broker_configs(broker):
    (res,) = await describe_configs(
        broker, [(BROKER, "1", ["num.partitions", "log.retention.ms", "max.connections", "nope"])], documentation=True
    )
    configs = by_name(res.configs)
    assert set(configs) == {"num.partitions", "log.retention.ms", "max.connections"}
    assert (configs["num.partitions"].read_only, configs["num.partitions"].config_source) == (True, 5)
    assert configs["max.connections"].read_only is False
    assert configs["log.retention.ms"].synonyms == []  # as Kafka: the chain starts at its own name
    assert configs["max.connections"].documentation
    (everything,) = await describe_configs(broker, [(BROKER, "1", [])], version=2)
    assert len(everything.configs) > 20 and not any(c.documentation for c in everything.configs)
    (cluster,) = await describe_configs(broker, [(BROKER, "", None)])
    assert (cluster.error_code, cluster.configs) == (0, [])


# --- AlterConfigs / IncrementalAlterConfigs ------------------------------------------------


async def incremental(broker, resources, validate_only=False, version=1):
    req = IncrementalAlterConfigsRequest(
        resources=[
            AlterConfigsResource(
                resource_type=t,
                resource_name=n,
                configs=[AlterableConfig(name=k, config_operation=op, value=v) for k, op, v in ops],
            )
            for t, n, ops in resources
        ],
        validate_only=validate_only,
    )
    resp = await call(broker, req, version)
    return [(r.resource_type, r.resource_name, r.error_code, r.error_message) for r in resp.responses]


async def legacy(broker, resources, validate_only=False, version=2):
    req = AlterConfigsRequest(
        resources=[
            LegacyResource(
                resource_type=t, resource_name=n, configs=[LegacyConfig(name=k, value=v) for k, v in configs.items()]
            )
            for t, n, configs in resources
        ],
        validate_only=validate_only,
    )
    resp = await call(broker, req, version)
    return [(r.resource_type, r.resource_name, r.error_code, r.error_message) for r in resp.responses]


async def test_incremental_alter_topic_configs(broker):
    await create(broker, "r1", "p2")
    ok = await incremental(
        broker, [(TOPIC, "r1", [("cleanup.policy", SET, "compact,delete"), ("retention.ms", SET, "7000")])]
    )
    assert ok == [(TOPIC, "r1", 0, None)]
    assert broker.logs.topics["r1"].configs == {"cleanup.policy": "compact,delete", "retention.ms": "7000"}
    await incremental(
        broker, [(TOPIC, "r1", [("cleanup.policy", SUBTRACT, "compact"), ("retention.ms", DELETE, None)])]
    )
    assert broker.logs.topics["r1"].configs == {"cleanup.policy": "delete"}
    # APPEND starts from the default ("delete") when the topic does not set the key.
    await incremental(broker, [(TOPIC, "p2", [("cleanup.policy", APPEND, "compact")])])
    assert broker.logs.topics["p2"].configs == {"cleanup.policy": "delete,compact"}
    await incremental(broker, [(TOPIC, "p2", [("cleanup.policy", SUBTRACT, "compact,delete")])])
    assert broker.logs.topics["p2"].configs == {"cleanup.policy": ""}
    # validate_only changes nothing.
    await incremental(broker, [(TOPIC, "p2", [("retention.ms", SET, "5")])], validate_only=True)
    assert "retention.ms" not in broker.logs.topics["p2"].configs
    # The partition logs act on the new values.
    await incremental(broker, [(TOPIC, "p2", [("retention.ms", SET, "5")])])
    assert broker.logs.partition("p2", 0).config.retention_ms == 5


async def test_incremental_alter_configs_errors(broker):
    await create(broker, "r1", "c1")
    cases = [
        (TOPIC, "r1", [("nope", SET, "1")]),
        (TOPIC, "c1", [("retention.ms", APPEND, "1")]),
        (TOPIC, "nope", [("retention.ms", SET, "1")]),
        (TOPIC, "c1", [("retention.ms", SET, None)]),
        (TOPIC, "dup", [("retention.ms", SET, "1"), ("retention.ms", SET, "2")]),
        (TOPIC, "", [("retention.ms", SET, "1")]),
        (TOPIC, "bad name", [("retention.ms", SET, "1")]),
        (TOPIC, "c1", [("nope", DELETE, None)]),
        (TOPIC, "c1", [("retention.ms", 7, "1")]),
        (BROKER, "1", [("num.partitions", SET, "3")]),
        (BROKER, "", [("log.retention.ms", SET, "abc")]),
        (BROKER, "1", [("foo.unknown", SET, "3")]),
        (BROKER, "1", [("max.connections", APPEND, "3")]),
        (BROKER, "x", [("max.connections", SET, "3")]),
        (BROKER, "3", [("max.connections", SET, "3")]),
        (99, "x", []),
    ]
    got = [(await incremental(broker, [case]))[0] for case in cases]
    got += await incremental(broker, [(TOPIC, "twice", []), (TOPIC, "twice", [])])
    assert [(code, message) for _, _, code, message in got] == [
        (ErrorCode.INVALID_CONFIG, "Unknown topic config name: nope"),
        (ErrorCode.INVALID_CONFIG, "Can't APPEND to key retention.ms because its type is not LIST."),
        (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "The topic 'nope' does not exist."),
        (ErrorCode.INVALID_REQUEST, "Null value not supported for : retention.ms"),
        (ErrorCode.INVALID_REQUEST, "Error due to duplicate config keys"),
        (ErrorCode.INVALID_REQUEST, "Default topic resources are not allowed."),
        (
            ErrorCode.INVALID_TOPIC_EXCEPTION,
            "Topic name is invalid: 'bad name' contains one or more characters other than "
            "ASCII alphanumerics, '.', '_' and '-'",
        ),
        (ErrorCode.NONE, None),
        (ErrorCode.INVALID_REQUEST, "Unknown operations type 7"),
        (ErrorCode.INVALID_REQUEST, "Cannot update these configs dynamically: Set(num.partitions)"),
        (ErrorCode.INVALID_REQUEST, got[10][3]),
        (ErrorCode.INVALID_CONFIG, "Unknown config name: foo.unknown"),
        (ErrorCode.INVALID_CONFIG, "Config value append is not allowed for config key: max.connections"),
        (ErrorCode.INVALID_REQUEST, "Node id must be an integer, but it is: x"),
        (ErrorCode.INVALID_REQUEST, "Unexpected broker id, expected 1, but received 3"),
        (ErrorCode.INVALID_REQUEST, "Unknown resource type 99"),
        (ErrorCode.INVALID_REQUEST, "Each resource must appear at most once."),
        (ErrorCode.INVALID_REQUEST, "Each resource must appear at most once."),
    ]
    assert "log.retention.ms" in got[10][3]
    assert broker.logs.topics["c1"].configs == {} and broker.logs.topics["r1"].configs == {}


async def test_incremental_alter_broker_configs_reach_topics(broker):
    await create(broker, "r1")
    assert await incremental(broker, [(BROKER, "1", [("max.connections", SET, "300")])]) == [(BROKER, "1", 0, None)]
    assert await incremental(
        broker, [(BROKER, "", [("max.connections", SET, "400"), ("log.retention.ms", SET, "5000")])]
    ) == [(BROKER, "", 0, None)]
    assert broker.config.get("max.connections") == 300 and broker.config.get("log.retention.ms") == 5000
    node, cluster, topic = await describe_configs(
        broker,
        [(BROKER, "1", ["max.connections"]), (BROKER, "", None), (TOPIC, "r1", ["retention.ms"])],
    )
    (mc,) = node.configs
    assert (mc.value, mc.config_source, [(s.value, s.source) for s in mc.synonyms]) == (
        "300",
        2,
        [("300", 2), ("400", 3), ("1000", 5)],
    )
    assert [(c.name, c.value, c.config_source, [(s.name, s.source) for s in c.synonyms]) for c in cluster.configs] == [
        ("log.retention.ms", "5000", 3, [("log.retention.ms", 3)]),
        ("max.connections", "400", 3, [("max.connections", 3)]),
    ]
    (retention,) = topic.configs
    assert (retention.value, retention.config_source) == ("5000", 3)
    assert [(s.name, s.value, s.source) for s in retention.synonyms][:1] == [("log.retention.ms", "5000", 3)]
    assert broker.logs.partition("r1", 0).config.retention_ms == 5000
    # DELETE removes the override; validate_only changes nothing.
    await incremental(broker, [(BROKER, "", [("log.retention.ms", DELETE, None)])], validate_only=True)
    assert broker.config.get("log.retention.ms") == 5000
    await incremental(broker, [(BROKER, "", [("log.retention.ms", DELETE, None)])])
    assert broker.config.get("log.retention.ms") is None
    assert broker.logs.partition("r1", 0).config.retention_ms == 7 * 24 * 3_600_000


async def test_legacy_alter_configs_replaces_the_whole_set(broker):
    await create(broker, "r1", configs={"retention.ms": "5000", "cleanup.policy": "compact,delete"})
    assert await legacy(broker, [(TOPIC, "r1", {"segment.ms": "100000"})]) == [(TOPIC, "r1", 0, None)]
    assert broker.logs.topics["r1"].configs == {"segment.ms": "100000"}
    assert await legacy(broker, [(TOPIC, "r1", {})], validate_only=True, version=0) == [(TOPIC, "r1", 0, None)]
    assert broker.logs.topics["r1"].configs == {"segment.ms": "100000"}
    await incremental(broker, [(BROKER, "1", [("max.connections", SET, "300"), ("log.retention.ms", SET, "9")])])
    await legacy(broker, [(BROKER, "1", {"max.connections": "200"})], version=1)
    assert (broker.config.get("max.connections"), broker.config.get("log.retention.ms")) == (200, None)


async def test_legacy_alter_configs_errors(broker):
    await create(broker, "r1", "p2")
    cases = [
        (TOPIC, "r1", {"nope": "1"}),
        (TOPIC, "nope", {"retention.ms": "1"}),
        (TOPIC, "p2", {"retention.ms": "x"}),
        (TOPIC, "p2", {"retention.ms": None}),
        (BROKER, "1", {"num.partitions": "3"}),
        (BROKER, "2", {"max.connections": "3"}),
        (8, "1", {"root": "INFO"}),
        (TOPIC, "", {"retention.ms": "1"}),
        (99, "x", {}),
    ]
    got = [(await legacy(broker, [case], validate_only=True))[0] for case in cases]
    assert [(code, message) for _, _, code, message in got] == [
        (ErrorCode.INVALID_CONFIG, "Unknown topic config name: nope"),
        (ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, "The topic 'nope' does not exist."),
        (ErrorCode.INVALID_CONFIG, "Invalid value x for configuration retention.ms: Not a number of type LONG"),
        (ErrorCode.INVALID_REQUEST, "Null value not supported for : retention.ms"),
        (ErrorCode.INVALID_REQUEST, "Cannot update these configs dynamically: Set(num.partitions)"),
        (ErrorCode.INVALID_REQUEST, "Unexpected broker id, expected 1, but received 2"),
        (ErrorCode.INVALID_REQUEST, "Unknown resource type 8"),
        (ErrorCode.INVALID_REQUEST, "Default topic resources are not allowed."),
        (ErrorCode.INVALID_REQUEST, "Unknown resource type 99"),
    ]


async def test_config_resource_extension_point(broker, monkeypatch):
    """A registered GROUP resource is served by all three handlers."""

    class FakeGroups:
        def __init__(self) -> None:
            self.values: dict[str, dict[str, str]] = {}

        def describe(self, broker, name, keys, synonyms, documentation):
            from broker.config import ConfigEntry, ConfigSource, ConfigType

            return [
                ConfigEntry(k, v, ConfigSource.GROUP_CONFIG, False, False, ConfigType.STRING, None)
                for k, v in sorted(self.values.get(name, {}).items())
                if keys is None or k in keys
            ]

        def current(self, broker, name):
            return dict(self.values.get(name, {}))

        def list_default(self, broker, key, op):
            return ""

        def alter(self, broker, name, set_, delete, validate_only):
            if not validate_only:
                new = {**self.values.get(name, {}), **set_}
                for k in delete:
                    new.pop(k, None)
                self.values[name] = new

    monkeypatch.setitem(CONFIG_RESOURCES, GROUP, None)
    groups = FakeGroups()
    register_config_resource(GROUP, groups)
    assert await incremental(broker, [(GROUP, "g", [("share.auto.offset.reset", SET, "earliest")])]) == [
        (GROUP, "g", 0, None)
    ]
    (res,) = await describe_configs(broker, [(GROUP, "g", None)])
    assert [(c.name, c.value, c.config_source) for c in res.configs] == [("share.auto.offset.reset", "earliest", 8)]
    await legacy(broker, [(GROUP, "g", {"share.isolation.level": "read_committed"})])
    assert groups.values["g"] == {"share.isolation.level": "read_committed"}
