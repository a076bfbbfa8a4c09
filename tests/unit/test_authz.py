"""ACL enforcement in the dispatcher (broker/server/authz/), on real services.

Requests are encoded by the client side of the sans-IO protocol, decoded by the
server side, dispatched (authorization, handler, merge) and the answer decoded
again, exactly the path a connection takes, with a chosen principal.
"""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys
import typing
import uuid
from pathlib import Path

import pytest

from broker.handlers import HANDLERS, ROUTES
from broker.handlers.context import ConnectionState, RequestContext
from broker.protocol.api_keys import ApiKey
from broker.protocol.auth import KafkaPrincipal
from broker.protocol.connection import ClientConnection, Request, Response, ServerConnection
from broker.protocol.errors import ErrorCode as E
from broker.protocol.messages import REQUESTS
from broker.protocol.messages.alter_user_scram_credentials_request import (
    AlterUserScramCredentialsRequest,
    ScramCredentialDeletion,
    ScramCredentialUpsertion,
)
from broker.protocol.messages.create_acls_request import AclCreation, CreateAclsRequest
from broker.protocol.messages.create_topics_request import CreatableTopic, CreateTopicsRequest
from broker.protocol.messages.delete_acls_request import DeleteAclsFilter, DeleteAclsRequest
from broker.protocol.messages.delete_groups_request import DeleteGroupsRequest
from broker.protocol.messages.describe_configs_request import DescribeConfigsRequest, DescribeConfigsResource
from broker.protocol.messages.describe_groups_request import DescribeGroupsRequest
from broker.protocol.messages.describe_share_group_offsets_request import (
    DescribeShareGroupOffsetsRequest,
    DescribeShareGroupOffsetsRequestGroup,
    DescribeShareGroupOffsetsRequestTopic,
)
from broker.protocol.messages.fetch_request import FetchPartition as FollowerFetchPartition
from broker.protocol.messages.fetch_request import FetchRequest, ReplicaState
from broker.protocol.messages.fetch_request import FetchTopic as FollowerFetchTopic
from broker.protocol.messages.find_coordinator_request import FindCoordinatorRequest
from broker.protocol.messages.init_producer_id_request import InitProducerIdRequest
from broker.protocol.messages.list_groups_request import ListGroupsRequest
from broker.protocol.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from broker.protocol.messages.offset_fetch_request import (
    OffsetFetchRequest,
    OffsetFetchRequestGroup,
    OffsetFetchRequestTopics,
)
from broker.protocol.messages.offset_for_leader_epoch_request import (
    OffsetForLeaderEpochRequest,
    OffsetForLeaderPartition,
    OffsetForLeaderTopic,
)
from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from broker.protocol.messages.share_fetch_request import (
    AcknowledgementBatch,
    FetchPartition,
    FetchTopic,
    ShareFetchRequest,
)
from broker.protocol.messages.share_group_heartbeat_request import ShareGroupHeartbeatRequest
from broker.protocol.messages.streams_group_describe_request import StreamsGroupDescribeRequest
from broker.protocol.messages.streams_group_heartbeat_request import StreamsGroupHeartbeatRequest, Subtopology
from broker.protocol.messages.streams_group_heartbeat_request import Topology as StreamsTopology
from broker.protocol.records import build_batch
from broker.security.authorizer import AclBinding, AclOperation, AclPermissionType, PatternType, ResourceType
from broker.server import authz
from broker.server.authz import NO_ACL_APIS, RULES, RULES_BY_REQUEST
from broker.server.dispatch import Deferred, dispatch
from tests.services import running

AUTHORIZER = {
    "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
    "super.users": "User:admin",
}
O, R, P = AclOperation, ResourceType, PatternType


def allow(rt: ResourceType, name: str, op: AclOperation, who: str = "User:alice", pattern=P.LITERAL) -> AclBinding:
    return AclBinding(rt, name, pattern, who, "*", op, AclPermissionType.ALLOW)


def deny(rt: ResourceType, name: str, op: AclOperation, who: str = "User:alice", pattern=P.LITERAL) -> AclBinding:
    return AclBinding(rt, name, pattern, who, "*", op, AclPermissionType.DENY)


