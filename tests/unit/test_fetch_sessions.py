"""The fetch-session cache (KIP-227) as pure logic with a hand-driven clock."""

from __future__ import annotations

import random
import uuid

from broker.protocol.errors import ErrorCode
from broker.protocol.messages.fetch_response import EpochEndOffset, PartitionData
from broker.replica.fetch_sessions import (
    FINAL_EPOCH,
    INVALID_SESSION_ID,
    CachedPartition,
    FetchSessionCache,
    next_epoch,
)


def part(topic: str, p: int, offset: int = 0, topic_id: uuid.UUID | None = None) -> CachedPartition:
    return CachedPartition(
        topic=topic, topic_id=topic_id or uuid.UUID(int=0), partition=p, fetch_offset=offset, max_bytes=1 << 20
    )


def req(*parts: CachedPartition, by_id: bool = False) -> dict:
    return {((cp.topic_id if by_id else cp.topic), cp.partition): cp for cp in parts}


def data(hw: int = 10, records: bytes = b"", error: int = 0, lso: int | None = None, lss: int = 0) -> PartitionData:
    return PartitionData(
        error_code=error,
        high_watermark=hw,
        last_stable_offset=hw if lso is None else lso,
        log_start_offset=lss,
        records=records,
    )


def open_session(cache: FetchSessionCache, fetch_data: dict, now: int = 0, version: int = 12, follower: bool = False):
    ctx = cache.new_context(
        version=version, session_id=0, epoch=0, is_follower=follower, fetch_data=fetch_data, forgotten=(), now_ms=now
    )
    results = {k: data() for k, _ in ctx.partitions()}
    return ctx.respond(results, now)


def incremental(cache, sid, epoch, fetch_data=None, forgotten=(), now=0, version=12):
    return cache.new_context(
        version=version,
        session_id=sid,
        epoch=epoch,
        is_follower=False,
        fetch_data=fetch_data or {},
        forgotten=forgotten,
        now_ms=now,
    )


def test_next_epoch():
    assert next_epoch(0) == 1
    assert next_epoch(41) == 42
    assert next_epoch(2**31 - 1) == 1
    assert next_epoch(FINAL_EPOCH) == FINAL_EPOCH


def test_sessionless_fetch_creates_nothing():
    cache = FetchSessionCache()
    ctx = cache.new_context(
        version=12, session_id=0, epoch=-1, is_follower=False, fetch_data=req(part("a", 0)), forgotten=(), now_ms=0
    )
    assert ctx.kind == "sessionless"
    err, sid, items = ctx.respond({("a", 0): data()}, 0)
    assert (err, sid, len(items)) == (0, INVALID_SESSION_ID, 1)
    assert len(cache) == 0


def test_full_fetch_opens_session_and_incremental_sends_only_changes():
    cache = FetchSessionCache(rng=random.Random(1))
    err, sid, items = open_session(cache, req(part("a", 0), part("a", 1), part("b", 0)))
    assert err == 0 and sid != 0 and len(items) == 3
    session = cache.get(sid)
    assert session.epoch == 1 and session.size == 3

    ctx = incremental(cache, sid, 1)
    assert ctx.kind == "incremental"
    # every session partition is read ...
    assert [k for k, _ in ctx.partitions()] == [("a", 0), ("a", 1), ("b", 0)]
    results = {
        ("a", 0): data(),
        ("a", 1): data(hw=11),
        ("b", 0): data(lso=9),
    }
    err, sid2, items = ctx.respond(results, 0)
    # ... but only the changed ones are sent: a-1 (high watermark), b-0 (last stable offset)
    assert (err, sid2) == (0, sid)
    assert [k for k, _, _ in items] == [("a", 1), ("b", 0)]
    assert session.epoch == 2

    # nothing changed: empty response
    ctx = incremental(cache, sid, 2)
    err, _, items = ctx.respond({("a", 0): data(), ("a", 1): data(hw=11), ("b", 0): data(lso=9)}, 0)
    assert items == []


