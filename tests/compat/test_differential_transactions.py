"""Differential tests of transactions: the same scenario against Apache Kafka 4.4.0 and sharebroker.

Each scenario returns what a user can observe, normalised (producer ids become
deltas, timestamps are dropped) and compared with ``==``: commit and abort
visibility for read_committed and read_uncommitted readers, last stable
offsets and high watermarks, the error codes a zombie producer gets at each
API version, verification errors (KIP-890), transaction-version-2 epochs,
transactional offsets with require_stable, the coordinator's abort of a
timed-out transaction, DescribeTransactions / ListTransactions /
DescribeProducers, and ``kafka-transactions.sh`` output: Kafka's own
TransactionsCommand (peers/tools) on both brokers, and ``sharebroker
transactions`` on both brokers.

Run with ``make compat-diff`` (needs ``make peers``; skipped without Java or the jars).
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from broker.protocol.messages.add_offsets_to_txn_request import AddOffsetsToTxnRequest
from broker.protocol.messages.add_partitions_to_txn_request import AddPartitionsToTxnRequest, AddPartitionsToTxnTopic
from broker.protocol.messages.describe_producers_request import DescribeProducersRequest, TopicRequest
from broker.protocol.messages.describe_transactions_request import DescribeTransactionsRequest
from broker.protocol.messages.end_txn_request import EndTxnRequest
from broker.protocol.messages.find_coordinator_request import FindCoordinatorRequest
from broker.protocol.messages.init_producer_id_request import InitProducerIdRequest
from broker.protocol.messages.list_transactions_request import ListTransactionsRequest
from broker.protocol.messages.offset_fetch_request import OffsetFetchRequest, OffsetFetchRequestTopic
from broker.protocol.messages.produce_request import PartitionProduceData, ProduceRequest, TopicProduceData
from broker.protocol.messages.txn_offset_commit_request import (
    TxnOffsetCommitRequest,
    TxnOffsetCommitRequestPartition,
    TxnOffsetCommitRequestTopic,
)
from broker.protocol.records import build_batch
from tests.compat import differential as d
from tests.integration.clients import create_topic
from tests.integration.test_transactions import offsets, read, txn_producer
from tests.integration.wire import WireClient

pytestmark = pytest.mark.compat

ROOT = Path(__file__).resolve().parents[2]
TOOLS_LIBS = ROOT / "peers" / ".cache" / "tools" / "lib"
SB_SETTINGS = {"transaction.state.log.num.partitions": "3", "offsets.topic.num.partitions": "3"}
# Accepted differences: scenario -> {key: reason}. Also in docs/COMPAT.md.
LATE_BATCH = (
    "Kafka answers EndTxn before its markers are written: a transactional batch of the same epoch sent "
    "right after the commit finds the partition's transaction still open and joins it (it is committed "
    "with it). sharebroker answers EndTxn once the markers are written, so the late batch is verified "
    "against the ended transaction and refused (INVALID_TXN_STATE), the outcome KIP-890 is after."
)
KNOWN: dict[str, dict[str, str]] = {"verification": {"after_commit": LATE_BATCH, "visible": LATE_BATCH}}


@pytest.fixture(scope="module")
def kafka():
    from bench.peers import KafkaPeer

    why = KafkaPeer.available()
    if why:
        pytest.skip(f"Kafka peer unavailable: {why}")
    peer = KafkaPeer()
    try:
        peer.start()
    except Exception as e:
        peer.stop()
        pytest.skip(f"Kafka peer did not start: {e}")
    yield peer.bootstrap
    peer.stop()
    peer._tmp.cleanup()


@pytest.fixture(scope="module")
def sb(sharebroker_factory):
    return sharebroker_factory(SB_SETTINGS).bootstrap


def compare(name: str, scenario, kafka: str, sb: str) -> tuple[dict, dict]:
    k = scenario(kafka)
    s = scenario(sb)
    skip = KNOWN.get(name, {})
    diff = {
        key: (k.get(key), s.get(key)) for key in sorted(set(k) | set(s)) if key not in skip and k.get(key) != s.get(key)
    }
    assert not diff, f"{name}: kafka vs sharebroker differ: {diff}"
    return k, s


# ------------------------------------------------------------------ raw wire helpers


def coordinator_ready(w: WireClient, txn: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while True:
        resp = w.request(FindCoordinatorRequest(key=txn, key_type=1), 3)
        if resp.error_code == 0:
            return
        assert time.monotonic() < deadline, f"no transaction coordinator: {d.err(resp.error_code)}"
        time.sleep(0.2)


def init(w: WireClient, txn: str, timeout_ms: int = 60_000, version: int = 4, retry: bool = True) -> tuple:
    """InitProducerId (retrying CONCURRENT_TRANSACTIONS and loading, like clients): (error, pid, epoch)."""
    deadline = time.monotonic() + 30
    while True:
        r = w.request(InitProducerIdRequest(transactional_id=txn, transaction_timeout_ms=timeout_ms), version)
        if not retry or r.error_code not in (14, 15, 16, 51) or time.monotonic() > deadline:
            return d.err(r.error_code), r.producer_id, r.producer_epoch
        time.sleep(0.1)


def add(w: WireClient, txn: str, pid: int, epoch: int, topic: str, partitions: list[int], version: int = 3) -> list:
    r = w.request(
        AddPartitionsToTxnRequest(
            v3_and_below_transactional_id=txn,
            v3_and_below_producer_id=pid,
            v3_and_below_producer_epoch=epoch,
            v3_and_below_topics=[AddPartitionsToTxnTopic(topic, partitions)],
        ),
        version,
    )
    # Per partition, in partition order: the order of the results is not part of the answer
    # (Kafka's follows a hash map).
    return sorted(
        (p.partition_index, d.err(p.partition_error_code))
        for t in r.results_by_topic_v3_and_below
        for p in t.results_by_partition
    )


def produce(w: WireClient, txn: str, topic: str, partition: int, pid: int, epoch: int, seq: int, version: int = 10):
    batch = build_batch(
        [(None, b"v%d" % seq)], producer_id=pid, producer_epoch=epoch, base_sequence=seq, transactional=True
    )
    deadline = time.monotonic() + 20
    while True:
        r = w.request(
            ProduceRequest(
                transactional_id=txn,
                acks=-1,
                timeout_ms=10_000,
                topic_data=[TopicProduceData(name=topic, partition_data=[PartitionProduceData(partition, batch)])],
            ),
            version,
        )
        code = r.responses[0].partition_responses[0].error_code
        # Retriable, as clients retry them: NOT_ENOUGH_REPLICAS (the coordinator is busy),
        # NOT_LEADER_OR_FOLLOWER (a new topic's leadership still spreading, on Kafka).
        if code not in (6, 19) or time.monotonic() > deadline:
            return d.err(code)
        time.sleep(0.1)


def end(w: WireClient, txn: str, pid: int, epoch: int, commit: bool, version: int = 3) -> tuple:
    deadline = time.monotonic() + 20
    while True:
        r = w.request(
            EndTxnRequest(transactional_id=txn, producer_id=pid, producer_epoch=epoch, committed=commit), version
        )
        if r.error_code != 51 or time.monotonic() > deadline:  # CONCURRENT_TRANSACTIONS
            return d.err(r.error_code), r.producer_id, r.producer_epoch
        time.sleep(0.1)


def describe(w: WireClient, txn: str) -> dict:
    s = w.request(DescribeTransactionsRequest([txn]), 0).transaction_states[0]
    return {
        "error": d.err(s.error_code),
        "state": s.transaction_state,
        "timeout_ms": s.transaction_timeout_ms,
        "epoch": s.producer_epoch,
        "started": s.transaction_start_time_ms > 0,
        "partitions": sorted(p for t in s.topics for p in t.partitions),
    }


def wait_described(w: WireClient, txn: str, state: str, timeout: float = 40) -> dict:
    deadline = time.monotonic() + timeout
    got = describe(w, txn)
    while got["state"] != state and time.monotonic() < deadline:
        time.sleep(0.2)
        got = describe(w, txn)
    return got


def ready_topic(bootstrap: str, partitions: int = 1) -> str:
    topic = d.unique("tx")
    create_topic(bootstrap, topic, partitions=partitions)
    with WireClient(bootstrap) as w:
        d.topic_id(w, topic)
    return topic


# ------------------------------------------------------------------ scenarios


def sc_visibility(bootstrap: str) -> dict:
    """librdkafka: commit, abort and an open transaction over two partitions."""
    topic = ready_topic(bootstrap, 2)
    p = txn_producer(bootstrap, d.unique("vis"))
    p.begin_transaction()
    for i in range(3):
        p.produce(topic, value=b"c%d" % i, partition=i % 2)
    p.commit_transaction(30)
    p.begin_transaction()
    for i in range(2):
        p.produce(topic, value=b"a%d" % i, partition=i % 2)
    assert p.flush(10) == 0
    p.abort_transaction(30)
    p.begin_transaction()
    p.produce(topic, value=b"open", partition=0)
    assert p.flush(10) == 0
    during = {
        "committed": sorted(read(bootstrap, topic, 2)),
        "uncommitted": sorted(read(bootstrap, topic, 2, committed=False)),
        "offsets": [offsets(bootstrap, topic, i) for i in range(2)],
    }
    p.commit_transaction(30)
    return {
        "during_open": during,
        "committed_after": sorted(read(bootstrap, topic, 2)),
        "offsets_after": [offsets(bootstrap, topic, i) for i in range(2)],
    }


def sc_fencing(bootstrap: str) -> dict:
    """A second InitProducerId fences the first producer: every API's error for the zombie."""
    topic = ready_topic(bootstrap)
    txn = d.unique("fence")
    out: dict = {}
    with WireClient(bootstrap) as w:
        coordinator_ready(w, txn)
        code, pid, epoch = init(w, txn)
        out["init"] = (code, epoch)
        out["add"] = add(w, txn, pid, epoch, topic, [0])
        out["produce"] = produce(w, txn, topic, 0, pid, epoch, 0)
        first = w.request(InitProducerIdRequest(transactional_id=txn, transaction_timeout_ms=60_000), 4)
        out["reinit_while_open"] = d.err(first.error_code)
        code, pid2, epoch2 = init(w, txn)
        out["reinit"] = (code, pid2 == pid, epoch2 - epoch)
        out["zombie_add_v1"] = add(w, txn, pid, epoch, topic, [0], version=1)
        out["zombie_add_v3"] = add(w, txn, pid, epoch, topic, [0], version=3)
        out["zombie_end_v1"] = end(w, txn, pid, epoch, True, version=1)[0]
        out["zombie_end_v3"] = end(w, txn, pid, epoch, True, version=3)[0]
        out["zombie_produce"] = produce(w, txn, topic, 0, pid, epoch, 1)
        out["zombie_init_v3"] = d.err(
            w.request(
                InitProducerIdRequest(
                    transactional_id=txn, transaction_timeout_ms=60_000, producer_id=pid, producer_epoch=epoch
                ),
                3,
            ).error_code
        )
        out["state"] = describe(w, txn)
    out["visible"] = read(bootstrap, topic, 1)
    out["offsets"] = offsets(bootstrap, topic)
    return out


