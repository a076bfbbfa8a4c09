"""SCRAM credential store: Alter/DescribeUserScramCredentials semantics and the file seam."""

from __future__ import annotations

import hashlib
import os

import pytest
import scramp

from broker.protocol.errors import ErrorCode
from broker.security.sasl.scram import ScramServer
from broker.security.scram import (
    AlterResult,
    CredentialInfo,
    FileScramPersistence,
    ScramCredentialDeletion,
    ScramCredentialStore,
    ScramCredentialUpsertion,
)

SHA256, SHA512 = 1, 2


def upsert(
    name: str, password: str = "pw", mechanism: int = SHA256, iterations: int = 8192
) -> ScramCredentialUpsertion:
    salt = os.urandom(16)
    h = "sha256" if mechanism == SHA256 else "sha512"
    salted = hashlib.pbkdf2_hmac(h, password.encode(), salt, iterations) if mechanism in (1, 2) else b"x"
    return ScramCredentialUpsertion(name, mechanism, iterations, salt, salted)


def test_upserted_credentials_authenticate_with_a_real_client(tmp_path):
    persistence = FileScramPersistence(tmp_path / "scram.json")
    store = ScramCredentialStore()
    results = store.alter([], [upsert("alice", "s3cret"), upsert("bob", mechanism=SHA512)], persistence)
    assert results == [AlterResult("alice"), AlterResult("bob")]
    reloaded = ScramCredentialStore.load(persistence)
    assert reloaded.snapshot() == store.snapshot()
    assert oct(os.stat(tmp_path / "scram.json").st_mode & 0o777) == "0o600"
    server = ScramServer("SCRAM-SHA-256", reloaded.lookup)
    client = scramp.ScramClient(["SCRAM-SHA-256"], "alice", "s3cret")
    client.set_server_first(server.evaluate(client.get_client_first().encode(), 0).decode())
    client.set_server_final(server.evaluate(client.get_client_final().encode(), 0).decode())
    assert server.complete


def test_validation_errors_use_kafkas_codes_and_messages():
    store = ScramCredentialStore()
    store.alter([], [upsert("carol")])
    results, delta = store.prepare_alter(
        [ScramCredentialDeletion("ghost", SHA256), ScramCredentialDeletion("carol", SHA512)],
        [
            upsert(""),
            upsert("dave", mechanism=0),
            upsert("erin", iterations=4095),
            upsert("frank", iterations=16385),
            upsert("gina", iterations=4096),
            upsert("hank", iterations=16384),
        ],
    )
    by_user = {r.user: (r.error_code, r.error_message) for r in results}
    assert by_user == {
        "ghost": (ErrorCode.RESOURCE_NOT_FOUND, "Attempt to delete a user credential that does not exist"),
        "carol": (ErrorCode.RESOURCE_NOT_FOUND, "Attempt to delete a user credential that does not exist"),
        "": (ErrorCode.UNACCEPTABLE_CREDENTIAL, "Username must not be empty"),
        "dave": (ErrorCode.UNSUPPORTED_SASL_MECHANISM, "Unknown SCRAM mechanism"),
        "erin": (ErrorCode.UNACCEPTABLE_CREDENTIAL, "Too few iterations"),
        "frank": (ErrorCode.UNACCEPTABLE_CREDENTIAL, "Too many iterations"),
        "gina": (ErrorCode.NONE, None),
        "hank": (ErrorCode.NONE, None),
    }
    assert {k[0] for k in delta.upserts} == {"gina", "hank"} and not delta.removals
    assert store.describe(["gina"])[0].error_code == ErrorCode.RESOURCE_NOT_FOUND  # nothing applied yet
    store.apply(delta)
    assert store.describe(["gina"])[0].credential_infos == (CredentialInfo(SHA256, 4096),)


def test_a_user_twice_in_one_request_is_a_duplicate_and_changes_nothing():
    store = ScramCredentialStore()
    store.alter([], [upsert("ivy")])
    before = store.snapshot()
    results = store.alter([ScramCredentialDeletion("ivy", SHA256)], [upsert("ivy", mechanism=SHA512)])
    assert results == [
        AlterResult(
            "ivy", ErrorCode.DUPLICATE_RESOURCE, "A user credential cannot be altered twice in the same request"
        )
    ]
    results = store.alter([], [upsert("jay"), upsert("jay", mechanism=SHA512)])
    assert results[0].error_code == ErrorCode.DUPLICATE_RESOURCE
    assert store.snapshot() == before


def test_delete_and_describe():
    store = ScramCredentialStore()
    store.alter([], [upsert("kim"), upsert("lee"), upsert("lee", mechanism=SHA512)][:2])
    store.alter([], [upsert("lee", mechanism=SHA512, iterations=4096)])
    described = store.describe(None)
    assert [(d.user, d.credential_infos) for d in described] == [
        ("kim", (CredentialInfo(SHA256, 8192),)),
        ("lee", (CredentialInfo(SHA256, 8192), CredentialInfo(SHA512, 4096))),
    ]
    twice = store.describe(["kim", "kim", "nobody"])
    assert [(d.user, d.error_code) for d in twice] == [
        ("kim", ErrorCode.DUPLICATE_RESOURCE),
        ("nobody", ErrorCode.RESOURCE_NOT_FOUND),
    ]
    assert twice[1].error_message == "Attempt to describe a user credential that does not exist: nobody"
    assert store.alter([ScramCredentialDeletion("lee", SHA256)], []) == [AlterResult("lee")]
    assert store.describe(["lee"])[0].credential_infos == (CredentialInfo(SHA512, 4096),)


def test_a_corrupt_file_is_one_clear_error(tmp_path):
    path = tmp_path / "scram.json"
    path.write_text('{"version": 1, "credentials": [{"user": "x"}]}')
    with pytest.raises(ValueError, match="not a SCRAM credential file"):
        FileScramPersistence(path).load()
    assert FileScramPersistence(tmp_path / "missing.json").load() == {}
