"""DescribeCluster (key 60), v0-2.

The broker list is every registered broker of the cluster (just this node when
it runs alone) with its endpoint on the listener the client came in on, and the
controller id is the broker elected controller in etcd (-1 while none is;
this node when it runs alone). Brokers are reached on broker endpoints, so
EndpointType (v1+) 1 (BROKER) is served; 2 (CONTROLLER) gets
MISMATCHED_ENDPOINT_TYPE and any other value UNSUPPORTED_ENDPOINT_TYPE, both
with Kafka's messages (KIP-919). IncludeFencedBrokers (v2, KIP-1073) changes
nothing: this node is never fenced while it answers. Cluster authorized
operations (KIP-430) are every cluster operation, as there are no ACLs.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._endpoints import client_endpoint
from broker.handlers._operations import CLUSTER_OPERATIONS, OPERATIONS_OMITTED
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.describe_cluster_request import DescribeClusterRequest
from broker.protocol.messages.describe_cluster_response import DescribeClusterBroker, DescribeClusterResponse

BROKER_ENDPOINT, CONTROLLER_ENDPOINT = 1, 2
_ENDPOINT_NAMES = {BROKER_ENDPOINT: "BROKER", CONTROLLER_ENDPOINT: "CONTROLLER"}


@handler(60, min_version=0, max_version=2)
async def handle(ctx: RequestContext, req: DescribeClusterRequest) -> DescribeClusterResponse:
    v = ctx.api_version
    wanted = req.endpoint_type if v >= 1 else BROKER_ENDPOINT
    if wanted not in _ENDPOINT_NAMES:
        return DescribeClusterResponse(
            error_code=ErrorCode.INVALID_REQUEST if v == 0 else ErrorCode.UNSUPPORTED_ENDPOINT_TYPE,
            error_message=f"Unsupported endpoint type {wanted}",
        )
    if wanted != BROKER_ENDPOINT:
        return DescribeClusterResponse(
            error_code=ErrorCode.INVALID_REQUEST if v == 0 else ErrorCode.MISMATCHED_ENDPOINT_TYPE,
            error_message=(
                "The request was sent to an endpoint of type BROKER, "
                f"but we wanted an endpoint of type {_ENDPOINT_NAMES[wanted]}"
            ),
        )
    image = ctx.services.metadata.image
    brokers = []
    for b in image.brokers.values():
        endpoint = client_endpoint(b, ctx.connection.listener)
        if endpoint is not None:
            brokers.append(
                DescribeClusterBroker(
                    broker_id=b.node_id, host=endpoint.host, port=endpoint.port, rack=b.rack, is_fenced=b.fenced
                )
            )
    return DescribeClusterResponse(
        throttle_time_ms=0,
        error_code=ErrorCode.NONE,
        error_message=None,
        endpoint_type=BROKER_ENDPOINT,
        cluster_id=image.cluster_id,
        controller_id=image.controller_id,
        brokers=brokers,
        cluster_authorized_operations=(
            CLUSTER_OPERATIONS if req.include_cluster_authorized_operations else OPERATIONS_OMITTED
        ),
    )
