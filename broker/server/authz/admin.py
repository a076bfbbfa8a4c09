"""Rules of the admin APIs: configs (DESCRIBE_CONFIGS / ALTER_CONFIGS on the TOPIC, GROUP or
cluster each resource is), ACLs, SCRAM credentials, quotas, reassignments, log dirs,
features and leader elections (an operation on the CLUSTER), DescribeCluster (its
authorized operations) and the delegation token APIs (checked in their handlers)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Protocol, TypeVar

from broker.protocol.errors import ErrorCode
from broker.protocol.message_base import Message
from broker.protocol.messages.alter_client_quotas_request import AlterClientQuotasRequest
from broker.protocol.messages.alter_configs_request import AlterConfigsRequest
from broker.protocol.messages.alter_configs_response import AlterConfigsResponse
from broker.protocol.messages.alter_partition_reassignments_request import AlterPartitionReassignmentsRequest
from broker.protocol.messages.alter_replica_log_dirs_request import AlterReplicaLogDirsRequest
from broker.protocol.messages.alter_replica_log_dirs_response import (
    AlterReplicaLogDirPartitionResult,
    AlterReplicaLogDirsResponse,
    AlterReplicaLogDirTopicResult,
)
from broker.protocol.messages.alter_user_scram_credentials_request import AlterUserScramCredentialsRequest
from broker.protocol.messages.alter_user_scram_credentials_response import (
    AlterUserScramCredentialsResponse,
    AlterUserScramCredentialsResult,
)
from broker.protocol.messages.create_acls_request import CreateAclsRequest
from broker.protocol.messages.create_acls_response import AclCreationResult, CreateAclsResponse
from broker.protocol.messages.create_delegation_token_request import CreateDelegationTokenRequest
from broker.protocol.messages.delete_acls_request import DeleteAclsRequest
from broker.protocol.messages.delete_acls_response import DeleteAclsFilterResult, DeleteAclsResponse
from broker.protocol.messages.describe_acls_request import DescribeAclsRequest
from broker.protocol.messages.describe_client_quotas_request import DescribeClientQuotasRequest
from broker.protocol.messages.describe_cluster_request import DescribeClusterRequest
from broker.protocol.messages.describe_cluster_response import DescribeClusterResponse
from broker.protocol.messages.describe_configs_request import DescribeConfigsRequest
from broker.protocol.messages.describe_configs_response import DescribeConfigsResponse
from broker.protocol.messages.describe_delegation_token_request import DescribeDelegationTokenRequest
from broker.protocol.messages.describe_log_dirs_request import DescribeLogDirsRequest
from broker.protocol.messages.describe_user_scram_credentials_request import DescribeUserScramCredentialsRequest
from broker.protocol.messages.elect_leaders_request import ElectLeadersRequest
from broker.protocol.messages.expire_delegation_token_request import ExpireDelegationTokenRequest
from broker.protocol.messages.incremental_alter_configs_request import IncrementalAlterConfigsRequest
from broker.protocol.messages.incremental_alter_configs_response import IncrementalAlterConfigsResponse
from broker.protocol.messages.list_config_resources_request import ListConfigResourcesRequest
from broker.protocol.messages.list_partition_reassignments_request import ListPartitionReassignmentsRequest
from broker.protocol.messages.renew_delegation_token_request import RenewDelegationTokenRequest
from broker.protocol.messages.update_features_request import UpdateFeaturesRequest
from broker.security.authorizer import CLUSTER_NAME, AclOperation, ResourceType
from broker.server.authz.core import (
    CLUSTER_DENIED,
    GROUP_DENIED,
    TOPIC_DENIED,
    Check,
    Entities,
    Keyed,
    Plan,
    cluster_rule,
    entities,
    per_entity,
    register,
    rule,
)

_O = AclOperation
_T, _G, _C = ResourceType.TOPIC, ResourceType.GROUP, ResourceType.CLUSTER
# Config resource types (DescribeConfigs, AlterConfigs, IncrementalAlterConfigs).
_RT_TOPIC, _RT_BROKER, _RT_BROKER_LOGGER, _RT_CLIENT_METRICS, _RT_GROUP = 2, 4, 8, 16, 32

DESCRIBE_CONFIGS = entities(DescribeConfigsRequest, lambda q: q.resources).answered(
    DescribeConfigsResponse, lambda q, rs: replace(q, resources=rs), lambda r: r.results
)
ALTER_CONFIGS = entities(AlterConfigsRequest, lambda q: q.resources).answered(
    AlterConfigsResponse, lambda q, rs: replace(q, resources=rs), lambda r: r.responses
)
INCREMENTAL_ALTER_CONFIGS = entities(IncrementalAlterConfigsRequest, lambda q: q.resources).answered(
    IncrementalAlterConfigsResponse, lambda q, rs: replace(q, resources=rs), lambda r: r.responses
)

register(DescribeAclsRequest, cluster_rule(_O.DESCRIBE))
register(DescribeUserScramCredentialsRequest, cluster_rule(_O.DESCRIBE))
register(DescribeClientQuotasRequest, cluster_rule(_O.DESCRIBE_CONFIGS))
register(AlterClientQuotasRequest, cluster_rule(_O.ALTER_CONFIGS))
register(ElectLeadersRequest, cluster_rule(_O.ALTER))
register(AlterPartitionReassignmentsRequest, cluster_rule(_O.ALTER))
register(ListPartitionReassignmentsRequest, cluster_rule(_O.DESCRIBE))
register(DescribeLogDirsRequest, cluster_rule(_O.DESCRIBE))
register(UpdateFeaturesRequest, cluster_rule(_O.ALTER))
register(ListConfigResourcesRequest, cluster_rule(_O.DESCRIBE_CONFIGS))

# The answers of these APIs carry no identifying field: a refused request gets one result
# per entry of the request, in order.
_CLUSTER_DENIED_TEXT = ErrorCode(CLUSTER_DENIED).message


def _alter_or(c: Check, body: Keyed, refused: Callable[[], Message]) -> Plan:
    """ALTER on the cluster, or ``refused()`` answers without the handler."""
    return Plan(request=body) if c.cluster(_O.ALTER) else Plan(response=refused())


@rule(CreateAclsRequest)
def _create_acls(c: Check, body: CreateAclsRequest) -> Plan:
    result = AclCreationResult(error_code=CLUSTER_DENIED, error_message=_CLUSTER_DENIED_TEXT)
    return _alter_or(c, body, lambda: CreateAclsResponse(results=[replace(result) for _ in body.creations]))


@rule(DeleteAclsRequest)
def _delete_acls(c: Check, body: DeleteAclsRequest) -> Plan:
    result = DeleteAclsFilterResult(error_code=CLUSTER_DENIED, error_message=_CLUSTER_DENIED_TEXT)
    return _alter_or(c, body, lambda: DeleteAclsResponse(filter_results=[replace(result) for _ in body.filters]))


@rule(AlterUserScramCredentialsRequest)
def _alter_user_scram_credentials(c: Check, body: AlterUserScramCredentialsRequest) -> Plan:
    """Refused, one result per user named (deletions, then upsertions)."""
    users = dict.fromkeys([d.name for d in body.deletions] + [u.name for u in body.upsertions])
    return _alter_or(
        c,
        body,
        lambda: AlterUserScramCredentialsResponse(
            results=[
                AlterUserScramCredentialsResult(user=u, error_code=CLUSTER_DENIED, error_message=None) for u in users
            ]
        ),
    )


@rule(AlterReplicaLogDirsRequest)
def _alter_replica_log_dirs(c: Check, body: AlterReplicaLogDirsRequest) -> Plan:
    """ALTER on the cluster; refused, every partition named gets CLUSTER_AUTHORIZATION_FAILED."""
    if c.cluster(_O.ALTER):
        return Plan(request=body)
    topics: dict[str, dict[int, None]] = {}
    for d in body.dirs:
        for t in d.topics:
            topics.setdefault(t.name, {}).update(dict.fromkeys(t.partitions))
    results = [
        AlterReplicaLogDirTopicResult(
            topic_name=name,
            partitions=[AlterReplicaLogDirPartitionResult(partition_index=p, error_code=CLUSTER_DENIED) for p in parts],
        )
        for name, parts in topics.items()
    ]
    return Plan(response=AlterReplicaLogDirsResponse(results=results))


def _handler_checks(c: Check, body: Keyed) -> Plan:
    """As in Kafka, the token handlers check inside (broker.handlers._tokens): CREATE_TOKENS on
    the owner's User resource, ownership for renew and expire, and per token DESCRIBE on the
    DelegationToken or DESCRIBE_TOKENS on the owner's User for describe."""
    return Plan(request=body)


