"""Round trips of every generated message at every version, plus targeted codec checks.

``test_roundtrip`` has one test id per message-version in the registry: a
generated instance (fields the version lacks left at their defaults, unknown
tagged fields sprinkled into flexible versions) must encode, decode back to an
equal value, re-encode to identical bytes, decode at an offset inside a larger
buffer, and refuse truncations of its encoding; corrupted bytes may decode to
anything but may raise nothing except ProtocolError.
"""

from __future__ import annotations

import dataclasses
import uuid
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from broker.protocol.errors import ProtocolError, UnsupportedFieldError
from broker.protocol.messages import API_INDEX, REQUESTS, RESPONSES, SCHEMA_MODULES
from broker.protocol.messages.api_versions_response import ApiVersionsResponse, SupportedFeatureKey
from broker.protocol.messages.consumer_group_member_metadata_value import (
    ClassicMemberMetadata,
    ClassicProtocol,
    ConsumerGroupMemberMetadataValue,
)
from broker.protocol.messages.fetch_response import FetchableTopicResponse, FetchResponse, PartitionData
from broker.protocol.messages.find_coordinator_request import FindCoordinatorRequest
from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from broker.protocol.primitives import write_uvarint
from codegen.model import Field
from codegen.model import Message as Schema
from tests.protocol.strategies import (
    INT_RANGES,
    message_class,
    message_strategy,
    message_versions,
    module_of,
    normalise,
    schemas,
    struct_fields,
)

