"""``__transaction_state`` records, byte for byte as Kafka 4.4 writes them.

The golden values were produced by Kafka 4.4.0's own generated classes
(``TransactionLogKey``/``TransactionLogValue`` with
``MessageUtil.toCoordinatorTypePrefixedBytes`` / ``toVersionPrefixedBytes``,
the calls its ``TransactionLog`` makes), run against the jars ``make peers``
fetches.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from broker.protocol.errors import ProtocolError
from broker.txn.records import (
    TopicPartition,
    TxnMetadata,
    UnknownRecord,
    decode,
    decode_key,
    encode_key,
    encode_value,
    value_version,
)
from broker.txn.states import TxnState

TP = TopicPartition
S = TxnState

KEY = "0000000574786e2d31"  # "txn-1"
ONGOING_V1 = (
    "000100000000000003e900030000ea60010302610300000000000000020002620200000001000000018bcfe5687b"
    "0000018bcfe5686402000800000000000003e902020002"
)
EMPTY_V0 = "000000000000000000070000000dbba000ffffffff0000000000000005ffffffffffffffff"
PREPARE_V1 = (
    "0001000000000000002a7fff000003e80202027402000000050000000000000000090000000000000008030008"
    "000000000000002a0108000000000000002b02020002"
)
COMPLETE_V1 = "0001000000000000002a0004000003e80501000000000000000b000000000000000800"

ONGOING = TxnMetadata(
    "txn-1",
    producer_id=1001,
    producer_epoch=3,
    state=S.ONGOING,
    timeout_ms=60000,
    partitions=frozenset({TP("a", 0), TP("a", 2), TP("b", 1)}),
    last_update_ms=1700000000123,
    start_ms=1700000000100,
    previous_producer_id=1001,
    client_version=2,
)
EMPTY = TxnMetadata("txn-1", 7, 0, S.EMPTY, 900000, frozenset(), 5, -1)
PREPARE = TxnMetadata("txn-1", 42, 32767, S.PREPARE_COMMIT, 1000, frozenset({TP("t", 5)}), 9, 8, 42, 43, -1, 2)
COMPLETE = TxnMetadata("txn-1", 42, 4, S.COMPLETE_ABORT, 1000, frozenset(), 11, 8)


@pytest.mark.parametrize(
    ("meta", "version", "golden"),
    [(ONGOING, 1, ONGOING_V1), (EMPTY, 0, EMPTY_V0), (PREPARE, 1, PREPARE_V1), (COMPLETE, 1, COMPLETE_V1)],
)
def test_values_match_kafkas_bytes_both_ways(meta, version, golden):
    assert encode_value(meta, version).hex() == golden
    assert decode(bytes.fromhex(KEY), bytes.fromhex(golden)) == ("txn-1", meta)


def test_key_matches_kafkas_bytes():
    assert encode_key("txn-1").hex() == KEY
    assert decode_key(bytes.fromhex(KEY)) == "txn-1"


def test_value_version_follows_the_transaction_version_feature():
    assert [value_version(level) for level in (0, 1, 2)] == [0, 1, 1]


def test_version_0_leaves_the_tagged_fields_out():
    data = encode_value(PREPARE, 0)
    _, back = decode(encode_key("txn-1"), data)
    assert back is not None
    assert (back.previous_producer_id, back.next_producer_id, back.client_version) == (-1, -1, 0)
    assert back.producer_id == 42 and back.partitions == PREPARE.partitions


def test_tombstone():
    assert decode(encode_key("gone"), None) == ("gone", None)


def test_empty_ignores_partitions_when_read():
    # Kafka writes null for Empty and ignores whatever an Empty record holds.
    data = encode_value(ONGOING, 1)
    status_at = 2 + 8 + 2 + 4  # version, producer id, epoch, timeout
    patched = data[:status_at] + bytes([0]) + data[status_at + 1 :]
    _, back = decode(encode_key("txn-1"), patched)
    assert back is not None and back.state is S.EMPTY and back.partitions == frozenset()


def test_writing_impossible_states_is_refused():
    with pytest.raises(ValueError):
        encode_value(TxnMetadata("x", 1, 0, S.DEAD, 1, frozenset(), 0, -1), 1)
    with pytest.raises(ValueError):
        encode_value(TxnMetadata("x", 1, 0, S.EMPTY, 1, frozenset({TP("a", 0)}), 0, -1), 1)


def test_unknown_key_type_and_value_version():
    with pytest.raises(UnknownRecord):
        decode_key(bytes.fromhex("0001") + bytes.fromhex(KEY)[2:])
    with pytest.raises(UnknownRecord):
        decode(bytes.fromhex(KEY), bytes.fromhex("0002") + bytes.fromhex(COMPLETE_V1)[2:])


@pytest.mark.parametrize("junk", [b"", b"\x00", b"\x00\x00\x00\x09abc", b"\x00\x00\xff\xff"])
def test_garbage_is_a_protocol_error(junk):
    with pytest.raises(ProtocolError):
        decode(junk, None)
    with pytest.raises(ProtocolError):
        decode(encode_key("x"), junk)


def test_unknown_state_id_is_a_protocol_error():
    data = bytearray(encode_value(COMPLETE, 1))
    data[2 + 8 + 2 + 4] = 9
    with pytest.raises(ProtocolError):
        decode(encode_key("x"), bytes(data))


_INT64 = st.integers(-(2**63), 2**63 - 1)
_ID = st.text(min_size=1, max_size=20)
_PARTS = st.frozensets(
    st.builds(TP, st.text(alphabet="abcxyz-._", min_size=1, max_size=5), st.integers(0, 2**31 - 1)), max_size=6
)


@st.composite
def metadata(draw):
    state = draw(st.sampled_from([s for s in S if s not in (S.DEAD, S.PREPARE_EPOCH_FENCE)]))
    return TxnMetadata(
        draw(_ID),
        producer_id=draw(_INT64),
        producer_epoch=draw(st.integers(-1, 2**15 - 1)),
        state=state,
        timeout_ms=draw(st.integers(1, 2**31 - 1)),
        partitions=frozenset() if state is S.EMPTY else draw(_PARTS),
        last_update_ms=draw(_INT64),
        start_ms=draw(_INT64),
        previous_producer_id=draw(_INT64),
        next_producer_id=draw(_INT64),
        next_producer_epoch=draw(st.integers(-(2**15), 2**15 - 1)),
        client_version=draw(st.integers(0, 2)),
    )


@given(metadata())
def test_round_trip(meta):
    assert decode(encode_key(meta.transactional_id), encode_value(meta, 1)) == (meta.transactional_id, meta)
