"""AlterClientQuotas (key 49), v0-1.

Sets and removes quota keys of user, client-id (either may be the type's default)
and ip entities, with Kafka's validation (entity types, combinations, keys,
positive values: INVALID_REQUEST per entry). Stored durably (data directory, or
etcd in a cluster) before the answer; producer_byte_rate and consumer_byte_rate
throttle Produce and Fetch at once. ``validate_only`` checks without storing.
Needs ALTER_CONFIGS on the cluster.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._security import security_store
from broker.handlers.context import RequestContext
from broker.protocol.messages.alter_client_quotas_request import AlterClientQuotasRequest
from broker.protocol.messages.alter_client_quotas_response import AlterClientQuotasResponse, EntityData, EntryData
from broker.security.quotas import AlterEntry


@handler(49, min_version=0, max_version=1)
async def handle(ctx: RequestContext, req: AlterClientQuotasRequest) -> AlterClientQuotasResponse:
    store = security_store(ctx)
    entries = [
        AlterEntry(
            [(e.entity_type, e.entity_name) for e in entry.entity],
            [(op.key, op.value, op.remove) for op in entry.ops],
        )
        for entry in req.entries
    ]
    results = await store.alter_client_quotas(entries, req.validate_only)
    return AlterClientQuotasResponse(
        entries=[
            EntryData(
                error_code=code,
                error_message=message,
                entity=[EntityData(entity_type=e.entity_type, entity_name=e.entity_name) for e in entry.entity],
            )
            for entry, (code, message) in zip(req.entries, results)
        ]
    )