def sc_verification(bootstrap: str) -> dict:
    """KIP-890: transactional batches to partitions outside the transaction, by Produce version."""
    topic = ready_topic(bootstrap, 2)
    txn = d.unique("verify")
    out: dict = {}
    with WireClient(bootstrap) as w:
        coordinator_ready(w, txn)
        _, pid, epoch = init(w, txn)
        out["before_any_add_v10"] = produce(w, txn, topic, 0, pid, epoch, 0, version=10)
        out["add"] = add(w, txn, pid, epoch, topic, [0])
        out["other_partition_v10"] = produce(w, txn, topic, 1, pid, epoch, 0, version=10)
        out["other_partition_v11"] = produce(w, txn, topic, 1, pid, epoch, 0, version=11)
        out["added_partition"] = produce(w, txn, topic, 0, pid, epoch, 0, version=10)
        out["commit"] = end(w, txn, pid, epoch, True)[0]
        out["after_commit"] = produce(w, txn, topic, 0, pid, epoch, 1, version=10)
        out["unknown_partition_add"] = add(w, txn, pid, epoch, topic, [0, 7])
    out["visible"] = [read(bootstrap, topic, 2)]
    return out


def sc_transaction_version_2(bootstrap: str) -> dict:
    """EndTxn v5 and Produce v12: implicit adds, an epoch bump per end, retries and empty aborts."""
    topic = ready_topic(bootstrap)
    txn = d.unique("tv2")
    out: dict = {}
    with WireClient(bootstrap) as w:
        coordinator_ready(w, txn)
        code, pid, epoch = init(w, txn, version=5)
        out["init"] = (code, epoch)
        out["produce_v12"] = produce(w, txn, topic, 0, pid, epoch, 0, version=12)
        code, pid2, epoch2 = end(w, txn, pid, epoch, True, version=5)
        out["commit"] = (code, pid2 == pid, epoch2 - epoch)
        code, _, epoch3 = end(w, txn, pid, epoch, True, version=5)
        out["commit_retry"] = (code, epoch3 - epoch)
        out["stale_commit"] = end(w, txn, pid, epoch - 1 if epoch else epoch + 5, True, version=5)[0]
        out["produce_next"] = produce(w, txn, topic, 0, pid, epoch2, 0, version=12)
        code, _, epoch4 = end(w, txn, pid, epoch2, False, version=5)
        out["abort"] = (code, epoch4 - epoch2)
        code, _, epoch5 = end(w, txn, pid, epoch4, False, version=5)
        out["abort_nothing_open"] = (code, epoch5 - epoch4)
        out["commit_nothing_open"] = end(w, txn, pid, epoch5, True, version=5)[0]
        out["state"] = describe(w, txn)
    out["visible"] = read(bootstrap, topic, 1)
    return out