class Client:
    """One 'connection' of a principal to the in-process services."""

    def __init__(self, services, principal: str = "User:alice") -> None:
        self.services = services
        self.state = ConnectionState(1, "127.0.0.1:1", listener="PLAINTEXT", host="127.0.0.1")
        self.state.principal = KafkaPrincipal.parse(principal)
        self.client = ClientConnection()
        self.server = ServerConnection()

    async def __call__(self, message, version: int):
        _, frame = self.client.encode_request(message, version)
        self.server.receive_data(bytes(frame))
        event = self.server.next_event()
        assert isinstance(event, Request)
        ctx = RequestContext(self.services, self.state, event.header, event.api_version)
        reply = await dispatch(ctx, self.server, event)
        if isinstance(reply, Deferred):
            reply = await reply.finish()
        assert reply is not None and reply is not False, reply
        # A frame may come in pieces (large records sent from where they are).
        self.client.receive_data(b"".join(bytes(piece) for piece in reply) if isinstance(reply, list) else bytes(reply))
        answer = self.client.next_event()
        assert isinstance(answer, Response), answer
        return answer.body


@pytest.fixture
async def services(tmp_path):
    async with running(tmp_path, AUTHORIZER) as s:
        for t in ("orders", "payments", "pub-a", "pub-b"):
            await s.metadata.create_topic(t, 1, 1, {})
        yield s


def acls(services, *bindings: AclBinding) -> None:
    services.security.acls.replace(bindings)


def test_every_served_api_has_a_rule():
    missing = [ApiKey(k).name for k in ROUTES if k not in RULES and k not in NO_ACL_APIS]
    assert not missing, f"APIs served without an authorization rule: {missing}"


async def test_offset_for_leader_epoch_consumers_per_topic_followers_by_cluster_action(services):
    acls(services, allow(R.TOPIC, "orders", O.DESCRIBE))
    call = Client(services)

    def ask(replica_id: int) -> OffsetForLeaderEpochRequest:
        return OffsetForLeaderEpochRequest(
            replica_id=replica_id,
            topics=[
                OffsetForLeaderTopic(topic=t, partitions=[OffsetForLeaderPartition(partition=0, leader_epoch=0)])
                for t in ("orders", "payments")
            ],
        )

    resp = await call(ask(-1), 4)
    codes = {t.topic: t.partitions[0].error_code for t in resp.topics}
    assert codes == {"orders": 0, "payments": E.TOPIC_AUTHORIZATION_FAILED}
    resp = await call(ask(2), 4)  # a follower: CLUSTER_ACTION, which nobody was given
    assert {t.partitions[0].error_code for t in resp.topics} == {E.CLUSTER_AUTHORIZATION_FAILED}


async def test_produce_per_topic_and_transactional_id(services):
    acls(services, allow(R.TOPIC, "orders", O.WRITE), allow(R.TOPIC, "pub-", O.WRITE, pattern=P.PREFIXED))
    call = Client(services)
    batch = build_batch([(b"k", b"v", [], None)])

    def produce(*topics: str, txn: str | None = None) -> ProduceRequest:
        return ProduceRequest(
            transactional_id=txn,
            acks=1,
            timeout_ms=5000,
            topic_data=[
                TopicProduceData(name=t, partition_data=[PartitionProduceData(index=0, records=batch)]) for t in topics
            ],
        )

    resp = await call(produce("orders", "payments", "pub-a", "unknown-topic"), 9)
    codes = {t.name: t.partition_responses[0].error_code for t in resp.responses}
    assert codes == {
        "orders": 0,
        "pub-a": 0,
        "payments": E.TOPIC_AUTHORIZATION_FAILED,
        "unknown-topic": E.TOPIC_AUTHORIZATION_FAILED,  # existence is not disclosed
    }
    txn_batch = build_batch(
        [(b"k", b"v", [], None)], producer_id=5, producer_epoch=0, base_sequence=0, transactional=True
    )
    req = produce("orders", txn="tx-1")
    req.topic_data[0].partition_data[0].records = txn_batch
    resp = await call(req, 9)
    assert resp.responses[0].partition_responses[0].error_code == E.TRANSACTIONAL_ID_AUTHORIZATION_FAILED