register(CreateDelegationTokenRequest, _handler_checks)
register(RenewDelegationTokenRequest, _handler_checks)
register(ExpireDelegationTokenRequest, _handler_checks)
register(DescribeDelegationTokenRequest, _handler_checks)


@rule(DescribeClusterRequest)
def _describe_cluster(c: Check, body: DescribeClusterRequest) -> Plan:
    """Open to every principal (as Kafka); the authorized operations need DESCRIBE on the cluster."""
    if not body.include_cluster_authorized_operations:
        return Plan(request=body)
    ops = c.ops(_C, CLUSTER_NAME) if c.cluster(_O.DESCRIBE) else 0

    def fill(resp: DescribeClusterResponse) -> DescribeClusterResponse:
        resp.cluster_authorized_operations = ops
        return resp

    return Plan(request=body, after=fill)


# --------------------------------------------------------------------------- configs


class _ConfigResource(Protocol):
    @property
    def resource_type(self) -> int: ...
    @property
    def resource_name(self) -> str: ...


_R = TypeVar("_R", bound=_ConfigResource)
Q = TypeVar("Q", bound=Keyed)
R = TypeVar("R", bound=Message)
A = TypeVar("A")


def _configs_rule(where: Entities[Q, _R, R, A], op: AclOperation) -> Callable[[Check, Q], Plan]:
    """``op`` on the cluster for broker, broker-logger and client-metrics resources, on the
    topic or group for the others; unknown resource types are the handler's to answer."""

    def check(c: Check, body: Q) -> Plan:
        def verdict(r: _ConfigResource) -> int | None:
            if r.resource_type in (_RT_BROKER, _RT_BROKER_LOGGER, _RT_CLIENT_METRICS):
                return None if c.cluster(op) else CLUSTER_DENIED
            if r.resource_type == _RT_TOPIC:
                return None if c.ok(op, _T, r.resource_name) else TOPIC_DENIED
            if r.resource_type == _RT_GROUP:
                return None if c.ok(op, _G, r.resource_name) else GROUP_DENIED
            return None

        return per_entity(c, body, where, verdict)

    return check


register(DescribeConfigsRequest, _configs_rule(DESCRIBE_CONFIGS, _O.DESCRIBE_CONFIGS))
register(AlterConfigsRequest, _configs_rule(ALTER_CONFIGS, _O.ALTER_CONFIGS))
register(IncrementalAlterConfigsRequest, _configs_rule(INCREMENTAL_ALTER_CONFIGS, _O.ALTER_CONFIGS))
