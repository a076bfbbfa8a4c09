"""DeleteGroups (key 42), v0-2.

Deletes empty groups of either kind: a classic consumer group with its
committed offsets, or a share group with its share-partition state (the share
coordinator's records are deleted too) and its group configs. A group with
members gets NON_EMPTY_GROUP; an unknown one GROUP_ID_NOT_FOUND.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.delete_groups_request import DeleteGroupsRequest
from broker.protocol.messages.delete_groups_response import DeletableGroupResult, DeleteGroupsResponse


@handler(42, min_version=0, max_version=2)
async def handle(ctx: RequestContext, req: DeleteGroupsRequest) -> DeleteGroupsResponse:
    groups = ctx.services.groups
    results = []
    for group_id in req.groups_names:
        try:
            _, shard = await groups.shard_for(group_id)
        except KafkaError as exc:
            results.append(DeletableGroupResult(group_id=group_id, error_code=exc.code))
            continue
        kind = shard.group_type(group_id)
        if kind == "share":
            code = (await groups.delete_share_groups([group_id]))[group_id]
        elif kind is not None:
            code = await groups.delete_group(group_id)
        else:
            code = ErrorCode.GROUP_ID_NOT_FOUND
        results.append(DeletableGroupResult(group_id=group_id, error_code=code))
    return DeleteGroupsResponse(throttle_time_ms=0, results=results)