async def test_metadata_listing_explicit_auto_create_and_operations(services):
    acls(
        services,
        allow(R.TOPIC, "orders", O.READ),
        allow(R.TOPIC, "pub-", O.DESCRIBE, pattern=P.PREFIXED),
        deny(R.TOPIC, "pub-b", O.DESCRIBE),
        allow(R.TOPIC, "new-", O.CREATE, pattern=P.PREFIXED),
        allow(R.TOPIC, "new-", O.DESCRIBE, pattern=P.PREFIXED),
        allow(R.TOPIC, "nope", O.DESCRIBE),
    )
    call = Client(services)
    listed = await call(MetadataRequest(topics=None, include_topic_authorized_operations=True), 12)
    assert sorted(t.name for t in listed.topics) == ["orders", "pub-a"]  # DENY wins over the prefix ALLOW
    ops = {t.name: t.topic_authorized_operations for t in listed.topics}
    assert ops["orders"] == (1 << O.READ) | (1 << O.DESCRIBE)
    asked = await call(
        MetadataRequest(
            topics=[MetadataRequestTopic(name=n) for n in ("payments", "orders", "new-one", "nope")],
            allow_auto_topic_creation=True,
        ),
        12,
    )
    codes = {t.name: t.error_code for t in asked.topics}
    assert codes["payments"] == E.TOPIC_AUTHORIZATION_FAILED
    assert codes["orders"] == 0
    assert codes["nope"] == E.TOPIC_AUTHORIZATION_FAILED  # may describe, may not create
    assert codes["new-one"] in (0, E.LEADER_NOT_AVAILABLE)  # created
    assert services.metadata.image.topic("new-one") is not None
    assert services.metadata.image.topic("nope") is None


async def test_super_user_and_allow_everyone(services, tmp_path):
    call = Client(services, "User:admin")
    listed = await call(MetadataRequest(topics=None), 12)
    assert {"orders", "payments"} <= {t.name for t in listed.topics}
    services.security.acls.allow_everyone_if_no_acl_found = True
    acls(services, allow(R.TOPIC, "orders", O.READ, who="User:bob"))
    listed = await Client(services)(MetadataRequest(topics=None), 12)
    names = {t.name for t in listed.topics}
    assert "payments" in names and "orders" not in names  # an ACL names orders, so the default no longer applies


async def test_share_fetch_group_and_topic(services):
    orders = services.metadata.image.topic("orders").topic_id
    payments = services.metadata.image.topic("payments").topic_id
    call = Client(services)
    req = ShareFetchRequest(
        group_id="workers",
        member_id=str(uuid.uuid4()),
        share_session_epoch=0,
        max_wait_ms=0,
        max_records=10,
        batch_size=10,
        topics=[FetchTopic(topic_id=orders, partitions=[FetchPartition(partition_index=0)])],
    )
    resp = await call(req, 1)
    assert resp.error_code == E.GROUP_AUTHORIZATION_FAILED and not resp.responses
    acls(services, allow(R.GROUP, "workers", O.READ), allow(R.TOPIC, "orders", O.READ))
    req.topics.append(
        FetchTopic(
            topic_id=payments,
            partitions=[FetchPartition(partition_index=0, acknowledgement_batches=[AcknowledgementBatch(0, 0, [1])])],
        )
    )
    resp = await call(req, 1)
    assert resp.error_code == 0
    by_id = {t.topic_id: t.partitions[0] for t in resp.responses}
    assert by_id[payments].error_code == E.TOPIC_AUTHORIZATION_FAILED
    assert by_id[payments].acknowledge_error_code == E.TOPIC_AUTHORIZATION_FAILED
    assert by_id[payments].records == b""
    assert orders not in by_id or by_id[orders].error_code == 0


async def test_share_group_heartbeat(services):
    call = Client(services)
    req = ShareGroupHeartbeatRequest(
        group_id="workers", member_id=str(uuid.uuid4()), member_epoch=0, subscribed_topic_names=["orders"]
    )
    assert (await call(req, 1)).error_code == E.GROUP_AUTHORIZATION_FAILED
    acls(services, allow(R.GROUP, "workers", O.READ))
    assert (await call(req, 1)).error_code == E.TOPIC_AUTHORIZATION_FAILED
    acls(services, allow(R.GROUP, "workers", O.READ), allow(R.TOPIC, "orders", O.DESCRIBE))
    assert (await call(req, 1)).error_code == 0


