"""SASL mechanisms (broker/security/sasl) against real clients' messages and real keys."""

from __future__ import annotations

import base64
import http.server
import json
import threading
import time
from collections.abc import Iterator

import jwt
import pytest
import scramp
from cryptography.hazmat.primitives.asymmetric import rsa

from broker.protocol.auth import SaslAuthenticationError
from broker.security.jaas import JaasConfigError, parse_jaas_config
from broker.security.sasl.oauthbearer import (
    JwksKeyCache,
    JwksValidator,
    OAuthBearerFailure,
    OAuthBearerServer,
    UnsecuredJwsValidator,
    parse_client_initial_response,
    url_fetcher,
)
from broker.security.sasl.plain import plain_credentials_from_jaas
from broker.security.sasl.scram import ScramFailure, ScramServer
from broker.security.scram import ScramCredentialStore, ScramMechanismType, credential_from_password

NOW_MS = 1_700_000_000_000


def test_jaas_config_parsing():
    entry = parse_jaas_config(
        'org.apache.kafka.common.security.plain.PlainLoginModule required username="admin" '
        'password="admin-secret" user_admin="admin-secret" user_alice="a \\"quoted\\" pw";'
    )
    assert entry.flag == "required"
    assert entry.options["user_alice"] == 'a "quoted" pw'
    creds = plain_credentials_from_jaas(
        'org.apache.kafka.common.security.plain.PlainLoginModule required user_admin="s" user_bob="b";'
    )
    assert len(creds) == 2 and creds.verify("bob", "b") and not creds.verify("bob", "s")
    assert not creds.verify("nobody", "b")
    for bad in ("", "Module required", "Module sometimes;", "A required; B required;", "M required x;"):
        with pytest.raises(JaasConfigError):
            parse_jaas_config(bad)


def store_with(user: str, password: str, mechanism=ScramMechanismType.SCRAM_SHA_256, iterations=4096):
    return ScramCredentialStore({(user, mechanism): credential_from_password(mechanism, password, iterations)})


def test_scram_matches_scramp_client_for_both_mechanisms():
    for mechanism in (ScramMechanismType.SCRAM_SHA_256, ScramMechanismType.SCRAM_SHA_512):
        name = mechanism.mechanism_name
        store = store_with("user,with=odd", "pässword", mechanism)
        server = ScramServer(name, store.lookup)
        client = scramp.ScramClient([name], "user,with=odd", "pässword")
        client.set_server_first(server.evaluate(client.get_client_first().encode(), 0).decode())
        client.set_server_final(server.evaluate(client.get_client_final().encode(), 0).decode())
        assert server.complete and server.authorization_id == "user,with=odd"


def test_scram_refusals():
    store = store_with("u", "p")
    server = ScramServer("SCRAM-SHA-256", store.lookup)
    with pytest.raises(SaslAuthenticationError, match="authorization id that is different from username"):
        server.evaluate(b"n,a=other,n=u,r=abcdefgh", 0)
    with pytest.raises(ScramFailure, match="Invalid user credentials"):
        ScramServer("SCRAM-SHA-256", store.lookup).evaluate(b"n,,n=ghost,r=abc", 0)
    with pytest.raises(ScramFailure):
        ScramServer("SCRAM-SHA-256", store.lookup).evaluate(b"garbage", 0)
    with pytest.raises(ScramFailure):  # SHA-512 credential missing for a SHA-256-only user
        ScramServer("SCRAM-SHA-512", store.lookup).evaluate(b"n,,n=u,r=abc", 0)
    # a tampered proof fails
    server = ScramServer("SCRAM-SHA-256", store.lookup)
    client = scramp.ScramClient(["SCRAM-SHA-256"], "u", "not-p")
    client.set_server_first(server.evaluate(client.get_client_first().encode(), 0).decode())
    with pytest.raises(ScramFailure):
        server.evaluate(client.get_client_final().encode(), 0)
    assert not server.complete


# --------------------------------------------------------------------------- OAUTHBEARER


