"""Fetch and ListOffsets handlers against a real LogManager on tmp_path.

Expected shapes (error codes, -1 offsets, null vs empty aborted-transaction
lists, partition order) are the ones Apache Kafka 4.2.2 answers for the same
requests. Responses go through the generated encoder and decoder of the
requested version, so anything a version cannot carry fails the test.
"""

from __future__ import annotations

import uuid

import pytest
import trio
import trio.testing

from broker.config import load_config
from broker.handlers import api_01_fetch, api_02_list_offsets
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.fetch_request import (
    FetchPartition,
    FetchRequest,
    FetchTopic,
    ForgottenTopic,
    ReplicaState,
)
from broker.protocol.messages.fetch_response import FetchResponse
from broker.protocol.messages.list_offsets_request import (
    ListOffsetsPartition,
    ListOffsetsRequest,
    ListOffsetsTopic,
)
from broker.protocol.messages.list_offsets_response import ListOffsetsResponse
from broker.protocol.records import build_batch, build_end_txn_marker, iter_batches
from broker.server.app import close_services
from tests.services import ServicesView, context, make_services

MB = 1 << 20


@pytest.fixture
def broker(tmp_path):
    services = make_services(tmp_path / "data")
    yield ServicesView(services)
    close_services(services)


@pytest.fixture
def logs(broker):
    return broker.logs


def append(broker: ServicesView, topic: str, partition: int, *records, **kw) -> int:
    """Append one batch of ``(key, value, headers, timestamp)`` records; wake fetches.
    A transactional batch comes with the guard of a (successful) transaction verification."""
    log = broker.logs.partition(topic, partition)
    guard = None
    if kw.get("transactional"):
        guard = log.producer_state.maybe_start_verification(
            kw["producer_id"], kw["base_sequence"], kw["producer_epoch"], False, 0
        )
    info = log.append(build_batch(list(records), **kw), leader_epoch=0, verification_guard=guard)
    broker.appended(topic, partition)
    return info.base_offset


def rec(value: bytes, ts: int = 1000) -> tuple:
    return (b"k", value, (), ts)


async def call(broker, module, req, version):
    resp = await module.handle(context(broker, version), req)
    # Round trip through the wire format of this version.
    return type(resp).decode(resp.encode(version), version)


def fetch_request(version, parts, topic_ids=None, **kw) -> FetchRequest:
    """``parts`` from :func:`part`; consecutive partitions of one topic share a topic entry."""
    groups: list[tuple[str, list[FetchPartition]]] = []
    for topic, index, offset, pmb, extra in parts:
        fp = FetchPartition(partition=index, fetch_offset=offset, partition_max_bytes=pmb, **extra)
        if groups and groups[-1][0] == topic:
            groups[-1][1].append(fp)
        else:
            groups.append((topic, [fp]))
    ids = topic_ids or {}
    if version >= 13:
        topics = [FetchTopic(topic_id=ids.get(t, uuid.UUID(int=99)), partitions=ps) for t, ps in groups]
    else:
        topics = [FetchTopic(topic=t, partitions=ps) for t, ps in groups]
    kw.setdefault("max_wait_ms", 0)
    kw.setdefault("min_bytes", 0)
    return FetchRequest(topics=topics, **kw)


def part(topic, index, offset=0, pmb=MB, **extra):
    return (topic, index, offset, pmb, extra)


def flat(resp: FetchResponse, ids: dict | None = None) -> list[tuple]:
    names = {v: k for k, v in (ids or {}).items()}
    out = []
    for t in resp.responses:
        name = t.topic if t.topic else names.get(t.topic_id, str(t.topic_id))
        for p in t.partitions:
            out.append((name, p.partition_index, p.error_code))
    return out


def only(resp: FetchResponse, index: int = 0):
    return [p for t in resp.responses for p in t.partitions][index]


def offsets(records) -> list[int]:
    return [b.header.base_offset for b in iter_batches(records)]


@pytest.fixture
def topic(broker):
    """Topic ``t`` with 3 partitions: p0 holds 3 batches (offsets 0-2), p1 one, p2 none."""
    info = broker.logs.create_topic("t", 3)
    for i in range(3):
        append(broker, "t", 0, rec(b"v" * 100, 1000 + i))
    append(broker, "t", 1, rec(b"w" * 50, 5000))
    return info


