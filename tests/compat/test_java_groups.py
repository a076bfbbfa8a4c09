"""The Apache Kafka Java clients against sharebroker's consumer and streams groups.

* The Java KafkaConsumer 4.4 (``peers/java`` GroupTool) with ``group.protocol=consumer``:
  three consumers join and leave while a producer runs; every record is consumed,
  none again after its offset was committed, and the final assignment is balanced.
* A Kafka Streams 4.3.1 word count (``peers/streams``: a KTable count over a
  repartitioned stream) with ``group.protocol=streams``, two instances, one stopped
  mid-run: the final counts are right.

Skipped without Java or the built jars (``make compat-java compat-streams``).
Run with ``make compat-groups``.
"""

from __future__ import annotations

import json
import shutil
import struct
import subprocess
import threading
import time
import uuid
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition

from broker.admin.client import AdminClient
from tests.integration.clients import create_topic

pytestmark = pytest.mark.compat

ROOT = Path(__file__).resolve().parents[2]
GROUP_TOOL = ["java", "-cp", f"{ROOT}/peers/.cache/java/sharetool.jar:{ROOT}/peers/.cache/java/lib/*"]
WORDCOUNT = ROOT / "peers" / ".cache" / "streams" / "wordcount.jar"
FAST = {
    "group.consumer.min.heartbeat.interval.ms": "500",
    "group.consumer.heartbeat.interval.ms": "500",
    "group.streams.min.heartbeat.interval.ms": "500",
    "group.streams.heartbeat.interval.ms": "500",
    "group.streams.initial.rebalance.delay.ms": "1000",
}


@pytest.fixture(scope="module")
def broker(sharebroker_factory):
    return sharebroker_factory(FAST)


class JavaConsumer:
    """One GroupTool ``consume`` process; stops when its stop file appears."""

    def __init__(self, bootstrap: str, topic: str, group: str, workdir: Path, name: str) -> None:
        self.stop_file = workdir / f"{name}.stop"
        self.out = workdir / f"{name}.out"
        self._fh = self.out.open("w")
        self.proc = subprocess.Popen(
            [
                *GROUP_TOOL,
                "sharebroker.peers.GroupTool",
                "consume",
                "--bootstrap",
                bootstrap,
                "--topic",
                topic,
                "--group",
                group,
                "--protocol",
                "consumer",
                "--stop-file",
                str(self.stop_file),
                "--max-ms",
                "120000",
            ],
            stdout=self._fh,
            stderr=subprocess.DEVNULL,
        )

    def stop(self) -> None:
        self.stop_file.touch()
        try:
            self.proc.wait(60)
        finally:
            self._fh.close()

    def lines(self) -> list[dict]:
        return [json.loads(line) for line in self.out.read_text().splitlines() if line.startswith("{")]


def test_java_consumers_join_and_leave_under_load(broker, tmp_path):
    if shutil.which("java") is None or not (ROOT / "peers/.cache/java/sharetool.jar").exists():
        pytest.skip("the Java group tool is not built (make compat-java)")
    topic, group = f"jg-{uuid.uuid4().hex[:8]}", f"jgg-{uuid.uuid4().hex[:8]}"
    create_topic(broker.bootstrap, topic, 6)
    total = 3000
    done = threading.Event()

    def produce() -> None:
        p = Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 5})
        for i in range(total):
            p.produce(topic, value=str(i).encode(), partition=i % 6)
            if i % 100 == 0:
                p.poll(0)
                time.sleep(0.1)  # ~1,000 records/s over the joins and leaves
        p.flush(30)
        done.set()

    producer = threading.Thread(target=produce)
    producer.start()
    consumers = {"a": JavaConsumer(broker.bootstrap, topic, group, tmp_path, "a")}
    try:
        time.sleep(3)
        consumers["b"] = JavaConsumer(broker.bootstrap, topic, group, tmp_path, "b")
        consumers["c"] = JavaConsumer(broker.bootstrap, topic, group, tmp_path, "c")
        time.sleep(6)
        consumers["b"].stop()
        time.sleep(3)
        consumers["d"] = JavaConsumer(broker.bootstrap, topic, group, tmp_path, "d")
        producer.join(60)
        assert done.is_set()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            got = {(r["p"], r["o"]) for c in consumers.values() for r in c.lines() if "o" in r}
            with AdminClient(broker.bootstrap) as admin:
                d = admin.describe_consumer_group(group)
            counts = sorted(sum(len(tp.partitions) for tp in m.assignment.topic_partitions) for m in d.members)
            if len(got) == total and d.group_state == "Stable" and counts == [2, 2, 2]:
                break
            time.sleep(1)
        assert len(got) == total, f"consumed {len(got)} of {total}"
        assert d.group_state == "Stable" and counts == [2, 2, 2], (d.group_state, counts)
    finally:
        for c in consumers.values():
            if c.proc.poll() is None:
                c.stop()
        producer.join(60)
    # None twice once committed: a delivery after a commit covering it is a failure.
    commits: list[tuple[int, int, int]] = []  # (time, partition, next offset)
    deliveries: list[tuple[int, int, int]] = []  # (time, partition, offset)
    for c in consumers.values():
        for line in c.lines():
            if "committed" in line:
                commits += [(line["t"], int(p), o) for p, o in line["committed"].items()]
            elif "o" in line:
                deliveries.append((line["t"], line["p"], line["o"]))
    covered: dict[int, int] = {}
    events = sorted([(t, 1, p, o) for t, p, o in commits] + [(t, 0, p, o) for t, p, o in deliveries])
    again = []
    seen: set[tuple[int, int]] = set()
    for _, kind, p, o in events:
        if kind == 1:
            covered[p] = max(covered.get(p, 0), o)
        else:
            if (p, o) in seen and o < covered.get(p, 0):
                again.append((p, o))
            seen.add((p, o))
    assert again == [], f"delivered again after a commit covered them: {again[:10]}"


