"""A Kafka Streams KTable restored from its changelog, before and after compaction.

``KTableRestoreApp`` (peers/streams, Kafka Streams 4.3.1) materializes a topic of
keyed updates as a KTable in a RocksDB store with a changelog topic. The input
holds many updates per key, so the changelog holds many superseded records. The
app's local state directory is deleted and the store restored from the changelog
twice: once with every update still in it, and once after the broker's cleaner has
compacted it (the changelog's segments made to roll with a small ``segment.ms`` and
its ``min.cleanable.dirty.ratio`` lowered, through IncrementalAlterConfigs). Both
times the restored table, read by an interactive query, must equal the latest value
of each key, and the second restore must read fewer records. The records restored
and the time taken (the app's StateRestoreListener) are printed, for docs/COMPAT.md.

Build with ``make compat-ktable-restore`` (about two minutes).
"""

from __future__ import annotations

import queue
import re
import shutil
import subprocess
import threading
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from confluent_kafka import Consumer, KafkaError, Producer, TopicPartition
from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource, ResourceType

from broker.localcluster import free_port
from broker.testing import BrokerProcess
from tests.integration.clients import create_topic

pytestmark = [pytest.mark.compat, pytest.mark.timeout(600)]

ROOT = Path(__file__).resolve().parents[2]
STREAMS = ROOT / "peers" / ".cache" / "streams"
APP_ID = "ktable-restore"
INPUT = "updates"
CHANGELOG = f"{APP_ID}-latest-changelog"
PARTITIONS = 2
UPDATES = 200_000
KEYS = 1_000
WAIT_S = 180


@pytest.fixture(scope="module")
def app_jar() -> Path:
    jar = STREAMS / "wordcount.jar"
    if shutil.which("java") is None or not jar.exists():
        pytest.skip("the Kafka Streams apps are not built (make streams-app)")
    return jar


class App:
    """One KTableRestoreApp process; its stdout lines are parsed into events."""

    def __init__(self, jar: Path, bootstrap: str, state_dir: Path, log: Path) -> None:
        self.cmd = [
            "java",
            "-cp",
            f"{jar}:{jar.parent / 'lib'}/*",
            "sharebroker.peers.KTableRestoreApp",
            "--bootstrap", bootstrap,
            "--application-id", APP_ID,
            "--input", INPUT,
            "--state-dir", str(state_dir),
        ]  # fmt: skip
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.lines: queue.Queue[str] = queue.Queue()
        self.restored: tuple[int, int] | None = None  # (records, ms)
        self.running_ms: int | None = None

    def start(self) -> App:
        with open(self.log, "ab") as err:
            self.proc = subprocess.Popen(self.cmd, stdout=subprocess.PIPE, stdin=subprocess.PIPE, stderr=err)

        def watch(proc: subprocess.Popen[bytes]) -> None:
            assert proc.stdout is not None
            with proc.stdout:
                for raw in proc.stdout:
                    self.lines.put(raw.decode().rstrip("\n"))

        self.watcher = threading.Thread(target=watch, args=(self.proc,), daemon=True)
        self.watcher.start()
        return self

    def _next(self, deadline: float) -> str:
        try:
            return self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise AssertionError(f"no output from the Streams app in time: {self.log.read_text()[-3000:]}") from None

    def wait_running(self, timeout: float = WAIT_S) -> None:
        deadline = time.monotonic() + timeout
        while self.running_ms is None:
            line = self._next(deadline)
            if line.startswith("RESTORED "):
                records, ms = line.split()[1:]
                self.restored = (int(records), int(ms))
            elif line.startswith("RUNNING "):
                self.running_ms = int(line.split()[1])
            elif line.startswith("STATE "):
                raise AssertionError(f"the Streams app stopped: {line}: {self.log.read_text()[-3000:]}")

    def table(self, timeout: float = 60) -> dict[str, str]:
        """The store's rows, through an interactive query."""
        assert self.proc is not None and self.proc.stdin is not None
        deadline = time.monotonic() + timeout
        while True:
            self.proc.stdin.write(b"dump\n")
            self.proc.stdin.flush()
            line = self._next(deadline)
            if line.startswith("TABLE "):
                break
            assert line.startswith("ERROR "), line
            time.sleep(0.5)
        rows: dict[str, str] = {}
        while (line := self._next(deadline)) != "END":
            _, key, value = line.split(" ", 2)
            rows[key] = value
        return rows

    def stop(self) -> None:
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.watcher.join(10)


def produce(bootstrap: str, updates: list[tuple[str, str]]) -> None:
    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 20, "batch.num.messages": 10_000})
    for i, (key, value) in enumerate(updates):
        while True:
            try:
                p.produce(INPUT, key=key.encode(), value=value.encode())
                break
            except BufferError:
                p.poll(0.1)
        if i % 1000 == 0:
            p.poll(0)
    assert p.flush(60) == 0


def end_offsets(bootstrap: str, topic: str) -> int:
    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "ktable-offsets"})
    try:
        return sum(c.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1] for p in range(PARTITIONS))
    finally:
        c.close()


