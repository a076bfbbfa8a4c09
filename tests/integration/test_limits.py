"""Limits against hostile or greedy clients, on the real broker process.

* a client that sends a request too slowly is cut off after
  ``request.receive.timeout.ms`` while the broker keeps answering others;
* ``max.connections.per.ip`` (and its overrides) closes connections over the limit;
* ``queued.max.request.bytes``: while requests being received hold the whole pool,
  the next large request is not read until memory is given back;
* produce and fetch byte-rate quotas (AlterClientQuotas) report throttle times as
  Kafka does and hold the connection back for that long.
"""

from __future__ import annotations

import socket
import struct
import threading
import time

import pytest

from broker.admin.client import AdminClient
from broker.protocol.messages.alter_client_quotas_request import AlterClientQuotasRequest, EntityData, EntryData, OpData
from broker.protocol.messages.api_versions_request import ApiVersionsRequest
from broker.protocol.messages.describe_client_quotas_request import ComponentData, DescribeClientQuotasRequest
from broker.protocol.messages.fetch_request import FetchPartition, FetchRequest, FetchTopic
from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from broker.protocol.records import build_batch
from tests.integration.clients import create_topic
from tests.integration.wire import WireClient

API_VERSIONS = ApiVersionsRequest(client_software_name="limits-test", client_software_version="1")


def answers(bootstrap: str) -> bool:
    with WireClient(bootstrap, timeout=5) as w:
        return w.request(API_VERSIONS, 3).error_code == 0


def closed_within(sock: socket.socket, seconds: float) -> bool:
    sock.settimeout(seconds)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True


@pytest.fixture(scope="module")
def limited(sharebroker_factory):
    return sharebroker_factory(
        {
            "request.receive.timeout.ms": "1500",
            "max.connections.per.ip": "40",
            "max.connections.per.ip.overrides": "127.0.0.2:3",
            "socket.request.max.bytes": "2000000",
            "queued.max.request.bytes": "2000000",
            "quota.window.num": "2",
            "quota.window.size.seconds": "1",
        }
    )


def test_slow_sender_is_cut_off_and_others_are_served(limited):
    host, port = limited.bootstrap.split(":")
    sock = socket.create_connection((host, int(port)))
    try:
        started = time.monotonic()
        sock.sendall(struct.pack(">i", 200))  # announces 200 bytes ...
        stop = threading.Event()

        def trickle() -> None:  # ... and sends one every 200 ms: 40 s for the whole request
            while not stop.is_set():
                try:
                    sock.sendall(b"\x00")
                except OSError:
                    return
                time.sleep(0.2)

        t = threading.Thread(target=trickle, daemon=True)
        t.start()
        assert answers(limited.bootstrap)  # meanwhile others are answered
        assert closed_within(sock, 5)
        elapsed = time.monotonic() - started
        stop.set()
        t.join(2)
        assert 1.4 <= elapsed < 4, elapsed
    finally:
        sock.close()
    assert "request_receive_timeout" in limited.log_tail(200)
    assert answers(limited.bootstrap)


def test_connections_per_ip_and_overrides(limited):
    host, port = limited.bootstrap.split(":")
    # Connections from 127.0.0.2 (loopback too) have an override of 3.
    socks = []
    try:
        for _ in range(3):
            socks.append(socket.create_connection((host, int(port)), source_address=("127.0.0.2", 0)))
        time.sleep(0.2)
        extra = socket.create_connection((host, int(port)), source_address=("127.0.0.2", 0))
        socks.append(extra)
        assert closed_within(extra, 3)
        assert answers(limited.bootstrap)  # other addresses are not affected
        socks[0].close()
        time.sleep(0.3)
        with WireClient(limited.bootstrap, timeout=5, source="127.0.0.2") as w:
            assert w.request(API_VERSIONS, 3).error_code == 0
    finally:
        for s in socks:
            s.close()
    assert "max.connections.per.ip (3) reached for 127.0.0.2" in limited.log_tail(200)