# --- Fetch: basics ---------------------------------------------------------------------


@pytest.mark.parametrize("version", range(4, 19))
async def test_every_version_reads_and_refuses_like_kafka(broker, topic, version):
    ids = {"t": topic.topic_id}
    req = fetch_request(version, [part("nope", 0), part("t", 0), part("t", 9), part("t", 2)], ids)
    resp = await call(broker, api_01_fetch, req, version)
    assert resp.error_code == 0 and resp.session_id == 0
    unknown = ErrorCode.UNKNOWN_TOPIC_ID if version >= 13 else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    # partitions read first, in request order; refused ones after
    assert flat(resp, ids) == [
        ("t", 0, 0),
        ("t", 2, 0),
        (str(uuid.UUID(int=99)) if version >= 13 else "nope", 0, unknown),
        ("t", 9, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION),
    ]
    p0, p2, bad, _ = [p for t in resp.responses for p in t.partitions]
    assert offsets(p0.records) == [0, 1, 2]
    assert (p0.high_watermark, p0.last_stable_offset) == (3, 3)
    assert p0.log_start_offset == (0 if version >= 5 else -1)  # a v5 field
    assert p0.aborted_transactions is None and p0.preferred_read_replica == -1
    assert bytes(p2.records) == b"" and p2.high_watermark == 0
    assert (bad.high_watermark, bad.last_stable_offset, bad.log_start_offset) == (-1, -1, -1)
    assert bad.aborted_transactions == [] and bytes(bad.records) == b""


async def test_kip74_first_partition_returns_a_whole_batch_beyond_the_limits(broker, topic):
    # max_bytes 1: p0 still returns its first batch whole, p1 nothing
    resp = await call(broker, api_01_fetch, fetch_request(12, [part("t", 0, pmb=1), part("t", 1)], max_bytes=1), 12)
    assert offsets(only(resp, 0).records) == [0]
    assert bytes(only(resp, 1).records) == b""
    # partition limit 0 on the first partition with data: one batch; the next gets the rest
    resp = await call(broker, api_01_fetch, fetch_request(12, [part("t", 2), part("t", 0, pmb=0), part("t", 1)]), 12)
    assert [offsets(only(resp, i).records) for i in range(3)] == [[], [0], [0]]
    # once data was returned, the request limit cuts whole batches
    size = len(only(resp, 1).records)
    resp = await call(
        broker, api_01_fetch, fetch_request(12, [part("t", 1), part("t", 0)], max_bytes=size * 2 + 10), 12
    )
    assert offsets(only(resp, 1).records) == [0]


async def test_fetch_max_bytes_caps_the_request(broker, topic):
    broker.config.update(load_config(None, [f"log.dirs={broker.logs.data_dir}", "fetch.max.bytes=1"], environ={}))
    resp = await call(broker, api_01_fetch, fetch_request(12, [part("t", 0), part("t", 1)]), 12)
    assert offsets(only(resp, 0).records) == [0] and bytes(only(resp, 1).records) == b""


async def test_offset_out_of_range(broker, topic):
    resp = await call(broker, api_01_fetch, fetch_request(12, [part("t", 0, offset=4), part("t", 1, offset=1)]), 12)
    oor, at_end = only(resp, 0), only(resp, 1)
    assert oor.error_code == ErrorCode.OFFSET_OUT_OF_RANGE
    assert (oor.high_watermark, oor.last_stable_offset, oor.log_start_offset) == (-1, -1, -1)
    assert oor.aborted_transactions is None
    assert at_end.error_code == 0 and bytes(at_end.records) == b"" and at_end.high_watermark == 1


async def test_leader_epochs(broker, topic):
    parts = [
        part("t", 0, current_leader_epoch=1),
        part("t", 1, current_leader_epoch=0),
        part("t", 2, current_leader_epoch=-2),
    ]
    resp = await call(broker, api_01_fetch, fetch_request(12, parts), 12)
    assert [p.error_code for t in resp.responses for p in t.partitions] == [ErrorCode.UNKNOWN_LEADER_EPOCH, 0, 0]


