"""Client metrics subscriptions (KIP-714) on the real broker: the CLIENT_METRICS config
resource through IncrementalAlterConfigs and DescribeConfigs, ListConfigResources v0 and v1,
Kafka's checks, and subscriptions that survive a restart."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

from broker.protocol.errors import ErrorCode
from broker.protocol.messages.describe_configs_request import DescribeConfigsRequest, DescribeConfigsResource
from broker.protocol.messages.incremental_alter_configs_request import (
    AlterableConfig,
    AlterConfigsResource,
    IncrementalAlterConfigsRequest,
)
from broker.protocol.messages.list_config_resources_request import ListConfigResourcesRequest
from broker.testing import BrokerProcess
from tests.integration.clients import create_topic
from tests.integration.share_helpers import set_group_configs
from tests.integration.wire import WireClient

CLIENT_METRICS, GROUP, TOPIC, BROKER, BROKER_LOGGER = 16, 32, 2, 4, 8
SET, DELETE, APPEND = 0, 1, 2


def _alter(w: WireClient, name: str, *ops: tuple[str, int, str | None]) -> tuple[int, str | None]:
    req = IncrementalAlterConfigsRequest(
        resources=[
            AlterConfigsResource(
                resource_type=CLIENT_METRICS,
                resource_name=name,
                configs=[AlterableConfig(name=k, config_operation=op, value=v) for k, op, v in ops],
            )
        ]
    )
    (r,) = w.request(req, 1).responses
    return r.error_code, r.error_message


def _describe(w: WireClient, name: str) -> dict[str, str | None]:
    req = DescribeConfigsRequest(
        resources=[DescribeConfigsResource(resource_type=CLIENT_METRICS, resource_name=name, configuration_keys=None)]
    )
    (r,) = w.request(req, 4).results
    assert r.error_code == 0, r
    assert all(c.config_source == 7 for c in r.configs)  # CLIENT_METRICS_CONFIG
    return {c.name: c.value for c in r.configs}


def _list(w: WireClient, version: int, types: list[int] | None = None) -> list[tuple[str, int]]:
    resp = w.request(ListConfigResourcesRequest(resource_types=types or []), version)
    assert resp.error_code == 0, resp
    return [(c.resource_name, c.resource_type) for c in resp.config_resources]


def test_client_metrics_subscriptions_and_list_config_resources(tmp_path: Path):
    broker = BrokerProcess(tmp_path / "data").start()
    try:
        create_topic(broker.bootstrap, "cm-topic")
        set_group_configs(broker.bootstrap, "cm-group", {"share.auto.offset.reset": "earliest"})
        with WireClient(broker.bootstrap) as w:
            assert _alter(
                w,
                "producers",
                ("metrics", SET, "org.apache.kafka.producer."),
                ("interval.ms", SET, "1000"),
                ("match", SET, "client_id=perf.*"),
            ) == (0, None)
            assert _alter(w, "producers", ("metrics", APPEND, "org.apache.kafka.consumer.")) == (0, None)
            assert _describe(w, "producers") == {
                "interval.ms": "1000",
                "match": "client_id=perf.*",
                "metrics": "org.apache.kafka.producer.,org.apache.kafka.consumer.",
            }
            assert _describe(w, "nobody") == {}
            code, message = _alter(w, "bad", ("interval.ms", SET, "5"))
            assert code == ErrorCode.INVALID_REQUEST and "between 100 and 3600000" in (message or "")
            assert _alter(w, "bad", ("match", SET, "nope=x"))[0] == ErrorCode.INVALID_CONFIG
            assert _alter(w, "bad", ("unknown.key", SET, "1"))[0] == ErrorCode.INVALID_REQUEST
            assert _alter(w, "", ("metrics", SET, "x"))[0] == ErrorCode.INVALID_REQUEST
            assert _alter(w, "all", ("metrics", SET, "*")) == (0, None)
            assert _list(w, 0) == [("all", CLIENT_METRICS), ("producers", CLIENT_METRICS)]
            listed = _list(w, 1)
            assert listed[:3] == [("cm-group", GROUP), ("all", CLIENT_METRICS), ("producers", CLIENT_METRICS)]
            assert ("1", BROKER_LOGGER) in listed and ("1", BROKER) in listed and ("cm-topic", TOPIC) in listed
            assert _list(w, 1, [TOPIC]) == [(t, TOPIC) for t, k in listed if k == TOPIC]
            resp = w.request(ListConfigResourcesRequest(resource_types=[64]), 1)
            assert resp.error_code == ErrorCode.UNSUPPORTED_VERSION and resp.config_resources == []
            assert _alter(w, "all", ("metrics", DELETE, None)) == (0, None)  # nothing left: gone
        assert broker.stop() == 0
        broker.start()
        with WireClient(broker.bootstrap) as w:
            assert _list(w, 0) == [("producers", CLIENT_METRICS)]
            assert _describe(w, "producers")["interval.ms"] == "1000"
    finally:
        broker.kill()


def _metrics_data(name: str, value: float) -> bytes:
    from opentelemetry.proto.common.v1 import common_pb2
    from opentelemetry.proto.metrics.v1 import metrics_pb2

    data = metrics_pb2.MetricsData()
    metric = data.resource_metrics.add().scope_metrics.add().metrics.add()
    metric.name = name
    point = metric.gauge.data_points.add()
    point.as_double = value
    point.attributes.append(common_pb2.KeyValue(key="node.id", value=common_pb2.AnyValue(string_value="1")))
    return data.SerializeToString()


def test_telemetry_pushed_by_clients_shows_on_metrics(sharebroker_factory):
    from confluent_kafka import Producer

    from broker.protocol.compression import compress
    from broker.protocol.messages.get_telemetry_subscriptions_request import GetTelemetrySubscriptionsRequest
    from broker.protocol.messages.push_telemetry_request import PushTelemetryRequest
    from tests.integration.test_metrics import metrics_port, scrape

    broker = sharebroker_factory(settings={"metrics.listen": "127.0.0.1:0", "telemetry.max.bytes": "4096"})
    port = metrics_port(broker)
    with WireClient(broker.bootstrap) as w:
        assert _alter(w, "everything", ("metrics", SET, "*"), ("interval.ms", SET, "500")) == (0, None)
        got = w.request(GetTelemetrySubscriptionsRequest(client_instance_id=uuid.UUID(int=0)), 0)
        assert got.error_code == 0 and got.client_instance_id.int != 0
        assert got.requested_metrics == [""] and got.push_interval_ms == 500 and got.telemetry_max_bytes == 4096
        assert got.accepted_compression_types == [4, 3, 1, 2] and got.delta_temporality
        me, sub = got.client_instance_id, got.subscription_id
        again = w.request(GetTelemetrySubscriptionsRequest(client_instance_id=me), 0)
        assert again.error_code == ErrorCode.THROTTLING_QUOTA_EXCEEDED  # sooner than the interval

        def push(**kw) -> int:
            fields = {
                "client_instance_id": me,
                "subscription_id": sub,
                "compression_type": 0,
                "metrics": _metrics_data("wire.test.gauge", 42.5),
                **kw,
            }
            return w.request(PushTelemetryRequest(**fields), 0).error_code

        assert push(client_instance_id=uuid.UUID(int=0)) == ErrorCode.INVALID_REQUEST
        assert push(subscription_id=sub + 1) == ErrorCode.UNKNOWN_SUBSCRIPTION_ID
        assert push(compression_type=4, metrics=compress(4, _metrics_data("wire.test.gauge", 42.5))) == 0
        assert push() == ErrorCode.THROTTLING_QUOTA_EXCEEDED  # a second push inside the interval
        time.sleep(0.6)
        assert push(metrics=b"\x00" * 5000) == ErrorCode.TELEMETRY_TOO_LARGE
        time.sleep(0.6)
        assert push(compression_type=9) == ErrorCode.UNSUPPORTED_COMPRESSION_TYPE
        time.sleep(0.6)
        assert push(metrics=b"\xff\xff\xff") == ErrorCode.INVALID_RECORD
    text = scrape(port)[2]
    assert f'client_instance_id="{me}"' in text and 'metric="wire.test.gauge",node_id="1"} 42.5' in text

    producer = Producer({"bootstrap.servers": broker.bootstrap, "client.id": "pushing-producer"})
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        producer.produce("telemetry-topic", b"x")
        producer.poll(0.1)
        if 'client_id="pushing-producer"' in scrape(port)[2]:
            break
    producer.flush(10)
    text = scrape(port)[2]
    assert 'client_id="pushing-producer",client_software_name="confluent-kafka-python"' in text
    assert 'metric="org.apache.kafka.producer.' in text
