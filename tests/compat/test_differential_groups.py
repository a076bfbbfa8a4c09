"""Differential tests of KIP-848 consumer groups: the same scenario against Apache Kafka
4.4.0 and sharebroker, compared.

Scenarios drive ConsumerGroupHeartbeat directly (so membership changes happen at
the same points on both brokers) or real librdkafka consumers, and return only
what a user can observe: assignments once the group is stable, describe output,
error codes and messages, regex subscriptions following new topics, and the
group's type, state and epochs through a classic -> consumer -> classic
migration. Accepted differences are listed in ``KNOWN`` with their reason (and in
docs/COMPAT.md). The Kafka peer starts once per module on a free port; without
Java or the peer jars (``make peers``) the tests are skipped.
Run with ``make compat-groups``.
"""

from __future__ import annotations

import json
import os
import time
import uuid
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer

from broker.admin.client import AdminClient, BrokerConnection
from broker.protocol.errors import ErrorCode
from broker.protocol.messages.consumer_group_describe_request import ConsumerGroupDescribeRequest
from broker.protocol.messages.consumer_group_describe_response import DescribedGroup
from broker.protocol.messages.consumer_group_heartbeat_request import ConsumerGroupHeartbeatRequest as Cgh
from broker.protocol.messages.consumer_group_heartbeat_request import TopicPartitions as Tp
from broker.protocol.messages.offset_commit_request import (
    OffsetCommitRequest,
    OffsetCommitRequestPartition,
    OffsetCommitRequestTopic,
)
from broker.protocol.messages.offset_fetch_request import OffsetFetchRequest, OffsetFetchRequestGroup
from tests.integration.clients import create_topic

pytestmark = pytest.mark.compat

# sharebroker settings matching the peer (peers/kafka.sh: no initial classic rebalance delay).
SB_SETTINGS = {"group.initial.rebalance.delay.ms": "0"}

UNIFORM_PLACEMENT = (
    "Both assignors balance (counts compared); which partitions a member gets differs: the uniform "
    "assignors are not the same algorithm."
)
EPOCHS = (
    "Group epochs: Kafka 4.4 may bump once more when it refreshes a subscribed topic's metadata shortly "
    "after the topic's creation, or when a classic generation differs by join timing; the epochs are kept "
    "in the results, the states and assignments are compared."
)
REGEX_ASYNC = (
    "Kafka 4.4 resolves a new regular expression asynchronously (one more epoch bump, at times ten seconds "
    "later); sharebroker resolves it in the heartbeat that subscribes. Compared once both settled."
)
KNOWN: dict[str, dict[str, str]] = {
    "assignment_uniform": {"placement": UNIFORM_PLACEMENT, "epochs": EPOCHS},
    "assignment_range": {"epochs": EPOCHS},
    "describe": {"epochs": REGEX_ASYNC},
    "migration": {"placement": UNIFORM_PLACEMENT, "epochs": EPOCHS},
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
    out = os.environ.get("COMPAT_GROUPS_RESULTS")
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


# ------------------------------------------------------------------ helpers


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:10]}"


def coordinator(admin: AdminClient, group: str, timeout: float = 30) -> BrokerConnection:
    deadline = time.monotonic() + timeout
    while True:
        try:
            return admin.connect(admin.find_coordinator(group))
        except Exception:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.5)


