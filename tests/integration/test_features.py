"""UpdateFeatures on the real broker through kafka-python's admin client: Kafka's checks and
error codes, levels that survive a restart, and behaviour that follows the finalized level
(share.version 0 turns share groups off, 1 turns dead-letter queues off)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from kafka import KafkaAdminClient
from kafka.errors import InvalidUpdateVersionError

from broker.protocol.errors import ErrorCode
from broker.protocol.messages.share_group_heartbeat_request import ShareGroupHeartbeatRequest
from broker.protocol.messages.update_features_request import FeatureUpdateKey, UpdateFeaturesRequest
from broker.testing import BrokerProcess
from tests.integration import dlq_scenario
from tests.integration.clients import create_topic
from tests.integration.share_helpers import unique
from tests.integration.test_share_dlq import _reject_one
from tests.integration.wire import WireClient


def _finalized(admin: KafkaAdminClient) -> dict[str, int]:
    return {name: f["finalized"][1] for name, f in admin.describe_features().items() if "finalized" in f}


def _epoch(admin: KafkaAdminClient) -> int:
    return max(f.get("finalized_epoch") or 0 for f in admin.describe_features().values())


def _heartbeat_error(bootstrap: str) -> int:
    with WireClient(bootstrap) as w:
        req = ShareGroupHeartbeatRequest(
            group_id=unique("fg"), member_id="m" * 22, member_epoch=0, subscribed_topic_names=["x"]
        )
        return w.request(req, 1).error_code


def test_levels_follow_update_features_and_survive_a_restart(tmp_path: Path):
    broker = BrokerProcess(tmp_path / "data").start()
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    try:
        described = admin.describe_features()
        assert {name: f["supported"] for name, f in described.items()} == {
            "metadata.version": (7, 29),
            "group.version": (0, 1),
            "share.version": (0, 2),
            "streams.version": (0, 1),
            "transaction.version": (0, 2),
        }
        before = _epoch(admin)
        assert _finalized(admin) == {
            "metadata.version": 29,
            "group.version": 1,
            "share.version": 2,
            "streams.version": 1,
            "transaction.version": 2,
        }
        assert admin.update_features({"transaction.version": ("SAFE_DOWNGRADE", 1)}) == {"transaction.version": "OK"}
        assert admin.update_features({"share.version": ("SAFE_DOWNGRADE", 0)}, validate_only=True) == {
            "share.version": "OK"
        }
        assert _finalized(admin)["share.version"] == 2  # only validated
        assert admin.update_features({"share.version": ("SAFE_DOWNGRADE", 0)}) == {"share.version": "OK"}
        assert _epoch(admin) > before
        assert "share.version" not in _finalized(admin)  # level 0 is not listed
        assert _heartbeat_error(broker.bootstrap) == ErrorCode.UNSUPPORTED_VERSION
        for bad in (
            {"share.version": 3},  # beyond what this broker supports
            {"no.such.feature": 1},
            {"group.version": 0},  # a downgrade sent as an upgrade
            {"metadata.version": ("UNSAFE_DOWNGRADE", 20)},
        ):
            with pytest.raises(InvalidUpdateVersionError):
                admin.update_features(bad)
        admin.close()
        assert broker.stop() == 0
        broker.start()
        admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
        assert _finalized(admin)["transaction.version"] == 1
        assert "share.version" not in _finalized(admin)
        assert _heartbeat_error(broker.bootstrap) == ErrorCode.UNSUPPORTED_VERSION
        assert admin.update_features({"share.version": 2}) == {"share.version": "OK"}
        assert _heartbeat_error(broker.bootstrap) == ErrorCode.NONE
    finally:
        admin.close()
        broker.kill()


def test_update_features_v1_answers_each_feature_and_fails_all_on_one_error(tmp_path: Path):
    broker = BrokerProcess(tmp_path / "data").start()
    try:
        with WireClient(broker.bootstrap) as w:
            req = UpdateFeaturesRequest(
                feature_updates=[
                    FeatureUpdateKey(feature="streams.version", max_version_level=0, upgrade_type=2),
                    FeatureUpdateKey(feature="share.version", max_version_level=9, upgrade_type=1),
                ]
            )
            resp = w.request(req, 1)
            assert resp.error_code == ErrorCode.INVALID_UPDATE_VERSION
            assert resp.error_message == (
                "The update failed for all features since the following feature had an error: "
                "Invalid update version 9 for feature share.version. Local controller 1 only supports versions 0-2"
            )
            assert resp.results == []  # as Kafka: the top-level error only
            levels = {f.name: f.max_version_level for f in w.request(_api_versions(), 3).finalized_features}
            assert levels["streams.version"] == 1  # nothing applied
    finally:
        broker.kill()


def _api_versions():
    from broker.protocol.messages.api_versions_request import ApiVersionsRequest

    return ApiVersionsRequest(client_software_name="wire", client_software_version="1")


def test_share_version_1_turns_dead_letter_queues_off(tmp_path: Path):
    broker = BrokerProcess(tmp_path / "data").start()
    admin = KafkaAdminClient(bootstrap_servers=broker.bootstrap)
    try:
        on = "dlq." + unique("on")
        create_topic(broker.bootstrap, on, config={"errors.deadletterqueue.group.enable": "true"})
        _reject_one(broker.bootstrap, on)
        assert len(dlq_scenario.read_all(broker.bootstrap, on, 1, 1, timeout=20)) == 1
        assert admin.update_features({"share.version": ("SAFE_DOWNGRADE", 1)}) == {"share.version": "OK"}
        off = "dlq." + unique("off")
        create_topic(broker.bootstrap, off, config={"errors.deadletterqueue.group.enable": "true"})
        _reject_one(broker.bootstrap, off)
        time.sleep(1)
        assert dlq_scenario.read_all(broker.bootstrap, off, 1, 0, timeout=2) == []
    finally:
        admin.close()
        broker.kill()