def test_records_errors_and_log_start_changes_are_always_sent():
    cache = FetchSessionCache()
    _, sid, _ = open_session(cache, req(part("a", 0), part("a", 1), part("a", 2), part("a", 3)))
    ctx = incremental(cache, sid, 1)
    results = {
        ("a", 0): data(records=b"x" * 70),
        ("a", 1): data(error=ErrorCode.OFFSET_OUT_OF_RANGE, hw=-1, lso=-1, lss=-1),
        ("a", 2): data(lss=5),
        ("a", 3): PartitionData(
            high_watermark=10,
            last_stable_offset=10,
            log_start_offset=0,
            diverging_epoch=EpochEndOffset(epoch=0, end_offset=3),
        ),
    }
    _, _, items = ctx.respond(results, 0)
    assert [k for k, _, _ in items] == [("a", 0), ("a", 1), ("a", 2), ("a", 3)]
    # an errored partition is sent again once it recovers, even with the old high watermark
    ctx = incremental(cache, sid, 2)
    _, _, items = ctx.respond({("a", 0): data(), ("a", 1): data(), ("a", 2): data(lss=5), ("a", 3): data()}, 0)
    assert [k for k, _, _ in items] == [("a", 1)]


def test_partitions_with_records_rotate_to_the_end():
    cache = FetchSessionCache()
    _, sid, _ = open_session(cache, req(part("a", 0), part("a", 1), part("a", 2)))
    ctx = incremental(cache, sid, 1)
    ctx.respond({("a", 0): data(records=b"r"), ("a", 1): data(), ("a", 2): data()}, 0)
    assert list(cache.get(sid).partitions) == [("a", 1), ("a", 2), ("a", 0)]


def test_incremental_adds_updates_and_forgets():
    cache = FetchSessionCache()
    _, sid, _ = open_session(cache, req(part("a", 0, 5), part("a", 1)))
    ctx = incremental(cache, sid, 1, fetch_data=req(part("a", 0, 42), part("c", 0)), forgotten=[("a", 1)])
    parts = dict(ctx.partitions())
    assert list(parts) == [("a", 0), ("c", 0)]
    assert parts[("a", 0)].fetch_offset == 42
    # the new partition has never been sent, so it is in the response
    _, _, items = ctx.respond({("a", 0): data(), ("c", 0): data()}, 0)
    assert [k for k, _, _ in items] == [("c", 0)]


def test_forgetting_every_partition_closes_the_session():
    cache = FetchSessionCache()
    _, sid, _ = open_session(cache, req(part("a", 0)))
    ctx = incremental(cache, sid, 1, forgotten=[("a", 0)])
    assert ctx.kind == "sessionless"
    assert ctx.respond({}, 0) == (0, 0, [])
    assert cache.get(sid) is None


def test_session_errors():
    cache = FetchSessionCache()
    _, sid, _ = open_session(cache, req(part("a", 0)))
    ctx = incremental(cache, sid + 1, 1)
    assert ctx.respond({}, 0) == (ErrorCode.FETCH_SESSION_ID_NOT_FOUND, 0, [])
    ctx = incremental(cache, sid, 7)
    assert ctx.partitions() == []
    assert ctx.respond({}, 0) == (ErrorCode.INVALID_FETCH_SESSION_EPOCH, 0, [])
    # the session survives a wrong epoch
    assert incremental(cache, sid, 1).kind == "incremental"
    # a v13 request cannot continue a session that names topics
    ctx = incremental(cache, sid, 2, version=13)
    assert ctx.respond({}, 0)[0] == ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR


def test_duplicate_in_flight_request_gets_invalid_epoch_at_response_time():
    cache = FetchSessionCache()
    _, sid, _ = open_session(cache, req(part("a", 0)))
    first = incremental(cache, sid, 1)
    second = incremental(cache, sid, 2)  # the client moved on while the first was parked
    assert first.respond({("a", 0): data()}, 0) == (ErrorCode.INVALID_FETCH_SESSION_EPOCH, sid, [])
    assert second.respond({("a", 0): data()}, 0)[0] == 0


