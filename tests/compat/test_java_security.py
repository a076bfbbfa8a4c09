"""The Apache Kafka 4.4 Java clients over SASL_SSL (SCRAM-SHA-512) and mutual TLS.

The producer and the share consumer of ``peers/java`` (ShareTool) against the real
broker process with the StandardAuthorizer: SCRAM credentials and ACLs made with
``sharebroker user-scram`` and ``sharebroker acls``; the principal of the SSL
listener is the client certificate's CN. A wrong password and an untrusted
certificate are refused with the errors the Java clients report against Kafka.
"""

from __future__ import annotations

import uuid

import pytest

from tests.compat.conftest import run_tool
from tests.integration.test_security import ADMIN_JAAS, AUTHORIZER, tool
from tests.pki import Pki


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> Pki:
    return Pki(tmp_path_factory.mktemp("pki"))


@pytest.fixture(scope="module")
def broker(sharebroker_factory, pki):
    return sharebroker_factory(
        {
            "listeners": "SASL_SSL://127.0.0.1:0,SSL://127.0.0.1:0",
            **pki.broker_settings(),
            "listener.name.ssl.ssl.client.auth": "required",
            "listener.name.ssl.ssl.principal.mapping.rules": "RULE:^CN=([^,]+),O=sharebroker-tests$/$1/,DEFAULT",
            "listener.name.sasl_ssl.sasl.enabled.mechanisms": "SCRAM-SHA-512,PLAIN",
            "listener.name.sasl_ssl.plain.sasl.jaas.config": ADMIN_JAAS,
            "authorizer.class.name": AUTHORIZER,
            "super.users": "User:admin",
        }
    )


@pytest.fixture(scope="module")
def admin_config(pki, tmp_path_factory):
    path = tmp_path_factory.mktemp("cfg") / "admin.properties"
    path.write_text(
        "security.protocol=SASL_SSL\n"
        "sasl.mechanism=PLAIN\n"
        'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="admin-secret";\n'
        "ssl.truststore.type=PEM\n"
        f"ssl.truststore.location={pki.ca_file}\n"
    )
    return path


def scram(pki: Pki, user: str, password: str) -> list[str]:
    jaas = f'org.apache.kafka.common.security.scram.ScramLoginModule required username="{user}" password="{password}";'
    return [
        "--prop",
        "security.protocol=SASL_SSL",
        "--prop",
        "sasl.mechanism=SCRAM-SHA-512",
        "--prop",
        f"sasl.jaas.config={jaas}",
        "--prop",
        "ssl.truststore.type=PEM",
        "--prop",
        f"ssl.truststore.location={pki.ca_file}",
    ]


def mtls(pki: Pki, identity) -> list[str]:
    return [
        "--prop",
        "security.protocol=SSL",
        "--prop",
        "ssl.truststore.type=PEM",
        "--prop",
        f"ssl.truststore.location={pki.ca_file}",
        "--prop",
        "ssl.keystore.type=PEM",
        "--prop",
        f"ssl.keystore.location={identity.bundle_file}",
    ]


def grant(broker, admin_config, principal: str, topic: str, group: str) -> None:
    tool(broker, admin_config, "topics", "--create", "--topic", topic)
    tool(broker, admin_config, "acls", "--add", "--allow-principal", principal, "--producer", "--topic", topic)
    tool(
        broker,
        admin_config,
        "acls",
        "--add",
        "--allow-principal",
        principal,
        "--consumer",
        "--topic",
        topic,
        "--group",
        group,
    )


def admin(pki: Pki) -> list[str]:
    jaas = 'org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="admin-secret";'
    return [
        "--prop",
        "security.protocol=SASL_SSL",
        "--prop",
        "sasl.mechanism=PLAIN",
        "--prop",
        f"sasl.jaas.config={jaas}",
        "--prop",
        "ssl.truststore.type=PEM",
        "--prop",
        f"ssl.truststore.location={pki.ca_file}",
    ]


def produce_and_share_consume(broker, pki: Pki, bootstrap: str, security: list[str], topic: str, group: str) -> None:
    configured = run_tool(
        *admin(pki),
        "admin",
        "--bootstrap",
        broker.address("SASL_SSL"),
        "set-group-config",
        group,
        "share.auto.offset.reset",
        "earliest",
    )
    assert configured.returncode == 0, configured.stderr[-3000:]
    produced = run_tool(*security, "produce", "--bootstrap", bootstrap, "--topic", topic, "--count", "20")
    assert produced.returncode == 0, produced.stderr[-3000:]
    consumed = run_tool(
        *security,
        "share-consume",
        "--bootstrap",
        bootstrap,
        "--topic",
        topic,
        "--group",
        group,
        "--max",
        "20",
        "--timeout-ms",
        "30000",
    )
    assert consumed.returncode == 0, consumed.stderr[-3000:]
    assert sorted(r["value"] for r in consumed.records) == sorted(f"v-{i}" for i in range(20))


def test_java_clients_over_sasl_ssl_with_scram_sha512(broker, pki, admin_config):
    tool(
        broker,
        admin_config,
        "user-scram",
        "--alter",
        "--user",
        "jane",
        "--add-config",
        "SCRAM-SHA-512=[password=jane-secret]",
    )
    topic, group = f"java-scram-{uuid.uuid4().hex[:6]}", "java-scram-share"
    grant(broker, admin_config, "User:jane", topic, group)
    produce_and_share_consume(broker, pki, broker.address("SASL_SSL"), scram(pki, "jane", "jane-secret"), topic, group)

    refused = run_tool(
        *scram(pki, "jane", "wrong"),
        "--prop",
        "max.block.ms=5000",
        "produce",
        "--bootstrap",
        broker.address("SASL_SSL"),
        "--topic",
        topic,
        "--count",
        "1",
    )
    assert refused.returncode != 0
    assert "SaslAuthenticationException" in refused.stderr, refused.stderr[-3000:]
    assert (
        "Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512"
        in refused.stderr
    )


def test_java_clients_over_mutual_tls(broker, pki, admin_config):
    topic, group = f"java-mtls-{uuid.uuid4().hex[:6]}", "java-mtls-share"
    grant(broker, admin_config, "User:june", topic, group)
    produce_and_share_consume(broker, pki, broker.address("SSL"), mtls(pki, pki.identity("june")), topic, group)

    refused = run_tool(
        *mtls(pki, pki.identity("mallory", trusted=False)),
        "--prop",
        "max.block.ms=5000",
        "produce",
        "--bootstrap",
        broker.address("SSL"),
        "--topic",
        topic,
        "--count",
        "1",
    )
    assert refused.returncode != 0
    assert "SslAuthenticationException" in refused.stderr, refused.stderr[-3000:]
