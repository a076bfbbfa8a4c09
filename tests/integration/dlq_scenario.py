"""One dead-letter (KIP-1191) scenario, run with real clients against any broker.

librdkafka's ShareConsumer (explicit acknowledgement) rejects offset 0 and
releases offset 1 of every partition until its delivery limit (2) archives it;
a plain consumer then reads the dead-letter topic. The result holds only what a
user observes, normalised (topic and group names as labels, timestamps as "recent"),
so that Apache Kafka 4.4 and sharebroker compare with ``==``.
"""

from __future__ import annotations

import time

from confluent_kafka import Consumer, Producer, TopicPartition

from tests.integration.clients import create_topic
from tests.integration.share_helpers import (
    ACCEPT,
    REJECT,
    RELEASE,
    close_quietly,
    set_group_configs,
    share_consumer,
    unique,
)

HEADERS = [
    "__dlq.errors.topic",
    "__dlq.errors.partition",
    "__dlq.errors.offset",
    "__dlq.errors.group",
    "__dlq.errors.delivery.count",
    "__dlq.errors.message",
]

SOURCE_PARTITIONS = 3
DLQ_PARTITIONS = 2
RECORDS_PER_PARTITION = 3


def _group(bootstrap: str, dlq_topic: str, copy: bool) -> str:
    group = unique("dg")
    set_group_configs(
        bootstrap,
        group,
        {
            "share.auto.offset.reset": "earliest",
            "share.delivery.count.limit": "2",
            "errors.deadletterqueue.topic.name": dlq_topic,
            "errors.deadletterqueue.copy.record.enable": "true" if copy else "false",
        },
    )
    return group


def _consume_rejecting(bootstrap: str, group: str, topic: str, timeout: float = 60) -> dict[tuple[int, int], int]:
    """Reject offset 0, release offset 1 (until it stops coming back), accept the rest."""
    sc = share_consumer(bootstrap, group, [topic], mode="explicit")
    seen: dict[tuple[int, int], int] = {}
    deadline = time.monotonic() + timeout
    done_at: float | None = None
    try:
        while time.monotonic() < deadline:
            for m in sc.poll(0.5):
                part, offset, count = m.partition(), m.offset(), m.delivery_count()
                if m.error() or part is None or offset is None or count is None:
                    continue
                seen[(part, offset)] = count
                sc.acknowledge(m, REJECT if offset == 0 else RELEASE if offset == 1 else ACCEPT)
            sc.commit_sync(10)
            complete = all(seen.get((p, 1)) == 2 for p in range(SOURCE_PARTITIONS)) and len(seen) == (
                SOURCE_PARTITIONS * RECORDS_PER_PARTITION
            )
            if complete:
                done_at = done_at or time.monotonic()
                if time.monotonic() - done_at > 2:  # nothing more comes back
                    break
    finally:
        close_quietly(sc)
    return seen


def read_all(bootstrap: str, topic: str, partitions: int, expect: int, timeout: float = 20) -> list:
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": unique("r"), "enable.auto.commit": False})
    try:
        c.assign([TopicPartition(topic, p, 0) for p in range(partitions)])
        out: list = []
        deadline = time.monotonic() + timeout
        quiet_until = None
        while time.monotonic() < deadline:
            m = c.poll(0.3)
            if m is None:
                if len(out) >= expect:
                    quiet_until = quiet_until or time.monotonic() + 1.0
                    if time.monotonic() > quiet_until:
                        break
                continue
            if m.error():
                continue
            out.append(m)
        return out
    finally:
        c.close()


