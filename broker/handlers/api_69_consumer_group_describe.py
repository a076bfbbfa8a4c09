"""ConsumerGroupDescribe (key 69), v0-1 (KIP-848).

Describes consumer groups: state (Empty, Assigning, Reconciling, Stable),
group and assignment epochs, the assignor the next assignment uses, and each
member with its epoch, client id/host, instance and rack ids, subscriptions
(names and regex), current and target assignments and (v1) its type: 1 for
members on the consumer protocol, 0 for classic members inside a consumer
group. A group id no consumer group holds answers GROUP_ID_NOT_FOUND ("Group
<id> not found." or, for a group of another type, "Group <id> is not a
consumer group."). With IncludeAuthorizedOperations, the group operations
allowed (no authorizer: all of them).
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._operations import GROUP_OPERATIONS, OPERATIONS_OMITTED
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.consumer_group_describe_request import ConsumerGroupDescribeRequest
from broker.protocol.messages.consumer_group_describe_response import ConsumerGroupDescribeResponse


@handler(69, min_version=0, max_version=1)
async def handle(ctx: RequestContext, req: ConsumerGroupDescribeRequest) -> ConsumerGroupDescribeResponse:
    groups = await ctx.services.groups.consumer_describe(req.group_ids)
    for g in groups:
        ok = g.error_code == ErrorCode.NONE and req.include_authorized_operations
        g.authorized_operations = GROUP_OPERATIONS if ok else OPERATIONS_OMITTED
    return ConsumerGroupDescribeResponse(throttle_time_ms=0, groups=groups)