def b64(obj: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()


def unsecured(claims: dict, header: dict | None = None) -> str:
    return f"{b64(header or {'alg': 'none'})}.{b64(claims)}."


def initial(token: str, authzid: str = "", extensions: str = "") -> bytes:
    return f"n,{'a=' + authzid if authzid else ''},\x01auth=Bearer {token}\x01{extensions}\x01".encode()


def test_client_initial_response_parsing():
    r = parse_client_initial_response(initial("abc.def.", "alice", "traceId=42\x01"))
    assert (r.token, r.authorization_id, r.extensions) == ("abc.def.", "alice", {"traceId": "42"})
    for bad in (b"", b"n,,\x01\x01", b"n,,\x01auth=Basic abc\x01\x01", b"y,,\x01auth=Bearer x\x01\x01"):
        with pytest.raises(OAuthBearerFailure):
            parse_client_initial_response(bad)


def test_unsecured_jws_success_sets_expiry():
    token = unsecured({"sub": "alice", "exp": NOW_MS / 1000 + 60, "iat": NOW_MS / 1000, "scope": ["a", "b"]})
    server = OAuthBearerServer(UnsecuredJwsValidator(required_scope=("a",)))
    assert server.evaluate(initial(token), NOW_MS) == b""
    assert server.complete and server.authorization_id == "alice"
    assert server.credential_expiry_ms == NOW_MS + 60_000


@pytest.mark.parametrize(
    ("claims", "header", "status"),
    [
        ({"sub": "alice", "exp": NOW_MS / 1000 - 1}, None, '{"status":"invalid_token"}'),
        ({"sub": "alice"}, None, '{"status":"invalid_token"}'),
        ({"exp": NOW_MS / 1000 + 60}, None, '{"status":"invalid_token"}'),
        ({"sub": "alice", "exp": NOW_MS / 1000 + 60}, {"alg": "HS256"}, '{"status":"invalid_token"}'),
        ({"sub": "alice", "exp": "soon"}, None, '{"status":"invalid_token"}'),
        ({"sub": "alice", "exp": NOW_MS / 1000 + 60, "iat": NOW_MS / 1000 + 30}, None, '{"status":"invalid_token"}'),
        ({"sub": "alice", "exp": NOW_MS / 1000 + 60}, None, '{"status":"insufficient_scope", "scope":"[admin]"}'),
    ],
)
def test_unsecured_jws_failures_answer_json_then_fail(claims, header, status):
    server = OAuthBearerServer(UnsecuredJwsValidator(required_scope=("admin",) if "scope" in status else ()))
    challenge = server.evaluate(initial(unsecured(claims, header)), NOW_MS)
    assert challenge.decode() == status and not server.complete
    with pytest.raises(SaslAuthenticationError) as failed:
        server.evaluate(b"\x01", NOW_MS)
    assert str(failed.value) == status


def test_unsecured_jws_options_and_authzid():
    v = UnsecuredJwsValidator.from_jaas_options(
        {"unsecuredValidatorPrincipalClaimName": "user", "unsecuredValidatorAllowableClockSkewMs": "5000"}
    )
    token = unsecured({"user": "bob", "exp": NOW_MS / 1000 - 2})  # expired, but within the skew
    assert v.validate(token, NOW_MS).principal_name == "bob"
    server = OAuthBearerServer(v)
    with pytest.raises(SaslAuthenticationError, match=r"authorization id \(eve\) that is different"):
        server.evaluate(initial(token, "eve"), NOW_MS)
    with pytest.raises(ValueError):
        UnsecuredJwsValidator.from_jaas_options({"unsecuredValidatorAllowableClockSkewMs": "-1"})
    with pytest.raises(ValueError):
        UnsecuredJwsValidator.from_jaas_options({"unsecuredValidatorAllowableClockSkewMs": "x"})


@pytest.fixture(scope="module")
def rsa_keys():
    return [rsa.generate_private_key(public_exponent=65537, key_size=2048) for _ in range(2)]


def jwk(key, kid: str) -> dict:
    data = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(key.public_key()))
    data.update(kid=kid, use="sig", alg="RS256")
    return data


class _Jwks(http.server.BaseHTTPRequestHandler):
    body = b"{}"
    hits = 0

    def do_GET(self):
        type(self).hits += 1
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.end_headers()
        self.wfile.write(type(self).body)

    def log_message(self, *args):
        pass


@pytest.fixture
def jwks_server() -> Iterator[tuple[str, type[_Jwks]]]:
    handler = type("Jwks", (_Jwks,), {"hits": 0})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/jwks", handler
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


def signed(key, kid: str, **claims) -> str:
    now = int(time.time())
    body = {"sub": "svc-a", "iat": now, "exp": now + 300, "iss": "https://issuer.test", "aud": "kafka", **claims}
    return jwt.encode(body, key, algorithm="RS256", headers={"kid": kid})


def test_jwks_validation_with_a_local_key_server(rsa_keys, jwks_server):
    url, handler = jwks_server
    handler.body = json.dumps({"keys": [jwk(rsa_keys[0], "k1")]}).encode()
    cache = JwksKeyCache(url_fetcher(url), refresh_ms=60_000, retry_backoff_ms=100)
    assert cache.refresh_due(0) and cache.refresh(0) == 1 and handler.hits == 1
    validator = JwksValidator(cache, expected_audience=("kafka",), expected_issuer="https://issuer.test")
    server = OAuthBearerServer(validator)
    assert server.evaluate(initial(signed(rsa_keys[0], "k1", scope="read write")), 0) == b""
    assert server.authorization_id == "svc-a" and server.credential_expiry_ms is not None

    def status(token: str) -> str:
        return OAuthBearerServer(validator).evaluate(initial(token), 0).decode()

    invalid = '{"status":"invalid_token"}'
    assert status(signed(rsa_keys[1], "k1")) == invalid  # wrong key
    assert status(signed(rsa_keys[0], "k1", aud="other")) == invalid
    assert status(signed(rsa_keys[0], "k1", iss="https://evil.test")) == invalid
    assert status(signed(rsa_keys[0], "k1", exp=int(time.time()) - 120)) == invalid
    assert status(unsecured({"sub": "x", "exp": 2**40})) == invalid  # alg none never passes
    hs = jwt.encode(
        {"sub": "x", "iat": 1, "exp": 2**40},
        "a-shared-secret-of-at-least-32-bytes!",
        algorithm="HS256",
        headers={"kid": "k1"},
    )
    assert status(hs) == invalid

    # an unknown kid fails now and asks for an early refresh; after it, the new key works
    assert status(signed(rsa_keys[1], "k2")) == invalid
    assert not cache.refresh_due(50) and cache.refresh_due(100)
    handler.body = json.dumps({"keys": [jwk(rsa_keys[0], "k1"), jwk(rsa_keys[1], "k2")]}).encode()
    assert cache.refresh(100) == 2 and handler.hits == 2
    assert status(signed(rsa_keys[1], "k2")) == ""
    assert not cache.refresh_due(59_000) and cache.refresh_due(60_100)

    handler.body = b"not json"
    with pytest.raises(ValueError, match="JWKS document"):
        cache.refresh(200)
    assert status(signed(rsa_keys[1], "k2")) == ""  # the last good key set stays


def test_url_fetcher_refuses_other_schemes():
    with pytest.raises(ValueError):
        url_fetcher("ftp://127.0.0.1/jwks")
