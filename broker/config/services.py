"""Typed settings for the services: small frozen dataclasses built from the settings table.

A service receives one of these instead of a string look-up: each field names its key
with :func:`key` (a key the table lacks fails when this module is imported), takes the
table's default as its own (so a service built without a config, as in unit tests, runs
with the broker's defaults), and is typed after the table's type (checked by
``tests/unit/test_config_services.py``, which also fails for a setting no object and no
listed reader uses). :meth:`Settings.of` builds one from a :class:`BrokerConfig`; a
service whose keys may change at run time holds ``LiveConfig.view(cls)``, a callable
answering the object as in force now.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, Protocol, Self, TypeVar

from broker.config.table import SETTINGS_BY_KEY

__all__ = [
    "ClassicGroupSettings",
    "ClusterSettings",
    "ConnectionSettings",
    "ConsumerGroupSettings",
    "ControllerSettings",
    "CoordinatorTopicSettings",
    "FixedSettings",
    "GroupCoordinatorSettings",
    "HandlerSettings",
    "ReplicaFetchSettings",
    "ServerSettings",
    "Settings",
    "SettingsReader",
    "SettingsSource",
    "ShareManagerSettings",
    "ShareStateSettings",
    "StreamsGroupSettings",
    "TxnSettings",
    "key",
    "setting_key",
]

SETTING = "setting"  # the field metadata entry naming the field's key


class SettingsSource(Protocol):
    """Where typed settings are read from: a BrokerConfig, or the live view of one."""

    def get(self, key: str) -> Any: ...


def key(name: str) -> Any:
    """A field read from setting ``name``, defaulting to the table's default."""
    setting = SETTINGS_BY_KEY[name]  # KeyError: a misspelt key fails on import
    return field(default=setting.default, metadata={SETTING: name})


def setting_key(f: Any) -> str:
    """The key a field of a :class:`Settings` dataclass reads."""
    return str(f.metadata[SETTING])


@dataclass(frozen=True, slots=True)
class Settings:
    """Base of the typed settings objects: every field is a :func:`key` field."""

    @classmethod
    def of(cls, source: SettingsSource) -> Self:
        """The values ``source`` holds for each field's key (KeyError for an unknown key)."""
        return cls(**{f.name: source.get(setting_key(f)) for f in fields(cls)})


S = TypeVar("S", bound=Settings)


class SettingsReader(Protocol):
    """What a service reading several typed settings holds: ``LiveConfig`` (the values in
    force, rebuilt after a change) or :class:`FixedSettings`."""

    def settings(self, cls: type[S]) -> S: ...


class FixedSettings:
    """Typed settings from one config that does not change (the table's defaults
    without one): for services built outside a running broker, as in tests."""

    __slots__ = ("_source",)

    def __init__(self, source: SettingsSource | None = None) -> None:
        self._source = source

    def settings(self, cls: type[S]) -> S:
        return cls() if self._source is None else cls.of(self._source)

    def view(self, cls: type[S]) -> Callable[[], S]:
        built = self.settings(cls)
        return lambda: built


# --------------------------------------------------------------------------- server


@dataclass(frozen=True, slots=True)
class ConnectionSettings(Settings):
    """Connection limits (server/limits.py); dynamic: read through a live view."""

    max_connections: int = key("max.connections")
    max_connections_per_ip: int = key("max.connections.per.ip")
    max_connections_per_ip_overrides: str = key("max.connections.per.ip.overrides")


@dataclass(frozen=True, slots=True)
class ServerSettings(Settings):
    """What the composition root (server/app.py) reads to size the services it builds."""

    replica_lag_time_max_ms: int = key("replica.lag.time.max.ms")
    max_incremental_fetch_session_cache_slots: int = key("max.incremental.fetch.session.cache.slots")
    telemetry_max_bytes: int = key("telemetry.max.bytes")


# --------------------------------------------------------------------------- metadata


