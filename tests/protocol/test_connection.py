"""The sans-IO framing layer: ServerConnection and ClientConnection."""

from __future__ import annotations

import json
import random
import struct
from pathlib import Path
from typing import TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from broker.protocol.connection import (
    CLIENT_MAX_FRAME_SIZE,
    CONNECTION_CLOSED,
    DEFAULT_MAX_FRAME_SIZE,
    NEED_DATA,
    ClientConnection,
    Request,
    Response,
    ServerConnection,
    UnsupportedRequest,
    request_header_version,
    response_header_version,
)
from broker.protocol.errors import (
    ErrorCode,
    FrameTooLargeError,
    InvalidFrameSizeError,
    MalformedFrameError,
    ProtocolError,
    TruncatedFrameError,
)
from broker.protocol.message_base import Message
from broker.protocol.messages import REQUESTS, RESPONSES, RequestHeader
from broker.protocol.messages.api_versions_request import ApiVersionsRequest
from broker.protocol.messages.api_versions_response import ApiVersionsResponse
from broker.protocol.messages.metadata_request import MetadataRequest
from broker.protocol.messages.metadata_response import MetadataResponse
from broker.protocol.messages.produce_request import ProduceRequest

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_REQUESTS = [
    (entry, (GOLDEN / entry["file"]).read_bytes())
    for entry in json.loads((GOLDEN / "index.json").read_text())["frames"]
]

# ApiVersions v3 from client "adm" with software "sb" / "1", correlation id 7, by hand:
# api key 18, version 3, correlation id 7, client id (int16 length), header tags,
# then compact strings (length + 1) and the body's empty tag section.
API_VERSIONS_V3_FRAME = (
    b"\x00\x00\x00\x14" + b"\x00\x12\x00\x03\x00\x00\x00\x07" + b"\x00\x03adm" + b"\x00" + b"\x03sb\x021" + b"\x00"
)


def prefixed(payload: bytes) -> bytes:
    return struct.pack(">i", len(payload)) + payload


def drain(conn: ServerConnection | ClientConnection) -> list[object]:
    events: list[object] = []
    while (event := conn.next_event()) is not NEED_DATA:
        events.append(event)
        if event is CONNECTION_CLOSED:
            break
    return events


T = TypeVar("T")


def only(kind: type[T], events: list[object]) -> list[T]:
    """``events``, every one of which must be a ``kind``."""
    assert all(isinstance(e, kind) for e in events), events
    return [e for e in events if isinstance(e, kind)]


def test_default_max_frame_size_is_kafkas_socket_request_max_bytes() -> None:
    assert DEFAULT_MAX_FRAME_SIZE == 100 * 1024 * 1024
    assert ServerConnection().max_frame_size == DEFAULT_MAX_FRAME_SIZE


def test_decodes_a_hand_built_frame() -> None:
    conn = ServerConnection()
    conn.receive_data(API_VERSIONS_V3_FRAME)
    event = conn.next_event()
    assert isinstance(event, Request)
    assert (event.api_key, event.api_version, event.frame_size) == (18, 3, 20)
    assert event.correlation_id == 7
    assert event.header.client_id == "adm"
    assert event.body == ApiVersionsRequest(client_software_name="sb", client_software_version="1")
    assert conn.next_event() is NEED_DATA
    assert conn.bytes_buffered == 0


def test_needs_data_until_a_frame_is_complete() -> None:
    conn = ServerConnection()
    assert conn.next_event() is NEED_DATA
    for byte in API_VERSIONS_V3_FRAME[:-1]:
        conn.receive_data(bytes([byte]))
        assert conn.next_event() is NEED_DATA
    conn.receive_data(API_VERSIONS_V3_FRAME[-1:])
    assert isinstance(conn.next_event(), Request)


def golden_stream() -> tuple[bytes, list[tuple[int, int, int]]]:
    stream = b"".join(prefixed(raw) for _, raw in GOLDEN_REQUESTS)
    expected = [(e["api_key"], e["api_version"], e["correlation_id"]) for e, _ in GOLDEN_REQUESTS]
    return stream, expected


def test_golden_client_frames_in_one_chunk() -> None:
    stream, expected = golden_stream()
    conn = ServerConnection()
    conn.receive_data(stream)
    events = only(Request, drain(conn))
    assert [(e.api_key, e.api_version, e.correlation_id) for e in events] == expected
    assert conn.bytes_buffered == 0


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_framing_is_independent_of_chunk_boundaries(data: st.DataObject) -> None:
    stream, expected = golden_stream()
    cuts = sorted(data.draw(st.sets(st.integers(1, len(stream) - 1), max_size=40), label="cuts"))
    kind = data.draw(st.sampled_from([bytes, bytearray, memoryview]), label="chunk type")
    conn = ServerConnection()
    events: list[object] = []
    for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
        conn.receive_data(kind(stream[start:end]))
        events.extend(drain(conn))
    requests = only(Request, events)
    assert [(e.api_key, e.api_version, e.correlation_id) for e in requests] == expected


