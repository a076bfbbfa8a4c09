"""ShareAcknowledge (key 79), v1-2 (KIP-932).

Acknowledges records without fetching: Gap, Accept, Release, Reject, and in
v2 Renew (``IsRenewAck``, when the group allows it). It shares the share
session's epoch sequence with ShareFetch: epoch 0 is not allowed here
(INVALID_SHARE_SESSION_EPOCH), epoch -1 applies the acknowledgements, closes
the session and gives back whatever the member still holds. Each partition's
acknowledgement is durable before the response; every acknowledged partition
is in the response. v2 adds ``AcquisitionLockTimeoutMs``.
"""

from __future__ import annotations

import uuid

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.share_acknowledge_request import ShareAcknowledgeRequest
from broker.protocol.messages.share_acknowledge_response import (
    LeaderIdAndEpoch,
    PartitionData,
    ShareAcknowledgeResponse,
    ShareAcknowledgeTopicResponse,
)
from broker.share.requests import ack_batches, acknowledge_all, open_or_continue
from broker.share.sessions import FINAL_EPOCH


def _error(code: int, message: str | None = None) -> ShareAcknowledgeResponse:
    return ShareAcknowledgeResponse(error_code=code, error_message=message, responses=[])


@handler(79, min_version=1, max_version=2)
async def handle(ctx: RequestContext, req: ShareAcknowledgeRequest) -> ShareAcknowledgeResponse:
    mgr = ctx.services.share
    if not req.group_id or not req.member_id:
        return _error(ErrorCode.INVALID_REQUEST, "GroupId and MemberId are required")
    _session, code = await open_or_continue(
        mgr, ctx.connection, req.group_id, req.member_id, req.share_session_epoch, may_open=False
    )
    if code:
        return _error(code)
    settings = mgr.settings(req.group_id)
    renew_allowed = ctx.api_version >= 2 and req.is_renew_ack and settings.renew_ack_enabled
    acks: dict[tuple[uuid.UUID, int], list[tuple[int, int, list[int]]]] = {}
    for topic in req.topics:
        for p in topic.partitions:
            acks.setdefault((topic.topic_id, p.partition_index), []).extend(ack_batches(p.acknowledgement_batches))
    by_topic: dict[uuid.UUID, list[PartitionData]] = {}
    for key, code in (await acknowledge_all(mgr, req.group_id, req.member_id, acks, renew_allowed)).items():
        by_topic.setdefault(key[0], []).append(
            PartitionData(partition_index=key[1], error_code=code, current_leader=LeaderIdAndEpoch())
        )
    if req.share_session_epoch == FINAL_EPOCH:
        mgr.sessions.close(req.group_id, req.member_id)
        await mgr.release_member(req.group_id, req.member_id)
    return ShareAcknowledgeResponse(
        throttle_time_ms=0,
        error_code=ErrorCode.NONE,
        acquisition_lock_timeout_ms=settings.lock_duration_ms,
        responses=[ShareAcknowledgeTopicResponse(topic_id=t, partitions=parts) for t, parts in by_topic.items()],
        node_endpoints=[],
    )
