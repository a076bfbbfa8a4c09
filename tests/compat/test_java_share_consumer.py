"""The Apache Kafka 4.4.0 Java KafkaShareConsumer against sharebroker.

The reference client speaks ShareFetch/ShareAcknowledge v2 when the broker
offers them (librdkafka stays on v1), so these tests cover the v2 paths with a
real client: implicit acks, explicit RELEASE (redelivery with deliveryCount 2)
and REJECT (never redelivered).
"""

from __future__ import annotations

import re
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

import pytest

from .conftest import check, run_tool

pytestmark = pytest.mark.compat


def _prepare(bootstrap: str, topic: str, group: str, count: int, broker=None) -> None:
    check(run_tool("produce", "--bootstrap", bootstrap, "--topic", topic, "--count", str(count)), broker)
    check(
        run_tool("admin", "--bootstrap", bootstrap, "set-group-config", group, "share.auto.offset.reset", "earliest"),
        broker,
    )


def _consume(bootstrap, topic, group, mode, max_records, *extra, timeout_ms=20000, wire_log=False, broker=None):
    run = run_tool(
        "share-consume",
        "--bootstrap",
        bootstrap,
        "--topic",
        topic,
        "--group",
        group,
        "--mode",
        mode,
        "--max",
        str(max_records),
        "--timeout-ms",
        str(timeout_ms),
        *extra,
        wire_log=wire_log,
    )
    return check(run, broker)


def test_implicit_mode_consumes_every_record(sharebroker, names):
    topic, group = names
    bootstrap = sharebroker.bootstrap
    _prepare(bootstrap, topic, group, 50, sharebroker)
    run = _consume(bootstrap, topic, group, "implicit", 50, broker=sharebroker)
    assert run.summary["error"] is None and not run.summary["timedOut"], run.summary
    got = sorted((r["partition"], r["offset"]) for r in run.records)
    assert got == [(0, i) for i in range(50)]
    assert {r["value"] for r in run.records} == {f"v-{i}" for i in range(50)}
    assert {r["deliveryCount"] for r in run.records} == {1}
    # Everything was accepted: a second member of the group finds nothing.
    again = _consume(bootstrap, topic, group, "implicit", 1, timeout_ms=3000, broker=sharebroker)
    assert again.records == []


def test_implicit_mode_across_partitions(sharebroker_factory, names):
    broker = sharebroker_factory(settings={"num.partitions": "3"})
    topic, group = names
    _prepare(broker.bootstrap, topic, group, 60, broker)
    run = _consume(broker.bootstrap, topic, group, "implicit", 60, broker=broker)
    assert run.summary["error"] is None and not run.summary["timedOut"], run.summary
    assert sorted(r["value"] for r in run.records) == sorted(f"v-{i}" for i in range(60))
    assert {r["partition"] for r in run.records} == {0, 1, 2}
    assert len({(r["partition"], r["offset"]) for r in run.records}) == 60


def test_explicit_release_redelivers_with_delivery_count_2(sharebroker, names):
    topic, group = names
    bootstrap = sharebroker.bootstrap
    _prepare(bootstrap, topic, group, 10, sharebroker)
    run = _consume(bootstrap, topic, group, "explicit", 10, "--release-first", "3", broker=sharebroker)
    assert run.summary["error"] is None and not run.summary["timedOut"], run.summary
    released = [r["offset"] for r in run.records if r["ack"] == "release"]
    assert len(released) == 3
    assert all(r["deliveryCount"] == 1 for r in run.records if r["ack"] == "release")
    redelivered = {
        r["offset"]: r["deliveryCount"] for r in run.records if r["offset"] in released and r["ack"] == "accept"
    }
    assert redelivered == dict.fromkeys(released, 2)
    accepted = Counter(r["offset"] for r in run.records if r["ack"] == "accept")
    assert sorted(accepted) == list(range(10)) and set(accepted.values()) == {1}


def test_explicit_reject_is_never_redelivered(sharebroker, names):
    topic, group = names
    bootstrap = sharebroker.bootstrap
    _prepare(bootstrap, topic, group, 10, sharebroker)
    run = _consume(bootstrap, topic, group, "explicit", 7, "--reject-first", "3", broker=sharebroker)
    assert run.summary["error"] is None and not run.summary["timedOut"], run.summary
    rejected = {r["offset"] for r in run.records if r["ack"] == "reject"}
    assert len(rejected) == 3
    assert Counter(r["offset"] for r in run.records)[min(rejected)] == 1
    assert {r["offset"] for r in run.records if r["ack"] == "accept"} == set(range(10)) - rejected
    assert all(r["deliveryCount"] == 1 for r in run.records)
    # Rejected records are archived: another consumer of the group gets nothing back.
    again = _consume(bootstrap, topic, group, "explicit", 1, timeout_ms=3000, broker=sharebroker)
    assert again.records == []


