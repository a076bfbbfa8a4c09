"""Differential tests of the delegation-token APIs (38-41) and of authenticating with a
token: the same requests to Apache Kafka 4.4.0 and to sharebroker, answers compared
field by field (``make compat-admin``).

Both brokers run the StandardAuthorizer with a PLAINTEXT listener whose ANONYMOUS
principal is a super user (setup: SCRAM credentials, ACLs) and a SASL_PLAINTEXT
listener with SCRAM-SHA-512 where each scenario's users (fresh names, so one
scenario's tokens do not show in another's) send raw requests, with the same
``delegation.token.secret.key``. Token ids and HMACs differ between the brokers (ids
are random), so tokens are named by the scenario and timestamps compared relative to
the token's issue time or to the clock; everything else is compared as it is: error
codes, owners, requesters, renewers, lifetimes, which tokens a describe shows, the
-1 / 0 timestamps of refusals, the SASL failure text. Bad input included: an unknown
token, a wrong renewer, an expired token, a renewer that is not a User, another
owner without CREATE_TOKENS, token requests over PLAINTEXT and from a token.
"""

from __future__ import annotations

import base64
import hashlib
import os
import time
import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from bench.peers import KafkaPeer, free_port
from broker.protocol.messages.alter_user_scram_credentials_request import (
    AlterUserScramCredentialsRequest,
    ScramCredentialUpsertion,
)
from broker.protocol.messages.api_versions_request import ApiVersionsRequest
from broker.protocol.messages.create_acls_request import AclCreation, CreateAclsRequest
from broker.protocol.messages.create_delegation_token_request import CreatableRenewers, CreateDelegationTokenRequest
from broker.protocol.messages.describe_acls_request import DescribeAclsRequest
from broker.protocol.messages.describe_delegation_token_request import (
    DescribeDelegationTokenOwner,
    DescribeDelegationTokenRequest,
)
from broker.protocol.messages.expire_delegation_token_request import ExpireDelegationTokenRequest
from broker.protocol.messages.metadata_request import MetadataRequest
from broker.protocol.messages.renew_delegation_token_request import RenewDelegationTokenRequest
from broker.security.client import ClientSecurity
from broker.security.sasl.client import SaslClientError
from broker.testing import BrokerProcess
from tests.compat import differential as d
from tests.integration.wire import WireClient

pytestmark = pytest.mark.compat

AUTHORIZER = "org.apache.kafka.metadata.authorizer.StandardAuthorizer"
SECRET = "differential-secret"
SCRAM_JAAS = "org.apache.kafka.common.security.scram.ScramLoginModule required;"
# The KRaft quorum and registration APIs: not served by a broker of an etcd cluster (docs/COMPAT.md).
RAFT_APIS = {55, 64, 80, 81, 94}
RT_DELEGATION_TOKEN, RT_USER = 6, 7
OP_DESCRIBE, OP_CREATE_TOKENS, OP_DESCRIBE_TOKENS = 8, 13, 14
# How far apart the scenario's clock and the broker's may read when it answers.
SLACK_MS = 15_000


