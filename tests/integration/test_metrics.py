"""The /metrics endpoint of a real broker, scraped while confluent-kafka produces and share-consumes."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request

import pytest

from broker.testing import BrokerProcess
from tests.integration.clients import create_topic, produce
from tests.integration.share_helpers import (
    ACCEPT,
    REJECT,
    RELEASE,
    close_quietly,
    commit_ok,
    poll_count,
    share_consumer,
    share_group,
    unique,
)


@pytest.fixture(scope="module")
def metrics_broker(sharebroker_factory) -> BrokerProcess:
    return sharebroker_factory(settings={"metrics.listen": "127.0.0.1:0"})


def metrics_port(broker: BrokerProcess) -> int:
    """The port the broker logged in its (latest) ``metrics_listening`` event."""
    port = 0
    with open(broker.log_path, "rb") as f:
        for line in f:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if isinstance(event, dict) and event.get("event") == "metrics_listening":
                port = int(event["port"])
    assert port, "no metrics_listening event in the broker log"
    return port


def scrape(port: int, path: str = "/metrics") -> tuple[int, str, str]:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as resp:
            return resp.status, resp.headers.get("Content-Type", ""), resp.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Content-Type", ""), e.read().decode()


def samples(text: str) -> dict[str, float]:
    out = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            out[name] = float(value)
    return out


def sample_until(port: int, done, timeout: float = 15) -> dict[str, float]:
    deadline = time.monotonic() + timeout
    while True:
        s = samples(scrape(port)[2])
        if done(s) or time.monotonic() > deadline:
            return s
        time.sleep(0.2)


def test_metrics_reflect_produce_and_share_consumption(metrics_broker):
    bs = metrics_broker.bootstrap
    port = metrics_port(metrics_broker)
    status, ctype, text = scrape(port)
    assert status == 200
    assert ctype.startswith("text/plain; version=0.0.4")
    assert "# TYPE sharebroker_requests_total counter" in text

    topic = unique("t")
    create_topic(bs, topic)
    group = share_group(bs)
    produce(bs, topic, [f"v-{i}".encode() for i in range(10)])

    sc = share_consumer(bs, group, [topic], mode="explicit")
    try:
        got = poll_count(sc, 10, 20)
        assert len(got) == 10
        for i, msg in enumerate(got):
            sc.acknowledge(msg, RELEASE if i == 8 else REJECT if i == 9 else ACCEPT)
        commit_ok(sc)

        live = sample_until(
            port,
            lambda s: (
                s.get("sharebroker_share_sessions", 0) >= 1
                and s.get('sharebroker_share_groups{state="Stable"}', 0) >= 1
            ),
        )
        assert live["sharebroker_share_sessions"] >= 1
        assert live['sharebroker_share_groups{state="Stable"}'] >= 1
        assert live["sharebroker_share_partitions_loaded"] >= 1
        assert live["sharebroker_share_group_count"] >= 1
        assert live["sharebroker_share_in_flight_records"] >= 1  # the released record is still in the window
    finally:
        close_quietly(sc)

    s = sample_until(
        port,
        lambda s: (
            s.get('sharebroker_share_groups{state="Empty"}', 0) >= 1 and s.get("sharebroker_share_sessions", 1) == 0
        ),
    )
    assert s['sharebroker_share_groups{state="Empty"}'] >= 1
    assert s["sharebroker_share_sessions"] == 0
    assert s['sharebroker_requests_total{api="Produce"}'] > 0
    assert s['sharebroker_requests_total{api="ShareFetch"}'] > 0
    assert s['sharebroker_requests_total{api="ShareGroupHeartbeat"}'] > 0
    assert (
        s['sharebroker_request_duration_seconds_count{api="Produce"}'] == s['sharebroker_requests_total{api="Produce"}']
    )
    assert s['sharebroker_share_acknowledged_records_total{type="accept"}'] >= 8
    assert s['sharebroker_share_acknowledged_records_total{type="release"}'] >= 1
    assert s['sharebroker_share_acknowledged_records_total{type="reject"}'] >= 1
    assert s['sharebroker_share_acknowledgements_total{type="accept"}'] > 0
    assert s["sharebroker_share_group_rebalances_total"] >= 1
    assert s["sharebroker_share_partition_load_seconds_count"] >= 1
    assert s["sharebroker_bytes_in_total"] > 0
    assert s["sharebroker_bytes_out_total"] > 0
    assert s[f'sharebroker_log_size_bytes{{topic="{topic}",partition="0"}}'] > 0


def test_durable_writes_are_timed(metrics_broker):
    """Produce with acks=all waits for a group-commit round; a share acknowledgement for
    its share-state write: both are counted and timed."""
    bs = metrics_broker.bootstrap
    port = metrics_port(metrics_broker)
    before = samples(scrape(port)[2])
    topic = unique("t")
    create_topic(bs, topic)
    group = share_group(bs)
    produce(bs, topic, [f"d-{i}".encode() for i in range(5)])
    sc = share_consumer(bs, group, [topic], mode="explicit")
    try:
        got = poll_count(sc, 5, 20)
        assert len(got) == 5
        for msg in got:
            sc.acknowledge(msg, ACCEPT)
        commit_ok(sc)
    finally:
        close_quietly(sc)

    def grew(s: dict[str, float], name: str) -> float:
        return s.get(name, 0) - before.get(name, 0)

    s = sample_until(port, lambda s: grew(s, "sharebroker_share_state_write_seconds_count") >= 1)
    assert grew(s, "sharebroker_log_flush_seconds_count") >= 2  # the produce, the share-state write
    assert grew(s, "sharebroker_log_flush_logs_total") >= grew(s, "sharebroker_log_flush_seconds_count")
    assert grew(s, "sharebroker_log_flush_seconds_sum") > 0
    assert grew(s, "sharebroker_share_state_write_seconds_count") >= 1
    assert grew(s, "sharebroker_share_state_write_seconds_sum") > 0
    for name in ("log_flush_seconds", "share_state_write_seconds"):
        assert s[f'sharebroker_{name}_bucket{{le="+Inf"}}'] == s[f"sharebroker_{name}_count"]


def test_other_paths_are_404_and_the_broker_lives_on(metrics_broker):
    port = metrics_port(metrics_broker)
    assert scrape(port, "/")[0] == 404
    assert scrape(port, "/metrics/x")[0] == 404
    assert scrape(port)[0] == 200
    assert metrics_broker.process.poll() is None
