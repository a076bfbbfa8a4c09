"""DeleteTopics (key 20), v1-6.

Deletes topics by name (``TopicNames`` before v6, ``Topics[].Name`` from v6)
or by topic id (v6+, KIP-516), following Kafka's KRaft controller
(ControllerApis.deleteTopics): an entry with neither name nor id, or with
both, gets INVALID_REQUEST; a name or id given twice gets INVALID_REQUEST
"Duplicate topic name." / "Duplicate topic id."; an unknown name
UNKNOWN_TOPIC_OR_PARTITION and an unknown id UNKNOWN_TOPIC_ID (name null); a
name that resolves to an id also given by id gets INVALID_REQUEST. Deleted
topics are answered with both name and id. With ``delete.topic.enable``
false every topic gets TOPIC_DELETION_DISABLED (INVALID_REQUEST before v3).
Internal topics can be deleted, as in Kafka; the client tools are what
refuse it.
"""

from __future__ import annotations

import uuid
from collections import Counter

from broker.config.services import HandlerSettings
from broker.handlers import handler
from broker.handlers._configs import broker_settings
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.delete_topics_request import DeleteTopicsRequest, DeleteTopicState
from broker.protocol.messages.delete_topics_response import DeletableTopicResult, DeleteTopicsResponse
from broker.protocol.primitives import UUID_ZERO


def _requested(ctx: RequestContext, req: DeleteTopicsRequest) -> list[DeleteTopicState]:
    if ctx.api_version >= 6:
        return list(req.topics)
    return [DeleteTopicState(name=name, topic_id=UUID_ZERO) for name in req.topic_names]


def _result(name: str | None, topic_id: uuid.UUID, code: int, message: str | None = None) -> DeletableTopicResult:
    return DeletableTopicResult(name=name, topic_id=topic_id, error_code=code, error_message=message)


@handler(20, min_version=1, max_version=6)
async def handle(ctx: RequestContext, req: DeleteTopicsRequest) -> DeleteTopicsResponse:
    image = ctx.services.metadata.image
    requested = _requested(ctx, req)
    if not broker_settings(ctx.services, HandlerSettings).delete_topic_enable:
        code = ErrorCode.INVALID_REQUEST if ctx.api_version < 3 else ErrorCode.TOPIC_DELETION_DISABLED
        return DeleteTopicsResponse(
            throttle_time_ms=0, responses=[_result(t.name, t.topic_id, code) for t in requested]
        )

    results: list[DeletableTopicResult] = []
    names: list[str] = []
    ids: list[uuid.UUID] = []
    for t in requested:
        if t.name is None and t.topic_id == UUID_ZERO:
            message = "Neither topic name nor id were specified."
            results.append(_result(None, UUID_ZERO, ErrorCode.INVALID_REQUEST, message))
        elif t.name is not None and t.topic_id != UUID_ZERO:
            message = "You may not specify both topic name and topic id."
            results.append(_result(t.name, t.topic_id, ErrorCode.INVALID_REQUEST, message))
        elif t.name is not None:
            names.append(t.name)
        else:
            ids.append(t.topic_id)
    duplicate_names = [n for n, count in Counter(names).items() if count > 1]
    duplicate_ids = [i for i, count in Counter(ids).items() if count > 1]
    for name in duplicate_names:
        results.append(_result(name, UUID_ZERO, ErrorCode.INVALID_REQUEST, "Duplicate topic name."))
    for topic_id in duplicate_ids:
        results.append(_result(None, topic_id, ErrorCode.INVALID_REQUEST, "Duplicate topic id."))
    refused_ids = set(duplicate_ids)

    # Resolve everything to id -> name, then delete by id, as the controller does.
    to_delete: dict[uuid.UUID, str] = {}
    for topic_id in ids:
        if topic_id in refused_ids:
            continue
        info = image.topic_by_id(topic_id)
        if info is None:
            results.append(_result(None, topic_id, ErrorCode.UNKNOWN_TOPIC_ID, ErrorCode.UNKNOWN_TOPIC_ID.message))
        else:
            to_delete[topic_id] = info.name
    for name in names:
        if name in duplicate_names:
            continue
        info = image.topic(name)
        if info is None:
            code = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
            results.append(_result(name, UUID_ZERO, code, code.message))
        elif info.topic_id in to_delete or info.topic_id in refused_ids:
            # Named and also given by id: Kafka refuses the name and drops the id.
            to_delete.pop(info.topic_id, None)
            refused_ids.add(info.topic_id)
            results.append(
                _result(
                    name,
                    info.topic_id,
                    ErrorCode.INVALID_REQUEST,
                    "The provided topic name maps to an ID that was already supplied.",
                )
            )
        else:
            to_delete[info.topic_id] = name

    for topic_id, name in to_delete.items():
        try:
            await ctx.services.metadata.delete_topic(name)
        except KafkaError as exc:
            results.append(_result(name, topic_id, exc.code, exc.detail))
        else:
            results.append(_result(name, topic_id, ErrorCode.NONE))
    return DeleteTopicsResponse(throttle_time_ms=0, responses=results)