def test_java_client_uses_share_fetch_and_acknowledge_v2(sharebroker, names):
    topic, group = names
    bootstrap = sharebroker.bootstrap
    _prepare(bootstrap, topic, group, 5, sharebroker)
    run = _consume(bootstrap, topic, group, "explicit", 5, "--release-first", "1", wire_log=True, broker=sharebroker)
    assert run.summary["error"] is None and not run.summary["timedOut"], run.summary
    # NetworkClient debug: "Sending SHARE_FETCH request with header RequestHeader(apiKey=SHARE_FETCH, apiVersion=2, ..."
    sent = Counter(
        re.findall(r"Sending (\w+) request with header RequestHeader\(apiKey=\w+, apiVersion=(\d+)", run.stderr)
    )
    versions = {api: {int(v) for (a, v) in sent if a == api} for api, _ in sent}
    assert versions.get("SHARE_FETCH") == {2}, sent
    assert versions.get("SHARE_ACKNOWLEDGE") == {2}, sent
    assert versions.get("SHARE_GROUP_HEARTBEAT") == {1}, sent


def test_record_limit_acquire_mode_caps_each_poll(sharebroker, names):
    """share.acquire.mode=record_limit sends ShareAcquireMode=1 (v2 only): at most MaxRecords per fetch."""
    topic, group = names
    bootstrap = sharebroker.bootstrap
    _prepare(bootstrap, topic, group, 10, sharebroker)
    run = _consume(
        bootstrap, topic, group, "explicit", 10,
        "--prop", "share.acquire.mode=record_limit", "--prop", "max.poll.records=3",
        wire_log=True, broker=sharebroker,
    )  # fmt: skip
    assert run.summary["error"] is None and not run.summary["timedOut"], run.summary
    assert "shareAcquireMode=1" in run.stderr
    per_poll = Counter(r["poll"] for r in run.records)
    assert max(per_poll.values()) <= 3, per_poll
    assert sorted(r["offset"] for r in run.records) == list(range(10))
    assert {r["deliveryCount"] for r in run.records} == {1}


def test_explicit_renew_keeps_records_acquired(sharebroker, names):
    """RENEW (ack type 4, ShareAcknowledge v2 IsRenewAck=true) extends the lock without redelivery."""
    topic, group = names
    bootstrap = sharebroker.bootstrap
    _prepare(bootstrap, topic, group, 4, sharebroker)
    run = _consume(bootstrap, topic, group, "explicit", 4, "--renew-first", "2", wire_log=True, broker=sharebroker)
    assert run.summary["error"] is None and not run.summary["timedOut"], run.summary
    assert "isRenewAck=true" in run.stderr
    renewed = {r["offset"] for r in run.records if r["ack"] == "renew"}
    assert len(renewed) == 2
    # The client hands renewed records back itself; the broker kept them acquired (count stays 1).
    assert sorted(r["offset"] for r in run.records if r["ack"] == "accept") == [0, 1, 2, 3]
    assert {r["deliveryCount"] for r in run.records} == {1}
    errors = re.findall(r"Received SHARE_\w+ response .*?errorCode=(\d+)", run.stderr)
    assert set(errors) == {"0"}, errors


def test_crashed_consumer_records_come_back_with_delivery_count_2(sharebroker, names):
    """A JVM halted after its first poll (no acks, no close): the dropped connection releases its records."""
    topic, group = names
    bootstrap = sharebroker.bootstrap
    _prepare(bootstrap, topic, group, 5, sharebroker)
    crashed = run_tool(
        "share-consume", "--bootstrap", bootstrap, "--topic", topic, "--group", group,
        "--mode", "explicit", "--max", "5", "--timeout-ms", "20000", "--crash-after-polls", "1",
    )  # fmt: skip
    assert crashed.returncode == 3 and any(line.get("crash") for line in crashed.lines), crashed
    assert {r["deliveryCount"] for r in crashed.records} == {1}
    run = _consume(bootstrap, topic, group, "explicit", 5, broker=sharebroker)
    assert run.summary["error"] is None and not run.summary["timedOut"], run.summary
    assert sorted(r["offset"] for r in run.records) == list(range(5))
    first = {r["offset"] for r in crashed.records}
    assert {r["offset"]: r["deliveryCount"] for r in run.records if r["offset"] in first} == dict.fromkeys(first, 2)


