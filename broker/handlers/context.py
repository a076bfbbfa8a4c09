"""What a handler sees of the world: the services, the connection, the request."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from broker.protocol.auth import ANONYMOUS, KafkaPrincipal
from broker.protocol.messages import RequestHeader

if TYPE_CHECKING:
    from broker.config import LiveConfig
    from broker.group.coordinator import GroupCoordinator
    from broker.group.share_offsets import ShareOffsetsDeps
    from broker.lifecycle import Lifecycle
    from broker.log.commit import GroupCommitter
    from broker.log.manager import LogManager
    from broker.metadata.client_metrics import ClientMetricsStore
    from broker.metadata.cluster import ClusterMetadata, ClusterProducerIds
    from broker.metadata.features import FeatureStore
    from broker.metadata.group_configs import GroupConfigStore
    from broker.metadata.local import SingleNodeMetadata
    from broker.metadata.producer_ids import ProducerIdAllocator
    from broker.metadata.streams_topologies import StreamsTopologyStore
    from broker.metrics import Metrics
    from broker.replica.fetch_sessions import FetchSessionCache
    from broker.replica.interbroker import BrokerPeers
    from broker.replica.manager import ReplicaManager
    from broker.security.store import SecurityStore
    from broker.share.manager import SharePartitionManager
    from broker.share.state_store import ShareStateStore
    from broker.telemetry import ClientTelemetry
    from broker.txn.coordinator import TransactionCoordinator


@dataclass(eq=False)
class Services:
    """Everything a request handler may use (built by :func:`broker.server.app.build`).

    The handlers' equivalent of Kafka's ``KafkaApis`` fields. Only handlers and
    the server hold this bundle; every service in it receives its own narrow
    dependencies instead.
    """

    config: LiveConfig
    lifecycle: Lifecycle
    metrics: Metrics
    logs: LogManager
    committer: GroupCommitter
    metadata: SingleNodeMetadata | ClusterMetadata
    replicas: ReplicaManager
    group_configs: GroupConfigStore
    producer_ids: ProducerIdAllocator | ClusterProducerIds
    share_state: ShareStateStore
    share: SharePartitionManager
    groups: GroupCoordinator
    transactions: TransactionCoordinator
    fetch_sessions: FetchSessionCache
    share_offsets: ShareOffsetsDeps
    node_id: int
    cluster_id: str
    started_ms: int
    clock: Callable[[], int]
    # In a cluster: connections to the other brokers (inter-broker listener).
    peers: BrokerPeers | None = None
    # ACLs (and the authorizer deciding from them) and SCRAM credentials.
    security: SecurityStore | None = None
    # The finalized features (ApiVersions, UpdateFeatures); None only in tests built by hand.
    features: FeatureStore | None = None
    # Client metrics subscriptions (KIP-714, the CLIENT_METRICS config resource).
    client_metrics: ClientMetricsStore | None = None
    # What clients push with PushTelemetry (KIP-714), shown on /metrics.
    telemetry: ClientTelemetry | None = None
    # Topology descriptions of streams groups (KIP-1331).
    streams_topologies: StreamsTopologyStore | None = None

    def now_ms(self) -> int:
        return self.clock()


@dataclass(slots=True)
class ConnectionState:
    """Per-connection state handlers may hang things on.

    ``on_close`` callbacks run once when the connection ends, however it ends
    (share sessions use this to release a member's acquired records).
    ``listener`` names the listener the client connected to: Metadata and
    FindCoordinator answer with that listener's endpoints. ``principal`` is who the
    client authenticated as (``User:ANONYMOUS`` on PLAINTEXT) and ``host`` its
    address, as ACLs name them; ``throttled_until`` (trio time) mutes the connection
    after a response that carried a quota throttle time. ``setting`` reads the
    broker's configuration (for requests answered before the services exist).
    """

    connection_id: int
    peer: str
    client_id: str | None = None
    client_software_name: str | None = None
    client_software_version: str | None = None
    on_close: list[Callable[[], None]] = field(default_factory=list)
    listener: str | None = None
    # The listener's security protocol (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL): delegation
    # tokens are refused on PLAINTEXT and on SSL without a client certificate.
    security_protocol: str = "PLAINTEXT"
    principal: KafkaPrincipal = ANONYMOUS
    host: str = ""
    throttled_until: float = 0.0
    # The broker's settings, for what is answered before the services exist
    # (ApiVersions during start-up).
    setting: Callable[[str], Any] | None = None


@dataclass(slots=True)
class RequestContext:
    services: Services
    connection: ConnectionState
    header: RequestHeader
    api_version: int

    @property
    def client_id(self) -> str | None:
        return self.header.client_id


class AnswerLater:
    """What a handler returns when its work is done and only the answer waits
    (Produce with acks=all waiting for durability): ``wait()`` returns the response.
    The connection reads and handles the next requests meanwhile and still sends the
    answers in request order."""

    __slots__ = ("wait",)

    def __init__(self, wait: Callable[[], Awaitable[Any]]) -> None:
        self.wait = wait
