"""Client metrics subscriptions (KIP-714) on the real broker: the CLIENT_METRICS config
resource through IncrementalAlterConfigs and DescribeConfigs, ListConfigResources v0 and v1,
Kafka's checks, and subscriptions that survive a restart."""

from __future__ import annotations

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