async def test_groups_coordinators_and_configs(services):
    acls(
        services,
        allow(R.GROUP, "g-", O.DESCRIBE, pattern=P.PREFIXED),
        allow(R.GROUP, "g-del", O.DELETE),
        allow(R.TOPIC, "orders", O.DESCRIBE_CONFIGS),
    )
    call = Client(services)
    described = await call(DescribeGroupsRequest(groups=["g-1", "other"], include_authorized_operations=True), 5)
    codes = {g.group_id: g.error_code for g in described.groups}
    assert codes["other"] == E.GROUP_AUTHORIZATION_FAILED and codes["g-1"] == 0
    g1 = next(g for g in described.groups if g.group_id == "g-1")
    assert g1.authorized_operations == 1 << O.DESCRIBE
    found = await call(FindCoordinatorRequest(key_type=0, coordinator_keys=["g-1", "other"]), 4)
    codes = {c.key: c.error_code for c in found.coordinators}
    assert codes["other"] == E.GROUP_AUTHORIZATION_FAILED
    assert codes["g-1"] != E.GROUP_AUTHORIZATION_FAILED
    deleted = await call(DeleteGroupsRequest(groups_names=["g-del", "g-1"]), 2)
    assert {r.group_id: r.error_code for r in deleted.results} == {
        "g-del": E.GROUP_ID_NOT_FOUND,
        "g-1": E.GROUP_AUTHORIZATION_FAILED,
    }
    assert (await call(ListGroupsRequest(), 4)).error_code == 0
    configs = await call(
        DescribeConfigsRequest(
            resources=[
                DescribeConfigsResource(resource_type=2, resource_name="orders", configuration_keys=["retention.ms"]),
                DescribeConfigsResource(resource_type=2, resource_name="payments", configuration_keys=None),
                DescribeConfigsResource(resource_type=4, resource_name="1", configuration_keys=None),
                DescribeConfigsResource(resource_type=32, resource_name="g-1", configuration_keys=None),
            ]
        ),
        4,
    )
    assert {(r.resource_type, r.resource_name): r.error_code for r in configs.results} == {
        (2, "orders"): 0,
        (2, "payments"): E.TOPIC_AUTHORIZATION_FAILED,
        (4, "1"): E.CLUSTER_AUTHORIZATION_FAILED,
        (32, "g-1"): E.GROUP_AUTHORIZATION_FAILED,
    }


async def test_offset_fetch_per_group_and_topic(services):
    acls(services, allow(R.GROUP, "mine", O.DESCRIBE), allow(R.TOPIC, "orders", O.DESCRIBE))
    resp = await Client(services)(
        OffsetFetchRequest(
            groups=[
                OffsetFetchRequestGroup(
                    group_id="mine",
                    topics=[
                        OffsetFetchRequestTopics(name="orders", partition_indexes=[0]),
                        OffsetFetchRequestTopics(name="payments", partition_indexes=[0]),
                    ],
                ),
                OffsetFetchRequestGroup(group_id="theirs", topics=None),
            ]
        ),
        9,
    )
    groups = {g.group_id: g for g in resp.groups}
    assert groups["theirs"].error_code == E.GROUP_AUTHORIZATION_FAILED
    topics = {t.name: t.partitions[0].error_code for t in groups["mine"].topics}
    assert topics == {"orders": 0, "payments": E.TOPIC_AUTHORIZATION_FAILED}


