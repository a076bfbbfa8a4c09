"""TLS, SASL and ACLs against the real broker process with real clients.

One broker with four listeners (each on its own free port):

* SASL_SSL: SCRAM-SHA-512/256 (credentials created with ``sharebroker user-scram``),
  PLAIN (the admin, from the listener's JAAS entry), OAUTHBEARER (Kafka's unsecured
  JWS validator);
* SSL with ``ssl.client.auth=required``: the principal is the client certificate's
  DN, mapped by ``ssl.principal.mapping.rules`` to its CN;
* SASL_PLAINTEXT with PLAIN and ``connections.max.reauth.ms`` of 2 s (KIP-368);
* PLAINTEXT, for the raw-protocol checks of an unauthenticated listener.

The StandardAuthorizer runs with ``User:admin`` as super user; each test grants
what its client needs with ``sharebroker acls``.
"""

from __future__ import annotations

import logging
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic

from broker.protocol.errors import ErrorCode
from broker.protocol.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from broker.protocol.messages.sasl_authenticate_request import SaslAuthenticateRequest
from broker.protocol.messages.sasl_handshake_request import SaslHandshakeRequest
from broker.security.client import ClientSecurity
from broker.security.sasl.client import SaslClientError
from tests.integration.wire import WireClient
from tests.pki import Pki

AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer"
ADMIN_JAAS = 'org.apache.kafka.common.security.plain.PlainLoginModule required user_admin="admin-secret" user_carol="carol-secret";'
ADMIN = {"sasl.mechanism": "PLAIN", "sasl.username": "admin", "sasl.password": "admin-secret"}


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> Pki:
    return Pki(tmp_path_factory.mktemp("pki"))


@pytest.fixture(scope="module")
def broker(sharebroker_factory, pki):
    settings = {
        "listeners": "SASL_SSL://127.0.0.1:0,SSL://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0,PLAINTEXT://127.0.0.1:0",
        **pki.broker_settings(),
        "listener.name.ssl.ssl.client.auth": "required",
        "listener.name.ssl.ssl.principal.mapping.rules": "RULE:^CN=([^,]+),O=sharebroker-tests$/$1/,DEFAULT",
        "listener.name.sasl_ssl.sasl.enabled.mechanisms": "SCRAM-SHA-512,SCRAM-SHA-256,PLAIN,OAUTHBEARER",
        "listener.name.sasl_ssl.plain.sasl.jaas.config": ADMIN_JAAS,
        "listener.name.sasl_plaintext.sasl.enabled.mechanisms": "PLAIN",
        "listener.name.sasl_plaintext.plain.sasl.jaas.config": ADMIN_JAAS,
        "listener.name.sasl_plaintext.plain.connections.max.reauth.ms": "2000",
        "authorizer.class.name": AUTHORIZER,
        "super.users": "User:admin",
    }
    return sharebroker_factory(settings)


