"""Dead-letter queues (KIP-1191) on the real broker with real clients.

The expectations are what Apache Kafka 4.4.0 does with the same scenario
(tests/compat/test_dlq_differential.py compares the two directly).
"""

from __future__ import annotations

import time

import pytest

from tests.compat import differential as d
from tests.integration import dlq_scenario
from tests.integration.clients import create_topic
from tests.integration.share_helpers import FAST_SHARE_SETTINGS, set_group_configs, unique
from tests.integration.wire import WireClient


@pytest.fixture(scope="module")
def broker(sharebroker_factory):
    return sharebroker_factory(FAST_SHARE_SETTINGS)


def test_rejected_and_limit_archived_records_go_to_the_dead_letter_topic(broker):
    dlq_scenario.check(dlq_scenario.run(broker.bootstrap))


def _reject_all(bootstrap: str, group: str, topic: str, n: int) -> None:
    """Raw ShareFetch/ShareAcknowledge: reject every record; returns right after the last ack."""
    with WireClient(bootstrap) as w:
        tid = d.topic_id(w, topic)
        m = d.member_id()
        d.join(w, group, m, [topic])
        ep, done = 0, 0
        while done < n:
            r, ep = d.fetch_acquire(w, group, m, ep, tid, timeout=15)
            got = d.acquired(r)
            assert got, f"nothing acquired after {done} of {n}"
            ack = d.share_ack(w, group, m, ep, tid, [(f, la, d.REJECT) for f, la, _ in got])
            ep += 1
            assert ack.responses[0].partitions[0].error_code == 0, ack
            done += sum(la - f + 1 for f, la, _ in got)


def test_kill_between_archiving_and_the_dead_letter_copy_loses_no_copy(sharebroker_factory):
    """Records are ARCHIVING (durable) when the reject is answered; the copy is written after.
    SIGKILL right after the answer, restart: every rejected offset has its copy."""
    n = 4000
    for _attempt in range(3):
        b = sharebroker_factory(FAST_SHARE_SETTINGS)
        src, dlq_topic, group = unique("ks"), "dlq." + unique("kd"), unique("kg")
        create_topic(b.bootstrap, src)
        create_topic(b.bootstrap, dlq_topic, config={"errors.deadletterqueue.group.enable": "true"})
        set_group_configs(
            b.bootstrap,
            group,
            {"share.auto.offset.reset": "earliest", "errors.deadletterqueue.topic.name": dlq_topic},
        )
        with WireClient(b.bootstrap) as w:
            d.topic_id(w, src)
            for start in range(0, n, 500):
                d.produce_batch(w, src, 500, start=start)
        _reject_all(b.bootstrap, group, src, n)
        b.kill()
        restarted_ms = time.time() * 1000
        b.start()
        # A consumer comes back: its first fetch loads the share-partition, which finds the
        # records still ARCHIVING and copies them.
        with WireClient(b.bootstrap) as w:
            tid = d.topic_id(w, src)
            m = d.member_id()
            d.join(w, group, m, [src])
            d.fetch(w, group, m, 0, tid, wait_ms=200)
            d.leave(w, group, m)
        rows = dlq_scenario.read_all(b.bootstrap, dlq_topic, 1, n, timeout=60)
        offsets = [int(dict(m.headers())["__dlq.errors.offset"]) for m in rows]
        assert set(offsets) == set(range(n)), f"missing copies: {sorted(set(range(n)) - set(offsets))[:10]}"
        # the share-partition reaches the end: every record archived once its copy was written
        with WireClient(b.bootstrap) as w:
            deadline = time.monotonic() + 30
            while True:
                g = d.describe_offsets(w, group, src)
                start = g.topics[0].partitions[0].start_offset if g.topics else -1
                if start == n or time.monotonic() > deadline:
                    break
                time.sleep(0.2)
        assert start == n
        after = sum(1 for m in rows if m.timestamp()[1] >= restarted_ms)
        b.stop()
        if after:
            return  # the kill fell between the two writes, and the copies were made after the restart
    pytest.fail("the kill never fell between ARCHIVING and the dead-letter copy in 3 attempts")


def _reject_one(bootstrap: str, dlq_topic: str) -> str:
    src, group = unique("as"), unique("ag")
    create_topic(bootstrap, src)
    set_group_configs(
        bootstrap, group, {"share.auto.offset.reset": "earliest", "errors.deadletterqueue.topic.name": dlq_topic}
    )
    with WireClient(bootstrap) as w:
        d.topic_id(w, src)
        d.produce_batch(w, src, 1)
    _reject_all(bootstrap, group, src, 1)
    return group


def test_auto_created_dead_letter_topic(sharebroker_factory):
    b = sharebroker_factory({"errors.deadletterqueue.auto.create.topics.enable": "true"})
    dlq_topic = "dlq." + unique("auto")
    group = _reject_one(b.bootstrap, dlq_topic)
    rows = dlq_scenario.read_all(b.bootstrap, dlq_topic, 1, 1, timeout=20)
    assert [dict(m.headers())["__dlq.errors.group"] for m in rows] == [group.encode()]
    from confluent_kafka.admin import ConfigResource, ResourceType

    from tests.integration.clients import admin

    res = ConfigResource(ResourceType.TOPIC, dlq_topic)
    client = admin(b.bootstrap)  # must outlive the future
    configs = client.describe_configs([res])[res].result(15)
    assert configs["errors.deadletterqueue.group.enable"].value == "true"


def test_no_dead_letters_without_auto_creation_the_prefix_or_share_version_2(sharebroker_factory):
    b = sharebroker_factory()
    missing = "dlq." + unique("missing")
    _reject_one(b.bootstrap, missing)  # archived; no topic appears
    wrong = unique("noprefix")
    create_topic(b.bootstrap, wrong, config={"errors.deadletterqueue.group.enable": "true"})
    _reject_one(b.bootstrap, wrong)
    v1 = sharebroker_factory({"share.version": "1"})
    old = "dlq." + unique("v1")
    create_topic(v1.bootstrap, old, config={"errors.deadletterqueue.group.enable": "true"})
    _reject_one(v1.bootstrap, old)
    time.sleep(1)
    assert dlq_scenario.read_all(b.bootstrap, wrong, 1, 0, timeout=2) == []
    assert dlq_scenario.read_all(v1.bootstrap, old, 1, 0, timeout=2) == []
    from tests.integration.clients import admin

    assert missing not in admin(b.bootstrap).list_topics(timeout=10).topics