class Member:
    """One KIP-848 member driven by hand: joins, heartbeats with what it owns, leaves."""

    def __init__(
        self,
        conn: BrokerConnection,
        group: str,
        member_id: str,
        *,
        subscribed_topic_names: list[str] | None = None,
        subscribed_topic_regex: str | None = None,
        server_assignor: str | None = None,
        instance_id: str | None = None,
        rack_id: str | None = None,
    ) -> None:
        self.conn, self.group, self.member_id = conn, group, member_id
        # What the joining heartbeat carries (None: the field's default, as when not sent).
        self.subscribed_topic_names, self.subscribed_topic_regex = subscribed_topic_names, subscribed_topic_regex
        self.server_assignor, self.instance_id, self.rack_id = server_assignor, instance_id, rack_id
        self.epoch = 0
        self.owned: dict[uuid.UUID, list[int]] = {}
        self.error = 0

    def heartbeat(self) -> None:
        if self.epoch == 0:
            req = Cgh(
                group_id=self.group,
                member_id=self.member_id,
                member_epoch=0,
                rebalance_timeout_ms=30000,
                topic_partitions=[],
                subscribed_topic_names=self.subscribed_topic_names,
                subscribed_topic_regex=self.subscribed_topic_regex,
                server_assignor=self.server_assignor,
                instance_id=self.instance_id,
                rack_id=self.rack_id,
            )
        else:
            req = Cgh(
                group_id=self.group,
                member_id=self.member_id,
                member_epoch=self.epoch,
                topic_partitions=[Tp(t, sorted(ps)) for t, ps in sorted(self.owned.items())],
            )
        # A coordinator still loading (Kafka's, right after its start) is retried, as clients do.
        deadline = time.monotonic() + 30
        while True:
            r = self.conn.call(req)
            if r.error_code != ErrorCode.COORDINATOR_LOAD_IN_PROGRESS or time.monotonic() > deadline:
                break
            time.sleep(0.2)
        self.error = r.error_code
        if r.error_code:
            return
        self.epoch = r.member_epoch
        if r.assignment is not None:
            self.owned = {tp.topic_id: list(tp.partitions) for tp in r.assignment.topic_partitions if tp.partitions}

    def leave(self) -> int:
        return self.conn.call(Cgh(group_id=self.group, member_id=self.member_id, member_epoch=-1)).error_code


def describe(conn: BrokerConnection, group: str) -> DescribedGroup:
    (g,) = conn.call(ConsumerGroupDescribeRequest(group_ids=[group], include_authorized_operations=True)).groups
    return g


