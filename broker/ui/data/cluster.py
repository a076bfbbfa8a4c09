"""The cluster page: brokers, controller, cluster id, finalized features, counts.

Requests per refresh: ApiVersions (once per connection), DescribeCluster, ListGroups
to every broker, and DescribeConfigs of the ``listeners`` and ``advertised.listeners``
of each broker, sent to that broker (Kafka answers a broker's own configs only there):
2 + 2 x brokers. Topic and partition counts come from the topic list the console
samples anyway (:meth:`broker.ui.gateway.Gateway.latest`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from broker.admin.client import RESOURCE_BROKER, AdminClient, AdminError, Node
from broker.protocol.api_keys import ApiKey
from broker.ui.data import Unavailable
from broker.ui.data.topics import TopicRow

# APIs the console uses where a cluster serves them, with what they give (the cluster page
# says which are there: a plain Kafka 4.4 cluster lacks none of these, older ones may).
OPTIONAL_APIS: tuple[tuple[int, str], ...] = (
    (ApiKey.DESCRIBE_LOG_DIRS, "topic sizes on disk"),
    (ApiKey.SHARE_GROUP_DESCRIBE, "share group members"),
    (ApiKey.DESCRIBE_SHARE_GROUP_OFFSETS, "share group start offsets and lag"),
    (ApiKey.READ_SHARE_GROUP_STATE, "share-partition state batches (in-flight map)"),
    (ApiKey.STREAMS_GROUP_DESCRIBE, "streams groups"),
    (ApiKey.CONSUMER_GROUP_DESCRIBE, "consumer groups (KIP-848)"),
    (ApiKey.LIST_TRANSACTIONS, "transactions"),
    (ApiKey.DESCRIBE_USER_SCRAM_CREDENTIALS, "SCRAM users"),
)


@dataclass(slots=True)
class BrokerRow:
    node_id: int
    host: str
    port: int
    rack: str | None
    fenced: bool
    listeners: str | Unavailable
    advertised: str | Unavailable


@dataclass(slots=True)
class ClusterView:
    cluster_id: str | None
    controller_id: int
    brokers: list[BrokerRow]
    features: dict[str, int]
    topics: int
    internal_topics: int
    partitions: int
    groups_by_type: dict[str, int]
    apis: list[tuple[str, str, bool]] = field(default_factory=list)


def api_versions(admin: AdminClient) -> dict[int, tuple[int, int]]:
    return admin.api_versions()


def features(admin: AdminClient) -> dict[str, int]:
    return dict(admin.bootstrap_connection().finalized_features)


def _broker_listeners(admin: AdminClient, node: Node) -> tuple[str | Unavailable, str | Unavailable]:
    from broker.protocol.messages.describe_configs_request import DescribeConfigsRequest, DescribeConfigsResource

    req = DescribeConfigsRequest(
        resources=[
            DescribeConfigsResource(
                resource_type=RESOURCE_BROKER,
                resource_name=str(node.node_id),
                configuration_keys=["listeners", "advertised.listeners"],
            )
        ]
    )
    try:
        resp = admin.send(req, node=node)
    except AdminError as exc:
        reason = Unavailable(f"DescribeConfigs on broker {node.node_id}: {exc}")
        return reason, reason
    values: dict[str, str | Unavailable] = {}
    for r in resp.results:
        if r.error_code:
            from broker.admin.client import error_name

            reason = Unavailable(f"DescribeConfigs: {error_name(r.error_code)} {r.error_message or ''}".strip())
            return reason, reason
        for c in r.configs:
            values[c.name] = c.value or "(unset)"
    none = Unavailable("not reported by the broker")
    return values.get("listeners", none), values.get("advertised.listeners", none)


def cluster_view(admin: AdminClient, topics: list[TopicRow]) -> ClusterView:
    versions = admin.api_versions()
    desc = admin.describe_cluster()
    brokers = []
    for b in sorted(desc.brokers, key=lambda b: b.broker_id):
        listeners, advertised = _broker_listeners(admin, Node(b.broker_id, b.host, b.port))
        brokers.append(
            BrokerRow(b.broker_id, b.host, b.port, b.rack, bool(getattr(b, "is_fenced", False)), listeners, advertised)
        )
    groups = admin.list_groups()
    by_type = Counter((g.group_type or g.protocol_type or "classic").lower() for g in groups)
    topics = [t for t in topics if not t.error]
    apis = [(ApiKey(k).name, what, k in versions) for k, what in OPTIONAL_APIS]
    return ClusterView(
        cluster_id=desc.cluster_id,
        controller_id=desc.controller_id,
        brokers=brokers,
        features=features(admin),
        topics=sum(1 for t in topics if not t.internal),
        internal_topics=sum(1 for t in topics if t.internal),
        partitions=sum(len(t.partitions) for t in topics),
        groups_by_type=dict(sorted(by_type.items())),
        apis=apis,
    )