@given(seed=st.integers(0, 2**32), threshold=st.integers(1, 300), max_read=st.integers(1, 4000))
def test_reading_into_the_frames_own_buffer_gives_the_same_requests(seed: int, threshold: int, max_read: int) -> None:
    """The server may read the rest of a large frame straight into its buffer;
    the events are those of plain receive_data, whatever the mix of the two."""
    rng = random.Random(seed)
    stream, expected = golden_stream()
    conn = ServerConnection()
    events: list[object] = []
    pos = 0
    while pos < len(stream):
        want = rng.randint(1, max_read)
        into = conn.receive_buffer(threshold)
        if into is not None and rng.random() < 0.7:
            n = min(want, len(into), len(stream) - pos)
            into[:n] = stream[pos : pos + n]
            conn.received_into(n)
        else:
            n = min(want, len(stream) - pos)
            conn.receive_data(stream[pos : pos + n])
        pos += n
        events.extend(drain(conn))
    conn.receive_data(b"")
    assert drain(conn) == [CONNECTION_CLOSED]
    requests = only(Request, events)
    assert [(e.api_key, e.api_version, e.correlation_id) for e in requests] == expected


def test_a_directly_received_produce_frame_keeps_its_records_without_a_copy() -> None:
    produce = prefixed(next(f for e, f in GOLDEN_REQUESTS if e["api_key"] == 0 and len(f) > 200))
    conn = ServerConnection()
    conn.receive_data(produce[:10])
    assert conn.receive_buffer(100) is None  # the size prefix is read by next_event
    assert conn.next_event() is NEED_DATA
    into = conn.receive_buffer(100)
    assert into is not None and len(into) == len(produce) - 10
    into[:] = produce[10:]
    conn.received_into(len(into))
    (event,) = only(Request, drain(conn))
    assert isinstance(event.body, ProduceRequest)
    records = event.body.topic_data[0].partition_data[0].records
    assert isinstance(records, memoryview) and isinstance(records.obj, bytearray)
    assert bytes(records) in produce
    assert conn.receive_buffer(1) is None  # no frame in progress


def test_end_of_stream_while_reading_into_a_frame_is_truncation() -> None:
    conn = ServerConnection()
    conn.receive_data(API_VERSIONS_V3_FRAME[:6])
    assert conn.next_event() is NEED_DATA
    into = conn.receive_buffer(1)
    assert into is not None
    into[:3] = API_VERSIONS_V3_FRAME[6:9]
    conn.received_into(3)
    assert conn.next_event() is NEED_DATA
    conn.received_into(0)
    with pytest.raises(TruncatedFrameError):
        conn.next_event()


def test_several_requests_in_one_chunk_come_out_in_order() -> None:
    client = ClientConnection(client_id="multi")
    frames = [client.encode_request(MetadataRequest(topics=None), v)[1] for v in (1, 4, 9, 12, 13)]
    frames.append(client.encode_request(ApiVersionsRequest(), 0)[1])
    conn = ServerConnection()
    conn.receive_data(b"".join(bytes(f) for f in frames))
    events = only(Request, drain(conn))
    assert [(e.api_key, e.api_version, e.correlation_id) for e in events] == [
        (3, 1, 0),
        (3, 4, 1),
        (3, 9, 2),
        (3, 12, 3),
        (3, 13, 4),
        (18, 0, 5),
    ]
    assert all(e.header.client_id == "multi" for e in events)


def test_mutable_input_buffers_may_be_reused_by_the_caller() -> None:
    buf = bytearray(API_VERSIONS_V3_FRAME[:10])
    conn = ServerConnection()
    conn.receive_data(buf)
    buf[:] = b"\xff" * 10  # the caller reads the next chunk into the same buffer
    conn.receive_data(memoryview(API_VERSIONS_V3_FRAME)[10:])
    event = conn.next_event()
    assert isinstance(event, Request) and event.correlation_id == 7