def test_final_epoch_closes_session_and_fetches_sessionless():
    cache = FetchSessionCache()
    _, sid, _ = open_session(cache, req(part("a", 0)))
    ctx = cache.new_context(
        version=12, session_id=sid, epoch=-1, is_follower=False, fetch_data=req(part("a", 0)), forgotten=(), now_ms=0
    )
    assert ctx.kind == "sessionless"
    assert cache.get(sid) is None
    # epoch 0 with an id closes the old session and opens a new one
    _, sid1, _ = open_session(cache, req(part("a", 0)))
    ctx = cache.new_context(
        version=12, session_id=sid1, epoch=0, is_follower=False, fetch_data=req(part("a", 0)), forgotten=(), now_ms=0
    )
    _, sid2, _ = ctx.respond({("a", 0): data()}, 0)
    assert cache.get(sid1) is None and cache.get(sid2) is not None and sid2 != sid1


def test_topic_id_sessions_resolve_names_later():
    cache = FetchSessionCache()
    tid = uuid.uuid4()
    unknown = CachedPartition(topic=None, topic_id=tid, partition=0, fetch_offset=0, max_bytes=100)
    _, sid, _ = open_session(cache, req(unknown, by_id=True), version=13)
    ctx = cache.new_context(
        version=13,
        session_id=sid,
        epoch=1,
        is_follower=False,
        fetch_data={},
        forgotten=(),
        now_ms=0,
        resolve_topic=lambda i: "late" if i == tid else None,
    )
    [(key, cp)] = ctx.partitions()
    assert key == (tid, 0) and cp.topic == "late"


def test_full_cache_answers_sessionless():
    cache = FetchSessionCache(max_sessions=2, eviction_ms=1000)
    s1 = open_session(cache, req(part("a", 0)), now=0)[1]
    s2 = open_session(cache, req(part("a", 0)), now=0)[1]
    # both are young: a newcomer of the same size evicts nothing
    assert open_session(cache, req(part("a", 0)), now=10)[1] == 0
    assert {s1, s2} == set(cache.sessions)


def test_idle_sessions_expire_when_room_is_needed():
    cache = FetchSessionCache(max_sessions=2, eviction_ms=1000)
    s1 = open_session(cache, req(part("a", 0)), now=0)[1]
    s2 = open_session(cache, req(part("a", 0)), now=500)[1]
    # s1 idle for more than the eviction time: the least recently used goes first
    s3 = open_session(cache, req(part("a", 0)), now=1200)[1]
    assert s3 != 0 and set(cache.sessions) == {s2, s3}
    assert cache.evictions == 1
    assert incremental(cache, s1, 1).respond({}, 0)[0] == ErrorCode.FETCH_SESSION_ID_NOT_FOUND


def test_bigger_session_displaces_smaller_old_one():
    cache = FetchSessionCache(max_sessions=2, eviction_ms=1000)
    small = open_session(cache, req(part("a", 0)), now=0)[1]
    big = open_session(cache, req(part("a", 0), part("a", 1), part("a", 2)), now=0)[1]
    # keep both in use, so neither is stale, but both older than the eviction time
    for epoch, now in ((1, 1500), (2, 1900)):
        incremental(cache, small, epoch, now=now).respond({}, now)
        incremental(cache, big, epoch, now=now).respond({}, now)
    # a 2-partition newcomer outranks the 1-partition session, not the 3-partition one
    new = open_session(cache, req(part("b", 0), part("b", 1)), now=2000)[1]
    assert new != 0 and set(cache.sessions) == {big, new}
    # a 1-partition newcomer cannot displace anything now (new one is young, big is bigger)
    assert open_session(cache, req(part("c", 0)), now=2001)[1] == 0


def test_follower_sessions_outrank_consumer_sessions():
    cache = FetchSessionCache(max_sessions=1, eviction_ms=1000)
    consumer = open_session(cache, req(part("a", 0), part("a", 1)), now=0)[1]
    incremental(cache, consumer, 1, now=10)  # touched: still young, but unprivileged
    follower = open_session(cache, req(part("a", 0)), now=20, follower=True)[1]
    assert follower != 0 and set(cache.sessions) == {follower}
    # a consumer cannot displace a young follower session
    assert open_session(cache, req(*(part("x", i) for i in range(9))), now=30)[1] == 0


