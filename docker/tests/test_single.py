"""docker/compose.single.yaml, run: one broker, clients on the host and in containers,
a clean restart, and `docker kill` (without replication the broker is simply gone until it
is started again; clients wait and retry, and nothing they had acknowledged is lost)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import flows
import pytest
from docker_helpers import FIGURES, Compose, compose_env, docker, parse_docker_time

from broker.config import parse_listener

pytestmark = pytest.mark.timeout(300)

FILE = "compose.single.yaml"
# What a client on the host is given; it resolves to 127.0.0.1 (the clients use IPv4 only).
BOOTSTRAP = "localhost:9092"


@pytest.fixture(scope="module")
def single() -> Iterator[Compose]:
    compose = Compose((FILE,), compose_env())
    started = time.monotonic()
    try:
        compose.up()
        FIGURES[f"{FILE}: up --wait (created -> healthy)"] = f"{time.monotonic() - started:.1f} s"
        state = compose.inspect("broker")["State"]
        first_ok = next(h for h in state["Health"]["Log"] if h["ExitCode"] == 0)
        FIGURES[f"{FILE}: broker container start -> healthy (5 s probe interval)"] = (
            f"{parse_docker_time(first_ok['End']) - parse_docker_time(state['StartedAt']):.1f} s"
        )
        yield compose
    finally:
        compose.down()


def test_host_clients(single: Compose) -> None:
    """Produce, consume with a consumer group, and a share group of three consumers, from
    the host through the published port; then the tools inside the broker container."""
    topic = flows.unique("orders")
    flows.create_topic(BOOTSTRAP, topic, partitions=3)
    sent = [f"order-{i}".encode() for i in range(300)]
    flows.produce(BOOTSTRAP, topic, sent, partitions=3)
    got = flows.consume_group(BOOTSTRAP, topic, flows.unique("readers"), len(sent))
    assert sorted(got) == sorted(sent)

    jobs = flows.unique("jobs")
    flows.create_topic(BOOTSTRAP, jobs, partitions=3)
    per_consumer = flows.share_group_of_three(BOOTSTRAP, jobs, partitions=3)
    print(f"share group of 3 on {jobs}: {per_consumer}")

    # The tools run inside: `docker compose exec broker sharebroker ...` (no TTY here).
    listed = single(
        "exec", "-T", "broker", "sharebroker", "share-groups", "--bootstrap-server", "localhost:9092", "--list"
    )
    assert any(line.startswith("workers-") for line in listed.split()), listed
    described = single(
        "exec", "-T", "broker", "sharebroker", "topics", "--bootstrap-server", "localhost:9092",
        "--describe", "--topic", jobs,
    )  # fmt: skip
    assert jobs in described, described
    # The web console, published on the broker's container (it shares its namespace).
    group = next(line for line in listed.split() if line.startswith("workers-"))
    flows.console_shows("http://127.0.0.1:8080", group)


def test_container_clients(single: Compose) -> None:
    """A client container on the compose network, by the broker's service name, with the
    image's tools. The single file's one listener is advertised for the host (a container
    would be sent to its own localhost), so until named listeners give it an internal
    listener the clients use a second broker from the same image on the same network,
    advertised by its name."""
    cfg = single.config()
    network = cfg["networks"]["cluster"]["name"]
    env = cfg["services"]["broker"]["environment"]
    internal = [
        a for a in map(parse_listener, env["SHAREBROKER_ADVERTISED_LISTENERS"].split(",")) if a.host == "broker"
    ]

    flows.assert_no_route_out()

    # A container in the broker's own network namespace reaches the one listener as
    # localhost:9092, like a client on the host (the README's way for the single broker).
    topic = flows.unique("seen-from-container")
    flows.create_topic(BOOTSTRAP, topic, partitions=1)
    shared = f"container:{cfg['name']}-broker-1"  # the name the README uses
    out = docker("run", "--rm", "--network", shared, cfg["services"]["broker"]["image"],
                 "sharebroker", "topics", "--bootstrap-server", "localhost:9092", "--list")  # fmt: skip
    assert topic in out.split(), out

    if internal:
        print(f"container clients -> the broker's internal listener {internal[0]}")
        summary = flows.container_clients(network, f"broker:{internal[0].port}")
    else:
        print("one listener (advertised for the host): container clients -> a broker advertised as broker-net:9092")
        cid = docker(
            "run", "--detach", "--network", network, "--network-alias", "broker-net", "--health-interval", "1s",
            "--env", "SHAREBROKER_ADVERTISED_LISTENERS=PLAINTEXT://broker-net:9092", cfg["services"]["broker"]["image"],
        ).strip()  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while json.loads(docker("inspect", cid))[0]["State"]["Health"]["Status"] != "healthy":
                assert time.monotonic() < deadline, "the second broker did not become healthy"
                time.sleep(0.3)
            summary = flows.container_clients(network, "broker-net:9092")
        finally:
            docker("rm", "--force", "--volumes", cid, check=False)
    print(summary)


def test_clean_restart_keeps_data(single: Compose) -> None:
    """`docker compose stop` reaches the broker (exit status 0); started again, it has
    every record from its volume."""
    topic = flows.unique("kept")
    flows.create_topic(BOOTSTRAP, topic, partitions=2)
    sent = [f"kept-{i}".encode() for i in range(200)]
    flows.produce(BOOTSTRAP, topic, sent, partitions=2)
    single("stop", "broker", timeout=60)
    state = single.inspect("broker")["State"]
    assert (state["Status"], state["ExitCode"]) == ("exited", 0), state
    single.up()
    assert sorted(flows.read_all(BOOTSTRAP, topic, 2)) == sorted(sent)


def test_kill_and_restart(single: Compose) -> None:
    """`docker kill` the only broker while a producer (acks=all) and a share group of three
    are running. Without replication that is an outage: the producer's records wait in its
    buffer and the consumers retry. After `docker compose start` both carry on; every record
    the producer had acknowledged is in the log and reaches the share group."""
    topic = flows.unique("events")
    flows.create_topic(BOOTSTRAP, topic, partitions=3)
    group = flows.unique("event-workers")
    flows.set_share_earliest(BOOTSTRAP, group)
    workers = [flows.Worker(BOOTSTRAP, group, [topic], f"consumer-{i}") for i in range(3)]
    producer = flows.SteadyProducer(BOOTSTRAP, topic, partitions=3, total=600)
    try:
        producer.wait_delivered(150, 60)
        single("kill", "broker")  # SIGKILL, as `docker kill`
        killed = time.monotonic()
        state = single.inspect("broker")["State"]
        assert (state["Status"], state["ExitCode"]) == ("exited", 137), state
        at_kill = len(producer.delivered)
        time.sleep(3)
        during = len(producer.delivered)
        assert during == at_kill, "records were acknowledged while the only broker was down"
        single("start", "broker")
        single.up()
        FIGURES[f"{FILE}: docker kill -> start -> healthy again"] = f"{time.monotonic() - killed:.1f} s (3 s down)"
        producer.join(180)
        assert not producer.errors, producer.errors[:5]
        assert len(producer.delivered) == 600

        def received() -> set[bytes]:
            return {v for w in workers for _, _, v, _ in w.received}

        flows.wait_for(lambda: received() >= set(producer.delivered), 90, "the share group to receive every record")
    finally:
        for w in workers:
            w.stop(ack=True)
    in_log = flows.read_all(BOOTSTRAP, topic, 3)
    assert set(producer.delivered) <= set(in_log), "an acknowledged record is missing from the log"
    redelivered = sum(1 for w in workers for *_, count in w.received if count > 1)
    print(
        f"acknowledged {len(producer.delivered)} records, {len(in_log)} in the log "
        f"({len(in_log) - len(set(in_log))} written twice by producer retries), "
        f"{redelivered} redelivered to the share group after the restart"
    )