def test_memory_pool_holds_back_large_requests(limited, topic_name):
    create_topic(limited.bootstrap, topic_name)
    host, port = limited.bootstrap.split(":")
    hog = socket.create_connection((host, int(port)))
    try:
        hog.sendall(struct.pack(">i", 1_900_000) + b"\x00" * 100_000)  # reserves 1.9 MB of the 2 MB pool
        time.sleep(0.3)
        batch = build_batch([(b"k", b"x" * 400_000, [], None)])
        request = ProduceRequest(
            acks=1,
            timeout_ms=10000,
            topic_data=[
                TopicProduceData(name=topic_name, partition_data=[PartitionProduceData(index=0, records=batch)])
            ],
        )
        with WireClient(limited.bootstrap, timeout=10) as w:
            started = time.monotonic()
            resp = w.request(request, 9)
            waited = time.monotonic() - started
        assert resp.responses[0].partition_responses[0].error_code == 0
        # It was read only once the hog's reservation was released: when the hog was cut
        # off (request.receive.timeout.ms, 1.5 s after its first byte).
        assert waited >= 0.8, waited
    finally:
        hog.close()


def _quota(admin: AdminClient, client_id: str, key: str, value: float) -> None:
    resp = admin.send(
        AlterClientQuotasRequest(
            entries=[
                EntryData(
                    entity=[EntityData(entity_type="client-id", entity_name=client_id)],
                    ops=[OpData(key=key, value=value, remove=False)],
                )
            ]
        )
    )
    assert resp.entries[0].error_code == 0, resp


def test_produce_and_fetch_quotas_throttle(limited, topic_name):
    create_topic(limited.bootstrap, topic_name)
    with AdminClient(limited.bootstrap) as admin:
        _quota(admin, "wire-test", "producer_byte_rate", 100_000)
        _quota(admin, "wire-test", "consumer_byte_rate", 100_000)
        described = admin.send(
            DescribeClientQuotasRequest(
                components=[ComponentData(entity_type="client-id", match_type=0, match="wire-test")]
            )
        )
        assert {v.key: v.value for v in described.entries[0].values} == {
            "producer_byte_rate": 100_000.0,
            "consumer_byte_rate": 100_000.0,
        }
    batch = build_batch([(b"k", b"y" * 300_000, [], None)])
    produce = ProduceRequest(
        acks=1,
        timeout_ms=10000,
        topic_data=[TopicProduceData(name=topic_name, partition_data=[PartitionProduceData(index=0, records=batch)])],
    )
    with WireClient(limited.bootstrap) as w:
        first = w.request(produce, 9)
        # 300 KB over the (2 - 1) s minimum window at 100 KB/s: about 2 s of throttle.
        assert first.responses[0].partition_responses[0].error_code == 0
        assert 1000 <= first.throttle_time_ms <= 2000, first.throttle_time_ms
        started = time.monotonic()
        w.request(API_VERSIONS, 3)  # the connection is muted for the throttle time
        assert time.monotonic() - started >= first.throttle_time_ms / 1000 - 0.3
        fetch = FetchRequest(
            max_wait_ms=0,
            max_bytes=10_000_000,
            topics=[
                FetchTopic(
                    topic=topic_name,
                    partitions=[FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=5_000_000)],
                )
            ],
        )
        got = w.request(fetch, 11)
        assert got.throttle_time_ms > 0 and got.responses == []  # over the quota: answered without data


def test_two_thousand_idle_connections_are_held_and_served(sharebroker_factory):
    from bench.idle_connections import hold

    broker = sharebroker_factory({"max.connections": "2100"})
    assert broker.process is not None
    result = hold(broker.bootstrap, broker.process.pid, 2000)  # raises if one is refused or unanswered
    assert result["connections"] == 2000


def test_librdkafka_reports_the_produce_throttle(limited, topic_name):
    from confluent_kafka import Producer

    create_topic(limited.bootstrap, topic_name)
    with AdminClient(limited.bootstrap) as admin:
        _quota(admin, "throttled-producer", "producer_byte_rate", 50_000)
    throttles: list = []
    p = Producer(
        {
            "bootstrap.servers": limited.bootstrap,
            "client.id": "throttled-producer",
            "linger.ms": 50,
            "throttle_cb": lambda event: throttles.append(event),
        }
    )
    delivered: list = []
    for _ in range(4):
        p.produce(topic_name, b"z" * 100_000, on_delivery=lambda err, msg: delivered.append(err))
    p.flush(30)
    deadline = time.monotonic() + 10
    while not throttles and time.monotonic() < deadline:
        p.poll(0.2)
    assert delivered == [None] * 4  # throttled, not refused
    assert throttles and max(t.throttle_time for t in throttles) > 0.5, throttles
