"""DeleteGroups (key 42), v0-2.

Deletes empty groups of either kind: a classic consumer group with its
committed offsets, or a share group with its share-partition state (the share
coordinator's records are deleted too) and its group configs. A group with
members gets NON_EMPTY_GROUP; an unknown one GROUP_ID_NOT_FOUND.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.delete_groups_request import DeleteGroupsRequest
from broker.protocol.messages.delete_groups_response import DeletableGroupResult, DeleteGroupsResponse
from broker.server.context import RequestContext


@handler(42, min_version=0, max_version=2)
async def handle(ctx: RequestContext, req: DeleteGroupsRequest) -> DeleteGroupsResponse:
    broker = ctx.broker
    results = []
    for group_id in req.groups_names:
        if broker.share_groups.coordinator.group_type(group_id) == "share":
            code = (await broker.share_groups.delete_groups([group_id]))[group_id]
        elif broker.classic_group_type(group_id) is not None:
            code = await broker.classic_groups_delete(group_id)
        else:
            code = ErrorCode.GROUP_ID_NOT_FOUND
        results.append(DeletableGroupResult(group_id=group_id, error_code=code))
    return DeleteGroupsResponse(throttle_time_ms=0, results=results)