class Broker:
    def __init__(self, admin: str, sasl: str) -> None:
        self.admin = admin
        self.sasl = sasl
        self.tag = ""  # the scenario's: both brokers get the same user names

    def user(self, prefix: str) -> str:
        """A user of this scenario with a SCRAM-SHA-512 credential (password: name + '-secret')."""
        name = f"{prefix}-{self.tag}"
        salt = os.urandom(16)
        salted = hashlib.pbkdf2_hmac("sha512", f"{name}-secret".encode(), salt, 4096)
        with WireClient(self.admin) as w:
            resp = w.request(
                AlterUserScramCredentialsRequest(
                    deletions=[],
                    upsertions=[
                        ScramCredentialUpsertion(
                            name=name, mechanism=2, iterations=4096, salt=salt, salted_password=salted
                        )
                    ],
                ),
                0,
            )
        assert resp.results[0].error_code == 0, resp
        return name

    def grant(self, principal: str, rtype: int, name: str, operation: int) -> None:
        creation = AclCreation(
            resource_type=rtype,
            resource_name=name,
            resource_pattern_type=3,
            principal=principal,
            host="*",
            operation=operation,
            permission_type=3,
        )
        with WireClient(self.admin) as w:
            assert w.request(CreateAclsRequest(creations=[creation]), 3).results[0].error_code == 0
            # Kafka's authorizers (broker and controller) learn of new ACLs from the metadata log.
            deadline = time.monotonic() + 15
            while True:
                found = w.request(
                    DescribeAclsRequest(
                        resource_type_filter=rtype,
                        resource_name_filter=name,
                        pattern_type_filter=3,
                        principal_filter=principal,
                        host_filter=None,
                        operation=operation,
                        permission_type=3,
                    ),
                    3,
                )
                if found.resources or time.monotonic() > deadline:
                    break
                time.sleep(0.1)
        time.sleep(0.5)

    def settle(self, owner: str, *tokens: Any) -> None:
        """Wait until the owner sees its new tokens: Kafka's brokers learn of a token from the
        metadata log a moment after CreateDelegationToken answers (it is written by the controller)."""
        wanted = {t.token_id for t in tokens}
        deadline = time.monotonic() + 15
        with self.client(owner) as w:
            while True:
                listed = w.request(DescribeDelegationTokenRequest(owners=None), 3)
                if wanted <= {t.token_id for t in listed.tokens} or time.monotonic() > deadline:
                    return
                time.sleep(0.1)

    def client(self, name: str) -> WireClient:
        return WireClient(self.sasl, security=_scram(name, f"{name}-secret"))

    def token_client(self, token_id: str, hmac: bytes) -> WireClient:
        return WireClient(self.sasl, security=_scram(token_id, base64.b64encode(hmac).decode(), token=True))


def _scram(user: str, password: str, token: bool = False) -> ClientSecurity:
    extra = ' tokenauth="true"' if token else ""
    return ClientSecurity.from_properties(
        {
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanism": "SCRAM-SHA-512",
            "sasl.jaas.config": f'x required username="{user}" password="{password}"{extra};',
        }
    )


@pytest.fixture(scope="module")
def kafka() -> Iterator[Broker]:
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
            "listener.name.secure.sasl.enabled.mechanisms=SCRAM-SHA-512",
            f"listener.name.secure.scram-sha-512.sasl.jaas.config={SCRAM_JAAS}",
            f"authorizer.class.name={AUTHORIZER}",
            "super.users=User:ANONYMOUS",
            f"delegation.token.secret.key={SECRET}",
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
def sb(tmp_path_factory) -> Iterator[Broker]:
    broker = BrokerProcess(
        tmp_path_factory.mktemp("diff-tokens") / "data",
        {
            "listeners": "PLAINTEXT://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0",
            "listener.name.sasl_plaintext.sasl.enabled.mechanisms": "SCRAM-SHA-512",
            "authorizer.class.name": AUTHORIZER,
            "super.users": "User:ANONYMOUS",
            "delegation.token.secret.key": SECRET,
        },
    ).start()
    yield Broker(broker.address("PLAINTEXT"), broker.address("SASL_PLAINTEXT"))
    broker.kill()


def compare(scenario, kafka: Broker, sb: Broker) -> dict:
    kafka.tag = sb.tag = uuid.uuid4().hex[:10]
    k, s = scenario(kafka), scenario(sb)
    diff = {key: (k.get(key), s.get(key)) for key in sorted(set(k) | set(s)) if k.get(key) != s.get(key)}
    assert not diff, f"{scenario.__name__}: kafka vs sharebroker differ: {diff}"
    print(f"{scenario.__name__}: {k}")
    return k


def now_ms() -> int:
    return int(time.time() * 1000)


def near(value: int, expected: int) -> bool:
    return abs(value - expected) <= SLACK_MS


