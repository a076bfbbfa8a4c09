"""The composition root: every service of a broker, built leaf-first in one place.

Each service receives the few things it uses (typed, through its constructor),
never the whole broker. What the handlers see is the :class:`Services` bundle
(their equivalent of Kafka's ``KafkaApis`` fields); nothing below the handlers
holds it. :func:`build` opens nothing on disk that it does not need to read the
settings; :func:`open_services` recovers the logs, :func:`run_background` starts
every background loop in the server's nursery, and :func:`load_coordinators`
loads the coordinators of the partitions this broker leads.
"""

from __future__ import annotations

import gc
import importlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import structlog
import trio

from broker.config import BrokerConfig, LiveConfig
from broker.config.services import (
    CoordinatorTopicSettings,
    ReplicaFetchSettings,
    ServerSettings,
    ShareManagerSettings,
    ShareStateSettings,
    TxnSettings,
)
from broker.group.coordinator import GroupCoordinator
from broker.group.share_offsets import ShareOffsetsDeps
from broker.handlers.context import Services
from broker.lifecycle import Lifecycle
from broker.log.commit import GroupCommitter
from broker.log.manager import LogManager
from broker.log.meta import MetaPropertiesError, load_or_create_meta
from broker.metadata.client_metrics import ClientMetricsStore
from broker.metadata.cluster import ClusterMetadata, ClusterProducerIds
from broker.metadata.features import FeatureStore
from broker.metadata.group_configs import GroupConfigStore
from broker.metadata.image import Endpoint, MetadataImage
from broker.metadata.local import SingleNodeMetadata
from broker.metadata.producer_ids import ProducerIdAllocator
from broker.metadata.streams_topologies import StreamsTopologyStore
from broker.metrics import Metrics
from broker.replica.fetch_sessions import FetchSessionCache
from broker.replica.fetcher import ReplicaFetcherManager
from broker.replica.interbroker import BrokerPeers
from broker.replica.manager import ReplicaManager
from broker.security.store import SecurityStore
from broker.security.tokens import TokenSettings
from broker.share.manager import SharePartitionManager
from broker.share.remote import RoutedPersister
from broker.share.state_store import ShareStateStore
from broker.telemetry import ClientTelemetry
from broker.txn.coordinator import TransactionCoordinator

__all__ = [
    "bind",
    "build",
    "close_services",
    "controlled_shutdown",
    "load_coordinators",
    "open_services",
    "run_background",
    "run_security",
]

log = structlog.get_logger("sharebroker.broker")


# How long a clean stop of a cluster member waits for its leaderships to move away:
# docker stop and the test harness give a process 10 s before SIGKILL, and closing the
# logs needs the rest.
CONTROLLED_SHUTDOWN_TIMEOUT_S = 5.0


def wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


async def controlled_shutdown(services: Services) -> None:
    """Before a cluster member stops: move its leaderships to other in-sync replicas and
    leave the ISRs (controlled.shutdown.enable), so producers lose no time waiting for it."""
    metadata = services.metadata
    if isinstance(metadata, ClusterMetadata) and services.config.get("controlled.shutdown.enable"):
        await metadata.controlled_shutdown(CONTROLLED_SHUTDOWN_TIMEOUT_S)


# Python's cyclic garbage collector walks every tracked object at each full collection
# (~0.3 s per million objects here), and one runs each time the long-lived objects grow
# by a quarter. A broker holding 30,000 partitions holds ~3 million of them, made in a
# few bursts (opening the logs, the first metadata image, creating topics). After such a
# burst they are frozen (gc.freeze: out of every future collection), so the collector
# walks what was made since. What is frozen is still freed by reference counting.
FREEZE_AFTER_PARTITIONS = 5_000


def freeze_long_lived() -> None:
    gc.freeze()


def freeze_after_big_changes(old: MetadataImage, new: MetadataImage) -> None:
    """An image listener: freeze the heap after a change of many partitions."""
    if new.changed is None:
        changed = sum(len(t.partitions) for t in new.topics.values())
    else:
        changed = sum(len(t.partitions) for name in new.changed if (t := new.topic(name)) is not None)
    if changed >= FREEZE_AFTER_PARTITIONS:
        freeze_long_lived()


