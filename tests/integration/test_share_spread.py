"""How a share group spreads records, with the real broker process and confluent-kafka
ShareConsumers (librdkafka): nothing acquired that the answer does not carry, the byte
limits as Kafka applies them, and every member of a shared partition given work.

The first four are librdkafka's own share-consumer tests 0171, 0180, 0179 and 0172
(v2.15.0) cut down to what they check of the broker. Every wait is bounded.
"""

from __future__ import annotations

import time

from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from broker.protocol.records import build_batch
from tests.integration.clients import create_topic, produce
from tests.integration.share_helpers import (
    ACCEPT,
    close_quietly,
    commit_ok,
    describe,
    holdings,
    poll_batch,
    share_consumer,
    share_group,
)
from tests.integration.wire import WireClient


def _one_batch_per_record(bootstrap: str, topic: str, count: int, size: int) -> None:
    """``count`` records of ``size`` bytes, each stored as a batch of its own."""
    for i in range(count):
        produce(bootstrap, topic, [b"%04d" % i + b"x" * (size - 4)], **{"linger.ms": 0, "batch.num.messages": 1})


def _drain(sc, want: int, timeout: float) -> list[list]:
    """Poll until ``want`` records came (or ``timeout``); the batches of each non-empty poll."""
    batches: list[list] = []
    deadline = time.monotonic() + timeout
    while sum(len(b) for b in batches) < want and time.monotonic() < deadline:
        batch = poll_batch(sc, 1.0)
        if batch:
            batches.append(batch)
    return batches


def test_a_small_fetch_max_bytes_loses_no_record(sharebroker_bootstrap, topic_name) -> None:
    """0171: 10 records of 1,000 bytes in batches of their own, fetch.max.bytes=1500.

    The broker used to acquire eight batches per answer and send one: librdkafka
    acknowledged the seven it never got as gaps, and they were archived (lost).
    """
    bs = sharebroker_bootstrap
    create_topic(bs, topic_name)
    _one_batch_per_record(bs, topic_name, 10, 1000)
    sc = share_consumer(bs, share_group(bs), [topic_name], **{"fetch.max.bytes": "1500"})
    try:
        batches = _drain(sc, 10, 30)
        commit_ok(sc)
    finally:
        close_quietly(sc)
    got = [m.offset() for batch in batches for m in batch]
    assert sorted(got) == list(range(10)), got
    assert [len(b) for b in batches] == [1] * 10  # one batch per answer, as Kafka 4.4.0 answers


def test_fetch_max_bytes_one_is_a_soft_limit(sharebroker_bootstrap, topic_name) -> None:
    """0180: with fetch.max.bytes=1 every answer still carries one whole batch."""
    bs = sharebroker_bootstrap
    create_topic(bs, topic_name)
    _one_batch_per_record(bs, topic_name, 10, 100)
    sc = share_consumer(bs, share_group(bs), [topic_name], **{"fetch.max.bytes": "1"})
    try:
        batches = _drain(sc, 10, 30)
    finally:
        close_quietly(sc)
    assert sorted(m.offset() for batch in batches for m in batch) == list(range(10))


def test_fetch_max_bytes_zero_gets_no_records(sharebroker_bootstrap, topic_name) -> None:
    """0180: fetch.max.bytes=0 is accepted, and every answer is empty (as on Kafka 4.4.0)."""
    bs = sharebroker_bootstrap
    create_topic(bs, topic_name)
    _one_batch_per_record(bs, topic_name, 3, 100)
    sc = share_consumer(bs, share_group(bs), [topic_name], **{"fetch.max.bytes": "0"})
    try:
        got = [m for _ in range(3) for m in poll_batch(sc, 1.0)]
    finally:
        close_quietly(sc)
    assert got == []


def test_a_new_consumers_first_answer_carries_one_partition(sharebroker_bootstrap, topic_name) -> None:
    """0179: a new member's first answer comes as soon as one share-partition is loaded.

    Two partitions of 50 records: the first answer holds one partition's 50 (the
    other share-partition is still loading), the second the other's, as Kafka 4.4.0
    answers a consumer whose share-partitions are being initialized.
    """
    bs = sharebroker_bootstrap
    create_topic(bs, topic_name, partitions=2)
    for p in (0, 1):
        produce(bs, topic_name, [b"%d-%d" % (p, i) for i in range(50)], partition=p)
    sc = share_consumer(bs, share_group(bs), [topic_name], mode="explicit")
    try:
        answers: list[list] = []
        deadline = time.monotonic() + 30
        while sum(len(a) for a in answers) < 100 and time.monotonic() < deadline:
            batch = poll_batch(sc, 3.0)
            for m in batch:
                sc.acknowledge(m, ACCEPT)
            if batch:
                answers.append(batch)
        commit_ok(sc)
    finally:
        close_quietly(sc)
    assert [len(a) for a in answers] == [50, 50]
    assert [{m.partition() for m in a} for a in answers] in ([{0}, {1}], [{1}, {0}])


