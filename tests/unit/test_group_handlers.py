"""Group describe handlers on the real services, without a listener."""

from __future__ import annotations

from broker.handlers import api_69_consumer_group_describe, api_77_share_group_describe
from broker.protocol.messages import REQUESTS, RESPONSES, RequestHeader
from broker.protocol.messages.consumer_group_describe_request import ConsumerGroupDescribeRequest
from broker.protocol.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest
from broker.protocol.messages.share_group_describe_request import ShareGroupDescribeRequest
from tests.services import context, running

HANDLERS = {69: api_69_consumer_group_describe, 77: api_77_share_group_describe}
# Kafka's AclEntry.supportedOperations(GROUP): READ, DELETE, DESCRIBE, DESCRIBE_CONFIGS,
# ALTER_CONFIGS, all allowed when no authorizer runs.
GROUP_OPERATIONS = (1 << 3) | (1 << 6) | (1 << 8) | (1 << 10) | (1 << 11)


async def call(broker, request, version):
    key = request.API_KEY
    request = REQUESTS[key].decode(request.encode(version), version)
    header = RequestHeader(request_api_key=key, request_api_version=version, correlation_id=1, client_id="test")
    response = await HANDLERS[key].handle(context(broker, version, header), request)
    return RESPONSES[key].decode(response.encode(version), version)


async def test_share_group_describe_reports_the_group_operations_every_group_type_reports(tmp_path):
    """ShareGroupDescribe answers the same authorized operations as ConsumerGroupDescribe
    (Kafka computes both from AclEntry.supportedOperations(GROUP))."""
    async with running(tmp_path) as broker:
        await _describe_both(broker)


async def _describe_both(broker):
    joined = await broker.groups.share_heartbeat("sg", "m-1", 0, None, ["t"], client_id="c", client_host="/h")
    assert joined.error_code == 0
    joined_consumer = await broker.groups.consumer_heartbeat(
        ConsumerGroupHeartbeatRequest(
            group_id="cg",
            member_id="m-2",
            member_epoch=0,
            rebalance_timeout_ms=30_000,
            subscribed_topic_names=["t"],
            topic_partitions=[],
        ),
        api_version=1,
        client_id="c",
        client_host="/h",
    )
    assert joined_consumer.error_code == 0, joined_consumer
    (share,) = (
        await call(broker, ShareGroupDescribeRequest(group_ids=["sg"], include_authorized_operations=True), 1)
    ).groups
    (consumer,) = (
        await call(broker, ConsumerGroupDescribeRequest(group_ids=["cg"], include_authorized_operations=True), 1)
    ).groups
    assert (share.error_code, consumer.error_code) == (0, 0)
    assert share.authorized_operations == consumer.authorized_operations == GROUP_OPERATIONS
    (plain,) = (await call(broker, ShareGroupDescribeRequest(group_ids=["sg"]), 1)).groups
    assert plain.authorized_operations == -(2**31)