@dataclass(frozen=True, slots=True)
class CoordinatorTopicSettings(Settings):
    """The partition count of each coordinator's internal topic (the metadata image's)."""

    offsets_topic_num_partitions: int = key("offsets.topic.num.partitions")
    transaction_state_log_num_partitions: int = key("transaction.state.log.num.partitions")
    share_state_topic_num_partitions: int = key("share.coordinator.state.topic.num.partitions")


@dataclass(frozen=True, slots=True)
class ClusterSettings(Settings):
    """A cluster member's registration and requests in etcd (metadata/cluster.py)."""

    broker_session_timeout_ms: int = key("broker.session.timeout.ms")
    broker_heartbeat_interval_ms: int = key("broker.heartbeat.interval.ms")
    request_timeout_ms: int = key("request.timeout.ms")
    etcd_request_timeout_ms: int = key("etcd.request.timeout.ms")


@dataclass(frozen=True, slots=True)
class ControllerSettings(Settings):
    """The cluster controller's decisions (metadata/controller.py)."""

    num_partitions: int = key("num.partitions")
    default_replication_factor: int = key("default.replication.factor")
    unclean_leader_election_enable: bool = key("unclean.leader.election.enable")
    auto_leader_rebalance_enable: bool = key("auto.leader.rebalance.enable")
    leader_imbalance_check_interval_seconds: int = key("leader.imbalance.check.interval.seconds")
    leader_imbalance_per_broker_percentage: int = key("leader.imbalance.per.broker.percentage")


# --------------------------------------------------------------------------- handlers


@dataclass(frozen=True, slots=True)
class HandlerSettings(Settings):
    """What the API handlers read (Fetch, CreateTopics, DeleteTopics, DescribeTopicPartitions)."""

    default_replication_factor: int = key("default.replication.factor")
    delete_topic_enable: bool = key("delete.topic.enable")
    fetch_max_bytes: int = key("fetch.max.bytes")
    max_request_partition_size_limit: int = key("max.request.partition.size.limit")


# --------------------------------------------------------------------------- replication


@dataclass(frozen=True, slots=True)
class ReplicaFetchSettings(Settings):
    """A follower's fetches from its leaders (replica/fetcher.py)."""

    fetch_wait_max_ms: int = key("replica.fetch.wait.max.ms")
    fetch_min_bytes: int = key("replica.fetch.min.bytes")
    fetch_max_bytes: int = key("replica.fetch.max.bytes")
    fetch_response_max_bytes: int = key("replica.fetch.response.max.bytes")
    fetch_backoff_ms: int = key("replica.fetch.backoff.ms")
    socket_timeout_ms: int = key("replica.socket.timeout.ms")


# --------------------------------------------------------------------------- groups


@dataclass(frozen=True, slots=True)
class GroupCoordinatorSettings(Settings):
    """The group coordinator's topic (__consumer_offsets) and share-group membership."""

    offsets_topic_num_partitions: int = key("offsets.topic.num.partitions")
    offsets_topic_replication_factor: int = key("offsets.topic.replication.factor")
    share_max_size: int = key("group.share.max.size")
    share_initial_rebalance_delay_ms: int = key("group.share.initial.rebalance.delay.ms")


@dataclass(frozen=True, slots=True)
class ClassicGroupSettings(Settings):
    """Classic groups (group/classic/core.py)."""

    initial_rebalance_delay_ms: int = key("group.initial.rebalance.delay.ms")
    min_session_timeout_ms: int = key("group.min.session.timeout.ms")
    max_session_timeout_ms: int = key("group.max.session.timeout.ms")
    max_size: int = key("group.max.size")
    offsets_retention_minutes: int = key("offsets.retention.minutes")
    offset_metadata_max_bytes: int = key("offset.metadata.max.bytes")