def test_records_are_zero_copy_views_into_an_immutable_frame() -> None:
    produce = next(raw for e, raw in GOLDEN_REQUESTS if e["api_name"] == "Produce")
    conn = ServerConnection()
    conn.receive_data(prefixed(produce))
    event = conn.next_event()
    assert isinstance(event, Request)
    assert isinstance(event.body, ProduceRequest)
    records = event.body.topic_data[0].partition_data[0].records
    assert isinstance(records, memoryview)
    assert isinstance(records.obj, bytes)  # the frame: immutable, so the view stays valid
    assert len(records.obj) == event.frame_size
    assert bytes(records) in produce


def test_oversized_frame_is_rejected_from_its_size_prefix_alone() -> None:
    conn = ServerConnection(max_frame_size=100)
    conn.receive_data(struct.pack(">i", 101))
    with pytest.raises(FrameTooLargeError) as info:
        conn.next_event()
    assert (info.value.size, info.value.limit) == (101, 100)
    assert "101" in str(info.value) and "100" in str(info.value)


def test_frame_at_exactly_the_limit_is_accepted() -> None:
    conn = ServerConnection(max_frame_size=len(API_VERSIONS_V3_FRAME) - 4)
    conn.receive_data(API_VERSIONS_V3_FRAME)
    assert isinstance(conn.next_event(), Request)


def test_default_limit_rejects_just_above_100_mib() -> None:
    conn = ServerConnection()
    conn.receive_data(struct.pack(">i", DEFAULT_MAX_FRAME_SIZE + 1))
    with pytest.raises(FrameTooLargeError, match=str(DEFAULT_MAX_FRAME_SIZE)):
        conn.next_event()


@pytest.mark.parametrize("size", [-1, -(2**31), -20])
def test_negative_size_is_an_error(size: int) -> None:
    conn = ServerConnection()
    conn.receive_data(struct.pack(">i", size) + b"\x00" * 32)
    with pytest.raises(InvalidFrameSizeError) as info:
        conn.next_event()
    assert info.value.size == size


def test_errors_are_sticky() -> None:
    conn = ServerConnection()
    conn.receive_data(struct.pack(">i", -1))
    with pytest.raises(InvalidFrameSizeError) as first:
        conn.next_event()
    conn.receive_data(API_VERSIONS_V3_FRAME)
    with pytest.raises(InvalidFrameSizeError) as second:
        conn.next_event()
    assert second.value is first.value


@pytest.mark.parametrize("api_key", [95, 1000, 4, -1, 32767])
def test_unknown_api_key_is_an_unsupported_request_with_its_correlation_id(api_key: int) -> None:
    payload = struct.pack(">hhi", api_key, 0, 4242) + b"\x00\x02ck" + b"opaque body"
    conn = ServerConnection()
    conn.receive_data(prefixed(payload))
    event = conn.next_event()
    assert isinstance(event, UnsupportedRequest)
    assert (event.api_key, event.api_version, event.correlation_id) == (api_key, 0, 4242)
    assert event.header.client_id == "ck"
    assert "unknown api key" in event.reason
    assert event.frame_size == len(payload)
    assert conn.next_event() is NEED_DATA  # the stream stays in sync


def test_request_types_restrict_what_is_supported() -> None:
    conn = ServerConnection(request_types={3: MetadataRequest})
    conn.receive_data(API_VERSIONS_V3_FRAME)
    event = conn.next_event()
    assert isinstance(event, UnsupportedRequest) and event.correlation_id == 7


@pytest.mark.parametrize(
    ("version", "header_tail"),
    [
        # v6+ would be flexible, so its header is v2 (tag section after the client id)
        (6, b"\x00"),
        (127, b"\x00"),
        # a negative version precedes the flexible range: header v1
        (-1, b""),
    ],
)
def test_unsupported_api_versions_version_gets_the_v0_fallback(version: int, header_tail: bytes) -> None:
    payload = struct.pack(">hhi", 18, version, 99) + b"\x00\x03lib" + header_tail + b"\x07future\x011\x00"
    conn = ServerConnection()
    conn.receive_data(prefixed(payload))
    event = conn.next_event()
    assert isinstance(event, UnsupportedRequest)
    assert (event.api_key, event.api_version, event.correlation_id) == (18, version, 99)
    assert "outside the supported range v0-v5" in event.reason

    reply = conn.api_versions_fallback_response(event, 0, 4)
    # size 16 | correlation id 99 | header v0 has no tags | error 35 | int32 count 1 | 18, 0..4
    assert bytes(reply) == (
        b"\x00\x00\x00\x10" + b"\x00\x00\x00\x63" + b"\x00\x23" + b"\x00\x00\x00\x01" + b"\x00\x12\x00\x00\x00\x04"
    )
    body = ApiVersionsResponse.decode(bytes(reply)[8:], 0)
    assert body.error_code == ErrorCode.UNSUPPORTED_VERSION
    assert [(k.api_key, k.min_version, k.max_version) for k in body.api_keys] == [(18, 0, 4)]


