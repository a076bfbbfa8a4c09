"""Share group settings (KIP-932) and the share coordinator's state topic.

Pure data: one :class:`Setting` per key, in the order of docs/CONFIG.md."""

from __future__ import annotations

from broker.config.model import Setting
from broker.config.table.names import NODE, SHARE, SINGLE_NODE_RF, STR, B, I, S

SETTINGS: tuple[Setting, ...] = (
    # ---- share groups
    Setting(
        "group.share.max.size",
        I,
        200,
        section=SHARE,
        min=1,
        max=1000,
        summary=True,
        doc="Most members in one share group; the next join gets GROUP_MAX_SIZE_REACHED.",
        why="Kafka's bounds",
    ),
    Setting(
        "group.share.session.timeout.ms",
        I,
        45000,
        section=SHARE,
        min=1,
        summary=True,
        doc="A share-group member that sends no heartbeat for this long is removed and its partitions are reassigned.",
    ),
    Setting(
        "group.share.min.session.timeout.ms",
        I,
        45000,
        section=SHARE,
        min=1,
        doc="Lower bound for group.share.session.timeout.ms and the group-level share.session.timeout.ms.",
    ),
    Setting(
        "group.share.max.session.timeout.ms",
        I,
        60000,
        section=SHARE,
        min=1,
        doc="Upper bound for group.share.session.timeout.ms and the group-level share.session.timeout.ms.",
    ),
    Setting(
        "group.share.heartbeat.interval.ms",
        I,
        5000,
        section=SHARE,
        min=1,
        doc="Heartbeat interval the coordinator tells share-group members to use.",
    ),
    Setting(
        "group.share.min.heartbeat.interval.ms",
        I,
        5000,
        section=SHARE,
        min=1,
        doc="Lower bound for group.share.heartbeat.interval.ms and the group-level share.heartbeat.interval.ms.",
    ),
    Setting(
        "group.share.max.heartbeat.interval.ms",
        I,
        15000,
        section=SHARE,
        min=1,
        doc="Upper bound for group.share.heartbeat.interval.ms and the group-level share.heartbeat.interval.ms.",
    ),
    Setting(
        "group.share.record.lock.duration.ms",
        I,
        30000,
        section=SHARE,
        min=1000,
        max=3600000,
        summary=True,
        doc="How long a delivered record stays locked to the consumer that received it "
        "before it becomes available again. Group default for share.record.lock.duration.ms.",
        why="Kafka's bounds; it must also lie between the min and max lock durations",
    ),
    Setting(
        "group.share.min.record.lock.duration.ms",
        I,
        15000,
        section=SHARE,
        min=1000,
        max=30000,
        doc="Smallest lock duration a group may configure.",
        why="Kafka's bounds",
    ),
    Setting(
        "group.share.max.record.lock.duration.ms",
        I,
        60000,
        section=SHARE,
        min=30000,
        max=3600000,
        doc="Largest lock duration a group may configure.",
        why="Kafka's bounds",
    ),
    Setting(
        "group.share.delivery.count.limit",
        I,
        5,
        section=SHARE,
        min=2,
        max=10,
        summary=True,
        doc="Deliveries a record gets before it is archived instead of offered again, so "
        "a record that keeps failing cannot block a partition forever.",
        why="Kafka's bounds",
    ),
    Setting(
        "group.share.partition.max.record.locks",
        I,
        2000,
        section=SHARE,
        min=100,
        max=10000,
        summary=True,
        doc="Most records in flight (delivered, not yet acknowledged) per share-partition; "
        "at the limit, only records already in the window are handed out again. As in Kafka, "
        "a batch_optimized fetch that starts below the limit takes its last log batch whole, "
        "so the window can pass the limit by less than one batch.",
        why="Kafka's bounds; it caps the memory of one share-partition's state",
    ),
    Setting(
        "group.share.min.delivery.count.limit",
        I,
        2,
        section=SHARE,
        min=2,
        max=5,
        doc="Smallest share.delivery.count.limit a group may configure (KIP-1240).",
        why="Kafka's bounds",
    ),
    Setting(
        "group.share.max.delivery.count.limit",
        I,
        10,
        section=SHARE,
        min=5,
        max=25,
        doc="Largest share.delivery.count.limit a group may configure (KIP-1240).",
        why="Kafka's bounds",
    ),
    Setting(
        "group.share.min.partition.max.record.locks",
        I,
        100,
        section=SHARE,
        min=100,
        max=2000,
        doc="Smallest share.partition.max.record.locks a group may configure (KIP-1240).",
        why="Kafka's bounds",
    ),
    Setting(
        "group.share.max.partition.max.record.locks",
        I,
        4000,
        section=SHARE,
        min=2000,
        max=10000,
        doc="Largest share.partition.max.record.locks a group may configure (KIP-1240).",
        why="Kafka's bounds; it caps the memory one share-partition's state may take",
    ),
    Setting(
        "group.share.assignment.interval.ms",
        I,
        1000,
        section=SHARE,
        min=0,
        dynamic=True,
        doc="Shortest time between two target assignments of one share group: a change that comes "
        "sooner (members joining one after another) is assigned together with the next, once the "
        "interval has passed. A change after a quiet interval is assigned at once. 0: every change "
        "at once. Group default for share.assignment.interval.ms.",
    ),
    Setting(
        "group.share.initial.rebalance.delay.ms",
        I,
        500,
        section=SHARE,
        min=0,
        doc="How long a new (or emptied) share group waits for more members before its first "
        "target assignment: members starting together split the partitions instead of the first "
        "one holding them all until the next assignment. The joining members are told to "
        "heartbeat again when it is over. 0: the first member is assigned at once.",
        why="not in Kafka 4.4, whose first share-group member is assigned only at its second "
        "heartbeat (5 s by default)",
    ),
    Setting(
        "group.share.min.assignment.interval.ms",
        I,
        0,
        section=SHARE,
        min=0,
        doc="Lower bound of the group-level share.assignment.interval.ms.",
    ),
    Setting(
        "group.share.max.assignment.interval.ms",
        I,
        15000,
        section=SHARE,
        min=0,
        doc="Upper bound of the group-level share.assignment.interval.ms.",
    ),
    Setting(
        "group.share.assignor.offload.enable",
        B,
        True,
        section=SHARE,
        dynamic=True,
        doc="Accepted for compatibility (an internal Kafka setting, unused by Kafka 4.4.0 too); no "
        "effect: the assignor runs on the event loop between requests (about 15 ms for 200 members "
        "over 1000 partitions), at most once per group and assignment interval. Group default for "
        "share.assignor.offload.enable.",
    ),
    Setting(
        "errors.deadletterqueue.topic.name.prefix",
        STR,
        "dlq.",
        section=SHARE,
        dynamic=True,
        doc="Prefix every share group's dead-letter topic (errors.deadletterqueue.topic.name) "
        "must have (KIP-1191); records of a group whose topic lacks it are archived without a "
        'dead-letter copy. "" allows any name.',
    ),
    Setting(
        "errors.deadletterqueue.auto.create.topics.enable",
        B,
        False,
        section=SHARE,
        dynamic=True,
        doc="Create a share group's dead-letter topic on its first dead letter when it does not "
        "exist, with errors.deadletterqueue.group.enable=true, CreateTime timestamps and the "
        "default partition count (KIP-1191).",
    ),
    Setting(
        "telemetry.max.bytes",
        I,
        1048576,
        section=NODE,
        min=1,
        doc="Largest metrics payload a client may send in one PushTelemetry (KIP-714).",
    ),
    Setting(
        "share.version",
        I,
        2,
        section=SHARE,
        min=1,
        max=2,
        doc="The share.version feature level this broker runs at and finalizes in ApiVersions: 1 "
        "share groups as in Kafka 4.2, 2 adds dead-letter queues (KIP-1191), as a fresh Kafka 4.4 "
        "cluster has it. Kafka sets the level with kafka-storage.sh format --feature or "
        "kafka-features.sh.",
    ),
    Setting(
        "group.share.max.share.sessions",
        I,
        2000,
        section=SHARE,
        min=1,
        doc="Share-fetch sessions the broker keeps at once; the next new session gets SHARE_SESSION_LIMIT_REACHED.",
        why="each session holds per-partition state in memory",
    ),
    Setting(
        "share.coordinator.state.topic.num.partitions",
        I,
        50,
        section=SHARE,
        min=1,
        doc="Partitions of __share_group_state, which stores share-partition state.",
    ),
    Setting(
        "share.coordinator.state.topic.replication.factor",
        S,
        3,
        section=SHARE,
        min=1,
        doc="Replication factor of __share_group_state. In a cluster, the topic is created "
        "once this many brokers are registered (share groups wait until then).",
        why=SINGLE_NODE_RF,
    ),
    Setting(
        "share.coordinator.state.topic.min.isr",
        S,
        2,
        section=SHARE,
        min=1,
        doc="min.insync.replicas of __share_group_state.",
    ),
    Setting(
        "share.coordinator.state.topic.segment.bytes",
        I,
        104857600,
        section=SHARE,
        min=1,
        doc="Segment size of __share_group_state (its log is kept short by rewriting live state).",
    ),
    Setting(
        "share.coordinator.write.timeout.ms",
        I,
        5000,
        section=SHARE,
        min=1,
        doc="How long a share-state write may take to become durable; a write not durable by then "
        "is answered COORDINATOR_NOT_AVAILABLE and rolled back.",
    ),
    Setting(
        "share.coordinator.snapshot.update.records.per.snapshot",
        I,
        500,
        section=SHARE,
        min=0,
        doc="Delta records written for a share-partition before a full snapshot replaces them.",
    ),
)
