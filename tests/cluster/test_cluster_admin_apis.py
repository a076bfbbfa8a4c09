"""The log-dir, feature, client-metrics and topology-description APIs in a 3-broker cluster:
finalized features and client metrics subscriptions live in etcd and every broker follows
them (also after a restart); DescribeLogDirs answers from each broker for its own replicas."""

from __future__ import annotations

from functools import partial

from kafka import KafkaAdminClient

from broker.localcluster import LocalCluster
from broker.protocol.messages.api_versions_request import ApiVersionsRequest
from broker.protocol.messages.incremental_alter_configs_request import (
    AlterableConfig,
    AlterConfigsResource,
    IncrementalAlterConfigsRequest,
)
from broker.protocol.messages.list_config_resources_request import ListConfigResourcesRequest
from tests.cluster.conftest import wait_for
from tests.integration.clients import create_topic
from tests.integration.wire import WireClient


def _finalized(bootstrap: str) -> dict[str, int]:
    with WireClient(bootstrap) as w:
        resp = w.request(ApiVersionsRequest(client_software_name="t", client_software_version="1"), 3)
        return {f.name: f.max_version_level for f in resp.finalized_features}


def _subscriptions(bootstrap: str) -> list[str]:
    with WireClient(bootstrap) as w:
        return [c.resource_name for c in w.request(ListConfigResourcesRequest(), 0).config_resources]


def _has_level(bootstrap: str, feature: str, level: int) -> bool:
    return _finalized(bootstrap).get(feature) == level


def _lists(bootstrap: str, subscriptions: list[str]) -> bool:
    return _subscriptions(bootstrap) == subscriptions


def test_features_and_subscriptions_follow_etcd_and_log_dirs_per_broker(own_cluster: LocalCluster, names):
    brokers = own_cluster.brokers
    admin = KafkaAdminClient(bootstrap_servers=brokers[0].bootstrap)
    try:
        assert admin.update_features({"share.version": ("SAFE_DOWNGRADE", 1)}) == {"share.version": "OK"}
        for b in brokers:
            wait_for(partial(_has_level, b.bootstrap, "share.version", 1), 20, f"share.version 1 on {b.bootstrap}")
        with WireClient(brokers[1].bootstrap) as w:
            req = IncrementalAlterConfigsRequest(
                resources=[
                    AlterConfigsResource(
                        resource_type=16,
                        resource_name="cluster-sub",
                        configs=[AlterableConfig(name="metrics", config_operation=0, value="*")],
                    )
                ]
            )
            assert w.request(req, 1).responses[0].error_code == 0
        for b in brokers:
            wait_for(partial(_lists, b.bootstrap, ["cluster-sub"]), 20, f"the subscription on {b.bootstrap}")

        topic = names("dirs")
        create_topic(brokers[0].bootstrap, topic, partitions=3)
        replicas = wait_for(
            lambda: (
                sorted(
                    (d["broker"], p["partition_index"])
                    for d in admin.describe_log_dirs()
                    for ld in d["log_dirs"]
                    for t in ld["topics"]
                    if t["name"] == topic
                    for p in t["partitions"]
                )
                or None
            ),
            20,
            "replicas of the topic in the brokers' log directories",
        )
        (described,) = admin.describe_topics([topic])
        placed = sorted((r, p["partition_index"]) for p in described["partitions"] for r in p["replica_nodes"])
        assert replicas == placed  # each broker reports exactly the replicas placed on it
    finally:
        admin.close()
    restarted = brokers[2]
    restarted.stop()
    restarted.start()
    assert _finalized(restarted.bootstrap).get("share.version") == 1
    assert _subscriptions(restarted.bootstrap) == ["cluster-sub"]