def create(w: WireClient, version: int = 3, *, owner: str | None = None, renewers=(), max_lifetime_ms: int = -1):
    req = CreateDelegationTokenRequest(
        renewers=[CreatableRenewers(principal_type=t, principal_name=n) for t, n in renewers],
        max_lifetime_ms=max_lifetime_ms,
    )
    if owner is not None:
        req.owner_principal_type, req.owner_principal_name = owner.split(":", 1)
    return w.request(req, version)


def created(resp: Any, asked_ms: int) -> dict:
    """A CreateDelegationToken answer with what differs between brokers made relative."""
    ok = resp.error_code == 0
    return {
        "error": d.err(resp.error_code),
        "owner": (resp.principal_type, resp.principal_name),
        "requester": (resp.token_requester_principal_type, resp.token_requester_principal_name),
        "issue": near(resp.issue_timestamp_ms, asked_ms) if ok else resp.issue_timestamp_ms,
        "expiry": resp.expiry_timestamp_ms - resp.issue_timestamp_ms if ok else resp.expiry_timestamp_ms,
        "max": resp.max_timestamp_ms - resp.issue_timestamp_ms if ok else resp.max_timestamp_ms,
        "token_id": len(resp.token_id) if ok else resp.token_id,
        "hmac": len(resp.hmac) if ok else resp.hmac,
        "id_is_base64url": ok and len(base64.urlsafe_b64decode(resp.token_id + "==")) == 16,
    }


def sc_create(b: Broker) -> dict:
    alice, bob = b.user("alice"), b.user("bob")
    out: dict[str, Any] = {}
    with b.client(alice) as w:
        for version in (1, 2, 3):
            out[f"v{version}"] = created(create(w, version), now_ms())
        out["short_life"] = created(create(w, max_lifetime_ms=60_000), now_ms())
        out["longer_than_allowed"] = created(create(w, max_lifetime_ms=30 * 86_400_000), now_ms())
        out["zero_life"] = created(create(w, max_lifetime_ms=0), now_ms())
        out["self_as_owner"] = created(create(w, owner=f"User:{alice}"), now_ms())
        out["other_owner_no_acl"] = created(create(w, owner=f"User:{bob}"), now_ms())
        out["group_renewer"] = created(create(w, renewers=[("Group", "g")]), now_ms())
        out["renewers"] = created(create(w, renewers=[("User", bob)]), now_ms())
    b.grant(f"User:{alice}", RT_USER, f"User:{bob}", OP_CREATE_TOKENS)
    with b.client(alice) as w:
        out["other_owner_with_acl"] = created(create(w, owner=f"User:{bob}"), now_ms())
        out["other_owner_v2"] = created(create(w, 2), now_ms())
    with WireClient(b.admin) as w:
        out["plaintext"] = created(create(w), now_ms())
        out["plaintext_v1"] = created(create(w, 1), now_ms())
    return out


def _renew(w: WireClient, hmac: bytes, period: int, version: int = 2) -> tuple[str, Any]:
    asked = now_ms()
    resp = w.request(RenewDelegationTokenRequest(hmac=hmac, renew_period_ms=period), version)
    return d.err(resp.error_code), resp.expiry_timestamp_ms if resp.error_code else resp.expiry_timestamp_ms - asked


def _expire(w: WireClient, hmac: bytes, period: int, version: int = 2) -> tuple[str, Any]:
    asked = now_ms()
    resp = w.request(ExpireDelegationTokenRequest(hmac=hmac, expiry_time_period_ms=period), version)
    return d.err(resp.error_code), resp.expiry_timestamp_ms if resp.error_code else resp.expiry_timestamp_ms - asked


def _rounded(result: tuple[str, Any]) -> tuple[str, Any]:
    """A relative expiry to the nearest 10 s (the broker's clock ran on while we asked)."""
    code, value = result
    return code, value if code != "NONE" else round(value / 10_000) * 10_000


