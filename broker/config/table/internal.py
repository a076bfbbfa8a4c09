"""Internal topics (offsets, transactions) and compatibility settings.

Pure data: one :class:`Setting` per key, in the order of docs/CONFIG.md."""

from __future__ import annotations

from broker.config.model import Setting
from broker.config.table.names import COMPAT, INTERNAL, SINGLE_NODE_RF, B, I, S

SETTINGS: tuple[Setting, ...] = (
    # ---- internal topics
    Setting(
        "offsets.topic.num.partitions",
        I,
        50,
        section=INTERNAL,
        min=1,
        doc="Partitions of __consumer_offsets.",
    ),
    Setting(
        "offsets.topic.replication.factor",
        S,
        3,
        section=INTERNAL,
        min=1,
        doc="Replication factor of __consumer_offsets. In a cluster, the topic is created "
        "once this many brokers are registered (groups wait until then).",
        why=SINGLE_NODE_RF,
    ),
    Setting(
        "transaction.state.log.num.partitions",
        I,
        50,
        section=INTERNAL,
        min=1,
        doc="Partitions of __transaction_state.",
    ),
    Setting(
        "transaction.state.log.replication.factor",
        S,
        3,
        section=INTERNAL,
        min=1,
        doc="Replication factor of __transaction_state. In a cluster, the topic is created "
        "once this many brokers are registered.",
        why=SINGLE_NODE_RF,
    ),
    Setting(
        "transaction.state.log.min.isr",
        I,
        2,
        section=INTERNAL,
        min=1,
        doc="min.insync.replicas of __transaction_state (a single node has one replica: there it is 1).",
    ),
    Setting(
        "transaction.max.timeout.ms",
        I,
        900000,
        section=INTERNAL,
        min=1,
        doc="Longest transaction timeout a producer may request; InitProducerId asking for more "
        "gets INVALID_TRANSACTION_TIMEOUT.",
    ),
    Setting(
        "transaction.state.log.segment.bytes",
        I,
        104857600,
        section=INTERNAL,
        min=1,
        doc="Segment size of __transaction_state (its log is kept short by rewriting live state).",
    ),
    Setting(
        "transactional.id.expiration.ms",
        I,
        604800000,
        section=INTERNAL,
        min=1,
        doc="A transactional id with no transaction open and no request for this long is removed "
        "(its producer id and epoch are forgotten).",
    ),
    Setting(
        "transaction.version",
        S,
        2,
        section=INTERNAL,
        min=0,
        max=2,
        doc="Finalized level of the transaction.version feature, as ApiVersions reports it: 2 bumps "
        "the producer epoch at every transaction end (KIP-890 part 2, EndTxn v5, implicit partition "
        "adds by Produce v12+); 0 or 1 keep the older protocol for every client.",
        why="Kafka finalizes features cluster-wide with kafka-features.sh; here the node's setting "
        "is the finalized level (2, as a new Kafka 4.4 cluster)",
    ),
    Setting(
        "transaction.two.phase.commit.enable",
        B,
        False,
        section=INTERNAL,
        doc="Allow InitProducerId with enable2Pc (KIP-939); refused with "
        "TRANSACTIONAL_ID_AUTHORIZATION_FAILED otherwise.",
    ),
    Setting(
        "transaction.partition.verification.enable",
        B,
        True,
        section=INTERNAL,
        doc="Before the first transactional batch of a producer reaches a partition, check with the "
        "transaction coordinator that the partition is in its open transaction (KIP-890 part 1); "
        "a batch that was not verified is refused with INVALID_TXN_STATE.",
    ),
    Setting(
        "producer.id.expiration.ms",
        I,
        86400000,
        section=INTERNAL,
        min=1,
        doc="A partition forgets an idle producer's sequence and epoch after this long (no open "
        "transaction); DescribeProducers stops listing it.",
    ),
    # ---- compatibility
    Setting(
        "unstable.api.versions.enable",
        B,
        False,
        section=COMPAT,
        doc="Also advertise API versions that are still marked unstable.",
    ),
)
