"""Classic consumer groups with real clients: confluent-kafka (librdkafka) and kafka-python.

Most tests use a broker of their own with ``group.initial.rebalance.delay.ms=0``
(Kafka's 3 s default only slows tests down); the kafka-python test runs against
the session broker with the defaults.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
import uuid

import pytest
from confluent_kafka import Consumer, ConsumerGroupTopicPartitions, KafkaException, TopicPartition
from confluent_kafka.admin import AdminClient
from kafka import KafkaAdminClient, KafkaConsumer
from kafka import TopicPartition as KpTopicPartition
from kafka import errors as kafka_errors
from kafka.admin import MemberToRemove

from broker.testing import BrokerProcess
from tests.integration.clients import create_topic, produce

FAST_GROUPS = {"group.initial.rebalance.delay.ms": "0"}
# Client settings that keep rebalances quick: members notice a rebalance on their
# next heartbeat.
CK_FAST = {"session.timeout.ms": 6000, "heartbeat.interval.ms": 300}


@pytest.fixture(scope="module")
def groups_bootstrap(sharebroker_factory) -> str:
    return sharebroker_factory(settings=FAST_GROUPS).bootstrap


@pytest.fixture
def group_name() -> str:
    return f"g-{uuid.uuid4().hex[:12]}"


def ck_consumer(bootstrap: str, group: str, **conf) -> Consumer:
    return Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": group,
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
            "enable.partition.eof": False,
            **CK_FAST,
            **conf,
        }
    )


def poll_until(consumers: list[Consumer], done, timeout: float = 30.0) -> list[list]:
    """Poll every consumer in turn until ``done(messages_per_consumer)``; fail on timeout."""
    got: list[list] = [[] for _ in consumers]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for i, c in enumerate(consumers):
            msg = c.poll(0.05)
            if msg is None:
                continue
            if msg.error():
                raise KafkaException(msg.error())
            got[i].append(msg)
        if done(got):
            return got
    raise AssertionError(
        f"timed out: {[len(g) for g in got]} messages, assignments {[len(c.assignment()) for c in consumers]}"
    )


def assigned(c: Consumer) -> set[int]:
    return {tp.partition for tp in c.assignment()}


def produce_each(bootstrap: str, topic: str, partitions: int, per_partition: int, tag: str = "v") -> None:
    for p in range(partitions):
        produce(bootstrap, topic, [f"{tag}-{p}-{i}".encode() for i in range(per_partition)], partition=p)


def committed(c: Consumer, topic: str, partitions: int) -> list[int]:
    return [tp.offset for tp in c.committed([TopicPartition(topic, p) for p in range(partitions)], timeout=10)]


def describe(bootstrap: str, group: str):
    admin = AdminClient({"bootstrap.servers": bootstrap})  # must outlive the future
    return admin.describe_consumer_groups([group])[group].result(timeout=10)


# --- confluent-kafka ----------------------------------------------------------------------------------


def test_two_consumers_split_partitions_commit_and_a_restarted_consumer_resumes(
    groups_bootstrap, topic_name, group_name
):
    bs = groups_bootstrap
    create_topic(bs, topic_name, partitions=4)
    c1, c2 = ck_consumer(bs, group_name), ck_consumer(bs, group_name)
    try:
        c1.subscribe([topic_name])
        c2.subscribe([topic_name])
        poll_until([c1, c2], lambda _: len(c1.assignment()) == 2 and len(c2.assignment()) == 2)
        assert assigned(c1) | assigned(c2) == {0, 1, 2, 3} and not assigned(c1) & assigned(c2)

        produce_each(bs, topic_name, 4, 10)
        got1, got2 = poll_until([c1, c2], lambda g: sum(map(len, g)) >= 40)
        assert {m.partition() for m in got1} == assigned(c1)
        assert {m.partition() for m in got2} == assigned(c2)
        assert sorted((m.partition(), m.offset()) for m in got1 + got2) == [(p, o) for p in range(4) for o in range(10)]

        c1.commit(asynchronous=False)
        c2.commit(asynchronous=False)
        assert committed(c1, topic_name, 4) == [10, 10, 10, 10]

        group = describe(bs, group_name)
        assert group.state.name == "STABLE" and len(group.members) == 2
        assert group.partition_assignor in ("range", "roundrobin")
        assert sorted(tp.partition for m in group.members for tp in m.assignment.topic_partitions) == [0, 1, 2, 3]
    finally:
        c1.close()
        c2.close()
    assert describe(bs, group_name).state.name == "EMPTY"

    produce_each(bs, topic_name, 4, 2, tag="after")
    c3 = ck_consumer(bs, group_name)
    try:
        c3.subscribe([topic_name])
        (got,) = poll_until([c3], lambda g: len(g[0]) >= 8)
        assert sorted((m.partition(), m.offset()) for m in got) == [(p, o) for p in range(4) for o in (10, 11)]
        assert all(m.value().startswith(b"after-") for m in got)
    finally:
        c3.close()


def test_member_leaving_hands_its_partitions_to_the_other(groups_bootstrap, topic_name, group_name):
    bs = groups_bootstrap
    create_topic(bs, topic_name, partitions=4)
    c1, c2 = ck_consumer(bs, group_name), ck_consumer(bs, group_name)
    try:
        c1.subscribe([topic_name])
        c2.subscribe([topic_name])
        poll_until([c1, c2], lambda _: len(c1.assignment()) == 2 and len(c2.assignment()) == 2)
        c2.close()  # LeaveGroup: the group rebalances at once
        poll_until([c1], lambda _: len(c1.assignment()) == 4, timeout=20)
        assert len(describe(bs, group_name).members) == 1
    finally:
        c1.close()


_CRASHING_MEMBER = """
import sys, time
from confluent_kafka import Consumer
c = Consumer({"bootstrap.servers": sys.argv[1], "group.id": sys.argv[2], "session.timeout.ms": 6000,
              "heartbeat.interval.ms": 300, "enable.auto.commit": False})
