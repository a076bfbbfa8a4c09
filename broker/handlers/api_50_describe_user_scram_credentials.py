"""DescribeUserScramCredentials (key 50), v0.

The SCRAM credentials (mechanism and iterations, never keys) of the named users,
or of every user when none is named. A user named twice gets DUPLICATE_RESOURCE,
an unknown one RESOURCE_NOT_FOUND, with Kafka's messages. Needs DESCRIBE on the
cluster. Credentials are the cluster's (etcd) in a cluster, the data directory's
on a single broker.
"""

from __future__ import annotations

from broker.handlers import handler
from broker.handlers._security import security_store
from broker.handlers.context import RequestContext
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.describe_user_scram_credentials_request import DescribeUserScramCredentialsRequest
from broker.protocol.messages.describe_user_scram_credentials_response import (
    CredentialInfo,
    DescribeUserScramCredentialsResponse,
    DescribeUserScramCredentialsResult,
)


@handler(50, min_version=0, max_version=0)
async def handle(ctx: RequestContext, req: DescribeUserScramCredentialsRequest) -> DescribeUserScramCredentialsResponse:
    store = security_store(ctx)
    users = None if not req.users else [u.name for u in req.users]
    results = [
        DescribeUserScramCredentialsResult(
            user=r.user,
            error_code=r.error_code,
            error_message=r.error_message,
            credential_infos=[
                CredentialInfo(mechanism=c.mechanism, iterations=c.iterations) for c in r.credential_infos
            ],
        )
        for r in store.describe_scram(users)
    ]
    return DescribeUserScramCredentialsResponse(error_code=ErrorCode.NONE, error_message=None, results=results)
