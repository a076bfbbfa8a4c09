"""AlterUserScramCredentials (key 51), v0.

Deletes and upserts SCRAM-SHA-256/512 credentials. An upsertion carries the salt,
the iteration count and the salted password; the broker keeps only StoredKey and
ServerKey derived from it (never a password). Validation and messages are
Kafka's controller's (empty user, unknown mechanism, 4096..16384 iterations, the
same user twice in one request, deleting what does not exist). The change is
durable (data directory, or etcd in a cluster, followed by every broker) before
the answer, and applies to new authentications at once. Needs ALTER on the cluster.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._security import security_store
from broker.handlers.context import RequestContext
from broker.protocol.messages.alter_user_scram_credentials_request import AlterUserScramCredentialsRequest
from broker.protocol.messages.alter_user_scram_credentials_response import (
    AlterUserScramCredentialsResponse,
    AlterUserScramCredentialsResult,
)
from broker.security.scram import ScramCredentialDeletion, ScramCredentialUpsertion


@handler(51, min_version=0, max_version=0)
async def handle(ctx: RequestContext, req: AlterUserScramCredentialsRequest) -> AlterUserScramCredentialsResponse:
    store = security_store(ctx)
    results = await store.alter_scram(
        [ScramCredentialDeletion(d.name, d.mechanism) for d in req.deletions],
        [
            ScramCredentialUpsertion(u.name, u.mechanism, u.iterations, bytes(u.salt), bytes(u.salted_password))
            for u in req.upsertions
        ],
    )
    return AlterUserScramCredentialsResponse(
        results=[
            AlterUserScramCredentialsResult(user=r.user, error_code=r.error_code, error_message=r.error_message)
            for r in results
        ]
    )