c.subscribe([sys.argv[3]])
while not c.assignment():
    c.poll(0.1)
print("assigned", flush=True)
while True:
    c.poll(0.1)
"""


def test_crashed_member_is_removed_after_its_session_timeout(groups_bootstrap, topic_name, group_name):
    bs = groups_bootstrap
    create_topic(bs, topic_name, partitions=2)
    member = subprocess.Popen(
        [sys.executable, "-c", _CRASHING_MEMBER, bs, group_name, topic_name], stdout=subprocess.PIPE, text=True
    )
    c = ck_consumer(bs, group_name)
    try:
        assert member.stdout.readline().strip() == "assigned"
        c.subscribe([topic_name])
        poll_until([c], lambda _: len(c.assignment()) == 1 and len(describe(bs, group_name).members) == 2)
        member.kill()  # SIGKILL: no LeaveGroup, only the 6 s session timeout notices
        member.wait()
        died = time.monotonic()
        poll_until([c], lambda _: len(c.assignment()) == 2, timeout=30)
        assert time.monotonic() - died >= 4
        assert len(describe(bs, group_name).members) == 1
    finally:
        member.kill()
        member.wait()
        member.stdout.close()
        c.close()


def test_static_member_restart_keeps_its_place(groups_bootstrap, topic_name, group_name):
    bs = groups_bootstrap
    create_topic(bs, topic_name, partitions=2)
    c = ck_consumer(bs, group_name, **{"group.instance.id": "instance-1"})
    c.subscribe([topic_name])
    poll_until([c], lambda _: len(c.assignment()) == 2)
    first = describe(bs, group_name)
    assert [m.group_instance_id for m in first.members] == ["instance-1"]
    c.close()  # a static member does not send LeaveGroup
    assert describe(bs, group_name).state.name == "STABLE"
    c = ck_consumer(bs, group_name, **{"group.instance.id": "instance-1"})
    try:
        c.subscribe([topic_name])
        poll_until([c], lambda _: len(c.assignment()) == 2)
        again = describe(bs, group_name)
        assert [m.group_instance_id for m in again.members] == ["instance-1"]
        assert again.members[0].member_id != first.members[0].member_id
        assert again.state.name == "STABLE"
    finally:
        c.close()
    # An operator removes the static member by its instance id (LeaveGroup v3+).
    admin = KafkaAdminClient(bootstrap_servers=bs)
    try:
        admin.remove_group_members(group_name, [MemberToRemove(group_instance_id="instance-1")])
    finally:
        admin.close()
    assert describe(bs, group_name).state.name == "EMPTY"


def test_offset_delete_with_the_kafka_python_admin(groups_bootstrap, topic_name, group_name):
    bs = groups_bootstrap
    create_topic(bs, topic_name, partitions=2)
    produce_each(bs, topic_name, 2, 3)
    c = ck_consumer(bs, group_name)
    admin = KafkaAdminClient(bootstrap_servers=bs)
    try:
        c.subscribe([topic_name])
        poll_until([c], lambda g: len(g[0]) >= 6)
        c.commit(asynchronous=False)
        # Still subscribed: Kafka refuses with GROUP_SUBSCRIBED_TO_TOPIC.
        result = admin.delete_group_offsets(group_name, [KpTopicPartition(topic_name, 0)])
        assert result[KpTopicPartition(topic_name, 0)] is kafka_errors.GroupSubscribedToTopicError
        c.close()
        result = admin.delete_group_offsets(group_name, [KpTopicPartition(topic_name, 0)])
        assert result[KpTopicPartition(topic_name, 0)] is kafka_errors.NoError
        with pytest.raises(kafka_errors.GroupIdNotFoundError):
            admin.delete_group_offsets(f"{group_name}-missing", [KpTopicPartition(topic_name, 0)])
    finally:
        c.close()
        admin.close()
    c = ck_consumer(bs, group_name)
    try:
        assert committed(c, topic_name, 2) == [-1001, 3]  # OFFSET_INVALID: nothing committed any more
    finally:
        c.close()


def test_admin_sets_offsets_of_a_group_without_members(groups_bootstrap, topic_name, group_name):
    bs = groups_bootstrap
    create_topic(bs, topic_name, partitions=2)
    produce_each(bs, topic_name, 2, 5)
    admin = AdminClient({"bootstrap.servers": bs})
    wanted = [TopicPartition(topic_name, 0, 3), TopicPartition(topic_name, 1, 4)]
    admin.alter_consumer_group_offsets([ConsumerGroupTopicPartitions(group_name, wanted)])[group_name].result(
        timeout=10
    )
    listed = admin.list_consumer_group_offsets([ConsumerGroupTopicPartitions(group_name)])[group_name].result(
        timeout=10
    )
    assert sorted((tp.partition, tp.offset) for tp in listed.topic_partitions) == [(0, 3), (1, 4)]
    c = ck_consumer(bs, group_name)
    try:
        c.subscribe([topic_name])
        (got,) = poll_until([c], lambda g: len(g[0]) >= 3)
        assert sorted((m.partition(), m.offset()) for m in got) == [(0, 3), (0, 4), (1, 4)]
    finally:
        c.close()


def test_committed_offsets_survive_restart_and_kill(tmp_path, topic_name, group_name):
    broker = BrokerProcess(tmp_path / "data", settings=FAST_GROUPS).start()
    try:
        create_topic(broker.bootstrap, topic_name, partitions=2)
        produce_each(broker.bootstrap, topic_name, 2, 5)
        c = ck_consumer(broker.bootstrap, group_name)
        try:
            c.subscribe([topic_name])
            poll_until([c], lambda g: len(g[0]) >= 10)
            c.commit(asynchronous=False)
        finally:
            c.close()
        assert broker.stop() == 0
        broker.start()
        c = ck_consumer(broker.bootstrap, group_name)
        try:
            assert committed(c, topic_name, 2) == [5, 5]
            produce(broker.bootstrap, topic_name, [b"late"], partition=1)
            c.subscribe([topic_name])
            (got,) = poll_until([c], lambda g: len(g[0]) >= 1)
            assert [(m.partition(), m.offset(), m.value()) for m in got] == [(1, 5, b"late")]
            c.commit(asynchronous=False)  # answered only once it is on disk
        finally:
            c.close()
        broker.kill()  # SIGKILL: no clean shutdown
        broker.start()
        c = ck_consumer(broker.bootstrap, group_name)
        try:
            assert committed(c, topic_name, 2) == [5, 6]
        finally:
            c.close()
        assert describe(broker.bootstrap, group_name).state.name == "EMPTY"
    finally:
        broker.kill()


# --- kafka-python -------------------------------------------------------------------------------------


def _kp_consumer(bootstrap: str, group: str, topic: str) -> KafkaConsumer:
    return KafkaConsumer(
        topic,
        bootstrap_servers=bootstrap,
        group_id=group,
        auto_offset_reset="earliest",
        enable_auto_commit=False,
        session_timeout_ms=6000,
        heartbeat_interval_ms=300,
        consumer_timeout_ms=20_000,
    )


def test_kafka_python_group_consumer_commits_and_resumes(sharebroker_bootstrap, topic_name, group_name):
    bs = sharebroker_bootstrap  # the session broker, default 3 s initial rebalance delay
    create_topic(bs, topic_name, partitions=2)
    produce_each(bs, topic_name, 2, 10)
    consumer = _kp_consumer(bs, group_name, topic_name)
    try:
        got = []
        for msg in consumer:
            got.append((msg.partition, msg.offset))
            if len(got) == 20:
                break
        assert sorted(got) == [(p, o) for p in range(2) for o in range(10)]
        consumer.commit()
        assert consumer.committed(KpTopicPartition(topic_name, 0)) == 10
    finally:
        consumer.close(autocommit=False)

    produce_each(bs, topic_name, 2, 3, tag="more")
    consumer = _kp_consumer(bs, group_name, topic_name)
    try:
        got = []
        for msg in consumer:
            got.append((msg.partition, msg.offset, msg.value))
            if len(got) == 6:
                break
        assert sorted((p, o) for p, o, _ in got) == [(p, o) for p in range(2) for o in (10, 11, 12)]
        assert all(v.startswith(b"more-") for _, _, v in got)
    finally:
        consumer.close(autocommit=False)


def test_kafka_python_and_librdkafka_share_one_group(groups_bootstrap, topic_name, group_name):
    bs = groups_bootstrap
    create_topic(bs, topic_name, partitions=4)
    ck = ck_consumer(bs, group_name, **{"partition.assignment.strategy": "range"})
    kp = KafkaConsumer(
        topic_name,
        bootstrap_servers=bs,
        group_id=group_name,
        auto_offset_reset="earliest",
        enable_auto_commit=False,
        session_timeout_ms=6000,
        heartbeat_interval_ms=300,
    )
    stop = threading.Event()
    ck_owned: set[int] = set()

    def on_assign(_consumer: Consumer, partitions: list) -> None:
        ck_owned.clear()
        ck_owned.update(tp.partition for tp in partitions)

    def on_revoke(_consumer: Consumer, _partitions: list) -> None:
        ck_owned.clear()

    def serve_librdkafka() -> None:
        # librdkafka's rebalance runs in poll(): keep polling while kafka-python joins, so
        # its JoinGroup never waits on a member that only polls between its own polls.
        # Only this thread touches ck until it stops (the callbacks run inside poll()).
        while not stop.is_set():
            ck.poll(0.05)

    poller = threading.Thread(target=serve_librdkafka, daemon=True)
    try:
        ck.subscribe([topic_name], on_assign=on_assign, on_revoke=on_revoke)
        poller.start()
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline and not (len(ck_owned) == 2 and len(kp.assignment()) == 2):
            # kafka-python must be given time to finish a rebalance inside one poll(): one
            # that times out mid-join may never apply the assignment it then receives
            # (a client quirk, Kafka brokers see the same).
            kp.poll(timeout_ms=3000)
        stop.set()
        poller.join(10)
        kp_parts = {tp.partition for tp in kp.assignment()}
        assert len(kp_parts) == 2 and kp_parts | assigned(ck) == {0, 1, 2, 3}
        group = describe(bs, group_name)
        assert group.state.name == "STABLE" and group.partition_assignor == "range"
        assert len(group.members) == 2
    finally:
        stop.set()
        if poller.is_alive():
            poller.join(10)
        ck.close()
        kp.close(autocommit=False)