def open_services(services: Services) -> None:
    """Recover the logs (blocking: run it in a worker thread) and publish the catalog."""
    services.logs.open()
    if services.features is not None:
        services.features.load()
    if services.client_metrics is not None:
        services.client_metrics.load()
    if services.streams_topologies is not None:
        services.streams_topologies.load()
    services.metadata.refresh()
    if services.security is not None:
        services.security.load()
        if services.security.authorizer is not None:
            importlib.import_module("broker.server.authz")  # its rules, off the first request's path
    freeze_long_lived()


async def load_coordinators(services: Services) -> None:
    """Rebuild the coordinators' state from their internal topics (then the other logs a
    clean start deferred open in the background)."""
    await services.groups.load()
    await services.share_state.load()
    await services.transactions.load()
    # The logs a clean start left closed, but for the internal topics' (queued at once:
    # the loads above read them), open in the background from now on.
    services.logs.open_rest_soon()


def close_services(services: Services) -> None:
    services.logs.close()


def bind(services: Services, ports: int | dict[str, int]) -> None:
    """The listeners are bound ({listener name: port}, or one port for the first):
    record what clients are told to connect to, per listener."""
    services.config.update(services.config.current.with_bound_port(ports))
    current = services.config.current
    services.metadata.set_endpoints(
        Endpoint(lst.name, lst.host, lst.port, current.security_protocol(lst.name))
        for lst in current.advertised_listeners
    )


async def run_background(services: Services, nursery: trio.Nursery) -> None:
    """Start every background loop in ``nursery`` (returns once they are running).
    A cluster member first joins the cluster and has its first metadata image."""
    if isinstance(services.metadata, ClusterMetadata):
        await nursery.start(services.metadata.run)
        services.cluster_id = services.metadata.cluster_id
    if services.peers is not None:
        await nursery.start(services.peers.run)
    await nursery.start(services.committer.run)
    await nursery.start(services.replicas.run)
    await nursery.start(services.logs.run_maintenance)
    await nursery.start(services.share.run)
    await nursery.start(services.groups.run)
    await nursery.start(services.share_state.runtime.run)
    await nursery.start(services.transactions.run)
    security = services.security
    if security is not None and security.tokens.enabled:
        # Expired delegation tokens are removed by one broker: the controller in a cluster.
        metadata = services.metadata
        here = metadata.is_controller if isinstance(metadata, ClusterMetadata) else (lambda: True)
        await nursery.start(security.run_token_expiry, services.now_ms, here)


async def run_security(services: Services, runtime: Any, nursery: trio.Nursery) -> None:
    """TLS/SASL listeners: SCRAM answers from the credential and token stores; JWKS kept fresh."""
    from broker.server.security import run_jwks_refresh

    if services.security is not None:
        runtime.scram.lookup = services.security.scram_lookup
        runtime.tokens.lookup = services.security.token_lookup
    if runtime.jwks:
        await nursery.start(run_jwks_refresh, runtime)


