"""Delegation tokens (KIP-48) against the real broker process.

No Python client speaks the token APIs or SCRAM's ``tokenauth`` extension (kafka-python
3.0 and librdkafka 2.16 have neither), so the requests go through the broker's own
protocol client with the JAAS options a Java client would use; Kafka's own
``kafka-delegation-tokens.sh`` and a Java client authenticating with a token run in
``make compat-kafka-tools``, and the answers are compared with Kafka 4.4.0's in
``make compat-admin``.

The broker has a PLAINTEXT listener (its ANONYMOUS principal a super user, for setup)
and a SASL_PLAINTEXT one with SCRAM-SHA-512 and SCRAM-SHA-256, the StandardAuthorizer
and a secret key; tokens are checked end to end: made, used to authenticate (the
principal is the owner), refused where Kafka refuses them, hidden from who may not
see them, kept across a restart, removed by the expiry check.
"""

from __future__ import annotations

import base64
import hashlib
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from broker.localcluster import BrokerProcess
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.alter_user_scram_credentials_request import (
    AlterUserScramCredentialsRequest,
    ScramCredentialUpsertion,
)
from broker.protocol.messages.create_acls_request import AclCreation, CreateAclsRequest
from broker.protocol.messages.create_delegation_token_request import CreatableRenewers, CreateDelegationTokenRequest
from broker.protocol.messages.describe_delegation_token_request import (
    DescribeDelegationTokenOwner,
    DescribeDelegationTokenRequest,
)
from broker.protocol.messages.expire_delegation_token_request import ExpireDelegationTokenRequest
from broker.protocol.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from broker.protocol.messages.renew_delegation_token_request import RenewDelegationTokenRequest
from broker.security.client import ClientSecurity
from broker.security.sasl.client import SaslClientError
from tests.integration.clients import create_topic
from tests.integration.wire import WireClient

AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer"
SETTINGS = {
    "listeners": "PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0",
    "listener.name.sasl_plaintext.sasl.enabled.mechanisms": "SCRAM-SHA-512,SCRAM-SHA-256",
    "authorizer.class.name": AUTHORIZER,
    "super.users": "User:ANONYMOUS",
    "delegation.token.secret.key": "integration-secret",
    "delegation.token.expiry.check.interval.ms": "300",
}
USERS = ("alice", "bob", "carol", "dave")
# ResourceType and AclOperation codes of the ACL APIs.
RT_TOPIC, RT_DELEGATION_TOKEN, RT_USER = 2, 6, 7
OP_DESCRIBE, OP_CREATE_TOKENS, OP_DESCRIBE_TOKENS = 8, 13, 14


def scram_user(w: WireClient, user: str) -> None:
    salt = os.urandom(16)
    salted = hashlib.pbkdf2_hmac("sha512", f"{user}-secret".encode(), salt, 4096)
    resp = w.request(
        AlterUserScramCredentialsRequest(
            deletions=[],
            upsertions=[
                ScramCredentialUpsertion(name=user, mechanism=2, iterations=4096, salt=salt, salted_password=salted)
            ],
        ),
        0,
    )
    assert resp.results[0].error_code == 0, resp


def grant(w: WireClient, principal: str, rtype: int, name: str, operation: int) -> None:
    creation = AclCreation(
        resource_type=rtype,
        resource_name=name,
        resource_pattern_type=3,
        principal=principal,
        host="*",
        operation=operation,
        permission_type=3,
    )
    resp = w.request(CreateAclsRequest(creations=[creation]), 3)
    assert resp.results[0].error_code == 0, resp


def user(name: str) -> ClientSecurity:
    return ClientSecurity.from_properties(
        {
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanism": "SCRAM-SHA-512",
            "sasl.jaas.config": f'x required username="{name}" password="{name}-secret";',
        }
    )


def token_auth(token_id: str, hmac: bytes, mechanism: str = "SCRAM-SHA-512") -> ClientSecurity:
    password = base64.b64encode(hmac).decode()
    return ClientSecurity.from_properties(
        {
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanism": mechanism,
            "sasl.jaas.config": "org.apache.kafka.common.security.scram.ScramLoginModule required "
            f'username="{token_id}" password="{password}" tokenauth="true";',
        }
    )


@pytest.fixture(scope="module")
def broker(tmp_path_factory) -> Iterator[BrokerProcess]:
    b = BrokerProcess(tmp_path_factory.mktemp("tokens") / "data", SETTINGS).start()
    try:
        with WireClient(b.address("PLAINTEXT")) as w:
            for name in USERS:
                scram_user(w, name)
        yield b
    finally:
        b.kill()


def create(b: BrokerProcess, as_user: str, **fields):
    fields.setdefault("renewers", [])
    fields.setdefault("max_lifetime_ms", -1)
    with WireClient(b.address("SASL_PLAINTEXT"), security=user(as_user)) as w:
        return w.request(CreateDelegationTokenRequest(**fields), 3)


