"""ShareFetch / ShareAcknowledge rules a real client never trips, checked on the wire.

Session epochs, acks at epoch 0, duplicate topic ids, both acquire modes, the
MaxRecords budget, acks by the wrong member or outside the window, Renew, the
long-poll woken by an append, and the release on session close.
"""

from __future__ import annotations

import threading
import time
import uuid

import pytest

from broker.protocol.errors import ErrorCode
from broker.protocol.messages.metadata_request import MetadataRequest, MetadataRequestTopic
from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from broker.protocol.messages.share_acknowledge_request import AcknowledgementBatch as AckAckBatch
from broker.protocol.messages.share_acknowledge_request import (
    AcknowledgePartition,
    AcknowledgeTopic,
    ShareAcknowledgeRequest,
)
from broker.protocol.messages.share_fetch_request import (
    AcknowledgementBatch,
    FetchPartition,
    FetchTopic,
    ShareFetchRequest,
)
from broker.protocol.records import build_batch, iter_batches, iter_records
from tests.integration.clients import admin, create_topic
from tests.integration.wire import WireClient

ACCEPT, RELEASE, RENEW = 1, 2, 4


def _earliest(bootstrap: str, group: str) -> None:
    from confluent_kafka.admin import AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType

    client = admin(bootstrap)
    res = ConfigResource(
        ResourceType.GROUP,
        group,
        incremental_configs=[
            ConfigEntry("share.auto.offset.reset", "earliest", incremental_operation=AlterConfigOpType.SET)
        ],
    )
    for f in client.incremental_alter_configs([res]).values():
        f.result(15)


def _topic_id(w: WireClient, topic: str) -> uuid.UUID:
    md = w.request(MetadataRequest(topics=[MetadataRequestTopic(name=topic)], allow_auto_topic_creation=False), 12)
    return md.topics[0].topic_id


def _produce_batch(w: WireClient, topic: str, n: int, partition: int = 0, value_size: int = 0) -> None:
    batch = build_batch([(b"k%d" % i, b"v%d" % i + b"x" * value_size, [], None) for i in range(n)])
    resp = w.request(
        ProduceRequest(
            acks=-1,
            timeout_ms=10000,
            topic_data=[
                TopicProduceData(name=topic, partition_data=[PartitionProduceData(index=partition, records=batch)])
            ],
        ),
        9,
    )
    assert resp.responses[0].partition_responses[0].error_code == 0


def _fetch(
    w,
    group,
    member,
    epoch,
    topic_id,
    *,
    partitions=(0,),
    acks=None,
    max_records=500,
    mode=0,
    version=2,
    wait_ms=0,
    renew=False,
    topics=None,
    max_bytes=1 << 20,
):
    if topics is None:
        topics = [
            FetchTopic(
                topic_id=topic_id,
                partitions=[
                    FetchPartition(partition_index=p, acknowledgement_batches=list((acks or {}).get(p, [])))
                    for p in partitions
                ],
            )
        ]
    req = ShareFetchRequest(
        group_id=group,
        member_id=member,
        share_session_epoch=epoch,
        max_wait_ms=wait_ms,
        min_bytes=1,
        max_bytes=max_bytes,
        max_records=max_records,
        batch_size=max_records,
        topics=topics,
        forgotten_topics_data=[],
    )
    if version >= 2:
        req.share_acquire_mode = mode
        req.is_renew_ack = renew
    return w.request(req, version)


def _parts(resp):
    return {p.partition_index: p for t in resp.responses for p in t.partitions}


def _acquired(resp) -> list[tuple[int, int, int]]:
    return [
        (a.first_offset, a.last_offset, a.delivery_count) for p in _parts(resp).values() for a in p.acquired_records
    ]


def _produce_later(bootstrap: str, topic: str, delay_s: float = 0.5) -> threading.Thread:
    """A thread that produces one record to partition 0 after ``delay_s`` (join it)."""

    def produce() -> None:
        time.sleep(delay_s)
        with WireClient(bootstrap) as other:
            _produce_batch(other, topic, 1)

    t = threading.Thread(target=produce)
    t.start()
    return t


@pytest.fixture
def setup(sharebroker_bootstrap, topic_name):
    create_topic(sharebroker_bootstrap, topic_name, partitions=2)
    group = f"g-{uuid.uuid4().hex[:8]}"
    _earliest(sharebroker_bootstrap, group)
    with WireClient(sharebroker_bootstrap) as w:
        yield w, topic_name, _topic_id(w, topic_name), group


