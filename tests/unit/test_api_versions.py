"""ApiVersions v5 (KIP-1242): a client naming the wrong cluster or node is told to re-bootstrap."""

from __future__ import annotations

import pytest

from broker.handlers import api_18_api_versions
from broker.handlers.context import ConnectionState, RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages import RequestHeader
from broker.protocol.messages.api_versions_request import ApiVersionsRequest
from broker.server.app import close_services
from tests.services import context, started


@pytest.fixture
def broker(tmp_path):
    b = started(tmp_path / "data")
    yield b
    close_services(b.services)


async def answer(broker, req: ApiVersionsRequest, version: int):
    req = ApiVersionsRequest.decode(req.encode(version), version)
    resp = await api_18_api_versions.handle(context(broker, version), req)
    return type(resp).decode(resp.encode(version), version)


async def test_the_right_cluster_and_node_get_the_versions(broker):
    req = ApiVersionsRequest(
        client_software_name="t", client_software_version="1", cluster_id=broker.cluster_id, node_id=1
    )
    resp = await answer(broker, req, 5)
    assert resp.error_code == 0 and any(k.api_key == 18 and k.max_version == 5 for k in resp.api_keys)


@pytest.mark.parametrize(("cluster", "node"), [("another-cluster", 1), (None, 7), ("ours", 7)])
async def test_a_misrouted_client_must_rebootstrap(broker, cluster, node):
    cluster_id = broker.cluster_id if cluster == "ours" else cluster
    req = ApiVersionsRequest(client_software_name="t", client_software_version="1", cluster_id=cluster_id, node_id=node)
    resp = await answer(broker, req, 5)
    # Only a request naming both cluster and node is checked (KIP-1242).
    expected = ErrorCode.NONE if cluster_id is None else ErrorCode.REBOOTSTRAP_REQUIRED
    assert resp.error_code == expected


async def test_before_v5_nothing_is_checked(broker):
    req = ApiVersionsRequest(client_software_name="t", client_software_version="1")
    assert (await answer(broker, req, 4)).error_code == 0


@pytest.mark.parametrize("level", [1, 2])
async def test_while_starting_the_transaction_version_comes_from_the_setting(broker, level):
    """ApiVersions is answered before the services exist; its finalized
    transaction.version is then the setting's, as the coordinator will serve it."""
    settings = {"transaction.version": level, "share.version": level}
    state = ConnectionState(1, "127.0.0.1:1", setting=settings.__getitem__)
    req = ApiVersionsRequest(client_software_name="t", client_software_version="1")
    resp = await api_18_api_versions.handle(
        RequestContext(None, state, RequestHeader(request_api_key=18, request_api_version=4), 4), req
    )
    finalized = {f.name: f.max_version_level for f in resp.finalized_features}
    assert resp.error_code == 0 and finalized["transaction.version"] == level
    assert finalized["share.version"] == level
    # With the services, the coordinator's level (the default, 2) is answered.
    running = await answer(broker, req, 4)
    assert {f.name: f.max_version_level for f in running.finalized_features}["transaction.version"] == 2
