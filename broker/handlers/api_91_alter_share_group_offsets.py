"""AlterShareGroupOffsets (key 91), v0 (KIP-932).

Sets the start offset of share-partitions of an Empty share group
(NON_EMPTY_GROUP while it has members; GROUP_ID_NOT_FOUND for a consumer
group; INVALID_GROUP_ID for an empty id). Each share-partition is
re-initialised with a new state epoch, which fences any stale writer, and
marked initialised in the group; the next fetch loads the new state. Unknown
topics and partitions answer UNKNOWN_TOPIC_OR_PARTITION per partition. An
unknown group id becomes an Empty share group, as in Kafka 4.2. See
:mod:`broker.group.share_offsets`.
"""

from __future__ import annotations

from broker.group.share_offsets import alter_offsets
from broker.handlers import handler
from broker.handlers._share_offsets import change_offsets
from broker.handlers.context import RequestContext
from broker.protocol.messages.alter_share_group_offsets_request import AlterShareGroupOffsetsRequest
from broker.protocol.messages.alter_share_group_offsets_response import AlterShareGroupOffsetsResponse


@handler(91, min_version=0, max_version=0)
async def handle(ctx: RequestContext, req: AlterShareGroupOffsetsRequest) -> AlterShareGroupOffsetsResponse:
    return await change_offsets(ctx, req, alter_offsets)