def sc_offsets(bootstrap: str) -> dict:
    """TxnOffsetCommit: UNSTABLE_OFFSET_COMMIT while open, applied at commit, dropped at abort."""
    topic = ready_topic(bootstrap)
    txn, group = d.unique("off"), d.unique("og")
    out: dict = {}

    def fetch(w: WireClient, stable: bool = True, settle: bool = False) -> tuple:
        """OffsetFetch; ``settle``: retry UNSTABLE_OFFSET_COMMIT as consumers do (a
        transaction that just ended may still be writing its markers on Kafka)."""
        req = OffsetFetchRequest(
            group_id=group, topics=[OffsetFetchRequestTopic(name=topic, partition_indexes=[0])], require_stable=stable
        )
        deadline = time.monotonic() + 10
        while True:
            p = w.request(req, 7).topics[0].partitions[0]
            if not settle or p.error_code != 88 or time.monotonic() > deadline:
                return d.err(p.error_code), p.committed_offset
            time.sleep(0.1)

    def add_offsets_retrying(w: WireClient, req: AddOffsetsToTxnRequest) -> str:
        deadline = time.monotonic() + 10
        while True:
            code = w.request(req, 3).error_code
            if code != 51 or time.monotonic() > deadline:  # CONCURRENT_TRANSACTIONS: clients retry
                return d.err(code)
            time.sleep(0.1)

    def commit(w: WireClient, pid: int, epoch: int, offset: int, version: int = 3) -> str:
        req = TxnOffsetCommitRequest(
            transactional_id=txn,
            group_id=group,
            producer_id=pid,
            producer_epoch=epoch,
            topics=[TxnOffsetCommitRequestTopic(name=topic, partitions=[TxnOffsetCommitRequestPartition(0, offset)])],
        )
        return d.err(w.request(req, version).topics[0].partitions[0].error_code)

    with WireClient(bootstrap) as w:
        coordinator_ready(w, txn)
        d.find_coordinator(w, group)
        _, pid, epoch = init(w, txn)
        out["not_added_v3"] = commit(w, pid, epoch, 5, version=3)
        out["not_added_v4"] = commit(w, pid, epoch, 5, version=4)
        add_offsets = AddOffsetsToTxnRequest(
            transactional_id=txn, producer_id=pid, producer_epoch=epoch, group_id=group
        )
        out["add_offsets"] = d.err(w.request(add_offsets, 3).error_code)
        out["commit_offsets"] = commit(w, pid, epoch, 10)
        out["fetch_open_stable"] = fetch(w)
        out["fetch_open"] = fetch(w, stable=False)
        out["end"] = end(w, txn, pid, epoch, True)[0]
        out["fetch_committed"] = fetch(w, settle=True)
        out["add_offsets_2"] = add_offsets_retrying(w, add_offsets)
        out["commit_offsets_2"] = commit(w, pid, epoch, 20)
        out["abort"] = end(w, txn, pid, epoch, False)[0]
        out["fetch_after_abort"] = fetch(w, settle=True)
    return out


