"""The settings table: every key the broker accepts, by section (one module each), in the
order docs/CONFIG.md lists them, with the look-ups and the rules between settings."""

from __future__ import annotations

from broker.config.model import Setting
from broker.config.table import groups, internal, log, network, node, security, share, topics

SETTINGS: tuple[Setting, ...] = (
    *network.SETTINGS,
    *node.SETTINGS,
    *log.SETTINGS,
    *topics.SETTINGS,
    *groups.SETTINGS,
    *share.SETTINGS,
    *internal.SETTINGS,
    *security.SETTINGS,
)

SETTINGS_BY_KEY: dict[str, Setting] = {s.key: s for s in SETTINGS}
SETTINGS_BY_ENV: dict[str, Setting] = {s.env_var: s for s in SETTINGS}

SETTINGS_BY_ATTR: dict[str, Setting] = {s.attr: s for s in SETTINGS}

# Kafka's synonym chains: the first set value wins, as in DescribeConfigs' synonym list.
SYNONYMS: dict[str, tuple[str, ...]] = {
    "log.retention.ms": ("log.retention.ms", "log.retention.minutes", "log.retention.hours"),
    "log.retention.minutes": ("log.retention.minutes", "log.retention.hours"),
    "log.roll.ms": ("log.roll.ms", "log.roll.hours"),
    "log.flush.interval.ms": ("log.flush.interval.ms", "log.flush.scheduler.interval.ms"),
}

# (smaller, larger, strict): rules between settings, as Kafka enforces them.
ORDER_RULES: tuple[tuple[str, str, bool], ...] = (
    ("group.min.session.timeout.ms", "group.max.session.timeout.ms", False),
    ("group.consumer.min.heartbeat.interval.ms", "group.consumer.max.heartbeat.interval.ms", False),
    ("group.consumer.min.heartbeat.interval.ms", "group.consumer.heartbeat.interval.ms", False),
    ("group.consumer.heartbeat.interval.ms", "group.consumer.max.heartbeat.interval.ms", False),
    ("group.consumer.min.session.timeout.ms", "group.consumer.max.session.timeout.ms", False),
    ("group.consumer.min.session.timeout.ms", "group.consumer.session.timeout.ms", False),
    ("group.consumer.session.timeout.ms", "group.consumer.max.session.timeout.ms", False),
    ("group.consumer.heartbeat.interval.ms", "group.consumer.session.timeout.ms", True),
    ("group.streams.min.heartbeat.interval.ms", "group.streams.max.heartbeat.interval.ms", False),
    ("group.streams.min.heartbeat.interval.ms", "group.streams.heartbeat.interval.ms", False),
    ("group.streams.heartbeat.interval.ms", "group.streams.max.heartbeat.interval.ms", False),
    ("group.streams.min.session.timeout.ms", "group.streams.max.session.timeout.ms", False),
    ("group.streams.min.session.timeout.ms", "group.streams.session.timeout.ms", False),
    ("group.streams.session.timeout.ms", "group.streams.max.session.timeout.ms", False),
    ("group.streams.heartbeat.interval.ms", "group.streams.session.timeout.ms", True),
    ("group.streams.num.standby.replicas", "group.streams.max.standby.replicas", False),
    ("group.consumer.min.assignment.interval.ms", "group.consumer.max.assignment.interval.ms", False),
    ("group.share.min.heartbeat.interval.ms", "group.share.max.heartbeat.interval.ms", False),
    ("group.share.min.heartbeat.interval.ms", "group.share.heartbeat.interval.ms", False),
    ("group.share.heartbeat.interval.ms", "group.share.max.heartbeat.interval.ms", False),
    ("group.share.min.session.timeout.ms", "group.share.max.session.timeout.ms", False),
    ("group.share.min.session.timeout.ms", "group.share.session.timeout.ms", False),
    ("group.share.session.timeout.ms", "group.share.max.session.timeout.ms", False),
    ("group.share.heartbeat.interval.ms", "group.share.session.timeout.ms", True),
    ("group.share.min.record.lock.duration.ms", "group.share.record.lock.duration.ms", False),
    ("group.share.record.lock.duration.ms", "group.share.max.record.lock.duration.ms", False),
    ("group.share.min.delivery.count.limit", "group.share.delivery.count.limit", False),
    ("group.share.delivery.count.limit", "group.share.max.delivery.count.limit", False),
    ("group.share.min.partition.max.record.locks", "group.share.partition.max.record.locks", False),
    ("group.share.partition.max.record.locks", "group.share.max.partition.max.record.locks", False),
    ("group.share.min.assignment.interval.ms", "group.share.max.assignment.interval.ms", False),
    ("group.streams.min.assignment.interval.ms", "group.streams.max.assignment.interval.ms", False),
)


# Settings a single listener may override with the prefix ``listener.name.<listener>.``
# (Kafka's listener-prefixed configs), and those one mechanism of it may override with