def _wordcount(bootstrap: str, app: str, source: str, sink: str, state: Path, stop: Path, log: Path, files: list):
    fh = log.open("w")
    files.append(fh)
    return subprocess.Popen(
        [
            "java",
            "-jar",
            str(WORDCOUNT),
            "-bootstrap",
            bootstrap,
            "-app-id",
            app,
            "-input",
            source,
            "-output",
            sink,
            "-state-dir",
            str(state),
            "-stop-file",
            str(stop),
            "-max-ms",
            "180000",
            "-protocol",
            "streams",
        ],
        stdout=fh,
        stderr=subprocess.DEVNULL,
    )


def _final_counts(bootstrap: str, topic: str, settle_s: float = 5.0) -> dict[str, int]:
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "wc-reader", "enable.auto.commit": False})
    try:
        with AdminClient(bootstrap) as admin:
            partitions = admin.topic_partitions([topic])[topic]
        c.assign([TopicPartition(topic, p, 0) for p in partitions])
        counts: dict[str, int] = {}
        quiet_since = time.monotonic()
        while time.monotonic() - quiet_since < settle_s:
            msg = c.poll(0.2)
            if msg is None or msg.error():
                continue
            counts[msg.key().decode()] = struct.unpack(">q", msg.value())[0]
            quiet_since = time.monotonic()
        return counts
    finally:
        c.close()


def test_kafka_streams_word_count_with_an_instance_stopped_mid_run(broker, tmp_path):
    if shutil.which("java") is None or not WORDCOUNT.exists():
        pytest.skip("the Kafka Streams word count is not built (make compat-streams)")
    tag = uuid.uuid4().hex[:8]
    source, sink, app = f"wc-in-{tag}", f"wc-out-{tag}", f"wc-{tag}"
    create_topic(broker.bootstrap, source, 4)
    create_topic(broker.bootstrap, sink, 1)
    words = ["kafka", "streams", "broker", "python", "trio", "share", "group", "count"]
    expected: dict[str, int] = {}
    p = Producer({"bootstrap.servers": broker.bootstrap, "linger.ms": 5})

    def produce(n: int, start: int) -> None:
        for i in range(start, start + n):
            line = " ".join(words[(i * k) % len(words)] for k in (1, 3, 5))
            for w in line.split():
                expected[w] = expected.get(w, 0) + 1
            p.produce(source, key=str(i).encode(), value=line.encode())
        p.flush(30)

    stops = [tmp_path / "one.stop", tmp_path / "two.stop"]
    logs = [tmp_path / "one.out", tmp_path / "two.out"]
    files: list = []
    apps = [
        _wordcount(broker.bootstrap, app, source, sink, tmp_path / f"state-{i}", stops[i], logs[i], files)
        for i in (0, 1)
    ]
    try:
        produce(400, 0)
        time.sleep(15)
        stops[1].touch()  # one instance stops mid-run; the other takes its tasks over
        apps[1].wait(60)
        produce(400, 400)
        deadline = time.monotonic() + 90
        counts: dict[str, int] = {}
        while time.monotonic() < deadline:
            counts = _final_counts(broker.bootstrap, sink, settle_s=3)
            if counts == expected:
                break
        assert counts == expected
        states = [json.loads(x) for x in logs[0].read_text().splitlines() if x.startswith("{")]
        assert {"state": "RUNNING"} in states and not any("error" in s for s in states)
    finally:
        for stop, proc in zip(stops, apps):
            stop.touch()
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
        for fh in files:
            fh.close()
