"""FindCoordinator (key 10), v0-6.

The coordinator of a key is the leader of its internal-topic partition
(:meth:`~broker.metadata.image.MetadataImage.coordinator_for`, Kafka's hash);
the topic is created on first use. Key types: 0 GROUP
(consumer and share groups alike: clients find share groups this way),
1 TRANSACTION (the leader of the transactional id's ``__transaction_state`` partition),
2 SHARE (broker-internal, key ``group:topicId:partition``, KIP-932).
v4+ looks up several keys at once (KIP-699); v0-3 one key.
"""

from __future__ import annotations

import base64
import binascii
import uuid
from typing import NamedTuple

from broker.handlers import handler
from broker.handlers._endpoints import client_endpoint
from broker.handlers.context import RequestContext
from broker.metadata.image import CoordinatorType
from broker.protocol.errors import ErrorCode, KafkaError
from broker.protocol.messages.find_coordinator_request import FindCoordinatorRequest
from broker.protocol.messages.find_coordinator_response import Coordinator, FindCoordinatorResponse

GROUP, TRANSACTION, SHARE = 0, 1, 2


def _check(key_type: int, key: str) -> tuple[int, str | None]:
    if key_type == GROUP:
        if not key:
            return ErrorCode.INVALID_REQUEST, "group id must not be empty"
        return ErrorCode.NONE, None
    if key_type == TRANSACTION:
        return ErrorCode.NONE, None  # any string, the empty one too, as in Kafka
    if key_type == SHARE:
        # "group:topicId:partition"; the group id itself may contain ':'.
        group, _, rest = key.rpartition(":")
        group, _, topic_id = group.rpartition(":")
        try:
            uuid_from_kafka_string(topic_id)
            int(rest)
        except ValueError:
            return ErrorCode.INVALID_REQUEST, f"share coordinator key {key!r} is not group:topicId:partition"
        if not group:
            return ErrorCode.INVALID_REQUEST, "share coordinator key has an empty group id"
        return ErrorCode.NONE, None
    return ErrorCode.INVALID_REQUEST, f"unknown coordinator key type {key_type}"


def uuid_from_kafka_string(text: str) -> uuid.UUID:
    """Kafka prints topic ids as 22 characters of URL-safe base64 without padding."""
    if len(text) != 22:
        raise ValueError(f"not a Kafka topic id: {text!r}")
    try:
        return uuid.UUID(bytes=base64.urlsafe_b64decode(text + "=="))
    except (binascii.Error, ValueError) as exc:
        raise ValueError(f"not a Kafka topic id: {text!r}") from exc


class _Found(NamedTuple):
    """A key's coordinator, its fields named as in both response shapes (v0-3 the
    response, v4+ each Coordinator); node -1, host "" and port -1 when there is none."""

    error_code: int
    error_message: str | None
    node_id: int = -1
    host: str = ""
    port: int = -1


async def _locate(ctx: RequestContext, key_type: int, key: str) -> _Found:
    """The coordinator of ``key``, at its endpoint on the client's listener."""
    code, message = _check(key_type, key)
    if code:
        return _Found(code, message)
    services = ctx.services
    if key_type == SHARE:
        ensure_topic = services.share_state.runtime.ensure_topic
    elif key_type == TRANSACTION:
        ensure_topic = services.transactions.runtime.ensure_topic
    else:
        ensure_topic = services.groups.runtime.ensure_topic
    try:
        # Kafka creates a coordinator's internal topic on the first FindCoordinator.
        await ensure_topic()
    except KafkaError as exc:
        return _Found(exc.code, exc.message)
    # The image after ensure_topic: it may just have created the coordinator's topic.
    image = services.metadata.image
    where = image.coordinator_for(CoordinatorType(key_type), key)
    endpoint = client_endpoint(image.broker(where.node_id), ctx.connection.listener)
    if endpoint is None:
        return _Found(ErrorCode.COORDINATOR_NOT_AVAILABLE, None)
    return _Found(ErrorCode.NONE, None, where.node_id, endpoint.host, endpoint.port)


@handler(10, min_version=0, max_version=6)
async def handle(ctx: RequestContext, req: FindCoordinatorRequest) -> FindCoordinatorResponse:
    if ctx.api_version < 4:
        found = await _locate(ctx, req.key_type, req.key)
        return FindCoordinatorResponse(throttle_time_ms=0, **found._asdict())
    coordinators = []
    for key in req.coordinator_keys:
        found = await _locate(ctx, req.key_type, key)
        coordinators.append(Coordinator(key=key, **found._asdict()))
    return FindCoordinatorResponse(throttle_time_ms=0, coordinators=coordinators)
