"""Which operation on which resource each API checks, as Apache Kafka 4.x's KafkaApis does.

``API_ACLS[api_key]`` is the tuple of :class:`Check` rows a handler performs,
in order. ``on`` names what in the request the resource is (``cluster`` is the
one resource ``kafka-cluster``); ``error`` is what a denied check answers with,
where the API has a field for it; ``when`` qualifies rows that only apply in
some cases; rows with the same ``any_of`` group are alternatives: one allowed
suffices. An empty tuple means the API needs no ACL (ApiVersions, the SASL APIs).

A handler asks::

    for check in checks_for(ApiKey.SHARE_FETCH):
        ...  # authorizer.authorize(principal, host, check.operation, check.resource, name)

Share groups follow KIP-932: READ on the GROUP and on each TOPIC for
ShareGroupHeartbeat (topics: DESCRIBE on the subscribed names), ShareFetch and
ShareAcknowledge; DESCRIBE on the GROUP (and topics) for ShareGroupDescribe and
DescribeShareGroupOffsets; READ on GROUP and TOPIC for AlterShareGroupOffsets;
DELETE on the GROUP (READ on topics) for DeleteShareGroupOffsets and
DeleteGroups; the share-state RPCs between brokers are CLUSTER_ACTION.
"""

from __future__ import annotations

from dataclasses import dataclass

from broker.protocol.api_keys import ApiKey
from broker.protocol.errors import ErrorCode
from broker.security.authorizer import AclOperation, ResourceType, authorization_error

__all__ = ["API_ACLS", "NO_ACL_APIS", "Check", "checks_for"]

_T, _G, _C, _X, _D, _U = (
    ResourceType.TOPIC,
    ResourceType.GROUP,
    ResourceType.CLUSTER,
    ResourceType.TRANSACTIONAL_ID,
    ResourceType.DELEGATION_TOKEN,
    ResourceType.USER,
)
_O = AclOperation


@dataclass(frozen=True, slots=True)
class Check:
    resource: ResourceType
    operation: AclOperation
    on: str  # the request field naming the resource; "cluster" for kafka-cluster
    when: str = ""  # a condition; empty: always
    any_of: str = ""  # rows sharing a non-empty label are alternatives

    @property
    def error(self) -> ErrorCode:
        if self.resource is ResourceType.USER:  # token owner checks (CreateDelegationToken)
            return ErrorCode.DELEGATION_TOKEN_AUTHORIZATION_FAILED
        return authorization_error(self.resource)


def _c(op: AclOperation, when: str = "", any_of: str = "") -> Check:
    return Check(_C, op, "cluster", when, any_of)


# Consumer (KIP-848) and share (KIP-932) groups check their heartbeat and describe alike.
_MODERN_GROUP_HEARTBEAT = (
    Check(_G, _O.READ, "group_id"),
    Check(_T, _O.DESCRIBE, "subscribed_topic_names[]", when="subscribed_topic_names is set"),
)
_MODERN_GROUP_DESCRIBE = (
    Check(_G, _O.DESCRIBE, "group_ids[]"),
    Check(_T, _O.DESCRIBE, "topics in the members' assignments"),
)

