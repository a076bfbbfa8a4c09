"""FindCoordinator (key 10), v0-6.

On a single node every coordinator is this broker. Key types: 0 GROUP
(consumer and share groups alike: clients find share groups this way),
1 TRANSACTION (COORDINATOR_NOT_AVAILABLE until transactions are served),
2 SHARE (broker-internal, key ``group:topicId:partition``, KIP-932).
v4+ looks up several keys at once (KIP-699); v0-3 one key.
"""

from __future__ import annotations

import base64
import binascii
import uuid

from broker.handlers import handler
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.find_coordinator_request import FindCoordinatorRequest
from broker.protocol.messages.find_coordinator_response import Coordinator, FindCoordinatorResponse
from broker.server.context import RequestContext

GROUP, TRANSACTION, SHARE = 0, 1, 2


def _check(key_type: int, key: str) -> tuple[int, str | None]:
    if key_type == GROUP:
        if not key:
            return ErrorCode.INVALID_REQUEST, "group id must not be empty"
        return ErrorCode.NONE, None
    if key_type == TRANSACTION:
        return ErrorCode.COORDINATOR_NOT_AVAILABLE, "transactions are not served by this broker"
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


@handler(10, min_version=0, max_version=6)
async def handle(ctx: RequestContext, req: FindCoordinatorRequest) -> FindCoordinatorResponse:
    b = ctx.broker
    if ctx.api_version < 4:
        code, message = _check(req.key_type, req.key)
        ok = code == ErrorCode.NONE
        return FindCoordinatorResponse(
            throttle_time_ms=0,
            error_code=code,
            error_message=message,
            node_id=b.node_id if ok else -1,
            host=b.advertised_host if ok else "",
            port=b.advertised_port if ok else -1,
        )
    coordinators = []
    for key in req.coordinator_keys:
        code, message = _check(req.key_type, key)
        ok = code == ErrorCode.NONE
        coordinators.append(
            Coordinator(
                key=key,
                node_id=b.node_id if ok else -1,
                host=b.advertised_host if ok else "",
                port=b.advertised_port if ok else -1,
                error_code=code,
                error_message=message,
            )
        )
    return FindCoordinatorResponse(throttle_time_ms=0, coordinators=coordinators)
