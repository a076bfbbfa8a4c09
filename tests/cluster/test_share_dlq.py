"""Dead-letter queues (KIP-1191) in a 3-broker cluster: the dead-letter topic's partitions
are led by other brokers than the source partitions' leaders, so copies go over the wire
(Produce, acks=all) before the records are archived."""

from __future__ import annotations

from tests.integration import dlq_scenario
from tests.integration.clients import admin


def test_dead_letters_across_brokers(cluster):
    out = dlq_scenario.run(cluster.bootstrap)
    dlq_scenario.check(out)
    client = admin(cluster.bootstrap)
    topics = client.list_topics(timeout=10).topics
    (src,) = [t for name, t in topics.items() if name.startswith("src-")]
    (dlq,) = [t for name, t in topics.items() if name.startswith("dlq.d-")]
    crossings = [
        p for p, meta in src.partitions.items() if meta.leader != dlq.partitions[p % dlq_scenario.DLQ_PARTITIONS].leader
    ]
    assert crossings, "every dead-letter copy stayed on its source's leader: nothing went over the wire"
