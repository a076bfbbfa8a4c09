"""Hostile bytes through ServerConnection: only events or ProtocolError, nothing else.

Inputs are random streams, frames with a valid header prefix and a random body
(to reach every generated decoder), and frames recorded from real clients with
bit flips, truncations, insertions and size-prefix changes. Example counts are
bounded so the whole module runs in a few seconds.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from broker.protocol.connection import (
    CONNECTION_CLOSED,
    NEED_DATA,
    Request,
    ServerConnection,
    UnsupportedRequest,
)
from broker.protocol.errors import ProtocolError
from broker.protocol.messages import API_INDEX

GOLDEN = Path(__file__).parent / "golden"
GOLDEN_REQUESTS = [
    (GOLDEN / entry["file"]).read_bytes() for entry in json.loads((GOLDEN / "index.json").read_text())["frames"]
]

# Small enough that a malformed prefix cannot make a test buffer much, large enough
# for every recorded frame; oversized prefixes are part of what is fuzzed.
FUZZ_MAX_FRAME = 64 * 1024

FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def prefixed(payload: bytes) -> bytes:
    return struct.pack(">i", len(payload)) + payload


def feed(stream: bytes, cuts: list[int], close: bool) -> None:
    """Feed ``stream`` in pieces and drain; anything but an event or ProtocolError fails."""
    conn = ServerConnection(max_frame_size=FUZZ_MAX_FRAME)
    bounds = sorted({c for c in cuts if 0 < c < len(stream)})
    try:
        for start, end in zip([0, *bounds], [*bounds, len(stream)], strict=True):
            if end > start:  # b"" would signal end of stream
                conn.receive_data(stream[start:end])
                _drain(conn)
        if close:
            conn.receive_data(b"")
            _drain(conn)
    except ProtocolError:
        # The connection is now failed for good: it keeps saying so.
        try:
            conn.next_event()
        except ProtocolError:
            return
        raise AssertionError("a failed connection produced an event") from None


def _drain(conn: ServerConnection) -> None:
    while True:
        event = conn.next_event()
        if event is NEED_DATA or event is CONNECTION_CLOSED:
            return
        assert isinstance(event, Request | UnsupportedRequest)
        assert 0 <= event.frame_size <= FUZZ_MAX_FRAME


cuts = st.lists(st.integers(0, 2048), max_size=6)


@FUZZ
@given(stream=st.binary(max_size=1024), cuts=cuts, close=st.booleans())
def test_random_streams(stream: bytes, cuts: list[int], close: bool) -> None:
    feed(stream, cuts, close)


@FUZZ
@given(payloads=st.lists(st.binary(max_size=256), min_size=1, max_size=4), close=st.booleans())
def test_random_frames_with_correct_size_prefixes(payloads: list[bytes], close: bool) -> None:
    feed(b"".join(prefixed(p) for p in payloads), [], close)


@st.composite
def known_api_frames(draw: st.DrawFn) -> bytes:
    """A well-formed header prefix for a real API and version, then random bytes."""
    info = draw(st.sampled_from(sorted(API_INDEX.values())))
    version = draw(st.integers(info.min_version - 1, info.max_version + 1))
    correlation_id = draw(st.integers(-(2**31), 2**31 - 1))
    client_id = b"\x00\x02fz"
    tags = b"\x00" if info.is_flexible(version) and draw(st.booleans()) else b""
    body = draw(st.binary(max_size=200))
    return struct.pack(">hhi", info.api_key, version, correlation_id) + client_id + tags + body


@FUZZ
@given(frames=st.lists(known_api_frames(), min_size=1, max_size=3), close=st.booleans())
def test_random_bodies_for_every_api(frames: list[bytes], close: bool) -> None:
    feed(b"".join(prefixed(f) for f in frames), [], close)


@st.composite
def mutated_golden_streams(draw: st.DrawFn) -> bytes:
    frame = bytearray(draw(st.sampled_from(GOLDEN_REQUESTS)))
    for _ in range(draw(st.integers(1, 4))):
        op = draw(st.sampled_from(["flip", "truncate", "insert", "delete", "overwrite"]))
        if op == "flip" and frame:
            i = draw(st.integers(0, len(frame) - 1))
            frame[i] ^= 1 << draw(st.integers(0, 7))
        elif op == "truncate":
            del frame[draw(st.integers(0, len(frame))) :]
        elif op == "insert":
            i = draw(st.integers(0, len(frame)))
            frame[i:i] = draw(st.binary(min_size=1, max_size=8))
        elif op == "delete" and frame:
            i = draw(st.integers(0, len(frame) - 1))
            del frame[i : i + draw(st.integers(1, 8))]
        elif op == "overwrite" and frame:
            i = draw(st.integers(0, len(frame) - 1))
            value = draw(st.sampled_from([b"\xff\xff", b"\x7f\xff\xff\xff", b"\x80\x00\x00\x00", b"\x00", b"\xff"]))
            frame[i : i + len(value)] = value
    size = draw(
        st.one_of(
            st.just(len(frame)),  # consistent prefix: the body decoder sees the damage
            st.integers(-(2**31), 2**31 - 1),  # arbitrary prefix, including negative and huge
            st.integers(max(0, len(frame) - 16), len(frame) + 16),  # off by a little
        )
    )
    stream = struct.pack(">i", size) + bytes(frame)
    if draw(st.booleans()):
        stream += prefixed(draw(st.sampled_from(GOLDEN_REQUESTS)))  # a valid frame after the damage
    return stream


@FUZZ
@given(stream=mutated_golden_streams(), cuts=cuts, close=st.booleans())
def test_mutated_client_frames(stream: bytes, cuts: list[int], close: bool) -> None:
    feed(stream, cuts, close)


def test_every_golden_frame_decodes_cleanly() -> None:
    """The unmutated seeds are valid, so the mutations above start from real traffic."""
    conn = ServerConnection()
    conn.receive_data(b"".join(prefixed(f) for f in GOLDEN_REQUESTS))
    events = []
    while (event := conn.next_event()) is not NEED_DATA:
        events.append(event)
    assert len(events) == len(GOLDEN_REQUESTS)
    assert all(isinstance(e, Request) for e in events)
