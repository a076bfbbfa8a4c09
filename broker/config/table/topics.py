"""Topic and record settings, with the replication ones between them (the docs' order).

Pure data: one :class:`Setting` per key, in the order of docs/CONFIG.md."""

from __future__ import annotations

from broker.config.model import Setting
from broker.config.table.names import REPL, TOPIC, B, I, L

SETTINGS: tuple[Setting, ...] = (
    # ---- topics and records
    Setting(
        "num.partitions",
        I,
        1,
        section=TOPIC,
        min=1,
        summary=True,
        doc="Partitions of a topic created automatically or without a partition count.",
    ),
    Setting(
        "default.replication.factor",
        I,
        1,
        section=TOPIC,
        min=1,
        doc="Replication factor of automatically created topics and of CreateTopics without "
        "one. In a cluster it may be up to the number of brokers; a single node holds one copy.",
    ),
    Setting(
        "min.insync.replicas",
        I,
        1,
        section=TOPIC,
        min=1,
        doc="In-sync replicas an acks=all write needs: with fewer the producer gets "
        "NOT_ENOUGH_REPLICAS (or NOT_ENOUGH_REPLICAS_AFTER_APPEND). Default of the topic setting.",
    ),
    Setting(
        "unclean.leader.election.enable",
        B,
        False,
        section=REPL,
        doc="Let a replica outside the ISR become leader when no in-sync replica is alive: the "
        "partition is available again, and records only the lost replicas had are gone. "
        "Default of the topic setting.",
    ),
    Setting(
        "replica.lag.time.max.ms",
        L,
        30000,
        section=REPL,
        min=1,
        doc="A follower that has not caught up with the leader's log end for this long is "
        "removed from the ISR (acks=all stops waiting for it).",
    ),
    Setting(
        "replica.fetch.wait.max.ms",
        I,
        500,
        section=REPL,
        min=0,
        doc="Longest a follower's fetch waits at the leader for new data.",
    ),
    Setting(
        "replica.fetch.min.bytes",
        I,
        1,
        section=REPL,
        min=1,
        doc="Bytes a follower's fetch waits for (up to replica.fetch.wait.max.ms).",
    ),
    Setting(
        "replica.fetch.max.bytes",
        I,
        1048576,
        section=REPL,
        min=0,
        doc="Bytes a follower fetches per partition and request (at least one batch).",
    ),
    Setting(
        "replica.fetch.response.max.bytes",
        I,
        10485760,
        section=REPL,
        min=0,
        doc="Bytes a follower fetches per request over all partitions (at least one batch).",
    ),
    Setting(
        "replica.fetch.backoff.ms",
        I,
        1000,
        section=REPL,
        min=0,
        doc="Pause before a follower fetches a partition again after an error.",
    ),
    Setting(
        "replica.socket.timeout.ms",
        I,
        30000,
        section=REPL,
        min=1,
        doc="How long a follower waits for a leader's answer before it tries again.",
    ),
    Setting(
        "auto.leader.rebalance.enable",
        B,
        True,
        section=REPL,
        doc="The controller moves leadership back to each partition's preferred (first) "
        "replica when a broker's imbalance passes leader.imbalance.per.broker.percentage.",
    ),
    Setting(
        "leader.imbalance.check.interval.seconds",
        L,
        300,
        section=REPL,
        min=1,
        doc="How often the controller checks the leader balance.",
    ),
    Setting(
        "leader.imbalance.per.broker.percentage",
        I,
        10,
        section=REPL,
        min=0,
        doc="Share of a broker's preferred partitions led elsewhere above which the "
        "controller moves them back (auto.leader.rebalance.enable).",
    ),
    Setting(
        "controlled.shutdown.enable",
        B,
        True,
        section=REPL,
        doc="On SIGTERM, a cluster member first has its leaderships moved to other in-sync "
        "replicas and leaves the ISRs (for at most 5 s), then stops.",
    ),
    Setting(
        "auto.create.topics.enable",
        B,
        True,
        section=TOPIC,
        summary=True,
        doc="Create a topic when a client asks for its metadata or produces to it.",
    ),
    Setting(
        "message.max.bytes",
        I,
        1048588,
        section=TOPIC,
        min=0,
        dynamic=True,
        summary=True,
        doc="Largest record batch (after compression) accepted by Produce.",
    ),
    Setting(
        "delete.topic.enable",
        B,
        True,
        section=TOPIC,
        doc="Whether DeleteTopics may delete topics; off, it answers TOPIC_DELETION_DISABLED.",
    ),
    Setting(
        "fetch.max.bytes",
        I,
        57_671_680,
        section=TOPIC,
        min=1,
        doc="Most bytes one Fetch response carries, whatever the client asks (the first partition "
        "with data still returns one whole batch).",
        why="Kafka refuses values below 1024; any positive cap works the same way here (the first "
        "batch is always whole), so small values are allowed for tight test setups",
    ),
    Setting(
        "max.incremental.fetch.session.cache.slots",
        I,
        1000,
        section=TOPIC,
        min=0,
        doc="Incremental fetch sessions (KIP-227) this broker keeps; 0 disables them.",
    ),
    Setting(
        "max.request.partition.size.limit",
        I,
        2000,
        section=TOPIC,
        min=1,
        doc="Most partitions one DescribeTopicPartitions response lists before it pages with a cursor.",
    ),
)
