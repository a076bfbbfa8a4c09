"""Redelivery backoff and per-key ordering (extensions, off by default) with unmodified
confluent-kafka share consumers. bench/share_extensions.py measures the same at scale."""

from __future__ import annotations

import pytest

from tests.integration import share_extensions as x


@pytest.fixture(scope="module")
def broker(sharebroker_factory):
    return sharebroker_factory()


def test_a_released_record_is_not_redelivered_before_its_backoff(broker):
    r = x.backoff_run(broker.bootstrap, 300, 250)
    assert r["released"] == r["redelivered"] == 300, r
    assert r["early"] == 0, r
    # measured from the release's answer, so a little negative is possible; scheduling adds the rest
    assert -50 < r["error_p50_ms"] < 100, r


def test_without_backoff_records_come_back_at_once(broker):
    r = x.backoff_run(broker.bootstrap, 100, None)
    assert r["redelivered"] == 100 and r["error_p50_ms"] < 100, r


def test_per_key_ordering_with_eight_consumers_on_one_partition(broker):
    r = x.ordering_run(broker.bootstrap, 2000, ordered=True)
    assert not r["failures"], r
    assert r["delivered"] == 2000 and r["keys"] == 100, r
    assert r["out_of_order"] == 0 and r["overlapping_in_flight"] == 0, r
    assert r["deliveries"] == 2000, r  # nothing redelivered
