"""Delegation tokens (broker/security/tokens.py), pure, on a fake clock: Kafka 4.4.0's
controller rules for create, renew, expire, describe and the expiry sweep; the SCRAM
exchange with ``tokenauth=true`` against a client computed here from RFC 5802."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json

import pytest

from broker.protocol.auth import KafkaPrincipal
from broker.protocol.errors import ErrorCode
from broker.security.sasl.client import ScramSaslClient
from broker.security.sasl.scram import ScramFailure, ScramServer, parse_extensions
from broker.security.store import SecurityStore
from broker.security.tokens import (
    MAX_EXPIRATIONS_PER_SWEEP,
    DelegationTokens,
    TokenSettings,
    new_token_id,
    token_doc,
    token_from_doc,
)

DAY = 24 * 3600 * 1000
NOW = 1_700_000_000_000
ALICE, BOB, CAROL = KafkaPrincipal.user("alice"), KafkaPrincipal.user("bob"), KafkaPrincipal.user("carol")
SETTINGS = TokenSettings(secret_key="s3cret", max_lifetime_ms=7 * DAY, expiry_time_ms=DAY)


def tokens(settings: TokenSettings = SETTINGS) -> DelegationTokens:
    return DelegationTokens(settings)


def created(t: DelegationTokens, owner=ALICE, renewers=(), max_lifetime_ms=-1, now=NOW, requester=None):
    out = t.prepare_create(now, requester or owner, owner, list(renewers), max_lifetime_ms)
    assert out.error_code == ErrorCode.NONE
    t.apply(out.delta)
    return out


def test_the_hmac_is_hmac_sha512_of_the_id_under_the_secret_key():
    t = tokens()
    out = created(t)
    assert out.hmac == hmac.new(b"s3cret", out.token.token_id.encode(), hashlib.sha512).digest()
    # Another broker with the same key knows the same HMAC: it is never stored.
    assert "hmac" not in json.dumps(token_doc(out.token))
    assert DelegationTokens(SETTINGS, [out.token]).hmac(out.token.token_id) == out.hmac


def test_create_lifetimes():
    t = tokens()
    a = created(t).token
    assert (a.issue_ms, a.expiry_ms, a.max_ms) == (NOW, NOW + DAY, NOW + 7 * DAY)
    shorter = created(t, max_lifetime_ms=3600_000).token  # below the expiry time: caps it
    assert (shorter.expiry_ms, shorter.max_ms) == (NOW + 3600_000, NOW + 3600_000)
    longer = created(t, max_lifetime_ms=30 * DAY).token  # above the setting: the setting wins
    assert longer.max_ms == NOW + 7 * DAY
    assert created(t, max_lifetime_ms=0).token.max_ms == NOW + 7 * DAY
    huge = tokens(TokenSettings("k", max_lifetime_ms=2**63 - 1, expiry_time_ms=2**63 - 1))
    assert created(huge).token.max_ms == 2**63 - 1  # saturates, as Kafka's sum()


def test_create_refusals():
    off = tokens(TokenSettings(secret_key=None))
    assert off.prepare_create(NOW, ALICE, ALICE, [], -1).error_code == ErrorCode.DELEGATION_TOKEN_AUTH_DISABLED
    assert not tokens(TokenSettings(secret_key="")).enabled
    bad = tokens().prepare_create(NOW, ALICE, ALICE, [KafkaPrincipal("Group", "g")], -1)
    assert bad.error_code == ErrorCode.INVALID_PRINCIPAL_TYPE and bad.delta.empty


def test_token_ids_look_like_kafka_uuids():
    for _ in range(200):
        token_id = new_token_id()
        assert len(token_id) == 22 and not token_id.startswith("-")
        assert base64.urlsafe_b64decode(token_id + "==")


def test_renew():
    t = tokens()
    out = created(t, renewers=[BOB])
    later = NOW + 1000
    renewed = t.prepare_renew(later, BOB, out.hmac, 3600_000)
    assert (renewed.error_code, renewed.expiry_ms) == (ErrorCode.NONE, later + 3600_000)
    t.apply(renewed.delta)
    assert t.get(out.token.token_id).expiry_ms == later + 3600_000
    # A period above the expiry time (or none) gives the expiry time; never past the maximum.
    assert t.prepare_renew(later, ALICE, out.hmac, 10 * DAY).expiry_ms == later + DAY
    assert t.prepare_renew(later, ALICE, out.hmac, -1).expiry_ms == later + DAY
    short = created(t, max_lifetime_ms=DAY + 5)
    assert t.prepare_renew(NOW + DAY - 10, ALICE, short.hmac, -1).expiry_ms == NOW + DAY + 5


def test_renew_refusals_in_kafkas_order():
    t = tokens()
    out = created(t, renewers=[BOB])
    assert t.prepare_renew(NOW, ALICE, b"nope", -1).error_code == ErrorCode.DELEGATION_TOKEN_NOT_FOUND
    assert t.prepare_renew(NOW, CAROL, out.hmac, -1).error_code == ErrorCode.DELEGATION_TOKEN_OWNER_MISMATCH
    expired = NOW + DAY + 1
    # Expiry is checked before who asks.
    assert t.prepare_renew(expired, CAROL, out.hmac, -1).error_code == ErrorCode.DELEGATION_TOKEN_EXPIRED
    assert t.prepare_renew(expired, ALICE, out.hmac, -1).expiry_ms == 0
    off = DelegationTokens(TokenSettings(None), [out.token])
    assert off.prepare_renew(NOW, ALICE, out.hmac, -1).error_code == ErrorCode.DELEGATION_TOKEN_AUTH_DISABLED


def test_expire():
    t = tokens()
    out = created(t, renewers=[BOB])
    soon = t.prepare_expire(NOW + 5, BOB, out.hmac, 1000)
    assert (soon.error_code, soon.expiry_ms) == (ErrorCode.NONE, NOW + 1005)
    t.apply(soon.delta)
    # Owner or renewer is checked before expiry; a negative period removes even an expired token.
    late = NOW + 2000
    assert t.prepare_expire(late, CAROL, out.hmac, -1).error_code == ErrorCode.DELEGATION_TOKEN_OWNER_MISMATCH
    assert t.prepare_expire(late, ALICE, out.hmac, 10).error_code == ErrorCode.DELEGATION_TOKEN_EXPIRED
    now_gone = t.prepare_expire(late, ALICE, out.hmac, -1)
    assert (now_gone.error_code, now_gone.expiry_ms) == (ErrorCode.NONE, late)
    t.apply(now_gone.delta)
    assert t.get(out.token.token_id) is None
    assert t.prepare_expire(late, ALICE, out.hmac, -1).error_code == ErrorCode.DELEGATION_TOKEN_NOT_FOUND
    capped = created(t, max_lifetime_ms=5000)
    assert t.prepare_expire(NOW, ALICE, capped.hmac, DAY).expiry_ms == NOW + 5000


def test_describe_filters():
    t = tokens()
    a = created(t, owner=ALICE, renewers=[BOB]).token
    c = created(t, owner=CAROL, now=NOW + 1).token
    never = lambda _: False  # noqa: E731

    def ids(requester, owners=None, token_acl=never, owner_acl=never):
        return [x.token_id for x, _ in t.describe(requester, owners, token_acl, owner_acl)]

    assert ids(ALICE) == [a.token_id]
    assert ids(BOB) == [a.token_id]  # a renewer sees it
    assert ids(CAROL) == [c.token_id]
    assert ids(ALICE, owners=[]) == []
    assert ids(ALICE, owners=[CAROL]) == []  # asked for Carol's, may see none of them
    assert ids(ALICE, owners=[BOB]) == [a.token_id]  # Bob renews Alice's token
    assert ids(BOB, token_acl=lambda token_id: token_id == c.token_id) == [a.token_id, c.token_id]
    assert ids(KafkaPrincipal.user("ops"), owner_acl=lambda owner: owner == CAROL) == [c.token_id]
    everything = t.describe(ALICE, None, lambda _: True, never)
    assert [x.token_id for x, _ in everything] == [a.token_id, c.token_id]  # oldest first
    assert everything[0][1] == t.hmac(a.token_id)


def test_the_sweep_removes_expired_tokens_at_most_a_thousand_at_a_time():
    t = tokens()
    keep = created(t, max_lifetime_ms=10 * DAY).token
    for _ in range(MAX_EXPIRATIONS_PER_SWEEP + 5):
        t.apply(t.prepare_create(NOW, ALICE, ALICE, [], 1000).delta)
    assert t.expired(NOW + 1000).empty  # still valid at its expiry instant
    first = t.expired(NOW + 1001)
    assert len(first.removals) == MAX_EXPIRATIONS_PER_SWEEP and keep.token_id not in first.removals
    t.apply(first)
    second = t.expired(NOW + 1001)
    assert len(second.removals) == 5
    t.apply(second)
    assert list(t.snapshot()) == [keep.token_id]


def test_documents_round_trip():
    token = created(tokens(), owner=KafkaPrincipal("Group", "x:y"), renewers=[BOB, CAROL]).token
    assert token_from_doc(json.loads(json.dumps(token_doc(token)))) == token
    with pytest.raises((KeyError, TypeError, ValueError)):
        token_from_doc({"token_id": "x"})


# --------------------------------------------------------------------------- SCRAM with tokenauth


def _rfc5802_client(mechanism: str, user: str, password: str, server: ScramServer, extensions: str) -> bytes:
    """The client side written out from RFC 5802, independent of scramp: returns the
    server-final message (raises what the server raises)."""
    h = {"SCRAM-SHA-256": "sha256", "SCRAM-SHA-512": "sha512"}[mechanism]
    bare = f"n={user},r=clientnonce{extensions}"
    server_first = server.evaluate(f"n,,{bare}".encode(), NOW).decode()
    fields = dict(part.split("=", 1) for part in server_first.split(","))
    salted = hashlib.pbkdf2_hmac(h, password.encode(), base64.b64decode(fields["s"]), int(fields["i"]))
    client_key = hmac.new(salted, b"Client Key", h).digest()
    without_proof = f"c=biws,r={fields['r']}"
    auth_message = f"{bare},{server_first},{without_proof}".encode()
    signature = hmac.new(hashlib.new(h, client_key).digest(), auth_message, h).digest()
    proof = base64.b64encode(bytes(a ^ b for a, b in zip(client_key, signature, strict=True))).decode()
    final = server.evaluate(f"{without_proof},p={proof}".encode(), NOW).decode()
    server_key = hmac.new(salted, b"Server Key", h).digest()
    assert final == "v=" + base64.b64encode(hmac.new(server_key, auth_message, h).digest()).decode()
    return final.encode()


@pytest.mark.parametrize("mechanism", ["SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_a_token_authenticates_as_its_owner(mechanism):
    t = tokens()
    out = created(t, owner=ALICE)
    password = base64.b64encode(out.hmac).decode()
    server = ScramServer(mechanism, lambda u, m: None, t.scram_credential)
    _rfc5802_client(mechanism, out.token.token_id, password, server, ",tokenauth=true")
    assert server.complete and server.authorization_id == "alice" and server.token_authenticated
    assert server.credential_expiry_ms == out.token.expiry_ms
    # The broker's own client (scramp with the extension appended) agrees.
    server = ScramServer(mechanism, lambda u, m: None, t.scram_credential)
    client = ScramSaslClient(mechanism, out.token.token_id, password, token_auth=True)
    first = client.step(None)
    assert first is not None and first.endswith(b",tokenauth=true")
    final = client.step(server.evaluate(first, NOW))
    assert final is not None
    assert client.step(server.evaluate(final, NOW)) is None and client.complete
    assert server.authorization_id == "alice"


def test_token_refusals():
    t = tokens()
    out = created(t)
    password = base64.b64encode(out.hmac).decode()
    token_id = out.token.token_id
    with pytest.raises(ScramFailure, match="Invalid tokenId"):
        _rfc5802_client(
            "SCRAM-SHA-512",
            "unknown",
            password,
            ScramServer("SCRAM-SHA-512", lambda u, m: None, t.scram_credential),
            ",tokenauth=true",
        )
    with pytest.raises(ScramFailure):  # the wrong HMAC
        _rfc5802_client(
            "SCRAM-SHA-512",
            token_id,
            "d3Jvbmc=",
            ScramServer("SCRAM-SHA-512", lambda u, m: None, t.scram_credential),
            ",tokenauth=true",
        )
    # Without the extension the token id is looked up as a user (there is none).
    with pytest.raises(ScramFailure, match="Invalid user credentials"):
        _rfc5802_client(
            "SCRAM-SHA-512", token_id, password, ScramServer("SCRAM-SHA-512", lambda u, m: None, t.scram_credential), ""
        )
    # Extensions are part of what is signed: a proof over a message without them fails.
    server = ScramServer("SCRAM-SHA-512", lambda u, m: None, t.scram_credential)
    client = ScramSaslClient("SCRAM-SHA-512", token_id, password, token_auth=True)
    first = client.step(None)
    assert first is not None
    client._client.client_first_bare = client._client.client_first_bare.removesuffix(",tokenauth=true")
    final = client.step(server.evaluate(first, NOW))
    assert final is not None
    with pytest.raises(ScramFailure):
        server.evaluate(final, NOW)
    # A removed token no longer authenticates; tokens off: none does.
    t.apply(t.prepare_expire(NOW, ALICE, out.hmac, -1).delta)
    assert t.scram_credential(token_id, "SCRAM-SHA-512") is None
    off = DelegationTokens(TokenSettings(None), [out.token])
    assert off.scram_credential(token_id, "SCRAM-SHA-512") is None


def test_extensions_are_read_as_kafka_reads_them():
    assert parse_extensions(",tokenauth=true,traceId=a=b") == {"tokenauth": "true", "traceId": "a=b"}
    t = tokens()
    out = created(t)
    password = base64.b64encode(out.hmac).decode()
    # Unknown extensions are ignored; "TRUE" is true (Boolean.parseBoolean).
    server = ScramServer("SCRAM-SHA-256", lambda u, m: None, t.scram_credential)
    _rfc5802_client("SCRAM-SHA-256", out.token.token_id, password, server, ",foo=bar,tokenauth=TRUE")
    assert server.token_authenticated


async def test_tokens_survive_a_restart_of_the_store(tmp_path):
    store = SecurityStore(data_dir=tmp_path, tokens=SETTINGS)
    out = await store.create_token(NOW, ALICE, ALICE, [BOB], -1)
    renewed = await store.renew_token(NOW + 10, BOB, out.hmac, 1000)
    assert renewed.error_code == ErrorCode.NONE
    again = SecurityStore(data_dir=tmp_path, tokens=SETTINGS)
    again.load()
    token = again.tokens.get(out.token.token_id)
    assert token is not None and token.expiry_ms == NOW + 1010 and token.renewers == (BOB,)
    assert again.token_lookup(out.token.token_id, "SCRAM-SHA-512") is not None
    assert (tmp_path / "delegation-tokens.json").stat().st_mode & 0o077 == 0
    assert await again.remove_expired_tokens(NOW + 2000) == 1
    third = SecurityStore(data_dir=tmp_path, tokens=SETTINGS)
    third.load()
    assert third.tokens.snapshot() == {}
