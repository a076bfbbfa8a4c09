"""KIP-848 consumer groups (group.protocol=consumer) and KIP-1071 streams groups on the
wire, with the real broker process: librdkafka consumers joining and leaving under
load, the coordinator's answers (describe, list, delete, offset checks, fencing),
state that survives a restart, the operator tools, and a streams heartbeat that
makes the broker create the internal topics.

The broker runs with a 500 ms heartbeat interval (Kafka's floor is 5 s) so members
learn of new assignments quickly; rebalances need heartbeats, never timeouts.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
import uuid

import pytest
from confluent_kafka import Consumer, KafkaException, Producer, TopicPartition

from broker.admin.client import AdminClient
from broker.protocol.errors import ErrorCode
from broker.protocol.messages import streams_group_heartbeat_request as sq
from broker.protocol.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest as Cgh
from broker.protocol.messages.consumer_group_heartbeat_request import TopicPartitions as Tp
from broker.protocol.messages.offset_commit_request import (
    OffsetCommitRequest,
    OffsetCommitRequestPartition,
    OffsetCommitRequestTopic,
)
from broker.testing import BrokerProcess
from tests.integration.clients import create_topic

FAST = {
    "group.initial.rebalance.delay.ms": "0",
    "group.consumer.min.heartbeat.interval.ms": "500",
    "group.consumer.heartbeat.interval.ms": "500",
    "group.streams.min.heartbeat.interval.ms": "500",
    "group.streams.heartbeat.interval.ms": "500",
    "group.streams.initial.rebalance.delay.ms": "0",
}


@pytest.fixture(scope="module")
def broker(sharebroker_factory) -> BrokerProcess:
    return sharebroker_factory(settings=FAST)


def _name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def _consumer(bootstrap: str, group: str, **conf) -> Consumer:
    return Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": group,
            "group.protocol": "consumer",
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
            "enable.partition.eof": False,
            **conf,
        }
    )


def test_librdkafka_members_join_and_leave_under_load(broker: BrokerProcess):
    """3 consumers join and leave while a producer runs: every record is consumed, none
    twice once its offset was committed, and the assignment is balanced when stable."""
    bootstrap = broker.bootstrap
    topic, group = _name("cp"), _name("g")
    create_topic(bootstrap, topic, 6)
    total = 3000
    stop_producing = threading.Event()

    def produce() -> None:
        p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5})
        for i in range(total):
            p.produce(topic, value=str(i).encode(), partition=i % 6)
            if i % 50 == 0:
                p.poll(0)
                time.sleep(0.02)  # ~2,500 records/s: production spans the joins and leaves
            if stop_producing.is_set():
                break
        p.flush(30)

    producer = threading.Thread(target=produce)
    producer.start()
    consumed: dict[tuple[int, int], int] = {}  # (partition, offset) -> times consumed
    committed: set[tuple[int, int]] = set()  # offsets whose commit the broker acknowledged
    duplicates_after_commit: list[tuple[int, int]] = []
    members: dict[str, Consumer] = {}

    def join(name: str) -> None:
        c = _consumer(bootstrap, group)
        c.subscribe([topic])
        members[name] = c

    def leave(name: str) -> None:
        members.pop(name).close()

    def poll_round() -> None:
        for c in list(members.values()):
            msg = c.poll(0.02)
            if msg is None or msg.error():
                continue
            key = (msg.partition(), msg.offset())
            if key in committed:
                duplicates_after_commit.append(key)
            consumed[key] = consumed.get(key, 0) + 1
            try:
                c.commit(message=msg, asynchronous=False)
            except KafkaException:
                continue  # lost the partition meanwhile: redelivery allowed
            committed.add(key)

    def run_for(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            poll_round()

    try:
        join("a")
        run_for(1.5)
        join("b")
        join("c")
        run_for(2.0)
        leave("b")
        run_for(1.5)
        join("d")
        run_for(1.5)
        producer.join(30)
        deadline = time.monotonic() + 40
        while len(consumed) < total and time.monotonic() < deadline:
            poll_round()
        assert len(consumed) == total, f"consumed {len(consumed)} of {total}"
        assert duplicates_after_commit == [], "a record was delivered again after its offset was committed"
        # Stable: three members, two partitions each.
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            poll_round()
            sizes = sorted(len(c.assignment()) for c in members.values())
            if sizes == [2, 2, 2]:
                break
        assert sorted(len(c.assignment()) for c in members.values()) == [2, 2, 2]
        owned = [tp.partition for c in members.values() for tp in c.assignment()]
        assert sorted(owned) == list(range(6)), "each partition has one owner"
    finally:
        stop_producing.set()
        producer.join(30)
        for c in members.values():
            c.close()


def _coordinator(admin: AdminClient, group: str):
    return admin.connect(admin.find_coordinator(group))


def _join(conn, group: str, member: str, topics=None, regex=None, **kw):
    return conn.call(
        Cgh(
            group_id=group,
            member_id=member,
            member_epoch=0,
            rebalance_timeout_ms=5000,
            subscribed_topic_names=topics,
            subscribed_topic_regex=regex,
            topic_partitions=[],
            **kw,
        )
    )


def test_heartbeat_rules_describe_list_and_offset_fencing(broker: BrokerProcess):
    topic, group = _name("hb"), _name("g")
    create_topic(broker.bootstrap, topic, 4)
    with AdminClient(broker.bootstrap) as admin:
        conn = _coordinator(admin, group)
        a = _join(conn, group, "member-a", [topic])
        assert (a.error_code, a.member_epoch) == (0, 2), "a new group's first epoch is 2, as in Kafka 4.4"
        (tp,) = a.assignment.topic_partitions
        assert tp.partitions == [0, 1, 2, 3]
        again = _join(conn, group, "member-a", [topic])
        assert (again.error_code, again.member_epoch) == (0, 2), "joining again keeps the member"
        fenced = conn.call(Cgh(group_id=group, member_id="member-a", member_epoch=7))
        assert fenced.error_code == ErrorCode.FENCED_MEMBER_EPOCH
        assert "greater member epoch (7)" in fenced.error_message
        unknown = conn.call(Cgh(group_id=group, member_id="nobody", member_epoch=3))
        assert unknown.error_code == ErrorCode.UNKNOWN_MEMBER_ID
        bad = _join(conn, group, "member-x", regex="(")
        assert (bad.error_code, bad.error_message) == (
            ErrorCode.INVALID_REGULAR_EXPRESSION,
            "SubscribedTopicRegex `(` is not a valid regular expression: missing closing ).",
        )

        def commit(epoch: int, member: str, version: int = 9) -> list[int]:
            req = OffsetCommitRequest(
                group_id=group,
                generation_id_or_member_epoch=epoch,
                member_id=member,
                topics=[
                    OffsetCommitRequestTopic(
                        name=topic, partitions=[OffsetCommitRequestPartition(partition_index=0, committed_offset=3)]
                    )
                ],
            )
            return [p.error_code for t in conn.call(req, version).topics for p in t.partitions]

        assert commit(2, "member-a") == [0]
        assert commit(3, "member-a") == [ErrorCode.STALE_MEMBER_EPOCH]
        assert commit(2, "nobody") == [ErrorCode.UNKNOWN_MEMBER_ID]
        assert commit(2, "member-a", version=8) == [ErrorCode.UNSUPPORTED_VERSION]
        d = admin.describe_consumer_group(group)
        assert (d.group_state, d.group_epoch, d.assignment_epoch, d.assignor_name) == ("Stable", 2, 2, "uniform")
        (m,) = d.members
        assert (m.member_id, m.member_epoch, m.member_type, m.client_host) == ("member-a", 2, 1, "/127.0.0.1")
        listed = {g.group_id: g for g in admin.list_groups(types=["consumer"])}
        assert (listed[group].protocol_type, listed[group].group_state) == ("consumer", "Stable")
        assert admin.delete_groups([group])[group].code == ErrorCode.NON_EMPTY_GROUP
        left = conn.call(Cgh(group_id=group, member_id="member-a", member_epoch=-1))
        assert (left.error_code, left.member_epoch) == (0, -1)
        assert admin.describe_consumer_group(group).group_state == "Empty"
        assert admin.fetch_offsets(group) == {(topic, 0): (3, -1)}
        assert admin.delete_groups([group])[group] is None
        assert admin.fetch_offsets(group) == {}


def test_regex_subscription_follows_topics_created_later(broker: BrokerProcess):
    prefix = _name("rx")
    group = _name("g")
    create_topic(broker.bootstrap, f"{prefix}-a", 1)
    with AdminClient(broker.bootstrap) as admin:
        conn = _coordinator(admin, group)
        r = _join(conn, group, "m", regex=f"{prefix}-.*")
        assert r.error_code == 0 and len(r.assignment.topic_partitions) == 1
        create_topic(broker.bootstrap, f"{prefix}-b", 2)
        owned = [Tp(t.topic_id, t.partitions) for t in r.assignment.topic_partitions]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            r = conn.call(Cgh(group_id=group, member_id="m", member_epoch=r.member_epoch, topic_partitions=owned))
            assert r.error_code == 0
            if r.assignment is not None:
                owned = [Tp(t.topic_id, t.partitions) for t in r.assignment.topic_partitions]
            if sum(len(t.partitions) for t in owned) == 3:
                break
            time.sleep(0.1)
        assert sum(len(t.partitions) for t in owned) == 3
        (member,) = admin.describe_consumer_group(group).members
        assert member.subscribed_topic_regex == f"{prefix}-.*"


def test_consumer_group_survives_a_restart(sharebroker_factory):
    broker = sharebroker_factory(settings=FAST)
    topic, group = _name("rs"), _name("g")
    create_topic(broker.bootstrap, topic, 3)
    with AdminClient(broker.bootstrap) as admin:
        conn = _coordinator(admin, group)
        r = _join(conn, group, "m1", [topic], instance_id="i1", server_assignor="range")
        assert r.error_code == 0
        before = admin.describe_consumer_group(group)
    broker.stop()
    broker.start()
    with AdminClient(broker.bootstrap) as admin:
        after = admin.describe_consumer_group(group)
        assert (after.group_state, after.group_epoch, after.assignment_epoch, after.assignor_name) == (
            before.group_state,
            before.group_epoch,
            before.assignment_epoch,
            "range",
        )
        assert [(m.member_id, m.instance_id, m.member_epoch) for m in after.members] == [("m1", "i1", 2)]
        conn = _coordinator(admin, group)
        r = conn.call(Cgh(group_id=group, member_id="m1", member_epoch=2, instance_id="i1"))
        assert (r.error_code, r.member_epoch) == (0, 2), "the member's session goes on after the restart"


def _tool(tool: str, bootstrap: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "broker", tool, "--bootstrap-server", bootstrap, *args],
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_consumer_groups_tool(broker: BrokerProcess):
    topic, group = _name("tool"), _name("g")
    create_topic(broker.bootstrap, topic, 2)
    p = Producer({"bootstrap.servers": broker.bootstrap})
    for i in range(10):
        p.produce(topic, value=b"v", partition=i % 2)
    p.flush(10)
    c = _consumer(broker.bootstrap, group)
    c.subscribe([topic])
    got = 0
    deadline = time.monotonic() + 20
    while got < 10 and time.monotonic() < deadline:
        msg = c.poll(0.2)
        if msg is not None and not msg.error():
            got += 1
            c.commit(message=msg, asynchronous=False)
    assert got == 10
    out = _tool("consumer-groups", broker.bootstrap, "--describe", "--group", group, "--output", "json")
    assert out.returncode == 0, out.stderr
    (doc,) = json.loads(out.stdout)
    assert doc["type"] == "consumer" and doc["state"] == "Stable"
    assert sorted((o["partition"], o["current_offset"], o["lag"]) for o in doc["offsets"]) == [(0, 5, 0), (1, 5, 0)]
    busy = _tool(
        "consumer-groups",
        broker.bootstrap,
        "--reset-offsets",
        "--group",
        group,
        "--all-topics",
        "--to-earliest",
        "--execute",
    )
    assert busy.returncode == 1 and "is inactive, but the current state is Stable" in busy.stderr
    c.close()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        listed = _tool("consumer-groups", broker.bootstrap, "--list", "--state", "--output", "json")
        if {"group": group, "type": "consumer", "state": "Empty"} in json.loads(listed.stdout):
            break
        time.sleep(0.2)
    reset = _tool(
        "consumer-groups",
        broker.bootstrap,
        "--reset-offsets",
        "--group",
        group,
        "--topic",
        f"{topic}:1",
        "--shift-by",
        "-2",
        "--execute",
    )
    assert reset.returncode == 0, reset.stderr
    assert f"{group}" in reset.stdout and " 3" in reset.stdout
    with AdminClient(broker.bootstrap) as admin:
        assert admin.fetch_offsets(group)[(topic, 1)][0] == 3
    deleted = _tool("consumer-groups", broker.bootstrap, "--delete", "--group", group)
    assert deleted.returncode == 0 and "was successful" in deleted.stdout
    gone = _tool("consumer-groups", broker.bootstrap, "--describe", "--group", group)
    assert gone.returncode == 1 and f"Consumer group '{group}' does not exist." in gone.stderr


def test_streams_heartbeat_creates_internal_topics_and_assigns(broker: BrokerProcess):
    source, app = _name("src"), _name("app")
    create_topic(broker.bootstrap, source, 2)
    topology = sq.Topology(
        epoch=0,
        subtopologies=[
            sq.Subtopology(
                subtopology_id="0",
                source_topics=[source],
                repartition_sink_topics=[f"{app}-rep"],
            ),
            sq.Subtopology(
                subtopology_id="1",
                state_changelog_topics=[sq.TopicInfo(name=f"{app}-store-changelog")],
                repartition_source_topics=[sq.TopicInfo(name=f"{app}-rep")],
            ),
        ],
    )
    with AdminClient(broker.bootstrap) as admin:
        conn = _coordinator(admin, app)
        r = conn.call(
            sq.StreamsGroupHeartbeatRequest(
                group_id=app,
                member_id="m1",
                member_epoch=0,
                rebalance_timeout_ms=5000,
                topology=topology,
                process_id="p1",
                active_tasks=[],
                standby_tasks=[],
                warmup_tasks=[],
            )
        )
        assert r.error_code == 0
        assert [s.status_detail for s in r.status] == [f"Internal topics are missing: {app}-rep, {app}-store-changelog"]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            r = conn.call(
                sq.StreamsGroupHeartbeatRequest(
                    group_id=app,
                    member_id="m1",
                    member_epoch=r.member_epoch,
                    active_tasks=[],
                    standby_tasks=[],
                    warmup_tasks=[],
                )
            )
            assert r.error_code == 0
            if r.active_tasks:
                break
            time.sleep(0.1)
        assert {t.subtopology_id: t.partitions for t in r.active_tasks} == {"0": [0, 1], "1": [0, 1]}
        assert admin.topic_partitions([f"{app}-rep", f"{app}-store-changelog"]) == {
            f"{app}-rep": [0, 1],
            f"{app}-store-changelog": [0, 1],
        }
        d = admin.describe_streams_group(app)
        assert d.group_state == "Stable" and d.members[0].process_id == "p1"
        listed = {g.group_id: g for g in admin.list_groups(types=["streams"])}
        assert (listed[app].protocol_type, listed[app].group_state) == ("streams", "Stable")
        out = _tool("streams-groups", broker.bootstrap, "--describe", "--group", app, "--members", "--output", "json")
        (doc,) = json.loads(out.stdout)
        assert doc["members"][0]["active"] == {"0": [0, 1], "1": [0, 1]}


def test_offset_commit_assign_consumer_commits_with_generation_minus_one(broker: BrokerProcess):
    """A consumer that assigns partitions itself commits with epoch -1 to a group with no members."""
    topic, group = _name("as"), _name("g")
    create_topic(broker.bootstrap, topic, 1)
    c = Consumer({"bootstrap.servers": broker.bootstrap, "group.id": group, "enable.auto.commit": False})
    try:
        c.commit(offsets=[TopicPartition(topic, 0, 7)], asynchronous=False)
        (tp,) = c.committed([TopicPartition(topic, 0)], timeout=10)
        assert tp.offset == 7
    finally:
        c.close()