def described(b: BrokerProcess, as_user: str, owners=None) -> list[str]:
    with WireClient(b.address("SASL_PLAINTEXT"), security=user(as_user)) as w:
        resp = w.request(DescribeDelegationTokenRequest(owners=owners), 3)
    assert resp.error_code == 0, resp
    return [t.token_id for t in resp.tokens]


def topic_visible(b: BrokerProcess, security: ClientSecurity, topic: str) -> int:
    with WireClient(b.address("SASL_PLAINTEXT"), security=security) as w:
        resp = w.request(MetadataRequest(topics=[MetadataRequestTopic(name=topic)]), 12)
    return resp.topics[0].error_code


def test_a_token_authenticates_as_its_owner_with_both_mechanisms(broker):
    topic = f"tok-{uuid.uuid4().hex[:8]}"
    create_topic(broker.address("PLAINTEXT"), topic)
    with WireClient(broker.address("PLAINTEXT")) as w:
        grant(w, "User:alice", RT_TOPIC, topic, OP_DESCRIBE)
    made = create(broker, "alice")
    assert made.error_code == 0 and (made.principal_type, made.principal_name) == ("User", "alice")
    assert made.expiry_timestamp_ms - made.issue_timestamp_ms == 86_400_000
    assert made.max_timestamp_ms - made.issue_timestamp_ms == 604_800_000
    for mechanism in ("SCRAM-SHA-512", "SCRAM-SHA-256"):
        security = token_auth(made.token_id, made.hmac, mechanism)
        with WireClient(broker.address("SASL_PLAINTEXT"), security=security) as w:
            # The session lasts until the token's expiry (KIP-368 lifetime from the credential).
            assert 0 < w.session_lifetime_ms <= 86_400_000
        assert topic_visible(broker, security, topic) == ErrorCode.NONE  # alice's ACL applies
    bob = create(broker, "bob")
    refused = topic_visible(broker, token_auth(bob.token_id, bob.hmac), topic)
    assert refused == ErrorCode.TOPIC_AUTHORIZATION_FAILED
    with pytest.raises(SaslClientError) as failed:
        WireClient(broker.address("SASL_PLAINTEXT"), security=token_auth(made.token_id, bob.hmac))
    assert failed.value.code == ErrorCode.SASL_AUTHENTICATION_FAILED
    # Without tokenauth the token id is no user name.
    plain = ClientSecurity.from_properties(
        {
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanism": "SCRAM-SHA-512",
            "sasl.jaas.config": f'x required username="{made.token_id}" '
            f'password="{base64.b64encode(made.hmac).decode()}";',
        }
    )
    with pytest.raises(SaslClientError):
        WireClient(broker.address("SASL_PLAINTEXT"), security=plain)


def test_token_requests_are_refused_on_plaintext_and_from_a_token(broker):
    made = create(broker, "alice")
    not_allowed = ErrorCode.DELEGATION_TOKEN_REQUEST_NOT_ALLOWED
    for address, security in (
        (broker.address("PLAINTEXT"), None),
        (broker.address("SASL_PLAINTEXT"), token_auth(made.token_id, made.hmac)),
    ):
        with WireClient(address, security=security) as w:
            c = w.request(CreateDelegationTokenRequest(renewers=[], max_lifetime_ms=-1), 3)
            assert (c.error_code, c.issue_timestamp_ms, c.token_id) == (not_allowed, -1, "")
            r = w.request(RenewDelegationTokenRequest(hmac=made.hmac, renew_period_ms=-1), 2)
            assert (r.error_code, r.expiry_timestamp_ms) == (not_allowed, -1)
            e = w.request(ExpireDelegationTokenRequest(hmac=made.hmac, expiry_time_period_ms=-1), 2)
            assert (e.error_code, e.expiry_timestamp_ms) == (not_allowed, -1)
            assert w.request(DescribeDelegationTokenRequest(owners=None), 3).error_code == not_allowed
    assert made.token_id in described(broker, "alice")  # nothing was expired


@pytest.mark.parametrize("version", [1, 2])
def test_versions_before_3_leave_the_requester_out(broker, version):
    """The requester (and owner) fields of the requests and answers are v3+: older answers,
    made and refused, carry none."""
    with WireClient(broker.address("SASL_PLAINTEXT"), security=user("alice")) as w:
        made = w.request(CreateDelegationTokenRequest(renewers=[], max_lifetime_ms=-1), version)
        group = [CreatableRenewers(principal_type="Group", principal_name="g")]
        refused = w.request(CreateDelegationTokenRequest(renewers=group, max_lifetime_ms=-1), version)
        listed = w.request(DescribeDelegationTokenRequest(owners=None), version)
    assert made.error_code == 0 and (made.principal_name, made.token_requester_principal_name) == ("alice", "")
    assert refused.error_code == ErrorCode.INVALID_PRINCIPAL_TYPE
    assert (refused.principal_name, refused.token_requester_principal_name) == ("alice", "")
    [mine] = [t for t in listed.tokens if t.token_id == made.token_id]
    assert (mine.principal_name, mine.token_requester_principal_name, mine.hmac) == ("alice", "", made.hmac)


