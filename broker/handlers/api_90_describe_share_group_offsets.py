"""DescribeShareGroupOffsets (key 90), v0-1 (KIP-932); v1 adds Lag.

Per group: the start offset and leader epoch of each share-partition, read
from the share coordinator's state, and (v1) the lag, Kafka's
``high watermark - start offset - DeliveryCompleteCount``. A null topic list
means every share-partition the group has initialised. As in Kafka 4.2 there
is no group-level check: an unknown group, a consumer group or an empty id
reads as "nothing initialised" (start offset -1, lag -1), and unknown topics
are listed with topic id zero. See :mod:`broker.group.share_offsets`.
"""

from __future__ import annotations

from broker.group.share_offsets import ShareOffsetsEnv, describe_group
from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import KafkaError
from broker.protocol.messages.describe_share_group_offsets_request import DescribeShareGroupOffsetsRequest
from broker.protocol.messages.describe_share_group_offsets_response import (
    DescribeShareGroupOffsetsResponse,
    DescribeShareGroupOffsetsResponseGroup,
)


@handler(90, min_version=0, max_version=1)
async def handle(ctx: RequestContext, req: DescribeShareGroupOffsetsRequest) -> DescribeShareGroupOffsetsResponse:
    groups = []
    for group in req.groups:
        try:
            env = await ShareOffsetsEnv.for_group(ctx.services.share_offsets, group.group_id)
        except KafkaError as exc:
            groups.append(
                DescribeShareGroupOffsetsResponseGroup(group_id=group.group_id, error_code=exc.code, topics=[])
            )
            continue
        groups.append(await describe_group(env, group))
    return DescribeShareGroupOffsetsResponse(throttle_time_ms=0, groups=groups)
