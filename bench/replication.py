"""Replication against Apache Kafka 4.4, both as 3-broker clusters on this machine (``make bench-replication``).

Two figures, each for sharebroker (``sharebroker local-cluster``'s pieces: etcd and
three brokers) and for Kafka 4.4.0 (three KRaft nodes, each broker and controller),
started one after the other in the same run with fresh data directories:

- **produce**: one librdkafka idempotent producer, 1 KiB records, acks=all, into a
  topic of 3 partitions with replication factor 3 and min.insync.replicas 2 (leaders
  spread over the brokers); MB/s, median of ``--runs`` after one unmeasured
  warm-up run of a quarter of the records.
- **failover**: under a steady acks=all load (about 2,000 records/s), kill -9 of the
  leader of partition 0; the time from the kill to the first delivery report of
  partition 0 after it. The victim is restarted and the ISR is full again before
  the next round; median and max of ``--rounds``.

Both clusters detect a dead broker by its session: ``broker.session.timeout.ms``
3000 and ``broker.heartbeat.interval.ms`` 500 on both (Kafka's defaults are 9000
and 2000; sharebroker's lease follows the same setting), so the figure compares
what each does once the loss is noticed plus noticing it. Nothing is pinned: the
brokers of both share the machine's two cores with the client.

Results go to ``bench/results/replication-<date>.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import statistics
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any, Protocol

from confluent_kafka import Producer
from confluent_kafka.admin import AdminClient, NewTopic

from bench.peers import KAFKA_JAR, free_port
from bench.produce import produce
from broker.localcluster import LocalCluster
from broker.log.meta import new_cluster_id

PARTITIONS = 3
SESSION = {"broker.session.timeout.ms": "3000", "broker.heartbeat.interval.ms": "500"}
TOPIC_CONFIGS = {"min.insync.replicas": "2"}
LIBS = KAFKA_JAR.parent


class Cluster(Protocol):
    bootstrap: str

    def kill(self, node: int) -> None: ...
    def restart(self, node: int) -> None: ...
    def stop(self) -> None: ...


class Sharebrokers:
    name = "sharebroker"

    def __init__(self) -> None:
        self.cluster = LocalCluster(3, settings=SESSION).start()
        self.bootstrap = self.cluster.bootstrap

    def kill(self, node: int) -> None:
        self.cluster.broker(node).kill()

    def restart(self, node: int) -> None:
        self.cluster.broker(node).start()

    def stop(self) -> None:
        self.cluster.stop()


class KafkaNodes:
    """Three Kafka 4.4.0 KRaft nodes (broker and controller each) on loopback."""

    name = "kafka"

    def __init__(self, settings: dict[str, str] | None = None, heap: str = "512m") -> None:
        settings = SESSION if settings is None else settings
        self.heap = heap
        self._tmp = tempfile.TemporaryDirectory(prefix="bench-kafka-cluster-")
        self.root = Path(self._tmp.name)
        self.ports = {n: free_port() for n in (1, 2, 3)}
        self.controller_ports = {n: free_port() for n in (1, 2, 3)}
        self.procs: dict[int, subprocess.Popen] = {}
        self.bootstrap = ",".join(f"127.0.0.1:{p}" for p in self.ports.values())
        voters = ",".join(f"{n}@127.0.0.1:{p}" for n, p in self.controller_ports.items())
        cluster_id = new_cluster_id()
        for n in (1, 2, 3):
            d = self.root / f"node-{n}"
            (d / "data").mkdir(parents=True)
            (d / "server.properties").write_text(
                "\n".join(
                    [
                        "process.roles=broker,controller",
                        f"node.id={n}",
                        f"controller.quorum.voters={voters}",
                        f"listeners=CLIENT://127.0.0.1:{self.ports[n]},CONTROLLER://127.0.0.1:{self.controller_ports[n]}",
                        f"advertised.listeners=CLIENT://127.0.0.1:{self.ports[n]}",
                        "listener.security.protocol.map=CLIENT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                        "inter.broker.listener.name=CLIENT",
                        "controller.listener.names=CONTROLLER",
                        f"log.dirs={d / 'data'}",
                        "offsets.topic.replication.factor=3",
                        "offsets.topic.num.partitions=6",
                        "transaction.state.log.replication.factor=3",
                        "transaction.state.log.min.isr=2",
                        "share.coordinator.state.topic.replication.factor=3",
                        "share.coordinator.state.topic.min.isr=2",
                        "group.initial.rebalance.delay.ms=0",
                        *(f"{k}={v}" for k, v in settings.items()),
                        "",
                    ]
                )
            )
            (d / "log4j2.properties").write_text(
                "status = warn\nappender.file.type = File\nappender.file.name = file\n"
                f"appender.file.fileName = {d / 'server.log'}\nappender.file.layout.type = PatternLayout\n"
                "appender.file.layout.pattern = [%d] %p %m (%c)%n\nrootLogger.level = INFO\n"
                "rootLogger.appenderRef.file.ref = file\n"
            )
            subprocess.run(
                self._java(
                    n, "kafka.tools.StorageTool", "format", "-t", cluster_id, "-c", str(d / "server.properties")
                ),
                check=True,
                capture_output=True,
                timeout=120,
            )
        for n in (1, 2, 3):
            self.restart(n)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                # Refused connections are expected until the JVMs listen: not logged.
                probe = AdminClient({"bootstrap.servers": self.bootstrap, "log_level": 0})
                md = probe.list_topics(timeout=5)
                if len(md.brokers) == 3:
                    return
            except Exception:
                pass
            time.sleep(1)
        raise RuntimeError(f"Kafka cluster did not come up; see {self.root}")

    def _java(self, n: int, *args: str) -> list[str]:
        d = self.root / f"node-{n}"
        return [
            "java",
            "-Xms256m",
            f"-Xmx{self.heap}",
            "-XX:+UseG1GC",
            "-Djava.awt.headless=true",
            f"-Dlog4j2.configurationFile={d / 'log4j2.properties'}",
            "-cp",
            f"{LIBS}/*",
            *args,
        ]

    def restart(self, node: int) -> None:
        d = self.root / f"node-{node}"
        with open(d / "stdout.log", "ab") as out:
            self.procs[node] = subprocess.Popen(
                self._java(node, "kafka.Kafka", str(d / "server.properties")),
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
            )

    def kill(self, node: int) -> None:
        p = self.procs[node]
        p.send_signal(signal.SIGKILL)
        p.wait()

    def stop(self) -> None:
        for p in self.procs.values():
            if p.poll() is None:
                p.terminate()
        for p in self.procs.values():
            try:
                p.wait(60)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self._tmp.cleanup()


def _state(bootstrap: str, topic: str) -> dict[int, tuple[int, list[int]]]:
    md = AdminClient({"bootstrap.servers": bootstrap}).list_topics(topic, timeout=10)
    return {p: (m.leader, sorted(m.isrs)) for p, m in md.topics[topic].partitions.items()}


def _wait(check: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            value = check()
        except Exception:
            value = None
        if value:
            return value
        time.sleep(0.2)
    raise RuntimeError(f"{what} not within {timeout} s")


def _full(bootstrap: str, topic: str) -> dict[int, tuple[int, list[int]]] | None:
    s = _state(bootstrap, topic)
    return s if all(leader > 0 and isr == [1, 2, 3] for leader, isr in s.values()) else None


def _create(bootstrap: str, topic: str) -> None:
    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, num_partitions=PARTITIONS, replication_factor=3, config=TOPIC_CONFIGS)])[
        topic
    ].result(timeout=60)
    _wait(lambda: _full(bootstrap, topic), 60, f"{topic} fully replicated")


class SteadyLoad(threading.Thread):
    """acks=all, idempotent, about ``rate`` records/s; delivery times per partition."""

    def __init__(self, bootstrap: str, topic: str, rate: int = 2000) -> None:
        super().__init__(daemon=True)
        self.bootstrap, self.topic, self.rate = bootstrap, topic, rate
        self.acked: list[tuple[float, int]] = []
        self.stop_flag = threading.Event()
        self.failed = 0

    def run(self) -> None:
        p = Producer(
            {
                "bootstrap.servers": self.bootstrap,
                "acks": "all",
                "enable.idempotence": True,
                "linger.ms": 5,
                "message.timeout.ms": 300000,
                "broker.address.family": "v4",
            }
        )

        def report(err: Any, msg: Any) -> None:
            if err is None:
                self.acked.append((time.monotonic(), msg.partition()))
            else:
                self.failed += 1

        sent = 0
        started = time.monotonic()
        while not self.stop_flag.is_set():
            try:
                p.produce(self.topic, value=b"x" * 100, partition=sent % PARTITIONS, on_delivery=report)
                sent += 1
            except BufferError:
                p.poll(0.05)
                continue
            if sent % 20 == 0:
                p.poll(max(0.0, started + sent / self.rate - time.monotonic()))
        p.flush(120)

    def first_after(self, partition: int, since: float) -> float | None:
        for ts, part in list(self.acked):
            if ts > since and part == partition:
                return ts
        return None


def failover(cluster: Cluster, rounds: int) -> list[float]:
    topic = "failover"
    _create(cluster.bootstrap, topic)
    load = SteadyLoad(cluster.bootstrap, topic)
    load.start()
    took = []
    try:
        _wait(lambda: len(load.acked) > 500, 60, "the load running")
        for r in range(rounds):
            leader = _wait(lambda: _full(cluster.bootstrap, topic), 120, "a full ISR")[0][0]
            killed = time.monotonic()
            cluster.kill(leader)
            first = _wait(partial(load.first_after, 0, killed), 120, f"round {r}: an ack after the kill")
            took.append(first - killed)
            print(f"  round {r}: killed broker {leader}, first ack after {first - killed:.2f} s", flush=True)
            cluster.restart(leader)
    finally:
        load.stop_flag.set()
        load.join(180)
    return took


def throughput(cluster: Cluster, records: int, runs: int) -> list[float]:
    # One unmeasured run first: a fresh JVM (and a fresh Python process) warms up.
    _create(cluster.bootstrap, "warmup")
    produce(cluster.bootstrap, "warmup", PARTITIONS, max(records // 4, 1000))
    rates = []
    for i in range(runs):
        topic = f"produce-{i}"
        _create(cluster.bootstrap, topic)
        elapsed = produce(cluster.bootstrap, topic, PARTITIONS, records)
        rates.append(records * 1024 / 1e6 / elapsed)
    return rates


def measure(make: Callable[[], Cluster], records: int, runs: int, rounds: int) -> dict[str, Any]:
    cluster = make()
    try:
        rates = throughput(cluster, records, runs)
        took = failover(cluster, rounds)
    finally:
        cluster.stop()
    return {
        "produce_mb_per_s": round(statistics.median(rates), 1),
        "produce_all": [round(r, 1) for r in rates],
        "failover_median_s": round(statistics.median(took), 2),
        "failover_max_s": round(max(took), 2),
        "failover_all": [round(t, 2) for t in took],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    if shutil.which("java") is None or not KAFKA_JAR.exists():
        raise SystemExit("Kafka 4.4.0 jars or java missing: run `make peer-kafka`")
    if shutil.which("etcd") is None:
        raise SystemExit("etcd is not on PATH: apt-get install etcd-server")
    results: dict[str, Any] = {
        "records": args.records,
        "record_bytes": 1024,
        "partitions": PARTITIONS,
        "replication_factor": 3,
        "min_insync_replicas": 2,
        "session": SESSION,
        "cpus": os.cpu_count(),
    }
    for name, make in (("sharebroker", Sharebrokers), ("kafka", KafkaNodes)):
        print(f"{name}:", flush=True)
        results[name] = measure(make, args.records, args.runs, args.rounds)
        print(f"{name}: {json.dumps(results[name])}", flush=True)
    sb, k = results["sharebroker"], results["kafka"]
    results["ratio_produce"] = round(sb["produce_mb_per_s"] / k["produce_mb_per_s"], 2)
    results["ratio_failover_median"] = round(sb["failover_median_s"] / k["failover_median_s"], 2)
    print(json.dumps(results, indent=1))
    out = args.json or Path("bench/results") / f"replication-{time.strftime('%Y-%m-%d')}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