@dataclass(frozen=True, slots=True)
class ConsumerGroupSettings(Settings):
    """KIP-848 consumer groups (group/consumer/config.py)."""

    session_timeout_ms: int = key("group.consumer.session.timeout.ms")
    min_session_timeout_ms: int = key("group.consumer.min.session.timeout.ms")
    max_session_timeout_ms: int = key("group.consumer.max.session.timeout.ms")
    heartbeat_interval_ms: int = key("group.consumer.heartbeat.interval.ms")
    min_heartbeat_interval_ms: int = key("group.consumer.min.heartbeat.interval.ms")
    max_heartbeat_interval_ms: int = key("group.consumer.max.heartbeat.interval.ms")
    max_size: int = key("group.consumer.max.size")
    assignors: tuple[str, ...] = key("group.consumer.assignors")
    migration_policy: str = key("group.consumer.migration.policy")
    assignment_interval_ms: int = key("group.consumer.assignment.interval.ms")
    min_assignment_interval_ms: int = key("group.consumer.min.assignment.interval.ms")
    max_assignment_interval_ms: int = key("group.consumer.max.assignment.interval.ms")
    assignor_offload_enable: bool = key("group.consumer.assignor.offload.enable")


@dataclass(frozen=True, slots=True)
class StreamsGroupSettings(Settings):
    """KIP-1071 streams groups (group/streams/core.py)."""

    session_timeout_ms: int = key("group.streams.session.timeout.ms")
    heartbeat_interval_ms: int = key("group.streams.heartbeat.interval.ms")
    max_size: int = key("group.streams.max.size")
    num_standby_replicas: int = key("group.streams.num.standby.replicas")
    max_standby_replicas: int = key("group.streams.max.standby.replicas")
    initial_rebalance_delay_ms: int = key("group.streams.initial.rebalance.delay.ms")
    assignment_interval_ms: int = key("group.streams.assignment.interval.ms")
    min_assignment_interval_ms: int = key("group.streams.min.assignment.interval.ms")
    max_assignment_interval_ms: int = key("group.streams.max.assignment.interval.ms")
    rack_aware_assignment_tags: str = key("group.streams.rack.aware.assignment.tags")


# --------------------------------------------------------------------------- share groups


@dataclass(frozen=True, slots=True)
class ShareManagerSettings(Settings):
    """The share-partition manager (share/manager.py). The dead-letter keys are dynamic;
    ``share_version`` answers the finalized share.version once the features are known."""

    share_version: int = key("share.version")
    max_share_sessions: int = key("group.share.max.share.sessions")
    dlq_topic_name_prefix: str = key("errors.deadletterqueue.topic.name.prefix")
    dlq_auto_create_topics_enable: bool = key("errors.deadletterqueue.auto.create.topics.enable")


@dataclass(frozen=True, slots=True)
class ShareStateSettings(Settings):
    """The share coordinator's __share_group_state topic (share/state_store.py)."""

    num_partitions: int = key("share.coordinator.state.topic.num.partitions")
    replication_factor: int = key("share.coordinator.state.topic.replication.factor")
    min_isr: int = key("share.coordinator.state.topic.min.isr")
    segment_bytes: int = key("share.coordinator.state.topic.segment.bytes")
    write_timeout_ms: int = key("share.coordinator.write.timeout.ms")
    snapshot_every: int = key("share.coordinator.snapshot.update.records.per.snapshot")


# --------------------------------------------------------------------------- transactions


@dataclass(frozen=True, slots=True)
class TxnSettings(Settings):
    """The transaction coordinator and its __transaction_state topic (txn/). ``version``
    answers the finalized transaction.version once the features are known."""

    max_timeout_ms: int = key("transaction.max.timeout.ms")
    id_expiration_ms: int = key("transactional.id.expiration.ms")
    version: int = key("transaction.version")
    two_phase_commit_enable: bool = key("transaction.two.phase.commit.enable")
    offsets_topic_num_partitions: int = key("offsets.topic.num.partitions")
    log_num_partitions: int = key("transaction.state.log.num.partitions")
    log_replication_factor: int = key("transaction.state.log.replication.factor")
    log_min_isr: int = key("transaction.state.log.min.isr")
    log_segment_bytes: int = key("transaction.state.log.segment.bytes")