def run(bootstrap: str) -> dict:
    src = unique("src")
    dlq_topic = "dlq." + unique("d")
    off_topic = "dlq." + unique("off")  # errors.deadletterqueue.group.enable not set
    create_topic(bootstrap, src, partitions=SOURCE_PARTITIONS)
    create_topic(
        bootstrap, dlq_topic, partitions=DLQ_PARTITIONS, config={"errors.deadletterqueue.group.enable": "true"}
    )
    create_topic(bootstrap, off_topic, partitions=1)
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
    for part in range(SOURCE_PARTITIONS):
        for i in range(RECORDS_PER_PARTITION):
            p.produce(
                src,
                key=b"k%d-%d" % (part, i),
                value=b"v%d-%d" % (part, i),
                partition=part,
                headers=[("source-header", b"x")],
                timestamp=1_700_000_000_000 + i,
            )
    assert p.flush(30) == 0
    labels = {src: "SRC"}
    groups = {"metadata-only": _group(bootstrap, dlq_topic, False), "copy": _group(bootstrap, dlq_topic, True)}
    off_group = _group(bootstrap, off_topic, True)
    for label, g in groups.items():
        labels[g] = label
    labels[off_group] = "not-enabled"
    seen = {label: _consume_rejecting(bootstrap, g, src) for label, g in groups.items()}
    seen["not-enabled"] = _consume_rejecting(bootstrap, off_group, src)
    expect = 2 * SOURCE_PARTITIONS * len(groups)
    started = time.time() * 1000
    dead = read_all(bootstrap, dlq_topic, DLQ_PARTITIONS, expect)
    off = read_all(bootstrap, off_topic, 1, 0, timeout=3)
    rows = []
    for m in dead:
        headers = [(k, v.decode() if v is not None else None) for k, v in (m.headers() or [])]
        names = [k for k, _ in headers]
        values = {k: labels.get(v, v) if v is not None else None for k, v in headers}
        ts_type, ts = m.timestamp()
        rows.append(
            {
                "dlq_partition": m.partition(),
                "key": m.key(),
                "value": m.value(),
                "header_names": names,
                "headers": values,
                "timestamp_type": ts_type,
                # written when the copy is made, not the source record's time
                "timestamp_recent": ts > 1_700_000_100_000 and abs(ts - started) < 300_000,
            }
        )
    rows.sort(
        key=lambda r: (
            r["headers"].get("__dlq.errors.group", ""),
            r["headers"].get("__dlq.errors.partition", ""),
            r["headers"].get("__dlq.errors.offset", ""),
        )
    )
    return {
        "delivery_counts": {label: sorted(s.items()) for label, s in seen.items()},
        "dead_letters": rows,
        "not_enabled_topic_records": len(off),
    }


def check(out: dict) -> None:
    """What Kafka 4.4.0 gives for :func:`run` (tests/compat/test_dlq_differential.py compares the two)."""
    rows = out["dead_letters"]
    # 3 partitions x (offset 0 rejected, offset 1 at the limit) x 2 groups
    assert len(rows) == 12
    for row in rows:
        h = row["headers"]
        assert row["header_names"] == HEADERS
        assert h["__dlq.errors.topic"] == "SRC"
        part, offset = int(h["__dlq.errors.partition"]), int(h["__dlq.errors.offset"])
        assert row["dlq_partition"] == part % DLQ_PARTITIONS
        if offset == 0:
            assert (h["__dlq.errors.delivery.count"], h["__dlq.errors.message"]) == ("1", "Offset rejected by client.")
        else:
            assert offset == 1
            assert (h["__dlq.errors.delivery.count"], h["__dlq.errors.message"]) == (
                "2",
                "Offset delivery count exceeded the threshold.",
            )
        if h["__dlq.errors.group"] == "copy":
            assert (row["key"], row["value"]) == (b"k%d-%d" % (part, offset), b"v%d-%d" % (part, offset))
        else:
            assert h["__dlq.errors.group"] == "metadata-only"
            assert (row["key"], row["value"]) == (None, None)
        assert row["timestamp_type"] == 1 and row["timestamp_recent"]
    groups = {(r["headers"]["__dlq.errors.group"], r["headers"]["__dlq.errors.partition"]) for r in rows}
    assert len(groups) == 6
    # a topic without errors.deadletterqueue.group.enable=true gets nothing; records are archived anyway
    assert out["not_enabled_topic_records"] == 0
    for seen in out["delivery_counts"].values():
        assert {tuple(k): v for k, v in seen} == {(p, o): (2 if o == 1 else 1) for p in range(3) for o in range(3)}
