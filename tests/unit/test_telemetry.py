"""Client telemetry (KIP-714): subscriptions matched to clients, push checks, expiry (pure)."""

from __future__ import annotations

import uuid

import pytest
import trio

from broker.metadata.client_metrics import ClientMetricsStore
from broker.protocol.errors import ErrorCode, KafkaError
from broker.telemetry import EXPIRY_INTERVALS, ClientTelemetry

CLIENT = {
    "client_id": "perf-1",
    "client_software_name": "apache-kafka-java",
    "client_software_version": "4.4.0",
    "client_source_address": "127.0.0.1",
    "client_source_port": "5555",
}


def _store(tmp_path, **subs: dict[str, str]) -> ClientMetricsStore:
    store = ClientMetricsStore(tmp_path)
    for name, configs in subs.items():
        trio.run(store.alter, name, configs, (), False)
    return store


def test_matching_subscriptions_combine(tmp_path):
    store = _store(
        tmp_path,
        a={"metrics": "org.apache.kafka.producer.", "interval.ms": "2000", "match": "client_id=perf-.*"},
        b={"metrics": "org.apache.kafka.consumer.", "interval.ms": "1000", "match": "client_software_name=apache.*"},
        c={"metrics": "other.", "interval.ms": "100", "match": "client_id=nope"},
    )
    sub = store.subscription_for(CLIENT)
    assert sub.metrics == ("org.apache.kafka.producer.", "org.apache.kafka.consumer.") and sub.interval_ms == 1000
    none = store.subscription_for({**CLIENT, "client_id": "x", "client_software_name": "librdkafka"})
    assert none.metrics == () and none.interval_ms == 300_000
    trio.run(store.alter, "d", {"metrics": "*"}, (), False)
    assert store.subscription_for(CLIENT).metrics == ("",)
    assert store.subscription_for(CLIENT).subscription_id != sub.subscription_id


@pytest.mark.parametrize(
    ("configs", "code"),
    [
        ({"interval.ms": "99"}, ErrorCode.INVALID_REQUEST),
        ({"interval.ms": "soon"}, ErrorCode.INVALID_CONFIG),
        ({"match": "client_id"}, ErrorCode.INVALID_CONFIG),
        ({"match": "host=x"}, ErrorCode.INVALID_CONFIG),
        ({"match": "client_id=("}, ErrorCode.INVALID_CONFIG),
        ({"colour": "blue"}, ErrorCode.INVALID_REQUEST),
    ],
)
def test_bad_subscriptions_are_refused(tmp_path, configs, code):
    with pytest.raises(KafkaError) as err:
        _store(tmp_path, s=configs)
    assert err.value.code == code


def test_pushes_follow_the_interval_and_instances_expire(tmp_path):
    store = _store(tmp_path, s={"metrics": "*", "interval.ms": "1000"})
    t = ClientTelemetry(store)
    me, sub = t.get_subscription(uuid.UUID(int=0), CLIENT, 0)
    t.push(me, sub.subscription_id, False, 0, b"", CLIENT, 10)  # right after the get: allowed
    with pytest.raises(KafkaError) as err:
        t.push(me, sub.subscription_id, False, 0, b"", CLIENT, 500)
    assert err.value.code == ErrorCode.THROTTLING_QUOTA_EXCEEDED
    t.push(me, sub.subscription_id, False, 0, b"", CLIENT, 1100)
    t.push(me, sub.subscription_id, True, 0, b"", CLIENT, 1200)  # terminating: no wait
    with pytest.raises(KafkaError) as err:
        t.push(me, sub.subscription_id, False, 0, b"", CLIENT, 5000)
    assert err.value.code == ErrorCode.INVALID_REQUEST
    trio.run(store.alter, "s", {"interval.ms": "2000"}, (), False)
    other, sub2 = t.get_subscription(uuid.UUID(int=0), CLIENT, 6000)
    with pytest.raises(KafkaError) as err:
        t.push(other, sub.subscription_id, False, 0, b"", CLIENT, 6001)
    assert err.value.code == ErrorCode.UNKNOWN_SUBSCRIPTION_ID
    t.push(other, sub2.subscription_id, False, 0, b"", CLIENT, 6002)
    t.expire(6002 + EXPIRY_INTERVALS * 2000 + 1)
    assert t.samples(6002 + EXPIRY_INTERVALS * 2000 + 1) == [] and not t._instances