def sc_renew_and_expire(b: Broker) -> dict:
    alice, bob, carol = b.user("alice"), b.user("bob"), b.user("carol")
    out: dict[str, Any] = {}
    with b.client(alice) as w:
        token = create(w, renewers=[("User", bob)])
        capped = create(w, max_lifetime_ms=120_000)
        short = create(w, max_lifetime_ms=1_000)
    b.settle(alice, token, capped)
    with b.client(alice) as w:
        out["owner_renews"] = _rounded(_renew(w, token.hmac, 600_000))
        out["v1"] = _rounded(_renew(w, token.hmac, 600_000, version=1))
        out["default_period"] = _rounded(_renew(w, token.hmac, -1))
        out["beyond_max"] = _renew(w, capped.hmac, 10**9)[0]
        out["unknown_hmac"] = _renew(w, b"no-such-token", 1000)
        out["empty_hmac"] = _renew(w, b"", 1000)
    with b.client(bob) as w:
        out["renewer_renews"] = _rounded(_renew(w, token.hmac, 600_000))
        out["renewer_expires_later"] = _rounded(_expire(w, token.hmac, 300_000))
    with b.client(carol) as w:
        out["stranger_renews"] = _renew(w, token.hmac, 1000)
        out["stranger_expires"] = _expire(w, token.hmac, 1000)
        out["stranger_expires_now"] = _expire(w, token.hmac, -1)
    time.sleep(1.5)  # `short` is now past its maximum (the expiry check runs hourly on both)
    with b.client(carol) as w:
        out["stranger_renews_expired"] = _renew(w, short.hmac, 1000)  # expiry before ownership
        out["stranger_expires_expired"] = _expire(w, short.hmac, 1000)  # ownership before expiry
    with b.client(alice) as w:
        out["renew_expired"] = _renew(w, short.hmac, 1000)
        out["expire_expired_later"] = _expire(w, short.hmac, 1000)
        listed = w.request(DescribeDelegationTokenRequest(owners=None), 3)
        out["expired_still_described"] = short.token_id in [t.token_id for t in listed.tokens]
        out["expire_expired_now"] = _rounded(_expire(w, short.hmac, -1))
        out["expire_capped"] = _expire(w, capped.hmac, 10**9)[0]
        out["capped_expiry_is_max"] = [
            t.expiry_timestamp == t.max_timestamp == capped.max_timestamp_ms
            for t in w.request(DescribeDelegationTokenRequest(owners=None), 3).tokens
            if t.token_id == capped.token_id
        ]
        out["expire_now"] = _rounded(_expire(w, token.hmac, -1, version=1))
        listed = w.request(DescribeDelegationTokenRequest(owners=None), 3)
        out["left"] = sorted(
            {token.token_id: "token", capped.token_id: "capped", short.token_id: "short"}.get(t.token_id, "?")
            for t in listed.tokens
        )
        out["renew_removed"] = _renew(w, token.hmac, 1000)
        out["expire_removed"] = _expire(w, token.hmac, -1)
    return out


def _described(resp: Any, names: dict[str, str], hmacs: dict[str, bytes]) -> tuple[str, list]:
    return d.err(resp.error_code), sorted(
        (
            names.get(t.token_id, "?"),
            (t.principal_type, t.principal_name),
            (t.token_requester_principal_type, t.token_requester_principal_name),
            t.expiry_timestamp - t.issue_timestamp,
            t.max_timestamp - t.issue_timestamp,
            t.hmac == hmacs.get(t.token_id),
            sorted((r.principal_type, r.principal_name) for r in t.renewers),
        )
        for t in resp.tokens
    )


