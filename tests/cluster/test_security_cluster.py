"""ACLs and SCRAM credentials are the cluster's: kept in etcd, enforced by every broker.

Two brokers and etcd on loopback, each with a PLAINTEXT listener (inter-broker traffic,
its ANONYMOUS principal a super user) and a SASL_PLAINTEXT listener (SCRAM-SHA-512 and
PLAIN). A credential and ACLs made through broker 1 authenticate and authorize on
broker 2; an ACL removed through broker 2 stops applying on broker 1. A delegation token
made through broker 1 authenticates on broker 2, renewed there is renewed everywhere,
and expired through broker 2 no longer authenticates on broker 1.
"""

from __future__ import annotations

import base64
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from broker.localcluster import LocalCluster
from broker.protocol.messages.create_delegation_token_request import CreateDelegationTokenRequest
from broker.protocol.messages.describe_delegation_token_request import DescribeDelegationTokenRequest
from broker.protocol.messages.expire_delegation_token_request import ExpireDelegationTokenRequest
from broker.protocol.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from broker.protocol.messages.renew_delegation_token_request import RenewDelegationTokenRequest
from broker.protocol.records import build_batch
from broker.security.client import ClientSecurity
from broker.security.sasl.client import SaslClientError
from tests.cluster.conftest import FAST_SHARE_SETTINGS, wait_for
from tests.integration.wire import WireClient

JAAS = 'org.apache.kafka.common.security.plain.PlainLoginModule required user_admin="admin-secret";'
SETTINGS = {
    **FAST_SHARE_SETTINGS,
    "listeners": "PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0",
    "listener.name.sasl_plaintext.sasl.enabled.mechanisms": "SCRAM-SHA-512,PLAIN",
    "listener.name.sasl_plaintext.plain.sasl.jaas.config": JAAS,
    "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
    "super.users": "User:admin;User:ANONYMOUS",
    "delegation.token.secret.key": "cluster-token-secret",  # the same on every broker
}
TOPIC_AUTHORIZATION_FAILED = 29


@pytest.fixture(scope="module")
def secured() -> Iterator[LocalCluster]:
    with LocalCluster(2, settings=SETTINGS) as c:
        yield c


@pytest.fixture(scope="module")
def admin_config(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("cfg") / "admin.properties"
    path.write_text(
        "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
        'sasl.jaas.config=x required username="admin" password="admin-secret";\n'
    )
    return path


def tool(address: str, admin_config: Path, *args: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "broker", *args, "--bootstrap-server", address, "--command-config", str(admin_config)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def scram(user: str, password: str) -> ClientSecurity:
    return ClientSecurity.from_properties(
        {
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanism": "SCRAM-SHA-512",
            "sasl.jaas.config": f'x required username="{user}" password="{password}";',
        }
    )


def produce_code(address: str, security: ClientSecurity, topic: str) -> int:
    batch = build_batch([(b"k", b"v", [], None)])
    with WireClient(address, security=security) as w:
        resp = w.request(
            ProduceRequest(
                acks=-1,
                timeout_ms=10000,
                topic_data=[
                    TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=0, records=batch)])
                ],
            ),
            9,
        )
    return resp.responses[0].partition_responses[0].error_code


def leader_address(cluster: LocalCluster, topic: str) -> str:
    """The SASL_PLAINTEXT address of the partition's leader."""
    with WireClient(cluster.broker(1).bootstrap) as w:
        md = w.request(MetadataRequest(topics=[MetadataRequestTopic(name=topic)], allow_auto_topic_creation=False), 12)
    leader = md.topics[0].partitions[0].leader_id
    assert leader in (1, 2), md
    return cluster.broker(leader).address("SASL_PLAINTEXT")