API_ACLS: dict[ApiKey, tuple[Check, ...]] = {
    ApiKey.PRODUCE: (
        Check(_X, _O.WRITE, "transactional_id", when="transactional_id is set"),
        Check(_T, _O.WRITE, "topic_data[].name"),
    ),
    ApiKey.FETCH: (
        _c(_O.CLUSTER_ACTION, when="replica_id >= 0 (a follower)"),
        Check(_T, _O.READ, "topics[].topic", when="a consumer"),
    ),
    ApiKey.LIST_OFFSETS: (Check(_T, _O.DESCRIBE, "topics[].name"),),
    ApiKey.METADATA: (
        Check(_T, _O.DESCRIBE, "topics[].name"),
        _c(_O.CREATE, when="auto-creating a missing topic", any_of="create"),
        Check(_T, _O.CREATE, "topics[].name", when="auto-creating a missing topic", any_of="create"),
        _c(_O.DESCRIBE, when="include_cluster_authorized_operations (then the bitfield)"),
    ),
    ApiKey.OFFSET_COMMIT: (Check(_G, _O.READ, "group_id"), Check(_T, _O.READ, "topics[].name")),
    ApiKey.OFFSET_FETCH: (Check(_G, _O.DESCRIBE, "groups[].group_id"), Check(_T, _O.DESCRIBE, "topics[].name")),
    ApiKey.FIND_COORDINATOR: (
        Check(_G, _O.DESCRIBE, "coordinator_keys[]", when="key_type GROUP (0)"),
        Check(_X, _O.DESCRIBE, "coordinator_keys[]", when="key_type TRANSACTION (1)"),
        _c(_O.CLUSTER_ACTION, when="key_type SHARE (2)"),
    ),
    ApiKey.JOIN_GROUP: (Check(_G, _O.READ, "group_id"),),
    ApiKey.HEARTBEAT: (Check(_G, _O.READ, "group_id"),),
    ApiKey.LEAVE_GROUP: (Check(_G, _O.READ, "group_id"),),
    ApiKey.SYNC_GROUP: (Check(_G, _O.READ, "group_id"),),
    ApiKey.DESCRIBE_GROUPS: (Check(_G, _O.DESCRIBE, "groups[]"),),
    ApiKey.LIST_GROUPS: (
        _c(_O.DESCRIBE, any_of="list"),
        Check(_G, _O.DESCRIBE, "each group listed", when="without DESCRIBE on the cluster", any_of="list"),
    ),
    ApiKey.SASL_HANDSHAKE: (),
    ApiKey.API_VERSIONS: (),
    ApiKey.CREATE_TOPICS: (
        _c(_O.CREATE, any_of="create"),
        Check(_T, _O.CREATE, "topics[].name", any_of="create"),
        Check(_T, _O.DESCRIBE_CONFIGS, "topics[].name", when="to return the configs"),
    ),
    ApiKey.DELETE_TOPICS: (
        Check(_T, _O.DESCRIBE, "topics[].topic_id", when="named by id"),
        Check(_T, _O.DELETE, "topics[].name"),
    ),
    ApiKey.DELETE_RECORDS: (Check(_T, _O.DELETE, "topics[].name"),),
    ApiKey.INIT_PRODUCER_ID: (
        Check(_X, _O.WRITE, "transactional_id", when="transactional_id is set"),
        _c(_O.IDEMPOTENT_WRITE, when="idempotent only", any_of="idempotent"),
        Check(_T, _O.WRITE, "any topic (authorize_by_resource_type)", when="idempotent only", any_of="idempotent"),
    ),
    ApiKey.OFFSET_FOR_LEADER_EPOCH: (
        _c(_O.CLUSTER_ACTION, any_of="epoch"),
        Check(_T, _O.DESCRIBE, "topics[].topic", any_of="epoch"),
    ),
    ApiKey.ADD_PARTITIONS_TO_TXN: (
        Check(_X, _O.WRITE, "transactional_id", when="v0-3 (clients)"),
        Check(_T, _O.WRITE, "topics[].name", when="v0-3 (clients)"),
        _c(_O.CLUSTER_ACTION, when="v4+ (brokers)"),
    ),
    ApiKey.ADD_OFFSETS_TO_TXN: (Check(_X, _O.WRITE, "transactional_id"), Check(_G, _O.READ, "group_id")),
    ApiKey.END_TXN: (Check(_X, _O.WRITE, "transactional_id"),),
    ApiKey.WRITE_TXN_MARKERS: (_c(_O.ALTER, any_of="markers"), _c(_O.CLUSTER_ACTION, any_of="markers")),
    ApiKey.TXN_OFFSET_COMMIT: (
        Check(_X, _O.WRITE, "transactional_id"),
        Check(_G, _O.READ, "group_id"),
        Check(_T, _O.READ, "topics[].name"),
    ),
    ApiKey.DESCRIBE_ACLS: (_c(_O.DESCRIBE),),
    ApiKey.CREATE_ACLS: (_c(_O.ALTER),),
    ApiKey.DELETE_ACLS: (_c(_O.ALTER),),
    ApiKey.DESCRIBE_CONFIGS: (
        _c(_O.DESCRIBE_CONFIGS, when="BROKER and BROKER_LOGGER resources"),
        Check(_T, _O.DESCRIBE_CONFIGS, "resources[].resource_name", when="TOPIC resources"),
        Check(_G, _O.DESCRIBE_CONFIGS, "resources[].resource_name", when="GROUP resources"),
    ),
    ApiKey.ALTER_CONFIGS: (
        _c(_O.ALTER_CONFIGS, when="BROKER and BROKER_LOGGER resources"),
        Check(_T, _O.ALTER_CONFIGS, "resources[].resource_name", when="TOPIC resources"),
    ),
    ApiKey.ALTER_REPLICA_LOG_DIRS: (_c(_O.ALTER),),
    ApiKey.DESCRIBE_LOG_DIRS: (_c(_O.DESCRIBE),),
    ApiKey.SASL_AUTHENTICATE: (),
    ApiKey.CREATE_PARTITIONS: (Check(_T, _O.ALTER, "topics[].name"),),
    ApiKey.CREATE_DELEGATION_TOKEN: (Check(_U, _O.CREATE_TOKENS, "owner", when="owner is not the requester"),),
    ApiKey.RENEW_DELEGATION_TOKEN: (),
    ApiKey.EXPIRE_DELEGATION_TOKEN: (),
    ApiKey.DESCRIBE_DELEGATION_TOKEN: (
        Check(_D, _O.DESCRIBE, "token id", any_of="token"),
        Check(_U, _O.DESCRIBE_TOKENS, "token owner", any_of="token"),
    ),
    ApiKey.DELETE_GROUPS: (Check(_G, _O.DELETE, "groups_names[]"),),
    ApiKey.ELECT_LEADERS: (_c(_O.ALTER),),
    ApiKey.INCREMENTAL_ALTER_CONFIGS: (
        _c(_O.ALTER_CONFIGS, when="BROKER and BROKER_LOGGER resources"),
        Check(_T, _O.ALTER_CONFIGS, "resources[].resource_name", when="TOPIC resources"),
        Check(_G, _O.ALTER_CONFIGS, "resources[].resource_name", when="GROUP resources"),
    ),
    ApiKey.ALTER_PARTITION_REASSIGNMENTS: (_c(_O.ALTER),),
    ApiKey.LIST_PARTITION_REASSIGNMENTS: (_c(_O.DESCRIBE),),
    ApiKey.OFFSET_DELETE: (Check(_G, _O.DELETE, "group_id"), Check(_T, _O.READ, "topics[].name")),
    ApiKey.DESCRIBE_CLIENT_QUOTAS: (_c(_O.DESCRIBE_CONFIGS),),
    ApiKey.ALTER_CLIENT_QUOTAS: (_c(_O.ALTER_CONFIGS),),
    ApiKey.DESCRIBE_USER_SCRAM_CREDENTIALS: (_c(_O.DESCRIBE),),
    ApiKey.ALTER_USER_SCRAM_CREDENTIALS: (_c(_O.ALTER),),
    ApiKey.UPDATE_FEATURES: (_c(_O.ALTER),),
    ApiKey.DESCRIBE_CLUSTER: (_c(_O.DESCRIBE, when="include_cluster_authorized_operations (then the bitfield)"),),
    ApiKey.DESCRIBE_PRODUCERS: (Check(_T, _O.READ, "topics[].name"),),
    ApiKey.DESCRIBE_TRANSACTIONS: (
        Check(_X, _O.DESCRIBE, "transactional_ids[]"),
        Check(_T, _O.DESCRIBE, "each topic in the transaction (others left out)"),
    ),
    ApiKey.LIST_TRANSACTIONS: (Check(_X, _O.DESCRIBE, "each transaction listed (others left out)"),),
    ApiKey.CONSUMER_GROUP_HEARTBEAT: _MODERN_GROUP_HEARTBEAT,
    ApiKey.CONSUMER_GROUP_DESCRIBE: _MODERN_GROUP_DESCRIBE,
    ApiKey.GET_TELEMETRY_SUBSCRIPTIONS: (),
    ApiKey.PUSH_TELEMETRY: (),
    ApiKey.LIST_CONFIG_RESOURCES: (_c(_O.DESCRIBE_CONFIGS),),
    ApiKey.DESCRIBE_TOPIC_PARTITIONS: (Check(_T, _O.DESCRIBE, "topics[].name"),),
    ApiKey.SHARE_GROUP_HEARTBEAT: _MODERN_GROUP_HEARTBEAT,
    ApiKey.SHARE_GROUP_DESCRIBE: _MODERN_GROUP_DESCRIBE,
    ApiKey.SHARE_FETCH: (Check(_G, _O.READ, "group_id"), Check(_T, _O.READ, "topics[].topic_id")),
    ApiKey.SHARE_ACKNOWLEDGE: (Check(_G, _O.READ, "group_id"), Check(_T, _O.READ, "topics[].topic_id")),
    ApiKey.INITIALIZE_SHARE_GROUP_STATE: (_c(_O.CLUSTER_ACTION),),
    ApiKey.READ_SHARE_GROUP_STATE: (_c(_O.CLUSTER_ACTION),),
    ApiKey.WRITE_SHARE_GROUP_STATE: (_c(_O.CLUSTER_ACTION),),
    ApiKey.DELETE_SHARE_GROUP_STATE: (_c(_O.CLUSTER_ACTION),),
    ApiKey.READ_SHARE_GROUP_STATE_SUMMARY: (_c(_O.CLUSTER_ACTION),),
    ApiKey.STREAMS_GROUP_HEARTBEAT: (
        Check(_G, _O.READ, "group_id"),
        Check(_T, _O.DESCRIBE, "topology source and internal topics"),
        _c(_O.CREATE, when="internal topics to create", any_of="internal"),
        Check(_T, _O.CREATE, "internal topics to create", when="internal topics to create", any_of="internal"),
    ),
    ApiKey.STREAMS_GROUP_DESCRIBE: (
        Check(_G, _O.DESCRIBE, "group_ids[]"),
        Check(_T, _O.DESCRIBE, "topics of the group's topology"),
    ),
    # A member of the group reports its topology's description: it acts as the member.
    ApiKey.STREAMS_GROUP_TOPOLOGY_DESCRIPTION_UPDATE: (Check(_G, _O.READ, "group_id"),),
    ApiKey.DESCRIBE_SHARE_GROUP_OFFSETS: (
        Check(_G, _O.DESCRIBE, "groups[].group_id"),
        Check(_T, _O.DESCRIBE, "groups[].topics[].topic_name"),
    ),
    ApiKey.ALTER_SHARE_GROUP_OFFSETS: (Check(_G, _O.READ, "group_id"), Check(_T, _O.READ, "topics[].topic_name")),
    ApiKey.DELETE_SHARE_GROUP_OFFSETS: (
        Check(_G, _O.DELETE, "group_id"),
        Check(_T, _O.READ, "topics[].topic_name"),
    ),
}

