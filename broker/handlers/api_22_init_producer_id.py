"""InitProducerId (key 22), v0-6.

Idempotent producers (no transactional id) always get a fresh producer id at
epoch 0, whatever id/epoch they send (as Kafka does, KIP-98/KIP-360); ids are
unique across restarts (:mod:`broker.metadata.producer_ids`). Transactional ids
need the transaction coordinator; until it is served, they get
COORDINATOR_NOT_AVAILABLE, the same answer FindCoordinator gives for them.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.init_producer_id_request import InitProducerIdRequest
from broker.protocol.messages.init_producer_id_response import InitProducerIdResponse


@handler(22, min_version=0, max_version=6)
async def handle(ctx: RequestContext, req: InitProducerIdRequest) -> InitProducerIdResponse:
    if req.transactional_id is not None:
        return InitProducerIdResponse(error_code=ErrorCode.COORDINATOR_NOT_AVAILABLE, producer_id=-1, producer_epoch=-1)
    pid = ctx.services.producer_ids.allocate()
    return InitProducerIdResponse(throttle_time_ms=0, error_code=ErrorCode.NONE, producer_id=pid, producer_epoch=0)