def test_session_epoch_rules(setup):
    w, topic, tid, group = setup
    _produce_batch(w, topic, 10)
    member = "m-" + uuid.uuid4().hex[:8]
    # No session yet: a continuing epoch is SHARE_SESSION_NOT_FOUND.
    assert _fetch(w, group, member, 1, tid).error_code == ErrorCode.SHARE_SESSION_NOT_FOUND
    first = _fetch(w, group, member, 0, tid)
    assert first.error_code == 0 and _acquired(first) == [(0, 9, 1)]
    assert first.acquisition_lock_timeout_ms > 0
    assert _fetch(w, group, member, 5, tid).error_code == ErrorCode.INVALID_SHARE_SESSION_EPOCH
    # A wrong epoch does not move the session on: epoch 1 still works.
    acks = {0: [AcknowledgementBatch(first_offset=0, last_offset=9, acknowledge_types=[ACCEPT])]}
    second = _fetch(w, group, member, 1, tid, acks=acks)
    assert second.error_code == 0
    assert _parts(second)[0].acknowledge_error_code == 0
    assert _parts(second)[0].records == b""  # present for its acks, records never null
    # Epoch 0 with acknowledgements is refused.
    assert _fetch(w, group, member, 0, tid, acks=acks).error_code == ErrorCode.INVALID_REQUEST
    # ShareAcknowledge cannot open a session.
    ack = ShareAcknowledgeRequest(group_id=group, member_id=member, share_session_epoch=0, topics=[])
    assert w.request(ack, 2).error_code == ErrorCode.INVALID_SHARE_SESSION_EPOCH


def test_duplicate_topic_ids_are_merged_and_acks_reported(setup):
    w, topic, tid, group = setup
    _produce_batch(w, topic, 4, partition=0)
    _produce_batch(w, topic, 4, partition=1)
    member = "m-dup"
    topics = [
        FetchTopic(topic_id=tid, partitions=[FetchPartition(partition_index=0)]),
        FetchTopic(topic_id=tid, partitions=[FetchPartition(partition_index=1)]),
    ]
    resp = _fetch(w, group, member, 0, tid, topics=topics)
    assert resp.error_code == 0
    assert [t.topic_id for t in resp.responses] == [tid]
    assert sorted(_parts(resp)) == [0, 1]


def test_max_records_budget_and_acquire_modes(setup):
    w, topic, tid, group = setup
    _produce_batch(w, topic, 10)
    # record_limit (v2 mode 1): never more than MaxRecords.
    r = _fetch(w, group, "m-limit", 0, tid, max_records=3, mode=1)
    assert _acquired(r) == [(0, 2, 1)]
    # batch_optimized: whole stored batches, may pass MaxRecords up to the batch end.
    r = _fetch(w, group, "m-batch", 0, tid, max_records=3, mode=0)
    assert _acquired(r) == [(3, 9, 1)]
    assert _fetch(w, group, "m-bad", 0, tid, mode=7).error_code == ErrorCode.INVALID_REQUEST


def _carried(resp) -> set[int]:
    """Offsets of the data records the answer carries."""
    out: set[int] = set()
    for p in _parts(resp).values():
        for batch in iter_batches(p.records):
            if not batch.header.is_control:
                out.update(r.offset for r in iter_records(batch.view))
    return out


def _acquired_offsets(resp) -> set[int]:
    return {o for first, last, _ in _acquired(resp) for o in range(first, last + 1)}


def test_max_bytes_bounds_what_is_acquired_and_every_acquired_record_goes_out(setup):
    """librdkafka's 0171 with fetch.max.bytes=1500: each answer acquires only what it carries."""
    w, topic, tid, group = setup
    for _ in range(10):
        _produce_batch(w, topic, 1, value_size=1000)  # one ~1,070-byte batch per record
    member = "m-" + uuid.uuid4().hex[:8]
    epoch, seen = 0, []
    for _ in range(10):
        resp = _fetch(w, group, member, epoch, tid, max_bytes=1500)
        epoch += 1
        assert _acquired_offsets(resp) == _carried(resp)
        seen.append(sorted(_acquired_offsets(resp)))
    # One batch per answer (the second never fits in what is left of 1,500 bytes), in order.
    assert seen == [[i] for i in range(10)]