def test_owners_renewers_and_acls(broker):
    # Another owner needs CREATE_TOKENS on that owner's User resource.
    for_carol = create(broker, "bob", owner_principal_type="User", owner_principal_name="carol")
    assert for_carol.error_code == ErrorCode.DELEGATION_TOKEN_AUTHORIZATION_FAILED
    assert (for_carol.principal_name, for_carol.token_requester_principal_name) == ("carol", "bob")
    with WireClient(broker.address("PLAINTEXT")) as w:
        grant(w, "User:bob", RT_USER, "User:carol", OP_CREATE_TOKENS)
    for_carol = create(broker, "bob", owner_principal_type="User", owner_principal_name="carol")
    assert for_carol.error_code == 0
    assert (for_carol.principal_name, for_carol.token_requester_principal_name) == ("carol", "bob")
    bad = create(broker, "alice", renewers=[CreatableRenewers(principal_type="Group", principal_name="g")])
    assert bad.error_code == ErrorCode.INVALID_PRINCIPAL_TYPE

    renewable = create(broker, "alice", renewers=[CreatableRenewers(principal_type="User", principal_name="dave")])
    with WireClient(broker.address("SASL_PLAINTEXT"), security=user("carol")) as w:
        r = w.request(RenewDelegationTokenRequest(hmac=renewable.hmac, renew_period_ms=1000), 2)
        assert (r.error_code, r.expiry_timestamp_ms) == (ErrorCode.DELEGATION_TOKEN_OWNER_MISMATCH, 0)
        missing = w.request(RenewDelegationTokenRequest(hmac=b"not-a-token", renew_period_ms=1000), 2)
        assert missing.error_code == ErrorCode.DELEGATION_TOKEN_NOT_FOUND
    with WireClient(broker.address("SASL_PLAINTEXT"), security=user("dave")) as w:
        r = w.request(RenewDelegationTokenRequest(hmac=renewable.hmac, renew_period_ms=60_000), 2)
        assert r.error_code == 0 and r.expiry_timestamp_ms - renewable.issue_timestamp_ms < 120_000

    # Describe: owners and renewers see a token; others need DESCRIBE on it or
    # DESCRIBE_TOKENS on its owner.
    assert renewable.token_id in described(broker, "dave")
    assert renewable.token_id not in described(broker, "carol")
    assert for_carol.token_id in described(broker, "carol")
    assert described(broker, "alice", owners=[]) == []
    only_dave = described(
        broker, "alice", owners=[DescribeDelegationTokenOwner(principal_type="User", principal_name="dave")]
    )
    assert only_dave == [renewable.token_id]
    with WireClient(broker.address("PLAINTEXT")) as w:
        grant(w, "User:carol", RT_DELEGATION_TOKEN, renewable.token_id, OP_DESCRIBE)
    assert renewable.token_id in described(broker, "carol")
    assert not set(described(broker, "carol")) & set(described(broker, "bob")) - {
        renewable.token_id,
        for_carol.token_id,
    }
    with WireClient(broker.address("PLAINTEXT")) as w:
        grant(w, "User:carol", RT_USER, "User:bob", OP_DESCRIBE_TOKENS)
    assert set(
        described(broker, "bob", owners=[DescribeDelegationTokenOwner(principal_type="User", principal_name="bob")])
    ) <= set(described(broker, "carol"))