async def test_last_fetched_epoch(broker, topic):
    parts = [
        part("t", 0, offset=10, last_fetched_epoch=0),
        part("t", 1, last_fetched_epoch=1),
        part("t", 2, last_fetched_epoch=0),
    ]
    resp = await call(broker, api_01_fetch, fetch_request(12, parts), 12)
    diverging, too_new, fine = (only(resp, i) for i in range(3))
    assert diverging.error_code == 0 and (diverging.diverging_epoch.epoch, diverging.diverging_epoch.end_offset) == (
        0,
        3,
    )
    assert diverging.high_watermark == 3 and bytes(diverging.records) == b""
    assert too_new.error_code == ErrorCode.OFFSET_OUT_OF_RANGE
    assert fine.error_code == 0 and fine.diverging_epoch.epoch == -1


@pytest.mark.parametrize("version", [12, 14, 15, 16, 18])
async def test_follower_fetch_is_refused_per_partition(broker, topic, version):
    kw = {"replica_state": ReplicaState(replica_id=5, replica_epoch=1)} if version >= 15 else {"replica_id": 5}
    ids = {"t": topic.topic_id}
    parts = [part("t", 0), part("t", 1, current_leader_epoch=0)]
    resp = await call(broker, api_01_fetch, fetch_request(version, parts, ids, **kw), version)
    p0, p1 = only(resp, 0), only(resp, 1)
    assert (p0.error_code, p1.error_code) == (ErrorCode.NOT_LEADER_OR_FOLLOWER, ErrorCode.UNKNOWN_LEADER_EPOCH)
    assert p0.aborted_transactions is None and p0.high_watermark == -1
    if version >= 16:
        assert (p0.current_leader.leader_id, p0.current_leader.leader_epoch) == (1, 0)
        assert p1.current_leader.leader_id == -1
    assert resp.node_endpoints == []


async def test_unknown_isolation_level_fails_the_request(broker, topic):
    resp = await call(broker, api_01_fetch, fetch_request(12, [part("t", 0), part("x", 0)], isolation_level=2), 12)
    assert resp.error_code == ErrorCode.UNKNOWN_SERVER_ERROR
    assert flat(resp) == [("t", 0, -1), ("x", 0, -1)]
    resp = await call(broker, api_01_fetch, fetch_request(13, [part("t", 0)], isolation_level=2), 13)
    assert resp.error_code == ErrorCode.UNKNOWN_SERVER_ERROR and resp.responses == []


# --- Fetch: transactions ---------------------------------------------------------------


@pytest.fixture
def txn_topic(broker):
    """x-0: 0 plain, 1-2 aborted txn, 3 abort marker, 4 plain, 5 open txn (LSO 5, HW 6)."""
    broker.logs.create_topic("x", 1)
    log = broker.logs.partition("x", 0)
    append(broker, "x", 0, rec(b"p0", 1))
    append(
        broker,
        "x",
        0,
        rec(b"a1", 2),
        rec(b"a2", 2),
        producer_id=7,
        producer_epoch=0,
        base_sequence=0,
        transactional=True,
    )
    log.append(
        build_end_txn_marker(commit=False, coordinator_epoch=0, producer_id=7, producer_epoch=0, timestamp=3),
        leader_epoch=0,
    )
    append(broker, "x", 0, rec(b"p1", 4))
    append(broker, "x", 0, rec(b"open", 9), producer_id=7, producer_epoch=0, base_sequence=2, transactional=True)
    assert (log.last_stable_offset, log.high_watermark) == (5, 6)
    return log


async def test_read_committed_stops_at_lso_and_lists_aborted_transactions(broker, txn_topic):
    for version in (4, 12, 13, 18):
        ids = {"x": broker.logs.topics["x"].topic_id}
        committed = only(
            await call(broker, api_01_fetch, fetch_request(version, [part("x", 0)], ids, isolation_level=1), version)
        )
        assert offsets(committed.records) == [0, 1, 3, 4]
        assert [(a.producer_id, a.first_offset) for a in committed.aborted_transactions] == [(7, 1)]
        assert (committed.high_watermark, committed.last_stable_offset) == (6, 5)
        uncommitted = only(await call(broker, api_01_fetch, fetch_request(version, [part("x", 0)], ids), version))
        assert offsets(uncommitted.records) == [0, 1, 3, 4, 5]
        assert uncommitted.aborted_transactions is None and uncommitted.last_stable_offset == 5
    # past the aborted transaction: an empty list, not null
    later = only(await call(broker, api_01_fetch, fetch_request(12, [part("x", 0, offset=4)], isolation_level=1), 12))
    assert offsets(later.records) == [4] and later.aborted_transactions == []
    at_lso = only(await call(broker, api_01_fetch, fetch_request(12, [part("x", 0, offset=5)], isolation_level=1), 12))
    assert bytes(at_lso.records) == b"" and at_lso.aborted_transactions == []


