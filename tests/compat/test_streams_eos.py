"""A Kafka Streams word count with processing.guarantee=exactly_once_v2 against sharebroker.

``peers/streams`` (Kafka Streams 4.3.1, the newest on Maven Central) counts the
words of an input topic into a KTable and writes every update to an output
topic. Its process is killed with SIGKILL in the middle of the input and
started again (with an empty state directory, so the store is rebuilt from
its changelog): a read_committed reader must then see, for every word, a last
value equal to the word's true count, never more (nothing counted twice) and
never less (nothing lost). Run with the classic group protocol and with a KIP-1071
streams group. Build with ``peers/streams/build.sh``; takes about a minute each.

The same app on a 3-broker cluster (topics with three replicas) keeps exact
counts while the broker leading its output is killed with SIGKILL mid-input and
restarted: its transactions span the brokers (coordinator, partitions and
group coordinator each on one of them) and move to new leaders.
"""

from __future__ import annotations

import random
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from confluent_kafka import Consumer, Producer, TopicPartition

from broker.testing import BrokerProcess
from tests.integration.clients import create_topic

pytestmark = pytest.mark.compat

ROOT = Path(__file__).resolve().parents[2]
STREAMS = ROOT / "peers" / ".cache" / "streams"
WORDS = [f"w{i:02d}" for i in range(20)]


@pytest.fixture(scope="module")
def app_jar() -> Path:
    jar = STREAMS / "wordcount.jar"
    if shutil.which("java") is None or not jar.exists():
        pytest.skip("the Kafka Streams word count is not built (peers/streams/build.sh)")
    return jar


class App:
    """One WordCountApp process."""

    def __init__(
        self, jar: Path, bootstrap: str, state_dir: Path, log: Path, protocol: str, replication_factor: int = 1
    ) -> None:
        self.cmd = [
            "java",
            "-cp",
            f"{jar}:{jar.parent / 'lib'}/*",
            "sharebroker.peers.WordCountApp",
            "--bootstrap", bootstrap,
            "--application-id", "wordcount-eos",
            "--input", "lines",
            "--output", "counts",
            "--state-dir", str(state_dir),
            "--group-protocol", protocol,
            "--replication-factor", str(replication_factor),
        ]  # fmt: skip
        self.log = log
        self.proc: subprocess.Popen | None = None
        self.running = threading.Event()

    def start(self) -> App:
        self.running.clear()
        out = open(self.log, "ab")
        self.proc = subprocess.Popen(self.cmd, stdout=subprocess.PIPE, stderr=out, stdin=subprocess.DEVNULL)
        out.close()

        def watch(proc: subprocess.Popen) -> None:
            assert proc.stdout is not None
            with proc.stdout:  # closed at the end of output (the process exited)
                for line in proc.stdout:
                    if line.strip() == b"RUNNING":
                        self.running.set()

        self.watcher = threading.Thread(target=watch, args=(self.proc,), daemon=True)
        self.watcher.start()
        return self

    def wait_running(self, timeout: float = 60) -> None:
        assert self.running.wait(timeout), f"the Streams app did not reach RUNNING: {self.log.read_text()[-3000:]}"

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        if self.proc is not None:
            self.watcher.join(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                pass
        self.kill()


def produce_lines(bootstrap: str, lines: list[str], per_second: int | None = None) -> None:
    """Write ``lines`` to the input (at most ``per_second`` a second when given)."""
    # Idempotent: a retry after a broker failure must not write a line twice.
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, "enable.idempotence": True})
    started = time.monotonic()
    for i, line in enumerate(lines):
        p.produce("lines", key=str(i).encode(), value=line.encode())
        if i % 25 == 0:
            p.poll(0)
            # Paced by sleeping: poll(timeout) returns as soon as a delivery report is served,
            # so with quick acknowledgements it would not hold the rate.
            ahead = 0.0 if per_second is None else started + i / per_second - time.monotonic()
            if ahead > 0:
                time.sleep(ahead)
    assert p.flush(60) == 0


def latest_counts(bootstrap: str) -> tuple[dict[str, int], int]:
    """Each word's last value in the output, read_committed; and how many updates were read."""
    c = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": "counts-reader",
            "isolation.level": "read_committed",
            "enable.auto.commit": False,
            "enable.partition.eof": True,
        }
    )
    try:
        c.assign([TopicPartition("counts", p, 0) for p in range(2)])
        last: dict[str, int] = {}
        updates = 0
        ends: set[int] = set()
        deadline = time.monotonic() + 30
        while len(ends) < 2 and time.monotonic() < deadline:
            m = c.poll(0.5)
            if m is None:
                continue
            err = m.error()
            if err is not None:
                partition = m.partition()
                if err.code() == -191 and partition is not None:
                    ends.add(partition)
                continue
            key, value = m.key(), m.value()
            assert key is not None and value is not None, "the word count writes keyed counts"
            last[key.decode()] = int(value)
            updates += 1
        return last, updates
    finally:
        c.close()


