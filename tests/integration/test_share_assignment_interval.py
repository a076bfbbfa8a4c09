"""KIP-1263 assignment batching of share groups, with the real broker process and
confluent-kafka ShareConsumers.

A share group computes at most one target assignment per
``share.assignment.interval.ms`` (a group config; the broker default is Kafka's
1000 ms). The first member of a new group is assigned once
``group.share.initial.rebalance.delay.ms`` (500 ms) is over; a member joining
within the interval of that assignment gets its partitions only once the
interval has passed, from the first heartbeat after it. With 0 it gets them in
the answer to its joining heartbeat. What each member holds is read with
ShareGroupDescribe (confluent-kafka's ShareConsumer does not expose it). Every
wait is bounded.
"""

from __future__ import annotations

import time

import pytest

from tests.integration.clients import create_topic, produce
from tests.integration.share_helpers import (
    FAST_SHARE_SETTINGS,
    describe,
    holdings,
    poll_batch,
    share_consumer,
    share_group,
)

PARTITIONS = 4
INTERVAL_MS = 4000  # long enough that the second member surely joins within it


@pytest.fixture(scope="module")
def broker(sharebroker_factory):
    # Heartbeats every 500 ms; the broker-wide interval stays Kafka's default (1000 ms).
    return sharebroker_factory(settings=FAST_SHARE_SETTINGS).bootstrap


def wait_for(bootstrap: str, group: str, consumers, done, timeout: float, on_each=None):
    """Poll the consumers and describe the group until ``done(described)``; the last description."""
    deadline = time.monotonic() + timeout
    while True:
        for sc in consumers:
            poll_batch(sc, 0.05)
        described = describe(bootstrap, group)
        if on_each is not None:
            on_each(described)
        if done(described):
            return described
        assert time.monotonic() < deadline, f"gave up waiting; last: {holdings(described)}"


def two_members(bootstrap: str, topic: str, interval_ms: int):
    """The group (share.assignment.interval.ms=interval_ms), consumer A once it holds every
    partition (and when it started), then consumer B once the group lists it."""
    create_topic(bootstrap, topic, PARTITIONS)
    group = share_group(bootstrap, share_assignment_interval_ms=str(interval_ms))
    started = time.monotonic()
    a = share_consumer(bootstrap, group, [topic])
    wait_for(bootstrap, group, [a], lambda d: [len(h) for h in holdings(d).values()] == [PARTITIONS], 20)
    b = share_consumer(bootstrap, group, [topic])
    joined = wait_for(bootstrap, group, [a, b], lambda d: len(d.members) == 2, 20)
    return group, started, a, b, joined


def test_a_member_joining_within_the_interval_gets_partitions_once_it_has_passed(broker, topic_name) -> None:
    group, started, a, b, joined = two_members(broker, topic_name, INTERVAL_MS)
    try:
        seen_at = time.monotonic()
        # The first target was computed after A started, so nothing can move before
        # started + interval: B joined within it and was told to wait.
        assert seen_at < started + INTERVAL_MS / 1000 - 0.5, "B joined too late to show the batching"
        held = holdings(joined)
        (b_id,) = set(held) - {m for m, ps in held.items() if len(ps) == PARTITIONS}
        assert held[b_id] == set()
        assert joined.group_epoch > joined.assignment_epoch

        def not_before_the_interval(described) -> None:
            if time.monotonic() < started + INTERVAL_MS / 1000:
                assert holdings(described).get(b_id) == set(), "B got partitions within the interval"

        described = wait_for(
            broker, group, [a, b], lambda d: bool(holdings(d).get(b_id)), 15, on_each=not_before_the_interval
        )
        assigned_at = time.monotonic()
        assert assigned_at >= started + INTERVAL_MS / 1000
        final = holdings(described)
        # One new target with both members, and A gives up what B now holds.
        assert described.assignment_epoch == described.group_epoch
        a_id = next(m for m in final if m != b_id)
        described = wait_for(broker, group, [a, b], lambda d: not (holdings(d)[a_id] & holdings(d)[b_id]), 10)
        final = holdings(described)
        assert final[a_id] | final[b_id] == {(topic_name, p) for p in range(PARTITIONS)}
        assert final[a_id] and final[b_id]

        # B now consumes, from its own partitions only.
        for p in range(PARTITIONS):
            produce(broker, topic_name, [f"r{p}-{i}".encode() for i in range(5)], partition=p)
        got: dict[str, list] = {"a": [], "b": []}
        deadline = time.monotonic() + 20
        while len(got["a"]) + len(got["b"]) < 5 * PARTITIONS and time.monotonic() < deadline:
            got["a"] += poll_batch(a, 0.2)
            got["b"] += poll_batch(b, 0.2)
        assert len(got["a"]) + len(got["b"]) == 5 * PARTITIONS
        assert got["b"] and {(m.topic(), m.partition()) for m in got["b"]} <= final[b_id]
    finally:
        a.close()
        b.close()


def test_interval_zero_assigns_the_joining_member_at_once(broker, topic_name) -> None:
    # The group config 0 wins over the broker's 1000 ms default.
    _group, _started, a, b, joined = two_members(broker, topic_name, 0)
    try:
        held = holdings(joined)
        # The first description that lists B already shows it holding partitions: its
        # joining heartbeat computed the new target.
        assert all(held.values()), held
        assert joined.assignment_epoch == joined.group_epoch
        assert set().union(*held.values()) == {(topic_name, p) for p in range(PARTITIONS)}
    finally:
        a.close()
        b.close()
