"""Frames captured from real clients decode and re-encode byte for byte.

The frames in ``golden/`` were recorded between confluent-kafka (librdkafka
2.16) / kafka-python 3.0 and an Apache Kafka 4.2 broker (see golden/README.md).
Requests are what real clients send us; responses are what the reference broker
answers, so both directions are checked.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from broker.protocol.messages import API_INDEX, REQUESTS, RESPONSES, RequestHeader, ResponseHeader
from broker.protocol.messages.share_fetch_request import ShareFetchRequest

GOLDEN = Path(__file__).parent / "golden"
INDEX = json.loads((GOLDEN / "index.json").read_text())["frames"]


def _frames():
    for entry in INDEX:
        yield pytest.param(entry, "request", id=entry["file"].removesuffix(".req.bin"))
        if entry.get("response_file"):
            yield pytest.param(entry, "response", id=entry["response_file"].removesuffix(".bin"))


@pytest.mark.parametrize(("entry", "side"), list(_frames()))
def test_golden_frame_round_trips(entry: dict, side: str) -> None:
    api = API_INDEX[entry["api_key"]]
    version = entry["api_version"]
    header_type: type[RequestHeader] | type[ResponseHeader]
    if side == "request":
        raw = (GOLDEN / entry["file"]).read_bytes()
        header_type, header_version, body_type = (
            RequestHeader,
            api.request_header_version(version),
            REQUESTS[api.api_key],
        )
    else:
        raw = (GOLDEN / entry["response_file"]).read_bytes()
        header_type, header_version, body_type = (
            ResponseHeader,
            api.response_header_version(version),
            RESPONSES[api.api_key],
        )
    view = memoryview(raw)
    header, pos = header_type.decode_at(view, 0, header_version)
    assert header.correlation_id == entry["correlation_id"]
    body, end = body_type.decode_at(view, pos, version)
    assert end == len(raw), f"{len(raw) - end} bytes left after the body"
    out = bytearray()
    header.encode_into(out, header_version)
    body.encode_into(out, version)
    assert bytes(out) == raw


def test_golden_set_covers_the_share_consumer_path() -> None:
    """The set holds the frames the protocol-layer issue names, including acks."""
    seen = {(e["client"], e["api_name"]) for e in INDEX}
    for client, api in [
        ("confluent-kafka", "ApiVersions"),
        ("confluent-kafka", "Metadata"),
        ("confluent-kafka", "Produce"),
        ("confluent-kafka", "ShareGroupHeartbeat"),
        ("confluent-kafka", "ShareFetch"),
        ("confluent-kafka", "ShareAcknowledge"),
        ("kafka-python", "ApiVersions"),
        ("kafka-python", "Metadata"),
        ("kafka-python", "Produce"),
    ]:
        assert (client, api) in seen, (client, api)
    share_fetches = [e for e in INDEX if e["api_name"] == "ShareFetch"]
    with_acks = 0
    for e in share_fetches:
        raw = memoryview((GOLDEN / e["file"]).read_bytes())
        _, pos = RequestHeader.decode_at(raw, 0, 2)
        req, _ = ShareFetchRequest.decode_at(raw, pos, e["api_version"])
        with_acks += any(p.acknowledgement_batches for t in req.topics for p in t.partitions)
    assert with_acks >= 1