def test_credentials_and_acls_made_on_one_broker_apply_on_the_other(secured, admin_config, names):
    b1, b2 = secured.broker(1).address("SASL_PLAINTEXT"), secured.broker(2).address("SASL_PLAINTEXT")
    topic = names("sec")
    tool(b1, admin_config, "topics", "--create", "--topic", topic)
    tool(b1, admin_config, "user-scram", "--alter", "--user", "lee", "--add-config", "SCRAM-SHA-512=[password=lee-pw]")
    leader = wait_for(lambda: leader_address(secured, topic), 20, "a leader")
    # Authenticated (the credential reached broker 2 through etcd) but not yet authorized.
    code = wait_for(lambda: produce_code(b2, scram("lee", "lee-pw"), topic) or None, 20, "a refusal on broker 2")
    assert code == TOPIC_AUTHORIZATION_FAILED
    tool(b1, admin_config, "acls", "--add", "--allow-principal", "User:lee", "--producer", "--topic", topic)
    assert wait_for(lambda: produce_code(leader, scram("lee", "lee-pw"), topic) == 0, 20, "an allowed produce")
    assert "User:lee" in tool(b2, admin_config, "acls", "--list", "--topic", topic)
    # Removed through broker 2: broker 1 refuses again.
    tool(
        b2,
        admin_config,
        "acls",
        "--remove",
        "--force",
        "--allow-principal",
        "User:lee",
        "--producer",
        "--topic",
        topic,
    )
    refused = wait_for(
        lambda: produce_code(b1, scram("lee", "lee-pw"), topic) == TOPIC_AUTHORIZATION_FAILED,
        20,
        "a refusal on broker 1",
    )
    assert refused


def token_security(token_id: str, hmac: bytes) -> ClientSecurity:
    password = base64.b64encode(hmac).decode()
    return ClientSecurity.from_properties(
        {
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanism": "SCRAM-SHA-512",
            "sasl.jaas.config": f'x required username="{token_id}" password="{password}" tokenauth="true";',
        }
    )


def token_authenticates(address: str, token_id: str, hmac: bytes) -> bool:
    try:
        WireClient(address, security=token_security(token_id, hmac)).close()
    except SaslClientError:
        return False
    return True


def test_a_token_made_on_one_broker_authenticates_on_the_other(secured, admin_config, names):
    b1, b2 = secured.broker(1).address("SASL_PLAINTEXT"), secured.broker(2).address("SASL_PLAINTEXT")
    topic = names("tok")
    tool(b1, admin_config, "topics", "--create", "--topic", topic)
    tool(b1, admin_config, "user-scram", "--alter", "--user", "kim", "--add-config", "SCRAM-SHA-512=[password=kim-pw]")
    tool(b1, admin_config, "acls", "--add", "--allow-principal", "User:kim", "--producer", "--topic", topic)
    leader = wait_for(lambda: leader_address(secured, topic), 20, "a leader")
    wait_for(lambda: produce_code(leader, scram("kim", "kim-pw"), topic) == 0 or None, 20, "kim's ACLs")
    with WireClient(b1, security=scram("kim", "kim-pw")) as w:
        made = w.request(CreateDelegationTokenRequest(renewers=[], max_lifetime_ms=-1), 3)
    assert made.error_code == 0, made
    # The token is in etcd before the answer; broker 2 follows it (its HMAC from the shared key).
    assert wait_for(lambda: token_authenticates(b2, made.token_id, made.hmac) or None, 20, "the token on broker 2")
    assert produce_code(leader, token_security(made.token_id, made.hmac), topic) == 0  # kim's ACLs apply
    with WireClient(b2, security=scram("kim", "kim-pw")) as w:
        listed = w.request(DescribeDelegationTokenRequest(owners=None), 3)
        renewed = w.request(RenewDelegationTokenRequest(hmac=made.hmac, renew_period_ms=600_000), 2)
    assert [(t.token_id, t.hmac) for t in listed.tokens] == [(made.token_id, made.hmac)]
    assert renewed.error_code == 0

    def expiry_on_1() -> int | None:
        with WireClient(b1, security=scram("kim", "kim-pw")) as w:
            tokens = w.request(DescribeDelegationTokenRequest(owners=None), 3).tokens
        return (
            tokens[0].expiry_timestamp if tokens and tokens[0].expiry_timestamp == renewed.expiry_timestamp_ms else None
        )

    wait_for(expiry_on_1, 20, "the renewal on broker 1")
    with WireClient(b2, security=scram("kim", "kim-pw")) as w:
        assert w.request(ExpireDelegationTokenRequest(hmac=made.hmac, expiry_time_period_ms=-1), 2).error_code == 0
    assert wait_for(
        lambda: (not token_authenticates(b1, made.token_id, made.hmac)) or None, 20, "the token gone on broker 1"
    )
