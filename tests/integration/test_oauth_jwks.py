"""OAUTHBEARER with signed tokens validated against a JWKS, on the broker process.

A JWKS is served on loopback; the broker's SASL_SSL listener validates tokens with it
(``sasl.oauthbearer.jwks.endpoint.url``, expected audience and issuer). librdkafka
hands the broker a token from its ``oauth_cb``: an RS256 token signed with the
published key is accepted and its ``sub`` is the principal the ACLs see; a token
signed with another key, for another audience or expired is refused.
"""

from __future__ import annotations

import http.server
import json
import threading
import time
import uuid

import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from tests.integration.test_security import ADMIN_JAAS, AUTHORIZER, auth_errors, produce_one, tool
from tests.pki import Pki

ISSUER = "https://issuer.sharebroker.test"


@pytest.fixture(scope="module")
def keys():
    return [rsa.generate_private_key(public_exponent=65537, key_size=2048) for _ in range(2)]


@pytest.fixture(scope="module")
def jwks_url(keys):
    public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(keys[0].public_key()))
    body = json.dumps({"keys": [{**public, "kid": "k1", "use": "sig", "alg": "RS256"}]}).encode()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/jwks"
    server.shutdown()
    server.server_close()
    thread.join(5)


@pytest.fixture(scope="module")
def pki(tmp_path_factory) -> Pki:
    return Pki(tmp_path_factory.mktemp("pki"))


@pytest.fixture(scope="module")
def broker(sharebroker_factory, pki, jwks_url):
    return sharebroker_factory(
        {
            "listeners": "SASL_SSL://127.0.0.1:0,PLAINTEXT://127.0.0.1:0",
            **pki.broker_settings(),
            "listener.name.sasl_ssl.sasl.enabled.mechanisms": "OAUTHBEARER,PLAIN",
            "listener.name.sasl_ssl.plain.sasl.jaas.config": ADMIN_JAAS,
            "listener.name.sasl_ssl.oauthbearer.sasl.jaas.config": (
                "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;"
            ),
            "sasl.oauthbearer.jwks.endpoint.url": jwks_url,
            "sasl.oauthbearer.expected.audience": "kafka",
            "sasl.oauthbearer.expected.issuer": ISSUER,
            "authorizer.class.name": AUTHORIZER,
            "super.users": "User:admin",
        }
    )


@pytest.fixture(scope="module")
def admin_config(pki, tmp_path_factory):
    path = tmp_path_factory.mktemp("cfg") / "admin.properties"
    path.write_text(
        "security.protocol=SASL_SSL\nsasl.mechanism=PLAIN\n"
        'sasl.jaas.config=x required username="admin" password="admin-secret";\n'
        f"ssl.truststore.type=PEM\nssl.truststore.location={pki.ca_file}\n"
    )
    return path


def token(key, *, sub: str = "svc-orders", aud: str = "kafka", lifetime: int = 300) -> tuple[str, float]:
    now = int(time.time())
    claims = {"sub": sub, "iss": ISSUER, "aud": aud, "iat": now, "exp": now + lifetime, "scope": "kafka"}
    return jwt.encode(claims, key, algorithm="RS256", headers={"kid": "k1"}), float(now + lifetime)


def oauth_conf(broker, pki, make_token) -> dict:
    def oauth_cb(_config):
        value, expiry = make_token()
        return value, expiry

    return {
        "bootstrap.servers": broker.address("SASL_SSL"),
        "security.protocol": "SASL_SSL",
        "sasl.mechanism": "OAUTHBEARER",
        "oauth_cb": oauth_cb,
        "ssl.ca.location": str(pki.ca_file),
    }


def test_signed_token_is_accepted_and_names_the_principal(broker, pki, keys, admin_config):
    topic = f"jwks-{uuid.uuid4().hex[:8]}"
    tool(broker, admin_config, "topics", "--create", "--topic", topic)
    tool(broker, admin_config, "acls", "--add", "--allow-principal", "User:svc-orders", "--producer", "--topic", topic)
    assert produce_one(oauth_conf(broker, pki, lambda: token(keys[0])), topic, b"signed") is None
    # Another subject with a valid token is authenticated but not authorized.
    denied = produce_one(oauth_conf(broker, pki, lambda: token(keys[0], sub="svc-other")), topic, b"no")
    assert denied is not None and denied.code() == 29  # TOPIC_AUTHORIZATION_FAILED


@pytest.mark.parametrize(
    "case",
    ["wrong key", "wrong audience", "expired"],
)
def test_bad_tokens_are_refused(broker, pki, keys, case):
    make = {
        "wrong key": lambda: token(keys[1]),
        "wrong audience": lambda: token(keys[0], aud="elsewhere"),
        "expired": lambda: (token(keys[0], lifetime=-120)[0], time.time() + 60),
    }[case]
    errors = auth_errors(oauth_conf(broker, pki, make), "SASL authentication error")
    assert any("SASL authentication error" in e and "invalid_token" in e for e in errors), errors