def build(config: BrokerConfig, *, clock: Any = wall_clock_ms, lifecycle: Lifecycle | None = None) -> Services:
    """Every service for ``config``, leaf-first. Raises SystemExit with one clear line
    when the data directory belongs to another node."""
    live = LiveConfig(config)
    node_id = config.node_id
    data_dir = config.log_dir
    data_dir.mkdir(parents=True, exist_ok=True)
    cluster_id = _cluster_id(config, data_dir)
    lifecycle = lifecycle or Lifecycle()
    metrics = Metrics()
    logs = LogManager.from_config(config.log_dirs, config)
    committer = GroupCommitter.from_config(config, logs=logs.logs)
    # An fsync that fails takes its log directory offline (Kafka's log.dir.failure).
    committer.on_storage_error = logs.fail_log
    committer.on_round = metrics.observe_log_flush
    group_configs = GroupConfigStore(data_dir, config)
    metadata, producer_ids = _metadata(config, live, logs, group_configs, cluster_id)
    shared = metadata if isinstance(metadata, ClusterMetadata) else None
    security, features, client_metrics = _cluster_stores(config, live.get, shared)
    # What reads share.version and transaction.version follows the finalized levels.
    live.set_overlay(features.overlay)
    features.listeners.append(lambda levels: live.refresh())
    server = live.view(ServerSettings)
    replicas = ReplicaManager(
        node_id, logs, metadata, committer, clock=clock, lag_max_ms=lambda: server().replica_lag_time_max_ms
    )
    peers = None if shared is None else _replication(config, shared, replicas, committer)
    share_state, persister, groups, share, transactions = _coordinators(
        live, metadata, replicas, group_configs, metrics, lifecycle, clock, peers, producer_ids, node_id
    )
    features.listeners.append(lambda levels: transactions.set_transaction_version(levels["transaction.version"]))
    fetch_sessions = FetchSessionCache(max_sessions=server().max_incremental_fetch_session_cache_slots)
    # Incremental fetches read only the partitions of their session that changed.
    replicas.add_append_listener(fetch_sessions.partition_changed)

    def config_changed(new: BrokerConfig) -> None:
        # Dynamic BROKER changes: topic defaults and group-config bounds follow them.
        fresh = LogManager.from_config(data_dir, new)  # reads settings only; opens nothing
        logs.set_broker_defaults(fresh.broker_defaults, fresh.broker_default_sources)
        group_configs.config = new

    live.subscribe(config_changed)
    # Last: after every other listener has made what a big image change makes.
    metadata.subscribe(freeze_after_big_changes)
    return Services(
        config=live,
        lifecycle=lifecycle,
        metrics=metrics,
        logs=logs,
        committer=committer,
        metadata=metadata,
        replicas=replicas,
        group_configs=group_configs,
        producer_ids=producer_ids,
        share_state=share_state,
        share=share,
        groups=groups,
        transactions=transactions,
        fetch_sessions=fetch_sessions,
        share_offsets=ShareOffsetsDeps(
            groups,
            persister,
            share,
            metadata,
            replicas,
            remote_high_watermark=None if peers is None else peers.high_watermark,
        ),
        peers=peers,
        security=security,
        features=features,
        client_metrics=client_metrics,
        streams_topologies=StreamsTopologyStore(data_dir, shared=shared),
        telemetry=ClientTelemetry(client_metrics, max_bytes=server().telemetry_max_bytes),
        node_id=node_id,
        cluster_id=cluster_id,
        started_ms=clock(),
        clock=clock,
    )


def _cluster_id(config: BrokerConfig, data_dir: Path) -> str:
    """This node's cluster id from its data directory (meta.properties), or "" in a
    cluster, where the broker reads the cluster's from etcd when it joins."""
    if config.get("etcd.endpoints"):
        return ""
    try:
        return load_or_create_meta(data_dir, config.node_id)
    except MetaPropertiesError as exc:
        raise SystemExit(f"sharebroker: error: {exc}") from None


def _metadata(
    config: BrokerConfig,
    live: LiveConfig,
    logs: LogManager,
    group_configs: GroupConfigStore,
    cluster_id: str,
) -> tuple[SingleNodeMetadata | ClusterMetadata, ProducerIdAllocator | ClusterProducerIds]:
    """The metadata source and producer-id allocator: etcd's in a cluster, else this node's."""
    etcd_endpoints = config.get("etcd.endpoints")
    if not etcd_endpoints:
        metadata = SingleNodeMetadata(
            config.node_id, cluster_id, logs, live.settings(CoordinatorTopicSettings), rack=config.get("broker.rack")
        )
        return metadata, ProducerIdAllocator(config.log_dir)
    cluster = ClusterMetadata(
        config.node_id,
        logs,
        live,
        endpoints=list(etcd_endpoints),
        prefix=config.get("etcd.prefix"),
        data_dir=config.log_dir,
        rack=config.get("broker.rack"),
    )
    # Group configs are the cluster's: stored in etcd, followed by every broker.
    group_configs.shared = cluster.put_group_configs
    group_configs.apply_shared({})
    cluster.subscribe(lambda old, new: group_configs.apply_shared(cluster.group_configs()))
    return cluster, cluster.producer_ids