# --- Fetch: long poll ------------------------------------------------------------------


async def test_long_poll_is_woken_by_an_append(broker, topic, autojump_clock):
    start = trio.current_time()
    req = fetch_request(12, [part("t", 0, offset=3), part("t", 2)], max_wait_ms=30_000, min_bytes=1)

    async def produce_later():
        await trio.sleep(2)
        append(broker, "t", 2, rec(b"late"))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(produce_later)
        resp = await call(broker, api_01_fetch, req, 12)
    assert trio.current_time() - start == pytest.approx(2)
    assert offsets(only(resp, 1).records) == [0] and only(resp, 1).high_watermark == 1


async def test_long_poll_times_out_with_what_is_there(broker, topic, autojump_clock):
    start = trio.current_time()
    resp = await call(broker, api_01_fetch, fetch_request(12, [part("t", 2)], max_wait_ms=1500, min_bytes=1), 12)
    assert trio.current_time() - start == pytest.approx(1.5)
    assert bytes(only(resp).records) == b""


async def test_long_poll_waits_for_min_bytes(broker, topic, autojump_clock):
    start = trio.current_time()
    req = fetch_request(12, [part("t", 2)], max_wait_ms=5000, min_bytes=10_000)

    async def produce():
        for i in range(3):
            await trio.sleep(1)
            append(broker, "t", 2, rec(b"x" * 10, 1000 + i))

    async with trio.open_nursery() as nursery:
        nursery.start_soon(produce)
        resp = await call(broker, api_01_fetch, req, 12)
    # three small appends are not enough: answered at the deadline, with all of them
    assert trio.current_time() - start == pytest.approx(5)
    assert offsets(only(resp).records) == [0, 1, 2]


async def test_long_poll_ends_on_broker_stop(broker, topic, autojump_clock):
    start = trio.current_time()

    async def stop_later():
        await trio.sleep(0.5)
        broker.request_stop()

    async with trio.open_nursery() as nursery:
        nursery.start_soon(stop_later)
        resp = await call(broker, api_01_fetch, fetch_request(12, [part("t", 2)], max_wait_ms=60_000, min_bytes=1), 12)
    assert trio.current_time() - start == pytest.approx(0.5)
    assert only(resp).error_code == 0


async def test_no_long_poll_on_errors_or_when_nothing_can_be_read(broker, topic, autojump_clock):
    start = trio.current_time()
    await call(
        broker,
        api_01_fetch,
        fetch_request(12, [part("t", 2), part("t", 0, offset=99)], max_wait_ms=9000, min_bytes=1),
        12,
    )
    await call(broker, api_01_fetch, fetch_request(12, [part("nope", 0)], max_wait_ms=9000, min_bytes=1), 12)
    assert trio.current_time() == start


# --- Fetch: sessions -------------------------------------------------------------------


async def test_incremental_session_through_the_handler(broker, topic):
    full = await call(
        broker, api_01_fetch, fetch_request(12, [part("t", 0, offset=3), part("t", 1, offset=1)], session_epoch=0), 12
    )
    sid = full.session_id
    assert sid != 0 and flat(full) == [("t", 0, 0), ("t", 1, 0)]
    # nothing new: an empty incremental response
    inc = await call(broker, api_01_fetch, fetch_request(12, [], session_id=sid, session_epoch=1), 12)
    assert (inc.error_code, inc.session_id, inc.responses) == (0, sid, [])
    # an append shows up (records and a new high watermark) without being asked for again
    append(broker, "t", 1, rec(b"new"))
    inc = await call(broker, api_01_fetch, fetch_request(12, [], session_id=sid, session_epoch=2), 12)
    assert flat(inc) == [("t", 1, 0)] and offsets(only(inc).records) == [1]
    # the client moves its offset by listing the partition; p2 is added
    inc = await call(
        broker,
        api_01_fetch,
        fetch_request(12, [part("t", 1, offset=2), part("t", 2)], session_id=sid, session_epoch=3),
        12,
    )
    assert flat(inc) == [("t", 2, 0)]
    # forgetting a partition, then a wrong epoch
    inc = await call(
        broker,
        api_01_fetch,
        fetch_request(
            12, [], session_id=sid, session_epoch=4, forgotten_topics_data=[ForgottenTopic(topic="t", partitions=[0])]
        ),
        12,
    )
    assert inc.error_code == 0
    assert list(broker.fetch_sessions.get(sid).partitions) == [("t", 1), ("t", 2)]
    bad = await call(broker, api_01_fetch, fetch_request(12, [], session_id=sid, session_epoch=4), 12)
    assert (bad.error_code, bad.session_id, bad.responses) == (ErrorCode.INVALID_FETCH_SESSION_EPOCH, 0, [])
    gone = await call(broker, api_01_fetch, fetch_request(12, [], session_id=sid + 1, session_epoch=1), 12)
    assert gone.error_code == ErrorCode.FETCH_SESSION_ID_NOT_FOUND
    # epoch -1 closes it
    closed = await call(broker, api_01_fetch, fetch_request(12, [part("t", 1)], session_id=sid, session_epoch=-1), 12)
    assert closed.session_id == 0 and broker.fetch_sessions.get(sid) is None


