"""``sharebroker transactions`` against the real broker, with real transactional producers."""

from __future__ import annotations

import subprocess
import sys

from tests.integration.clients import create_topic
from tests.integration.test_transactions import offsets, read, txn_producer, unique


def tool(bootstrap: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "broker", "transactions", "--bootstrap-server", bootstrap, *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def rows(out: str) -> list[list[str]]:
    """The table's cells (Kafka's layout: padded cells, each followed by a tab)."""
    lines = out.splitlines()
    assert all(line.endswith("\t") for line in lines)
    return [[c.strip() for c in line.split("\t")[:-1]] for line in lines]


def test_list_describe_and_describe_producers(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("tool")
    create_topic(bs, topic, partitions=2)
    txn_id = unique("tool-txn")
    producer = txn_producer(bs, txn_id)
    producer.begin_transaction()
    producer.produce(topic, value=b"x", partition=1)
    assert producer.flush(10) == 0

    done = tool(bs, "list", "--transactional-id-pattern", txn_id)
    assert done.returncode == 0, done.stderr
    table = rows(done.stdout)
    assert table[0] == ["TransactionalId", "Coordinator", "ProducerId", "TransactionState"]
    assert table[1][0] == txn_id and table[1][3] == "Ongoing"
    producer_id = table[1][2]

    done = tool(bs, "describe", "--transactional-id", txn_id)
    assert done.returncode == 0, done.stderr
    header, row = rows(done.stdout)
    got = dict(zip(header, row))
    assert (got["TransactionalId"], got["ProducerId"], got["TransactionState"]) == (txn_id, producer_id, "Ongoing")
    assert got["TopicPartitions"] == f"{topic}-1" and int(got["TransactionDurationMs"]) >= 0

    done = tool(bs, "describe-producers", "--topic", topic, "--partition", "1")
    assert done.returncode == 0, done.stderr
    header, row = rows(done.stdout)
    got = dict(zip(header, row))
    assert (got["ProducerId"], got["CurrentTransactionStartOffset"], got["LastSequence"]) == (producer_id, "0", "0")

    # Known to its coordinator: not hanging.
    done = tool(bs, "find-hanging", "--topic", topic, "--max-transaction-timeout", "0")
    assert done.returncode == 0 and rows(done.stdout)[1:] == []

    producer.commit_transaction(30)
    done = tool(bs, "describe", "--transactional-id", txn_id)
    assert dict(zip(*rows(done.stdout)))["TransactionState"] == "CompleteCommit"
    assert rows(tool(bs, "describe-producers", "--topic", topic, "--partition", "1").stdout)[1][5] == "None"


def test_abort_a_hanging_transaction_by_start_offset(sharebroker_bootstrap):
    bs = sharebroker_bootstrap
    topic = unique("hang")
    create_topic(bs, topic)
    producer = txn_producer(bs, unique("hang"))
    producer.begin_transaction()
    producer.produce(topic, value=b"stuck")
    assert producer.flush(10) == 0
    assert offsets(bs, topic) == (0, 1)

    done = tool(bs, "abort", "--topic", topic, "--partition", "0", "--start-offset", "7")
    assert done.returncode == 1
    assert done.stderr.strip() == f"Could not find any open transactions starting at offset 7 on partition {topic}-0"
    done = tool(bs, "abort", "--topic", topic, "--partition", "0")
    assert done.returncode == 1 and "--start-offset" in done.stderr

    done = tool(bs, "abort", "--topic", topic, "--partition", "0", "--start-offset", "0")
    assert done.returncode == 0, done.stderr
    assert offsets(bs, topic) == (2, 2)
    assert read(bs, topic, 1) == []


def test_errors(sharebroker_bootstrap):
    done = tool(sharebroker_bootstrap, "describe", "--transactional-id", unique("nobody"))
    assert done.returncode == 1
    assert done.stderr.startswith("Failed to describe transaction state of transactional-id `")
    assert "TRANSACTIONAL_ID_NOT_FOUND" in done.stderr
    done = tool(sharebroker_bootstrap, "find-hanging")
    assert done.returncode == 1 and "requires either --topic or --broker-id" in done.stderr
    done = tool(sharebroker_bootstrap, "describe-producers", "--topic", unique("nope"), "--partition", "0")
    assert done.returncode == 1 and "UNKNOWN_TOPIC_OR_PARTITION" in done.stderr