def test_unsupported_version_of_another_api_is_reported() -> None:
    payload = struct.pack(">hhi", 3, 14, 5) + b"\xff\xff" + b"\x00" + b"\x01\x00"
    conn = ServerConnection()
    conn.receive_data(prefixed(payload))
    event = conn.next_event()
    assert isinstance(event, UnsupportedRequest)
    assert event.correlation_id == 5 and event.header.client_id is None


def test_malformed_body_raises_with_the_header_attached() -> None:
    payload = API_VERSIONS_V3_FRAME[4:-3]  # cut inside the software-version string
    conn = ServerConnection()
    conn.receive_data(prefixed(payload))
    with pytest.raises(MalformedFrameError) as info:
        conn.next_event()
    assert isinstance(info.value.header, RequestHeader)
    assert info.value.header.correlation_id == 7
    assert "correlation id 7" in str(info.value)


@pytest.mark.parametrize("size", [0, 1, 7])
def test_frame_too_short_for_a_header_is_malformed(size: int) -> None:
    conn = ServerConnection()
    conn.receive_data(prefixed(b"\x00" * size))
    with pytest.raises(MalformedFrameError):
        conn.next_event()


def test_malformed_header_is_malformed() -> None:
    # client id claims 50 bytes, 2 are present
    conn = ServerConnection()
    conn.receive_data(prefixed(struct.pack(">hhi", 18, 0, 1) + b"\x00\x32ab"))
    with pytest.raises(MalformedFrameError, match="header"):
        conn.next_event()


def test_bytes_after_the_body_are_ignored_like_kafka() -> None:
    conn = ServerConnection()
    conn.receive_data(prefixed(API_VERSIONS_V3_FRAME[4:] + b"trailing"))
    event = conn.next_event()
    assert isinstance(event, Request) and event.correlation_id == 7


def test_end_of_stream_between_frames_is_a_clean_close() -> None:
    conn = ServerConnection()
    conn.receive_data(API_VERSIONS_V3_FRAME)
    conn.receive_data(b"")
    assert isinstance(conn.next_event(), Request)
    assert conn.next_event() is CONNECTION_CLOSED
    assert conn.next_event() is CONNECTION_CLOSED
    conn.receive_data(b"")  # signalling the end twice is harmless
    assert conn.next_event() is CONNECTION_CLOSED
    with pytest.raises(RuntimeError):
        conn.receive_data(b"more")


@pytest.mark.parametrize("cut", [1, 3, 4, 10, 23])
def test_end_of_stream_inside_a_frame_is_truncation(cut: int) -> None:
    conn = ServerConnection()
    conn.receive_data(API_VERSIONS_V3_FRAME[:cut])
    conn.receive_data(b"")
    with pytest.raises(TruncatedFrameError):
        conn.next_event()


def test_header_versions() -> None:
    assert [request_header_version(ApiVersionsRequest, v) for v in range(5)] == [1, 1, 1, 2, 2]
    assert [response_header_version(ApiVersionsResponse, v) for v in range(5)] == [0, 0, 0, 0, 0]
    assert request_header_version(MetadataRequest, 8) == 1
    assert request_header_version(MetadataRequest, 9) == 2
    assert response_header_version(MetadataResponse, 8) == 0
    assert response_header_version(MetadataResponse, 9) == 1
    sasl = RESPONSES[17]  # never flexible
    assert response_header_version(sasl, sasl.MAX_VERSION) == 0


def _request_for(api_key: int, version: int) -> Request:
    client = ClientConnection()
    _, frame = client.encode_request(REQUESTS[api_key](), version)
    conn = ServerConnection()
    conn.receive_data(bytes(frame))
    event = conn.next_event()
    assert isinstance(event, Request)
    return event


@pytest.mark.parametrize(
    ("api_key", "version", "header_version"),
    [(18, 0, 0), (18, 3, 0), (18, 4, 0), (3, 8, 0), (3, 9, 1), (3, 13, 1), (78, 1, 1), (17, 1, 0)],
)
def test_response_frames_carry_the_right_header_version(api_key: int, version: int, header_version: int) -> None:
    request = _request_for(api_key, version)
    response = RESPONSES[api_key]()
    body = response.encode(version)
    header = struct.pack(">i", request.correlation_id) + (b"\x00" if header_version == 1 else b"")
    for target in (request, request.header):
        assert bytes(ServerConnection().encode_response(target, response, version)) == prefixed(header + body)


