"""DeleteGroups (key 42), v0-3.

Deletes empty groups of every kind: a classic, consumer (KIP-848) or streams
(KIP-1071) group with its committed offsets, or a share group with its
share-partition state (the share coordinator's records are deleted too). A group with
members gets NON_EMPTY_GROUP; an unknown one GROUP_ID_NOT_FOUND. v3 adds a
per-group error message (the code's text, as Kafka sends it).
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.delete_groups_request import DeleteGroupsRequest
from broker.protocol.messages.delete_groups_response import DeletableGroupResult, DeleteGroupsResponse


@handler(42, min_version=0, max_version=3)
async def handle(ctx: RequestContext, req: DeleteGroupsRequest) -> DeleteGroupsResponse:
    groups = ctx.services.groups
    results = []
    for group_id in req.groups_names:
        try:
            _, shard = await groups.shard_for(group_id)
        except KafkaError as exc:
            results.append(_result(ctx, group_id, exc.code))
            continue
        kind = shard.group_type(group_id)
        if kind == "share":
            code = (await groups.delete_share_groups([group_id]))[group_id]
        elif kind is not None:
            code = await groups.delete_group(group_id)
            topologies = ctx.services.streams_topologies
            if kind == "streams" and code == ErrorCode.NONE and topologies is not None:
                await topologies.delete(group_id)  # its topology description (KIP-1331) goes too
        else:
            code = ErrorCode.GROUP_ID_NOT_FOUND
        results.append(_result(ctx, group_id, code))
    return DeleteGroupsResponse(throttle_time_ms=0, results=results)


def _result(ctx: RequestContext, group_id: str, code: int) -> DeletableGroupResult:
    message = ErrorCode.for_code(code).message if code and ctx.api_version >= 3 else None
    return DeletableGroupResult(group_id=group_id, error_code=code, error_message=message)
