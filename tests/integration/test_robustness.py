"""Malformed frames and oversize requests get errors or a closed connection; the broker keeps serving."""

from __future__ import annotations

import socket
import struct

import pytest

from broker.handlers import HANDLERS
from broker.protocol.messages import RequestHeader, ResponseHeader
from broker.protocol.messages.api_versions_request import ApiVersionsRequest
from broker.protocol.messages.api_versions_response import ApiVersionsResponse
from tests.integration.clients import admin


def _connect(bootstrap: str) -> socket.socket:
    host, port = bootstrap.rsplit(":", 1)
    return socket.create_connection((host, int(port)), timeout=10)


def _recv_exact(s: socket.socket, n: int) -> bytes:
    buf = b""
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("closed")
        buf += chunk
    return buf


def _api_versions(s: socket.socket, correlation_id: int = 7) -> tuple[ResponseHeader, ApiVersionsResponse]:
    """ApiVersions v3 round trip on a raw socket."""
    header = RequestHeader(request_api_key=18, request_api_version=3, correlation_id=correlation_id, client_id="probe")
    out = bytearray()
    header.encode_into(out, 2)
    ApiVersionsRequest(client_software_name="probe", client_software_version="1.0").encode_into(out, 3)
    s.sendall(struct.pack(">i", len(out)) + out)
    size = struct.unpack(">i", _recv_exact(s, 4))[0]
    frame = memoryview(_recv_exact(s, size))
    rh, pos = ResponseHeader.decode_at(frame, 0, 0)
    return rh, ApiVersionsResponse.decode_at(frame, pos, 3)[0]


def _assert_closed(s: socket.socket) -> None:
    s.settimeout(10)
    try:
        assert s.recv(1) == b""
    except ConnectionResetError:
        pass


@pytest.mark.parametrize(
    "frame",
    [
        b"\x00\x00\x00\x04\xff\xff\xff\xff",  # too short for a header
        b"\x00\x00\x00\x0a\x00\x03\x00\x0c\x00\x00\x00\x01\x7f\xff",  # Metadata v12 header cut short
        b"\x00\x00\x00\x08\x03\xe7\x00\x00\x00\x00\x00\x01",  # unknown api key 999
        b"\xff\xff\xff\xf0",  # negative size
        struct.pack(">i", 200 * 1024 * 1024),  # larger than socket.request.max.bytes
    ],
    ids=["short", "truncated", "unknown-api", "negative-size", "oversize"],
)
def test_bad_frames_close_the_connection_and_broker_lives_on(sharebroker_bootstrap, frame):
    with _connect(sharebroker_bootstrap) as s:
        s.sendall(frame)
        _assert_closed(s)
    with _connect(sharebroker_bootstrap) as s:
        header, response = _api_versions(s)
        assert header.correlation_id == 7
        assert response.error_code == 0
    assert admin(sharebroker_bootstrap).list_topics(timeout=10) is not None


SERVED_API_VERSIONS = HANDLERS[18].max_version


@pytest.mark.parametrize(
    "version",
    # The first version not served (one the schemas may know, e.g. a newer client's) and a
    # version nobody knows: both get the v0 UNSUPPORTED_VERSION answer, and the connection
    # stays open for the client's retry at a lower version.
    [SERVED_API_VERSIONS + 1, 99],
)
def test_unsupported_api_versions_version_gets_v0_answer(sharebroker_bootstrap, version):
    with _connect(sharebroker_bootstrap) as s:
        header = RequestHeader(request_api_key=18, request_api_version=version, correlation_id=11, client_id="probe")
        out = bytearray()
        header.encode_into(out, 2)  # ApiVersions v3+ uses request header v2
        if version <= ApiVersionsRequest.MAX_VERSION:
            ApiVersionsRequest(client_software_name="probe", client_software_version="1.0").encode_into(out, version)
        else:
            out += b"\x00\x00\x00"  # a future body: empty compact strings, no tags
        s.sendall(struct.pack(">i", len(out)) + out)
        size = struct.unpack(">i", _recv_exact(s, 4))[0]
        frame = memoryview(_recv_exact(s, size))
        rh, pos = ResponseHeader.decode_at(frame, 0, 0)
        body = ApiVersionsResponse.decode_at(frame, pos, 0)[0]
        assert rh.correlation_id == 11
        assert body.error_code == 35  # UNSUPPORTED_VERSION
        assert [(k.api_key, k.min_version, k.max_version) for k in body.api_keys] == [(18, 0, SERVED_API_VERSIONS)]
        retry_header, retry = _api_versions(s, correlation_id=12)
    assert retry_header.correlation_id == 12
    assert retry.error_code == 0


def test_invalid_client_software_name_is_invalid_request(sharebroker_bootstrap):
    with _connect(sharebroker_bootstrap) as s:
        header = RequestHeader(request_api_key=18, request_api_version=3, correlation_id=5, client_id="probe")
        out = bytearray()
        header.encode_into(out, 2)
        ApiVersionsRequest(client_software_name="bad name!", client_software_version="1").encode_into(out, 3)
        s.sendall(struct.pack(">i", len(out)) + out)
        size = struct.unpack(">i", _recv_exact(s, 4))[0]
        frame = memoryview(_recv_exact(s, size))
        _, pos = ResponseHeader.decode_at(frame, 0, 0)
        body = ApiVersionsResponse.decode_at(frame, pos, 3)[0]
    assert body.error_code == 42
