"""The Apache Kafka 4.4.0 Java clients with transactions, against the real sharebroker process.

KafkaProducer with a transactional.id (transaction version 2: EndTxn v5, Produce
v12 adding partitions itself, TxnOffsetCommit without AddOffsetsToTxn), a
read_committed KafkaConsumer, a consume-transform-produce loop with
sendOffsetsToTransaction, zombie fencing, ListOffsets by isolation level, and
a KafkaShareConsumer in a share group with share.isolation.level=read_committed.
Driven through peers/java (TxnTool and ShareTool; ``make java-tool``).
"""

from __future__ import annotations

import json
import subprocess
from collections import Counter

import pytest

from tests.integration.clients import create_topic

from .conftest import JAR, check, run_tool

pytestmark = pytest.mark.compat

CLASSPATH = f"{JAR}:{JAR.parent / 'lib'}/*"


def txn_tool(*args: str, timeout: float = 120) -> list[dict]:
    proc = subprocess.run(
        ["java", "-cp", CLASSPATH, "sharebroker.peers.TxnTool", *args], capture_output=True, text=True, timeout=timeout
    )
    assert proc.returncode == 0, f"TxnTool {args[0]} exited {proc.returncode}: {proc.stderr[-3000:]}"
    return [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]


def test_java_producer_commits_and_aborts_and_read_committed_consumer_agrees(sharebroker, names):
    topic, group = names
    bs = sharebroker.bootstrap
    create_topic(bs, topic, partitions=3)
    lines = txn_tool(
        "produce",
        "--bootstrap", bs,
        "--topic", topic,
        "--transactional-id", f"{topic}-txn",
        "--transactions", "6",
        "--per-txn", "5",
        "--abort-every", "3",
        "--offsets-group", group,
    )  # fmt: skip
    assert lines[-1] == {"committed": 4, "aborted": 2}
    committed = txn_tool("consume", "--bootstrap", bs, "--topic", topic, "--timeout-ms", "5000")
    values = sorted(line["value"] for line in committed if "value" in line)
    expected = sorted(f"t{i}-{j}" for i in range(6) if (i + 1) % 3 for j in range(5))
    assert values == expected
    everything = txn_tool(
        "consume", "--bootstrap", bs, "--topic", topic, "--isolation", "read_uncommitted", "--timeout-ms", "5000"
    )
    assert everything[-1]["consumed"] == 30
    offsets = txn_tool("offsets", "--bootstrap", bs, "--topic", topic)
    assert all(o["last_stable"] == o["high_watermark"] > 0 for o in offsets)
    # The offsets sent in each transaction: only the committed ones count (t4 committed offset 5).
    got = {
        o["partition"]: o["committed"]
        for o in txn_tool("committed", "--bootstrap", bs, "--topic", topic, "--group", group)
    }
    assert got[0] == 5


def test_java_consume_transform_produce(sharebroker, names):
    topic, group = names
    bs = sharebroker.bootstrap
    out = f"{topic}-out"
    create_topic(bs, topic)
    create_topic(bs, out)
    txn_tool("produce", "--bootstrap", bs, "--topic", topic, "--transactional-id", f"{topic}-in",
             "--transactions", "4", "--per-txn", "5", "--abort-every", "2")  # fmt: skip
    done = txn_tool("etl", "--bootstrap", bs, "--in", topic, "--out", out, "--group", group,
                    "--transactional-id", f"{topic}-etl", "--max", "10", "--timeout-ms", "60000")  # fmt: skip
    assert done[-1] == {"transformed": 10}
    values = sorted(line["value"] for line in txn_tool("consume", "--bootstrap", bs, "--topic", out) if "value" in line)
    assert values == sorted(f"T{i}-{j}" for i in (0, 2) for j in range(5))
    # Transactions 0 and 2 committed (offsets 0-4, 12-16; markers at 5, 11, 17): the group is past 16.
    got = txn_tool("committed", "--bootstrap", bs, "--topic", topic, "--group", group)
    assert got == [{"partition": 0, "committed": 17}]


def test_java_zombie_is_fenced(sharebroker, names):
    topic, _ = names
    bs = sharebroker.bootstrap
    create_topic(bs, topic)
    result = txn_tool("fence", "--bootstrap", bs, "--topic", topic, "--transactional-id", f"{topic}-z")
    # Kafka 4.4 answers the zombie's produce with INVALID_PRODUCER_EPOCH (the client's ProducerFencedException
    # path goes through it for transaction version 2).
    assert result[-1]["zombie_error"] in ("InvalidProducerEpochException", "ProducerFencedException")
    values = [line["value"] for line in txn_tool("consume", "--bootstrap", bs, "--topic", topic) if "value" in line]
    assert values == ["new-1"]


def test_java_share_consumer_read_committed_never_gets_aborted_records(sharebroker, names):
    topic, group = names
    bs = sharebroker.bootstrap
    create_topic(bs, topic)
    txn_tool("produce", "--bootstrap", bs, "--topic", topic, "--transactional-id", f"{topic}-s",
             "--transactions", "6", "--per-txn", "4", "--abort-every", "2")  # fmt: skip
    for key, value in (("share.auto.offset.reset", "earliest"), ("share.isolation.level", "read_committed")):
        check(run_tool("admin", "--bootstrap", bs, "set-group-config", group, key, value), sharebroker)
    run = check(
        run_tool(
            "share-consume",
            "--bootstrap", bs,
            "--topic", topic,
            "--group", group,
            "--mode", "implicit",
            "--max", "12",
            "--timeout-ms", "30000",
        ),
        sharebroker,
    )  # fmt: skip
    values = sorted(r["value"] for r in run.records)
    assert values == sorted(f"t{i}-{j}" for i in (0, 2, 4) for j in range(4))
    assert Counter(r["deliveryCount"] for r in run.records) == Counter({1: 12})
