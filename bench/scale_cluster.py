"""How a broker's cost grows with the partitions it holds, against Apache Kafka 4.4 (``make bench-scale-cluster``).

Two layouts, each run for sharebroker and for Kafka 4.4.0 one after the other in the
same run, with fresh data directories:

- ``single``: one broker, replication factor 1 (sharebroker ``serve``; Kafka as
  ``make peers`` starts it: one KRaft node, broker and controller).
- ``cluster``: three brokers, replication factor 3 (``sharebroker local-cluster``'s
  pieces: etcd and three brokers; Kafka: three KRaft nodes, each broker and
  controller, as ``make bench-replication`` starts them).

Both with their default settings. The sizes (``--sizes``, total partitions) grow in one
cluster: each step creates the partitions missing to reach its size, in topics of 100
partitions, with CreateTopics requests of at most 5,000 partitions each (within Kafka's limits
per request) sent together, then measures with every partition there:

- ``create_s``: CreateTopics answered; ``ready_s``: from the request until Metadata
  shows a leader for every new partition (RF 3: and a full ISR);
- ``metadata_ms``: a full Metadata request (every topic), median of 5, as librdkafka's
  ``list_topics`` sees it (the client's decoding included, the same for both);
- ``list_offsets_s``: ListOffsets (latest) of every partition, one AdminClient call;
- ``produce_s``: the first record to each new partition, one librdkafka producer,
  acks=all, linger.ms 20, from the first send to the last delivery report;
- ``idle_cpu_pct`` and ``rss_mib`` of each broker process: with no client connected,
  after ``--settle`` seconds, CPU (user+system, /proc) over ``--idle`` seconds, in
  percent of one core; RSS at the end of that window;
- ``etcd_keys`` and ``etcd_db_bytes`` (sharebroker cluster: etcd's own metrics).

After the last size:

- ``cluster``: **kill -9 of the active controller** (``controller_writable_s``).
  sharebroker's is the broker DescribeCluster names, checked against the etcd key its
  election writes (:mod:`broker.metadata.controller`; Metadata names the answering
  broker, as every broker forwards controller requests); Kafka's is the KRaft quorum
  leader read from the nodes' ``quorum-state`` files (DescribeCluster names a random
  broker to clients). Then CreateTopics of a new topic (1 partition, RF 1: a metadata
  write) sent to another broker, retried on retriable errors and timeouts, until it
  succeeds: the seconds from the kill. The killed node is started again until it
  serves Metadata itself and every partition has its full ISR, as it and as another
  broker see it (``controller_rejoin_isr_s``).
- ``cluster``: a broker restart (kill -9 of broker 2, started again, until it serves
  and every partition has its full ISR again, the same check: ``restart_to_full_isr_s``).
- both: **many groups** (``groups``, :mod:`bench.scale_groups`): ``--groups`` consumer
  groups with committed offsets and ``--share-groups`` share groups with the state of 10
  share-partitions, each group its own offsets; RSS per broker before and with them; a
  clean stop of every broker and a start (``stop_s``, ``start_s``: to serving); the
  seconds from the start until every group (all, none sampled) answers OffsetFetch or
  DescribeShareGroupOffsets with its own offsets (the coordinators' load time); RSS
  after that.
- both: the clean stop of every broker at once (SIGTERM to all, until all have exited).

Then, once per run, **idle connections** (``connections``, :mod:`bench.idle_connections`):
a fresh single broker of each holds ``--connections`` connections that each sent
ApiVersions; RSS growth per connection.

Every wait is bounded (``--timeout`` seconds); a step that does not finish in time is
written as ``null`` with the reason, and the run goes on with the other broker.
``python -m bench.scale_cluster --markdown FILE [--plot PNG]`` prints the tables of a
results file (and draws its curves); :mod:`bench.scale_report` renders them, the
curves and the docs/PERFORMANCE.md section.

Results go to ``bench/results/scale-cluster-<date>.json`` (a run of one layout updates
that layout's part of the file).
"""

from __future__ import annotations

import argparse
import base64
import gc
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from confluent_kafka import KafkaError, KafkaException, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic, OffsetSpec

from bench import idle_connections, scale_groups, scale_report
from bench.peers import KAFKA_SH, KafkaPeer, Sharebroker
from bench.replication import KafkaNodes
from broker import localcluster
from broker.admin.client import AdminClient as SyncAdmin
from broker.admin.client import AdminConnectionError, AdminTimeoutError, KafkaApiError
from broker.localcluster import LocalCluster
from broker.protocol.errors import ErrorCode