def test_max_bytes_is_soft_and_applies_to_redelivered_records(setup):
    w, topic, tid, group = setup
    for _ in range(4):
        _produce_batch(w, topic, 3, value_size=500)  # four batches of ~1,600 bytes
    member = "m-" + uuid.uuid4().hex[:8]
    everything = _fetch(w, group, member, 0, tid)
    assert _acquired(everything) == [(0, 11, 1)]
    released = _fetch(w, group, member, 1, tid, acks={0: [AcknowledgementBatch(0, 11, [RELEASE])]}, max_bytes=1)
    # MaxBytes 1 still gives out one whole batch (Kafka's soft limit), and no more.
    assert _acquired(released) == [(0, 2, 2)] and _carried(released) == {0, 1, 2}
    two = _fetch(w, group, member, 2, tid, max_bytes=3300)
    assert _acquired(two) == [(3, 8, 2)] and _carried(two) == set(range(3, 9))
    # MaxBytes 0 gets nothing at all (librdkafka's 0180, fetch.max.bytes=0, as on Kafka).
    assert _acquired(_fetch(w, group, member, 3, tid, max_bytes=0)) == []


def test_acks_by_another_member_or_outside_the_window(setup):
    w, topic, tid, group = setup
    _produce_batch(w, topic, 5)
    assert _acquired(_fetch(w, group, "holder", 0, tid)) == [(0, 4, 1)]
    _fetch(w, group, "other", 0, tid)
    wrong_member = {0: [AcknowledgementBatch(first_offset=0, last_offset=4, acknowledge_types=[ACCEPT])]}
    r = _fetch(w, group, "other", 1, tid, acks=wrong_member)
    assert _parts(r)[0].acknowledge_error_code == ErrorCode.INVALID_RECORD_STATE
    beyond = {0: [AcknowledgementBatch(first_offset=100, last_offset=101, acknowledge_types=[ACCEPT])]}
    r = _fetch(w, group, "holder", 1, tid, acks=beyond)
    assert _parts(r)[0].acknowledge_error_code == ErrorCode.INVALID_REQUEST
    # The holder's own ack still works after the refusals (all-or-nothing per partition).
    r = _fetch(w, group, "holder", 2, tid, acks=wrong_member)
    assert _parts(r)[0].acknowledge_error_code == 0


def test_an_acknowledging_fetch_carries_another_partitions_records(setup):
    """A fetch that acknowledges one partition's records takes what the other partition
    holds: the answer has the acknowledgement's result and that partition's records,
    and the acknowledged records are never handed out again."""
    w, topic, tid, group = setup
    _produce_batch(w, topic, 10, partition=0)
    _produce_batch(w, topic, 10, partition=1)
    member = "m-two-partitions"
    first = _fetch(w, group, member, 0, tid, partitions=(0, 1), max_records=5)
    (held,) = [p for p, part in _parts(first).items() if part.acquired_records]
    other = 1 - held
    assert _acquired(first) == [(0, 9, 1)]
    acks = {held: [AcknowledgementBatch(first_offset=0, last_offset=9, acknowledge_types=[ACCEPT])]}
    second = _fetch(w, group, member, 1, tid, partitions=(0, 1), acks=acks, max_records=5)
    parts = _parts(second)
    assert parts[held].acknowledge_error_code == 0
    assert [(a.first_offset, a.last_offset) for a in parts[other].acquired_records] == [(0, 9)]
    assert _carried_offsets(parts[other]) == set(range(10))
    assert parts[held].acquired_records == []
    # Everything is settled or held: nothing more for this member or another one.
    assert _acquired(_fetch(w, group, member, 2, tid, partitions=(0, 1))) == []
    assert _acquired(_fetch(w, group, "m-late", 0, tid, partitions=(0, 1))) == []


def test_a_refused_acknowledgement_keeps_the_records_its_fetch_took(setup):
    """An acknowledgement refused on a partition and records taken there by the same fetch
    both go out: the error in the partition's AcknowledgeErrorCode, the records beside it."""
    w, topic, tid, group = setup
    _produce_batch(w, topic, 5, partition=0)
    member = "m-refused"
    assert _acquired(_fetch(w, group, member, 0, tid)) == [(0, 4, 1)]
    _produce_batch(w, topic, 5, partition=0)
    beyond = {0: [AcknowledgementBatch(first_offset=100, last_offset=101, acknowledge_types=[ACCEPT])]}
    r = _fetch(w, group, member, 1, tid, acks=beyond)
    part = _parts(r)[0]
    assert part.acknowledge_error_code == ErrorCode.INVALID_REQUEST
    assert [(a.first_offset, a.last_offset) for a in part.acquired_records] == [(5, 9)]
    assert _carried_offsets(part) == set(range(5, 10))