@pytest.fixture(scope="module")
def admin_config(broker, pki, tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("cfg") / "admin.properties"
    path.write_text(
        "security.protocol=SASL_SSL\n"
        "sasl.mechanism=PLAIN\n"
        'sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" password="admin-secret";\n'
        "ssl.truststore.type=PEM\n"
        f"ssl.truststore.location={pki.ca_file}\n"
    )
    return path


def tool(broker, admin_config: Path, *args: str) -> subprocess.CompletedProcess:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "broker",
            *args,
            "--bootstrap-server",
            broker.address("SASL_SSL"),
            "--command-config",
            str(admin_config),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return proc


def sasl_ssl(broker, pki, mechanism: str, user: str, password: str, **extra) -> dict:
    return {
        "bootstrap.servers": broker.address("SASL_SSL"),
        "security.protocol": "SASL_SSL",
        "sasl.mechanism": mechanism,
        "sasl.username": user,
        "sasl.password": password,
        "ssl.ca.location": str(pki.ca_file),
        **extra,
    }


def mtls(broker, pki, identity, **extra) -> dict:
    return {
        "bootstrap.servers": broker.address("SSL"),
        "security.protocol": "SSL",
        "ssl.ca.location": str(pki.ca_file),
        "ssl.certificate.location": str(identity.cert_file),
        "ssl.key.location": str(identity.key_file),
        **extra,
    }


def name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def produce_one(conf: dict, topic: str, value: bytes) -> object:
    outcome: list = []
    p = Producer({**conf, "message.timeout.ms": 10000})
    p.produce(topic, value, on_delivery=lambda err, msg: outcome.append(err))
    p.flush(15)
    assert outcome, "no delivery report"
    return outcome[0]


def consume_one(conf: dict, topic: str, group: str) -> bytes:
    c = Consumer({**conf, "group.id": group, "enable.auto.commit": False})
    try:
        c.assign([TopicPartition(topic, 0, 0)])
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            msg = c.poll(0.5)
            if msg is None:
                continue
            if msg.error():
                raise KafkaException(msg.error())
            value = msg.value()
            assert value is not None
            return value
        raise AssertionError("nothing consumed")
    finally:
        c.close()


def read_until(consumer, wanted: set[bytes]) -> set[bytes]:
    """Values a kafka-python consumer reads until it has all of ``wanted`` (or times out)."""
    got: set[bytes] = set()
    for message in consumer:
        got.add(message.value)
        if wanted <= got:
            break
    return got


def auth_errors(conf: dict, expect: str, seconds: float = 8.0) -> list[str]:
    """The errors librdkafka reports while trying to use ``conf``, until one contains ``expect``."""
    errors: list[str] = []
    client = Producer({**conf, "error_cb": lambda e: errors.append(str(e)), "log_level": 0})
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not any(expect in e for e in errors):
        client.poll(0.1)
    return errors


def test_scram_sha512_over_sasl_ssl_with_librdkafka_and_kafka_python(broker, pki, admin_config):
    topic, group = name("scram"), name("g")
    out = tool(
        broker,
        admin_config,
        "user-scram",
        "--alter",
        "--entity-type",
        "users",
        "--entity-name",
        "alice",
        "--add-config",
        "SCRAM-SHA-512=[iterations=8192,password=alice-secret],SCRAM-SHA-256=[password=alice-256]",
    )
    assert out.stdout.strip() == "Completed updating config for user alice."
    described = tool(broker, admin_config, "user-scram", "--describe", "--user", "alice").stdout
    assert "SCRAM-SHA-256=iterations=4096" in described and "SCRAM-SHA-512=iterations=8192" in described
    tool(broker, admin_config, "topics", "--create", "--topic", topic)
    tool(broker, admin_config, "acls", "--add", "--allow-principal", "User:alice", "--producer", "--topic", topic)
    tool(
        broker,
        admin_config,
        "acls",
        "--add",
        "--allow-principal",
        "User:alice",
        "--consumer",
        "--topic",
        topic,
        "--group",
        group,
    )

    conf = sasl_ssl(broker, pki, "SCRAM-SHA-512", "alice", "alice-secret")
    assert produce_one(conf, topic, b"from librdkafka") is None
    assert consume_one(conf, topic, group) == b"from librdkafka"
    conf256 = sasl_ssl(broker, pki, "SCRAM-SHA-256", "alice", "alice-256")
    assert produce_one(conf256, topic, b"sha-256") is None

    from kafka import KafkaConsumer, KafkaProducer

    kp = {
        "bootstrap_servers": broker.address("SASL_SSL"),
        "security_protocol": "SASL_SSL",
        "sasl_mechanism": "SCRAM-SHA-512",
        "sasl_plain_username": "alice",
        "sasl_plain_password": "alice-secret",
        "ssl_cafile": str(pki.ca_file),
    }
    producer = KafkaProducer(**kp)
    producer.send(topic, b"from kafka-python").get(timeout=15)
    producer.close()
    consumer = KafkaConsumer(topic, group_id=group, auto_offset_reset="earliest", consumer_timeout_ms=15000, **kp)
    got = read_until(consumer, {b"from kafka-python", b"from librdkafka"})
    consumer.close()
    assert {b"from kafka-python", b"from librdkafka"} <= got


# kafka-python leaves the sockets of a producer that failed to start to the garbage collector.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_wrong_password_and_unknown_user_are_refused_with_kafkas_error(broker, pki, admin_config, caplog):
    tool(
        broker,
        admin_config,
        "user-scram",
        "--alter",
        "--user",
        "dave",
        "--add-config",
        "SCRAM-SHA-512=[password=right]",
    )
    generic = "Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512"
    for user, password in (("dave", "wrong"), ("nobody", "x")):
        errors = auth_errors(sasl_ssl(broker, pki, "SCRAM-SHA-512", user, password), generic)
        assert any(generic in e for e in errors), errors
    plain = "Authentication failed: Invalid username or password"
    errors = auth_errors(sasl_ssl(broker, pki, "PLAIN", "admin", "nope"), plain)
    assert any(plain in e for e in errors), errors

    # The same through the wire: SASL_AUTHENTICATION_FAILED with Kafka's message, then the connection closes.
    sec = ClientSecurity.from_properties(
        {
            "security.protocol": "SASL_SSL",
            "sasl.mechanism": "SCRAM-SHA-512",
            "sasl.jaas.config": 'x required username="dave" password="wrong";',
            "ssl.truststore.location": str(pki.ca_file),
        }
    )
    with pytest.raises(SaslClientError) as info:
        WireClient(broker.address("SASL_SSL"), security=sec)
    assert info.value.code == ErrorCode.SASL_AUTHENTICATION_FAILED and str(info.value) == generic

    # kafka-python logs the broker's answer and gives up bootstrapping.
    from kafka import KafkaProducer
    from kafka.errors import KafkaError as KafkaPythonError

    caplog.set_level(logging.ERROR, logger="kafka")
    producer = KafkaProducer(
        bootstrap_servers=broker.address("SASL_SSL"),
        security_protocol="SASL_SSL",
        sasl_mechanism="SCRAM-SHA-512",
        sasl_plain_username="dave",
        sasl_plain_password="wrong",
        ssl_cafile=str(pki.ca_file),
        api_version=(4, 0),
        max_block_ms=3000,
    )
    with pytest.raises(KafkaPythonError):
        producer.partitions_for("anything")
    producer.close(timeout=5)
    assert any("SaslAuthenticationFailedError" in r.getMessage() and generic in r.getMessage() for r in caplog.records)
    import gc

    gc.collect()


def test_mutual_tls_principal_from_the_certificate(broker, pki, admin_config):
    topic = name("mtls")
    tool(broker, admin_config, "topics", "--create", "--topic", topic)
    tool(broker, admin_config, "acls", "--add", "--allow-principal", "User:erin", "--producer", "--topic", topic)
    tool(
        broker,
        admin_config,
        "acls",
        "--add",
        "--allow-principal",
        "User:erin",
        "--consumer",
        "--topic",
        topic,
        "--group",
        "erin-g",
    )
    erin, frank = pki.identity("erin"), pki.identity("frank")
    assert produce_one(mtls(broker, pki, erin), topic, b"by certificate") is None
    assert consume_one(mtls(broker, pki, erin), topic, "erin-g") == b"by certificate"
    denied = produce_one(mtls(broker, pki, frank), topic, b"not allowed")
    assert denied is not None and denied.code() == 29  # TOPIC_AUTHORIZATION_FAILED

    from kafka import KafkaConsumer

    consumer = KafkaConsumer(
        topic,
        group_id="erin-g",
        bootstrap_servers=broker.address("SSL"),
        security_protocol="SSL",
        ssl_cafile=str(pki.ca_file),
        ssl_certfile=str(erin.cert_file),
        ssl_keyfile=str(erin.key_file),
        auto_offset_reset="earliest",
        consumer_timeout_ms=15000,
    )
    assert b"by certificate" in read_until(consumer, {b"by certificate"})
    consumer.close()


def test_large_requests_over_tls(broker, pki, admin_config):
    """Requests of about 1 MB arrive in many TLS records (the plain-socket path that reads
    large requests straight into their frame must not touch a TLS connection's socket)."""
    topic = name("big")
    tool(broker, admin_config, "topics", "--create", "--topic", topic)
    tool(broker, admin_config, "acls", "--add", "--allow-principal", "User:erin", "--producer", "--topic", topic)
    tool(
        broker,
        admin_config,
        "acls",
        "--add",
        "--allow-principal",
        "User:erin",
        "--consumer",
        "--topic",
        topic,
        "--group",
        "big-g",
    )
    erin = mtls(broker, pki, pki.identity("erin"))
    values = [bytes([i]) * 900_000 for i in range(3)]
    p = Producer({**erin, "message.timeout.ms": 15000, "linger.ms": 0, "message.max.bytes": 1_000_000})
    outcome: list = []
    for v in values:
        p.produce(topic, v, on_delivery=lambda err, msg: outcome.append(err))
    p.flush(20)
    assert outcome == [None, None, None]
    c = Consumer({**erin, "group.id": "big-g", "enable.auto.commit": False})
    got: list[bytes] = []
    try:
        c.assign([TopicPartition(topic, 0, 0)])
        deadline = time.monotonic() + 20
        while len(got) < 3 and time.monotonic() < deadline:
            msg = c.poll(0.5)
            if msg is not None and not msg.error():
                got.append(msg.value())
    finally:
        c.close()
    assert got == values


def test_untrusted_or_missing_client_certificate_is_refused(broker, pki):
    rogue = pki.identity("mallory", trusted=False)
    # TLS 1.3: the client learns of the refusal from the broker's alert after its own handshake.
    errors = auth_errors(mtls(broker, pki, rogue), "alert unknown ca")
    assert any("alert unknown ca" in e for e in errors), errors
    no_cert = {
        "bootstrap.servers": broker.address("SSL"),
        "security.protocol": "SSL",
        "ssl.ca.location": str(pki.ca_file),
    }
    errors = auth_errors(no_cert, "alert certificate required")
    assert any("alert certificate required" in e for e in errors), errors
    log = broker.log_tail(400)
    assert "tls_handshake_failed" in log


# kafka-python leaves the sockets of a producer that failed to start to the garbage collector.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_kafka_python_with_an_untrusted_certificate_sees_unknown_ca(broker, pki, caplog):
    from kafka import KafkaProducer
    from kafka.errors import KafkaError as KafkaPythonError

    rogue = pki.identity("mallory", trusted=False)
    caplog.set_level(logging.ERROR, logger="kafka")
    producer = KafkaProducer(
        bootstrap_servers=broker.address("SSL"),
        security_protocol="SSL",
        ssl_cafile=str(pki.ca_file),
        ssl_certfile=str(rogue.cert_file),
        ssl_keyfile=str(rogue.key_file),
        api_version=(4, 0),
        max_block_ms=3000,
    )
    with pytest.raises(KafkaPythonError):
        producer.partitions_for("anything")
    producer.close(timeout=5)
    assert any("TLSV1_ALERT_UNKNOWN_CA" in r.getMessage() for r in caplog.records)
    import gc

    gc.collect()


def test_oauthbearer_with_the_unsecured_validator(broker, pki, admin_config):
    topic = name("oauth")
    tool(broker, admin_config, "topics", "--create", "--topic", topic)
    tool(broker, admin_config, "acls", "--add", "--allow-principal", "User:olga", "--producer", "--topic", topic)
    conf = {
        "bootstrap.servers": broker.address("SASL_SSL"),
        "security.protocol": "SASL_SSL",
        "sasl.mechanism": "OAUTHBEARER",
        "enable.sasl.oauthbearer.unsecure.jwt": True,
        "sasl.oauthbearer.config": "principal=olga",
        "ssl.ca.location": str(pki.ca_file),
    }
    assert produce_one(conf, topic, b"token") is None


def test_requests_before_authentication_close_the_connection(broker):
    with WireClient(broker.address("SASL_PLAINTEXT")) as w:
        with pytest.raises(ConnectionError):
            w.request(MetadataRequest(topics=[]), 12)
    # A mechanism not enabled: UNSUPPORTED_SASL_MECHANISM with the enabled list, then closed.
    with WireClient(broker.address("SASL_PLAINTEXT")) as w:
        resp = w.request(SaslHandshakeRequest(mechanism="GSSAPI"), 1)
        assert resp.error_code == ErrorCode.UNSUPPORTED_SASL_MECHANISM and resp.mechanisms == ["PLAIN"]
        with pytest.raises(ConnectionError):
            w.request(MetadataRequest(topics=[]), 12)
    # On PLAINTEXT, SASL requests are answered ILLEGAL_SASL_STATE and the connection lives.
    with WireClient(broker.address("PLAINTEXT")) as w:
        assert w.request(SaslHandshakeRequest(mechanism="PLAIN"), 1).error_code == ErrorCode.ILLEGAL_SASL_STATE
        assert w.request(SaslAuthenticateRequest(auth_bytes=b""), 2).error_code == ErrorCode.ILLEGAL_SASL_STATE
        assert w.request(MetadataRequest(topics=[]), 12).brokers


def test_saslhandshake_v0_takes_bare_tokens(broker):
    import socket
    import struct

    host, port = broker.address("SASL_PLAINTEXT").split(":")
    with WireClient(broker.address("SASL_PLAINTEXT")) as w:
        resp = w.request(SaslHandshakeRequest(mechanism="PLAIN"), 0)
        assert resp.error_code == 0
        token = b"\x00carol\x00carol-secret"
        w.send_frame(struct.pack(">i", len(token)) + token)
        assert w.sock.recv(4) == b"\x00\x00\x00\x00"  # the empty PLAIN challenge, size-prefixed
        assert (
            w.request(MetadataRequest(topics=[MetadataRequestTopic(name="no-acl-topic")]), 12).topics[0].error_code
            == ErrorCode.TOPIC_AUTHORIZATION_FAILED
        )
    # v0 with a bad token: the connection just closes.
    s = socket.create_connection((host, int(port)), timeout=10)
    try:
        w = WireClient.__new__(WireClient)
        w.sock, w.conn = s, __import__("broker.protocol.connection", fromlist=["x"]).ClientConnection()
        assert w.request(SaslHandshakeRequest(mechanism="PLAIN"), 0).error_code == 0
        bad = b"\x00carol\x00wrong"
        s.sendall(struct.pack(">i", len(bad)) + bad)
        assert s.recv(4) == b""
    finally:
        s.close()


def test_reauthentication_session_lifetime(broker):
    sec = ClientSecurity.from_properties(
        {
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanism": "PLAIN",
            "sasl.jaas.config": 'x required username="carol" password="carol-secret";',
        }
    )
    with WireClient(broker.address("SASL_PLAINTEXT"), security=sec) as w:
        assert w.session_lifetime_ms == 2000
        time.sleep(1.2)
        w.authenticate(sec)  # KIP-368: re-authenticate within the lifetime, same principal
        assert w.session_lifetime_ms == 2000
        time.sleep(1.2)
        assert w.request(MetadataRequest(topics=[]), 12) is not None  # the new session still runs
        time.sleep(1.2)
        with pytest.raises(ConnectionError):  # expired: the next request closes the connection
            w.request(MetadataRequest(topics=[]), 12)
    # librdkafka re-authenticates on its own and keeps producing across several lifetimes.
    conf = {
        "bootstrap.servers": broker.address("SASL_PLAINTEXT"),
        "security.protocol": "SASL_PLAINTEXT",
        "sasl.mechanism": "PLAIN",
        "sasl.username": "admin",
        "sasl.password": "admin-secret",
    }
    topic = name("reauth")
    admin = AdminClient(conf)
    admin.create_topics([NewTopic(topic, 1)])[topic].result(15)
    expired_before = broker.log_tail(100000).count("session expired")
    p = Producer(conf)
    failures: list = []
    for i in range(8):
        p.produce(topic, b"%d" % i, on_delivery=lambda err, msg: err and failures.append(err))
        p.flush(10)
        time.sleep(0.5)
    assert not failures
    # It re-authenticated in time: no session of its ran out.
    assert broker.log_tail(100000).count("session expired") == expired_before


def test_acl_tools_list_and_remove(broker, admin_config):
    topic = name("acl")
    tool(
        broker,
        admin_config,
        "acls",
        "--add",
        "--deny-principal",
        "User:mallory",
        "--operation",
        "Read",
        "--topic",
        topic,
        "--resource-pattern-type",
        "prefixed",
    )
    listed = tool(broker, admin_config, "acls", "--list", "--topic", topic, "--resource-pattern-type", "match").stdout
    assert f"ResourcePattern(resourceType=TOPIC, name={topic}, patternType=PREFIXED)" in listed
    assert "(principal=User:mallory, host=*, operation=READ, permissionType=DENY)" in listed
    tool(
        broker,
        admin_config,
        "acls",
        "--remove",
        "--force",
        "--deny-principal",
        "User:mallory",
        "--operation",
        "Read",
        "--topic",
        topic,
        "--resource-pattern-type",
        "prefixed",
    )
    listed = tool(broker, admin_config, "acls", "--list", "--topic", topic, "--resource-pattern-type", "match").stdout
    assert "mallory" not in listed


def test_acls_credentials_and_quotas_survive_a_restart(sharebroker_factory, pki, tmp_path):
    """ACLs, SCRAM credentials and client quotas are kept in the data directory."""
    b = sharebroker_factory(
        {
            "listeners": "SASL_PLAINTEXT://127.0.0.1:0",
            "listener.name.sasl_plaintext.sasl.enabled.mechanisms": "SCRAM-SHA-512,PLAIN",
            "listener.name.sasl_plaintext.plain.sasl.jaas.config": ADMIN_JAAS,
            "authorizer.class.name": AUTHORIZER,
            "super.users": "User:admin",
        }
    )
    cfg = tmp_path / "admin.properties"
    cfg.write_text(
        "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=PLAIN\n"
        'sasl.jaas.config=x required username="admin" password="admin-secret";\n'
    )

    def run(*args: str) -> str:
        proc = subprocess.run(
            [sys.executable, "-m", "broker", *args, "--bootstrap-server", b.address("SASL_PLAINTEXT")]
            + ["--command-config", str(cfg)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    topic = name("durable")
    run("topics", "--create", "--topic", topic)
    run("user-scram", "--alter", "--user", "kim", "--add-config", "SCRAM-SHA-512=[password=kim-secret]")
    run("acls", "--add", "--allow-principal", "User:kim", "--producer", "--topic", topic)
    from broker.admin.client import AdminClient as WireAdmin
    from broker.protocol.messages.alter_client_quotas_request import (
        AlterClientQuotasRequest,
        EntityData,
        EntryData,
        OpData,
    )
    from broker.protocol.messages.describe_client_quotas_request import ComponentData, DescribeClientQuotasRequest

    admin_sec = ClientSecurity.from_properties(
        {
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanism": "PLAIN",
            "sasl.jaas.config": 'x required username="admin" password="admin-secret";',
        }
    )
    with WireAdmin(b.address("SASL_PLAINTEXT"), security=admin_sec) as admin:
        entry = EntryData(
            entity=[EntityData(entity_type="user", entity_name="kim")],
            ops=[OpData(key="producer_byte_rate", value=2_000_000, remove=False)],
        )
        assert admin.send(AlterClientQuotasRequest(entries=[entry])).entries[0].error_code == 0

    b.stop()
    b.start()

    listed = run("acls", "--list", "--topic", topic)
    assert "User:kim" in listed and "WRITE" in listed.upper()
    kim = {
        "bootstrap.servers": b.address("SASL_PLAINTEXT"),
        "security.protocol": "SASL_PLAINTEXT",
        "sasl.mechanism": "SCRAM-SHA-512",
        "sasl.username": "kim",
        "sasl.password": "kim-secret",
    }
    assert produce_one(kim, topic, b"after restart") is None
    with WireAdmin(b.address("SASL_PLAINTEXT"), security=admin_sec) as admin:
        described = admin.send(
            DescribeClientQuotasRequest(components=[ComponentData(entity_type="user", match_type=0, match="kim")])
        )
    assert [(v.key, v.value) for v in described.entries[0].values] == [("producer_byte_rate", 2_000_000.0)]