def test_members_that_start_together_both_get_records(sharebroker_bootstrap, topic_name) -> None:
    """0172 (mixed acknowledgement modes): two members subscribe at once to 4 partitions
    holding 400 records and are polled in turn once both have joined. Both must get records,
    and none twice."""
    bs = sharebroker_bootstrap
    create_topic(bs, topic_name, partitions=4)
    for p in range(4):
        produce(bs, topic_name, [b"%d-%d" % (p, i) for i in range(100)], partition=p)
    group = share_group(bs)
    implicit = share_consumer(bs, group, [topic_name])
    explicit = share_consumer(bs, group, [topic_name], mode="explicit")
    seen: dict[str, list[tuple[int, int]]] = {"implicit": [], "explicit": []}
    try:
        # librdkafka joins from its background thread once subscribed. The polls start when
        # both are members: on a loaded machine the second one's join can take longer than
        # the first one's whole drain, a race of the clients that no broker decides.
        deadline = time.monotonic() + 30
        while len(describe(bs, group).members) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        deadline = time.monotonic() + 60
        while len(seen["implicit"]) + len(seen["explicit"]) < 400 and time.monotonic() < deadline:
            seen["implicit"] += [(m.partition(), m.offset()) for m in poll_batch(implicit, 1.0)]
            for m in poll_batch(explicit, 1.0):
                explicit.acknowledge(m, ACCEPT)
                seen["explicit"].append((m.partition(), m.offset()))
        commit_ok(explicit)
        poll_batch(implicit, 1.0)  # its last poll's records, accepted by this one
    finally:
        close_quietly(implicit)
        close_quietly(explicit)
    everything = seen["implicit"] + seen["explicit"]
    assert len(everything) == len(set(everything)) == 400
    assert seen["implicit"] and seen["explicit"], {k: len(v) for k, v in seen.items()}


def test_members_polling_as_they_subscribe_split_the_partitions(sharebroker_factory, topic_name) -> None:
    """0172 as librdkafka runs it: two members subscribe at once and are polled in turn
    straight away. The new group's first target waits the initial rebalance delay (2 s
    here, so that a slow second join on a loaded machine still falls inside it), so no
    member ever holds every partition: the first cannot take the others' records before
    the second has joined. (With the delay at 0 the first holds all four for an
    assignment interval.)"""
    bs = sharebroker_factory(settings={"group.share.initial.rebalance.delay.ms": "2000"}).bootstrap
    create_topic(bs, topic_name, partitions=4)
    for p in range(4):
        produce(bs, topic_name, [b"%d-%d" % (p, i) for i in range(100)], partition=p)
    group = share_group(bs)
    first = share_consumer(bs, group, [topic_name])
    second = share_consumer(bs, group, [topic_name])
    seen: dict[str, list[tuple[int, int]]] = {"first": [], "second": []}
    most_held = 0
    try:
        deadline = time.monotonic() + 60
        while len(seen["first"]) + len(seen["second"]) < 400 and time.monotonic() < deadline:
            for name, sc in (("first", first), ("second", second)):
                seen[name] += [(m.partition(), m.offset()) for m in poll_batch(sc, 0.1)]
            most_held = max([most_held, *(len(ps) for ps in holdings(describe(bs, group)).values())])
        poll_batch(first, 1.0)
        poll_batch(second, 1.0)
    finally:
        close_quietly(first)
        close_quietly(second)
    everything = seen["first"] + seen["second"]
    assert len(everything) == len(set(everything)) == 400
    assert most_held == 2
    assert seen["first"] and seen["second"], {k: len(v) for k, v in seen.items()}


def test_members_sharing_a_partition_each_take_a_part_of_one_batch(sharebroker_bootstrap, topic_name) -> None:
    """Four members on one partition, 2,000 records stored as one batch.

    Each member may hold a quarter of the in-flight window (2,000 records by default)
    and no more, so the batch is split into four parts instead of going to the first
    member to fetch. Each member's part arrives as a slice of the stored batch.
    """
    bs = sharebroker_bootstrap
    create_topic(bs, topic_name)
    group = share_group(bs)
    members = [share_consumer(bs, group, [topic_name]) for _ in range(4)]
    got: list[list[tuple[int, int]]] = [[] for _ in members]
    sizes: list[int] = []
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            for sc in members:
                poll_batch(sc, 0.05)
            held = holdings(describe(bs, group))
            if len(held) == 4 and all(held.values()):
                break
        assert len(held) == 4 and all(held.values()), held
        batch = build_batch([(b"k%d" % i, b"v" * 100, [], None) for i in range(2000)])
        with WireClient(bs) as w:
            request = ProduceRequest(
                acks=-1,
                timeout_ms=10_000,
                topic_data=[
                    TopicProduceData(name=topic_name, partition_data=[PartitionProduceData(index=0, records=batch)])
                ],
            )
            assert w.request(request, 9).responses[0].partition_responses[0].error_code == 0
        deadline = time.monotonic() + 30
        while sum(len(g) for g in got) < 2000 and time.monotonic() < deadline:
            for i, sc in enumerate(members):
                polled = poll_batch(sc, 0.5)
                if polled:
                    sizes.append(len(polled))
                    got[i] += [(m.partition(), m.offset()) for m in polled]
        for sc in members:
            commit_ok(sc)
    finally:
        for sc in members:
            close_quietly(sc)
    everything = [r for member in got for r in member]
    assert len(everything) == len(set(everything)) == 2000
    assert all(len(member) >= 250 for member in got), [len(m) for m in got]
    assert max(sizes) <= 500, sizes
