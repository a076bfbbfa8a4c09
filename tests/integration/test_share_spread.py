"""How a share group spreads records, with the real broker process and confluent-kafka
ShareConsumers (librdkafka): nothing acquired that the answer does not carry, the byte
limits as Kafka applies them, and a new member's first answer.

These are librdkafka's own share-consumer tests 0171, 0180 and 0179 (v2.15.0) cut down to
what they check of the broker. Every wait is bounded.
"""

from __future__ import annotations

import time

from tests.integration.clients import create_topic, produce
from tests.integration.share_helpers import (
    ACCEPT,
    close_quietly,
    commit_ok,
    poll_batch,
    share_consumer,
    share_group,
)


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
