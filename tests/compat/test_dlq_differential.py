"""Dead-letter queues (KIP-1191): the same scenarios against Apache Kafka 4.4.0 and sharebroker.

- librdkafka's ShareConsumer rejects and releases records to the limit in two groups
  (metadata-only and copy.record.enable) and one group whose topic lacks
  errors.deadletterqueue.group.enable: the dead-letter records (partition, key,
  value, headers in order, timestamp type) must be equal;
- the Java KafkaShareConsumer (ShareTool) rejects, and releases to the limit;
- SIGKILL right after the rejects are answered, restart, a consumer comes back:
  every rejected offset has its dead-letter copy on both brokers.

Run with ``make compat-dlq``; skipped without Java or the peer jars.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest

from tests.compat import differential as d
from tests.compat.conftest import check, run_tool
from tests.integration import dlq_scenario
from tests.integration.clients import create_topic
from tests.integration.share_helpers import FAST_SHARE_SETTINGS, set_group_configs, unique
from tests.integration.test_share_dlq import _reject_all
from tests.integration.wire import WireClient

pytestmark = pytest.mark.compat


@pytest.fixture(scope="module")
def kafka():
    from bench.peers import KAFKA_SH, KafkaPeer

    why = KafkaPeer.available()
    if why:
        pytest.skip(f"Kafka peer unavailable: {why}")
    peer = KafkaPeer()
    try:
        peer.start()
    except Exception as e:
        peer.stop()
        pytest.skip(f"Kafka peer did not start: {e}")

    def kill_and_restart() -> None:
        os.kill(peer.pid, signal.SIGKILL)
        time.sleep(0.5)
        # The peer's ports are freed a moment after the kill.
        for _ in range(50):
            res = subprocess.run(
                ["bash", str(KAFKA_SH), "start", "--port", str(peer.port), "--keep-data"],
                env=peer._env(),
                capture_output=True,
                text=True,
                timeout=180,
            )
            if res.returncode == 0:
                return
            if "already in use" not in res.stdout + res.stderr:
                break
            time.sleep(0.2)
        raise RuntimeError(f"Kafka restart failed: {res.stdout}{res.stderr}")

    yield peer.bootstrap, kill_and_restart
    peer.stop()
    peer._tmp.cleanup()


@pytest.fixture(scope="module")
def sb(sharebroker_factory):
    b = sharebroker_factory(FAST_SHARE_SETTINGS)

    def kill_and_restart() -> None:
        b.kill()
        b.start()

    return b.bootstrap, kill_and_restart


def _compare(name: str, k: dict, s: dict) -> None:
    diff = {key: (k.get(key), s.get(key)) for key in sorted(set(k) | set(s)) if k.get(key) != s.get(key)}
    assert not diff, f"{name}: kafka vs sharebroker differ: {diff}"


def test_librdkafka_dead_letters(kafka, sb):
    _compare("dlq_librdkafka", dlq_scenario.run(kafka[0]), dlq_scenario.run(sb[0]))


def sc_java(bootstrap: str) -> dict:
    """ShareTool rejects the first 2 of 4 records (group A); releases its one record on
    every delivery with a limit of 2 (group B)."""
    dlq_topic = "dlq." + unique("jd")
    create_topic(bootstrap, dlq_topic, config={"errors.deadletterqueue.group.enable": "true"})
    out: dict = {}
    for label, count, flag in (("reject", 4, "--reject-first"), ("limit", 1, "--release-first")):
        topic, group = d.new_topic_and_group(
            bootstrap,
            share_delivery_count_limit="2",
            errors_deadletterqueue_topic_name=dlq_topic,
            errors_deadletterqueue_copy_record_enable="true",
        )
        check(run_tool("produce", "--bootstrap", bootstrap, "--topic", topic, "--count", str(count)))
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
                str(count),
                "--timeout-ms",
                "15000",
                flag,
                "2" if label == "reject" else "10",
            )
        )
        out[f"{label}_records"] = sorted((r["offset"], r["deliveryCount"], r["ack"]) for r in run.records)
        out[f"{label}_group"] = group
    rows = dlq_scenario.read_all(bootstrap, dlq_topic, 1, 3)
    labels = {out["reject_group"]: "reject", out["limit_group"]: "limit"}
    dead = []
    for m in rows:
        h = {k: v.decode() for k, v in m.headers() or []}
        h["__dlq.errors.group"] = labels.get(h["__dlq.errors.group"], "?")
        h["__dlq.errors.topic"] = "SRC"
        dead.append((h["__dlq.errors.group"], int(h["__dlq.errors.offset"]), m.value(), sorted(h.items())))
    out.pop("reject_group")
    out.pop("limit_group")
    out["dead_letters"] = sorted(dead)
    return out


def test_java_dead_letters(kafka, sb):
    _compare("dlq_java", sc_java(kafka[0]), sc_java(sb[0]))


def sc_kill(bootstrap: str, kill_and_restart) -> dict:
    n = 2000
    src, dlq_topic, group = unique("ks"), "dlq." + unique("kd"), unique("kg")
    create_topic(bootstrap, src)
    create_topic(bootstrap, dlq_topic, config={"errors.deadletterqueue.group.enable": "true"})
    set_group_configs(
        bootstrap, group, {"share.auto.offset.reset": "earliest", "errors.deadletterqueue.topic.name": dlq_topic}
    )
    with WireClient(bootstrap) as w:
        d.topic_id(w, src)
        for start in range(0, n, 500):
            d.produce_batch(w, src, 500, start=start)
    _reject_all(bootstrap, group, src, n)
    kill_and_restart()
    with WireClient(bootstrap) as w:  # a consumer comes back
        tid = d.topic_id(w, src, timeout=60)
        m = d.member_id()
        d.join(w, group, m, [src], timeout=60)
        d.fetch(w, group, m, 0, tid, wait_ms=500)
        d.leave(w, group, m)
    rows = dlq_scenario.read_all(bootstrap, dlq_topic, 1, n, timeout=60)
    offsets = {int(dict(m.headers())["__dlq.errors.offset"]) for m in rows}
    return {"missing": sorted(set(range(n)) - offsets)[:20], "copies_at_least": len(rows) >= n}


def test_kill_loses_no_dead_letter(kafka, sb):
    k, s = sc_kill(*kafka), sc_kill(*sb)
    _compare("dlq_kill", k, s)
    assert s == {"missing": [], "copies_at_least": True}
