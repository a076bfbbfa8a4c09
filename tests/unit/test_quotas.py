"""Client quotas (broker/security/quotas.py): configuration, Kafka's precedence, sampled byte rates."""

from __future__ import annotations

import pytest

from broker.protocol.errors import ErrorCode
from broker.security.quotas import AlterEntry, ByteRates, ClientQuotas, entity_from_parts


def quotas(*entries: tuple[list, dict[str, float]]) -> ClientQuotas:
    q = ClientQuotas()
    results, after = q.prepare_alter(
        [AlterEntry(parts, [(k, v, False) for k, v in values.items()]) for parts, values in entries]
    )
    assert all(code == 0 for code, _ in results), results
    q.replace(after)
    return q


def test_precedence_follows_kafka():
    q = quotas(
        ([("client-id", None)], {"producer_byte_rate": 8}),
        ([("client-id", "app")], {"producer_byte_rate": 7}),
        ([("user", None)], {"producer_byte_rate": 6}),
        ([("user", None), ("client-id", None)], {"producer_byte_rate": 5}),
        ([("user", None), ("client-id", "app")], {"producer_byte_rate": 4}),
        ([("user", "alice")], {"producer_byte_rate": 3}),
        ([("user", "alice"), ("client-id", None)], {"producer_byte_rate": 2}),
        ([("user", "alice"), ("client-id", "app")], {"producer_byte_rate": 1}),
    )
    assert q.resolve("alice", "app", "producer_byte_rate")[1] == 1
    assert q.resolve("alice", "other", "producer_byte_rate")[1] == 2
    assert q.resolve("bob", "app", "producer_byte_rate")[1] == 4
    assert q.resolve("bob", "other", "producer_byte_rate")[1] == 5
    assert q.resolve("alice", "app", "consumer_byte_rate") is None
    q2 = quotas(([("client-id", "app")], {"consumer_byte_rate": 7}), ([("client-id", None)], {"consumer_byte_rate": 8}))
    assert q2.resolve("x", "app", "consumer_byte_rate")[1] == 7
    assert q2.resolve("x", "y", "consumer_byte_rate")[1] == 8
    assert q2.has_byte_rates and not ClientQuotas().has_byte_rates


@pytest.mark.parametrize(
    ("parts", "ops", "fragment"),
    [
        ([], [("producer_byte_rate", 1, False)], "empty"),
        ([("user", "a"), ("user", "b")], [("producer_byte_rate", 1, False)], "Duplicate entity type"),
        ([("group", "a")], [("producer_byte_rate", 1, False)], "Unhandled client quota entity type"),
        ([("ip", "1.2.3.4"), ("user", "a")], [("connection_creation_rate", 1, False)], "IP entity"),
        ([("user", "a")], [("connection_creation_rate", 1, False)], "Invalid configuration key"),
        ([("ip", "1.2.3.4")], [("producer_byte_rate", 1, False)], "Invalid configuration key"),
        ([("user", "a")], [("producer_byte_rate", -1, False)], "positive"),
    ],
)
def test_invalid_alterations(parts, ops, fragment):
    results, after = ClientQuotas().prepare_alter([AlterEntry(parts, ops)])
    assert results[0][0] == ErrorCode.INVALID_REQUEST and fragment in results[0][1]
    assert after == {}


def test_remove_and_describe_filters():
    q = quotas(
        ([("user", "alice")], {"producer_byte_rate": 100, "consumer_byte_rate": 200}),
        ([("user", "alice"), ("client-id", "app")], {"request_percentage": 50}),
        ([("user", None)], {"producer_byte_rate": 10}),
        ([("ip", "10.0.0.1")], {"connection_creation_rate": 5}),
    )
    _, after = q.prepare_alter([AlterEntry([("user", "alice")], [("consumer_byte_rate", 0, True)])])
    q.replace(after)
    assert q.quotas[entity_from_parts([("user", "alice")])] == {"producer_byte_rate": 100}
    code, _, found = q.describe([("user", 0, "alice")], strict=False)
    assert code == 0 and len(found) == 2
    _, _, found = q.describe([("user", 0, "alice")], strict=True)
    assert [e for e, _ in found] == [(("user", "alice"),)]
    _, _, found = q.describe([("user", 1, None)], strict=True)
    assert found == [((("user", None),), {"producer_byte_rate": 10.0})]
    _, _, found = q.describe([("ip", 2, None)], strict=False)
    assert len(found) == 1
    assert q.describe([("group", 0, "x")], strict=False)[0] == ErrorCode.INVALID_REQUEST


def test_byte_rate_throttle_time_like_kafkas_rate():
    rates = ByteRates(samples=11, window_ms=1000)
    entity = entity_from_parts([("user", "alice")])
    # 1000 B/s allowed; the rate is measured over at least 10 full windows.
    assert rates.record("p", entity, 5000, 1000.0, now_ms=0) == 0  # 5000 B / 10 s = 500 B/s
    throttle = rates.record("p", entity, 10000, 1000.0, now_ms=100)  # 15000 B / 10.1 s
    observed = 15000 * 1000 / 10100
    assert throttle == round((observed - 1000) / 1000 * 10100)
    # Time passes: old samples leave the window and the rate falls back under the quota.
    assert rates.record("p", entity, 10, 1000.0, now_ms=12_000) == 0
    # Throttle times are capped at the whole window.
    assert rates.record("p", entity, 10**9, 1000.0, now_ms=12_100) == 11_000
    rates.unrecord("p", entity, 10**9, now_ms=12_100)
    assert rates.record("p", entity, 1, 1000.0, now_ms=12_200) == 0
