"""docker/compose.yaml, run: a 3-member etcd and three brokers with replication factor 3, min ISR 2.

Host clients over the external listeners, a client container over the internal ones,
then `docker kill` of one broker while a producer (acks=all) and a share group go on,
then `docker kill` of etcd's leader while the brokers go on changing metadata.
SB_CLUSTER_MODE=0 skips the brokers' run (`CLUSTER_MODE_LANDED` in docker_helpers.py).
"""

from __future__ import annotations

import json
import time

import flows
import pytest
from docker_helpers import CLUSTER_MODE, FIGURES, Compose, compose_env

pytestmark = pytest.mark.timeout(600)

FILE = "compose.yaml"
HOST_BOOTSTRAP = "localhost:19092,localhost:19093,localhost:19094"
NETWORK_BOOTSTRAP = "broker-1:9092,broker-2:9092,broker-3:9092"


ETCD_MEMBERS = ("etcd-1", "etcd-2", "etcd-3")


def etcdctl(member: str, *endpoints: str) -> tuple[str, ...]:
    """`compose exec` of etcdctl in ``member``'s container, against ``endpoints`` (its own by default)."""
    urls = ",".join(f"http://{e}:2379" for e in endpoints) if endpoints else "http://127.0.0.1:2379"
    return ("exec", "-T", member, "/usr/local/bin/etcdctl", f"--endpoints={urls}")


def etcd_leader(compose: Compose, members: tuple[str, ...]) -> str:
    """The member that leads etcd now, asked of the members given (etcdctl endpoint status)."""
    status = json.loads(compose(*etcdctl(members[0], *members), "endpoint", "status", "-w", "json"))
    # etcd's JSON leaves out fields at their zero value: a member that knows no leader
    # (mid-election) has no "leader" field at all.
    leaders = {s["Status"].get("leader", 0) for s in status}
    assert 0 not in leaders, f"a member knows no leader yet: {status}"
    assert len(leaders) == 1, f"the members disagree on the leader: {status}"
    (leader_id,) = leaders
    for member, s in zip(members, status, strict=True):
        if s["Status"]["header"]["member_id"] == leader_id:
            return member
    raise AssertionError(f"no member given is the leader: {status}")


def test_etcd_service(compose_project: list[Compose]) -> None:
    """The cluster's etcd alone: three healthy members of one cluster; a key written
    through one member is read through another."""
    compose = Compose((FILE,), compose_env())
    compose_project.append(compose)
    started = time.monotonic()
    compose.up(*ETCD_MEMBERS)
    FIGURES[f"{FILE}: etcd (3 members) up --wait"] = f"{time.monotonic() - started:.1f} s"
    members = compose(*etcdctl("etcd-1"), "member", "list")
    assert all(f"http://{m}:2379" in members for m in ETCD_MEMBERS), members
    compose(*etcdctl("etcd-1"), "put", "/sharebroker-docker-test", "ok")
    assert compose(*etcdctl("etcd-3"), "get", "--print-value-only", "/sharebroker-docker-test").strip() == "ok"
    print("etcd leader:", etcd_leader(compose, ETCD_MEMBERS))


@pytest.mark.skipif(
    not CLUSTER_MODE,
    reason="SB_CLUSTER_MODE=0: compose.yaml is checked by test_compose_config and its etcd by test_etcd_service",
)
def test_cluster(compose_project: list[Compose]) -> None:
    """Three brokers: host clients over the external listeners, a client container over
    the internal ones, then `docker kill` one broker and the clients carry on."""
    compose = Compose((FILE,), compose_env())
    compose_project.append(compose)
    started = time.monotonic()
    compose.up()
    FIGURES[f"{FILE}: up --wait (etcd + 3 brokers)"] = f"{time.monotonic() - started:.1f} s"

    topic = flows.unique("orders")
    flows.create_topic(HOST_BOOTSTRAP, topic, partitions=3, replication=3)
    sent = [f"order-{i}".encode() for i in range(300)]
    flows.produce(HOST_BOOTSTRAP, topic, sent, partitions=3)
    assert sorted(flows.consume_group(HOST_BOOTSTRAP, topic, flows.unique("readers"), len(sent))) == sorted(sent)
    jobs = flows.unique("jobs")
    flows.create_topic(HOST_BOOTSTRAP, jobs, partitions=3, replication=3)
    print("share group of 3:", flows.share_group_of_three(HOST_BOOTSTRAP, jobs, partitions=3))

    network = compose.config()["networks"]["cluster"]["name"]
    flows.assert_no_route_out()
    print(flows.container_clients(network, NETWORK_BOOTSTRAP))
    listed = compose(
        "exec", "-T", "broker-1", "sharebroker", "share-groups", "--bootstrap-server", "broker-1:9092", "--list"
    )
    assert "workers-" in listed, listed
    group = next(line for line in listed.split() if line.startswith("workers-"))
    flows.console_shows("http://127.0.0.1:8080", group)

    # One broker killed: with replication the producer (acks=all, min.insync.replicas=2)
    # and the share group carry on without waiting for it.
    events = flows.unique("events")
    flows.create_topic(HOST_BOOTSTRAP, events, partitions=3, replication=3)
    group = flows.unique("event-workers")
    flows.set_share_earliest(HOST_BOOTSTRAP, group)
    workers = [flows.Worker(HOST_BOOTSTRAP, group, [events], f"consumer-{i}") for i in range(3)]
    producer = flows.SteadyProducer(HOST_BOOTSTRAP, events, partitions=3, total=600)
    try:
        producer.wait_delivered(150, 60)
        compose("kill", "broker-2")
        at_kill = len(producer.delivered)
        producer.wait_delivered(at_kill + 150, 60)  # while broker-2 is down
        producer.join(120)
        assert not producer.errors, producer.errors[:5]

        def received() -> set[bytes]:
            return {v for w in workers for _, _, v, _ in w.received}

        flows.wait_for(lambda: received() >= set(producer.delivered), 90, "the share group to receive every record")
    finally:
        for w in workers:
            w.stop(ack=True)
    compose("start", "broker-2")
    compose.up()
    assert set(producer.delivered) <= set(flows.read_all(HOST_BOOTSTRAP, events, 3))

    # etcd's leader killed: the two members left elect another, and the brokers, which
    # list every member, go on without a restart: a new topic is created (a metadata
    # write through etcd) and takes records with acks=all.
    leader = etcd_leader(compose, ETCD_MEMBERS)
    compose("kill", leader)
    left = tuple(m for m in ETCD_MEMBERS if m != leader)
    started = time.monotonic()

    def new_leader() -> bool:
        try:
            return etcd_leader(compose, left) in left
        except (AssertionError, RuntimeError, OSError, ValueError):  # mid-election: no leader to name yet
            return False

    flows.wait_for(new_leader, 60, "etcd to elect a new leader")
    FIGURES[f"{FILE}: etcd leader killed -> new leader"] = f"{time.monotonic() - started:.1f} s"
    after = flows.unique("after-etcd-leader")
    flows.create_topic(HOST_BOOTSTRAP, after, partitions=3, replication=3)
    records = [f"after-{i}".encode() for i in range(30)]
    flows.produce(HOST_BOOTSTRAP, after, records, partitions=3)
    FIGURES[f"{FILE}: etcd leader killed -> topic created and written"] = f"{time.monotonic() - started:.1f} s"
    assert sorted(flows.read_all(HOST_BOOTSTRAP, after, 3)) == sorted(records)
    compose("start", leader)
    compose.up()
