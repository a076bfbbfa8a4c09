"""Broker settings (``group.consumer.*``) and per-group configs of KIP-848 consumer groups.

Kafka 4.4's broker settings, with their defaults:

=============================================  ==========  ==========================================
setting                                        default     used here
=============================================  ==========  ==========================================
group.consumer.session.timeout.ms              45000       member session (per-group override below)
group.consumer.min.session.timeout.ms          45000       lower bound of the per-group override
group.consumer.max.session.timeout.ms          60000       upper bound of the per-group override
group.consumer.heartbeat.interval.ms           5000        HeartbeatIntervalMs in responses
group.consumer.min.heartbeat.interval.ms       5000        lower bound of the per-group override
group.consumer.max.heartbeat.interval.ms       15000       upper bound of the per-group override
group.consumer.max.size                        2^31-1      GROUP_MAX_SIZE_REACHED past it
group.consumer.assignors                       uniform,    the server-side assignors offered; the
                                               range       first is the default
group.consumer.migration.policy                bidirectional  disabled|upgrade|downgrade|bidirectional
group.consumer.assignment.interval.ms          1000        least time between two targets (KIP-1263)
group.consumer.min.assignment.interval.ms      0           lower bound of the per-group override
group.consumer.max.assignment.interval.ms      15000       upper bound of the per-group override
group.consumer.assignor.offload.enable         true        read, no effect: the assignors run inline
=============================================  ==========  ==========================================

Per-group configs (config resource GROUP) Kafka 4.4 has for consumer groups:
``consumer.session.timeout.ms``, ``consumer.heartbeat.interval.ms``,
``consumer.assignment.interval.ms`` and ``consumer.assignor.offload.enable``;
the first three are used here (the store is :mod:`broker.metadata.group_configs`; the
core reads them through callables).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import ClassVar

from broker.config.services import ConsumerGroupSettings
from broker.group.type_config import PerGroupConfig, config_from_settings

__all__ = ["ConsumerGroupConfig", "MigrationPolicy"]

INT32_MAX = 2**31 - 1

# Kafka's class names for the built-in assignors, accepted in group.consumer.assignors.
_CLASS_NAMES = {
    "org.apache.kafka.coordinator.group.assignor.UniformAssignor": "uniform",
    "org.apache.kafka.coordinator.group.assignor.RangeAssignor": "range",
}


class MigrationPolicy(enum.StrEnum):
    DISABLED = "disabled"
    UPGRADE = "upgrade"
    DOWNGRADE = "downgrade"
    BIDIRECTIONAL = "bidirectional"

    @property
    def upgrade_enabled(self) -> bool:
        return self in (MigrationPolicy.UPGRADE, MigrationPolicy.BIDIRECTIONAL)

    @property
    def downgrade_enabled(self) -> bool:
        return self in (MigrationPolicy.DOWNGRADE, MigrationPolicy.BIDIRECTIONAL)


@dataclass(slots=True)
class ConsumerGroupConfig(PerGroupConfig):
    PREFIX: ClassVar[str] = "consumer."

    min_session_timeout_ms: int = 45_000
    max_session_timeout_ms: int = 60_000
    min_heartbeat_interval_ms: int = 5_000
    max_heartbeat_interval_ms: int = 15_000
    max_size: int = INT32_MAX
    assignors: tuple[str, ...] = ("uniform", "range")
    migration_policy: MigrationPolicy = MigrationPolicy.BIDIRECTIONAL
    assignor_offload_enable: bool = True

    @classmethod
    def from_settings(cls, s: ConsumerGroupSettings) -> ConsumerGroupConfig:
        """Build from the broker's ``group.consumer.*`` settings."""
        return config_from_settings(
            cls,
            s,
            assignors=tuple(_CLASS_NAMES.get(a.strip(), a.strip()) for a in s.assignors if a.strip()),
            migration_policy=MigrationPolicy(s.migration_policy.strip().lower()),
        )

    @property
    def default_assignor(self) -> str:
        return self.assignors[0]
