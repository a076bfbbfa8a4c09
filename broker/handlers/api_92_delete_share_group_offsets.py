"""DeleteShareGroupOffsets (key 92), v0 (KIP-932).

Deletes the share-partition state of whole topics for an Empty share group
(NON_EMPTY_GROUP while it has members; GROUP_ID_NOT_FOUND for an unknown or
consumer group; INVALID_GROUP_ID for an empty id). The topics leave the
group's initialised set, so DescribeShareGroupOffsets no longer lists them and
the next consumer starts from ``share.auto.offset.reset``. Per topic: unknown
-> UNKNOWN_TOPIC_OR_PARTITION; nothing initialised -> UNKNOWN_TOPIC_OR_PARTITION
("There is no offset information to delete."). See
:mod:`broker.group.share_offsets`.
"""

from __future__ import annotations

from broker.group.share_offsets import delete_offsets
from broker.handlers import handler
from broker.handlers._share_offsets import change_offsets
from broker.handlers.context import RequestContext
from broker.protocol.messages.delete_share_group_offsets_request import DeleteShareGroupOffsetsRequest
from broker.protocol.messages.delete_share_group_offsets_response import DeleteShareGroupOffsetsResponse


@handler(92, min_version=0, max_version=0)
async def handle(ctx: RequestContext, req: DeleteShareGroupOffsetsRequest) -> DeleteShareGroupOffsetsResponse:
    return await change_offsets(ctx, req, delete_offsets)