def _carried_offsets(part) -> set[int]:
    return {r.offset for b in iter_batches(part.records) for r in iter_records(b.view)}


def test_release_redelivers_with_count_two_and_close_releases(setup):
    w, topic, tid, group = setup
    _produce_batch(w, topic, 3)
    assert _acquired(_fetch(w, group, "a", 0, tid)) == [(0, 2, 1)]
    release = ShareAcknowledgeRequest(
        group_id=group,
        member_id="a",
        share_session_epoch=1,
        topics=[
            AcknowledgeTopic(
                topic_id=tid,
                partitions=[
                    AcknowledgePartition(
                        partition_index=0,
                        acknowledgement_batches=[
                            AckAckBatch(first_offset=0, last_offset=0, acknowledge_types=[RELEASE])
                        ],
                    )
                ],
            )
        ],
    )
    resp = w.request(release, 2)
    assert resp.error_code == 0 and resp.responses[0].partitions[0].error_code == 0
    assert _acquired(_fetch(w, group, "b", 0, tid)) == [(0, 0, 2)]
    # Closing a's session (epoch -1) gives back offsets 1-2.
    close = ShareAcknowledgeRequest(group_id=group, member_id="a", share_session_epoch=-1, topics=[])
    assert w.request(close, 2).error_code == 0
    assert _acquired(_fetch(w, group, "b", 1, tid)) == [(1, 2, 2)]


def test_renew_needs_v2_and_the_flag(setup):
    w, topic, tid, group = setup
    _produce_batch(w, topic, 2)
    assert _acquired(_fetch(w, group, "r", 0, tid)) == [(0, 1, 1)]
    renew = {0: [AcknowledgementBatch(first_offset=0, last_offset=1, acknowledge_types=[RENEW])]}
    r = _fetch(w, group, "r", 1, tid, acks=renew, renew=False)
    assert _parts(r)[0].acknowledge_error_code == ErrorCode.INVALID_REQUEST
    r = _fetch(w, group, "r", 2, tid, acks=renew, renew=True)
    assert _parts(r)[0].acknowledge_error_code == 0
    accept = {0: [AcknowledgementBatch(first_offset=0, last_offset=1, acknowledge_types=[ACCEPT])]}
    assert _parts(_fetch(w, group, "r", 3, tid, acks=accept))[0].acknowledge_error_code == 0


def test_long_poll_is_woken_by_an_append(setup, sharebroker_bootstrap):
    w, topic, tid, group = setup
    assert _acquired(_fetch(w, group, "lp", 0, tid)) == []

    t = _produce_later(sharebroker_bootstrap, topic)
    started = time.monotonic()
    r = _fetch(w, group, "lp", 1, tid, wait_ms=10_000)
    elapsed = time.monotonic() - started
    t.join()
    assert _acquired(r) == [(0, 0, 1)]
    assert elapsed < 5, f"the long-poll was not woken by the append ({elapsed:.1f} s)"


def test_acknowledgements_alone_do_not_end_the_long_poll(setup, sharebroker_bootstrap):
    """A ShareFetch that acknowledges everything its member holds, with nothing left to
    acquire, waits for records like any other (as Kafka's does) and carries both."""
    w, topic, tid, group = setup
    _produce_batch(w, topic, 3)
    first = _fetch(w, group, "ack-lp", 0, tid)
    assert _acquired(first) == [(0, 2, 1)]

    t = _produce_later(sharebroker_bootstrap, topic)
    started = time.monotonic()
    acks = {0: [AcknowledgementBatch(first_offset=0, last_offset=2, acknowledge_types=[ACCEPT])]}
    r = _fetch(w, group, "ack-lp", 1, tid, acks=acks, wait_ms=10_000)
    elapsed = time.monotonic() - started
    t.join()
    assert _parts(r)[0].acknowledge_error_code == 0
    assert _acquired(r) == [(3, 3, 1)]
    assert elapsed < 5, f"the long-poll was not woken by the append ({elapsed:.1f} s)"