# APIs a client may call with no ACL at all.
NO_ACL_APIS = frozenset(k for k, v in API_ACLS.items() if not v)

# Broker-to-controller and KRaft APIs this broker does not serve to clients: not in the table.
NOT_CLIENT_FACING = frozenset(
    {
        ApiKey.LEADER_AND_ISR,
        ApiKey.STOP_REPLICA,
        ApiKey.UPDATE_METADATA,
        ApiKey.CONTROLLED_SHUTDOWN,
        ApiKey.VOTE,
        ApiKey.BEGIN_QUORUM_EPOCH,
        ApiKey.END_QUORUM_EPOCH,
        ApiKey.DESCRIBE_QUORUM,
        ApiKey.ALTER_PARTITION,
        ApiKey.ENVELOPE,
        ApiKey.FETCH_SNAPSHOT,
        ApiKey.BROKER_REGISTRATION,
        ApiKey.BROKER_HEARTBEAT,
        ApiKey.UNREGISTER_BROKER,
        ApiKey.ALLOCATE_PRODUCER_IDS,
        ApiKey.CONTROLLER_REGISTRATION,
        ApiKey.ASSIGN_REPLICAS_TO_DIRS,
        ApiKey.ADD_RAFT_VOTER,
        ApiKey.REMOVE_RAFT_VOTER,
        ApiKey.UPDATE_RAFT_VOTER,
        ApiKey.UNREGISTER_CONTROLLER,
    }
)


def checks_for(api_key: int) -> tuple[Check, ...]:
    """The checks of ``api_key``; KeyError for an API not in the table."""
    return API_ACLS[ApiKey(api_key)]