def count_records(bootstrap: str, topic: str) -> int:
    """How many records a reader from the beginning finds in the topic now."""
    c = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": "ktable-counter",
            "enable.auto.commit": False,
            "enable.partition.eof": True,
        }
    )
    try:
        c.assign([TopicPartition(topic, p, 0) for p in range(PARTITIONS)])
        count = 0
        ends: set[int | None] = set()
        deadline = time.monotonic() + 60
        while len(ends) < PARTITIONS:
            assert time.monotonic() < deadline, f"{topic}: no end of partition in 60 s"
            for m in c.consume(10_000, 0.5):
                err = m.error()
                if err is None:
                    count += 1
                elif err.code() == KafkaError._PARTITION_EOF:
                    ends.add(m.partition())
                else:
                    raise AssertionError(str(err))
        return count
    finally:
        c.close()


def step(what: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {what}", flush=True)


def wait_until(what: str, done: Callable[[], bool], timeout: float = WAIT_S) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.5)


def cleaned_partitions(metrics_port: int) -> set[int]:
    """The changelog partitions the broker's cleaner has cleaned (its metrics endpoint)."""
    with urllib.request.urlopen(f"http://127.0.0.1:{metrics_port}/metrics", timeout=10) as r:
        text = r.read().decode()
    pattern = re.compile(r"^sharebroker_log_seconds_since_last_clean\{([^}]*)\}", re.M)
    out: set[int] = set()
    for labels in pattern.findall(text):
        fields = dict(re.findall(r'(\w+)="([^"]*)"', labels))
        if fields.get("topic") == CHANGELOG:
            out.add(int(fields["partition"]))
    return out


def restore(
    app_jar: Path, bootstrap: str, state_dir: Path, log: Path, expected: dict[str, str]
) -> tuple[int, int, int]:
    """Restart the app with its state directory deleted; (records restored, restore ms, ms to RUNNING)."""
    shutil.rmtree(state_dir)
    app = App(app_jar, bootstrap, state_dir, log).start()
    try:
        app.wait_running()
        assert app.restored is not None and app.running_ms is not None, "the store was not restored"
        table = app.table()
        assert len(table) == len(expected)
        assert table == expected, {k: (table.get(k), v) for k, v in expected.items() if table.get(k) != v}
        return (*app.restored, app.running_ms)
    finally:
        app.stop()


def test_ktable_restores_from_a_compacted_changelog(tmp_path: Path, app_jar: Path):
    metrics_port = free_port()
    broker = BrokerProcess(
        tmp_path / "data",
        {"log.cleaner.backoff.ms": "500", "metrics.listen": f"127.0.0.1:{metrics_port}"},
    ).start()
    state = tmp_path / "state"
    log = tmp_path / "app.log"
    apps: list[App] = []
    try:
        bs = broker.bootstrap
        create_topic(bs, INPUT, partitions=PARTITIONS)
        # Many updates per key, in order: the latest value of key k is its last update.
        updates = [(f"k{i % KEYS:04d}", f"v{i}") for i in range(UPDATES)]
        expected = dict(updates)
        produce(bs, updates)
        step(f"produced {UPDATES} updates")

        app = App(app_jar, bs, state, log).start()
        apps.append(app)
        app.wait_running()
        # No record cache: each update is one changelog record.
        wait_until("the changelog to hold every update", lambda: end_offsets(bs, CHANGELOG) >= UPDATES)
        assert app.table() == expected
        app.stop()
        step("the table holds every key's latest value")

        before = restore(app_jar, bs, state, log, expected)
        assert before[0] >= UPDATES, before
        step(f"restored before compaction: {before}")

        # Let the cleaner at the changelog: segments roll after 100 ms, any dirt is cleanable.
        admin = AdminClient({"bootstrap.servers": bs})
        resource = ConfigResource(
            ResourceType.TOPIC,
            CHANGELOG,
            incremental_configs=[
                ConfigEntry("segment.ms", "100", incremental_operation=AlterConfigOpType.SET),
                ConfigEntry("min.cleanable.dirty.ratio", "0.01", incremental_operation=AlterConfigOpType.SET),
            ],
        )
        for future in admin.incremental_alter_configs([resource]).values():
            future.result(30)
        # One more update per key through the app: its first append rolls the old segment.
        time.sleep(0.2)
        app = App(app_jar, bs, state, log).start()
        apps.append(app)
        app.wait_running()
        final = [(f"k{k:04d}", f"w{k}") for k in range(KEYS)]
        produce(bs, final)
        expected.update(final)
        wait_until("the final updates in the changelog", lambda: end_offsets(bs, CHANGELOG) >= UPDATES + KEYS)
        app.stop()
        step("final updates written")
        wait_until("the cleaner to clean the changelog", lambda: cleaned_partitions(metrics_port) == {0, 1})
        left = count_records(bs, CHANGELOG)
        step(f"cleaned: {left} records left in the changelog")
        assert left <= 2 * KEYS + 100, f"{left} records left in the compacted changelog"

        after = restore(app_jar, bs, state, log, expected)
        print(
            f"\nKTable restore of {KEYS} keys from {UPDATES} updates: before compaction "
            f"{before[0]} records in {before[1]} ms (RUNNING after {before[2]} ms); "
            f"after compaction {after[0]} records in {after[1]} ms (RUNNING after {after[2]} ms)"
        )
        assert after[0] < before[0] // 10, (before, after)
    finally:
        for a in apps:
            a.stop()
        broker.kill()
