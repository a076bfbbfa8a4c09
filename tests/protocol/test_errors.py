"""The error-code table, the API-key enum and the protocol exception types."""

from __future__ import annotations

import pytest

from broker.protocol.api_keys import ApiKey
from broker.protocol.errors import (
    ErrorCode,
    FrameTooLargeError,
    InvalidFrameSizeError,
    KafkaError,
    MalformedFrameError,
    ProtocolError,
    TruncatedFrameError,
    UnsupportedFieldError,
)


def test_error_codes_are_contiguous_from_minus_one_to_136() -> None:
    # Kafka 4.4 defines every code in -1..136 with no gaps.
    assert sorted(int(e) for e in ErrorCode) == list(range(-1, 137))


@pytest.mark.parametrize(
    ("name", "code", "retriable"),
    [
        ("UNKNOWN_SERVER_ERROR", -1, False),
        ("NONE", 0, False),
        ("CORRUPT_MESSAGE", 2, True),
        ("NOT_LEADER_OR_FOLLOWER", 6, True),
        ("INCONSISTENT_GROUP_PROTOCOL", 23, False),
        ("UNKNOWN_MEMBER_ID", 25, False),
        ("REBALANCE_IN_PROGRESS", 27, False),
        ("UNSUPPORTED_VERSION", 35, False),
        ("INVALID_REQUEST", 42, False),
        ("NON_EMPTY_GROUP", 68, False),
        ("GROUP_ID_NOT_FOUND", 69, False),
        ("FENCED_LEADER_EPOCH", 74, True),
        ("GROUP_MAX_SIZE_REACHED", 81, False),
        ("UNKNOWN_TOPIC_ID", 100, True),
        ("FENCED_MEMBER_EPOCH", 110, False),
        ("INVALID_RECORD_STATE", 121, False),
        ("SHARE_SESSION_NOT_FOUND", 122, True),
        ("INVALID_SHARE_SESSION_EPOCH", 123, True),
        ("FENCED_STATE_EPOCH", 124, False),
        ("INVALID_VOTER_KEY", 125, False),
        ("REBOOTSTRAP_REQUIRED", 129, False),
        ("STREAMS_TOPOLOGY_FENCED", 132, False),
        ("SHARE_SESSION_LIMIT_REACHED", 133, True),
        ("GROUP_DELETION_FAILED", 134, False),
        ("STREAMS_TOPOLOGY_DESCRIPTION_UPDATE_FAILED", 135, False),
        ("CONTROLLER_ID_NOT_REGISTERED", 136, False),
    ],
)
def test_error_code_facts(name: str, code: int, retriable: bool) -> None:
    member = ErrorCode[name]
    assert member == code
    assert member.retriable is retriable


def test_every_error_code_has_a_message_and_a_flag() -> None:
    for member in ErrorCode:
        assert isinstance(member.retriable, bool)
        assert member.message and member.message[-1] == "."
        assert member.name.isupper()


def test_for_code_maps_unknown_codes_to_unknown_server_error() -> None:
    assert ErrorCode.for_code(122) is ErrorCode.SHARE_SESSION_NOT_FOUND
    assert ErrorCode.for_code(9999) is ErrorCode.UNKNOWN_SERVER_ERROR
    with pytest.raises(ValueError):
        ErrorCode(9999)


def test_kafka_error_carries_its_code() -> None:
    err = KafkaError(ErrorCode.INVALID_SHARE_SESSION_EPOCH)
    assert isinstance(err, ProtocolError)
    assert err.code is ErrorCode.INVALID_SHARE_SESSION_EPOCH
    assert err.retriable
    assert "INVALID_SHARE_SESSION_EPOCH (123)" in str(err)
    assert "expected 4" in str(KafkaError(ErrorCode.INVALID_REQUEST, "expected 4"))


def test_framing_errors_are_protocol_errors() -> None:
    too_large = FrameTooLargeError(200, 100)
    assert (too_large.size, too_large.limit) == (200, 100)
    assert "200" in str(too_large) and "100" in str(too_large)
    assert "-5" in str(InvalidFrameSizeError(-5))
    for exc in (
        too_large,
        InvalidFrameSizeError(-1),
        MalformedFrameError("bad"),
        TruncatedFrameError("eof"),
        UnsupportedFieldError("x"),
    ):
        assert isinstance(exc, ProtocolError)


def test_api_keys_cover_0_to_94() -> None:
    assert sorted(int(k) for k in ApiKey) == list(range(95))
    assert ApiKey.PRODUCE == 0
    assert ApiKey.API_VERSIONS == 18
    assert ApiKey.SHARE_GROUP_HEARTBEAT == 76
    assert ApiKey.SHARE_FETCH == 78
    assert ApiKey.SHARE_ACKNOWLEDGE == 79
    assert ApiKey.STREAMS_GROUP_HEARTBEAT == 88
    assert ApiKey.DELETE_SHARE_GROUP_OFFSETS == 92
    assert ApiKey.STREAMS_GROUP_TOPOLOGY_DESCRIPTION_UPDATE == 93
    assert ApiKey.UNREGISTER_CONTROLLER == 94


def test_api_key_names() -> None:
    assert ApiKey.SHARE_FETCH.api_name == "ShareFetch"
    assert ApiKey.READ_SHARE_GROUP_STATE_SUMMARY.api_name == "ReadShareGroupStateSummary"
    assert ApiKey.name_of(18) == "ApiVersions"
    assert ApiKey.name_of(1000) == "Unknown(1000)"