async def test_cluster_level_apis(services):
    call = Client(services)
    created = await call(
        CreateTopicsRequest(topics=[CreatableTopic(name="fresh", num_partitions=1, replication_factor=1)]), 7
    )
    assert created.topics[0].error_code == E.TOPIC_AUTHORIZATION_FAILED
    acls(services, allow(R.TOPIC, "fresh", O.CREATE))
    created = await call(
        CreateTopicsRequest(topics=[CreatableTopic(name="fresh", num_partitions=1, replication_factor=1)]), 7
    )
    assert created.topics[0].error_code == 0
    assert created.topics[0].topic_config_error_code == E.TOPIC_AUTHORIZATION_FAILED  # no DESCRIBE_CONFIGS
    acl_req = CreateAclsRequest(
        creations=[
            AclCreation(
                resource_type=2,
                resource_name="x",
                resource_pattern_type=3,
                principal="User:x",
                host="*",
                operation=3,
                permission_type=3,
            )
        ]
    )
    assert (await call(acl_req, 3)).results[0].error_code == E.CLUSTER_AUTHORIZATION_FAILED
    assert (await Client(services, "User:admin")(acl_req, 3)).results[0].error_code == 0
    # Idempotent producers: IDEMPOTENT_WRITE on the cluster, or WRITE on any topic.
    assert (await call(InitProducerIdRequest(transactional_id=None), 4)).error_code == E.CLUSTER_AUTHORIZATION_FAILED
    acls(services, allow(R.TOPIC, "pub-", O.WRITE, pattern=P.PREFIXED))
    assert (await call(InitProducerIdRequest(transactional_id=None), 4)).error_code == 0
    assert (
        await call(InitProducerIdRequest(transactional_id="tx", transaction_timeout_ms=1000), 4)
    ).error_code == E.TRANSACTIONAL_ID_AUTHORIZATION_FAILED


def test_every_served_api_has_a_rule_for_its_request_class():
    """The rules are keyed by the generated request class; every API the broker serves needs one."""
    missing = [REQUESTS[k].__name__ for k in HANDLERS if k not in NO_ACL_APIS and REQUESTS[k] not in RULES_BY_REQUEST]
    assert not missing, f"request classes without an authorization rule: {missing}"
    assert {cls.API_KEY for cls in RULES_BY_REQUEST} == set(RULES)


def test_each_rule_takes_its_request_class():
    """A rule is typed against the class it is registered for (or a protocol that class meets,
    or a type variable a typed rule factory binds to it), so mypy checks the fields it reads;
    never Any or another API's class."""
    wrong = []
    for cls, fn in RULES_BY_REQUEST.items():
        body = list(inspect.signature(fn).parameters)[1]
        hint = typing.get_type_hints(fn)[body]
        if hint is not cls and not getattr(hint, "_is_protocol", False) and not isinstance(hint, typing.TypeVar):
            wrong.append(f"{cls.__name__}: {fn.__qualname__} takes {hint}")
    assert not wrong, wrong


