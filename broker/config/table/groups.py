"""Classic, consumer and streams group settings.

Pure data: one :class:`Setting` per key, in the order of docs/CONFIG.md."""

from __future__ import annotations

from broker.config.checks import check_consumer_assignors
from broker.config.model import INT_MAX, Setting
from broker.config.table.names import GROUP, LST, STR, B, I

SETTINGS: tuple[Setting, ...] = (
    # ---- groups
    Setting(
        "group.coordinator.rebalance.protocols",
        LST,
        ("classic", "consumer", "share", "streams"),
        section=GROUP,
        choices=("classic", "consumer", "share", "streams"),
        doc="Group protocols the coordinator accepts: classic (JoinGroup/SyncGroup), "
        "consumer (KIP-848), share (KIP-932) and streams (KIP-1071). Heartbeats of a "
        "protocol left out are answered UNSUPPORTED_VERSION.",
        kafka_default="classic,consumer,streams",
        why="share groups are this broker's purpose, so they are on by default",
    ),
    Setting(
        "group.initial.rebalance.delay.ms",
        I,
        3000,
        section=GROUP,
        min=0,
        doc="How long a new classic group waits for more members before its first rebalance.",
    ),
    Setting(
        "group.min.session.timeout.ms",
        I,
        6000,
        section=GROUP,
        min=0,
        doc="Smallest session timeout a classic-group member may ask for.",
    ),
    Setting(
        "group.max.session.timeout.ms",
        I,
        1800000,
        section=GROUP,
        min=0,
        doc="Largest session timeout a classic-group member may ask for.",
    ),
    Setting(
        "group.max.size",
        I,
        INT_MAX,
        section=GROUP,
        min=1,
        doc="Most members in one classic group.",
    ),
    Setting(
        "group.consumer.session.timeout.ms",
        I,
        45000,
        section=GROUP,
        min=1,
        doc="A consumer-group member that sends no heartbeat for this long is removed.",
    ),
    Setting(
        "group.consumer.min.session.timeout.ms",
        I,
        45000,
        section=GROUP,
        min=1,
        doc="Lower bound for group.consumer.session.timeout.ms.",
    ),
    Setting(
        "group.consumer.max.session.timeout.ms",
        I,
        60000,
        section=GROUP,
        min=1,
        doc="Upper bound for group.consumer.session.timeout.ms.",
    ),
    Setting(
        "group.consumer.heartbeat.interval.ms",
        I,
        5000,
        section=GROUP,
        min=1,
        doc="Heartbeat interval the coordinator tells consumer-group members to use.",
    ),
    Setting(
        "group.consumer.min.heartbeat.interval.ms",
        I,
        5000,
        section=GROUP,
        min=1,
        doc="Lower bound for group.consumer.heartbeat.interval.ms.",
    ),
    Setting(
        "group.consumer.max.heartbeat.interval.ms",
        I,
        15000,
        section=GROUP,
        min=1,
        doc="Upper bound for group.consumer.heartbeat.interval.ms.",
    ),
    Setting(
        "group.consumer.max.size",
        I,
        INT_MAX,
        section=GROUP,
        min=1,
        doc="Most members in one consumer group.",
    ),
    Setting(
        "group.consumer.assignors",
        LST,
        ("uniform", "range"),
        section=GROUP,
        check=check_consumer_assignors,
        check_doc="uniform, range (or Kafka's class names for them)",
        doc="Server-side assignors of consumer groups (KIP-848); a member picks one with "
        "group.remote.assignor, else the first is used.",
    ),
    Setting(
        "group.consumer.migration.policy",
        STR,
        "bidirectional",
        section=GROUP,
        choices=("disabled", "upgrade", "downgrade", "bidirectional"),
        doc="Online conversion between classic and consumer groups: upgrade (a consumer-protocol "
        "member joins a classic group), downgrade (the last consumer-protocol member leaves a group "
        "of classic members), both, or neither.",
    ),
    Setting(
        "group.consumer.assignment.interval.ms",
        I,
        1000,
        section=GROUP,
        min=0,
        dynamic=True,
        doc="Shortest time between two target assignments of one consumer group (KIP-1263): a "
        "change that comes sooner (members joining one after another) is assigned together with "
        "the next, by the first heartbeat once the interval has passed; the group shows Assigning "
        "meanwhile. A new or emptied group is assigned at once. 0: every change at once. Group "
        "default for consumer.assignment.interval.ms.",
    ),
    Setting(
        "group.consumer.min.assignment.interval.ms",
        I,
        0,
        section=GROUP,
        min=0,
        doc="Lower bound of consumer.assignment.interval.ms (group config).",
    ),
    Setting(
        "group.consumer.max.assignment.interval.ms",
        I,
        15000,
        section=GROUP,
        min=0,
        doc="Upper bound of consumer.assignment.interval.ms (group config).",
    ),
    Setting(
        "group.consumer.assignor.offload.enable",
        B,
        True,
        section=GROUP,
        dynamic=True,
        doc="Accepted for compatibility (an internal Kafka setting, unused by Kafka 4.4.0 too); no "
        "effect: the assignors run on the event loop between requests. Group default for "
        "consumer.assignor.offload.enable.",
    ),
    Setting(
        "group.streams.session.timeout.ms",
        I,
        45000,
        section=GROUP,
        min=1,
        doc="A streams-group (KIP-1071) member that sends no heartbeat for this long is removed.",
    ),
    Setting(
        "group.streams.min.session.timeout.ms",
        I,
        45000,
        section=GROUP,
        min=1,
        doc="Lower bound for group.streams.session.timeout.ms.",
    ),
    Setting(
        "group.streams.max.session.timeout.ms",
        I,
        60000,
        section=GROUP,
        min=1,
        doc="Upper bound for group.streams.session.timeout.ms.",
    ),
    Setting(
        "group.streams.heartbeat.interval.ms",
        I,
        5000,
        section=GROUP,
        min=1,
        doc="Heartbeat interval the coordinator tells streams-group members to use.",
    ),
    Setting(
        "group.streams.min.heartbeat.interval.ms",
        I,
        5000,
        section=GROUP,
        min=1,
        doc="Lower bound for group.streams.heartbeat.interval.ms.",
    ),
    Setting(
        "group.streams.max.heartbeat.interval.ms",
        I,
        15000,
        section=GROUP,
        min=1,
        doc="Upper bound for group.streams.heartbeat.interval.ms.",
    ),
    Setting(
        "group.streams.max.size",
        I,
        INT_MAX,
        section=GROUP,
        min=1,
        doc="Most members in one streams group.",
    ),
    Setting(
        "group.streams.num.standby.replicas",
        I,
        0,
        section=GROUP,
        min=0,
        doc="Standby replicas of each stateful task of a streams group.",
    ),
    Setting(
        "group.streams.max.standby.replicas",
        I,
        2,
        section=GROUP,
        min=0,
        doc="Upper bound of group.streams.num.standby.replicas and of the streams.num.standby.replicas group config.",
    ),
    Setting(
        "group.streams.initial.rebalance.delay.ms",
        I,
        3000,
        section=GROUP,
        min=0,
        doc="How long a new streams group waits for more members before its first assignment.",
    ),
    Setting(
        "group.streams.assignment.interval.ms",
        I,
        1000,
        section=GROUP,
        min=0,
        dynamic=True,
        doc="Shortest time between two target assignments of one streams group (KIP-1263); members "
        "hear ASSIGNMENT_DELAYED meanwhile. 0: every change at once. Group default for "
        "streams.assignment.interval.ms.",
    ),
    Setting(
        "group.streams.min.assignment.interval.ms",
        I,
        0,
        section=GROUP,
        min=0,
        doc="Lower bound of streams.assignment.interval.ms (group config).",
    ),
    Setting(
        "group.streams.max.assignment.interval.ms",
        I,
        15000,
        section=GROUP,
        min=0,
        doc="Upper bound of streams.assignment.interval.ms (group config).",
    ),
    Setting(
        "group.streams.assignor.offload.enable",
        B,
        True,
        section=GROUP,
        dynamic=True,
        doc="Accepted for compatibility (an internal Kafka setting, unused by Kafka 4.4.0 too); no "
        "effect: the assignor runs on the event loop between requests. Group default for "
        "streams.assignor.offload.enable.",
    ),
    Setting(
        "group.streams.rack.aware.assignment.tags",
        STR,
        "",
        section=GROUP,
        doc="Client tags (comma-separated keys) whose values the sticky task assignor spreads standby "
        "tasks over; the group config streams.rack.aware.assignment.tags overrides it.",
    ),
    Setting(
        "group.streams.assignors",
        LST,
        ("sticky",),
        section=GROUP,
        choices=("sticky",),
        doc="Task assignors of streams groups (the first is used).",
    ),
    Setting(
        "offsets.retention.minutes",
        I,
        10080,
        section=GROUP,
        min=1,
        doc="Committed offsets of an empty group are dropped after this long.",
    ),
    Setting(
        "offset.metadata.max.bytes",
        I,
        4096,
        section=GROUP,
        min=0,
        doc="Longest metadata string accepted with a committed offset.",
    ),
)
