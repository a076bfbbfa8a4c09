"""DescribeClientQuotas (key 48), v0-1.

The quota entities matching every filter component (exact name, the type's
default, or any named entity of the type; ``strict`` leaves out entities with
other types) with their values. Needs DESCRIBE_CONFIGS on the cluster.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._security import security_store
from broker.handlers.context import RequestContext
from broker.protocol.messages.describe_client_quotas_request import DescribeClientQuotasRequest
from broker.protocol.messages.describe_client_quotas_response import (
    DescribeClientQuotasResponse,
    EntityData,
    EntryData,
    ValueData,
)


@handler(48, min_version=0, max_version=1)
async def handle(ctx: RequestContext, req: DescribeClientQuotasRequest) -> DescribeClientQuotasResponse:
    store = security_store(ctx)
    code, message, found = store.client_quotas.describe(
        [(c.entity_type, c.match_type, c.match) for c in req.components], req.strict
    )
    if code:
        return DescribeClientQuotasResponse(error_code=code, error_message=message, entries=None)
    return DescribeClientQuotasResponse(
        error_code=0,
        error_message=None,
        entries=[
            EntryData(
                entity=[EntityData(entity_type=t, entity_name=n) for t, n in entity],
                values=[ValueData(key=k, value=v) for k, v in sorted(values.items())],
            )
            for entity, values in found
        ],
    )
