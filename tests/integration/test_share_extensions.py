"""Redelivery backoff and per-key ordering (extensions, off by default) with unmodified
confluent-kafka share consumers. bench/share_extensions.py measures the same at scale."""

from __future__ import annotations

import time

import pytest

from tests.compat import differential as d
from tests.integration import share_extensions as x
from tests.integration.clients import create_topic
from tests.integration.share_helpers import FAST_SHARE_SETTINGS, set_group_configs, unique
from tests.integration.wire import WireClient


@pytest.fixture(scope="module")
def broker(sharebroker_factory):
    return sharebroker_factory()


def test_a_released_record_is_not_redelivered_before_its_backoff(broker):
    r = x.backoff_run(broker.bootstrap, 300, 250)
    assert r["released"] == r["redelivered"] == 300, r
    # Not before its backoff: none came back sooner than the delay after the release was
    # handed to the client (the broker took it somewhere between then and commit_sync's answer).
    assert r["early"] == 0, r
    # Nor long after it. Measured from commit_sync's answer, which may come well after the
    # broker took the release (librdkafka can send it with a background ShareFetch first), so
    # how negative this gets says how slow that answer was, not when the record came back.
    assert r["error_p50_ms"] < 100, r


def test_without_backoff_records_come_back_at_once(broker):
    r = x.backoff_run(broker.bootstrap, 100, None)
    assert r["redelivered"] == 100 and r["error_p50_ms"] < 100, r


def test_per_key_ordering_with_eight_consumers_on_one_partition(broker):
    r = x.ordering_run(broker.bootstrap, 2000, ordered=True)
    assert not r["failures"], r
    assert r["delivered"] == 2000 and r["keys"] == 100, r
    assert r["out_of_order"] == 0 and r["overlapping_in_flight"] == 0, r
    assert r["deliveries"] == 2000, r  # nothing redelivered


def test_a_lock_expiry_waits_for_the_backoff_too(sharebroker_factory):
    """Raw ShareFetch: a record is acquired and never acknowledged; after its 1 s lock it
    waits 1.5 s more (its first delivery failed) before it is handed out again."""
    b = sharebroker_factory(FAST_SHARE_SETTINGS)
    topic, group = unique("le"), unique("lg")
    create_topic(b.bootstrap, topic)
    set_group_configs(
        b.bootstrap,
        group,
        {
            "share.auto.offset.reset": "earliest",
            "share.record.lock.duration.ms": "1000",
            "share.redelivery.backoff.ms": "1500",
        },
    )
    with WireClient(b.bootstrap) as w:
        tid = d.topic_id(w, topic)
        d.produce_batch(w, topic, 1)
        m = d.member_id()
        d.join(w, group, m, [topic])
        # The clock starts before the acquiring fetch is sent: the broker starts the lock
        # after it receives that request, so 2.5 s from here is a lower bound (less the
        # broker's millisecond clock granularity).
        t0 = time.monotonic()
        first, ep = d.fetch_acquire(w, group, m, 0, tid)
        assert d.acquired(first) == [(0, 0, 1)]
        again: list = []
        while not again and time.monotonic() < t0 + 20:
            r = d.fetch(w, group, m, ep, tid, wait_ms=500)
            ep += 1
            again = d.acquired(r)
        elapsed = time.monotonic() - t0
        d.leave(w, group, m)
    assert again == [(0, 0, 2)]
    assert 2.495 <= elapsed < 5.0, elapsed
