"""DescribeShareGroupOffsets (key 90), v0-1 (KIP-932); v1 adds Lag.

Per group: the start offset and leader epoch of each share-partition, read
from the share coordinator's state, and (v1) the lag, Kafka's
``high watermark - start offset - DeliveryCompleteCount``. A null topic list
means every share-partition the group has initialised. As in Kafka 4.2 there
is no group-level check: an unknown group, a consumer group or an empty id
reads as "nothing initialised" (start offset -1, lag -1), and unknown topics
are listed with topic id zero. See :mod:`broker.share.offsets_admin`.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.protocol.messages.describe_share_group_offsets_request import DescribeShareGroupOffsetsRequest
from broker.protocol.messages.describe_share_group_offsets_response import DescribeShareGroupOffsetsResponse
from broker.server.context import RequestContext
from broker.share.offsets_admin import describe_group


@handler(90, min_version=0, max_version=1)
async def handle(ctx: RequestContext, req: DescribeShareGroupOffsetsRequest) -> DescribeShareGroupOffsetsResponse:
    groups = [await describe_group(ctx.broker, group) for group in req.groups]
    return DescribeShareGroupOffsetsResponse(throttle_time_ms=0, groups=groups)