SETTINGS = settings(
    max_examples=12,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

CASES = message_versions()
NAMES = sorted(schemas())


def _cuts(n: int) -> list[int]:
    """Truncation points: all of a short encoding, a spread of a long one."""
    if n <= 48:
        return list(range(n))
    step = n // 32
    return sorted(set(range(16)) | set(range(16, n, step)) | set(range(n - 16, n)))


def test_registry_covers_every_schema() -> None:
    assert len(SCHEMA_MODULES) == len(schemas())
    assert sorted(SCHEMA_MODULES.values()) == NAMES
    for info in API_INDEX.values():
        assert REQUESTS[info.api_key].NAME == info.request_class
        assert RESPONSES[info.api_key].NAME == info.response_class
        schema = schemas()[info.request_class]
        assert (info.min_version, info.max_version) == (schema.valid.lo, schema.valid.hi)


@pytest.mark.parametrize(("name", "version"), CASES, ids=[f"{n}-v{v}" for n, v in CASES])
def test_roundtrip(name: str, version: int) -> None:
    cls = message_class(name)

    @SETTINGS
    @given(message_strategy(name, version, unknown_tags=True))
    def check(msg: Any) -> None:
        encoded = msg.encode(version)
        decoded = cls.decode(encoded, version)
        assert normalise(decoded) == normalise(msg)
        assert decoded == msg
        assert decoded.encode(version) == encoded

        framed = memoryview(b"\xaa\xaa\xaa" + encoded + b"\xbb")
        at, end = cls.decode_at(framed, 3, version)
        assert end == 3 + len(encoded)
        assert normalise(at) == normalise(msg)

        for cut in _cuts(len(encoded)):
            with pytest.raises(ProtocolError):
                cls.decode(encoded[:cut], version)

        # a corrupted byte decodes to something or raises ProtocolError, nothing else
        for pos in _cuts(len(encoded))[::3]:
            for byte in (0x00, 0x7F, 0x80, 0xFF):
                corrupt = bytearray(encoded)
                corrupt[pos] = byte
                try:
                    cls.decode(corrupt, version)
                except ProtocolError:
                    pass

    check()


# --- unknown tagged fields --------------------------------------------------------------


def _tag_section(tags: list[tuple[int, bytes]]) -> bytes:
    out = bytearray()
    write_uvarint(out, len(tags))
    for tag, payload in tags:
        write_uvarint(out, tag)
        write_uvarint(out, len(payload))
        out += payload
    return bytes(out)


@pytest.mark.parametrize(
    ("msg", "version"),
    [
        # no tagged fields known at top level: the read_unknown_tags path
        (FindCoordinatorRequest(key_type=1, coordinator_keys=["g1", "g2"]), 4),
        # tagged fields known at top level (none set here): the per-tag dispatch path
        (ApiVersionsResponse(error_code=0, throttle_time_ms=5), 3),
        (ProduceRequest(acks=-1, timeout_ms=100), 9),
    ],
    ids=lambda x: type(x).__name__ if not isinstance(x, int) else f"v{x}",
)
def test_unknown_tagged_fields_skipped_and_preserved(msg: Any, version: int) -> None:
    plain = msg.encode(version)
    assert plain.endswith(b"\x00")  # an empty top-level tag section
    unknown = [(1000, b"abc"), (20000, b"")]
    crafted = plain[:-1] + _tag_section(unknown)
    decoded = type(msg).decode(crafted, version)
    assert decoded == msg  # the unknown tags are skipped
    assert list(decoded._unknown_tagged_fields) == unknown
    assert decoded.encode(version) == crafted  # and preserved on re-encode


def test_unknown_tags_merge_with_known_tags_in_tag_order() -> None:
    msg = ApiVersionsResponse(
        finalized_features_epoch=7,
        supported_features=[SupportedFeatureKey(name="f", min_version=1, max_version=2)],
    )
    msg._unknown_tagged_fields = [(9, b"q"), (7, b"zz")]
    encoded = msg.encode(3)
    decoded = ApiVersionsResponse.decode(encoded, 3)
    assert decoded == msg
    assert sorted(decoded._unknown_tagged_fields) == [(7, b"zz"), (9, b"q")]
    assert decoded.encode(3) == encoded


def test_unknown_tags_in_a_non_flexible_version_are_not_written() -> None:
    msg = FindCoordinatorRequest(key="g", _unknown_tagged_fields=[(5, b"x")])
    assert msg.encode(2) == FindCoordinatorRequest(key="g").encode(2)


# --- fields a version lacks -----------------------------------------------------------


def _default(cls: type, f: Field) -> Any:
    dc_field = next(x for x in dataclasses.fields(cls) if x.name == f.py_name)
    if dc_field.default_factory is not dataclasses.MISSING:
        return dc_field.default_factory()
    return dc_field.default


def non_default(schema: Schema, owner: type, f: Field) -> Any:
    """A value of ``f``'s type different from its default."""
    module = module_of(schema.name)
    default = _default(owner, f)
    if f.is_array:
        if default is None:
            return []
        if f.is_struct:
            return [getattr(module, f.element_type)()]
        return [_non_default_primitive(f.element_type, None)]
    if f.is_struct:
        cls = getattr(module, f.element_type)
        if default is None:
            return cls()
        first = struct_fields(schema, f.element_type)[0]
        return cls(**{first.py_name: non_default(schema, cls, first)})
    return _non_default_primitive(f.type, default)


def _non_default_primitive(t: str, default: Any) -> Any:
    if t in INT_RANGES:
        d = default or 0
        return d + 1 if d + 1 <= INT_RANGES[t][1] else d - 1
    if t == "bool":
        return not default
    if t == "float64":
        return (default or 0.0) + 1.0
    if t == "string":
        return (default or "") + "x"
    if t in ("bytes", "records"):
        return b"x"
    if t == "uuid":
        return uuid.UUID(int=1) if default != uuid.UUID(int=1) else uuid.UUID(int=2)
    raise AssertionError(t)


def _absent_top_level(schema: Schema) -> list[tuple[int, Field]]:
    return [(v, f) for v in schema.versions() for f in schema.fields if not f.present_in(v)]


@pytest.mark.parametrize("name", NAMES)
def test_absent_fields_dropped_if_ignorable_else_refused(name: str) -> None:
    schema = schemas()[name]
    cls = message_class(name)
    for v, f in _absent_top_level(schema):
        msg = cls(**{f.py_name: non_default(schema, cls, f)})
        assert getattr(msg, f.py_name) != _default(cls, f)
        if f.ignorable:
            encoded = msg.encode(v)
            assert encoded == cls().encode(v), (v, f.name)
            assert getattr(cls.decode(encoded, v), f.py_name) == _default(cls, f)
        else:
            with pytest.raises(UnsupportedFieldError):
                msg.encode(v)


def test_absent_field_cases_exist() -> None:
    cases = [(n, f.ignorable) for n in NAMES for _, f in _absent_top_level(schemas()[n])]
    assert any(ign for _, ign in cases) and any(not ign for _, ign in cases)


def test_non_ignorable_absent_field_in_a_nested_struct_is_refused() -> None:
    # Every field of FetchResponse's PartitionData that some version lacks, set to a non-default value.
    schema = schemas()["FetchResponse"]
    fields = schema.structs["PartitionData"].fields
    cases = [(v, f) for v in schema.versions() for f in fields if not f.present_in(v) and not f.ignorable]
    ignorable = [(v, f) for v in schema.versions() for f in fields if not f.present_in(v) and f.ignorable]
    for v, f in cases:
        part = PartitionData(**{f.py_name: non_default(schema, PartitionData, f)})
        msg = FetchResponse(responses=[FetchableTopicResponse(topic="t", partitions=[part])])
        with pytest.raises(UnsupportedFieldError):
            msg.encode(v)
    for v, f in ignorable:
        part = PartitionData(**{f.py_name: non_default(schema, PartitionData, f)})
        msg = FetchResponse(responses=[FetchableTopicResponse(topic="t", partitions=[part])])
        decoded = FetchResponse.decode(msg.encode(v), v)
        assert getattr(decoded.responses[0].partitions[0], f.py_name) == _default(PartitionData, f)
    assert cases or ignorable


# --- null where the version does not allow it ------------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_null_in_non_nullable_field_is_refused(name: str) -> None:
    schema = schemas()[name]
    cls = message_class(name)
    accepted = []
    for v in schema.versions():
        for f in schema.fields:
            if f.present_in(v) and not f.nullable_in(v):
                try:
                    cls(**{f.py_name: None}).encode(v)
                except ProtocolError:
                    continue
                kind = "tagged " if f.tagged_in(v) else ""
                accepted.append(f"v{v} {kind}{f.type} {f.name}")
    assert not accepted, f"{name}: None encoded without error in non-nullable " + ", ".join(accepted)


def test_null_in_non_nullable_nested_field_is_refused() -> None:
    msg = ProduceRequest(topic_data=[TopicProduceData(name=None)])  # type: ignore[arg-type]
    for v in range(ProduceRequest.MIN_VERSION, 13):
        with pytest.raises(ProtocolError):
            msg.encode(v)


# --- truncation -------------------------------------------------------------------------


def _produce(records: bytes) -> ProduceRequest:
    return ProduceRequest(
        transactional_id="tx",
        acks=-1,
        timeout_ms=30_000,
        topic_data=[TopicProduceData(name="t", partition_data=[PartitionProduceData(index=0, records=records)])],
    )


@pytest.mark.parametrize("version", [3, 8, 9, 12])
def test_every_truncation_is_a_protocol_error(version: int) -> None:
    encoded = _produce(b"r" * 40).encode(version)
    for cut in range(len(encoded)):
        with pytest.raises(ProtocolError):
            ProduceRequest.decode(encoded[:cut], version)
    assert ProduceRequest.decode(encoded, version) == _produce(b"r" * 40)


def test_unknown_version_is_a_protocol_error() -> None:
    with pytest.raises(ProtocolError):
        ProduceRequest.decode(b"", 99)
    with pytest.raises(ProtocolError):
        ProduceRequest().encode(99)


# --- records are views into the frame ----------------------------------------------------


@pytest.mark.parametrize("version", [3, 9, 12])
@pytest.mark.parametrize("kind", [bytes, bytearray])
def test_produce_records_decode_zero_copy(version: int, kind: type) -> None:
    buf = kind(_produce(b"batch-bytes").encode(version))
    decoded = ProduceRequest.decode(buf, version)
    records = decoded.topic_data[0].partition_data[0].records
    assert isinstance(records, memoryview)
    assert records.obj is buf
    assert bytes(records) == b"batch-bytes"


def test_fetch_records_decode_zero_copy_from_a_memoryview() -> None:
    msg = FetchResponse(responses=[FetchableTopicResponse(topic="t", partitions=[PartitionData(records=b"abc")])])
    frame = bytearray(b"\x00" * 4 + msg.encode(11))
    view = memoryview(frame)
    decoded, _ = FetchResponse.decode_at(view, 4, 11)
    records = decoded.responses[0].partitions[0].records
    assert isinstance(records, memoryview) and records.obj is frame
    start = bytes(frame).index(b"abc")
    frame[start] = ord("X")  # a view, not a copy: writes to the frame show through
    assert bytes(records) == b"Xbc"


# --- tagged nullable structs ----------------------------------------------------------------

# ConsumerGroupMemberMetadataValue v0 with every field at its default up to ServerAssignor:
# six empty compact strings/arrays, RebalanceTimeoutMs -1, an empty ServerAssignor.
_MEMBER_METADATA_PREFIX = bytes.fromhex("010101010101ffffffff01")


@pytest.mark.parametrize(
    ("classic", "tags"),
    [
        # null is the default (Kafka 4.4 declares "default": null): not written
        (None, "00"),
        # an empty struct is written: tag 0, seven bytes, the varint 1 (present; not int8 1 as
        # for an untagged nullable struct), then the struct (0 ms, no protocols, no tags)
        (ClassicMemberMetadata(), "01000701000000000100"),
        # present: the varint 1, then the struct (45000 ms, [("range", b"\x01")], no tags)
        (
            ClassicMemberMetadata(session_timeout_ms=45000, supported_protocols=[ClassicProtocol("range", b"\x01")]),
            "0100100100" + "00afc8" + "02" + "0672616e6765" + "020100" + "00",
        ),
    ],
    ids=["null", "empty", "present"],
)
def test_tagged_nullable_struct_uses_a_varint_null_marker(classic: ClassicMemberMetadata | None, tags: str) -> None:
    # Bytes as Kafka 4.4's own ConsumerGroupMemberMetadataValue reads and writes them.
    msg = ConsumerGroupMemberMetadataValue(classic_member_metadata=classic)
    encoded = msg.encode(0)
    assert encoded.hex() == (_MEMBER_METADATA_PREFIX + bytes.fromhex(tags)).hex()
    assert ConsumerGroupMemberMetadataValue.decode(encoded, 0) == msg