async def test_topic_id_session_echoes_ids(broker, topic):
    ids = {"t": topic.topic_id}
    full = await call(
        broker, api_01_fetch, fetch_request(13, [part("t", 0, offset=3), part("ghost", 0)], ids, session_epoch=0), 13
    )
    assert flat(full, ids) == [("t", 0, 0), (str(uuid.UUID(int=99)), 0, ErrorCode.UNKNOWN_TOPIC_ID)]
    inc = await call(broker, api_01_fetch, fetch_request(13, [], session_id=full.session_id, session_epoch=1), 13)
    # the unknown id is an error, so it is sent every time; topics are named by id
    assert [(t.topic_id, t.topic) for t in inc.responses] == [(uuid.UUID(int=99), "")]
    mixed = await call(broker, api_01_fetch, fetch_request(12, [], session_id=full.session_id, session_epoch=2), 12)
    assert mixed.error_code == ErrorCode.FETCH_SESSION_TOPIC_ID_ERROR


async def test_old_versions_are_sessionless(broker, topic):
    resp = await call(broker, api_01_fetch, fetch_request(6, [part("t", 0)]), 6)
    assert resp.session_id == 0 and len(broker.fetch_sessions) == 0


# --- ListOffsets -----------------------------------------------------------------------


async def list_offsets(broker, version: int, parts, **kw) -> list[tuple[str, int, int, int, int, int]]:
    """``parts``: [(topic, partition, timestamp, current_leader_epoch)] -> [(topic, p, err, offset, ts, epoch)]."""
    topics: dict[str, list] = {}
    for topic, index, ts, epoch in parts:
        topics.setdefault(topic, []).append(
            ListOffsetsPartition(partition_index=index, timestamp=ts, current_leader_epoch=epoch)
        )
    kw.setdefault("replica_id", -1)
    req = ListOffsetsRequest(topics=[ListOffsetsTopic(name=n, partitions=ps) for n, ps in topics.items()], **kw)
    resp = await call(broker, api_02_list_offsets, req, version)
    assert isinstance(resp, ListOffsetsResponse)
    return [
        (t.name, p.partition_index, p.error_code, p.offset, p.timestamp, p.leader_epoch)
        for t in resp.topics
        for p in t.partitions
    ]


SPECIAL = (-1, -2, -3, -4, -5, -6, -7, 999, 1001, 1003)