def settled_counts(bootstrap: str, expected: Counter[str], timeout: float) -> dict[str, int]:
    """Each word's last count once they all equal ``expected``, or as last read after
    ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    counts: dict[str, int] = {}
    while time.monotonic() < deadline:
        counts, _ = latest_counts(bootstrap)
        if counts == dict(expected):
            break
        time.sleep(1)
    return counts


# The classic group protocol (Kafka Streams' default) and a KIP-1071 streams group.
@pytest.mark.parametrize("protocol", ["classic", "streams"])
def test_word_count_is_exact_after_a_kill(tmp_path: Path, app_jar: Path, protocol: str):
    broker = BrokerProcess(tmp_path / "data").start()
    app = App(app_jar, broker.bootstrap, tmp_path / "state-1", tmp_path / "app.log", protocol)
    try:
        bs = broker.bootstrap
        create_topic(bs, "lines", partitions=2)
        create_topic(bs, "counts", partitions=2)
        rng = random.Random(42)
        lines = [" ".join(rng.choice(WORDS) for _ in range(5)) for _ in range(3000)]
        expected = Counter(w for line in lines for w in line.split())
        produce_lines(bs, lines[:1000])
        app.start().wait_running()
        # Let it work, then kill it in the middle of more input.
        deadline = time.monotonic() + 60
        while sum(latest_counts(bs)[0].values()) < 1000 and time.monotonic() < deadline:
            time.sleep(0.5)
        feeder = threading.Thread(target=produce_lines, args=(bs, lines[1000:2500]))
        feeder.start()
        time.sleep(1.5)
        app.kill()
        feeder.join(60)
        partial, _ = latest_counts(bs)
        assert all(partial.get(w, 0) <= expected[w] for w in WORDS)
        # A new instance, with no local state: the counts come back from the changelog.
        app = App(app_jar, bs, tmp_path / "state-2", tmp_path / "app.log", protocol).start()
        app.wait_running(90)
        produce_lines(bs, lines[2500:])
        counts = settled_counts(bs, expected, 120)
        assert counts == dict(expected), {
            w: (counts.get(w), expected[w]) for w in WORDS if counts.get(w) != expected[w]
        }
    finally:
        app.stop()
        broker.kill()


@pytest.mark.timeout(600)
def test_word_count_is_exact_across_a_broker_kill_in_a_cluster(tmp_path: Path, app_jar: Path):
    from confluent_kafka.admin import AdminClient, NewTopic

    from broker.localcluster import LocalCluster

    settings = {
        "broker.session.timeout.ms": "3000",
        "broker.heartbeat.interval.ms": "500",
        "offsets.topic.num.partitions": "6",
        "transaction.state.log.num.partitions": "6",
    }
    with LocalCluster(3, tmp_path / "cluster", settings=settings) as c:
        bs = c.bootstrap
        admin = AdminClient({"bootstrap.servers": bs})
        for name in ("lines", "counts"):
            new = NewTopic(name, num_partitions=2, replication_factor=3, config={"min.insync.replicas": "2"})
            admin.create_topics([new])[name].result(timeout=30)
        app = App(app_jar, bs, tmp_path / "state", tmp_path / "app.log", "classic", replication_factor=3)
        try:
            rng = random.Random(7)
            lines = [" ".join(rng.choice(WORDS) for _ in range(5)) for _ in range(6000)]
            expected = Counter(w for line in lines for w in line.split())
            produce_lines(bs, lines[:1000])
            app.start().wait_running(90)
            deadline = time.monotonic() + 60
            while sum(latest_counts(bs)[0].values()) < 1000 and time.monotonic() < deadline:
                time.sleep(0.5)
            # Input keeps coming for about 8 s; the broker leading the output dies 2 s in.
            feeder = threading.Thread(target=produce_lines, args=(bs, lines[1000:5000], 500))
            feeder.start()
            time.sleep(2)
            victim = admin.list_topics("counts", timeout=10).topics["counts"].partitions[0].leader
            assert feeder.is_alive(), "the input was all written before the kill"
            c.broker(victim).kill()
            time.sleep(5)
            c.broker(victim).start()
            feeder.join(120)
            produce_lines(bs, lines[5000:])
            counts = settled_counts(bs, expected, 150)
            if counts != dict(expected):
                tool = [sys.executable, "-m", "broker", "transactions", "--bootstrap-server", bs]
                checks = [["list"], *(["find-hanging", "--broker-id", str(n)] for n in (1, 2, 3))]
                checks += [["describe-producers", "--topic", "counts", "--partition", str(q)] for q in (0, 1)]
                for args in checks:
                    run = subprocess.run(tool + args, capture_output=True, text=True, timeout=60)
                    print(run.stdout, run.stderr)
                print(app.log.read_text()[-5000:])
            assert counts == dict(expected), {
                w: (counts.get(w), expected[w]) for w in WORDS if counts.get(w) != expected[w]
            }
        finally:
            app.stop()