PER_TOPIC = 100
CLK_TCK = os.sysconf("SC_CLK_TCK")
PAGE = os.sysconf("SC_PAGE_SIZE")


# --------------------------------------------------------------------- processes


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of ``pid`` so far (/proc/<pid>/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/statm") as f:
        return int(f.read().split()[1]) * PAGE / 2**20


class Layout:
    """A running set of brokers: its bootstrap, broker pids, and how to stop it."""

    name: str
    rf: int
    bootstrap: str

    def pids(self) -> dict[int, int]:
        raise NotImplementedError

    def etcd(self) -> dict[str, int] | None:
        return None

    def restart(self, node: int) -> None:
        raise NotImplementedError

    def stop_nodes(self) -> None:
        """Stop every broker cleanly (SIGTERM, wait for the exit), data kept."""
        raise NotImplementedError

    def start_nodes(self) -> None:
        """Start every broker stopped by :meth:`stop_nodes` again, on its data."""
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError


class SharebrokerSingle(Layout):
    name, rf = "sharebroker", 1

    def __init__(self) -> None:
        self.peer = Sharebroker().start()
        self.bootstrap = self.peer.bootstrap

    def pids(self) -> dict[int, int]:
        return {1: self.peer.pid}

    def stop_nodes(self) -> None:
        assert self.peer._proc is not None
        self.peer._proc.stop()

    def start_nodes(self) -> None:
        assert self.peer._proc is not None
        self.peer._proc.start()  # same data directory and port

    def stop(self) -> None:
        self.peer.stop()


class KafkaSingle(Layout):
    name, rf = "kafka", 1

    def __init__(self, extra_config: str = "") -> None:
        self.peer = KafkaPeer(extra_config=extra_config).start()
        self.bootstrap = self.peer.bootstrap

    def pids(self) -> dict[int, int]:
        return {1: self.peer.pid}

    def _kafka_sh(self, *args: str, timeout: float) -> None:
        # peers/kafka.sh with the peer's own environment (root, extra settings); its
        # start and stop bounds raised to ours: a broker with many partitions takes longer.
        env = {**self.peer._env(), "KAFKA_PEER_START_TIMEOUT": "600", "KAFKA_PEER_STOP_TIMEOUT": "600"}
        cmd = ["bash", str(KAFKA_SH), *args, "--port", str(self.peer.port)]
        done = subprocess.run(cmd, env=env, capture_output=True, timeout=timeout, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"kafka.sh {args[0]}: {done.stdout.decode(errors='replace')[-500:]}")

    def stop_nodes(self) -> None:
        self._kafka_sh("stop", timeout=660)

    def start_nodes(self) -> None:
        self._kafka_sh("start", "--keep-data", timeout=660)

    def stop(self) -> None:
        self.peer.stop()


class SharebrokerCluster(Layout):
    name, rf = "sharebroker", 3

    def __init__(self) -> None:
        self.cluster = LocalCluster(3).start()
        self.bootstrap = self.cluster.bootstrap

    def pids(self) -> dict[int, int]:
        out = {}
        for n in (1, 2, 3):
            proc = self.cluster.broker(n).process
            if proc is not None and proc.poll() is None:
                out[n] = proc.pid
        return out

    def etcd(self) -> dict[str, int] | None:
        return etcd_metrics(self.cluster.etcd_endpoints[0])

    def kill(self, node: int) -> None:
        self.cluster.broker(node).kill()

    def restart(self, node: int) -> None:
        self.cluster.broker(node).start()

    def address(self, node: int) -> str:
        return self.cluster.broker(node).bootstrap

    def active_controller(self) -> tuple[int, str]:
        """The controller DescribeCluster names (Metadata names the answering broker:
        every broker forwards controller requests), checked against the etcd key the
        election writes (broker.metadata.controller): they must agree."""
        with SyncAdmin(self.bootstrap, timeout=10) as client:
            described = client.describe_cluster().controller_id
        key = base64.b64encode(b"/sharebroker/controller").decode()
        request = urllib.request.Request(
            f"{self.cluster.etcd_endpoints[0]}/v3/kv/range",
            data=json.dumps({"key": key}).encode(),
            headers={"Content-Type": "application/json"},
        )
        kvs = json.loads(urllib.request.urlopen(request, timeout=10).read()).get("kvs", [])
        elected = json.loads(base64.b64decode(kvs[0]["value"]))["id"] if kvs else -1
        if described != elected or elected < 0:
            raise RuntimeError(f"DescribeCluster names controller {described}, the etcd election key {elected}")
        return elected, "DescribeCluster, the same as etcd's controller key"

    def stop_nodes(self) -> None:
        for n in (1, 2, 3):
            self.cluster.broker(n).terminate()
        for n in (1, 2, 3):
            self.cluster.broker(n).wait_stopped(time.monotonic() + localcluster.STOP_TIMEOUT_S)

    def start_nodes(self) -> None:
        for n in (1, 2, 3):
            self.cluster.broker(n).start()

    def stop(self) -> None:
        self.cluster.stop()


class KafkaCluster(Layout):
    name, rf = "kafka", 3

    def __init__(self) -> None:
        # Kafka's default session settings (bench.replication shortens them for failover).
        self.nodes = KafkaNodes(settings={}, heap="1g")
        self.bootstrap = self.nodes.bootstrap

    def pids(self) -> dict[int, int]:
        return {n: p.pid for n, p in self.nodes.procs.items() if p.poll() is None}

    def kill(self, node: int) -> None:
        self.nodes.kill(node)

    def restart(self, node: int) -> None:
        self.nodes.restart(node)

    def address(self, node: int) -> str:
        return f"127.0.0.1:{self.nodes.ports[node]}"

    def active_controller(self) -> tuple[int, str]:
        """The KRaft quorum's leader, from each node's ``quorum-state`` file (DescribeCluster
        names a random broker to clients, not the active controller): the leader of the
        newest epoch, which at least two nodes must name."""
        states = []
        for n in (1, 2, 3):
            path = self.nodes.root / f"node-{n}" / "data" / "__cluster_metadata-0" / "quorum-state"
            try:
                states.append(json.loads(path.read_text()))
            except (OSError, ValueError):
                continue
        leader, epoch, votes = quorum_leader(states)
        return leader, f"quorum-state of {votes} nodes (epoch {epoch})"

    def stop_nodes(self) -> None:
        for p in self.nodes.procs.values():
            p.terminate()
        for p in self.nodes.procs.values():
            p.wait(600)

    def start_nodes(self) -> None:
        """Start the three nodes; return when each has logged "Kafka Server started"
        (what peers/kafka.sh waits for), as sharebroker's start waits for "ready"."""
        logs = {n: self.nodes.root / f"node-{n}" / "server.log" for n in (1, 2, 3)}
        offsets = {n: log.stat().st_size if log.exists() else 0 for n, log in logs.items()}
        for n in (1, 2, 3):
            self.nodes.restart(n)

        def started(n: int) -> bool:
            with open(logs[n], "rb") as f:
                f.seek(offsets[n])
                return b"Kafka Server started" in f.read()

        wait_for(lambda: all(started(n) for n in (1, 2, 3)), 600, "every Kafka node started", every=0.1)

    def stop(self) -> None:
        self.nodes.stop()


def quorum_leader(states: list[dict[str, Any]]) -> tuple[int, int, int]:
    """(leader, epoch, nodes naming it) from KRaft ``quorum-state`` files: the leader of
    the newest epoch any node knows, which at least two of the three must name (a node
    writes the file when it learns of a new leader, so one lagging behind names an
    older epoch)."""
    seen: dict[tuple[int, int], int] = {}
    for state in states:
        if state.get("leaderId", -1) >= 0:
            key = (int(state["leaderEpoch"]), int(state["leaderId"]))
            seen[key] = seen.get(key, 0) + 1
    if not seen:
        raise RuntimeError("no node's quorum-state names a leader")
    (epoch, leader), votes = max(seen.items())
    if votes < 2:
        raise RuntimeError(f"only {votes} node(s) name leader {leader} of epoch {epoch}: {seen}")
    return leader, epoch, votes


def etcd_metrics(endpoint: str) -> dict[str, int]:
    """Keys and database size from etcd's Prometheus metrics (loopback)."""
    text = urllib.request.urlopen(f"{endpoint}/metrics", timeout=10).read().decode()
    wanted = {
        "etcd_debugging_mvcc_keys_total": "etcd_keys",
        "etcd_mvcc_db_total_size_in_bytes": "etcd_db_bytes",
        "etcd_mvcc_db_total_size_in_use_in_bytes": "etcd_db_in_use_bytes",
    }
    out = {}
    for line in text.splitlines():
        name, _, value = line.partition(" ")
        if name in wanted:
            out[wanted[name]] = int(float(value))
    return out


# --------------------------------------------------------------------- steps


class TimedOut(Exception):
    pass


def wait_for(check: Callable[[], bool], timeout: float, what: str, every: float = 0.5) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except Exception:
            pass
        time.sleep(every)
    raise TimedOut(f"{what} not within {timeout:.0f} s")


def admin(bootstrap: str) -> AdminClient:
    return AdminClient({"bootstrap.servers": bootstrap, "broker.address.family": "v4", "log_level": 4})


def topic_names(first: int, count: int) -> list[str]:
    return [f"scale-{i:05d}" for i in range(first, first + count)]


def all_ready(client: AdminClient, topics: list[str], rf: int) -> bool:
    md = client.list_topics(timeout=30)
    for name in topics:
        t = md.topics.get(name)
        if t is None or t.error is not None or len(t.partitions) != PER_TOPIC:
            return False
        for p in t.partitions.values():
            if p.leader < 0 or len(p.isrs) < rf:
                return False
    return True


# Kafka 4.4's controller refuses a CreateTopics of more than 10,000 partitions
# (POLICY_VIOLATION, "Excessively large number of partitions per request") and one that
# makes more than 10,000 metadata records (a record per topic and per partition: 100
# topics of 100 are 10,100, "Unable to perform excessively large batch operation"): a
# step's topics go in requests of at most this many partitions, sent together, for both.
PARTITIONS_PER_CREATE = 5_000


def create(bootstrap: str, topics: list[str], rf: int, timeout: float) -> tuple[float, float]:
    client = admin(bootstrap)
    per_request = PARTITIONS_PER_CREATE // PER_TOPIC
    started = time.monotonic()
    futures = {}
    for i in range(0, len(topics), per_request):
        futures.update(
            client.create_topics(
                [NewTopic(t, num_partitions=PER_TOPIC, replication_factor=rf) for t in topics[i : i + per_request]],
                request_timeout=timeout,
            )
        )
    for f in futures.values():
        f.result(timeout=timeout)
    answered = time.monotonic() - started
    wait_for(lambda: all_ready(client, topics, rf), timeout - answered, "every new partition led", every=1.0)
    return answered, time.monotonic() - started


def metadata_ms(bootstrap: str, expected: int) -> float:
    client = admin(bootstrap)
    client.list_topics(timeout=60)  # connect first
    took = []
    for _ in range(5):
        started = time.perf_counter()
        md = client.list_topics(timeout=60)
        took.append((time.perf_counter() - started) * 1000)
        seen = sum(len(t.partitions) for name, t in md.topics.items() if name.startswith("scale-"))
        if seen != expected:
            raise RuntimeError(f"Metadata listed {seen} partitions, expected {expected}")
    return statistics.median(took)


# A broker may answer NOT_LEADER_OR_FOLLOWER for a partition that Metadata already shows
# led (Kafka 4.4 right after CreateTopics: its replica manager takes the leadership a moment
# after the metadata log has it). Such a call is made again, by a new client (librdkafka's
# admin client does not mark these codes retriable nor refresh its metadata for them),
# this many times at the most.
LIST_OFFSETS_ATTEMPTS = 5
NOT_YET_LED = {
    KafkaError.NOT_LEADER_FOR_PARTITION,
    KafkaError.LEADER_NOT_AVAILABLE,
    KafkaError.UNKNOWN_TOPIC_OR_PART,
}


def list_offsets_s(bootstrap: str, topics: list[str], timeout: float) -> float:
    """Seconds of the first ListOffsets call that every partition answers; calls answered
    with a retriable error (or one of :data:`NOT_YET_LED`) for some partition are made
    again, a second apart."""
    request = {TopicPartition(t, p): OffsetSpec.latest() for t in topics for p in range(PER_TOPIC)}
    for attempt in range(1, LIST_OFFSETS_ATTEMPTS + 1):
        client = admin(bootstrap)
        client.list_topics(timeout=60)
        started = time.monotonic()
        futures = client.list_offsets(request, request_timeout=timeout)
        retriable = None
        for f in futures.values():
            try:
                f.result(timeout=timeout)
            except KafkaException as exc:
                error = exc.args[0]
                again = error.retriable() or error.code() in NOT_YET_LED
                if not again or attempt == LIST_OFFSETS_ATTEMPTS:
                    raise
                retriable = exc
        if retriable is None:
            return time.monotonic() - started
        print(f"    list_offsets: attempt {attempt}: {retriable}; again", flush=True)
        time.sleep(1.0)
    raise AssertionError("unreachable")


def produce_each(bootstrap: str, topics: list[str], timeout: float) -> float:
    producer = Producer(
        {
            "bootstrap.servers": bootstrap,
            "acks": "all",
            "linger.ms": 20,
            "message.timeout.ms": int(timeout * 1000),
            "broker.address.family": "v4",
            "queue.buffering.max.messages": 1_000_000,
            "log_level": 4,
        }
    )
    producer.list_topics(timeout=60)
    failed: list[str] = []

    def report(err: Any, msg: Any) -> None:
        if err is not None:
            failed.append(str(err))

    started = time.monotonic()
    for t in topics:
        for p in range(PER_TOPIC):
            producer.produce(t, value=b"x" * 100, partition=p, on_delivery=report)
        producer.poll(0)
    left = producer.flush(timeout)
    took = time.monotonic() - started
    if left or failed:
        raise TimedOut(f"{left} records undelivered, {len(failed)} failed ({failed[:1]}) after {took:.0f} s")
    return took


def idle(layout: Layout, settle: float, window: float) -> dict[str, Any]:
    time.sleep(settle)
    pids = layout.pids()
    before = {n: cpu_seconds(pid) for n, pid in pids.items()}
    started = time.monotonic()
    time.sleep(window)
    elapsed = time.monotonic() - started
    cpu = {n: round(100 * (cpu_seconds(pid) - before[n]) / elapsed, 2) for n, pid in pids.items()}
    rss = {n: round(rss_mib(pid), 1) for n, pid in pids.items()}
    return {"idle_cpu_pct": cpu, "rss_mib": rss}


def step(out: dict[str, Any], key: str, fn: Callable[..., Any], *args: Any, digits: int | None = None) -> Any:
    """Run one measurement; a failure or timeout is written as null with its reason."""
    # librdkafka clients of earlier steps are held by their futures' reference cycles
    # until a collection: closed now, so none is left reconnecting (and logging a line a
    # second) while this step kills or restarts brokers.
    gc.collect()
    try:
        value = fn(*args)
        if digits is not None:
            value = round(value, digits)
    except Exception as exc:
        out[key] = None
        out.setdefault("errors", {})[key] = f"{type(exc).__name__}: {exc}"
        print(f"    {key}: {out['errors'][key]}", flush=True)
        return None
    out[key] = value
    return value


def run_layout(make: Callable[[], Layout], sizes: list[int], args: argparse.Namespace) -> dict[str, Any]:
    started = time.monotonic()
    layout = make()
    result: dict[str, Any] = {"start_s": round(time.monotonic() - started, 1), "sizes": {}}
    print(f"  {layout.name} RF {layout.rf}: up in {result['start_s']} s", flush=True)
    try:
        base = idle(layout, 1.0, args.idle)
        result["empty"] = base
        made: list[str] = []
        for size in sizes:
            new = topic_names(len(made), size // PER_TOPIC - len(made))
            row: dict[str, Any] = {"new_partitions": len(new) * PER_TOPIC}
            result["sizes"][str(size)] = row
            times = step(row, "create", create, layout.bootstrap, new, layout.rf, args.timeout)
            if times is None:
                break
            row["create_s"], row["ready_s"] = round(times[0], 2), round(times[1], 2)
            del row["create"]
            made += new
            step(row, "metadata_ms", metadata_ms, layout.bootstrap, size, digits=1)
            step(row, "list_offsets_s", list_offsets_s, layout.bootstrap, made, args.timeout, digits=2)
            step(row, "produce_s", produce_each, layout.bootstrap, new, args.timeout, digits=2)
            try:
                row.update(idle(layout, args.settle, args.idle))
            except OSError as exc:  # /proc/<pid> is gone: the process exited
                result["exited"] = f"a broker process exited during the {size:,}-partition step ({exc.filename})"
                print(f"    {result['exited']}", flush=True)
                break
            etcd = layout.etcd()
            if etcd is not None:
                row.update(etcd)
            print(f"  {layout.name} {size}: {json.dumps(row)}", flush=True)
        if "exited" in result:
            return result  # nothing more to measure on it (the stop below is still timed)
        if layout.rf == 3 and args.controller_kill:
            step(result, "controller_writable_s", controller_kill, layout, result, args.timeout)
            print(
                f"  {layout.name}: controller kill -9 -> CreateTopics {result['controller_writable_s']} s", flush=True
            )
            killed = result.get("controller_killed", {}).get("node")
            if killed is not None:
                step(result, "controller_rejoin_isr_s", controller_rejoin, layout, killed, made, args.timeout)
                print(
                    f"  {layout.name}: controller back in every ISR {result['controller_rejoin_isr_s']} s", flush=True
                )
        if layout.rf == 3 and args.restart:
            step(result, "restart_to_full_isr_s", restart, layout, made, args.timeout)
            print(f"  {layout.name}: restart to full ISR {result['restart_to_full_isr_s']} s", flush=True)
        if args.groups or args.share_groups:
            result["groups"] = many_groups(layout, args)
            print(f"  {layout.name}: groups {json.dumps(result['groups'])}", flush=True)
    finally:
        # The processes' clean stop is timed; deleting the data directories after it is not
        # (removing 30,000 partition directories takes longer on this disk than the stop).
        stopping = time.monotonic()
        try:
            try:
                layout.stop_nodes()
            except Exception as exc:  # e.g. a broker whose process exited already
                result["stop_all_s"] = None
                result.setdefault("errors", {})["stop_all_s"] = f"{type(exc).__name__}: {exc}"
            else:
                result["stop_all_s"] = round(time.monotonic() - stopping, 2)
            print(f"  {layout.name}: stopped in {result['stop_all_s']} s", flush=True)
        finally:
            layout.stop()
    return result


def full_isr_at(address: str, topics: list[str], rf: int) -> bool:
    """The broker at ``address`` itself (the project's admin client: no other broker
    answers for it) serves Metadata that shows a leader and ``rf`` in-sync replicas for
    every partition of ``topics``."""
    with SyncAdmin(address, timeout=30) as client:
        md = client.metadata(topics)
    found = {t.name: t for t in md.topics if t.error_code == 0}
    return all(
        name in found
        and len(found[name].partitions) == PER_TOPIC
        and all(p.leader_id >= 0 and len(p.isr_nodes) >= rf for p in found[name].partitions)
        for name in topics
    )


def back_in_isr(layout: Layout, node: int, topics: list[str], timeout: float) -> None:
    """Until the restarted ``node`` serves and every partition has its full ISR, both as
    ``node`` itself and as another broker sees it. A broker restarted before the
    cluster noticed it gone never left the ISRs: then this is the time to serving."""
    assert isinstance(layout, SharebrokerCluster | KafkaCluster)
    other = layout.address(min(n for n in (1, 2, 3) if n != node))
    wait_for(
        lambda: full_isr_at(layout.address(node), topics, 3) and full_isr_at(other, topics, 3),
        timeout,
        f"broker {node} serving and every ISR full again",
        every=1.0,
    )


def restart(layout: Layout, topics: list[str], timeout: float) -> float:
    """kill -9 of broker 2, started again: until it serves and every partition has its 3
    replicas in ISR."""
    assert isinstance(layout, SharebrokerCluster | KafkaCluster)
    killed = time.monotonic()
    layout.kill(2)
    layout.restart(2)
    back_in_isr(layout, 2, topics, timeout)
    return round(time.monotonic() - killed, 2)


# --------------------------------------------------------------------- controller kill -9

# One attempt's bound: a broker forwards CreateTopics to the controller and answers
# REQUEST_TIMED_OUT (retriable) when none answers in time.
CREATE_ATTEMPT_S = 15.0


def create_until_written(address: str, topic: str, timeout: float) -> int:
    """CreateTopics of ``topic`` (1 partition, RF 1: a metadata write only) sent to the
    broker at ``address`` until it succeeds, retrying on retriable errors and on
    timeouts; a TOPIC_ALREADY_EXISTS after a timed-out attempt counts as written.
    Returns the number of attempts."""
    deadline = time.monotonic() + timeout
    attempts = 0
    last: Exception | None = None
    while time.monotonic() < deadline:
        attempts += 1
        try:
            with SyncAdmin(address, timeout=min(CREATE_ATTEMPT_S, max(1.0, deadline - time.monotonic()))) as client:
                client.create_topics({topic: 1}, replication_factor=1)
            return attempts
        except KafkaApiError as exc:
            if exc.code == ErrorCode.TOPIC_ALREADY_EXISTS and attempts > 1:
                return attempts
            if not exc.code.retriable:
                raise
            last = exc
        except (AdminConnectionError, AdminTimeoutError) as exc:
            last = exc
        time.sleep(0.1)
    raise TimedOut(f"CreateTopics not written within {timeout:.0f} s ({attempts} attempts; last: {last})")


def controller_kill(layout: Layout, result: dict[str, Any], timeout: float) -> float:
    """kill -9 of the active controller; seconds until a CreateTopics succeeds (sent to
    another broker). The killed node is left down (:func:`controller_rejoin` starts it)."""
    assert isinstance(layout, SharebrokerCluster | KafkaCluster)
    node, how = layout.active_controller()
    result["controller_killed"] = {"node": node, "found_by": how}
    other = min(n for n in (1, 2, 3) if n != node)
    killed = time.monotonic()
    layout.kill(node)
    attempts = create_until_written(layout.address(other), f"controller-kill-{int(time.time())}", timeout)
    took = round(time.monotonic() - killed, 2)
    result["controller_killed"]["create_attempts"] = attempts
    return took


def controller_rejoin(layout: Layout, node: int, topics: list[str], timeout: float) -> float:
    """The killed controller started again: seconds until it serves and every partition
    has its full ISR."""
    started = time.monotonic()
    layout.restart(node)
    back_in_isr(layout, node, topics, timeout)
    return round(time.monotonic() - started, 2)


# --------------------------------------------------------------------- many groups


def rss_all(layout: Layout) -> dict[int, float]:
    return {n: round(rss_mib(pid), 1) for n, pid in layout.pids().items()}


def groups_topic(layout: Layout, timeout: float) -> None:
    """The topic the groups keep offsets for, with ``RECORDS`` records per partition."""
    with SyncAdmin(layout.bootstrap.split(",")[0], timeout=timeout) as client:
        client.create_topics({scale_groups.TOPIC: scale_groups.PARTITIONS}, replication_factor=layout.rf)
    client2 = admin(layout.bootstrap)
    wait_for(lambda: _led(client2, scale_groups.TOPIC, layout.rf), timeout, "groups topic led", every=0.5)
    producer = Producer(
        {
            "bootstrap.servers": layout.bootstrap,
            "acks": "all",
            "linger.ms": 20,
            "broker.address.family": "v4",
            "log_level": 4,
        }
    )
    for p in range(scale_groups.PARTITIONS):
        for _ in range(scale_groups.RECORDS):
            producer.produce(scale_groups.TOPIC, value=b"g", partition=p)
    if producer.flush(timeout):
        raise TimedOut(f"records to {scale_groups.TOPIC} not delivered within {timeout:.0f} s")


def _led(client: AdminClient, topic: str, rf: int) -> bool:
    t = client.list_topics(topic, timeout=10).topics.get(topic)
    return (
        t is not None
        and t.error is None
        and len(t.partitions) == scale_groups.PARTITIONS
        and all(p.leader >= 0 and len(p.isrs) >= rf for p in t.partitions.values())
    )


def _restart_all(layout: Layout, out: dict[str, Any]) -> float:
    stopping = time.monotonic()
    layout.stop_nodes()
    out["stop_s"] = round(time.monotonic() - stopping, 2)
    started = time.monotonic()
    layout.start_nodes()
    out["start_s"] = round(time.monotonic() - started, 2)
    return started


def many_groups(layout: Layout, args: argparse.Namespace) -> dict[str, Any]:
    """``--groups`` consumer groups and ``--share-groups`` share groups (bench.scale_groups):
    loaded, RSS, a clean restart of every broker, the time until every group answers its
    own offsets again, RSS after that."""
    g = scale_groups
    consumer = [g.consumer_group(i) for i in range(args.groups)]
    share = [g.share_group(i) for i in range(args.share_groups)]
    out: dict[str, Any] = {"consumer_groups": len(consumer), "share_groups": len(share), "partitions": g.PARTITIONS}
    if step(out, "topic", groups_topic, layout, args.timeout) is None and "topic" in out.get("errors", {}):
        return out
    del out["topic"]
    out["rss_before_mib"] = rss_all(layout)
    deadline = time.monotonic() + args.timeout
    for key, kind, groups in (("commit", g.COMMIT, consumer), ("alter_share", g.ALTER, share)):
        if groups and step(out, key, g.drive, layout.bootstrap, {kind: groups}, deadline) is None:
            return out
    time.sleep(args.settle)
    out["rss_loaded_mib"] = rss_all(layout)
    started = step(out, "restart", _restart_all, layout, out)
    if started is None:
        return out
    del out["restart"]
    ask = {kind: groups for kind, groups in ((g.FETCH, consumer), (g.DESCRIBE, share)) if groups}
    if step(out, "after_restart", g.drive, layout.bootstrap, ask, started + args.timeout, started) is not None:
        time.sleep(args.settle)
        out["rss_after_load_mib"] = rss_all(layout)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--layout", choices=("single", "cluster", "both"), default="both")
    parser.add_argument("--sizes", default="1000,10000", help="total partitions, comma-separated, ascending")
    parser.add_argument("--brokers", default="sharebroker,kafka", help="which to run, comma-separated")
    parser.add_argument("--settle", type=float, default=10.0, help="seconds before the idle window")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of the idle CPU window")
    parser.add_argument("--timeout", type=float, default=300.0, help="bound of every step, seconds")
    parser.add_argument("--no-restart", dest="restart", action="store_false")
    parser.add_argument("--no-controller-kill", dest="controller_kill", action="store_false")
    parser.add_argument("--groups", type=int, default=10_000, help="consumer groups with committed offsets (0: none)")
    parser.add_argument("--share-groups", type=int, default=1_000, help="share groups with state for 10 partitions")
    parser.add_argument(
        "--connections", type=int, default=2_000, help="idle connections to one broker of each (0: not measured)"
    )
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--markdown", type=Path, default=None, help="print the tables of this results file, run nothing"
    )
    parser.add_argument("--plot", type=Path, default=None, help="with --markdown: draw its curves into this PNG")
    args = parser.parse_args()
    if args.markdown is not None:
        stored = json.loads(args.markdown.read_text())
        print(scale_report.markdown(stored))
        if args.plot is not None and not scale_report.plot(stored, args.plot):
            raise SystemExit("no plot: matplotlib (pip install -e '.[bench]') or a size with figures missing")
        return
    # sharebroker processes get the run's bound to start and to stop cleanly, not the
    # 20 s and 10 s meant for tests: a broker restarted with many partitions on a busy
    # machine may take longer, and a stop cut short by SIGKILL would pass for a clean
    # one in stop_all_s (LocalCluster.stop kills what is left at its bound).
    localcluster.START_TIMEOUT_S = max(localcluster.START_TIMEOUT_S, args.timeout)
    localcluster.STOP_TIMEOUT_S = max(localcluster.STOP_TIMEOUT_S, args.timeout)
    sizes = sorted(int(s) for s in args.sizes.split(","))
    if any(s % PER_TOPIC for s in sizes):
        raise SystemExit(f"sizes must be multiples of {PER_TOPIC}")
    which = args.brokers.split(",")
    if "kafka" in which and (why := KafkaPeer.available()) is not None:
        raise SystemExit(why)
    if args.layout in ("cluster", "both") and shutil.which("etcd") is None:
        raise SystemExit("etcd is not on PATH: apt-get install etcd-server")
    out = args.json or Path("bench/results") / f"scale-cluster-{time.strftime('%Y-%m-%d')}.json"
    results: dict[str, Any] = json.loads(out.read_text()) if out.exists() else {}
    results.update(
        {"cpus": os.cpu_count(), "partitions_per_topic": PER_TOPIC, "partitions_per_create": PARTITIONS_PER_CREATE}
    )
    layouts: dict[str, dict[str, Callable[[], Layout]]] = {
        "single": {"sharebroker": SharebrokerSingle, "kafka": KafkaSingle},
        "cluster": {"sharebroker": SharebrokerCluster, "kafka": KafkaCluster},
    }
    for name in ("single", "cluster"):
        if args.layout not in (name, "both"):
            continue
        part: dict[str, Any] = {
            "sizes": sizes,
            "replication_factor": 1 if name == "single" else 3,
            "settle_s": args.settle,
            "idle_window_s": args.idle,
            "when": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "command": " ".join(["python -m bench.scale_cluster", *sys.argv[1:]]),
        }
        results[name] = part
        for broker in which:
            print(f"{name} / {broker}:", flush=True)
            part[broker] = run_layout(layouts[name][broker], sizes, args)
            # Written after each broker: a run stopped half-way keeps what it measured.
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(results, indent=1) + "\n")
    if args.connections:
        print(f"idle connections ({args.connections:,} to one broker of each):", flush=True)
        results["connections"] = idle_connections.compare(which, args.connections)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(results, indent=1) + "\n")
    print(json.dumps(results, indent=1))
    print(f"written to {out}")


if __name__ == "__main__":
    main()