@pytest.mark.parametrize(
    ("version", "expected"),
    [
        (
            1,
            [(0, 3, -1, -1), (0, 0, -1, -1)]
            + [(35, -1, -1, -1)] * 5
            + [(0, 0, 1000, -1), (0, 1, 1001, -1), (0, -1, -1, -1)],
        ),
        (
            4,
            [(0, 3, -1, 0), (0, 0, -1, 0)]
            + [(35, -1, -1, -1)] * 5
            + [(0, 0, 1000, 0), (0, 1, 1001, 0), (0, -1, -1, -1)],
        ),
        (
            7,
            [(0, 3, -1, 0), (0, 0, -1, 0), (0, 2, 1002, 0)]
            + [(35, -1, -1, -1)] * 4
            + [(0, 0, 1000, 0), (0, 1, 1001, 0), (0, -1, -1, -1)],
        ),
        (
            8,
            [(0, 3, -1, 0), (0, 0, -1, 0), (0, 2, 1002, 0), (0, 0, -1, 0)]
            + [(35, -1, -1, -1)] * 3
            + [(0, 0, 1000, 0), (0, 1, 1001, 0), (0, -1, -1, -1)],
        ),
        (
            9,
            [(0, 3, -1, 0), (0, 0, -1, 0), (0, 2, 1002, 0), (0, 0, -1, 0), (0, -1, -1, -1)]
            + [(35, -1, -1, -1)] * 2
            + [(0, 0, 1000, 0), (0, 1, 1001, 0), (0, -1, -1, -1)],
        ),
        (
            11,
            [
                (0, 3, -1, 0),
                (0, 0, -1, 0),
                (0, 2, 1002, 0),
                (0, 0, -1, 0),
                (0, -1, -1, -1),
                (0, -1, -1, -1),
                (35, -1, -1, -1),
                (0, 0, 1000, 0),
                (0, 1, 1001, 0),
                (0, -1, -1, -1),
            ],
        ),
    ],
)
async def test_list_offsets_special_timestamps_per_version(broker, topic, version, expected):
    # the rows Kafka 4.2.2 answered for the same log (3 records at 1000, 1001, 1002)
    got = [(await list_offsets(broker, version, [("t", 0, ts, -1)]))[0][2:] for ts in SPECIAL]
    assert got == expected


async def test_list_offsets_errors_and_duplicates(broker, topic):
    rows = await list_offsets(
        broker, 11, [("t", 0, -1, -1), ("t", 1, -1, -1), ("t", 0, -2, -1), ("nope", 0, -1, -1), ("t", 7, -1, -1)]
    )
    assert rows == [
        ("t", 0, ErrorCode.INVALID_REQUEST, -1, -1, -1),
        ("t", 1, 0, 1, -1, 0),
        ("t", 7, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, -1, -1, -1),
        ("nope", 0, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, -1, -1, -1),
    ]
    rows = await list_offsets(broker, 11, [("t", 0, -1, 1), ("t", 1, -1, -2), ("t", 2, -1, 0)])
    assert [r[2] for r in rows] == [ErrorCode.UNKNOWN_LEADER_EPOCH, ErrorCode.FENCED_LEADER_EPOCH, 0]


async def test_list_offsets_on_an_empty_partition(broker, topic):
    assert (await list_offsets(broker, 11, [("t", 2, -1, -1)])) == [("t", 2, 0, 0, -1, 0)]
    assert (await list_offsets(broker, 11, [("t", 2, -3, -1)]))[0][2:] == (0, -1, -1, -1)
    assert (await list_offsets(broker, 11, [("t", 2, 0, -1)]))[0][2:] == (0, -1, -1, -1)


async def test_list_offsets_isolation(broker, txn_topic):
    assert (await list_offsets(broker, 11, [("x", 0, -1, -1)], isolation_level=0))[0][3] == 6
    assert (await list_offsets(broker, 11, [("x", 0, -1, -1)], isolation_level=1))[0][3] == 5
    # a replica's request (id other than -1) sees the log end offset
    assert (await list_offsets(broker, 11, [("x", 0, -1, -1)], replica_id=-2, isolation_level=1))[0][3] == 6
    # the record at timestamp 9 sits in the open transaction: invisible to read_committed
    assert (await list_offsets(broker, 11, [("x", 0, 9, -1)], isolation_level=1))[0][2:5] == (0, -1, -1)
    assert (await list_offsets(broker, 11, [("x", 0, 9, -1)], isolation_level=0))[0][2:5] == (0, 5, 9)
    assert (await list_offsets(broker, 11, [("x", 0, -3, -1)], isolation_level=1))[0][2:5] == (0, -1, -1)
    assert (await list_offsets(broker, 11, [("x", 0, -3, -1)], isolation_level=0))[0][2:5] == (0, 5, 9)


async def test_list_offsets_after_delete_records(broker, topic):
    broker.logs.partition("t", 0).delete_records(2)
    rows = await list_offsets(broker, 11, [("t", 0, -2, -1), ("t", 1, -4, -1)])
    assert [r[3] for r in rows] == [2, 0]
    assert (await list_offsets(broker, 11, [("t", 0, 999, -1)]))[0][3:5] == (2, 1002)