def settle(conn: BrokerConnection, group: str, members: list[Member], timeout: float = 40) -> DescribedGroup:
    """Heartbeat every member until the group is Stable and every member is at the
    assignment epoch with what describe says it has."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for m in members:
            m.heartbeat()
            assert m.error == 0, f"{m.member_id}: error {m.error}"
        g = describe(conn, group)
        if g.group_state == "Stable" and all(m.epoch == g.assignment_epoch for m in members):
            return g
        time.sleep(0.2)
    raise AssertionError(f"group {group} did not settle: {describe(conn, group)}")


def layout(g: DescribedGroup, names: dict[uuid.UUID, str]) -> dict[str, dict[str, list[int]]]:
    return {
        m.member_id: {names.get(tp.topic_id, "?"): sorted(tp.partitions) for tp in m.assignment.topic_partitions}
        for m in sorted(g.members, key=lambda m: m.member_id)
    }


# ------------------------------------------------------------------ scenarios


def sc_assignment(bootstrap: str, assignor: str) -> dict:
    """Three members join, one leaves, one more joins: what each phase settles on."""
    topic, group = unique("cga"), unique("cg")
    create_topic(bootstrap, topic, 6)
    out: dict[str, object] = {}
    placement: dict[str, object] = {}
    epochs: dict[str, object] = {}
    with AdminClient(bootstrap) as admin:
        conn = coordinator(admin, group)
        names = {admin.metadata([topic]).topics[0].topic_id: "T"}  # the topic, named alike on both
        members = [
            Member(conn, group, f"member-{c}", subscribed_topic_names=[topic], server_assignor=assignor) for c in "abc"
        ]
        for phase in ("joined", "one_left", "rejoined"):
            active = members
            if phase == "one_left":
                assert members[1].leave() == 0
                active = members[::2]
            if phase == "rejoined":
                late = Member(conn, group, "member-d", subscribed_topic_names=[topic], server_assignor=assignor)
                active = [*members[::2], late]
            g = settle(conn, group, active)
            lay = layout(g, names)
            epochs[phase] = (g.group_epoch, g.assignment_epoch)
            out[phase] = {
                "state": g.group_state,
                "assignor": g.assignor_name,
                "members": sorted(lay),
                "counts": sorted(sum(len(ps) for ps in a.values()) for a in lay.values()),
                "covered": sorted(p for a in lay.values() for ps in a.values() for p in ps),
            }
            placement[phase] = lay
    out["placement"] = placement
    out["epochs"] = epochs
    return out


def sc_describe(bootstrap: str) -> dict:
    topic, group = unique("cgd"), unique("cg")
    create_topic(bootstrap, topic, 3)
    with AdminClient(bootstrap) as admin:
        conn = coordinator(admin, group)
        a = Member(conn, group, "member-a", subscribed_topic_names=[topic], instance_id="inst-a", rack_id="r1")
        b = Member(conn, group, "member-b", subscribed_topic_regex=f"{topic}|nothing-else", server_assignor="range")
        g = settle(conn, group, [a, b])
        deadline = time.monotonic() + 40
        while not all(m.assignment.topic_partitions for m in g.members) and time.monotonic() < deadline:
            time.sleep(0.5)
            g = settle(conn, group, [a, b])
        members = [
            {
                "member_id": m.member_id,
                "instance_id": m.instance_id,
                "rack_id": m.rack_id,
                "at_assignment_epoch": m.member_epoch == g.assignment_epoch,
                "client_host": m.client_host,
                "subscribed_topic_names": sorted(n.replace(topic, "T") for n in m.subscribed_topic_names),
                "subscribed_topic_regex": (m.subscribed_topic_regex or None)
                and m.subscribed_topic_regex.replace(topic, "T"),
                "assigned": sorted(p for tp in m.assignment.topic_partitions for p in tp.partitions),
                "target": sorted(p for tp in m.target_assignment.topic_partitions for p in tp.partitions),
                "topic_names": sorted({tp.topic_name.replace(topic, "T") for tp in m.assignment.topic_partitions}),
                "member_type": m.member_type,
            }
            for m in sorted(g.members, key=lambda m: m.member_id)
        ]
        (missing,) = conn.call(ConsumerGroupDescribeRequest(group_ids=["no-such-group"])).groups
        return {
            "state": g.group_state,
            "epochs": (g.group_epoch, g.assignment_epoch, sorted(m.member_epoch for m in g.members)),
            "assignor": g.assignor_name,
            "authorized_operations": g.authorized_operations,
            "members": members,
            "missing": (missing.error_code, missing.error_message),
        }


def sc_fencing(bootstrap: str) -> dict:
    topic, group = unique("cgf"), unique("cg")
    create_topic(bootstrap, topic, 2)
    out: dict[str, object] = {}
    with AdminClient(bootstrap) as admin:
        conn = coordinator(admin, group)

        def hb(**kw) -> tuple[int, str | None, int]:
            r = conn.call(Cgh(group_id=group, **kw))
            message = None if r.error_message is None else r.error_message.replace(group, "G")
            return r.error_code, message, r.member_epoch

        join = {"rebalance_timeout_ms": 30000, "subscribed_topic_names": [topic], "topic_partitions": []}
        out["no_rebalance_timeout"] = hb(
            member_id="m-x", member_epoch=0, subscribed_topic_names=[topic], topic_partitions=[]
        )
        out["owned_on_join"] = hb(
            member_id="m-x", member_epoch=0, rebalance_timeout_ms=1, subscribed_topic_names=[topic]
        )
        out["no_subscription"] = hb(member_id="m-x", member_epoch=0, rebalance_timeout_ms=1, topic_partitions=[])
        out["empty_member_id"] = hb(member_id="", member_epoch=0, **join)
        out["bad_epoch"] = hb(member_id="m-x", member_epoch=-3)
        out["static_leave_without_instance"] = hb(member_id="m-x", member_epoch=-2)
        out["bad_assignor"] = hb(member_id="m-x", member_epoch=0, server_assignor="sticky", **join)
        out["bad_regex"] = hb(
            member_id="m-x", member_epoch=0, rebalance_timeout_ms=1, subscribed_topic_regex="[a", topic_partitions=[]
        )
        out["unknown_group"] = hb(member_id="m-x", member_epoch=3)
        a = Member(conn, group, "member-a", subscribed_topic_names=[topic], instance_id="i1")
        settle(conn, group, [a])
        out["join_epoch"] = a.epoch
        out["future_epoch"] = hb(member_id="member-a", member_epoch=a.epoch + 5)
        out["old_epoch"] = hb(member_id="member-a", member_epoch=a.epoch - 1)
        out["unknown_member"] = hb(member_id="nobody", member_epoch=a.epoch)
        out["rejoin_same_id"] = hb(member_id="member-a", member_epoch=0, instance_id="i1", **join)
        out["instance_taken"] = hb(member_id="member-z", member_epoch=0, instance_id="i1", **join)
        out["instance_fenced"] = hb(member_id="member-z", member_epoch=a.epoch, instance_id="i1")

        def commit(epoch: int, member: str, version: int = 9) -> list[int]:
            req = OffsetCommitRequest(
                group_id=group,
                generation_id_or_member_epoch=epoch,
                member_id=member,
                topics=[
                    OffsetCommitRequestTopic(
                        name=topic, partitions=[OffsetCommitRequestPartition(partition_index=0, committed_offset=1)]
                    )
                ],
            )
            return [p.error_code for t in conn.call(req, version).topics for p in t.partitions]

        out["commit_ok"] = commit(a.epoch, "member-a")
        out["commit_stale"] = commit(a.epoch + 1, "member-a")
        out["commit_unknown"] = commit(a.epoch, "nobody")
        out["commit_admin_while_members"] = commit(-1, "")
        out["commit_old_version"] = commit(a.epoch, "member-a", version=8)

        def fetch(epoch: int, member: str | None) -> int:
            req = OffsetFetchRequest(
                groups=[OffsetFetchRequestGroup(group_id=group, member_id=member, member_epoch=epoch, topics=None)]
            )
            return conn.call(req, 9).groups[0].error_code

        out["fetch_ok"] = fetch(a.epoch, "member-a")
        out["fetch_stale"] = fetch(a.epoch + 3, "member-a")
        out["fetch_admin"] = fetch(-1, None)
        out["static_leave"] = hb(member_id="member-a", member_epoch=-2, instance_id="i1")
        out["replace_after_static_leave"] = hb(member_id="member-z", member_epoch=0, instance_id="i1", **join)[0]
    return out


def sc_regex_later(bootstrap: str) -> dict:
    """A regex subscription picks up topics created after the member joined."""
    prefix, group = unique("rxl"), unique("cg")
    create_topic(bootstrap, f"{prefix}-a", 1)
    with AdminClient(bootstrap) as admin:
        conn = coordinator(admin, group)
        m = Member(conn, group, "member-a", subscribed_topic_regex=f"{prefix}-.*")
        g = settle(conn, group, [m])
        # Kafka resolves a new regex asynchronously: its group can first settle with
        # nothing assigned. Compare the state once the regex has been resolved.
        deadline = time.monotonic() + 30
        while not g.members[0].assignment.topic_partitions and time.monotonic() < deadline:
            time.sleep(0.5)
            g = settle(conn, group, [m])
        before = sorted(tp.topic_name for tp in g.members[0].assignment.topic_partitions)
        create_topic(bootstrap, f"{prefix}-b", 2)
        create_topic(bootstrap, f"{prefix}-c", 1)
        create_topic(bootstrap, f"other-{prefix}", 1)
        deadline = time.monotonic() + 60
        after: list[tuple[str, list[int]]] = []
        while time.monotonic() < deadline:
            m.heartbeat()
            g = describe(conn, group)
            after = sorted((tp.topic_name, sorted(tp.partitions)) for tp in g.members[0].assignment.topic_partitions)
            if len(after) == 3 and g.group_state == "Stable":
                break
            time.sleep(0.5)
        return {
            "before": [t.replace(prefix, "P") for t in before],
            "after": [(t.replace(prefix, "P"), ps) for t, ps in after],
            "state": g.group_state,
        }


def sc_migration(bootstrap: str) -> dict:
    """librdkafka: two classic members, a consumer-protocol member joins (upgrade), then
    leaves (downgrade); every record consumed once."""
    topic, group = unique("mig"), unique("cg")
    create_topic(bootstrap, topic, 4)
    p = Producer({"bootstrap.servers": bootstrap})
    for i in range(200):
        p.produce(topic, str(i).encode(), partition=i % 4)
    p.flush(30)
    seen: dict[tuple[int, int], int] = {}
    out: dict[str, object] = {}
    placement: dict[str, object] = {}
    epochs: list[int] = []

    def consumer(protocol: str) -> Consumer:
        conf = {
            "bootstrap.servers": bootstrap,
            "group.id": group,
            "group.protocol": protocol,
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
        if protocol == "classic":
            conf.update({"session.timeout.ms": 6000, "heartbeat.interval.ms": 300})
        c = Consumer(conf)
        c.subscribe([topic])
        return c

    def run(cs: list[Consumer], until) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            for c in cs:
                msg = c.poll(0.05)
                if msg is not None and not msg.error():
                    partition, offset = msg.partition(), msg.offset()
                    assert partition is not None and offset is not None  # a fetched record has both
                    key = (partition, offset)
                    seen[key] = seen.get(key, 0) + 1
                    c.commit(message=msg, asynchronous=False)
            if until():
                return

    def snapshot(admin: AdminClient, cs: list[Consumer]) -> dict:
        try:
            g = admin.describe_consumer_group(group)
            epochs.append(g.group_epoch)
            return {
                "type": "consumer",
                "state": g.group_state,
                "member_types": sorted(m.member_type for m in g.members),
                "counts": sorted(len(c.assignment()) for c in cs),
            }
        except Exception:
            g = admin.describe_classic_group(group)
            return {
                "type": "classic",
                "state": g.group_state,
                "members": len(g.members),
                "counts": sorted(len(c.assignment()) for c in cs),
            }

    with AdminClient(bootstrap) as admin:
        c1, c2 = consumer("classic"), consumer("classic")
        try:
            run([c1, c2], lambda: len(c1.assignment()) == 2 and len(c2.assignment()) == 2 and len(seen) >= 100)
            out["classic"] = snapshot(admin, [c1, c2])
            c3 = consumer("consumer")
            run([c1, c2, c3], lambda: sorted(len(c.assignment()) for c in (c1, c2, c3)) == [1, 1, 2])
            time.sleep(1)
            run([c1, c2, c3], lambda: admin.describe_consumer_group(group).group_state == "Stable")
            out["upgraded"] = snapshot(admin, [c1, c2, c3])
            placement["upgraded"] = [len(c.assignment()) for c in (c1, c2, c3)]
            c3.close()
            run(
                [c1, c2],
                lambda: (
                    sorted(len(c.assignment()) for c in (c1, c2)) == [2, 2]
                    and admin.describe_classic_group(group).group_state == "Stable"
                ),
            )
            out["downgraded"] = snapshot(admin, [c1, c2])
            run([c1, c2], lambda: len(seen) >= 200)
        finally:
            c1.close()
            c2.close()
    out["consumed"] = len(seen)
    out["duplicates"] = sum(1 for n in seen.values() if n > 1)
    out["placement"] = placement
    out["epochs"] = epochs
    return out


# ------------------------------------------------------------------ tests


@pytest.mark.parametrize("assignor", ["uniform", "range"])
def test_assignment_after_joins_and_leaves(kafka, sb, assignor):
    compare(f"assignment_{assignor}", sc_assignment, kafka, sb, assignor=assignor)


def test_describe_output(kafka, sb):
    compare("describe", sc_describe, kafka, sb)


def test_fencing_errors(kafka, sb):
    compare("fencing", sc_fencing, kafka, sb)


def test_regex_subscription_to_topics_created_later(kafka, sb):
    compare("regex_later", sc_regex_later, kafka, sb)


def test_classic_to_consumer_migration(kafka, sb):
    compare("migration", sc_migration, kafka, sb)