def test_two_java_consumers_share_partitions_without_duplicates(sharebroker_factory, names):
    # Interval 0: with Kafka's 1 s batching (KIP-1263) the member that joins second would get
    # its partitions only at its next heartbeat (5 s), after the first has taken all 300 records.
    broker = sharebroker_factory(settings={"num.partitions": "3", "group.share.assignment.interval.ms": "0"})
    topic, group = names
    _prepare(broker.bootstrap, topic, group, 300, broker)
    # 20 s: the budget starts before the client is built; two 4.4 clients starting together on a
    # fresh broker (which creates its internal topics on first use) spend 6-7 s of it getting to
    # their first fetch on a 2-core machine, and 10 s left too little for the 300 records.
    args = ("share-consume", "--bootstrap", broker.bootstrap, "--topic", topic, "--group", group,
            "--mode", "explicit", "--max", "300", "--timeout-ms", "20000", "--poll-sleep-ms", "100",
            "--prop", "share.acquire.mode=record_limit", "--prop", "max.poll.records=10")  # fmt: skip
    with ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(lambda _: run_tool(*args), range(2)))
    for run in runs:
        check(run, broker)
    accepted = Counter((r["partition"], r["offset"]) for run in runs for r in run.records if r["ack"] == "accept")
    assert len(accepted) == 300 and set(accepted.values()) == {1}, "each record accepted exactly once"
    assert all(run.records for run in runs), "both members got records"
    assert sum(run.summary["accepted"] for run in runs) == 300


def test_delivery_count_limit_archives_after_five_releases(sharebroker, names):
    topic, group = names
    bootstrap = sharebroker.bootstrap
    _prepare(bootstrap, topic, group, 1, sharebroker)
    run = _consume(bootstrap, topic, group, "explicit", 1, "--release-first", "10", timeout_ms=5000, broker=sharebroker)
    assert [r["deliveryCount"] for r in run.records] == [1, 2, 3, 4, 5]
    assert {r["ack"] for r in run.records} == {"release"}


def test_expired_lock_rejects_late_ack_and_redelivers(sharebroker_factory, names):
    broker = sharebroker_factory(settings={"group.share.min.record.lock.duration.ms": "1000"})
    topic, group = names
    _prepare(broker.bootstrap, topic, group, 3, broker)
    check(
        run_tool(
            "admin", "--bootstrap", broker.bootstrap, "set-group-config", group, "share.record.lock.duration.ms", "1000"
        ),
        broker,
    )
    slow = _consume(broker.bootstrap, topic, group, "explicit", 3, "--process-ms", "2500", broker=broker)
    assert {r["deliveryCount"] for r in slow.records} == {1} and len(slow.records) == 3
    errors = slow.summary["commitErrors"]
    assert len(errors) == 1 and "InvalidRecordStateException" in errors[0], slow.summary
    run = _consume(broker.bootstrap, topic, group, "explicit", 3, broker=broker)
    assert sorted((r["offset"], r["deliveryCount"]) for r in run.records) == [(0, 2), (1, 2), (2, 2)]
    assert run.summary["commitErrors"] == []


def test_java_admin_share_group_describe_offsets_alter_delete(sharebroker, names):
    """Admin describeShareGroups / listShareGroupOffsets / alterShareGroupOffsets / deleteShareGroups."""
    topic, group = names
    bootstrap = sharebroker.bootstrap
    _prepare(bootstrap, topic, group, 6, sharebroker)
    _consume(bootstrap, topic, group, "explicit", 6, broker=sharebroker)

    described = check(run_tool("admin", "--bootstrap", bootstrap, "describe-share-group", group), sharebroker).lines
    assert described[0]["group"] == group and described[0]["state"] == "Empty" and described[0]["members"] == []

    def offsets():
        run = check(run_tool("admin", "--bootstrap", bootstrap, "list-share-group-offsets", group), sharebroker)
        return {(line["topic"], line["partition"]): (line["startOffset"], line["lag"]) for line in run.lines}

    assert offsets() == {(topic, 0): (6, 0)}
    check(run_tool("admin", "--bootstrap", bootstrap, "alter-share-group-offsets", group, topic, "0", "2"), sharebroker)
    assert offsets() == {(topic, 0): (2, 4)}
    again = _consume(bootstrap, topic, group, "explicit", 4, broker=sharebroker)
    assert sorted((r["offset"], r["deliveryCount"]) for r in again.records) == [(o, 1) for o in range(2, 6)]

    check(run_tool("admin", "--bootstrap", bootstrap, "delete-share-group", group), sharebroker)
    gone = run_tool("admin", "--bootstrap", bootstrap, "describe-share-group", group)
    assert gone.returncode != 0 and "GroupIdNotFoundException" in gone.stderr