def test_partition_count_is_tracked():
    cache = FetchSessionCache()
    sid = open_session(cache, req(part("a", 0), part("a", 1)))[1]
    assert cache.total_partitions == 2
    incremental(cache, sid, 1, fetch_data=req(part("b", 0)))
    assert cache.total_partitions == 3
    cache.remove(sid)
    assert cache.total_partitions == 0


# --- changes, not partitions: what an incremental fetch reads --------------------------


def test_an_incremental_fetch_reads_only_listed_and_changed_partitions():
    cache = FetchSessionCache()
    parts = [part("a", i) for i in range(100)]
    ctx = cache.new_context(
        version=12, session_id=0, epoch=0, is_follower=True, fetch_data=req(*parts), forgotten=(), now_ms=0
    )
    keys = [k for k, _ in ctx.to_read()]
    assert len(keys) == 100
    # every partition read with nothing to return: idle
    _, sid, _ = ctx.respond({k: data() for k in keys}, 0, idle=set(keys))
    for epoch in range(1, 50):  # many idle rounds read nothing
        ctx = incremental(cache, sid, epoch)
        assert ctx.to_read() == []
        assert ctx.respond({}, 0, idle=()) == (0, sid, [])
    # an append to a-42 is read (and sent) at the next request, and nothing else
    cache.partition_changed("a", 42)
    ctx = incremental(cache, sid, 50)
    assert [k for k, _ in ctx.to_read()] == [("a", 42)]
    _, _, items = ctx.respond({("a", 42): data(hw=11, records=b"x")}, 0, idle=())
    assert [k for k, _, _ in items] == [("a", 42)]
    # not idle (records were returned): read again; a listed partition is read too
    ctx = incremental(cache, sid, 51, fetch_data=req(part("a", 7, offset=3)))
    assert sorted(k for k, _ in ctx.to_read()) == [("a", 7), ("a", 42)]


def test_a_change_wakes_the_parked_fetch_of_its_session_only():
    cache = FetchSessionCache()
    sids = []
    for topic in ("a", "b"):
        ctx = cache.new_context(
            version=12, session_id=0, epoch=0, is_follower=True, fetch_data=req(part(topic, 0)), forgotten=(), now_ms=0
        )
        sids.append(ctx.respond({(topic, 0): data()}, 0, idle={(topic, 0)})[1])
    woken: list[str] = []
    ctx_a = incremental(cache, sids[0], 1)
    ctx_b = incremental(cache, sids[1], 1)
    ctx_a.set_waiter(lambda: woken.append("a"))
    ctx_b.set_waiter(lambda: woken.append("b"))
    cache.partition_changed("b", 0)
    cache.partition_changed("c", 0)  # in no session
    assert woken == ["b"]
    assert ctx_b.to_read() == [(("b", 0), cache.get(sids[1]).partitions[("b", 0)])]


def test_forgotten_and_closed_sessions_stop_watching():
    cache = FetchSessionCache()
    _, sid, _ = open_session(cache, req(part("a", 0), part("a", 1)))
    incremental(cache, sid, 1, forgotten=[("a", 1)]).respond({}, 0)
    cache.partition_changed("a", 1)
    assert cache.get(sid).changed == {("a", 0)}  # a-0 was never read idle; a-1 is gone
    cache.remove(sid)
    cache.partition_changed("a", 0)
    assert cache._watchers == {}


def test_a_duplicate_request_gives_back_what_it_took():
    cache = FetchSessionCache()
    ctx = cache.new_context(
        version=12, session_id=0, epoch=0, is_follower=True, fetch_data=req(part("a", 0)), forgotten=(), now_ms=0
    )
    _, sid, _ = ctx.respond({("a", 0): data()}, 0, idle={("a", 0)})
    cache.partition_changed("a", 0)
    first = incremental(cache, sid, 1)
    assert len(first.to_read()) == 1
    incremental(cache, sid, 2)  # the client moved on while the first was parked
    assert first.respond({("a", 0): data()}, 0, idle={("a", 0)})[0] == ErrorCode.INVALID_FETCH_SESSION_EPOCH
    assert cache.get(sid).changed == {("a", 0)}  # still to be read by the next request