def test_encode_response_refuses_the_wrong_response_type() -> None:
    request = _request_for(18, 3)
    with pytest.raises(ValueError):
        ServerConnection().encode_response(request, MetadataResponse(), 9)


def test_request_frames_carry_the_right_header_version() -> None:
    client = ClientConnection(client_id="adm")
    _, v2 = client.encode_request(ApiVersionsRequest(client_software_name="sb", client_software_version="1"), 3)
    assert bytes(v2)[4:8] == b"\x00\x12\x00\x03"
    assert bytes(v2)[12:18] == b"\x00\x03adm\x00"  # v2 header: client id, then a tag section
    _, v1 = client.encode_request(ApiVersionsRequest(), 2)
    assert len(v1) == 4 + 8 + 5  # v1 header, empty v2 body


def test_client_round_trip_matches_responses_by_correlation_id() -> None:
    client = ClientConnection(client_id="adm")
    server = ServerConnection()
    ids = []
    for version in (0, 3, 4):
        cid, frame = client.encode_request(ApiVersionsRequest(), version)
        ids.append(cid)
        server.receive_data(bytes(frame))
    _, frame = client.encode_request(MetadataRequest(topics=[]), 12)
    server.receive_data(bytes(frame))
    requests = only(Request, drain(server))
    assert [r.correlation_id for r in requests] == [0, 1, 2, 3]
    assert client.in_flight == 4

    # Answer out of order; the client matches each answer to its request.
    replies = []
    for request in reversed(requests):
        cid = request.correlation_id
        response: Message = (
            MetadataResponse(throttle_time_ms=cid)
            if request.api_key == 3
            else ApiVersionsResponse(throttle_time_ms=cid)
        )
        replies.append(server.encode_response(request, response, request.api_version))
    client.receive_data(b"".join(bytes(r) for r in replies))
    responses = only(Response, drain(client))
    assert [(r.api_key, r.api_version, r.correlation_id) for r in responses] == [
        (3, 12, 3),
        (18, 4, 2),
        (18, 3, 1),
        (18, 0, 0),
    ]
    throttles = []
    for r in responses:
        assert isinstance(r.body, MetadataResponse | ApiVersionsResponse)
        throttles.append(r.body.throttle_time_ms)
    assert throttles == [3, 2, 1, 0]
    assert client.in_flight == 0


def test_client_reads_the_api_versions_v0_fallback() -> None:
    client = ClientConnection()
    _, frame = client.encode_request(ApiVersionsRequest(), 4)
    server = ServerConnection()
    server.receive_data(bytes(frame))
    request = server.next_event()
    assert isinstance(request, Request)
    client.receive_data(bytes(server.api_versions_fallback_response(request, 0, 3)))
    response = client.next_event()
    assert isinstance(response, Response)
    assert response.api_version == 0
    assert isinstance(response.body, ApiVersionsResponse)
    assert response.body.error_code == ErrorCode.UNSUPPORTED_VERSION
    assert [(k.api_key, k.min_version, k.max_version) for k in response.body.api_keys] == [(18, 0, 3)]


def test_client_rejects_a_response_nobody_asked_for() -> None:
    client = ClientConnection()
    client.receive_data(prefixed(struct.pack(">i", 12345) + b"\x00\x00"))
    with pytest.raises(MalformedFrameError, match="12345"):
        client.next_event()


def test_client_requests_without_response() -> None:
    client = ClientConnection()
    cid, _ = client.encode_request(ProduceRequest(acks=0), 9, expect_response=False)
    assert client.in_flight == 0
    assert client.encode_request(ApiVersionsRequest(), 3)[0] == cid + 1


def test_client_correlation_ids_wrap_before_turning_negative() -> None:
    client = ClientConnection()
    client._next_correlation_id = 2**31 - 1
    assert client.encode_request(ApiVersionsRequest(), 3, expect_response=False)[0] == 2**31 - 1
    assert client.encode_request(ApiVersionsRequest(), 3, expect_response=False)[0] == 0


def test_client_accepts_any_int32_frame_size_by_default() -> None:
    client = ClientConnection()
    client.receive_data(struct.pack(">i", CLIENT_MAX_FRAME_SIZE))
    assert client.next_event() is NEED_DATA


def test_invalid_limits_are_refused() -> None:
    with pytest.raises(ValueError):
        ServerConnection(max_frame_size=-1)
    with pytest.raises(ValueError):
        ServerConnection(max_frame_size=2**31)


def test_every_protocol_failure_is_a_protocol_error() -> None:
    for exc_type in (FrameTooLargeError, InvalidFrameSizeError, MalformedFrameError, TruncatedFrameError):
        assert issubclass(exc_type, ProtocolError)
