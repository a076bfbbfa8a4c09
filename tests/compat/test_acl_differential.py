"""ACL decisions compared with Apache Kafka 4.4.0 (StandardAuthorizer), same requests, same codes.

Both brokers run the StandardAuthorizer with ``allow.everyone.if.no.acl.found`` at its
default (false), a PLAINTEXT listener whose ANONYMOUS principal is a super user (the
setup: topics, group configs and ACLs through the confluent-kafka admin client) and a
SASL_PLAINTEXT listener (PLAIN) where the test principals send raw requests. Each
scenario grants a few ACLs to a fresh user and returns the error codes a client sees:
a producer without WRITE, a transactional id without WRITE, a share consumer without
READ on the group and without READ on the topic, prefixed ACLs, DENY over ALLOW.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest
from confluent_kafka.admin import AclBinding, AclOperation, AclPermissionType, ResourcePatternType, ResourceType

from bench.peers import KafkaPeer, free_port
from broker.protocol.errors import ErrorCode
from broker.protocol.messages import streams_group_heartbeat_request as sq
from broker.protocol.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from broker.protocol.messages.describe_cluster_request import DescribeClusterRequest
from broker.protocol.messages.find_coordinator_request import FindCoordinatorRequest
from broker.protocol.messages.init_producer_id_request import InitProducerIdRequest
from broker.protocol.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from broker.protocol.records import build_batch
from broker.security.client import ClientSecurity
from tests.compat.differential import (
    err,
    fetch,
    find_coordinator,
    heartbeat,
    join,
    member_id,
    set_group_configs,
    topic_id,
)
from tests.integration.clients import admin, create_topic
from tests.integration.wire import WireClient

AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer"
USERS = ("alice", "bob", "carol", "dave", "erin", "frank", "grace", "henry", "ivy", "jack")
JAAS = "org.apache.kafka.common.security.plain.PlainLoginModule required " + " ".join(
    f'user_{u}="{u}-secret"' for u in USERS
)


class Broker:
    def __init__(self, admin_bootstrap: str, sasl_bootstrap: str) -> None:
        self.admin = admin_bootstrap
        self.sasl = sasl_bootstrap

    def client(self, user: str) -> WireClient:
        security = ClientSecurity.from_properties(
            {
                "security.protocol": "SASL_PLAINTEXT",
                "sasl.mechanism": "PLAIN",
                "sasl.jaas.config": f'x required username="{user}" password="{user}-secret";',
            }
        )
        return WireClient(self.sasl, security=security)

    def grant(self, *bindings: AclBinding) -> None:
        client = admin(self.admin)  # must outlive the futures
        for f in client.create_acls(list(bindings)).values():
            f.result(15)
        time.sleep(0.5)  # Kafka's authorizer learns of new ACLs from the metadata log


def acl(
    principal: str,
    rtype: ResourceType,
    name: str,
    op: AclOperation,
    *,
    deny: bool = False,
    pattern: ResourcePatternType = ResourcePatternType.LITERAL,
) -> AclBinding:
    return AclBinding(
        rtype,
        name,
        pattern,
        f"User:{principal}",
        "*",
        op,
        AclPermissionType.DENY if deny else AclPermissionType.ALLOW,
    )


@pytest.fixture(scope="module")
def kafka():
    why = KafkaPeer.available()
    if why:
        pytest.skip(f"Kafka peer unavailable: {why}")
    secure = free_port()
    peer = KafkaPeer()
    p = peer.port
    peer.extra_config = "\n".join(
        [
            f"listeners=CLIENT://127.0.0.1:{p},INTERNAL://127.0.0.1:{p + 2},CONTROLLER://127.0.0.1:{p + 1},"
            f"SECURE://127.0.0.1:{secure}",
            f"advertised.listeners=CLIENT://127.0.0.1:{p},INTERNAL://127.0.0.1:{p + 2},SECURE://127.0.0.1:{secure}",
            "listener.security.protocol.map=CLIENT:PLAINTEXT,INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT,"
            "SECURE:SASL_PLAINTEXT",
            "listener.name.secure.sasl.enabled.mechanisms=PLAIN",
            f"listener.name.secure.plain.sasl.jaas.config={JAAS};",
            f"authorizer.class.name={AUTHORIZER}",
            "super.users=User:ANONYMOUS",
            "",
        ]
    )
    try:
        peer.start()
    except Exception as e:
        peer.stop()
        pytest.skip(f"Kafka peer did not start: {e}")
    yield Broker(peer.bootstrap, f"127.0.0.1:{secure}")
    peer.stop()
    peer._tmp.cleanup()


@pytest.fixture(scope="module")
def sb(sharebroker_factory):
    broker = sharebroker_factory(
        {
            "listeners": "PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0",
            "listener.name.sasl_plaintext.sasl.enabled.mechanisms": "PLAIN",
            "listener.name.sasl_plaintext.plain.sasl.jaas.config": f"{JAAS};",
            "authorizer.class.name": AUTHORIZER,
            "super.users": "User:ANONYMOUS",
            "group.share.min.record.lock.duration.ms": "1000",
        }
    )
    return Broker(broker.address("PLAINTEXT"), broker.address("SASL_PLAINTEXT"))


def compare(scenario: Callable[[Broker], dict], kafka: Broker, sb: Broker) -> dict:
    k, s = scenario(kafka), scenario(sb)
    assert k == s, f"{scenario.__name__}: kafka {k} vs sharebroker {s}"
    print(f"{scenario.__name__}: {k}")
    return k


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def produce_code(w: WireClient, topic: str) -> str:
    batch = build_batch([(b"k", b"v", [], None)])
    resp = w.request(
        ProduceRequest(
            acks=-1,
            timeout_ms=10000,
            topic_data=[TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=0, records=batch)])],
        ),
        9,
    )
    return err(resp.responses[0].partition_responses[0].error_code)


# ------------------------------------------------------------------ scenarios


def sc_producer_without_write(b: Broker) -> dict:
    topic = unique("acl-w")
    create_topic(b.admin, topic)
    out = {}
    with b.client("alice") as w:
        out["no_acl"] = produce_code(w, topic)
    b.grant(acl("alice", ResourceType.TOPIC, topic, AclOperation.DESCRIBE))
    with b.client("alice") as w:
        out["describe_only"] = produce_code(w, topic)
    b.grant(acl("alice", ResourceType.TOPIC, topic, AclOperation.WRITE))
    with b.client("alice") as w:
        out["write"] = produce_code(w, topic)
    return out


def sc_transactional_id_without_write(b: Broker) -> dict:
    txn = unique("acl-tx")
    out = {}

    def attempt() -> tuple[str, str]:
        with b.client("bob") as w:
            # A first FindCoordinator may find the transaction log still being created
            # (Kafka answers COORDINATOR_NOT_AVAILABLE meanwhile): clients retry it, so do we.
            deadline = time.monotonic() + 30
            while True:
                fc = w.request(FindCoordinatorRequest(key_type=1, coordinator_keys=[txn]), 4).coordinators[0]
                if fc.error_code != ErrorCode.COORDINATOR_NOT_AVAILABLE or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
            init = w.request(
                InitProducerIdRequest(
                    transactional_id=txn, transaction_timeout_ms=60000, producer_id=-1, producer_epoch=-1
                ),
                4,
            )
            return err(fc.error_code), err(init.error_code)

    out["none"] = attempt()
    b.grant(acl("bob", ResourceType.TRANSACTIONAL_ID, txn, AclOperation.DESCRIBE))
    out["describe_only"] = attempt()
    return out


def sc_share_consumer_without_group_read(b: Broker) -> dict:
    topic, group = unique("acl-s"), unique("acl-sg")
    create_topic(b.admin, topic)
    b.grant(acl("carol", ResourceType.TOPIC, topic, AclOperation.READ))
    with b.client("carol") as w:
        fc = w.request(FindCoordinatorRequest(key_type=0, coordinator_keys=[group]), 4).coordinators[0]
        hb = heartbeat(w, group, member_id(), 0, [topic])
    return {"find_coordinator": err(fc.error_code), "heartbeat": err(hb.error_code)}


def sc_share_consumer_without_topic_read(b: Broker) -> dict:
    topic, group = unique("acl-s"), unique("acl-sg")
    create_topic(b.admin, topic)
    set_group_configs(b.admin, group, {"share.auto.offset.reset": "earliest"})
    with WireClient(b.admin) as su:
        tid = topic_id(su, topic)
    b.grant(acl("dave", ResourceType.GROUP, group, AclOperation.READ))
    out: dict[str, Any] = {}
    with b.client("dave") as w:
        find_coordinator(w, group)
        out["heartbeat_no_topic_acl"] = err(heartbeat(w, group, member_id(), 0, [topic]).error_code)
    b.grant(acl("dave", ResourceType.TOPIC, topic, AclOperation.DESCRIBE))
    member = member_id()
    with b.client("dave") as w:
        join(w, group, member, [topic])  # asserts the heartbeats succeed and the partition is assigned
        resp = fetch(w, group, member, 0, tid)
        codes = {err(resp.error_code)} | {err(p.error_code) for t in resp.responses for p in t.partitions}
        out["share_fetch_without_read"] = sorted(codes)
    return out


def sc_prefixed(b: Broker) -> dict:
    prefix = unique("pfx")
    mine, other = f"{prefix}-a", unique("other")
    create_topic(b.admin, mine)
    create_topic(b.admin, other)
    b.grant(acl("erin", ResourceType.TOPIC, prefix, AclOperation.WRITE, pattern=ResourcePatternType.PREFIXED))
    with b.client("erin") as w:
        return {"under_prefix": produce_code(w, mine), "elsewhere": produce_code(w, other)}


def sc_deny_over_allow(b: Broker) -> dict:
    prefix = unique("deny")
    topic = f"{prefix}-t"
    create_topic(b.admin, topic)
    b.grant(
        acl("frank", ResourceType.TOPIC, topic, AclOperation.WRITE),
        acl("frank", ResourceType.TOPIC, prefix, AclOperation.WRITE, deny=True, pattern=ResourcePatternType.PREFIXED),
        acl("grace", ResourceType.TOPIC, topic, AclOperation.ALL),
        acl("grace", ResourceType.TOPIC, topic, AclOperation.WRITE, deny=True),
    )
    with b.client("frank") as w:
        frank = produce_code(w, topic)
    with b.client("grace") as w:
        grace = produce_code(w, topic)
    return {"prefixed_deny_literal_allow": frank, "literal_deny_all_allow": grace}


def sc_authorized_operations(b: Broker) -> dict:
    topic, hidden = unique("acl-ops"), unique("acl-hidden")
    create_topic(b.admin, topic)
    create_topic(b.admin, hidden)
    b.grant(
        acl("henry", ResourceType.TOPIC, topic, AclOperation.READ),
        acl("henry", ResourceType.TOPIC, topic, AclOperation.ALTER_CONFIGS),
    )
    with b.client("henry") as w:
        md = w.request(
            MetadataRequest(
                topics=[MetadataRequestTopic(name=topic), MetadataRequestTopic(name=hidden)],
                allow_auto_topic_creation=False,
                include_topic_authorized_operations=True,
            ),
            12,
        )
        cluster = w.request(DescribeClusterRequest(include_cluster_authorized_operations=True), 1)
    topics = {t.name: (err(t.error_code), t.topic_authorized_operations) for t in md.topics}
    return {
        "granted": topics[topic],
        "hidden": topics[hidden],
        "cluster": (err(cluster.error_code), cluster.cluster_authorized_operations),
    }


def consumer_heartbeat(w: WireClient, group: str, topic: str) -> str:
    resp = w.request(
        ConsumerGroupHeartbeatRequest(
            group_id=group,
            member_id=member_id(),
            member_epoch=0,
            rebalance_timeout_ms=30000,
            subscribed_topic_names=[topic],
            topic_partitions=[],
        ),
        0,
    )
    return err(resp.error_code)


def streams_heartbeat(w: WireClient, group: str, topic: str) -> tuple[str, list[int], bool]:
    topology = sq.Topology(
        epoch=0,
        subtopologies=[
            sq.Subtopology(
                subtopology_id="0",
                source_topics=[topic],
                state_changelog_topics=[sq.TopicInfo(name=f"{group}-store-changelog")],
            )
        ],
    )
    resp = w.request(
        sq.StreamsGroupHeartbeatRequest(
            group_id=group,
            member_id=member_id(),
            member_epoch=0,
            rebalance_timeout_ms=30000,
            topology=topology,
            process_id="p1",
            active_tasks=[],
            standby_tasks=[],
            warmup_tasks=[],
        ),
        0,
    )
    create_denied = any("Unauthorized to CREATE on topics" in (st.status_detail or "") for st in resp.status or [])
    return err(resp.error_code), sorted(st.status_code for st in resp.status or []), create_denied


def sc_consumer_and_streams_groups(b: Broker) -> dict:
    topic, group, app = unique("acl-c"), unique("acl-cg"), unique("acl-app")
    create_topic(b.admin, topic)
    out: dict[str, Any] = {}
    with b.client("ivy") as w:
        out["consumer_no_group_acl"] = consumer_heartbeat(w, group, topic)
        out["streams_no_group_acl"] = streams_heartbeat(w, app, topic)[0]
    b.grant(
        acl("ivy", ResourceType.GROUP, group, AclOperation.READ), acl("ivy", ResourceType.GROUP, app, AclOperation.READ)
    )
    with b.client("ivy") as w:
        find_coordinator(w, group)
        find_coordinator(w, app)
        out["consumer_no_topic_acl"] = consumer_heartbeat(w, group, topic)
        out["streams_no_topic_acl"] = streams_heartbeat(w, app, topic)[0]
    b.grant(acl("ivy", ResourceType.TOPIC, topic, AclOperation.DESCRIBE))
    with b.client("ivy") as w:
        out["consumer_describe"] = consumer_heartbeat(w, group, topic)
        out["streams_describe_source"] = streams_heartbeat(w, app, topic)
    b.grant(acl("ivy", ResourceType.TOPIC, app, AclOperation.DESCRIBE, pattern=ResourcePatternType.PREFIXED))
    with b.client("ivy") as w:
        out["streams_describe_internal"] = streams_heartbeat(w, app, topic)
    return out


# ------------------------------------------------------------------ tests


def test_producer_without_write(kafka, sb):
    got = compare(sc_producer_without_write, kafka, sb)
    assert got["no_acl"] == "TOPIC_AUTHORIZATION_FAILED" and got["write"] == "NONE"


def test_transactional_id_without_write(kafka, sb):
    got = compare(sc_transactional_id_without_write, kafka, sb)
    assert got["describe_only"][1] == "TRANSACTIONAL_ID_AUTHORIZATION_FAILED"


def test_share_consumer_without_read_on_the_group(kafka, sb):
    got = compare(sc_share_consumer_without_group_read, kafka, sb)
    assert got["heartbeat"] == "GROUP_AUTHORIZATION_FAILED"


def test_share_consumer_without_read_on_the_topic(kafka, sb):
    got = compare(sc_share_consumer_without_topic_read, kafka, sb)
    assert "TOPIC_AUTHORIZATION_FAILED" in got["share_fetch_without_read"]


def test_prefixed_acls(kafka, sb):
    assert compare(sc_prefixed, kafka, sb) == {"under_prefix": "NONE", "elsewhere": "TOPIC_AUTHORIZATION_FAILED"}


def test_deny_wins_over_allow(kafka, sb):
    got = compare(sc_deny_over_allow, kafka, sb)
    assert set(got.values()) == {"TOPIC_AUTHORIZATION_FAILED"}


def test_authorized_operations_in_metadata_and_describe_cluster(kafka, sb):
    got = compare(sc_authorized_operations, kafka, sb)
    assert got["hidden"][0] == "TOPIC_AUTHORIZATION_FAILED"


def test_consumer_and_streams_group_heartbeats(kafka, sb):
    got = compare(sc_consumer_and_streams_groups, kafka, sb)
    assert got["consumer_no_group_acl"] == got["streams_no_group_acl"] == "GROUP_AUTHORIZATION_FAILED"
    assert got["streams_describe_internal"] == ("NONE", [3, 5], True)  # internal topics: no CREATE