def test_rules_read_fields_by_type_never_by_name():
    """No field of a message is looked up by a string in the rules (mypy could not check it)."""
    found = []
    for path in sorted(Path(authz.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name | ast.Attribute):
                name = node.func.id if isinstance(node.func, ast.Name) else node.func.attr
                if name in ("getattr", "setattr", "hasattr", "delattr", "fields", "asdict"):
                    found.append(f"{path.name}:{node.lineno} {name}")
    assert not found, found


async def test_follower_fetch_needs_cluster_action(services):
    orders = services.metadata.image.topic("orders").topic_id
    req = FetchRequest(
        replica_state=ReplicaState(replica_id=2, replica_epoch=1),
        max_wait_ms=0,
        topics=[FollowerFetchTopic(topic="orders", topic_id=orders, partitions=[FollowerFetchPartition(partition=0)])],
    )
    resp = await Client(services)(req, 15)
    assert resp.error_code == 0
    parts = [p for t in resp.responses for p in t.partitions]
    assert [p.error_code for p in parts] == [E.TOPIC_AUTHORIZATION_FAILED]
    assert parts[0].records == b""
    resp = await Client(services, "User:admin")(req, 15)
    assert [p.error_code for t in resp.responses for p in t.partitions] != [E.TOPIC_AUTHORIZATION_FAILED]


async def test_refused_acl_and_scram_changes_answer_each_entry(services):
    call = Client(services)
    deleted = await call(DeleteAclsRequest(filters=[DeleteAclsFilter(), DeleteAclsFilter()]), 3)
    assert [r.error_code for r in deleted.filter_results] == [E.CLUSTER_AUTHORIZATION_FAILED] * 2
    scram = await call(
        AlterUserScramCredentialsRequest(
            deletions=[ScramCredentialDeletion(name="bob", mechanism=1)],
            upsertions=[ScramCredentialUpsertion(name="carol", mechanism=1, iterations=4096)],
        ),
        0,
    )
    assert {r.user: r.error_code for r in scram.results} == {
        "bob": E.CLUSTER_AUTHORIZATION_FAILED,
        "carol": E.CLUSTER_AUTHORIZATION_FAILED,
    }


async def test_describe_share_group_offsets_per_group_and_topic(services):
    acls(services, allow(R.GROUP, "mine", O.DESCRIBE), allow(R.TOPIC, "orders", O.DESCRIBE))
    resp = await Client(services)(
        DescribeShareGroupOffsetsRequest(
            groups=[
                DescribeShareGroupOffsetsRequestGroup(
                    group_id="mine",
                    topics=[
                        DescribeShareGroupOffsetsRequestTopic(topic_name="orders", partitions=[0]),
                        DescribeShareGroupOffsetsRequestTopic(topic_name="payments", partitions=[0]),
                    ],
                ),
                DescribeShareGroupOffsetsRequestGroup(group_id="theirs", topics=None),
            ]
        ),
        1,
    )
    groups = {g.group_id: g for g in resp.groups}
    assert groups["theirs"].error_code == E.GROUP_AUTHORIZATION_FAILED
    codes = {t.topic_name: t.partitions[0].error_code for t in groups["mine"].topics}
    assert codes["payments"] == E.TOPIC_AUTHORIZATION_FAILED
    assert codes["orders"] != E.TOPIC_AUTHORIZATION_FAILED


async def test_streams_group_describe_needs_describe_on_every_topology_topic(services):
    """As Kafka 4.4: a streams group whose topology names a topic the principal may not
    describe is answered TOPIC_AUTHORIZATION_FAILED with no members and no topology."""
    admin = Client(services, "User:admin")
    topology = StreamsTopology(epoch=0, subtopologies=[Subtopology(subtopology_id="0", source_topics=["orders"])])
    for app, topo in (("app-orders", topology), ("app-pub", StreamsTopology(epoch=0, subtopologies=[]))):
        joined = await admin(
            StreamsGroupHeartbeatRequest(
                group_id=app,
                member_id=f"{app}-m1",
                member_epoch=0,
                rebalance_timeout_ms=5000,
                topology=topo,
                process_id="p1",
                active_tasks=[],
                standby_tasks=[],
                warmup_tasks=[],
            ),
            0,
        )
        assert joined.error_code == 0, joined
    acls(services, allow(R.GROUP, "app-", O.DESCRIBE, pattern=P.PREFIXED))
    resp = await Client(services)(
        StreamsGroupDescribeRequest(group_ids=["app-orders", "app-pub"], include_authorized_operations=True), 0
    )
    groups = {g.group_id: g for g in resp.groups}
    denied = groups["app-orders"]
    assert (denied.error_code, denied.members, denied.topology) == (E.TOPIC_AUTHORIZATION_FAILED, [], None)
    assert denied.error_message == "The described group uses topics that the client is not authorized to describe."
    assert groups["app-pub"].error_code == 0
    assert groups["app-pub"].authorized_operations == 1 << O.DESCRIBE
    acls(services, allow(R.GROUP, "app-", O.DESCRIBE, pattern=P.PREFIXED), allow(R.TOPIC, "orders", O.DESCRIBE))
    resp = await Client(services)(StreamsGroupDescribeRequest(group_ids=["app-orders"]), 0)
    assert resp.groups[0].error_code == 0 and resp.groups[0].topology is not None


def test_the_rules_are_not_loaded_by_a_broker_without_an_authorizer():
    """Importing the rules imports about a hundred generated message modules: the serving
    path of a broker with no authorizer (dispatcher, server, app) must not pay for them."""
    code = (
        "import sys, broker.server, broker.server.dispatch, broker.server.app, broker.handlers;"
        "print('broker.server.authz' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "False", out.stdout + out.stderr
