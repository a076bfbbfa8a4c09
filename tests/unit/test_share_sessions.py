"""Share-session epoch rules (KIP-932), pure."""

from __future__ import annotations

import uuid

from hypothesis import given
from hypothesis import strategies as st

from broker.protocol.errors import ErrorCode
from broker.share.sessions import MAX_EPOCH, ShareSessionCache, next_epoch

T = uuid.uuid4()


def test_epoch_zero_opens_and_sequence_continues():
    cache = ShareSessionCache()
    s, old, code = cache.open("g", "m", connection_id=1, now_ms=0)
    assert code == ErrorCode.NONE and old is None
    assert s.expected_epoch == 1
    for epoch in (1, 2, 3):
        got, code = cache.continue_("g", "m", epoch, now_ms=epoch)
        assert code == ErrorCode.NONE and got is s
    assert s.expected_epoch == 4


def test_wrong_epoch_and_missing_session():
    cache = ShareSessionCache()
    cache.open("g", "m", 1, 0)
    assert cache.continue_("g", "m", 5, 0)[1] == ErrorCode.INVALID_SHARE_SESSION_EPOCH
    # a wrong epoch does not advance the expected one
    assert cache.continue_("g", "m", 1, 0)[1] == ErrorCode.NONE
    assert cache.continue_("g", "other", 1, 0)[1] == ErrorCode.SHARE_SESSION_NOT_FOUND
    assert cache.check_final("g", "other")[1] == ErrorCode.SHARE_SESSION_NOT_FOUND


def test_reopen_replaces_and_returns_the_old_session():
    cache = ShareSessionCache()
    first, _, _ = cache.open("g", "m", 1, 0)
    first.add([(T, 0)])
    second, old, code = cache.open("g", "m", 2, 0)
    assert code == ErrorCode.NONE and old is first and second is not first
    assert list(second.partitions) == []
    assert len(cache) == 1


def test_session_limit():
    cache = ShareSessionCache(max_sessions=2)
    cache.open("g", "a", 1, 0)
    cache.open("g", "b", 1, 0)
    assert cache.open("g", "c", 1, 0)[2] == ErrorCode.SHARE_SESSION_LIMIT_REACHED
    # replacing an existing member's session is allowed at the limit
    assert cache.open("g", "a", 1, 0)[2] == ErrorCode.NONE
    cache.close("g", "b")
    assert cache.open("g", "c", 1, 0)[2] == ErrorCode.NONE


def test_epoch_wraps_to_one():
    assert next_epoch(MAX_EPOCH) == 1
    cache = ShareSessionCache()
    s, _, _ = cache.open("g", "m", 1, 0)
    s.expected_epoch = MAX_EPOCH
    assert cache.continue_("g", "m", MAX_EPOCH, 0)[1] == ErrorCode.NONE
    assert s.expected_epoch == 1


def test_sessions_of_connection():
    cache = ShareSessionCache()
    cache.open("g", "a", 7, 0)
    cache.open("g", "b", 8, 0)
    cache.open("h", "a", 7, 0)
    assert sorted(s.key for s in cache.sessions_of_connection(7)) == [("g", "a"), ("h", "a")]


@given(st.lists(st.integers(0, 20), min_size=1, max_size=30), st.integers(0, 50))
def test_rotation_visits_every_partition_first_in_turn(parts, calls):
    cache = ShareSessionCache()
    s, _, _ = cache.open("g", "m", 1, 0)
    keys = [(T, p) for p in parts]
    s.add(keys)
    distinct = list(dict.fromkeys(keys))
    firsts = [s.fetch_order()[0] for _ in range(len(distinct) * 2)]
    assert set(firsts) == set(distinct)
    for _ in range(calls):
        order = s.fetch_order()
        assert sorted(order) == sorted(distinct)