def sc_timeout_abort(bootstrap: str) -> dict:
    """A transaction older than its timeout is aborted by the coordinator; the producer is fenced."""
    topic = ready_topic(bootstrap)
    txn = d.unique("slow")
    out: dict = {}
    with WireClient(bootstrap) as w:
        coordinator_ready(w, txn)
        _, pid, epoch = init(w, txn, timeout_ms=1000)
        out["add"] = add(w, txn, pid, epoch, topic, [0])
        out["produce"] = produce(w, txn, topic, 0, pid, epoch, 0)
        got = wait_described(w, txn, "CompleteAbort")
        got["epoch"] -= epoch
        out["after_timeout"] = got
        out["late_commit_v3"] = end(w, txn, pid, epoch, True, version=3)[0]
        out["late_commit_v5"] = end(w, txn, pid, epoch, True, version=5)[0]
        code, pid2, epoch2 = init(w, txn)
        out["reinit"] = (code, pid2 == pid, epoch2 - epoch)
    out["visible"] = read(bootstrap, topic, 1)
    out["offsets"] = offsets(bootstrap, topic)
    return out


def sc_admin(bootstrap: str) -> dict:
    """DescribeTransactions, ListTransactions filters and DescribeProducers of an open transaction."""
    topic = ready_topic(bootstrap, 2)
    txn = d.unique("adm")
    out: dict = {}
    with WireClient(bootstrap) as w:
        coordinator_ready(w, txn)
        _, pid, epoch = init(w, txn, timeout_ms=45_000)
        add(w, txn, pid, epoch, topic, [0, 1])
        produce(w, txn, topic, 1, pid, epoch, 0)
        produce(w, txn, topic, 1, pid, epoch, 1)
        out["describe"] = describe(w, txn)
        out["describe_unknown"] = describe(w, d.unique("nobody"))["error"]
        out["describe_empty_id"] = describe(w, "")["error"]

        def listed(version: int, **kw) -> tuple:
            r = w.request(ListTransactionsRequest(**kw), version)
            return (
                d.err(r.error_code),
                sorted(r.unknown_state_filters),
                sorted((s.transactional_id == txn, s.transaction_state) for s in r.transaction_states),
            )

        out["list_by_pattern"] = listed(2, transactional_id_pattern=re.escape(txn))
        out["list_by_state"] = listed(2, transactional_id_pattern=re.escape(txn), state_filters=["Ongoing", "Bogus"])
        out["list_by_producer"] = listed(1, producer_id_filters=[pid])
        out["list_bad_pattern"] = listed(2, transactional_id_pattern="(")[0]
        r = w.request(DescribeProducersRequest([TopicRequest(topic, [0, 1]), TopicRequest(d.unique("no"), [0])]), 0)
        out["producers"] = [
            [
                (
                    d.err(p.error_code),
                    [
                        (s.producer_epoch - epoch, s.last_sequence, s.current_txn_start_offset, s.coordinator_epoch)
                        for s in p.active_producers
                    ],
                )
                for p in t.partitions
            ]
            for t in r.topics
        ]
        end(w, txn, pid, epoch, False)
    return out