def _cluster_stores(
    config: BrokerConfig, setting: Callable[[str], Any], shared: ClusterMetadata | None
) -> tuple[SecurityStore, FeatureStore, ClientMetricsStore]:
    """ACLs and SCRAM credentials, finalized features and client-metrics subscriptions:
    the cluster's in etcd (followed with every image), else this node's."""
    data_dir = config.log_dir
    security = SecurityStore(
        data_dir=data_dir,
        authorizer_class=config.get("authorizer.class.name") or "",
        super_users=config.get("super.users"),
        allow_everyone_if_no_acl_found=bool(config.get("allow.everyone.if.no.acl.found")),
        shared=shared,
        quota_samples=int(config.get("quota.window.num")),
        quota_window_ms=int(config.get("quota.window.size.seconds")) * 1000,
        tokens=TokenSettings(
            secret_key=config.get("delegation.token.secret.key") or None,
            max_lifetime_ms=int(config.get("delegation.token.max.lifetime.ms")),
            expiry_time_ms=int(config.get("delegation.token.expiry.time.ms")),
            expiry_check_interval_ms=int(config.get("delegation.token.expiry.check.interval.ms")),
        ),
    )
    if shared is not None:
        shared.subscribe(lambda old, new: security.follow())
    features = FeatureStore(data_dir, setting, shared=shared)
    client_metrics = ClientMetricsStore(data_dir, shared=shared)
    if shared is not None:
        shared.subscribe(lambda old, new: features.follow())
        shared.subscribe(lambda old, new: client_metrics.follow())
    return security, features, client_metrics


def _replication(
    config: BrokerConfig,
    metadata: ClusterMetadata,
    replicas: ReplicaManager,
    committer: GroupCommitter,
) -> BrokerPeers:
    """In a cluster: the other brokers over the inter-broker listener, and replication.
    Followers fetch from their leaders; leaders write their ISR changes to etcd;
    leadership lapses with this broker's lease."""
    connect = None
    if config.security_protocol(config.inter_broker_listener_name) != "PLAINTEXT":
        from broker.server.security import ListenerSecurityError, inter_broker_connector, inter_broker_security

        try:
            connect = inter_broker_connector(inter_broker_security(config))
        except ListenerSecurityError as exc:
            raise SystemExit(f"sharebroker: error: {exc}") from None
    peers = BrokerPeers(metadata, config.inter_broker_listener_name, node_id=config.node_id, connect=connect)
    fetchers = ReplicaFetcherManager(
        node_id=config.node_id,
        peers=peers,
        committer=committer,
        broker_epoch=lambda: metadata.broker_epoch,
        settings=ReplicaFetchSettings.of(config),
    )
    replicas.attach_replication(isr_writer=metadata, fetchers=fetchers, lease_ok=metadata.lease_valid)
    return peers


def _coordinators(
    live: LiveConfig,
    metadata: SingleNodeMetadata | ClusterMetadata,
    replicas: ReplicaManager,
    group_configs: GroupConfigStore,
    metrics: Metrics,
    lifecycle: Lifecycle,
    clock: Any,
    peers: BrokerPeers | None,
    producer_ids: ProducerIdAllocator | ClusterProducerIds,
    node_id: int,
) -> tuple[
    ShareStateStore, ShareStateStore | RoutedPersister, GroupCoordinator, SharePartitionManager, TransactionCoordinator
]:
    """Share-group state, the group coordinator, the share-partitions and transactions."""
    share_state = ShareStateStore.from_settings(live.settings(ShareStateSettings), metadata, replicas, clock)
    # Both also answer state() (the cached share-partition state share_offsets reads).
    persister: ShareStateStore | RoutedPersister = share_state
    if peers is not None:
        # A share-partition's state goes to the leader of its __share_group_state
        # partition: this broker's store, or another broker's over RPCs 83-87.
        persister = RoutedPersister(share_state, metadata, peers, node_id=node_id)
    groups = GroupCoordinator(
        metadata=metadata,
        replicas=replicas,
        settings=live,
        group_configs=group_configs,
        metrics=metrics,
        clock=clock,
    )
    share = SharePartitionManager(
        persister=persister,
        metadata=metadata,
        replicas=replicas,
        group_configs=group_configs,
        metrics=metrics,
        lifecycle=lifecycle,
        clock=clock,
        max_share_sessions=live.settings(ShareManagerSettings).max_share_sessions,
        settings=live.view(ShareManagerSettings),
        peers=peers,
    )
    groups.attach_share_partitions(share)
    transactions = TransactionCoordinator(
        metadata=metadata,
        replicas=replicas,
        settings=live.settings(TxnSettings),
        producer_ids=producer_ids,
        offsets=groups,
        offsets_partitions=lambda: groups.runtime.num_partitions,
        clock=clock,
        peers=peers,
        node_id=node_id,
    )
    return share_state, persister, groups, share, transactions