def sc_describe(b: Broker) -> dict:
    alice, bob, carol, dave = b.user("alice"), b.user("bob"), b.user("carol"), b.user("dave")
    with b.client(alice) as w:
        mine = create(w, renewers=[("User", bob)], max_lifetime_ms=3_600_000)
    with b.client(carol) as w:
        carols = create(w)
    b.settle(alice, mine)
    b.settle(carol, carols)
    names = {mine.token_id: "alice's", carols.token_id: "carol's"}
    hmacs = {mine.token_id: mine.hmac, carols.token_id: carols.hmac}

    def describe(user: str, owners: list[str] | None, version: int = 3) -> tuple[str, list]:
        listed = None
        if owners is not None:
            listed = [DescribeDelegationTokenOwner(principal_type="User", principal_name=o) for o in owners]
        with b.client(user) as w:
            resp = w.request(DescribeDelegationTokenRequest(owners=listed), version)
        return _described(resp, names, hmacs)

    out: dict[str, Any] = {
        "owner_all": describe(alice, None),
        "owner_v1": describe(alice, None, 1),
        "renewer_all": describe(bob, None),
        "stranger_all": describe(dave, None),
        "empty_owners": describe(alice, []),
        "owner_asks_for_carol": describe(alice, [carol]),
        "owner_asks_for_renewer": describe(alice, [bob]),
    }
    b.grant(f"User:{dave}", RT_DELEGATION_TOKEN, mine.token_id, OP_DESCRIBE)
    out["token_acl"] = describe(dave, None)
    b.grant(f"User:{dave}", RT_USER, f"User:{carol}", OP_DESCRIBE_TOKENS)
    out["owner_acl"] = describe(dave, None)
    out["owner_acl_filtered"] = describe(dave, [carol])
    with WireClient(b.admin) as w:
        out["plaintext"] = _described(w.request(DescribeDelegationTokenRequest(owners=None), 3), names, hmacs)
    return out


def sc_authenticate_with_a_token(b: Broker) -> dict:
    alice = b.user("alice")
    with b.client(alice) as w:
        token = create(w, max_lifetime_ms=3_600_000)
    b.settle(alice, token)
    out: dict[str, Any] = {}
    asked = now_ms()
    with b.token_client(token.token_id, token.hmac) as w:
        out["session_lifetime"] = near(w.session_lifetime_ms, token.expiry_timestamp_ms - asked)
        out["metadata"] = d.err(w.request(MetadataRequest(topics=[]), 12).error_code)
        out["create"] = created(create(w), now_ms())
        out["renew"] = _renew(w, token.hmac, 1000)
        out["expire"] = _expire(w, token.hmac, -1)
        out["describe"] = d.err(w.request(DescribeDelegationTokenRequest(owners=None), 3).error_code)
    for label, (token_id, hmac) in {
        "wrong_hmac": (token.token_id, b"\x00" * 64),
        "unknown_token": ("AAAAAAAAAAAAAAAAAAAAAA", token.hmac),
    }.items():
        try:
            b.token_client(token_id, hmac).close()
            out[label] = "authenticated"
        except SaslClientError as exc:
            out[label] = (d.err(exc.code), str(exc))
    with b.client(alice) as w:
        out["still_there"] = _rounded(_renew(w, token.hmac, 600_000))
    return out


def sc_api_versions(b: Broker) -> dict:
    with WireClient(b.admin) as w:
        resp = w.request(ApiVersionsRequest(client_software_name="diff", client_software_version="1"), 3)
    return {"versions": {k.api_key: (k.min_version, k.max_version) for k in resp.api_keys}}


def test_create(kafka, sb):
    compare(sc_create, kafka, sb)


def test_renew_and_expire(kafka, sb):
    compare(sc_renew_and_expire, kafka, sb)


def test_describe(kafka, sb):
    compare(sc_describe, kafka, sb)


def test_authenticate_with_a_token(kafka, sb):
    compare(sc_authenticate_with_a_token, kafka, sb)


def test_every_client_facing_api_of_kafka_is_served(kafka, sb):
    """ApiVersions: every API Kafka 4.4.0's broker listener lists, but the Raft ones, is
    served by sharebroker at Kafka's version range or wider; the token APIs exactly."""
    k, s = sc_api_versions(kafka)["versions"], sc_api_versions(sb)["versions"]
    missing = sorted(key for key in k if key not in s and key not in RAFT_APIS)
    narrower = sorted(key for key in k if key in s and not (s[key][0] <= k[key][0] and k[key][1] <= s[key][1]))
    assert not missing and not narrower, f"missing {missing}, narrower {[(n, k[n], s[n]) for n in narrower]}"
    assert {key: s[key] for key in (38, 39, 40, 41)} == {key: k[key] for key in (38, 39, 40, 41)}
    assert not RAFT_APIS & set(s)