def acls_tool(b: BrokerProcess, *args: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-m", "broker", "acls", "--bootstrap-server", b.address("PLAINTEXT"), *args],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def test_token_and_user_acls_with_the_acls_tool(broker):
    """`sharebroker acls --delegation-token` and `--user-principal`, as kafka-acls.sh has them."""
    with WireClient(broker.address("PLAINTEXT")) as w:
        scram_user(w, "erin")
    made = create(broker, "erin")
    assert made.token_id not in described(broker, "carol")
    acls_tool(
        broker,
        "--add",
        "--allow-principal",
        "User:carol",
        "--operation",
        "Describe",
        "--delegation-token",
        made.token_id,
    )
    assert made.token_id in described(broker, "carol")
    erins = create(broker, "bob", owner_principal_type="User", owner_principal_name="erin")
    assert erins.error_code == ErrorCode.DELEGATION_TOKEN_AUTHORIZATION_FAILED
    acls_tool(
        broker, "--add", "--allow-principal", "User:bob", "--operation", "CreateTokens", "--user-principal", "User:erin"
    )
    erins = create(broker, "bob", owner_principal_type="User", owner_principal_name="erin")
    assert erins.error_code == 0 and erins.principal_name == "erin"
    listed = acls_tool(broker, "--list", "--user-principal", "User:erin")
    assert "ResourcePattern(resourceType=USER, name=User:erin, patternType=LITERAL)" in listed, listed
    assert "(principal=User:bob, host=*, operation=CREATE_TOKENS, permissionType=ALLOW)" in listed, listed
    listed = acls_tool(broker, "--list", "--delegation-token", made.token_id)
    assert f"resourceType=DELEGATION_TOKEN, name={made.token_id}" in listed, listed


def test_tokens_without_a_secret_key_are_off(sharebroker_factory):
    b = sharebroker_factory(
        {
            "listeners": "PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0",
            "listener.name.sasl_plaintext.sasl.enabled.mechanisms": "SCRAM-SHA-512",
        }
    )
    with WireClient(b.address("PLAINTEXT")) as w:
        scram_user(w, "alice")
    made = create(b, "alice")
    disabled = ErrorCode.DELEGATION_TOKEN_AUTH_DISABLED
    assert (made.error_code, made.issue_timestamp_ms, made.principal_name) == (disabled, 0, "alice")
    with WireClient(b.address("SASL_PLAINTEXT"), security=user("alice")) as w:
        assert w.request(RenewDelegationTokenRequest(hmac=b"x", renew_period_ms=1), 2).error_code == disabled
        assert w.request(ExpireDelegationTokenRequest(hmac=b"x", expiry_time_period_ms=1), 2).error_code == disabled
        assert w.request(DescribeDelegationTokenRequest(owners=None), 3).error_code == disabled


def test_expire_and_the_expiry_check(broker):
    gone = create(broker, "alice")
    with WireClient(broker.address("SASL_PLAINTEXT"), security=user("alice")) as w:
        e = w.request(ExpireDelegationTokenRequest(hmac=gone.hmac, expiry_time_period_ms=-1), 2)
        assert e.error_code == 0 and abs(e.expiry_timestamp_ms - time.time() * 1000) < 60_000
    assert gone.token_id not in described(broker, "alice")
    with pytest.raises(SaslClientError):
        WireClient(broker.address("SASL_PLAINTEXT"), security=token_auth(gone.token_id, gone.hmac))

    # A token that expires in 1.5 s: its connection closes at the first request after that,
    # and the expiry check (every 300 ms here) removes it.
    short = create(broker, "alice", max_lifetime_ms=1500)
    assert short.expiry_timestamp_ms - short.issue_timestamp_ms == 1500
    w = WireClient(broker.address("SASL_PLAINTEXT"), security=token_auth(short.token_id, short.hmac))
    try:
        assert 0 < w.session_lifetime_ms <= 1500
        w.request(MetadataRequest(topics=[]), 12)
        time.sleep(1.6)
        with pytest.raises((ConnectionError, OSError)):
            w.request(MetadataRequest(topics=[]), 12)
    finally:
        w.close()
    deadline = time.monotonic() + 10
    while short.token_id in described(broker, "alice"):
        assert time.monotonic() < deadline, "the expired token was not removed"
        time.sleep(0.2)
    with WireClient(broker.address("SASL_PLAINTEXT"), security=user("alice")) as w:
        r = w.request(RenewDelegationTokenRequest(hmac=short.hmac, renew_period_ms=-1), 2)
        assert r.error_code == ErrorCode.DELEGATION_TOKEN_NOT_FOUND


def test_tokens_survive_a_restart(tmp_path: Path):
    b = BrokerProcess(tmp_path / "data", SETTINGS).start()
    try:
        with WireClient(b.address("PLAINTEXT")) as w:
            scram_user(w, "alice")
        made = create(b, "alice", renewers=[CreatableRenewers(principal_type="User", principal_name="bob")])
        b.kill()  # kill -9: the token was durable before the answer
        b.start()
        with WireClient(b.address("SASL_PLAINTEXT"), security=token_auth(made.token_id, made.hmac)) as w:
            assert w.session_lifetime_ms > 0
        with WireClient(b.address("SASL_PLAINTEXT"), security=user("alice")) as w:
            resp = w.request(DescribeDelegationTokenRequest(owners=None), 3)
        [token] = resp.tokens
        assert (token.token_id, token.hmac, token.expiry_timestamp) == (
            made.token_id,
            made.hmac,
            made.expiry_timestamp_ms,
        )
        assert [(r.principal_type, r.principal_name) for r in token.renewers] == [("User", "bob")]
    finally:
        b.kill()