def test_visibility_and_offsets(kafka, sb):
    compare("visibility", sc_visibility, kafka, sb)


def test_fencing(kafka, sb):
    compare("fencing", sc_fencing, kafka, sb)


def test_verification(kafka, sb):
    compare("verification", sc_verification, kafka, sb)


def test_transaction_version_2(kafka, sb):
    compare("transaction_version_2", sc_transaction_version_2, kafka, sb)


def test_transactional_offsets(kafka, sb):
    compare("offsets", sc_offsets, kafka, sb)


def test_timeout_abort(kafka, sb):
    compare("timeout_abort", sc_timeout_abort, kafka, sb)


def test_admin_apis(kafka, sb):
    compare("admin", sc_admin, kafka, sb)


# ------------------------------------------------------------------ kafka-transactions.sh


def kafka_tool(bootstrap: str, *args: str) -> tuple[int, str]:
    proc = subprocess.run(
        [
            "java",
            "-cp",
            f"{TOOLS_LIBS}/*",
            "org.apache.kafka.tools.TransactionsCommand",
            "--bootstrap-server",
            bootstrap,
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    return proc.returncode, proc.stdout + proc.stderr


def our_tool(bootstrap: str, *args: str) -> tuple[int, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "broker", "transactions", "--bootstrap-server", bootstrap, *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    return proc.returncode, proc.stdout + proc.stderr


def normalise(out: str, txn: str, topic: str) -> str:
    """Names, ids and times vary between runs and brokers; the layout and states must not."""
    out = out.replace(txn, "TXN").replace(topic, "TOPIC")
    out = re.sub(r"\b1[0-9]{12}\b", "TS", out)  # epoch-millisecond timestamps
    lines = []
    for line in out.splitlines():
        cells = line.split("\t")
        if len(cells) > 1:
            # Producer ids and durations differ: keep only the column widths' shape of the header row.
            cells = [re.sub(r"^\d+( *)$", lambda m: "N" + m.group(1)[: max(len(m.group(1)) - 0, 0)], c) for c in cells]
            cells = [c.rstrip() for c in cells]
        lines.append("\t".join(cells))
    return "\n".join(lines)


def sc_tool(bootstrap: str, run) -> dict:
    topic = ready_topic(bootstrap, 2)
    txn = d.unique("tool")
    p = txn_producer(bootstrap, txn)
    p.begin_transaction()
    p.produce(topic, value=b"x", partition=1)
    assert p.flush(10) == 0
    out = {}
    out["list"] = run(bootstrap, "list", "--transactional-id-pattern", re.escape(txn))
    out["describe"] = run(bootstrap, "describe", "--transactional-id", txn)
    out["describe_producers"] = run(bootstrap, "describe-producers", "--topic", topic, "--partition", "1")
    out["find_hanging"] = run(bootstrap, "find-hanging", "--topic", topic, "--max-transaction-timeout", "0")
    out["abort_wrong_offset"] = run(bootstrap, "abort", "--topic", topic, "--partition", "1", "--start-offset", "9")
    out["abort"] = run(bootstrap, "abort", "--topic", topic, "--partition", "1", "--start-offset", "0")
    out["offsets_after_abort"] = offsets(bootstrap, topic, 1)
    out["describe_unknown_rc"] = run(bootstrap, "describe", "--transactional-id", d.unique("none"))[0]
    out["find_hanging_usage"] = run(bootstrap, "find-hanging")
    return {
        k: (v[0], normalise(v[1], txn, topic)) if isinstance(v, tuple) and isinstance(v[1], str) else v
        for k, v in out.items()
    }


@pytest.fixture(scope="module")
def kafka_tools():
    if not (TOOLS_LIBS / ".resolved-4.4.0").exists():
        pytest.skip("Kafka's tools not resolved: run peers/tools/build.sh (make peers)")


def test_kafka_transactions_command_reads_sharebroker_as_it_reads_kafka(kafka, sb, kafka_tools):
    compare("kafka_tool", lambda bs: sc_tool(bs, kafka_tool), kafka, sb)


def test_sharebroker_transactions_prints_what_kafka_transactions_prints(kafka, sb, kafka_tools):
    k = sc_tool(kafka, kafka_tool)
    s = sc_tool(sb, our_tool)
    # The same command lines, Kafka's tool on Kafka, ours on sharebroker: same tables.
    for key in (
        "list",
        "describe",
        "describe_producers",
        "find_hanging",
        "abort",
        "offsets_after_abort",
        "describe_unknown_rc",
    ):
        assert k[key] == s[key], f"{key}: {k[key]!r} != {s[key]!r}"
    assert k["abort_wrong_offset"] == s["abort_wrong_offset"]
    assert (
        k["find_hanging_usage"][0] == s["find_hanging_usage"][0]
        and "requires either --topic or --broker-id" in s["find_hanging_usage"][1]
    )
