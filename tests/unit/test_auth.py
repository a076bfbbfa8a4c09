"""The authentication state machine (broker/protocol/auth.py) with the real mechanisms."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import scramp
from hypothesis import given, settings
from hypothesis import strategies as st

from broker.protocol.api_keys import ApiKey
from broker.protocol.auth import (
    ANONYMOUS,
    DEFAULT_SASL_MAX_RECEIVE_SIZE,
    TRANSITIONS,
    Action,
    Authenticator,
    AuthEvent,
    AuthSettings,
    AuthState,
    KafkaPrincipal,
    Outcome,
    SaslServer,
    SecurityProtocol,
    Verdict,
)
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.api_versions_request import ApiVersionsRequest
from broker.protocol.messages.metadata_request import MetadataRequest
from broker.protocol.messages.sasl_authenticate_request import SaslAuthenticateRequest
from broker.protocol.messages.sasl_authenticate_response import SaslAuthenticateResponse
from broker.protocol.messages.sasl_handshake_request import SaslHandshakeRequest
from broker.protocol.messages.sasl_handshake_response import SaslHandshakeResponse
from broker.security.sasl.plain import PlainServer, StaticPlainCredentials
from broker.security.sasl.scram import ScramServer
from broker.security.scram import ScramCredentialStore, ScramMechanismType, credential_from_password

USERS = StaticPlainCredentials({"alice": "alice-secret", "bob": "bob-secret"})
SCRAM = ScramCredentialStore(
    {("carol", ScramMechanismType.SCRAM_SHA_512): credential_from_password(ScramMechanismType.SCRAM_SHA_512, "pw")}
)
FACTORIES: dict[str, Callable[[], SaslServer]] = {
    "PLAIN": lambda: PlainServer(USERS),
    "SCRAM-SHA-512": lambda: ScramServer("SCRAM-SHA-512", SCRAM.lookup),
}


def sasl(reauth_ms: int = 0, mechanisms: tuple[str, ...] = ("PLAIN", "SCRAM-SHA-512")) -> Authenticator:
    return Authenticator(
        AuthSettings(SecurityProtocol.SASL_SSL, mechanisms, default_max_reauth_ms=reauth_ms), FACTORIES
    )


def handshake(a: Authenticator, mechanism: str = "PLAIN", version: int = 1, now: int = 0) -> Outcome:
    return a.receive(ApiKey.SASL_HANDSHAKE, version, SaslHandshakeRequest(mechanism=mechanism), now)


def authenticate(a: Authenticator, token: bytes, version: int = 2, now: int = 0) -> Outcome:
    return a.receive(ApiKey.SASL_AUTHENTICATE, version, SaslAuthenticateRequest(auth_bytes=token), now)


def metadata(a: Authenticator, now: int = 0) -> Outcome:
    return a.receive(ApiKey.METADATA, 12, MetadataRequest(), now)


def handshake_response(out: Outcome) -> SaslHandshakeResponse:
    assert isinstance(out.response, SaslHandshakeResponse), out
    return out.response


def auth_response(out: Outcome) -> SaslAuthenticateResponse:
    assert isinstance(out.response, SaslAuthenticateResponse), out
    return out.response


def login(a: Authenticator, user: str = "alice", now: int = 0) -> Outcome:
    assert handshake_response(handshake(a, now=now)).error_code == ErrorCode.NONE
    return authenticate(a, b"\0" + user.encode() + b"\0" + f"{user}-secret".encode(), now=now)


def test_table_has_a_row_for_every_pair():
    assert set(TRANSITIONS) == {(s, e) for s in AuthState for e in AuthEvent}
    # nothing but the raw-token row reads raw tokens, and nothing leaves FAILED
    assert [k for k, r in TRANSITIONS.items() if r.action is Action.EXCHANGE_RAW] == [
        (AuthState.EXCHANGE_RAW, AuthEvent.RAW_TOKEN)
    ]
    assert all(TRANSITIONS[(AuthState.FAILED, e)].action is Action.CLOSE for e in AuthEvent)


def test_plaintext_and_ssl_listeners_start_authenticated():
    a = Authenticator(AuthSettings(SecurityProtocol.PLAINTEXT))
    assert a.authenticated and a.principal == ANONYMOUS and a.frame_limit is None
    assert metadata(a).verdict is Verdict.DISPATCH
    # SaslHandshake/SaslAuthenticate are answered with ILLEGAL_SASL_STATE; the connection lives
    out = handshake(a)
    assert (out.verdict, out.close, handshake_response(out).error_code) == (
        Verdict.RESPOND,
        False,
        ErrorCode.ILLEGAL_SASL_STATE,
    )
    out = authenticate(a, b"x")
    assert auth_response(out).error_message == "SaslAuthenticate request received after successful authentication"
    cert_user = KafkaPrincipal.user("CN=client,O=test")
    assert Authenticator(AuthSettings(SecurityProtocol.SSL), ssl_principal=cert_user).principal == cert_user


@pytest.mark.parametrize("api_key", [ApiKey.METADATA, ApiKey.PRODUCE, ApiKey.SASL_AUTHENTICATE])
def test_sasl_listener_closes_on_anything_but_api_versions_and_handshake(api_key):
    a = sasl()
    assert a.frame_limit == DEFAULT_SASL_MAX_RECEIVE_SIZE
    body = SaslAuthenticateRequest() if api_key == ApiKey.SASL_AUTHENTICATE else MetadataRequest()
    out = a.receive(api_key, 0, body, 0)
    assert (out.verdict, out.close, a.state) == (Verdict.CLOSE, True, AuthState.FAILED)
    assert "during SASL handshake" in out.reason


def test_api_versions_once_then_handshake():
    a = sasl()
    # an unsupported ApiVersions version is answered (fallback) and may be retried
    assert a.receive(ApiKey.API_VERSIONS, 99, None, 0).verdict is Verdict.DISPATCH
    assert a.state is AuthState.INITIAL
    # an invalid v3 request is answered (INVALID_REQUEST by the handler), state unchanged
    bad = ApiVersionsRequest(client_software_name="-bad-", client_software_version="1")
    assert a.receive(ApiKey.API_VERSIONS, 3, bad, 0).verdict is Verdict.DISPATCH
    assert a.state is AuthState.INITIAL
    ok = ApiVersionsRequest(client_software_name="librdkafka", client_software_version="2.6.0")
    assert a.receive(ApiKey.API_VERSIONS, 3, ok, 0).verdict is Verdict.DISPATCH
    assert a.state is AuthState.AWAIT_HANDSHAKE
    # a second ApiVersions closes, as in Kafka
    assert a.receive(ApiKey.API_VERSIONS, 3, ok, 0).verdict is Verdict.CLOSE


def test_unsupported_mechanism_lists_the_enabled_ones_and_closes():
    a = sasl()
    out = handshake(a, "GSSAPI")
    assert out.close and out.verdict is Verdict.RESPOND
    assert handshake_response(out).error_code == ErrorCode.UNSUPPORTED_SASL_MECHANISM
    assert handshake_response(out).mechanisms == ["PLAIN", "SCRAM-SHA-512"]
    assert a.state is AuthState.FAILED


def test_plain_v1_success_and_session_without_expiry():
    a = sasl()
    out = login(a)
    assert auth_response(out).error_code == ErrorCode.NONE and auth_response(out).session_lifetime_ms == 0
    assert a.authenticated and a.principal == KafkaPrincipal.user("alice")
    assert a.frame_limit is None and a.session_expiry_ms is None
    assert metadata(a, now=10**12).verdict is Verdict.DISPATCH


@pytest.mark.parametrize(
    ("token", "message"),
    [
        (b"\0alice\0wrong", "Authentication failed: Invalid username or password"),
        (b"\0nobody\0x", "Authentication failed: Invalid username or password"),
        (b"alice-secret", "Invalid SASL/PLAIN response: expected 3 tokens, got 1"),
        (b"\0\0\0\0", "Invalid SASL/PLAIN response: expected 3 tokens, got 4"),
        (b"\0\0x", "Authentication failed: username not specified"),
        (b"\0alice\0", "Authentication failed: password not specified"),
        (
            b"bob\0alice\0alice-secret",
            "Authentication failed: Client requested an authorization id that is different from username",
        ),
    ],
)
def test_plain_failures_carry_kafkas_messages_and_close(token, message):
    a = sasl()
    handshake(a)
    out = authenticate(a, token)
    assert out.close and auth_response(out).error_code == ErrorCode.SASL_AUTHENTICATION_FAILED
    assert auth_response(out).error_message == message
    assert a.state is AuthState.FAILED


def test_other_requests_during_the_exchange_get_illegal_sasl_state_then_close():
    a = sasl()
    handshake(a)
    out = metadata(a)
    assert out.verdict is Verdict.ERROR and out.close
    assert out.error is not None and out.error.code is ErrorCode.ILLEGAL_SASL_STATE
    assert str(out.error).endswith("Unexpected Kafka request of type METADATA during SASL authentication.")


def test_handshake_v0_switches_to_raw_tokens():
    a = sasl()
    assert handshake_response(handshake(a, version=0)).error_code == ErrorCode.NONE
    assert a.expects_raw_token
    out = a.receive_token(b"\0bob\0bob-secret", 0)
    assert out.verdict is Verdict.RESPOND and out.raw_token == b"" and not out.close
    assert a.principal == KafkaPrincipal.user("bob") and not a.expects_raw_token


def test_handshake_v0_failure_closes_without_a_response():
    a = sasl()
    handshake(a, version=0)
    out = a.receive_token(b"\0bob\0nope", 0)
    assert (out.verdict, out.close, out.response, out.raw_token) == (Verdict.CLOSE, True, None, None)


def scram_login(a: Authenticator, user: str, password: str, now: int = 0, version: int = 2) -> Outcome:
    handshake(a, "SCRAM-SHA-512", now=now)
    client = scramp.ScramClient(["SCRAM-SHA-512"], user, password)
    first = authenticate(a, client.get_client_first().encode(), version=version, now=now)
    if first.close:
        return first
    assert auth_response(first).session_lifetime_ms == 0
    client.set_server_first(auth_response(first).auth_bytes.decode())
    final = authenticate(a, client.get_client_final().encode(), version=version, now=now)
    if not final.close:
        client.set_server_final(auth_response(final).auth_bytes.decode())  # verifies the server
    return final


def test_scram_success_and_generic_failures():
    a = sasl()
    assert auth_response(scram_login(a, "carol", "pw")).error_code == ErrorCode.NONE
    assert a.principal == KafkaPrincipal.user("carol")
    for user, password in (("carol", "wrong"), ("nobody", "pw")):
        b = sasl()
        out = scram_login(b, user, password)
        assert out.close and auth_response(out).error_code == ErrorCode.SASL_AUTHENTICATION_FAILED
        assert auth_response(out).error_message == (
            "Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-512"
        )


def test_reauth_session_lifetime_and_expiry_close():
    a = sasl(reauth_ms=60_000)
    out = login(a, now=1_000)
    assert auth_response(out).session_lifetime_ms == 60_000 and a.session_expiry_ms == 61_000
    assert metadata(a, now=61_000).verdict is Verdict.DISPATCH
    out = metadata(a, now=61_001)
    assert out.verdict is Verdict.CLOSE and "expired" in out.reason


def test_reauth_same_mechanism_renews_the_session():
    a = sasl(reauth_ms=60_000)
    login(a, now=0)
    # the session expired, but a SaslHandshake starts re-authentication
    out = handshake(a, now=70_000)
    assert handshake_response(out).error_code == ErrorCode.NONE and a.reauthenticating and a.frame_limit is None
    out = authenticate(a, b"\0alice\0alice-secret", now=70_000)
    assert auth_response(out).session_lifetime_ms == 60_000 and a.session_expiry_ms == 130_000
    assert a.authenticated and metadata(a, now=100_000).verdict is Verdict.DISPATCH
    # within a second of the last start: answered like an ordinary request
    out = handshake(a, now=70_500)
    assert handshake_response(out).error_code == ErrorCode.ILLEGAL_SASL_STATE and not out.close


def test_reauth_cannot_change_principal_or_mechanism():
    a = sasl(reauth_ms=60_000)
    login(a, "alice")
    handshake(a, now=5_000)
    out = authenticate(a, b"\0bob\0bob-secret", now=5_000)
    assert out.close and auth_response(out).error_message == (
        "Cannot change principals during re-authentication from User.alice: User.bob"
    )
    b = sasl(reauth_ms=60_000)
    login(b, "alice")
    out = handshake(b, "SCRAM-SHA-512", now=5_000)
    assert handshake_response(out).error_code == ErrorCode.NONE and b.state is AuthState.REAUTH_BAD_MECHANISM
    out = authenticate(b, b"whatever", now=5_000)
    assert out.verdict is Verdict.CLOSE
    assert "not supported for re-authentication of mechanism 'PLAIN'" in out.reason


def test_handshake_without_session_expiry_is_illegal_state():
    a = sasl()
    login(a)
    out = handshake(a, now=10_000)
    assert handshake_response(out).error_code == ErrorCode.ILLEGAL_SASL_STATE and not out.close
    assert a.authenticated


def test_a_listener_without_mechanisms_is_refused():
    with pytest.raises(ValueError, match="at least one enabled mechanism"):
        Authenticator(AuthSettings(SecurityProtocol.SASL_PLAINTEXT, ()), {})
    with pytest.raises(ValueError, match="no SASL server"):
        Authenticator(AuthSettings(SecurityProtocol.SASL_PLAINTEXT, ("PLAIN",)), {})


EVENTS = st.lists(
    st.tuples(
        st.sampled_from([ApiKey.API_VERSIONS, ApiKey.SASL_HANDSHAKE, ApiKey.SASL_AUTHENTICATE, ApiKey.METADATA, -1]),
        st.integers(0, 3),
        st.binary(max_size=40),
        st.sampled_from(["PLAIN", "SCRAM-SHA-512", "OAUTHBEARER", ""]),
        st.integers(0, 200_000),
    ),
    max_size=12,
)


@settings(max_examples=300, deadline=None)
@given(events=EVENTS, reauth=st.sampled_from([0, 1_000, 60_000]))
def test_any_sequence_yields_outcomes_and_failed_stays_failed(events, reauth):
    a = sasl(reauth_ms=reauth)
    now = 0
    for api_key, version, data, mechanism, dt in events:
        now += dt
        if a.expects_raw_token or api_key == -1:
            out = a.receive_token(data, now)
        elif api_key == ApiKey.SASL_HANDSHAKE:
            out = a.receive(api_key, min(version, 1), SaslHandshakeRequest(mechanism=mechanism), now)
        elif api_key == ApiKey.SASL_AUTHENTICATE:
            out = a.receive(api_key, min(version, 2), SaslAuthenticateRequest(auth_bytes=data), now)
        elif api_key == ApiKey.API_VERSIONS:
            out = a.receive(api_key, version, ApiVersionsRequest(), now)
        else:
            out = metadata(a, now)
        assert isinstance(out, Outcome)
        if out.close:
            assert a.state is AuthState.FAILED
        if a.state is AuthState.FAILED:
            assert a.receive_token(b"", now).verdict is Verdict.CLOSE
            return
        if out.verdict is Verdict.DISPATCH:
            assert a.authenticated or api_key == ApiKey.API_VERSIONS
