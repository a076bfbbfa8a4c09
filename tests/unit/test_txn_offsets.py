"""Transactional offsets in the offsets store, and transactional records in the runtime's live set."""

from __future__ import annotations

from broker.coordinator.runtime import _Hosted
from broker.group.offsets import CommittedOffset, OffsetStore


def off(n: int) -> CommittedOffset:
    return CommittedOffset(n, -1, "", 1, -1)


def test_pending_offsets_apply_at_commit_and_go_at_abort():
    store = OffsetStore()
    store.put("g", "t", 0, off(1))
    store.put_pending(7, "g", "t", 0, off(5))
    store.put_pending(7, "g", "t", 1, off(6))
    store.put_pending(8, "h", "t", 0, off(9))
    assert store.get("g", "t", 0) == off(1) and store.get("g", "t", 1) is None
    assert store.has_pending("g", "t", 0) and store.has_pending("g") and not store.has_pending("g", "t", 2)
    assert store.end_transaction(7, committed=True) == ["g"]
    assert (store.get("g", "t", 0), store.get("g", "t", 1)) == (off(5), off(6))
    assert not store.has_pending("g")
    assert store.end_transaction(8, committed=False) == []
    assert store.get("h", "t", 0) is None and not store.has_pending("h")
    assert store.end_transaction(99, committed=True) == []  # no transaction: nothing happens


def test_a_later_regular_commit_or_delete_wins_over_a_pending_offset():
    store = OffsetStore()
    store.put_pending(7, "g", "t", 0, off(5))
    store.put_pending(7, "g", "t", 1, off(6))
    store.put("g", "t", 0, off(10))  # written to the log after the transactional one
    store.remove("g", "t", 1)
    store.end_transaction(7, committed=True)
    assert store.get("g", "t", 0) == off(10) and store.get("g", "t", 1) is None


def test_runtime_live_records_follow_transactions():
    hosted = _Hosted(shard=None)
    hosted.keep(b"a", b"1")
    hosted.keep_transactional(7, b"a", b"2")
    hosted.keep_transactional(7, b"b", b"3")
    hosted.keep_transactional(8, b"c", b"4")
    assert hosted.live == {b"a": b"1"}  # nothing transactional is live before its marker
    hosted.keep(b"b", b"5")  # a later non-transactional record of b wins
    hosted.end_transaction(7, committed=True)
    hosted.end_transaction(8, committed=False)
    assert hosted.live == {b"a": b"2", b"b": b"5"}
    assert hosted.pending_txn == {}
