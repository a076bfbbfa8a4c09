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
partitions with one CreateTopics request, then measures with every partition there:

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

After the last size, ``cluster`` also times a broker restart (kill -9 of broker 2, started
again, until every partition has its full ISR again) and, for both layouts, the clean
stop of every broker at once (SIGTERM to all, until all have exited).

Every wait is bounded (``--timeout`` seconds); a step that does not finish in time is
written as ``null`` with the reason, and the run goes on with the other broker.

Results go to ``bench/results/scale-cluster-<date>.json`` (a run of one layout updates
that layout's part of the file).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from confluent_kafka import Producer, TopicPartition
from confluent_kafka.admin import AdminClient, NewTopic, OffsetSpec

from bench.peers import KafkaPeer, Sharebroker
from bench.replication import KafkaNodes
from bench.scale_report import markdown
from broker.localcluster import LocalCluster

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

    def stop(self) -> None:
        raise NotImplementedError


class SharebrokerSingle(Layout):
    name, rf = "sharebroker", 1

    def __init__(self) -> None:
        self.peer = Sharebroker().start()
        self.bootstrap = self.peer.bootstrap

    def pids(self) -> dict[int, int]:
        return {1: self.peer.pid}

    def stop(self) -> None:
        self.peer.stop()


class KafkaSingle(Layout):
    name, rf = "kafka", 1

    def __init__(self) -> None:
        self.peer = KafkaPeer().start()
        self.bootstrap = self.peer.bootstrap

    def pids(self) -> dict[int, int]:
        return {1: self.peer.pid}

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

    def stop(self) -> None:
        self.nodes.stop()


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


def create(bootstrap: str, topics: list[str], rf: int, timeout: float) -> tuple[float, float]:
    client = admin(bootstrap)
    started = time.monotonic()
    futures = client.create_topics(
        [NewTopic(t, num_partitions=PER_TOPIC, replication_factor=rf) for t in topics],
        request_timeout=timeout,
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


def list_offsets_s(bootstrap: str, topics: list[str], timeout: float) -> float:
    client = admin(bootstrap)
    client.list_topics(timeout=60)
    request = {TopicPartition(t, p): OffsetSpec.latest() for t in topics for p in range(PER_TOPIC)}
    started = time.monotonic()
    futures = client.list_offsets(request, request_timeout=timeout)
    for f in futures.values():
        f.result(timeout=timeout)
    return time.monotonic() - started


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
            row.update(idle(layout, args.settle, args.idle))
            etcd = layout.etcd()
            if etcd is not None:
                row.update(etcd)
            print(f"  {layout.name} {size}: {json.dumps(row)}", flush=True)
        if layout.rf == 3 and args.restart:
            step(result, "restart_to_full_isr_s", restart, layout, made, args.timeout)
            print(f"  {layout.name}: restart to full ISR {result['restart_to_full_isr_s']} s", flush=True)
    finally:
        stopping = time.monotonic()
        layout.stop()
        result["stop_all_s"] = round(time.monotonic() - stopping, 2)
        print(f"  {layout.name}: stopped in {result['stop_all_s']} s", flush=True)
    return result


def restart(layout: Layout, topics: list[str], timeout: float) -> float:
    """kill -9 of broker 2, started again: until every partition has its 3 replicas in ISR."""
    assert isinstance(layout, SharebrokerCluster | KafkaCluster)
    client = admin(layout.bootstrap.split(",")[0])
    killed = time.monotonic()
    layout.kill(2)
    layout.restart(2)
    wait_for(lambda: all_ready(client, topics, 3), timeout, "every ISR full again", every=1.0)
    return round(time.monotonic() - killed, 2)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--layout", choices=("single", "cluster", "both"), default="both")
    parser.add_argument("--sizes", default="1000,10000", help="total partitions, comma-separated, ascending")
    parser.add_argument("--brokers", default="sharebroker,kafka", help="which to run, comma-separated")
    parser.add_argument("--settle", type=float, default=10.0, help="seconds before the idle window")
    parser.add_argument("--idle", type=float, default=10.0, help="seconds of the idle CPU window")
    parser.add_argument("--timeout", type=float, default=300.0, help="bound of every step, seconds")
    parser.add_argument("--no-restart", dest="restart", action="store_false")
    parser.add_argument("--json", type=Path, default=None)
    parser.add_argument(
        "--markdown", type=Path, default=None, help="print the tables of this results file, run nothing"
    )
    args = parser.parse_args()
    if args.markdown is not None:
        print(markdown(json.loads(args.markdown.read_text())))
        return
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
    results.update({"cpus": os.cpu_count(), "partitions_per_topic": PER_TOPIC})
    layouts = {
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
        }
        results[name] = part
        for broker in which:
            print(f"{name} / {broker}:", flush=True)
            part[broker] = run_layout(layouts[name][broker], sizes, args)
            # Written after each broker: a run stopped half-way keeps what it measured.
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(json.dumps(results, indent=1) + "\n")
    print(json.dumps(results, indent=1))
    print(f"written to {out}")


if __name__ == "__main__":
    main()