def _park_waiter(bootstrap: str, group: str, tid: uuid.UUID) -> tuple[threading.Thread, list]:
    """Member "waiter" long-polls (10 s) in a thread, parked once this returns; ``got``
    receives (what it acquired, seconds it waited)."""
    got: list = []

    def wait() -> None:
        with WireClient(bootstrap) as other:
            started = time.monotonic()
            r = _fetch(other, group, "waiter", 1, tid, wait_ms=10_000)
            got.append((_acquired(r), time.monotonic() - started))

    t = threading.Thread(target=wait)
    t.start()
    time.sleep(0.5)  # the waiter's long poll is parked
    return t, got


def test_records_a_fetch_releases_and_leaves_wake_another_members_long_poll(setup, sharebroker_bootstrap):
    """The acknowledging member acquires first; what it leaves goes to a member waiting
    in a long poll at once, not at the end of that member's wait."""
    w, topic, tid, group = setup
    _produce_batch(w, topic, 4)
    assert _acquired(_fetch(w, group, "holder", 0, tid)) == [(0, 3, 1)]
    assert _acquired(_fetch(w, group, "waiter", 0, tid)) == []

    t, got = _park_waiter(sharebroker_bootstrap, group, tid)
    release = {0: [AcknowledgementBatch(first_offset=0, last_offset=3, acknowledge_types=[RELEASE])]}
    r = _fetch(w, group, "holder", 1, tid, acks=release, max_records=1, mode=1)
    assert _parts(r)[0].acknowledge_error_code == 0
    assert _acquired(r) == [(0, 0, 2)]  # the holder takes the one record it asked for
    t.join(15)
    assert got and got[0][0] == [(1, 3, 2)], got  # the rest went to the waiter
    assert got[0][1] < 5, f"the waiter was not woken by the release ({got[0][1]:.1f} s)"


def test_a_member_that_took_its_turn_waits_behind_a_member_that_waited(setup, sharebroker_bootstrap):
    """Waiting fetches are served in turn: a member that has acquired twice in a row
    (TURN_ACQUISITIONS) and then releases records and fetches again waits behind a member
    whose long poll was already waiting, instead of taking them back first."""
    w, topic, tid, group = setup
    _produce_batch(w, topic, 2)
    assert _acquired(_fetch(w, group, "holder", 0, tid)) == [(0, 1, 1)]
    assert _acquired(_fetch(w, group, "waiter", 0, tid)) == []
    _produce_batch(w, topic, 4)
    accept = {0: [AcknowledgementBatch(first_offset=0, last_offset=1, acknowledge_types=[ACCEPT])]}
    assert _acquired(_fetch(w, group, "holder", 1, tid, acks=accept)) == [(2, 5, 1)]  # its second in a row

    t, got = _park_waiter(sharebroker_bootstrap, group, tid)
    release = {0: [AcknowledgementBatch(first_offset=2, last_offset=5, acknowledge_types=[RELEASE])]}
    r = _fetch(w, group, "holder", 2, tid, acks=release, wait_ms=1_000)
    assert _parts(r)[0].acknowledge_error_code == 0
    t.join(15)
    assert got and got[0][0] == [(2, 5, 2)], got
    assert got[0][1] < 5, f"the waiter was not woken by the release ({got[0][1]:.1f} s)"
    assert _acquired(r) == []  # the holder waited behind it: nothing was left for it


def test_v1_request_shape(setup):
    w, topic, tid, group = setup
    _produce_batch(w, topic, 2)
    r = _fetch(w, group, "v1", 0, tid, version=1)
    assert r.error_code == 0 and _acquired(r) == [(0, 1, 1)]


def test_session_limit(sharebroker_factory, topic_name):
    broker = sharebroker_factory({"group.share.max.share.sessions": "1"})
    create_topic(broker.bootstrap, topic_name)
    with WireClient(broker.bootstrap) as w:
        tid = _topic_id(w, topic_name)
        assert _fetch(w, "g-limit", "one", 0, tid).error_code == 0
        assert _fetch(w, "g-limit", "two", 0, tid).error_code == ErrorCode.SHARE_SESSION_LIMIT_REACHED
        # The same member may start over within the limit.
        assert _fetch(w, "g-limit", "one", 0, tid).error_code == 0
