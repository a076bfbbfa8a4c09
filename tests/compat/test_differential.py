"""Differential tests: the same scenario against Apache Kafka 4.4.0 and sharebroker.

Every test runs one scripted scenario on both brokers and compares what a user
can observe: records and delivery counts (librdkafka ShareConsumer, the Java
KafkaShareConsumer tool, raw ShareFetch), lock expiry, the delivery limit,
error codes for bad acks and session epochs, ShareGroupDescribe and
DescribeShareGroupOffsets output, and admin refusals. Differences that are
accepted are listed in ``KNOWN`` and in docs/COMPAT.md ("Differential tests").

The Kafka peer is started once per module on a free port (``peers/kafka.sh``);
without Java or the peer jars (``make peers``) the tests are skipped.
Run with ``make compat-diff``.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pytest

from tests.compat import differential as d
from tests.compat.conftest import check, run_tool
from tests.integration.clients import produce
from tests.integration.share_helpers import (
    ACCEPT,
    RELEASE,
    close_quietly,
    commit_ok,
    poll_count,
    poll_quiet,
    share_consumer,
)
from tests.integration.wire import WireClient

pytestmark = pytest.mark.compat

# Broker settings for sharebroker matching the peer (peers/kafka.sh): 1 s minimum lock.
SB_SETTINGS = {"group.share.min.record.lock.duration.ms": "1000"}

# Accepted differences: scenario -> {key: reason}. Keys listed here are not compared.
STALE_START = (
    "Kafka (4.2.2 and 4.4.0) reports the persisted start offset, which stays behind after the last acks "
    "(0 here); sharebroker reports the advanced SPSO. Lag agrees and is compared separately."
)
KNOWN: dict[str, dict[str, str]] = {
    "consume_all": {"offsets": STALE_START},
    "describe_offsets": {"after": STALE_START, "all_topics": STALE_START, "v0": STALE_START},
    "delivery_limit": {"offsets": STALE_START},
    "group_configs": {
        "share.redelivery.backoff.ms=100": "an extension (docs/SHARE_GROUPS.md): Kafka refuses it",
        "share.key.ordering.enable=true": "an extension (docs/SHARE_GROUPS.md): Kafka refuses it",
    },
    # group_configs: Kafka 4.4 accepts share.delivery.count.limit as a group config (4.2.2 refused it),
    # so every key of that scenario is compared now.
}

RESULTS: dict[str, dict] = {}


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


@pytest.fixture(scope="module", autouse=True)
def _dump_results():
    yield
    out = os.environ.get("COMPAT_DIFF_RESULTS")
    if out:
        Path(out).write_text(json.dumps(RESULTS, indent=2, sort_keys=True, default=str))


def compare(name: str, scenario, kafka: str, sb: str, **kw) -> tuple[dict, dict]:
    k = scenario(kafka, **kw)
    s = scenario(sb, **kw)
    RESULTS[name] = {"kafka": k, "sharebroker": s}
    skip = KNOWN.get(name, {})
    diff = {
        key: (k.get(key), s.get(key)) for key in sorted(set(k) | set(s)) if key not in skip and k.get(key) != s.get(key)
    }
    assert not diff, f"{name}: kafka vs sharebroker differ: {diff}"
    return k, s


# ------------------------------------------------------------------ scenarios


def sc_consume_all(bootstrap: str) -> dict:
    """librdkafka implicit mode: 20 records, accepted; then describe offsets."""
    topic, group = d.new_topic_and_group(bootstrap)
    produce(bootstrap, topic, [b"v-%d" % i for i in range(20)])
    sc = share_consumer(bootstrap, group, [topic])
    try:
        got = poll_count(sc, 20, 30)
        commit_ok(sc)
        more = poll_quiet(sc, 1.5)
    finally:
        close_quietly(sc)
    with WireClient(bootstrap) as w:
        state = d.wait_state(w, group, "Empty")
        offsets = d.settled_offsets(w, group, topic, 20)
    return {
        "values": sorted(m.value() for m in got),
        "delivery_counts": sorted({m.delivery_count() for m in got}),
        "redelivered_after_accept": len(more),
        "state_after_close": state,
        "offsets": offsets,
        "lag": [row[2] for row in offsets["partitions"]],
    }


def sc_release_redelivery(bootstrap: str) -> dict:
    """librdkafka explicit mode: release 3 of 10, accept the rest; the 3 come back with count 2."""
    topic, group = d.new_topic_and_group(bootstrap)
    produce(bootstrap, topic, [b"v-%d" % i for i in range(10)])
    sc = share_consumer(bootstrap, group, [topic], mode="explicit")
    try:
        first = poll_count(sc, 10, 30)
        for m in first:
            sc.acknowledge(m, RELEASE if m.offset() < 3 else ACCEPT)
        commit_ok(sc)
        again = poll_count(sc, 3, 20)
        for m in again:
            sc.acknowledge(m, ACCEPT)
        commit_ok(sc)
        rest = poll_quiet(sc, 1.5)
    finally:
        close_quietly(sc)
    return {
        "first": sorted((m.offset(), m.delivery_count()) for m in first),
        "redelivered": sorted((m.offset(), m.delivery_count()) for m in again),
        "after": len(rest),
    }


def sc_lock_expiry(bootstrap: str) -> dict:
    """Raw ShareFetch with a 1 s group lock: unacked records come back to another member, count 2."""
    topic, group = d.new_topic_and_group(bootstrap, share_record_lock_duration_ms="1000")
    with WireClient(bootstrap) as w:
        tid = d.topic_id(w, topic)
        d.produce_batch(w, topic, 5)
        a, b = d.member_id(), d.member_id()
        # Both join before a acquires: Kafka 4.4 computes share assignments off the request
        # path at most once a second (group.share.assignment.interval.ms), so a join can take
        # about as long as the 1 s lock; joining after the acquisition would race it.
        d.join(w, group, a, [topic])
        d.join(w, group, b, [topic])
        first, _ = d.fetch_acquire(w, group, a, 0, tid)
        # Within the lock, b gets nothing (a long-poll of 200 ms).
        during = d.fetch(w, group, b, 0, tid, wait_ms=200)
        time.sleep(1.6)
        after, _ = d.fetch_acquire(w, group, b, 1, tid)
        # a's late accept of the expired records is refused.
        late = d.fetch(w, group, a, 1, tid, acks=[d.ack_batch(0, 4, d.ACCEPT)])
        d.leave(w, group, a)
        d.leave(w, group, b)
    return {
        "lock_timeout_ms": first.acquisition_lock_timeout_ms,
        "first": d.acquired(first),
        "during_lock": d.acquired(during),
        "after_expiry": d.acquired(after),
        "late_ack_by_old_holder": d.err(d.part0(late).acknowledge_error_code),
    }


def sc_delivery_limit(bootstrap: str) -> dict:
    """Broker default limit 5: release whatever is acquired until nothing comes back -> archived."""
    topic, group = d.new_topic_and_group(bootstrap)
    with WireClient(bootstrap) as w:
        tid = d.topic_id(w, topic)
        d.produce_batch(w, topic, 3)
        m = d.member_id()
        d.join(w, group, m, [topic])
        acquisitions, release_errors, ep = [], set(), 0
        counts: dict[int, int] = {}  # offset -> highest delivery count seen
        for _ in range(20):
            r, ep = d.fetch_acquire(w, group, m, ep, tid, timeout=3)
            got = d.acquired(r)
            if not got:
                break
            acquisitions.extend(got)
            for first, last, count in got:
                for o in range(first, last + 1):
                    counts[o] = max(counts.get(o, 0), count)
            rel = d.share_ack(w, group, m, ep, tid, [(f, la, d.RELEASE) for f, la, _ in got])
            ep += 1
            release_errors.add(d.err(rel.responses[0].partitions[0].error_code))
        d.produce_batch(w, topic, 1, start=3)
        fresh, ep = d.fetch_acquire(w, group, m, ep, tid)
        d.share_ack(w, group, m, ep, tid, [(3, 3, d.ACCEPT)])
        d.leave(w, group, m)
        d.wait_state(w, group, "Empty")
        offsets = d.settled_offsets(w, group, topic, 4)
    return {
        "acquisitions": acquisitions,
        "release_errors": sorted(release_errors),
        "max_delivery_count": counts,
        "new_record": d.acquired(fresh),
        "offsets": offsets,
        "lag": [row[2] for row in offsets["partitions"]],
    }


def sc_group_configs(bootstrap: str) -> dict:
    """IncrementalAlterConfigs on GROUP: which share.* names each broker takes."""
    out = {}
    for name, value in [
        ("share.auto.offset.reset", "earliest"),
        ("share.record.lock.duration.ms", "1000"),
        ("share.record.lock.duration.ms", "500"),
        ("share.delivery.count.limit", "3"),
        ("share.isolation.level", "read_committed"),
        ("share.session.timeout.ms", "45000"),
        ("share.heartbeat.interval.ms", "5000"),
        ("share.no.such.config", "1"),
        # Kafka 4.3/4.4 (KIP-1240, KIP-1191, KIP-1323): the new keys and their bounds
        ("share.delivery.count.limit", "1"),
        ("share.delivery.count.limit", "11"),
        ("share.partition.max.record.locks", "100"),
        ("share.partition.max.record.locks", "99"),
        ("share.partition.max.record.locks", "10001"),
        ("share.renew.acknowledge.enable", "false"),
        ("share.assignment.interval.ms", "500"),
        ("share.assignment.interval.ms", "-1"),
        ("share.assignor.offload.enable", "false"),
        ("errors.deadletterqueue.topic.name", "dlq.orders"),
        ("errors.deadletterqueue.topic.name", "__dlq"),
        ("errors.deadletterqueue.copy.record.enable", "true"),
        ("errors.deadletterqueue.copy.record.enable", "maybe"),
        # extensions: Kafka refuses them
        ("share.redelivery.backoff.ms", "100"),
        ("share.key.ordering.enable", "true"),
    ]:
        try:
            d.set_group_configs(bootstrap, d.unique("cg"), {name: value})
            out[f"{name}={value}"] = "NONE"
        except Exception as e:
            out[f"{name}={value}"] = getattr(e.args[0], "name", lambda e=e: str(e))() if e.args else str(e)
    return out


def sc_bad_acks(bootstrap: str) -> dict:
    """Ack by a non-holder and past the window, in ShareFetch and in ShareAcknowledge."""
    topic, group = d.new_topic_and_group(bootstrap)
    with WireClient(bootstrap) as w:
        tid = d.topic_id(w, topic)
        d.produce_batch(w, topic, 5)
        holder, other = d.member_id(), d.member_id()
        d.join(w, group, holder, [topic])
        d.join(w, group, other, [topic])
        got, hep = d.fetch_acquire(w, group, holder, 0, tid)
        d.fetch(w, group, other, 0, tid)
        out: dict[str, object] = {"holder_acquired": d.acquired(got)}
        r = d.fetch(w, group, other, 1, tid, acks=[d.ack_batch(0, 4, d.ACCEPT)])
        out["fetch_non_holder"] = (d.err(r.error_code), d.err(d.part0(r).acknowledge_error_code))
        r = d.share_ack(w, group, other, 2, tid, [(0, 4, d.ACCEPT)])
        out["ack_non_holder"] = (d.err(r.error_code), d.err(r.responses[0].partitions[0].error_code))
        r = d.fetch(w, group, holder, hep, tid, acks=[d.ack_batch(100, 101, d.ACCEPT)])
        hep += 1
        out["fetch_past_window"] = (d.err(r.error_code), d.err(d.part0(r).acknowledge_error_code))
        r = d.share_ack(w, group, holder, hep, tid, [(100, 101, d.ACCEPT)])
        hep += 1
        out["ack_past_window"] = (d.err(r.error_code), d.err(r.responses[0].partitions[0].error_code))
        r = d.share_ack(w, group, holder, hep, tid, [(0, 4, d.ACCEPT)])
        out["holder_ack_after_refusals"] = (d.err(r.error_code), d.err(r.responses[0].partitions[0].error_code))
        d.leave(w, group, holder)
        d.leave(w, group, other)
    return out


def sc_ack_then_wait(bootstrap: str) -> dict:
    """A ShareFetch carrying acknowledgements, with nothing left to acquire: answered at once
    or after its MaxWaitMs; then the next record."""
    topic, group = d.new_topic_and_group(bootstrap)
    with WireClient(bootstrap) as w:
        tid = d.topic_id(w, topic)
        d.produce_batch(w, topic, 3)
        m = d.member_id()
        d.join(w, group, m, [topic])
        got, ep = d.fetch_acquire(w, group, m, 0, tid)
        started = time.monotonic()
        r = d.fetch(w, group, m, ep, tid, acks=[d.ack_batch(0, 2, d.ACCEPT)], wait_ms=1500)
        idle = time.monotonic() - started
        ep += 1
        d.produce_batch(w, topic, 1, start=3)
        woken = d.fetch(w, group, m, ep, tid, wait_ms=1500)
        ep += 1
        d.leave(w, group, m)
    return {
        "acquired": d.acquired(got),
        "ack_error": d.err(d.part0(r).acknowledge_error_code),
        "acquired_with_acks": d.acquired(r),
        "answered": "after the wait" if idle >= 1.2 else "at once" if idle < 0.5 else f"after {idle:.1f} s",
        "next": d.acquired(woken),
    }


def sc_session_epochs(bootstrap: str) -> dict:
    topic, group = d.new_topic_and_group(bootstrap)
    with WireClient(bootstrap) as w:
        tid = d.topic_id(w, topic)
        d.produce_batch(w, topic, 4)
        m = d.member_id()
        d.join(w, group, m, [topic])
        out: dict[str, object] = {"no_session_epoch_1": d.err(d.fetch(w, group, m, 1, tid).error_code)}
        ack_no_session = d.share_ack(w, group, m, 1, tid, [(0, 0, d.ACCEPT)])
        out["ack_no_session_epoch_1"] = d.err(ack_no_session.error_code)
        got, ep = d.fetch_acquire(w, group, m, 0, tid)
        out["acquired"] = d.acquired(got)
        out["wrong_epoch"] = d.err(d.fetch(w, group, m, ep + 5, tid).error_code)
        out["ack_wrong_epoch"] = d.err(d.share_ack(w, group, m, ep + 5, tid, [(0, 0, d.ACCEPT)]).error_code)
        out["ack_epoch_0"] = d.err(d.share_ack(w, group, m, 0, tid, [(0, 0, d.ACCEPT)]).error_code)
        r = d.fetch(w, group, m, ep, tid, acks=[d.ack_batch(0, 3, d.ACCEPT)])
        out["right_epoch_after_errors"] = (d.err(r.error_code), d.err(d.part0(r).acknowledge_error_code))
        out["fetch_epoch_0_with_acks"] = d.err(
            d.fetch(w, group, m, 0, tid, acks=[d.ack_batch(0, 0, d.ACCEPT)]).error_code
        )
        d.leave(w, group, m)
    return out


def sc_describe_group(bootstrap: str) -> dict:
    """Two librdkafka members on a 3-partition topic: ShareGroupDescribe while Stable and after they leave."""
    topic, group = d.new_topic_and_group(bootstrap, partitions=3)
    produce(bootstrap, topic, [b"x"] * 3)
    consumers = [share_consumer(bootstrap, group, [topic]) for _ in range(2)]
    stable = None
    try:
        deadline = time.monotonic() + 30
        with WireClient(bootstrap) as w:
            while time.monotonic() < deadline:
                for sc in consumers:
                    sc.poll(0.2)
                g = d.describe_group(w, group)
                counts = sorted(sum(len(tp.partitions) for tp in mb.assignment.topic_partitions) for mb in g.members)
                # Settled: the target covers both members (assignments are batched per
                # share.assignment.interval.ms, so the second may wait for it) and both hold theirs.
                settled = g.assignment_epoch == g.group_epoch and all(
                    mb.member_epoch == g.assignment_epoch for mb in g.members
                )
                if g.group_state == "Stable" and len(g.members) == 2 and sum(counts) == 3 and settled:
                    stable = g
                    break
    finally:
        for sc in consumers:
            close_quietly(sc)
    assert stable is not None, "group never reached Stable with 2 members holding 3 partitions"
    with WireClient(bootstrap) as w:
        empty_state = d.wait_state(w, group, "Empty")
        empty = d.describe_group(w, group)
        unknown = d.describe_group(w, d.unique("nogroup"))
    return {
        "error": d.err(stable.error_code),
        "state": stable.group_state,
        "members": len(stable.members),
        "assignor": stable.assignor_name,
        "partitions_per_member": sorted(
            sum(len(tp.partitions) for tp in mb.assignment.topic_partitions) for mb in stable.members
        ),
        "assigned_union": sorted(
            p for mb in stable.members for tp in mb.assignment.topic_partitions for p in tp.partitions
        ),
        "topic_names_are_the_topic": sorted(
            {tp.topic_name for mb in stable.members for tp in mb.assignment.topic_partitions}
        )
        == [topic],
        "subscribed_is_the_topic": sorted({t for mb in stable.members for t in mb.subscribed_topic_names}) == [topic],
        "state_after_close": empty_state,
        "members_after_close": len(empty.members),
        "unknown_group": (d.err(unknown.error_code), unknown.group_state),
    }


def sc_offsets(bootstrap: str) -> dict:
    """10 records, 6 accepted (record_limit fetch of 6), member leaves: start offset 6, lag 4."""
    topic, group = d.new_topic_and_group(bootstrap)
    with WireClient(bootstrap) as w:
        tid = d.topic_id(w, topic)
        before = d.offsets_summary(d.describe_offsets(w, group, topic))
        d.produce_batch(w, topic, 4)
        d.produce_batch(w, topic, 6, start=4)
        m = d.member_id()
        d.join(w, group, m, [topic])
        got, ep = d.fetch_acquire(w, group, m, 0, tid, max_records=6, version=2, mode=1)
        d.share_ack(w, group, m, ep, tid, [(0, 5, d.ACCEPT)])
        ep += 1
        d.share_ack(w, group, m, -1, tid, [])
        d.leave(w, group, m)
        d.wait_state(w, group, "Empty")
        after = d.settled_offsets(w, group, topic, 6)
        all_topics = d.offsets_summary(d.describe_offsets(w, group, None))
        v0 = d.offsets_summary(d.describe_offsets(w, group, topic, version=0))
        unknown = d.offsets_summary(d.describe_offsets(w, d.unique("nogroup"), topic))
    return {
        "acquired": d.acquired(got),
        "before_consuming": before,
        "after": after,
        "lag_after": [row[2] for row in after["partitions"]],
        "all_topics": all_topics,
        "v0": v0,
        "unknown_group": unknown,
    }


def sc_alter_refusals(bootstrap: str) -> dict:
    topic, group = d.new_topic_and_group(bootstrap)
    with WireClient(bootstrap) as w:
        d.topic_id(w, topic)
        d.produce_batch(w, topic, 5)
        m = d.member_id()
        d.join(w, group, m, [topic])
        busy = d.alter_summary(d.alter_offsets(w, group, topic, 2))
        leave = d.err(d.leave(w, group, m))
        state = d.wait_state(w, group, "Empty")
        ok = d.alter_summary(d.alter_offsets(w, group, topic, 2))
        offsets = d.offsets_summary(d.describe_offsets(w, group, topic))
    return {"while_member": busy, "leave": leave, "state": state, "while_empty": ok, "offsets_after": offsets}


def sc_java_release(bootstrap: str) -> dict:
    """The Java KafkaShareConsumer (v2 RPCs): explicit mode, release the first 2 of 8, accept the rest."""
    topic, group = d.new_topic_and_group(bootstrap)
    check(run_tool("produce", "--bootstrap", bootstrap, "--topic", topic, "--count", "8"))
    run = check(
        run_tool(
            "share-consume",
            "--bootstrap",
            bootstrap,
            "--topic",
            topic,
            "--group",
            group,
            "--mode",
            "explicit",
            "--max",
            "8",
            "--timeout-ms",
            "30000",
            "--release-first",
            "2",
        )
    )
    return {
        "error": run.summary and run.summary.get("error"),
        "timed_out": run.summary and run.summary.get("timedOut"),
        "records": sorted((r["offset"], r["deliveryCount"], r["ack"]) for r in run.records),
    }


def _java(bootstrap: str, topic: str, group: str, n: int, *extra: str, timeout_ms: int = 20000):
    return run_tool(
        "share-consume",
        "--bootstrap",
        bootstrap,
        "--topic",
        topic,
        "--group",
        group,
        "--mode",
        "explicit",
        "--max",
        str(n),
        "--timeout-ms",
        str(timeout_ms),
        *extra,
    )


def sc_java_crash(bootstrap: str) -> dict:
    """A JVM halted after its first poll (default 30 s lock): do its records come back well before the lock ends?"""
    topic, group = d.new_topic_and_group(bootstrap)
    check(run_tool("produce", "--bootstrap", bootstrap, "--topic", topic, "--count", "5"))
    crashed = _java(bootstrap, topic, group, 5, "--crash-after-polls", "1")
    started = time.monotonic()
    run = check(_java(bootstrap, topic, group, 5, timeout_ms=12000))
    return {
        "crash_exit": crashed.returncode,
        "crashed_counts": sorted({r["deliveryCount"] for r in crashed.records}),
        "after": sorted((r["offset"], r["deliveryCount"]) for r in run.records),
        "back_within_15s": time.monotonic() - started < 15 and len(run.records) == 5,
    }


def sc_java_lock_expiry(bootstrap: str) -> dict:
    """1 s lock, the Java consumer takes 2.5 s per batch: its commit fails, the records come back with count 2."""
    topic, group = d.new_topic_and_group(bootstrap, share_record_lock_duration_ms="1000")
    check(run_tool("produce", "--bootstrap", bootstrap, "--topic", topic, "--count", "3"))
    slow = check(_java(bootstrap, topic, group, 3, "--process-ms", "2500"))
    run = check(_java(bootstrap, topic, group, 3))
    assert slow.summary is not None and run.summary is not None, "ShareTool printed no summary line"
    return {
        "slow_counts": sorted((r["offset"], r["deliveryCount"]) for r in slow.records),
        "slow_commit_errors": sorted(x for e in slow.summary["commitErrors"] for x in re.findall(r"\w+Exception", e)),
        "after": sorted((r["offset"], r["deliveryCount"]) for r in run.records),
        "after_commit_errors": run.summary["commitErrors"],
    }


def sc_java_delivery_limit(bootstrap: str) -> dict:
    """One record released by the Java consumer on every delivery: 5 deliveries, then archived."""
    topic, group = d.new_topic_and_group(bootstrap)
    check(run_tool("produce", "--bootstrap", bootstrap, "--topic", topic, "--count", "1"))
    # 15 s: a Kafka 4.4 share member gets its first assignment only on its second regular
    # heartbeat (5 s interval; assignments are computed off the request path), so 6 s no longer
    # covers joining plus five deliveries there.
    run = check(_java(bootstrap, topic, group, 1, "--release-first", "10", timeout_ms=15000))
    return {"deliveries": [(r["deliveryCount"], r["ack"]) for r in run.records]}


# ------------------------------------------------------------------ tests


def test_consume_all_implicit(kafka, sb):
    k, _ = compare("consume_all", sc_consume_all, kafka, sb)
    assert k["delivery_counts"] == [1] and len(k["values"]) == 20


def test_release_redelivery(kafka, sb):
    k, _ = compare("release_redelivery", sc_release_redelivery, kafka, sb)
    assert k["redelivered"] == [(0, 2), (1, 2), (2, 2)]


def test_lock_expiry(kafka, sb):
    k, _ = compare("lock_expiry", sc_lock_expiry, kafka, sb)
    assert k["after_expiry"] == [(0, 4, 2)]


def test_delivery_limit_archives(kafka, sb):
    k, _ = compare("delivery_limit", sc_delivery_limit, kafka, sb)
    assert k["max_delivery_count"] == {0: 5, 1: 5, 2: 5} and k["new_record"] == [(3, 3, 1)]


def test_group_configs(kafka, sb):
    k, s = compare("group_configs", sc_group_configs, kafka, sb)
    for ext in KNOWN["group_configs"]:
        assert k[ext] == "INVALID_CONFIG" and s[ext] == "NONE", (ext, k[ext], s[ext])


def test_bad_acks(kafka, sb):
    compare("bad_acks", sc_bad_acks, kafka, sb)


def test_ack_then_wait(kafka, sb):
    compare("ack_then_wait", sc_ack_then_wait, kafka, sb)


def test_session_epochs(kafka, sb):
    compare("session_epochs", sc_session_epochs, kafka, sb)


def test_describe_group(kafka, sb):
    compare("describe_group", sc_describe_group, kafka, sb)


def test_describe_offsets(kafka, sb):
    compare("describe_offsets", sc_offsets, kafka, sb)


def test_alter_refused_while_not_empty(kafka, sb):
    k, _ = compare("alter_refusals", sc_alter_refusals, kafka, sb)
    assert k["while_member"]["error"] == "NON_EMPTY_GROUP"


def test_java_release(kafka, sb):
    compare("java_release", sc_java_release, kafka, sb)


def test_java_crash_releases(kafka, sb):
    compare("java_crash", sc_java_crash, kafka, sb)


def test_java_lock_expiry(kafka, sb):
    compare("java_lock_expiry", sc_java_lock_expiry, kafka, sb)


def test_java_delivery_limit(kafka, sb):
    k, _ = compare("java_delivery_limit", sc_java_delivery_limit, kafka, sb)
    assert [c for c, _ in k["deliveries"]] == [1, 2, 3, 4, 5]
