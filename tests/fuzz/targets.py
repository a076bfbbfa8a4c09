"""Fuzz targets: one function per target, bytes in, and only the documented errors out.

Shared by the coverage-guided runner (``python -m tests.fuzz.run``, atheris) and
by the regression test that replays every saved input (``test_corpus.py``).
Anything escaping a target other than what its docstring allows is a finding.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from pathlib import Path

from broker.protocol.api_keys import ApiKey
from broker.protocol.auth import Authenticator, AuthSettings, AuthState, Outcome, SecurityProtocol
from broker.protocol.connection import CONNECTION_CLOSED, NEED_DATA, ServerConnection
from broker.protocol.errors import ProtocolError
from broker.protocol.records import build_batch, check_crc, iter_batches, iter_records, validate_produce_records
from broker.security.sasl.oauthbearer import OAuthBearerServer, UnsecuredJwsValidator
from broker.security.sasl.plain import PlainServer, StaticPlainCredentials
from broker.security.sasl.scram import ScramServer
from broker.security.scram import ScramCredentialStore, ScramMechanismType, credential_from_password

HERE = Path(__file__).parent
GOLDEN = HERE.parent / "protocol" / "golden"

# Small enough that a hostile size prefix cannot make one input allocate much.
MAX_FRAME = 64 * 1024
MAX_UNCOMPRESSED = 1 << 20


def fuzz_frames(data: bytes) -> None:
    """ServerConnection over a stream cut at a data-chosen point: events or ProtocolError only."""
    cut = data[0] if data else 0
    stream = data[1:]
    conn = ServerConnection(max_frame_size=MAX_FRAME)
    try:
        for piece in (stream[:cut], stream[cut:]):
            if piece:
                conn.receive_data(piece)
            while (event := conn.next_event()) is not NEED_DATA and event is not CONNECTION_CLOSED:
                pass
        conn.receive_data(b"")
        while (event := conn.next_event()) is not NEED_DATA and event is not CONNECTION_CLOSED:
            pass
    except ProtocolError:
        pass


def fuzz_records(data: bytes) -> None:
    """Batch walking, CRC, produce validation and record decoding: ProtocolError only."""
    try:
        validate_produce_records(data, api_version=9, max_batch_size=MAX_FRAME)
    except ProtocolError:
        pass
    try:
        for view in iter_batches(data, allow_partial=True):
            try:
                check_crc(view.view)
            except ProtocolError:
                pass
            for _ in iter_records(view.view, max_uncompressed_size=MAX_UNCOMPRESSED):
                pass
    except ProtocolError:
        pass


_PLAIN = StaticPlainCredentials({"alice": "alice-secret"})
_SCRAM = ScramCredentialStore(
    {
        ("bob", ScramMechanismType.SCRAM_SHA_256): credential_from_password(
            ScramMechanismType.SCRAM_SHA_256, "pw", salt=b"s" * 16
        )
    }
)
_FACTORIES: dict[str, Callable[[], object]] = {
    "PLAIN": lambda: PlainServer(_PLAIN),
    "SCRAM-SHA-256": lambda: ScramServer("SCRAM-SHA-256", _SCRAM.lookup),
    "OAUTHBEARER": lambda: OAuthBearerServer(UnsecuredJwsValidator()),
}
_MECHS = ("PLAIN", "SCRAM-SHA-256", "OAUTHBEARER", "GSSAPI")
_SETTINGS = AuthSettings(
    SecurityProtocol.SASL_PLAINTEXT, ("PLAIN", "SCRAM-SHA-256", "OAUTHBEARER"), default_max_reauth_ms=2_000
)


def fuzz_auth(data: bytes) -> None:
    """The SASL state machine and the mechanisms behind it, driven by a byte script.

    Each step: one opcode byte (what to send), one time-step byte, a length byte
    and that many token bytes. Any exception escaping ``receive``/``receive_token``
    is a finding, as is a closed outcome that leaves the state anything but FAILED.
    """
    from broker.protocol.messages.api_versions_request import ApiVersionsRequest
    from broker.protocol.messages.metadata_request import MetadataRequest
    from broker.protocol.messages.sasl_authenticate_request import SaslAuthenticateRequest
    from broker.protocol.messages.sasl_handshake_request import SaslHandshakeRequest

    auth = Authenticator(_SETTINGS, _FACTORIES)  # type: ignore[arg-type]
    now = 0
    pos = 0
    while pos + 3 <= len(data) and auth.state is not AuthState.FAILED:
        op, dt, n = data[pos], data[pos + 1], data[pos + 2]
        token = data[pos + 3 : pos + 3 + n]
        pos += 3 + n
        now += dt * 50
        out: Outcome
        if auth.expects_raw_token:
            out = auth.receive_token(token, now)
        elif op % 5 == 0:
            out = auth.receive(ApiKey.SASL_HANDSHAKE, op & 1, SaslHandshakeRequest(mechanism=_MECHS[n % 4]), now)
        elif op % 5 == 1:
            out = auth.receive(ApiKey.SASL_AUTHENTICATE, (op >> 3) % 3, SaslAuthenticateRequest(auth_bytes=token), now)
        elif op % 5 == 2:
            out = auth.receive(ApiKey.API_VERSIONS, (op >> 3) % 5, ApiVersionsRequest(), now)
        elif op % 5 == 3:
            out = auth.receive(ApiKey.METADATA, 12, MetadataRequest(), now)
        else:
            out = auth.receive(
                ApiKey.SASL_AUTHENTICATE, 2, SaslAuthenticateRequest(auth_bytes=_valid_plain(token)), now
            )
        if out.close and auth.state is not AuthState.FAILED:
            raise AssertionError(f"closing outcome left state {auth.state!r}")


def _valid_plain(token: bytes) -> bytes:
    return b"\0alice\0alice-secret" if token[:1] == b"\x00" else token


TARGETS: dict[str, Callable[[bytes], None]] = {
    "frames": fuzz_frames,
    "records": fuzz_records,
    "auth": fuzz_auth,
}


def seeds(target: str) -> list[bytes]:
    """Starting inputs: recorded client frames, built batches, a PLAIN login script; plus saved findings."""
    out: list[bytes] = []
    if target == "frames":
        out += [
            b"\x00" + struct.pack(">i", len(f)) + f for f in (p.read_bytes() for p in sorted(GOLDEN.glob("*.req.bin")))
        ]
    elif target == "records":
        for codec in range(5):
            out.append(bytes(build_batch([(None, b"value", ())] * 3, compression=codec)))
    elif target == "auth":
        out.append(bytes([2, 0, 0, 0, 0, 5, 4, 0, 1, 0]))  # ApiVersions, handshake PLAIN v1, a valid login
    corpus = HERE / "corpus" / target
    if corpus.is_dir():
        out += [p.read_bytes() for p in sorted(corpus.iterdir()) if p.is_file()]
    return out
